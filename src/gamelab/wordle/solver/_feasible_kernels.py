"""Can every candidate be found within `depth` guesses? The depth-limited feasibility search.

Asking only *whether* a strategy within a guess limit exists is far cheaper than its optimum: a
node is settled by the first guess all of whose classes are feasible one guess shallower, and
the largest class usually refutes a guess at once. :func:`feasible_kernel` is that AND-OR
search, with an explicit stack of one frame per guess still to play (numba cannot cache
recursion) and a memo of candidate sets keyed by two 64-bit sums of random words per candidate
(the search's own convention, :mod:`gamelab.wordle.solver._memo_kernels`): each entry keeps the
deepest limit proven infeasible and the shallowest proven feasible, so a set answers for every
limit at once (feasibility is monotone in the limit).

One body serves both modes. Normal mode (any guess allowed) passes ``pool``, ``allow``,
``salt1`` and ``salt2`` as None: numba drops the branches of an argument that is None when it
compiles, so the normal-mode kernel is compiled without the hard-mode code (and a hard-mode
search compiles its own specialisation only when one is asked). In both hard modes a node is a
candidate set and a pool: the full-length words still allowed, as a bit mask over positions
in ``guesses`` (then the game's full-length guesses). Both hard modes narrow the pool by each
guess and its colours alone (the game's rule: the colours' demands, which only add up; strict:
the words that would have shown those colours), so a child's pool is its parent's AND one
precomputed mask, ``allow[guess, colours]``
(:func:`gamelab.wordle.solver._hard_feasible_kernels.allow_masks_kernel`); the memo key mixes
in a hash of the pool, and a guess's classes are searched smallest first (largest first in
normal mode).

Its plain-Python twins are :func:`gamelab.wordle.solver.feasible.feasible_python` (normal mode)
and :func:`gamelab.wordle.solver.feasible.hard_feasible_python` (both hard modes), compared by
``tests/wordle/test_wordle_feasible.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.wordle.solver._memo_kernels import memo_find
from gamelab.wordle.solver._scan_kernels import sort_by_keys

NO_FEASIBLE = 127  # memo: no limit proven feasible yet


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def set_hash(buf, n, rnd1, rnd2):
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(n):
        h1 += rnd1[buf[i]]
        h2 += rnd2[buf[i]]
    return h1 | np.uint64(1), h2


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _separates(tab, buf, n, g, seen):
    """True if guess g gives every candidate of the set a pattern of its own."""
    ok = True
    for i in range(n):
        c = tab[g, buf[i]]
        if seen[c]:
            ok = False
            break
        seen[c] = True
    for i in range(n):
        seen[tab[g, buf[i]]] = False
    return ok


@njit(cache=True, inline="always")
def count_codes(tab, g, buf, n, codes, cnt):
    """Count the set's members by the pattern guess g shows them (codes[i]: member i's; cnt
    by pattern, to be reset by the caller): (number of classes, pattern of a largest class)."""
    ncl = 0
    big = tab[g, buf[0]]
    for i in range(n):
        c = tab[g, buf[i]]
        codes[i] = c
        if cnt[c] == 0:
            ncl += 1
        cnt[c] += 1
        if cnt[c] > cnt[big]:
            big = c
    return ncl, big


@njit(cache=True)
def pair_bits_kernel(tab, guesses):
    """bits[a, b, w]: bit t of word w set if guesses[64 w + t] tells answers a and b apart
    (tab: guesses x answers feedback codes)."""
    n = tab.shape[1]
    n_w = (guesses.shape[0] + 63) // 64
    bits = np.zeros((n, n, n_w), dtype=np.uint64)
    for t in range(guesses.shape[0]):
        row = tab[guesses[t]]
        bit = np.uint64(1) << np.uint64(t & 63)
        w = t >> 6
        for a in range(n):
            for b in range(a + 1, n):
                if row[a] != row[b]:
                    bits[a, b, w] |= bit
                    bits[b, a, w] |= bit
    return bits


def pair_bits_python(tab: np.ndarray, guesses: np.ndarray) -> np.ndarray:
    """Twin of :func:`pair_bits_kernel`, a pair at a time."""
    n = tab.shape[1]
    n_w = (len(guesses) + 63) // 64
    bits = np.zeros((n, n, n_w), dtype=np.uint64)
    for a in range(n):
        for b in range(n):
            if a == b:
                continue
            for t, g in enumerate(guesses):
                if tab[g, a] != tab[g, b]:
                    bits[a, b, t // 64] |= np.uint64(1 << (t % 64))
    return bits


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def pool_hash(mask, salt1, salt2):
    """Two 64-bit hashes of a pool mask (each word mixed with its own salt, then summed)."""
    p1 = np.uint64(0)
    p2 = np.uint64(0)
    for w in range(mask.shape[0]):
        x = mask[w] ^ salt1[w]
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        p1 += x ^ (x >> np.uint64(31))
        y = mask[w] ^ salt2[w]
        y = (y ^ (y >> np.uint64(29))) * np.uint64(0x94D049BB133111EB)
        y = (y ^ (y >> np.uint64(32))) * np.uint64(0xBF58476D1CE4E5B9)
        p2 += y ^ (y >> np.uint64(29))
    return p1, p2


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def pool_guesses(mask, guesses, out):
    """The guesses whose bit is set in the pool `mask` (bit p: ``guesses[p]``) into `out`, in
    order; returns how many."""
    m = 0
    for w0 in range(mask.shape[0]):
        word = mask[w0]
        while word != 0:
            low = word & (~word + np.uint64(1))
            b = 0
            while (low >> np.uint64(b)) != np.uint64(1):
                b += 1
            word ^= low
            out[m] = guesses[w0 * 64 + b]
            m += 1
    return m


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _separable(bits, buf, n, mask, allow, acc, stats, wit, wpool):
    """With the pair bits: True if some guess tells every two candidates of the set apart (in
    hard mode, `allow` not None: some guess of the pool `mask`).

    acc: scratch of 2 x words (the running AND, then the words still nonzero). wit: the
    witness of the last refusal, kept between calls (wit[0]: its size; wit[1:1+size]: its
    members; wit[1+n_ans+a] = 1 marks answer a): members of it are compared first, so a set
    that contains the last refused one is refused within a few pairs. In hard mode a refusal
    keeps its pool in `wpool`: it holds for any pool inside that one."""
    n_w = bits.shape[2]
    n_ans = bits.shape[0]
    base = 1 + n_ans
    order = wit[base + n_ans : base + 2 * n_ans]
    k = 0
    for i in range(n):
        if wit[base + buf[i]] != 0:
            order[k] = buf[i]
            k += 1
    for i in range(n):
        if wit[base + buf[i]] == 0:
            order[k] = buf[i]
            k += 1
    live = 0  # words of the running AND still nonzero, listed in acc[n_w:]
    first = bits[order[0], order[1]]
    for w in range(n_w):
        v = first[w]
        if allow is not None:
            v &= mask[w]
        if v != 0:
            acc[w] = v
            acc[n_w + live] = w
            live += 1
    j = 1
    while live > 0 and j < n:
        # the pairs of order[j] with every earlier member
        for i in range(j):
            if j == 1:
                break
            row = bits[order[i], order[j]]
            stats[5] += 1
            q = 0
            while q < live:
                w = np.int64(acc[n_w + q])
                v = acc[w] & row[w]
                if v == 0:
                    live -= 1
                    acc[n_w + q] = acc[n_w + live]
                else:
                    acc[w] = v
                    q += 1
            if live == 0:
                break
        if live == 0:
            break
        j += 1
    if live > 0:
        return True
    # refused: order[0..j] is the new witness
    for i in range(wit[0]):
        wit[base + wit[1 + i]] = 0
    wit[0] = j + 1
    for i in range(j + 1):
        wit[1 + i] = order[i]
        wit[base + order[i]] = 1
    if allow is not None:
        for w in range(n_w):
            wpool[w] = mask[w]
    return False


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _three(tab, bits, buf, n, guesses, n_opts, mask, allow, scratch, acc, stats, wit, wpool):
    """With the pair bits: True if one of the first `n_opts` guesses leaves only classes that
    one more guess (in hard mode, of the class's own pool) splits into single candidates (the
    set is then found within three guesses). `scratch` = (cnt, pos, codes, part, cmask)."""
    mark = wit[1 + 3 * bits.shape[0] :]
    for i in range(n):
        mark[buf[i]] = 1
    ok = _three_marked(
        tab, bits, buf, n, guesses, n_opts, mask, allow, scratch, acc, stats, wit, wpool
    )
    for i in range(n):
        mark[buf[i]] = 0
    return ok


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _three_marked(tab, bits, buf, n, guesses, n_opts, mask, allow, scratch, acc, stats, wit, wpool):
    """_three with the set's members marked in wit (its last quarter)."""
    cnt, pos, codes, part, cmask = scratch
    n_ans = bits.shape[0]
    n_w = bits.shape[2]
    for t in range(n_opts):
        g = guesses[t]
        stats[3] += 1
        # the last refused set, if it lies in this set and in one class of g (in hard mode
        # with a pool at least as large as that class's): refused at once
        w = wit[0]
        if w >= 2:
            inside = True
            for i in range(w):
                if wit[1 + 3 * n_ans + wit[1 + i]] == 0:
                    inside = False
                    break
            if inside:
                c0 = tab[g, wit[1]]
                for i in range(1, w):
                    if tab[g, wit[1 + i]] != c0:
                        inside = False
                        break
                if allow is not None and inside:
                    for q in range(n_w):
                        if (mask[q] & allow[g, c0, q]) & ~wpool[q] != 0:
                            inside = False
                            break
                if inside:
                    stats[1] += 1
                    continue
        stats[4] += n
        ncl, big = count_codes(tab, g, buf, n, codes, cnt)
        ok = ncl >= 2
        if ok and cnt[big] >= 2:
            # the largest class first: it is the likeliest to need more than one guess
            m = 0
            for i in range(n):
                if codes[i] == big:
                    part[m] = buf[i]
                    m += 1
            if allow is not None:
                for q in range(n_w):
                    cmask[q] = mask[q] & allow[g, big, q]
            ok = _separable(bits, part, m, cmask, allow, acc, stats, wit, wpool)
        if ok:
            # the other classes of two or more, laid out one after another in `part`
            start = 0
            for i in range(n):
                c = codes[i]
                if c != big and cnt[c] >= 2 and pos[c] == 0:
                    pos[c] = start + 1  # 1 + where the class starts
                    start += cnt[c]
            fill = start
            for i in range(n):
                c = codes[i]
                if c != big and cnt[c] >= 2:
                    part[pos[c] - 1] = buf[i]
                    pos[c] += 1
            i = 0
            while i < fill and ok:
                c = tab[g, part[i]]
                m = cnt[c]
                if allow is not None:
                    for q in range(n_w):
                        cmask[q] = mask[q] & allow[g, c, q]
                if not _separable(bits, part[i:], m, cmask, allow, acc, stats, wit, wpool):
                    ok = False
                i += m
        for i in range(n):
            c = codes[i]
            cnt[c] = 0
            pos[c] = 0
        if ok:
            return True
    return False


