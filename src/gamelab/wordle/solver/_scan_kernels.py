"""The node scan of the search kernel: every allowed guess's lower bound at a node.

At a node of n candidates, guess t costs at least ``n + 2(n - hit) - classes`` (each class of m
answers needs at least 2m - 1 guesses; ``hit`` is 1 if t is a candidate), exact when no class
has more than 2 answers. A scan returns the guesses whose bound beats the budget, with their
bounds, and the least bound over all guesses (a proven bound for the node).

* :func:`scan_transposed` (patterns that fit a byte) reads the transposed table one candidate at
  a time over the guesses still alive; a guess dies as soon as its collisions push its bound to
  the budget, which under a tight budget is after a few candidates;
* :func:`scan_table` (any pattern count) scans guess by guess, stopping at a guess whose exact
  bound equals the node's proven floor;
* :func:`sort_moves`: the kept guesses in the order they are tried;
* :func:`perfect_candidate`: the endgame check, a candidate that leaves all others apart
  (the node's value is then 2n - 1).

Plain-Python twin: ``OptimalSolver._ordered_moves`` (through
:func:`gamelab.wordle._kernels.split_stats_kernel` and its twin); compared through
:func:`gamelab.wordle.solver._search_kernels.search_kernel` (``tests/wordle/test_wordle_search_kernel.py``,
five-letter lists for the transposed scan, six-letter lists for :func:`scan_table`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.wordle.solver._memo_kernels import INF


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def perfect_candidate(table, guess_of_answer, cand, off, n, seen):
    """The lowest-index guess among the candidates that leaves the others all apart, or -1."""
    found = -1
    for q in range(n):
        ga = guess_of_answer[cand[off + q]]
        if found >= 0 and ga > found:
            continue
        ok = True
        for i in range(n):
            b = cand[off + i]
            if i == q:
                continue
            c = table[ga, b]
            if seen[c] != 0:
                ok = False
                break
            seen[c] = 1
        for i in range(n):
            seen[table[ga, cand[off + i]]] = 0
        if ok:
            found = ga
    return found


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def scan_transposed(
    tt,
    cand,
    off,
    n,
    alive,
    n_alive,
    goa_mark,
    answer_of_guess,
    green,
    thresh,
    rem,
    bits,
    state,
    out_g,
    out_lb,
    out_ex,
    out_off,
    budget,
    keep_useless,
):
    """Every guess's bound at a node, one candidate at a time over the guesses still alive.

    `tt` is the transposed table (answers x guesses, one byte per pattern), so each step reads
    one contiguous row; per guess, two 256-bit sets (one cache line of `bits`) record the
    patterns seen once and twice, and the alive list carries its collisions (answers joining a
    class already seen) and whether a class reached three. A guess dies once its collisions push
    its bound to the budget, or, with one guess left after it, at its first collision.
    `goa_mark[g]` is 1 for the guesses that are candidates. Survivors are written from
    `out_off`: (guess, bound, exact | 2 * candidate). Returns (number written, least bound over
    usable guesses with a dead guess counted as the budget, steps)."""
    for q in range(n_alive):
        base = alive[q] * 8
        for w in range(8):
            bits[base + w] = 0
        state[q] = 0
    limit = 1 if rem == 1 else thresh
    min_lb = INF
    steps = 0
    any_dead_budget = False
    for i in range(n):
        b = cand[off + i]
        row = tt[b]
        w_out = 0
        for q in range(n_alive):
            g = alive[q]
            st = state[q]
            c = np.int64(row[g])
            if c == green and answer_of_guess[g] == b:
                alive[w_out] = g  # the guess itself: its green class is solved
                state[w_out] = st
                w_out += 1
                continue
            base = g * 8 + (c >> 6)
            m = np.uint64(1) << np.uint64(c & 63)
            if bits[base] & m:
                st += 1
                if bits[base + 4] & m:
                    st |= 1 << 32  # a class of three or more
                else:
                    bits[base + 4] |= m
                if (st & 0xFFFFFFFF) >= limit:
                    if rem != 1:
                        any_dead_budget = True
                    continue  # dead
            else:
                bits[base] |= m
            alive[w_out] = g
            state[w_out] = st
            w_out += 1
        steps += n_alive
        n_alive = w_out
        if n_alive == 0:
            break
    if any_dead_budget:
        min_lb = budget
    nm = 0
    for q in range(n_alive):
        g = alive[q]
        coll = state[q] & 0xFFFFFFFF
        big = state[q] >> 32
        hit = 1 if goa_mark[g] == 1 else 0
        k = n - hit - coll
        if k < 2 and hit == 0 and not keep_useless:
            continue  # no information
        lb = 3 * n - 2 * hit - k
        if lb < min_lb:
            min_lb = lb
        if lb >= budget:
            continue
        exact = big == 0 and (rem >= 2 or coll == 0)
        out_g[out_off + nm] = g
        out_lb[out_off + nm] = lb
        out_ex[out_off + nm] = (1 if exact else 0) + 2 * hit
        nm += 1
    return nm, min_lb, steps


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def scan_table(
    table,
    cand,
    off,
    n,
    options,
    n_opts,
    answer_of_guess,
    stamp,
    scnt,
    gen,
    rem,
    thresh,
    budget,
    lower,
    keep_useless,
    out_g,
    out_lb,
    out_ex,
    out_off,
):
    """Every guess's bound at a node, guess by guess over `options[:n_opts]` (`stamp`/`gen`
    mark the patterns seen). Survivors are written from `out_off` as in :func:`scan_transposed`;
    the scan stops at an exact bound equal to `lower` that is a candidate, and after one that is
    not it looks only at candidates (they win ties). Returns (number written, least bound over
    usable guesses with a dead guess counted as the budget, steps, the last `gen`)."""
    nm = 0
    min_lb = INF
    steps = 0
    floor_found = False
    for q in range(n_opts):
        r = options[q]
        aog = answer_of_guess[r]
        if floor_found and aog < 0:
            continue  # only a candidate could still tie (and be preferred)
        gen += 1
        k = 0
        hit = 0
        largest = 0
        coll = 0
        dead = 0
        for i in range(n):
            b = cand[off + i]
            if aog == b:
                hit = 1
                continue
            c = table[r, b]
            if stamp[c] != gen:
                stamp[c] = gen
                scnt[c] = 1
                k += 1
                if largest == 0:
                    largest = 1
            else:
                scnt[c] += 1
                coll += 1
                if scnt[c] > largest:
                    largest = scnt[c]
                if rem == 1:
                    dead = 2  # a class would need more than the one guess left
                    break
                if coll >= thresh:
                    dead = 1  # its bound is at least the budget
                    break
        steps += i + 1
        if dead == 2 or rem <= 0:
            continue
        if dead == 1:
            if budget < min_lb:
                min_lb = budget
            continue
        if not keep_useless:
            if k < 2 and hit == 0:
                continue  # no information
        lb = 3 * n - 2 * hit - k
        if lb < min_lb:
            min_lb = lb
        if lb >= budget:
            continue
        exact = largest <= 2 and (rem >= 2 or largest <= 1)
        out_g[out_off + nm] = r
        out_lb[out_off + nm] = lb
        out_ex[out_off + nm] = (1 if exact else 0) + 2 * hit
        nm += 1
        if exact and lb <= lower and not keep_useless:
            if hit == 1:
                break  # cannot be beaten (and candidates win ties)
            floor_found = True
    return nm, min_lb, steps, gen


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _sift_down(keys, order, i, n):
    """Restore the max-heap of `order[:n]` (by `keys`) below position i."""
    item = order[i]
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and keys[order[child + 1]] > keys[order[child]]:
            child += 1
        if keys[order[child]] <= keys[item]:
            break
        order[i] = order[child]
        i = child
    order[i] = item


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def sort_by_keys(keys, order, n):
    """Sort `order[:n]` (indices into `keys`) by their keys, smallest first: a heap sort, the
    same order as np.argsort when the keys are distinct (make them so by adding the index),
    without compiling numba's generic sort (about 1 CPU-s of a first search)."""
    for top in range(n // 2 - 1, -1, -1):
        _sift_down(keys, order, top, n)
    for end in range(n - 1, 0, -1):
        order[0], order[end] = order[end], order[0]
        _sift_down(keys, order, 0, end)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def sort_moves(moves_g, moves_lb, moves_ex, mo, nm, n_g, sort_i, sort_g, sort_e):
    """Sort the `nm` guesses a scan kept (from `mo`) by bound; ties: candidates first, then
    index. `sort_i` (3 rows), `sort_g`, `sort_e`: scratch of at least `nm` columns."""
    keys, order, tl = sort_i[0], sort_i[1], sort_i[2]
    for i in range(nm):
        g = moves_g[mo + i]
        cnd = 0 if moves_ex[mo + i] & 2 else 1
        keys[i] = (moves_lb[mo + i] * 2 + cnd) * (n_g + 1) + g
        order[i] = i
    sort_by_keys(keys, order, nm)
    for i in range(nm):
        sort_g[i] = moves_g[mo + i]
        tl[i] = moves_lb[mo + i]
        sort_e[i] = moves_ex[mo + i]
    for i in range(nm):
        moves_g[mo + i] = sort_g[order[i]]
        moves_lb[mo + i] = tl[order[i]]
        moves_ex[mo + i] = sort_e[order[i]]
