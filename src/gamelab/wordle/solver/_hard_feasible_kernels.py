"""The depth-limited feasibility search in both hard modes (:func:`hard_feasible_kernel`).

A node is a candidate set and a pool: the full-length words still allowed, as a bit mask over
positions in the game's full-length guesses (one bit per word). Both hard modes narrow the pool
by each guess and its colours alone (the game's rule: the colours' demands, which only add up;
strict: the words that would have shown those colours), so a child's pool is its parent's AND
one precomputed mask, ``allow[guess, colours]`` (:func:`allow_masks_kernel`). The memo and the
counting helpers are the normal-mode search's (:mod:`._feasible_kernels`).

The plain-Python twins are :func:`gamelab.wordle.solver.feasible.hard_feasible_python` and
:func:`gamelab.wordle.solver.feasible.allow_masks_python` (compared by
``tests/wordle/test_wordle_feasible.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.wordle._kernels import feedback_code
from gamelab.wordle.solver._feasible_kernels import NO_FEASIBLE, count_codes, set_hash
from gamelab.wordle.solver._memo_kernels import memo_find

HARD_GAME = 1
HARD_STRICT = 2


@njit(cache=True)
def allow_masks_kernel(gcodes, glens, fcodes, flens, present, hard_id, rule_id, n_codes):
    """allow[g, c, w]: bit t set if full-length word 64 w + t may be guessed after guess g
    showed colours c (hard_id HARD_GAME: greens stay, shown letters are reused; HARD_STRICT:
    the word would have shown c itself). Only codes with present[g, c] are filled (a class
    has colours some answer shows). gcodes/glens: every guess; fcodes/flens: the full-length
    guesses, in order."""
    n_g = gcodes.shape[0]
    n_f = fcodes.shape[0]
    n_w = (n_f + 63) // 64
    allow = np.zeros((n_g, n_codes, n_w), dtype=np.uint64)
    width = gcodes.shape[1]
    colours = np.zeros(width, dtype=np.int64)
    used = np.zeros(fcodes.shape[1], dtype=np.bool_)
    digits = np.zeros(width, dtype=np.int64)
    shown = np.zeros(width, dtype=np.int64)  # at a letter's first position: copies shown
    for g in range(n_g):
        gl = glens[g]
        if hard_id == HARD_STRICT:
            for w in range(n_f):
                c = feedback_code(gcodes[g], gl, fcodes[w], flens[w], rule_id, colours, used)
                if present[g, c]:
                    allow[g, c, w >> 6] |= np.uint64(1) << np.uint64(w & 63)
            continue
        for c in range(n_codes):
            if not present[g, c]:
                continue
            code = c
            for t in range(gl - 1, -1, -1):
                digits[t] = code % 3
                code //= 3
            for t in range(gl):
                shown[t] = 0
                first = t
                for u in range(t):
                    if gcodes[g, u] == gcodes[g, t]:
                        first = u
                        break
                if first == t:
                    for u in range(t, gl):
                        if gcodes[g, u] == gcodes[g, t] and digits[u] != 0:
                            shown[t] += 1
            for w in range(n_f):
                ok = True
                for t in range(gl):
                    if digits[t] == 2 and fcodes[w, t] != gcodes[g, t]:
                        ok = False
                        break
                if ok:
                    for t in range(gl):
                        if shown[t] > 0:
                            k = 0
                            for u in range(flens[w]):
                                if fcodes[w, u] == gcodes[g, t]:
                                    k += 1
                            if k < shown[t]:
                                ok = False
                                break
                if ok:
                    allow[g, c, w >> 6] |= np.uint64(1) << np.uint64(w & 63)
    return allow


@njit(cache=True)
def _pool_hash(mask, salt1, salt2):
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


@njit(cache=True)
def _separable_in(bits, buf, n, mask, acc, stats, wit, wpool):
    """:func:`_separable` with the guesses of `mask` only (bits over full-length positions).
    A refusal is kept as the witness with its pool (wpool): it holds for any pool inside that
    one."""
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
    live = 0
    first = bits[order[0], order[1]]
    for w in range(n_w):
        v = first[w] & mask[w]
        if v != 0:
            acc[w] = v
            acc[n_w + live] = w
            live += 1
    j = 1
    while live > 0 and j < n:
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
    for i in range(wit[0]):
        wit[base + wit[1 + i]] = 0
    wit[0] = j + 1
    for i in range(j + 1):
        wit[1 + i] = order[i]
        wit[base + order[i]] = 1
    for w in range(n_w):
        wpool[w] = mask[w]
    return False


@njit(cache=True)
def _three_in(
    tab, fl_guess, bits, allow, buf, n, mask, cnt, pos, codes, part, cmask, acc, stats, wit, wpool
):
    """:func:`_three` in hard mode: some guess of `mask` leaves only classes that one more
    guess of the class's own pool splits into single candidates."""
    n_ans = bits.shape[0]
    n_w = mask.shape[0]
    mark = wit[1 + 3 * n_ans :]
    for i in range(n):
        mark[buf[i]] = 1
    found = False
    for w0 in range(n_w):
        word = mask[w0]
        while word != 0 and not found:
            low = word & (~word + np.uint64(1))
            b = 0
            while (low >> np.uint64(b)) != np.uint64(1):
                b += 1
            word ^= low
            p = w0 * 64 + b
            g = fl_guess[p]
            stats[3] += 1
            # the last refused set, inside this set and one class of g, with a pool at least
            # as large as that class's: refused at once
            wn = wit[0]
            if wn >= 2:
                inside = True
                for i in range(wn):
                    if mark[wit[1 + i]] == 0:
                        inside = False
                        break
                if inside:
                    c0 = tab[g, wit[1]]
                    for i in range(1, wn):
                        if tab[g, wit[1 + i]] != c0:
                            inside = False
                            break
                    if inside:
                        for w in range(n_w):
                            if (mask[w] & allow[g, c0, w]) & ~wpool[w] != 0:
                                inside = False
                                break
                    if inside:
                        stats[1] += 1
                        continue
            stats[4] += n
            ncl, big = count_codes(tab, g, buf, n, codes, cnt)
            ok = ncl >= 2
            if ok and cnt[big] >= 2:
                m = 0
                for i in range(n):
                    if codes[i] == big:
                        part[m] = buf[i]
                        m += 1
                for w in range(n_w):
                    cmask[w] = mask[w] & allow[g, big, w]
                ok = _separable_in(bits, part, m, cmask, acc, stats, wit, wpool)
            if ok:
                start = 0
                for i in range(n):
                    c = codes[i]
                    if c != big and cnt[c] >= 2 and pos[c] == 0:
                        pos[c] = start + 1
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
                    for w in range(n_w):
                        cmask[w] = mask[w] & allow[g, c, w]
                    if not _separable_in(bits, part[i:], m, cmask, acc, stats, wit, wpool):
                        ok = False
                    i += m
            for i in range(n):
                c = codes[i]
                cnt[c] = 0
                pos[c] = 0
            if ok:
                found = True
        if found:
            break
    for i in range(n):
        mark[buf[i]] = 0
    return found


