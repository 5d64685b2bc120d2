"""One guess expanded at a node of the exact search: its classes, their keys and their bounds.

Helpers of :func:`gamelab.wordle.solver._search_kernels.search_kernel` (compared with the
plain-Python search through it, ``tests/wordle/test_wordle_search_kernel.py``), each one step
of expanding guess g at a node:

* :func:`partition_node`: the node's candidates by the pattern g shows (a counting sort in
  the candidate arena), each class's set hash summed on the way, the green class dropped;
* :func:`child_bounds`: each class's lower bound from its size, the memo, or the endgame check
  (a candidate leaving only singletons), and which large classes still want a one-level bound;
* :func:`big_class_bounds`: those one-level bounds, scanned with the budget at which the guess
  would be cut, until the guess is cut or every such class is bounded;
* :func:`sort_children`: the classes largest first (the order they are searched in).

and :func:`enter_root` sets up the root node (its candidates, pool and memo key sums).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.wordle.solver._memo_kernels import (
    EMPTY,
    EXACT,
    INF,
    UNLIMITED,
    memo_find,
    memo_key,
    memo_record,
)
from gamelab.wordle.solver._scan_kernels import perfect_candidate, scan_transposed


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def partition_node(
    table, g, cand, off, n, top, cb, counts, offs, seen, h1s, h2s, rnd_a1, rnd_a2, aog, cls
):
    """Classes of the n candidates at ``cand[off:]`` under guess g, written above `top` in the
    arena; ``cls`` = (code, start, size, hash 1, hash 2) arrays, rows from `cb`. Returns how many
    classes (the green one, g itself, dropped)."""
    cls_code, cls_start, cls_size, cls_h1, cls_h2 = cls
    for j in range(n):
        counts[table[g, cand[off + j]]] += 1
    nc = 0
    pos = top
    for j in range(n):
        c = table[g, cand[off + j]]
        if counts[c] > 0:
            cls_code[cb + nc] = c
            cls_start[cb + nc] = pos
            cls_size[cb + nc] = counts[c]
            offs[c] = pos
            seen[c] = nc + 1
            pos += counts[c]
            counts[c] = 0
            nc += 1
    for j in range(n):
        b = cand[off + j]
        c = table[g, b]
        cand[offs[c]] = b
        offs[c] += 1
        h1s[c] += rnd_a1[b]
        h2s[c] += rnd_a2[b]
    w = 0
    for j in range(nc):
        c = cls_code[cb + j]
        seen[c] = 0
        cls_h1[cb + j] = h1s[c]
        cls_h2[cb + j] = h2s[c]
        h1s[c] = 0
        h2s[c] = 0
        if cls_size[cb + j] == 1 and cand[cls_start[cb + j]] == aog:
            continue  # the green class: solved
        if w != j:
            cls_code[cb + w] = cls_code[cb + j]
            cls_start[cb + w] = cls_start[cb + j]
            cls_size[cb + w] = cls_size[cb + j]
            cls_h1[cb + w] = cls_h1[cb + j]
            cls_h2[cb + w] = cls_h2[cb + j]
        w += 1
    return w


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def child_bounds(cb, nc, rem, cls, memo, entries, big, table, guess_of_answer, cand, seen):
    """Each class's bound into ``cls_lb`` (`cls` = size, start, hash 1, hash 2, pool hash 1,
    pool hash 2, lb; `memo` = keys 1 and 2, flags, values, guesses; `big` = (need_bound, big_n,
    use_tt, child_n, floor_shift: see the search kernel)). Returns (sum of the bounds, classes listed in need_bound, memo
    entries)."""
    cls_size, cls_start, cls_h1, cls_h2, cls_p1, cls_p2, cls_lb = cls
    mk1, mk2, mflag, mval, mguess = memo
    need_bound, big_n, use_tt, child_n, floor_shift = big
    cap = mk1.shape[0]
    rest = 0
    nb = 0
    for j in range(nc):
        m = cls_size[cb + j]
        if m == 1:
            lbc = 1 if rem >= 1 else INF
        elif m == 2:
            lbc = 3 if rem >= 2 else INF
        elif rem <= 1:
            lbc = INF
        else:
            lbc = 2 * m - 1
            ck1, ck2 = memo_key(cls_h1[cb + j], cls_h2[cb + j], cls_p1[cb + j], cls_p2[cb + j], rem)
            slot = memo_find(mk1, mk2, mflag, ck1, ck2)
            if mflag[slot] != EMPTY and mval[slot] > lbc:
                lbc = mval[slot]
            elif mflag[slot] == EMPTY and m >= big_n and use_tt and rem >= 3:
                need_bound[nb] = j  # one-level bound later, if the sum leaves room
                nb += 1
            elif mflag[slot] == EMPTY and m <= child_n and entries * 10 < cap * 7:
                # endgame check for the class now: its value is 2m - 1 if a candidate
                # leaves only singletons, else at least 2m (a tighter sum to cut on)
                found = perfect_candidate(table, guess_of_answer, cand, cls_start[cb + j], m, seen)
                if found < 0:
                    lbc = 2 * m
                entries += memo_record(
                    mk1, mk2, mflag, mval, mguess, slot, ck1, ck2, found >= 0, lbc, found
                )
            if floor_shift > 0 and rem < UNLIMITED and mflag[slot] != EXACT:
                # the class under a looser limit (a shared memo): a bound under this one
                fd = rem + floor_shift if rem + floor_shift < UNLIMITED else UNLIMITED
                u1, u2 = memo_key(
                    cls_h1[cb + j], cls_h2[cb + j], cls_p1[cb + j], cls_p2[cb + j], fd
                )
                us = memo_find(mk1, mk2, mflag, u1, u2)
                if mflag[us] != EMPTY and mval[us] > lbc:
                    lbc = mval[us]
        cls_lb[cb + j] = lbc
        rest += lbc
    return rest, nb, entries


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def big_class_bounds(cb, n, nb, rest, best, rem, cls, memo, entries, guesses, scan, cand):
    """The best one-level bound of each class in `need_bound` over the node's guesses (the
    frame's pool is a superset of the class's, so it is still a bound), scanned with the budget
    at which the guess would be cut (`best`: the node's best total so far), each recorded in the
    memo as a lower bound. `guesses` = (need_bound, hard, n_g, pool_guess, pool, pool offset,
    pool size), `scan` = the transposed scan's arrays and offset. Returns (the classes' bound
    sum, memo entries, scan steps, cut: the sum reached `best`)."""
    cls_size, cls_start, cls_h1, cls_h2, cls_p1, cls_p2, cls_lb = cls
    mk1, mk2, mflag, mval, mguess = memo
    need_bound, hard, n_g, pool_guess, pool, poff, pn = guesses
    tt, alive, goa_mark, guess_of_answer, answer_of_guess, green, bits, state, mg, mlb, mex, mo = (
        scan
    )
    cap = mk1.shape[0]
    work = 0
    for t in range(nb):
        j = need_bound[t]
        m = cls_size[cb + j]
        if entries * 10 >= cap * 7:
            break
        room = best - n - (rest - cls_lb[cb + j])
        n_b = pn if hard else n_g
        for q in range(n_b):
            alive[q] = pool_guess[pool[poff + q]] if hard else q
        st0 = cls_start[cb + j]
        for i in range(m):
            goa_mark[guess_of_answer[cand[st0 + i]]] = 1
        _, one_level, steps = scan_transposed(
            tt,
            cand,
            st0,
            m,
            alive,
            n_b,
            goa_mark,
            answer_of_guess,
            green,
            room - (2 * m - 1),
            UNLIMITED,
            bits,
            state,
            mg,
            mlb,
            mex,
            mo,
            room,
            False,
        )
        work += steps
        for i in range(m):
            goa_mark[guess_of_answer[cand[st0 + i]]] = 0
        lbc = cls_lb[cb + j]
        if one_level > lbc:
            rest += one_level - lbc
            lbc = one_level
            cls_lb[cb + j] = lbc
        ck1, ck2 = memo_key(cls_h1[cb + j], cls_h2[cb + j], cls_p1[cb + j], cls_p2[cb + j], rem)
        slot = memo_find(mk1, mk2, mflag, ck1, ck2)
        if mflag[slot] == EMPTY:
            entries += memo_record(mk1, mk2, mflag, mval, mguess, slot, ck1, ck2, False, lbc, -1)
        if n + rest >= best:
            return rest, entries, work, True
    return rest, entries, work, False


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def sort_children(cb, nc, signed, unsigned):
    """The classes' rows from `cb` by size, largest first (insertion sort; few classes):
    `signed` = (start, size, code, lb), `unsigned` = (hash 1, hash 2, pool hash 1, pool hash 2)."""
    size = signed[1]
    for j in range(1, nc):
        t = j
        while t > 0 and size[cb + t - 1] < size[cb + t]:
            for arr in signed:
                tmp = arr[cb + t]
                arr[cb + t] = arr[cb + t - 1]
                arr[cb + t - 1] = tmp
            for arr in unsigned:
                tmpu = arr[cb + t]
                arr[cb + t] = arr[cb + t - 1]
                arr[cb + t - 1] = tmpu
            t -= 1


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def enter_root(root, hard, keys, cand, pool, st_green, st_need):
    """Copy the root's candidates and (hard mode) pool into the arenas, its demands (the game's
    rule) into row 0 of `st_green`/`st_need`, and return its key sums (h1, h2, p1, p2).
    ``root`` = (candidates, pool, greens, least copies), ``keys`` = the random words of answers,
    pool words, greens and copies (a1, a2, p1, p2, g1, g2, n1, n2)."""
    root_cands, root_pool, root_green, root_need = root
    rnd_a1, rnd_a2, rnd_p1, rnd_p2, rg1, rg2, rn1, rn2 = keys
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(root_cands.shape[0]):
        cand[i] = root_cands[i]
        h1 += rnd_a1[root_cands[i]]
        h2 += rnd_a2[root_cands[i]]
    p1 = np.uint64(0)
    p2 = np.uint64(0)
    for i in range(root_pool.shape[0] if hard else 0):
        pool[i] = root_pool[i]
        if hard == 2:
            p1 += rnd_p1[root_pool[i]]
            p2 += rnd_p2[root_pool[i]]
    if hard == 1:
        # the game's rule: the pool is fixed by the demands, so they are its key
        for t in range(root_green.shape[0]):
            st_green[0, t] = root_green[t]
            if root_green[t] >= 0:
                p1 += rg1[t, root_green[t]]
                p2 += rg2[t, root_green[t]]
        for t in range(root_need.shape[0]):
            st_need[0, t] = root_need[t]
            p1 += rn1[t, root_need[t]]
            p2 += rn2[t, root_need[t]]
    return h1, h2, p1, p2
