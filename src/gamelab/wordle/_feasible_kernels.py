"""Can every candidate be found within `depth` guesses? The depth-limited feasibility search.

Asking only *whether* a strategy within a guess limit exists is far cheaper than its optimum: a
node is settled by the first guess all of whose classes are feasible one guess shallower, and
the largest class usually refutes a guess at once. :func:`feasible_kernel` is that AND-OR
search (normal mode: any guess is allowed), with an explicit stack of one frame per guess
still to play (numba cannot cache recursion) and a memo of candidate sets keyed by two 64-bit
sums of random words per candidate (the search's own convention, :mod:`gamelab.wordle._memo_kernels`):
each entry keeps the deepest limit proven infeasible and the shallowest proven feasible, so a
set answers for every limit at once (feasibility is monotone in the limit).

Its plain-Python twin is :func:`gamelab.wordle.feasible.feasible_python` (compared by
``tests/wordle/test_wordle_feasible.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.wordle._memo_kernels import memo_find

NO_FEASIBLE = 127  # memo: no limit proven feasible yet


@njit(cache=True)
def _set_hash(buf, n, rnd1, rnd2):
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(n):
        h1 += rnd1[buf[i]]
        h2 += rnd2[buf[i]]
    return h1 | np.uint64(1), h2


@njit(cache=True)
def _separates(tt, buf, n, g, seen):
    """True if guess g gives every candidate of the set a pattern of its own."""
    ok = True
    for i in range(n):
        c = tt[buf[i], g]
        if seen[c]:
            ok = False
            break
        seen[c] = True
    for i in range(n):
        seen[tt[buf[i], g]] = False
    return ok


@njit(cache=True)
def pair_bits_kernel(tt, guesses):
    """bits[a, b, w]: bit t of word w set if guesses[64 w + t] tells answers a and b apart."""
    n = tt.shape[0]
    n_w = (guesses.shape[0] + 63) // 64
    bits = np.zeros((n, n, n_w), dtype=np.uint64)
    for a in range(n):
        for b in range(a + 1, n):
            for t in range(guesses.shape[0]):
                g = guesses[t]
                if tt[a, g] != tt[b, g]:
                    bits[a, b, t >> 6] |= np.uint64(1) << np.uint64(t & 63)
            bits[b, a, :] = bits[a, b, :]
    return bits


@njit(cache=True)
def _separable(bits, buf, n, acc):
    """With the pair bits: True if some guess tells every two candidates of the set apart."""
    n_w = acc.shape[0]
    acc[:] = ~np.uint64(0)
    for i in range(n):
        for j in range(i + 1, n):
            row = bits[buf[i], buf[j]]
            any_left = np.uint64(0)
            for w in range(n_w):
                acc[w] &= row[w]
                any_left |= acc[w]
            if any_left == 0:
                return False
    return True


@njit(cache=True)
def _three(tt, bits, buf, n, guesses, cnt, pos, codes, part, acc, stats):
    """With the pair bits: True if some guess leaves only classes that one more guess splits
    into single candidates (the set is then found within three guesses)."""
    for t in range(guesses.shape[0]):
        g = guesses[t]
        stats[3] += 1
        ncl = 0
        for i in range(n):
            c = tt[buf[i], g]
            codes[i] = c
            if cnt[c] == 0:
                ncl += 1
            cnt[c] += 1
        ok = ncl >= 2
        if ok:
            # the classes of two or more, laid out one after another in `part`
            start = 0
            for i in range(n):
                c = codes[i]
                if cnt[c] >= 2 and pos[c] == 0:
                    pos[c] = start + 1  # 1 + where the class starts
                    start += cnt[c]
            fill = start
            for i in range(n):
                c = codes[i]
                if cnt[c] >= 2:
                    k = pos[c] - 1
                    part[k] = buf[i]
                    pos[c] += 1
            # check each class: it starts where its run of codes starts
            i = 0
            while i < fill and ok:
                c = tt[part[i], g]
                m = cnt[c]
                if not _separable(bits, part[i:], m, acc):
                    ok = False
                i += m
        for i in range(n):
            c = codes[i]
            cnt[c] = 0
            pos[c] = 0
        if ok:
            return True
    return False


@njit(cache=True)
def feasible_kernel(tt, cands, depth, guesses, n_codes, bits, rnd1, rnd2, mk1, mk2, mflag, minf, mfeas, stats):
    """1 if some strategy finds each of `cands` within `depth` guesses, else 0.

    tt: answers x guesses feedback codes (uint8, below n_codes). guesses: the guess indices
    allowed. bits: :func:`pair_bits_kernel` of the same guesses (one guess left is then
    answered from them), or an empty (0, 0, 0) array to scan the guesses instead. The memo
    (mk1, mk2, mflag as in :mod:`~gamelab.wordle._memo_kernels`; minf: deepest limit proven
    infeasible, 0 if none; mfeas: shallowest proven feasible, NO_FEASIBLE if none) is read and
    written; it is never filled beyond 70 % (later sets are then not remembered). stats: nodes
    searched, memo hits, memo entries, guesses tried.
    """
    n_ans = tt.shape[0]
    n_g = guesses.shape[0]
    cap = mk1.shape[0]
    if depth < 1:
        return 1 if cands.shape[0] == 0 else 0
    levels = depth
    sets = np.empty((levels, n_ans), dtype=np.int32)
    set_n = np.zeros(levels, dtype=np.int64)
    h1s = np.zeros(levels, dtype=np.uint64)
    h2s = np.zeros(levels, dtype=np.uint64)
    order = np.empty((levels, n_g), dtype=np.int32)
    order_n = np.zeros(levels, dtype=np.int64)
    kpos = np.zeros(levels, dtype=np.int64)
    part = np.empty((levels, n_ans), dtype=np.int32)
    cls_start = np.empty((levels, n_codes), dtype=np.int64)
    cls_len = np.empty((levels, n_codes), dtype=np.int64)
    cls_n = np.zeros(levels, dtype=np.int64)
    jpos = np.zeros(levels, dtype=np.int64)
    fresh = np.zeros(levels, dtype=np.bool_)  # the frame's next guess is still to partition
    cnt = np.zeros(n_codes, dtype=np.int64)
    pos = np.zeros(n_codes, dtype=np.int64)
    seen = np.zeros(n_codes, dtype=np.bool_)
    codes = np.empty(n_ans, dtype=np.int64)
    keys = np.empty(n_g, dtype=np.int64)
    cl_codes = np.empty(n_codes, dtype=np.int64)
    use_bits = bits.shape[0] > 0
    acc = np.empty(max(1, bits.shape[2]), dtype=np.uint64)

    for i in range(cands.shape[0]):
        sets[0, i] = cands[i]
    set_n[0] = cands.shape[0]
    lev = 0
    # `state`: -1 the frame at `lev` was just pushed and is to be opened; 0/1 a result for
    # the frame at `lev` (to be recorded and handed to its parent)
    state = -1
    while True:
        if state == -1:
            # open the set at `lev` with `d` guesses left
            n = set_n[lev]
            d = depth - lev
            if n <= 1:
                state = 1
            elif d <= 1:
                state = 0
            elif n == 2:
                state = 1
            else:
                h1, h2 = _set_hash(sets[lev], n, rnd1, rnd2)
                h1s[lev] = h1
                h2s[lev] = h2
                slot = memo_find(mk1, mk2, mflag, h1, h2)
                if mflag[slot] != 0 and d <= minf[slot]:
                    stats[1] += 1
                    state = 0
                    continue
                if mflag[slot] != 0 and d >= mfeas[slot]:
                    stats[1] += 1
                    state = 1
                    continue
                stats[0] += 1
                buf = sets[lev]
                state = 0
                if d == 2:
                    # one guess must give every candidate a pattern of its own
                    if n > n_codes:
                        pass
                    elif use_bits:
                        stats[3] += 1
                        if _separable(bits, buf, n, acc):
                            state = 1
                    else:
                        for t in range(n_g):
                            stats[3] += 1
                            if _separates(tt, buf, n, guesses[t], seen):
                                state = 1
                                break
                    continue
                if d == 3 and use_bits:
                    if _three(tt, bits, buf, n, guesses, cnt, pos, codes, part[lev], acc, stats):
                        state = 1
                    continue
                # order the useful guesses: smallest largest class first, then most classes
                m = 0
                for t in range(n_g):
                    g = guesses[t]
                    largest = 0
                    ncl = 0
                    for i in range(n):
                        c = tt[buf[i], g]
                        codes[i] = c
                        if cnt[c] == 0:
                            ncl += 1
                        cnt[c] += 1
                        if cnt[c] > largest:
                            largest = cnt[c]
                    for i in range(n):
                        cnt[codes[i]] = 0
                    if ncl < 2 or (d == 3 and largest > n_codes):
                        continue  # tells nothing, or leaves a class no guess can split
                    keys[m] = largest * 1024 - ncl
                    order[lev, m] = g
                    m += 1
                if m == 0:
                    continue
                idx = np.argsort(keys[:m], kind="mergesort")
                tmp = order[lev, :m].copy()
                for i in range(m):
                    order[lev, i] = tmp[idx[i]]
                order_n[lev] = m
                kpos[lev] = 0
                fresh[lev] = True
                state = -3  # searching
            if state == 0 or state == 1:
                continue
        if state == 0 or state == 1:
            # record the result of the set at `lev`, then hand it to the parent
            n = set_n[lev]
            d = depth - lev
            if n > 2 and d >= 2:
                h1 = h1s[lev]
                h2 = h2s[lev]
                slot = memo_find(mk1, mk2, mflag, h1, h2)
                if mflag[slot] == 0 and stats[2] * 10 < cap * 7:
                    mflag[slot] = 1
                    mk1[slot] = h1
                    mk2[slot] = h2
                    minf[slot] = 0
                    mfeas[slot] = NO_FEASIBLE
                    stats[2] += 1
                if mflag[slot] != 0:
                    if state == 1 and d < mfeas[slot]:
                        mfeas[slot] = d
                    if state == 0 and d > minf[slot]:
                        minf[slot] = d
            if lev == 0:
                return state
            lev -= 1
            if state == 1:
                jpos[lev] += 1
            else:
                kpos[lev] += 1
                fresh[lev] = True
            state = -3
        # state -3: the frame at `lev` goes on with its current guess (or the next one)
        if fresh[lev]:
            if kpos[lev] >= order_n[lev]:
                state = 0
                continue
            g = order[lev, kpos[lev]]
            stats[3] += 1
            n = set_n[lev]
            buf = sets[lev]
            for i in range(n):
                c = tt[buf[i], g]
                codes[i] = c
                cnt[c] += 1
            k = 0
            for i in range(n):
                c = codes[i]
                if cnt[c] >= 2 and pos[c] == 0:
                    pos[c] = 1  # listed
                    cl_codes[k] = c
                    k += 1
            # classes by size, largest first (insertion sort: a few dozen at most)
            for a in range(1, k):
                c = cl_codes[a]
                b = a - 1
                while b >= 0 and cnt[cl_codes[b]] < cnt[c]:
                    cl_codes[b + 1] = cl_codes[b]
                    b -= 1
                cl_codes[b + 1] = c
            start = 0
            for a in range(k):
                c = cl_codes[a]
                cls_start[lev, a] = start
                cls_len[lev, a] = cnt[c]
                pos[c] = start
                start += cnt[c]
            for i in range(n):
                c = codes[i]
                if cnt[c] >= 2:
                    part[lev, pos[c]] = buf[i]
                    pos[c] += 1
            for i in range(n):
                c = codes[i]
                cnt[c] = 0
                pos[c] = 0
            cls_n[lev] = k
            jpos[lev] = 0
            fresh[lev] = False
        j = jpos[lev]
        if j >= cls_n[lev]:
            state = 1  # every class of this guess is feasible
            continue
        s = cls_start[lev, j]
        ln = cls_len[lev, j]
        for i in range(ln):
            sets[lev + 1, i] = part[lev, s + i]
        set_n[lev + 1] = ln
        lev += 1
        state = -1
