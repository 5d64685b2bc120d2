"""The exact round search for any terminal utility u(outcome, cards flipped, 2s, 3s), as a numba
kernel (:func:`objective_search`) with its plain-Python twin (:func:`objective_search_py`).

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
the best so far is skipped, and a state stops as soon as it reaches W(S) times that maximum.

Recursive and not cached: numba 0.68 can crash loading a cached recursive kernel (DEVELOPERS.md);
it compiles in a few seconds on first use in a process.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.voltorb.rules import TILES


@njit(cache=False)
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
    :func:`gamelab.voltorb._search_kernels.coin_search`."""
    n = 0
    a = 0
    b3 = 0
    for t in range(TILES):
        v = (code >> (2 * t)) & 3
        if v > 0:
            n += 1
            if v == 2:
                a += 1
            elif v == 3:
                b3 += 1
    may_quit = n > 0
    key = (code << 1) | (1 if may_quit else 0)
    if key in memo_val:
        return memo_val[key]
    counter[0] += 1
    if counter[0] > counter[1]:
        counter[2] = 1
        return 0.0
    k = idx.size
    total = 0.0
    for i in range(k):
        total += weights[idx[i]]
    eps = 1e-12 * total
    v_mass = np.zeros(TILES)
    nonzero = np.zeros(TILES, np.bool_)
    for i in range(k):
        bi = idx[i]
        for t in range(TILES):
            if (code >> (2 * t)) & 3:
                continue
            if boards[bi, t] == 0:
                v_mass[t] += weights[bi]
            else:
                nonzero[t] = True
    ntiles = 0
    tiles = np.empty(TILES, np.int64)
    for t in range(TILES):
        if nonzero[t]:
            tiles[ntiles] = t
            ntiles += 1
    tiles = tiles[:ntiles]
    order = tiles[np.argsort(v_mass[tiles], kind="mergesort")]  # safest first, then by index
    best = -1.0
    best_tile = -1
    if may_quit:
        best = total * u_quit[n, a, b3]
    ceiling = total * u_max
    if ntiles > 0 and monotone and v_mass[order[0]] <= 1e-15 * total:
        order = order[:1]
        best = -1.0  # a safe tile is never worse than quitting (or anything else)
    for oi in range(order.size):
        if best >= ceiling - eps:
            break
        t = order[oi]
        # best case: every board not a Voltorb on t is worth the maximum
        if v_mass[t] * u_loss[n] + (total - v_mass[t]) * u_max <= best + eps:
            continue
        acc = v_mass[t] * u_loss[n]
        for v in range(1, 4):
            extra = 1 if v >= 2 else 0
            n_live = 0
            won = 0.0
            for i in range(k):
                bi = idx[i]
                if boards[bi, t] == v:
                    if hm0[bi] - nrev_mult - extra > 0:
                        n_live += 1
                    else:
                        won += weights[bi]
            if won > 0.0:
                # a won board shows all its multipliers: its own 2s and 3s
                for i in range(k):
                    bi = idx[i]
                    if boards[bi, t] == v and hm0[bi] - nrev_mult - extra <= 0:
                        twos = 0
                        threes = 0
                        for u in range(TILES):
                            if boards[bi, u] == 2:
                                twos += 1
                            elif boards[bi, u] == 3:
                                threes += 1
                        acc += weights[bi] * u_win[n + 1, twos, threes]
            if n_live > 0:
                live = np.empty(n_live, np.int64)
                j = 0
                for i in range(k):
                    bi = idx[i]
                    if boards[bi, t] == v and hm0[bi] - nrev_mult - extra > 0:
                        live[j] = bi
                        j += 1
                acc += objective_search(
                    boards,
                    weights,
                    hm0,
                    live,
                    code | (v << (2 * t)),
                    nrev_mult + extra,
                    u_quit,
                    u_win,
                    u_loss,
                    u_max,
                    monotone,
                    memo_val,
                    memo_tile,
                    counter,
                )
                if counter[2]:
                    return 0.0
        if acc > best + eps:
            best = acc
            best_tile = t
    memo_val[key] = best
    memo_tile[key] = best_tile
    return best


def objective_search_py(boards, weights, idx, revealed, u_quit, u_win, u_loss, monotone, memo):
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
                acc += objective_search_py(
                    boards, weights, live, shown, u_quit, u_win, u_loss, monotone, memo
                )[0]
        if acc > best + 1e-12 * total:
            best, best_tile = acc, t
    memo[key] = (best, best_tile)
    return best, best_tile