def new_scratch(
    levels: int, n_ans: int, n_g: int, n_codes: int, n_bits_words: int
) -> tuple[np.ndarray, ...]:
    """The scratch buffers of :func:`feasible_kernel` for up to `levels` guesses, `n_g` guesses
    allowed and pair bits of `n_bits_words` words a row, made by numpy (each array a kernel
    allocates costs an allocation routine of its own to compile); the kernel zeroes what a
    call reads before it writes, the stacks are written first."""
    n_w = max(1, n_bits_words)
    return (
        np.zeros((2, levels, n_ans), dtype=np.int32),  # 0: sets, part
        np.zeros((levels, n_g), dtype=np.int32),  # 1: order
        np.zeros((3, levels, n_codes), dtype=np.int64),  # 2: cls_start, cls_len, cls_code
        np.zeros((levels, n_w), dtype=np.uint64),  # 3: pools
        np.zeros((5, levels), dtype=np.int64),  # 4: set_n, order_n, kpos, cls_n, jpos
        np.zeros((2, levels), dtype=np.uint64),  # 5: h1s, h2s
        np.zeros(levels, dtype=np.bool_),  # 6: fresh
        np.zeros((2, n_codes), dtype=np.int64),  # 7: cnt, pos
        np.zeros(n_codes, dtype=np.bool_),  # 8: seen
        np.zeros(n_codes, dtype=np.int64),  # 9: cl_codes
        np.zeros(n_ans, dtype=np.int64),  # 10: codes
        np.zeros((2, n_g), dtype=np.int64),  # 11: keys, rank
        np.zeros(n_g, dtype=np.int32),  # 12: opts
        np.zeros((2, n_w), dtype=np.uint64),  # 13: cmask, wpool
        np.zeros(max(2, 2 * n_bits_words), dtype=np.uint64),  # 14: acc
        np.zeros(1 + 4 * n_ans, dtype=np.int32),  # 15: wit
    )