@njit(cache=True)
def hard_feasible_kernel(
    tab,
    fl_guess,
    cands,
    depth,
    pool,
    n_codes,
    bits,
    allow,
    rnd1,
    rnd2,
    salt1,
    salt2,
    mk1,
    mk2,
    mflag,
    minf,
    mfeas,
    stats,
):
    """1 if some hard-mode strategy finds each of `cands` within `depth` guesses, every guess
    taken from the pool (and then from its narrowed pools), else 0.

    tab: guesses x answers feedback codes. fl_guess[p]: the guess index of full-length word p.
    pool: the allowed words as a mask over p (uint64 words). bits: :func:`pair_bits_kernel`
    of ``fl_guess``. allow: :func:`allow_masks_kernel`. Every candidate must be allowed in its
    pool (an answer is always allowed: it shows every demand met). The memo is
    :func:`feasible_kernel`'s, keyed by the candidates and the pool (salt1, salt2: the pool
    hash's salts per mask word). A guess's classes are searched smallest first (largest
    first in normal mode): a small class that no hard-mode strategy finds in time is common
    and costs almost nothing to refute. Plain-Python twin:
    :func:`gamelab.wordle.solver.feasible.hard_feasible_python`.
    """
    n_ans = tab.shape[1]
    n_f = fl_guess.shape[0]
    n_w = pool.shape[0]
    cap = mk1.shape[0]
    if depth < 1:
        return 1 if cands.shape[0] == 0 else 0
    levels = depth
    sets = np.empty((levels, n_ans), dtype=np.int32)
    set_n = np.zeros(levels, dtype=np.int64)
    pools = np.zeros((levels, n_w), dtype=np.uint64)
    h1s = np.zeros(levels, dtype=np.uint64)
    h2s = np.zeros(levels, dtype=np.uint64)
    order = np.empty((levels, n_f), dtype=np.int32)  # full-length positions, best first
    order_n = np.zeros(levels, dtype=np.int64)
    kpos = np.zeros(levels, dtype=np.int64)
    part = np.empty((levels, n_ans), dtype=np.int32)
    cls_start = np.empty((levels, n_codes), dtype=np.int64)
    cls_len = np.empty((levels, n_codes), dtype=np.int64)
    cls_code = np.empty((levels, n_codes), dtype=np.int64)
    cls_n = np.zeros(levels, dtype=np.int64)
    jpos = np.zeros(levels, dtype=np.int64)
    fresh = np.zeros(levels, dtype=np.bool_)
    cnt = np.zeros(n_codes, dtype=np.int64)
    pos = np.zeros(n_codes, dtype=np.int64)
    codes = np.empty(n_ans, dtype=np.int64)
    keys = np.empty(n_f, dtype=np.int64)
    cl_codes = np.empty(n_codes, dtype=np.int64)
    cmask = np.zeros(n_w, dtype=np.uint64)
    acc = np.empty(max(2, 2 * n_w), dtype=np.uint64)
    wit = np.zeros(1 + 4 * n_ans, dtype=np.int32)
    wpool = np.zeros(n_w, dtype=np.uint64)

    for i in range(cands.shape[0]):
        sets[0, i] = cands[i]
    set_n[0] = cands.shape[0]
    for w in range(n_w):
        pools[0, w] = pool[w]
    lev = 0
    state = -1
    while True:
        if state == -1:
            n = set_n[lev]
            d = depth - lev
            if n <= 1:
                state = 1
            elif d <= 1:
                state = 0
            elif n == 2:
                state = 1  # (either candidate is allowed: guess one, then the other)
            else:
                h1, h2 = set_hash(sets[lev], n, rnd1, rnd2)
                p1, p2 = _pool_hash(pools[lev], salt1, salt2)
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
                mask = pools[lev]
                state = 0
                if d == 2:
                    if n <= n_codes:
                        stats[3] += 1
                        if _separable_in(bits, buf, n, mask, acc, stats, wit, wpool):
                            state = 1
                    continue
                if d == 3:
                    if _three_in(
                        tab,
                        fl_guess,
                        bits,
                        allow,
                        buf,
                        n,
                        mask,
                        cnt,
                        pos,
                        codes,
                        part[lev],
                        cmask,
                        acc,
                        stats,
                        wit,
                        wpool,
                    ):
                        state = 1
                    continue
                m = 0
                for w0 in range(n_w):
                    word = mask[w0]
                    while word != 0:
                        low = word & (~word + np.uint64(1))
                        b = 0
                        while (low >> np.uint64(b)) != np.uint64(1):
                            b += 1
                        word ^= low
                        p = w0 * 64 + b
                        g = fl_guess[p]
                        ncl, big = count_codes(tab, g, buf, n, codes, cnt)
                        largest = cnt[big]
                        for i in range(n):
                            cnt[codes[i]] = 0
                        if ncl < 2:
                            continue
                        keys[m] = largest * 1024 - ncl
                        order[lev, m] = p
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
                state = -3
            if state == 0 or state == 1:
                continue
        if state == 0 or state == 1:
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
        if fresh[lev]:
            if kpos[lev] >= order_n[lev]:
                state = 0
                continue
            g = fl_guess[order[lev, kpos[lev]]]
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
                    pos[c] = 1
                    cl_codes[k] = c
                    k += 1
            # classes by size, smallest first: in hard mode a small class is often the one
            # that refutes a guess, at almost no cost (upto-gen5 within 5: 148 -> 54 CPU-s)
            for a in range(1, k):
                c = cl_codes[a]
                b = a - 1
                while b >= 0 and cnt[cl_codes[b]] > cnt[c]:
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
            state = 1
            continue
        s = cls_start[lev, j]
        ln = cls_len[lev, j]
        for i in range(ln):
            sets[lev + 1, i] = part[lev, s + i]
        set_n[lev + 1] = ln
        g = fl_guess[order[lev, kpos[lev]]]
        c = cls_code[lev, j]
        for w in range(n_w):
            pools[lev + 1, w] = pools[lev, w] & allow[g, c, w]
        lev += 1
        state = -1
