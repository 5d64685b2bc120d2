"""The exact Voltorb Flip coin search as a numba kernel, with its memo tables.

:func:`coin_search` maximises the expected coins of a policy that may quit; the algorithm, its
bound and its Python twin are described in :mod:`gamelab.voltorb.expectimax`, which calls this
kernel (the twin is ``OptimalSolver(..., python=True)`` with ``objective="coins"``). Its memo is
three typed dicts made and read in compiled code (:func:`new_memos`, :func:`memo_entry`). The
win-probability search is :mod:`gamelab.voltorb._search_kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

from gamelab.voltorb import _stack_kernels as stack
from gamelab.voltorb.rules import TILES


@njit(cache=True)
def coin_search(boards, weights, hm0, idx, code, nrev_mult, may_quit, memo_val, memo_tile, counter):
    """Coin objective: H = the live boards' mass times the expected multiplier of the current coins
    under the best policy that may quit (`may_quit`, false only before the first card).

    Same recursion, bound and tie-breaking as the Python twin
    (:class:`gamelab.voltorb.expectimax.OptimalSolver` with ``objective="coins"``):
    ``H(S) = max(W(S) if may_quit, max_t sum_v v * [W(won_v) + H(rest_v)])``, a safe useful tile
    flipped at once, tiles tried in decreasing order of the perfect-information payout bound
    (sum over boards where t is safe of weight x product of the board's hidden multipliers).
    The best tile (-1 = quit) of each state goes to `memo_tile`. A tile's children (its values
    1, 2, 3, in that order) stop as soon as the ones searched, exact, and the others' shares of
    the payout bound leave it no better than the best tile so far (it could not be the pick):
    fewer states, the same values to the last bit (the sum is unchanged). Taking the children
    fewest boards first, as the win search does, pays where the children get a window; here
    they get none, and it cut fewer states than the order 1, 2, 3 (docs/experiments/voltorb.md).

    The recursion runs on an explicit stack (one frame per revealed tile, at most 25 deep; each
    frame's live boards are a slice of one growing pool), so numba can cache the kernel: a
    cached recursive kernel can crash numba 0.68 on load (DEVELOPERS.md).
    """
    (f_start, f_k, f_code, f_nrev, f_key, f_eps, f_order, f_norder, f_best, f_best_tile, f_oi,
     f_v, f_acc, pool) = stack.new_frames(idx, code, nrev_mult)  # fmt: skip
    f_quit = np.zeros(stack.DEPTH, np.bool_)
    f_bound = np.zeros((stack.DEPTH, TILES))  # the payout bound of each tile
    f_use_bound = np.zeros(stack.DEPTH, np.bool_)
    f_won = np.zeros(stack.DEPTH)  # mass won outright by the child being searched
    f_cb = np.zeros((stack.DEPTH, TILES, 4))  # each child's share of the payout bound
    f_nl = np.zeros((stack.DEPTH, 4), np.int64)  # each child's live boards
    f_wv = np.zeros((stack.DEPTH, 4))  # each child's mass won outright
    f_run = np.zeros(stack.DEPTH)  # the tile's bound, its children searched so far exact
    top = idx.size
    f_quit[0] = may_quit
    depth = 0
    mode = 0  # 0: open the frame at `depth`, 1: go on with it, 2: it returns `value`
    value = 0.0
    revealed = np.zeros(TILES, np.bool_)
    v_mass = np.zeros(TILES)
    can_mult = np.zeros(TILES, np.bool_)
    tiles = np.empty(TILES, np.int64)
    while True:
        d = depth
        if mode == 0:
            key = (f_code[d] << 1) | (1 if f_quit[d] else 0)
            f_key[d] = key
            if key in memo_val:
                value = memo_val[key]
                mode = 2
            elif stack.over_budget(counter):
                return 0.0
            else:
                start, k = f_start[d], f_k[d]
                total = stack.live_mass(weights, pool, start, k)
                for t in range(TILES):
                    revealed[t] = ((f_code[d] >> (2 * t)) & 3) != 0
                    v_mass[t] = 0.0
                    can_mult[t] = False
                    f_bound[d, t] = 0.0
                    for v in range(4):
                        f_cb[d, t, v] = 0.0
                for i in range(start, start + k):
                    b = pool[i]
                    prod = 1.0
                    for u in range(TILES):
                        if not revealed[u] and boards[b, u] >= 2:
                            prod *= boards[b, u]
                    for t in range(TILES):
                        if revealed[t]:
                            continue
                        x = boards[b, t]
                        if x == 0:
                            v_mass[t] += weights[b]
                        else:
                            f_bound[d, t] += weights[b] * prod
                            f_cb[d, t, x] += weights[b] * prod
                            if x >= 2:
                                can_mult[t] = True
                ntiles = stack.flagged_tiles(can_mult, tiles)
                cand = tiles[:ntiles]
                # safest first, then lowest index (the twin's candidate order)
                safest = cand[np.argsort(v_mass[cand], kind="mergesort")]
                f_best[d] = -1.0
                f_best_tile[d] = safest[0]
                if f_quit[d]:
                    f_best[d] = total
                    f_best_tile[d] = -1
                f_eps[d] = 1e-12 * total
                if v_mass[safest[0]] <= 1e-15 * total:
                    f_order[d, 0] = safest[0]
                    f_norder[d] = 1
                    f_best[d] = -1.0  # a safe flip beats quitting: the multiplier is at least 1
                    f_best_tile[d] = safest[0]
                    f_use_bound[d] = False
                else:
                    order = cand[np.argsort(-f_bound[d, cand], kind="mergesort")]
                    for i in range(ntiles):
                        f_order[d, i] = order[i]
                    f_norder[d] = ntiles
                    f_use_bound[d] = True
                f_oi[d] = 0
                f_v[d] = 1
                f_acc[d] = 0.0
                mode = 1
        if mode == 1:
            descended = False
            start, k = f_start[d], f_k[d]
            while f_oi[d] < f_norder[d]:
                t = f_order[d, f_oi[d]]
                if f_v[d] == 1:
                    if f_use_bound[d] and f_bound[d, t] <= f_best[d] + f_eps[d]:
                        break  # tiles are in decreasing order of this bound
                    for v in range(4):
                        f_nl[d, v] = 0
                        f_wv[d, v] = 0.0
                    for i in range(start, start + k):
                        b = pool[i]
                        x = boards[b, t]
                        if x >= 1:
                            if hm0[b] - f_nrev[d] - (1 if x >= 2 else 0) > 0:
                                f_nl[d, x] += 1
                            else:
                                f_wv[d, x] += weights[b]
                    f_run[d] = f_bound[d, t]
                cut = False
                while f_v[d] <= 3:
                    if f_v[d] > 1 and f_use_bound[d] and f_run[d] < f_best[d] + 0.5 * f_eps[d]:
                        cut = True  # the children searched leave this tile no better
                        break
                    v = f_v[d]
                    n_live = f_nl[d, v]
                    if n_live > 0:
                        extra = 1 if v >= 2 else 0
                        nrev = f_nrev[d] + extra
                        if top + n_live > pool.size:
                            grown = np.empty(max(2 * pool.size, top + n_live), np.int64)
                            for i in range(top):
                                grown[i] = pool[i]
                            pool = grown
                        j = top
                        for i in range(start, start + k):
                            b = pool[i]
                            if boards[b, t] == v and hm0[b] - nrev > 0:
                                pool[j] = b
                                j += 1
                        f_start[d + 1] = top
                        f_k[d + 1] = n_live
                        f_code[d + 1] = f_code[d] | (v << (2 * t))
                        f_nrev[d + 1] = nrev
                        f_won[d] = f_wv[d, v]
                        f_quit[d + 1] = True
                        top += n_live
                        depth = d + 1
                        descended = True
                        break
                    f_acc[d] += v * f_wv[d, v]
                    f_run[d] -= f_cb[d, t, v] - v * f_wv[d, v]
                    f_v[d] += 1
                if descended:
                    break
                if not cut and (not f_use_bound[d] or f_acc[d] > f_best[d] + f_eps[d]):
                    f_best[d] = f_acc[d]
                    f_best_tile[d] = t
                f_oi[d] += 1
                f_v[d] = 1
                f_acc[d] = 0.0
            if descended:
                mode = 0
                continue
            value = stack.store(memo_val, memo_tile, f_key[d], f_best[d], f_best_tile[d])
        # mode 2, or the frame is done: the frame at depth d returns `value` to its parent
        if d == 0:
            return value
        top, depth = f_start[d], d - 1  # the parent's
        v = f_v[depth]
        share = v * (f_won[depth] + value)
        f_acc[depth] += share
        f_run[depth] -= f_cb[depth, f_order[depth, f_oi[depth]], v] - share
        f_v[depth] += 1
        mode = 1


@njit(cache=True)
def new_memos():
    """The search's three memo tables (state -> value, best tile, exact?), made in compiled code:
    numba compiles ``numba.typed.Dict.empty`` (and every item access from Python) afresh in each
    process, so the shells would say "compiling" on every run (issue 23)."""
    memo_val = Dict.empty(key_type=types.int64, value_type=types.float64)
    memo_tile = Dict.empty(key_type=types.int64, value_type=types.int64)
    memo_exact = Dict.empty(key_type=types.int64, value_type=types.boolean)
    return memo_val, memo_tile, memo_exact


def new_memos_python():
    """Twin of :func:`new_memos`: three empty dicts."""
    return {}, {}, {}


@njit(cache=True)
def memo_entry(memo_val, memo_tile, key):
    """(value, best tile) of the memoised state `key` (read in compiled code, see new_memos)."""
    return memo_val[key], memo_tile[key]


def memo_entry_python(memo_val, memo_tile, key):
    """Twin of :func:`memo_entry`."""
    return memo_val[key], memo_tile[key]