@njit(cache=True)
def feasible_kernel(
    tab,
    cands,
    depth,
    guesses,
    n_codes,
    bits,
    rnd1,
    rnd2,
    mk1,
    mk2,
    mflag,
    minf,
    mfeas,
    stats,
    pool,
    allow,
    salt1,
    salt2,
    scratch,
):
    """1 if some strategy finds each of `cands` within `depth` guesses, else 0.

    tab: guesses x answers feedback codes (uint8, below n_codes). guesses: the guess indices
    allowed (hard mode: the full-length guesses, which the pools' bits number). bits:
    :func:`pair_bits_kernel` of the same guesses (one guess left is then answered from them),
    or an empty (0, 0, 0) array to scan the guesses instead (normal mode only). The memo (mk1,
    mk2, mflag as in :mod:`~gamelab.wordle.solver._memo_kernels`; minf: deepest limit proven
    infeasible, 0 if none; mfeas: shallowest proven feasible, NO_FEASIBLE if none) is read and
    written; it is never filled beyond 70 % (later sets are then not remembered). stats: nodes
    searched, memo hits, memo entries, guesses tried, candidates partitioned, pairs compared.

    Hard mode: `pool` the allowed words as a mask over ``guesses`` (uint64 words), `allow`
    :func:`~gamelab.wordle.solver._hard_feasible_kernels.allow_masks_kernel`, `salt1`/`salt2`
    the pool hash's salts per mask word; every candidate must be allowed in its pool (an
    answer is always allowed: it shows every demand met). Normal mode: all four None.
    scratch: :func:`new_scratch` (at least `depth` levels), in any state a call left it.
    """
    n_g = guesses.shape[0]
    cap = mk1.shape[0]
    if depth < 1:
        return 1 if cands.shape[0] == 0 else 0
    n_w = max(1, bits.shape[2])
    use_bits = bits.shape[0] > 0
    # scratch (made by new_scratch: numpy's allocations cost the kernel no compiling)
    sets, part = scratch[0][0], scratch[0][1]  # each level's set, its partition
    order = scratch[1]  # guesses, best first
    cls_start, cls_len, cls_code = scratch[2][0], scratch[2][1], scratch[2][2]
    pools = scratch[3]  # hard mode: each level's pool
    set_n, order_n, kpos = scratch[4][0], scratch[4][1], scratch[4][2]
    cls_n, jpos = scratch[4][3], scratch[4][4]
    h1s, h2s = scratch[5][0], scratch[5][1]
    fresh = scratch[6]  # the frame's next guess is still to partition
    cnt, pos = scratch[7][0], scratch[7][1]
    seen = scratch[8]
    cl_codes, codes = scratch[9], scratch[10]
    keys, rank = scratch[11][0], scratch[11][1]
    opts = scratch[12]  # hard mode: the guesses of a pool
    cmask, wpool = scratch[13][0], scratch[13][1]
    acc, wit = scratch[14], scratch[15]
    # what a call reads before it writes starts at zero (the stacks are written first)
    pools[:] = 0
    scratch[4][:] = 0
    scratch[5][:] = 0
    fresh[:] = False
    scratch[7][:] = 0
    seen[:] = False
    scratch[13][:] = 0
    wit[:] = 0

    for i in range(cands.shape[0]):
        sets[0, i] = cands[i]
    set_n[0] = cands.shape[0]
    if pool is not None:
        for w in range(n_w):
            pools[0, w] = pool[w]
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
                state = 1  # (in hard mode either candidate is allowed: one, then the other)
            else:
                mask = cmask  # (normal mode: unused)
                h1, h2 = set_hash(sets[lev], n, rnd1, rnd2)
                if pool is not None:
                    mask = pools[lev]
                    p1, p2 = pool_hash(mask, salt1, salt2)
                    h1 = (h1 + p1 * np.uint64(0x9E3779B97F4A7C15)) | np.uint64(1)
                    h2 = h2 ^ (p2 + np.uint64(0xD6E8FEB86659FD93))
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
                        if _separable(bits, buf, n, mask, allow, acc, stats, wit, wpool):
                            state = 1
                    else:
                        for t in range(n_g):
                            stats[3] += 1
                            if _separates(tab, buf, n, guesses[t], seen):
                                state = 1
                                break
                    continue
                # the guesses of this node: all, or (hard mode) those of its pool
                n_opts = n_g
                node_guesses = guesses
                if pool is not None:
                    n_opts = pool_guesses(mask, guesses, opts)
                    node_guesses = opts
                if d == 3 and use_bits:
                    scratch = (cnt, pos, codes, part[lev], cmask)
                    if _three(
                        tab, bits, buf, n, node_guesses, n_opts, mask, allow, scratch, acc,
                        stats, wit, wpool,
                    ):  # fmt: skip
                        state = 1
                    continue
                # order the useful guesses: smallest largest class first, then most classes
                # (ties: in the order of `guesses`)
                m = 0
                for t in range(n_opts):
                    g = node_guesses[t]
                    ncl, big = count_codes(tab, g, buf, n, codes, cnt)
                    largest = cnt[big]
                    for i in range(n):
                        cnt[codes[i]] = 0
                    if ncl < 2 or (d == 3 and largest > n_codes):
                        continue  # tells nothing, or leaves a class no guess can split
                    keys[m] = (largest * 1024 - ncl) * (n_g + 1) + m
                    order[lev, m] = g
                    rank[m] = m
                    m += 1
                if m == 0:
                    continue
                sort_by_keys(keys, rank, m)
                for i in range(m):
                    opts[i] = order[lev, i]
                for i in range(m):
                    order[lev, i] = opts[rank[i]]
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
                c = tab[g, buf[i]]
                codes[i] = c
                cnt[c] += 1
            k = 0
            for i in range(n):
                c = codes[i]
                if cnt[c] >= 2 and pos[c] == 0:
                    pos[c] = 1  # listed
                    cl_codes[k] = c
                    k += 1
            # classes by size (insertion sort: a few dozen at most), largest first; in hard
            # mode smallest first: a small class is often the one that refutes a guess, at
            # almost no cost (upto-gen5 within 5: 148 -> 54 CPU-s)
            for a in range(1, k):
                c = cl_codes[a]
                b = a - 1
                if pool is not None:
                    while b >= 0 and cnt[cl_codes[b]] > cnt[c]:
                        cl_codes[b + 1] = cl_codes[b]
                        b -= 1
                else:
                    while b >= 0 and cnt[cl_codes[b]] < cnt[c]:
                        cl_codes[b + 1] = cl_codes[b]
                        b -= 1
                cl_codes[b + 1] = c
            start = 0
            for a in range(k):
                c = cl_codes[a]
                cls_start[lev, a] = start
                cls_len[lev, a] = cnt[c]
                cls_code[lev, a] = c
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
        if allow is not None:
            # the child's pool: the parent's words that the guess and the class's colours allow
            g = order[lev, kpos[lev]]
            c = cls_code[lev, j]
            for w in range(n_w):
                pools[lev + 1, w] = pools[lev, w] & allow[g, c, w]
        lev += 1
        state = -1
