"""The exact round search for any terminal utility u(outcome, cards flipped, 2s, 3s), as a numba
kernel (:func:`objective_search`) with its plain-Python twin (:func:`objective_search_python`).

The objective, its utility tables and the solver around them are in
:mod:`gamelab.voltorb.objectives`. The tables (float64) are indexed by the number n of cards
flipped (1s included) and the numbers a, b of 2s and 3s revealed: ``u_quit[n, a, b]`` (quitting,
allowed once a card is shown), ``u_win[n, a, b]`` (every 2 and 3 revealed: a, b are then the
board's), ``u_loss[n]`` (a Voltorb after n cards). Values are unnormalised (prior mass times
expected utility), memoised by the revealed set and whether quitting is allowed:

    V(S) = max( [card shown] W(S) u_quit(S),  max_t  sum_v  [ v = 0: W(t = 0) u_loss(n)
                 v >= 1: W(boards won by t = v) u_win(n + 1, ...) + V(S, t = v) ] )

Tiles tried: every hidden tile that is not a Voltorb on every remaining board (flipping a sure
Voltorb is never better than quitting for a utility with u_loss <= u_quit). With `monotone`
(the utility of a win does not depend on n, quitting and losing are worth no less with more cards
and coins, and a win no less than quitting), a tile that is a Voltorb on no remaining board is
flipped at once with no alternative tried: it can only add cards, coins and information. Ties go to
the safer tile (tiles are tried safest first, then by index, and a later tile must be strictly
better). A tile whose best case (every non-Voltorb board worth the utility's maximum) cannot beat
the best so far is skipped, a tile stops taking its children (values 1, 2, 3) as soon as the
ones searched and that best case for the rest leave it no better than the best tile so far
(docs/experiments/voltorb.md), and a state stops as soon as it reaches W(S) times that maximum.

The kernel runs on an explicit stack and is cached (``warm_up`` compiles it once per install).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.voltorb import _stack_kernels as stack
from gamelab.voltorb.rules import TILES


@njit(cache=True)
def objective_search(
    boards,
    weights,
    hm0,
    idx,
    code,
    nrev_mult,
    u_quit,
    u_win,
    u_loss,
    u_max,
    monotone,
    memo_val,
    memo_tile,
    counter,
):
    """V of the live boards `idx` at the revealed state `code` (2 bits per tile, 0 = hidden).
    The best tile (-1 = quit) of each state goes to `memo_tile`. `counter` as in
    :func:`gamelab.voltorb._coin_kernels.coin_search`.

    The recursion of the module doc runs on an explicit stack (one frame per revealed tile, at
    most 25 deep; each frame's live boards are a slice of one growing pool), so the kernel is
    cached (a cached recursive kernel can crash numba 0.68 on load, DEVELOPERS.md)."""
    (f_start, f_k, f_code, f_nrev, f_key, f_eps, f_order, f_norder, f_best, f_best_tile, f_oi,
     f_v, f_acc, pool) = stack.new_frames(idx, code, nrev_mult)  # fmt: skip
    f_n = np.zeros(stack.DEPTH, np.int64)  # cards shown
    f_total = np.zeros(stack.DEPTH)
    f_ceiling = np.zeros(stack.DEPTH)
    f_vm = np.zeros((stack.DEPTH, TILES))  # the Voltorb mass of each tile of the order
    f_rem = np.zeros(stack.DEPTH)  # the mass of the tile's children not searched yet
    top = idx.size
    depth = 0
    mode = 0  # 0: open the frame at `depth`, 1: go on with it, 2: it returns `value`
    value = 0.0
    v_mass = np.zeros(TILES)
    nonzero = np.zeros(TILES, np.bool_)
    tiles = np.empty(TILES, np.int64)
    while True:
        d = depth
        if mode == 0:
            cd = f_code[d]
            n = 0
            a = 0
            b3 = 0
            for t in range(TILES):
                v = (cd >> (2 * t)) & 3
                if v > 0:
                    n += 1
                    if v == 2:
                        a += 1
                    elif v == 3:
                        b3 += 1
            may_quit = n > 0
            key = (cd << 1) | (1 if may_quit else 0)
            f_key[d] = key
            f_n[d] = n
            if key in memo_val:
                value = memo_val[key]
                mode = 2
            elif stack.over_budget(counter):
                return 0.0
            else:
                start, k = f_start[d], f_k[d]
                total = stack.live_mass(weights, pool, start, k)
                for t in range(TILES):
                    v_mass[t] = 0.0
                    nonzero[t] = False
                for i in range(start, start + k):
                    bi = pool[i]
                    for t in range(TILES):
                        if (cd >> (2 * t)) & 3:
                            continue
                        if boards[bi, t] == 0:
                            v_mass[t] += weights[bi]
                        else:
                            nonzero[t] = True
                ntiles = stack.flagged_tiles(nonzero, tiles)
                cand = tiles[:ntiles]
                order = cand[np.argsort(v_mass[cand], kind="mergesort")]  # safest, then index
                f_best[d] = -1.0
                f_best_tile[d] = -1
                if may_quit:
                    f_best[d] = total * u_quit[n, a, b3]
                if ntiles > 0 and monotone and v_mass[order[0]] <= 1e-15 * total:
                    ntiles = 1
                    f_best[d] = -1.0  # a safe tile is never worse than quitting (or anything)
                for j in range(ntiles):
                    f_order[d, j] = order[j]
                    f_vm[d, j] = v_mass[order[j]]
                f_norder[d] = ntiles
                f_total[d] = total
                f_eps[d] = 1e-12 * total
                f_ceiling[d] = total * u_max
                f_oi[d] = 0
                f_v[d] = 1
                f_acc[d] = 0.0
                mode = 1
        if mode == 1:
            descended = False
            start, k = f_start[d], f_k[d]
            n = f_n[d]
            while f_oi[d] < f_norder[d]:
                t = f_order[d, f_oi[d]]
                if f_v[d] == 1:
                    if f_best[d] >= f_ceiling[d] - f_eps[d]:
                        f_oi[d] = f_norder[d]
                        break
                    vm = f_vm[d, f_oi[d]]
                    # best case: every board not a Voltorb on t is worth the maximum
                    if vm * u_loss[n] + (f_total[d] - vm) * u_max <= f_best[d] + f_eps[d]:
                        f_oi[d] += 1
                        continue
                    f_acc[d] = vm * u_loss[n]
                    f_rem[d] = f_total[d] - vm
                cut = False
                while f_v[d] <= 3:
                    if f_v[d] > 1 and f_acc[d] + f_rem[d] * u_max < f_best[d] + 0.5 * f_eps[d]:
                        cut = True  # the children searched leave this tile no better
                        break
                    v = f_v[d]
                    extra = 1 if v >= 2 else 0
                    n_live = 0
                    for i in range(start, start + k):
                        bi = pool[i]
                        if boards[bi, t] == v:
                            f_rem[d] -= weights[bi]
                            if hm0[bi] - f_nrev[d] - extra > 0:
                                n_live += 1
                            else:
                                # a won board shows all its multipliers: its own 2s and 3s
                                twos = 0
                                threes = 0
                                for u in range(TILES):
                                    if boards[bi, u] == 2:
                                        twos += 1
                                    elif boards[bi, u] == 3:
                                        threes += 1
                                f_acc[d] += weights[bi] * u_win[n + 1, twos, threes]
                    if n_live > 0:
                        nrev = f_nrev[d] + extra
                        if top + n_live > pool.size:
                            grown = np.empty(max(2 * pool.size, top + n_live), np.int64)
                            for i in range(top):
                                grown[i] = pool[i]
                            pool = grown
                        j = top
                        for i in range(start, start + k):
                            bi = pool[i]
                            if boards[bi, t] == v and hm0[bi] - nrev > 0:
                                pool[j] = bi
                                j += 1
                        f_start[d + 1] = top
                        f_k[d + 1] = n_live
                        f_code[d + 1] = f_code[d] | (v << (2 * t))
                        f_nrev[d + 1] = nrev
                        top += n_live
                        depth = d + 1
                        descended = True
                        break
                    f_v[d] += 1
                if descended:
                    break
                if not cut and f_acc[d] > f_best[d] + f_eps[d]:
                    f_best[d] = f_acc[d]
                    f_best_tile[d] = t
                f_oi[d] += 1
                f_v[d] = 1
            if descended:
                mode = 0
                continue
            value = stack.store(memo_val, memo_tile, f_key[d], f_best[d], f_best_tile[d])
        # mode 2, or the frame is done: the frame at depth d returns `value` to its parent
        if d == 0:
            return value
        top, depth = f_start[d], d - 1  # the parent's
        f_acc[depth] += value
        f_v[depth] += 1
        mode = 1


def objective_search_python(boards, weights, idx, revealed, u_quit, u_win, u_loss, monotone, memo):
    """Plain-Python twin of :func:`objective_search`: (value, best tile) of the live boards `idx`
    (a list) with `revealed` {tile: value}; the plain recursion (no best-case skip, no early stop),
    the same safe-tile rule and tie-breaking."""
    key = tuple(sorted(revealed.items()))
    if key in memo:
        return memo[key]
    vals = list(revealed.values())
    n, a, b3 = len(vals), vals.count(2), vals.count(3)
    total = float(sum(weights[i] for i in idx))
    hidden = [t for t in range(TILES) if t not in revealed]
    v_mass = {t: float(sum(weights[i] for i in idx if boards[i][t] == 0)) for t in hidden}
    tiles = [t for t in hidden if any(boards[i][t] != 0 for i in idx)]
    tiles.sort(key=lambda t: (v_mass[t], t))
    best, best_tile = (total * float(u_quit[n, a, b3]), -1) if n > 0 else (-1.0, -1)
    if tiles and monotone and v_mass[tiles[0]] <= 1e-15 * total:
        tiles = tiles[:1]
        best = -1.0
    for t in tiles:
        acc = v_mass[t] * float(u_loss[n])
        for v in (1, 2, 3):
            sel = [i for i in idx if boards[i][t] == v]
            if not sel:
                continue
            shown = {**revealed, t: v}
            live = []
            for i in sel:
                left = any(boards[i][u] >= 2 and u not in shown for u in range(TILES))
                if left:
                    live.append(i)
                else:
                    row = list(boards[i])
                    acc += weights[i] * float(u_win[n + 1, row.count(2), row.count(3)])
            if live:
                acc += objective_search_python(
                    boards, weights, live, shown, u_quit, u_win, u_loss, monotone, memo
                )[0]
        if acc > best + 1e-12 * total:
            best, best_tile = acc, t
    memo[key] = (best, best_tile)
    return best, best_tile
