"""Hot loop of the exact posterior: enumerate every board consistent with clues and revealed tiles.

Depth-first over rows 0-3, each row taking one of the (at most ~100) value patterns that match its
sum, Voltorb count and revealed tiles, pruned by what the columns can still hold; row 4 is then
forced by the column clues. For each board the features that decide its prior weight are recorded:
number of 3s, free-multiplier total (capped at 6) and the busiest line's free count (see
:mod:`gamelab.voltorb.prior`).

``enumerate_boards`` is the numba kernel; ``enumerate_boards_py`` is its plain-Python twin (same
order, same output) used by the tests and the benchmark.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SIZE = 5
TILES = 25
FREE_TOTAL_CAP = 6


def _all_row_patterns() -> np.ndarray:
    grid = np.indices((4,) * SIZE).reshape(SIZE, -1).T  # 1024 x 5, row-major value order
    return np.ascontiguousarray(grid.astype(np.int8))


ROW_PATTERNS = _all_row_patterns()


@njit(cache=True)
def _features(board, free_row, free_col):
    threes = 0
    total = 0
    row_free = np.zeros(SIZE, np.int64)
    col_free = np.zeros(SIZE, np.int64)
    for r in range(SIZE):
        for c in range(SIZE):
            v = board[r * SIZE + c]
            if v == 3:
                threes += 1
            if v >= 2 and (free_row[r] or free_col[c]):
                total += 1
                row_free[r] += 1
                col_free[c] += 1
    busiest = max(row_free.max(), col_free.max())
    return threes, min(total, FREE_TOTAL_CAP), busiest


@njit(cache=True)
def enumerate_boards(patterns, row_sums, row_volts, col_sums, col_volts, known):
    """All consistent boards (n x 25 int8, row-major) and their features (n x 3 int64)."""
    npat = patterns.shape[0]
    cand = np.empty((SIZE, npat), np.int64)
    ncand = np.zeros(SIZE, np.int64)
    for r in range(SIZE - 1):
        for p in range(npat):
            s = 0
            nv = 0
            ok = True
            for c in range(SIZE):
                v = patterns[p, c]
                s += v
                if v == 0:
                    nv += 1
                k = known[r * SIZE + c]
                if k >= 0 and k != v:
                    ok = False
            if ok and s == row_sums[r] and nv == row_volts[r]:
                cand[r, ncand[r]] = p
                ncand[r] += 1
    free_row = np.zeros(SIZE, np.bool_)
    free_col = np.zeros(SIZE, np.bool_)
    for i in range(SIZE):
        free_row[i] = row_volts[i] == 0
        free_col[i] = col_volts[i] == 0

    cap = 1024
    boards = np.empty((cap, TILES), np.int8)
    feats = np.empty((cap, 3), np.int64)
    n = 0
    csum = np.zeros((SIZE, SIZE), np.int64)  # csum[d] = column sums of rows 0..d-1
    cvol = np.zeros((SIZE, SIZE), np.int64)
    pos = np.full(SIZE, -1, np.int64)
    board = np.empty(TILES, np.int8)
    d = 0
    while d >= 0:
        pos[d] += 1
        if pos[d] >= ncand[d]:
            pos[d] = -1
            d -= 1
            continue
        p = cand[d, pos[d]]
        left = SIZE - 1 - d  # rows still to fill after this one
        ok = True
        for c in range(SIZE):
            v = patterns[p, c]
            cs = csum[d, c] + v
            cv = cvol[d, c] + (1 if v == 0 else 0)
            csum[d + 1, c] = cs
            cvol[d + 1, c] = cv
            rv = col_volts[c] - cv
            rs = col_sums[c] - cs
            cards = left - rv
            if rv < 0 or rv > left or rs < cards or rs > 3 * cards:
                ok = False
                break
        if not ok:
            continue
        for c in range(SIZE):
            board[d * SIZE + c] = patterns[p, c]
        if d < SIZE - 2:
            d += 1
            continue
        # last row forced by the columns
        s = 0
        nv = 0
        for c in range(SIZE):
            rv = col_volts[c] - cvol[SIZE - 1, c]
            rs = col_sums[c] - csum[SIZE - 1, c]
            v = 0 if rv == 1 else rs
            if rv == 1 and rs != 0:
                ok = False
            k = known[(SIZE - 1) * SIZE + c]
            if k >= 0 and k != v:
                ok = False
            board[(SIZE - 1) * SIZE + c] = v
            s += v
            if v == 0:
                nv += 1
        if not ok or s != row_sums[SIZE - 1] or nv != row_volts[SIZE - 1]:
            continue
        if n == cap:
            cap *= 2
            nb = np.empty((cap, TILES), np.int8)
            nf = np.empty((cap, 3), np.int64)
            nb[:n] = boards[:n]
            nf[:n] = feats[:n]
            boards = nb
            feats = nf
        boards[n] = board
        t3, ft, fb = _features(board, free_row, free_col)
        feats[n, 0] = t3
        feats[n, 1] = ft
        feats[n, 2] = fb
        n += 1
    return boards[:n].copy(), feats[:n].copy()


def enumerate_boards_py(patterns, row_sums, row_volts, col_sums, col_volts, known):
    """Plain-Python twin of :func:`enumerate_boards` (recursive, same output order)."""
    patterns = [tuple(int(x) for x in p) for p in np.asarray(patterns)]
    row_sums = [int(x) for x in row_sums]
    row_volts = [int(x) for x in row_volts]
    col_sums = [int(x) for x in col_sums]
    col_volts = [int(x) for x in col_volts]
    known = [int(x) for x in known]
    cands = []
    for r in range(SIZE - 1):
        cands.append(
            [
                p
                for p in patterns
                if sum(p) == row_sums[r]
                and p.count(0) == row_volts[r]
                and all(known[r * SIZE + c] in (-1, p[c]) for c in range(SIZE))
            ]
        )
    free_row = [v == 0 for v in row_volts]
    free_col = [v == 0 for v in col_volts]
    boards: list[list[int]] = []
    feats: list[tuple[int, int, int]] = []

    def features(b: list[int]) -> tuple[int, int, int]:
        free = [
            (r, c)
            for r in range(SIZE)
            for c in range(SIZE)
            if b[r * SIZE + c] >= 2 and (free_row[r] or free_col[c])
        ]
        busiest = max(
            [sum(1 for f in free if f[0] == i) for i in range(SIZE)]
            + [sum(1 for f in free if f[1] == i) for i in range(SIZE)]
        )
        return b.count(3), min(len(free), FREE_TOTAL_CAP), busiest

    def go(d: int, rows: list[tuple[int, ...]], csum: list[int], cvol: list[int]) -> None:
        if d == SIZE - 1:
            last = []
            for c in range(SIZE):
                rv, rs = col_volts[c] - cvol[c], col_sums[c] - csum[c]
                if rv == 1 and rs != 0:
                    return
                last.append(0 if rv == 1 else rs)
            if sum(last) != row_sums[-1] or last.count(0) != row_volts[-1]:
                return
            if any(known[(SIZE - 1) * SIZE + c] not in (-1, last[c]) for c in range(SIZE)):
                return
            b = [v for row in rows for v in row] + last
            boards.append(b)
            feats.append(features(b))
            return
        left = SIZE - 1 - d
        for p in cands[d]:
            ns = [csum[c] + p[c] for c in range(SIZE)]
            nv = [cvol[c] + (p[c] == 0) for c in range(SIZE)]
            ok = True
            for c in range(SIZE):
                rv, rs = col_volts[c] - nv[c], col_sums[c] - ns[c]
                cards = left - rv
                if rv < 0 or rv > left or rs < cards or rs > 3 * cards:
                    ok = False
                    break
            if ok:
                go(d + 1, rows + [p], ns, nv)

    go(0, [], [0] * SIZE, [0] * SIZE)
    return (
        np.array(boards, dtype=np.int8).reshape(-1, TILES),
        np.array(feats, dtype=np.int64).reshape(-1, 3),
    )


@njit(cache=True)
def flip_bounds(boards, weights, hidden_mult, revealed_mask):
    """Per tile t and value v (25 x 4): prior mass of t = v, mass of boards won by that flip, and
    an upper bound on the mass a policy can still win afterwards (live mass minus the smallest
    Voltorb mass among the child's useful tiles, unless the child has a safe useful tile).

    `boards` (k x 25) are the live boards of a state, `hidden_mult` their unrevealed 2s/3s,
    `revealed_mask` (25,) the revealed tiles. Cost O(k * 25 * 25).
    """
    k = boards.shape[0]
    mass = np.zeros((TILES, 4))
    won = np.zeros((TILES, 4))
    v_in_child = np.zeros((TILES, 4, TILES))
    m_in_child = np.zeros((TILES, 4, TILES))
    for b in range(k):
        w = weights[b]
        for t in range(TILES):
            if revealed_mask[t]:
                continue
            v = boards[b, t]
            mass[t, v] += w
            if v == 0:
                continue
            left = hidden_mult[b] - (1 if v >= 2 else 0)
            if left == 0:
                won[t, v] += w
                continue
            for u in range(TILES):
                x = boards[b, u]
                if x == 0:
                    v_in_child[t, v, u] += w
                elif x >= 2:
                    m_in_child[t, v, u] += w
    bound = np.zeros((TILES, 4))
    for t in range(TILES):
        if revealed_mask[t]:
            continue
        for v in range(1, 4):
            live = mass[t, v] - won[t, v]
            if live <= 0.0:
                continue
            best_risk = live
            safe = False
            for u in range(TILES):
                if u == t or revealed_mask[u] or m_in_child[t, v, u] <= 0.0:
                    continue
                if v_in_child[t, v, u] <= 0.0:
                    safe = True
                    break
                if v_in_child[t, v, u] < best_risk:
                    best_risk = v_in_child[t, v, u]
            bound[t, v] = live if safe else live - best_risk
    return mass, won, bound


def flip_bounds_py(boards, weights, hidden_mult, revealed_mask):
    """Plain-Python twin of :func:`flip_bounds`."""
    mass = np.zeros((TILES, 4))
    won = np.zeros((TILES, 4))
    v_in = np.zeros((TILES, 4, TILES))
    m_in = np.zeros((TILES, 4, TILES))
    for b in range(len(boards)):
        w = float(weights[b])
        row = [int(x) for x in boards[b]]
        for t in range(TILES):
            if revealed_mask[t]:
                continue
            v = row[t]
            mass[t, v] += w
            if v == 0:
                continue
            if hidden_mult[b] - (v >= 2) == 0:
                won[t, v] += w
                continue
            for u in range(TILES):
                if row[u] == 0:
                    v_in[t, v, u] += w
                elif row[u] >= 2:
                    m_in[t, v, u] += w
    bound = np.zeros((TILES, 4))
    for t in range(TILES):
        if revealed_mask[t]:
            continue
        for v in (1, 2, 3):
            live = mass[t, v] - won[t, v]
            if live <= 0:
                continue
            useful = [u for u in range(TILES) if u != t and not revealed_mask[u] and m_in[t, v, u] > 0]
            risks = [v_in[t, v, u] for u in useful]
            if risks and min(risks) <= 0:
                bound[t, v] = live
            else:
                bound[t, v] = live - min([live] + risks)
    return mass, won, bound


@njit(cache=True)
def _bounds_on(boards, weights, idx, hm0, nrev_mult, revealed_mask):
    """:func:`flip_bounds` on the boards `idx` whose hidden multipliers are hm0 - nrev_mult."""
    mass = np.zeros((TILES, 4))
    won = np.zeros((TILES, 4))
    v_in_child = np.zeros((TILES, 4, TILES))
    m_in_child = np.zeros((TILES, 4, TILES))
    for i in range(idx.size):
        b = idx[i]
        w = weights[b]
        hm = hm0[b] - nrev_mult
        for t in range(TILES):
            if revealed_mask[t]:
                continue
            v = boards[b, t]
            mass[t, v] += w
            if v == 0:
                continue
            if hm - (1 if v >= 2 else 0) == 0:
                won[t, v] += w
                continue
            for u in range(TILES):
                x = boards[b, u]
                if x == 0:
                    v_in_child[t, v, u] += w
                elif x >= 2:
                    m_in_child[t, v, u] += w
    bound = np.zeros((TILES, 4))
    for t in range(TILES):
        if revealed_mask[t]:
            continue
        for v in range(1, 4):
            live = mass[t, v] - won[t, v]
            if live <= 0.0:
                continue
            best_risk = live
            safe = False
            for u in range(TILES):
                if u == t or revealed_mask[u] or m_in_child[t, v, u] <= 0.0:
                    continue
                if v_in_child[t, v, u] <= 0.0:
                    safe = True
                    break
                if v_in_child[t, v, u] < best_risk:
                    best_risk = v_in_child[t, v, u]
            bound[t, v] = live if safe else live - best_risk
    return mass, won, bound


@njit(cache=True)
def win_search(boards, weights, hm0, idx, code, nrev_mult, alpha, memo_val, memo_exact, memo_tile, counter):
    """Max P(win) mass of the live boards `idx` at revealed state `code` (2 bits per tile: 0 hidden,
    else the value shown). Same recursion and pruning as the Python twin
    :class:`gamelab.voltorb.expectimax.OptimalSolver`, plus fail-low cut-offs: the result is exact
    when it exceeds `alpha`, otherwise it is `alpha`, an upper bound (pass alpha < 0 for an exact
    value). The best tile of each exactly solved state goes to `memo_tile`."""
    if code in memo_val:
        if memo_exact[code] or memo_val[code] <= alpha:
            return memo_val[code]
    counter[0] += 1
    total = 0.0
    for i in range(idx.size):
        total += weights[idx[i]]
    revealed_mask = np.zeros(TILES, np.bool_)
    for t in range(TILES):
        revealed_mask[t] = ((code >> (2 * t)) & 3) != 0
    if idx.size == 1:
        tile = -1
        for t in range(TILES):
            if boards[idx[0], t] >= 2 and not revealed_mask[t]:
                tile = t
                break
        memo_val[code] = total
        memo_exact[code] = True
        memo_tile[code] = tile
        return total
    mass, won, bound = _bounds_on(boards, weights, idx, hm0, nrev_mult, revealed_mask)
    eps = 1e-12 * total
    ntiles = 0
    tiles = np.empty(TILES, np.int64)
    tile_bound = np.empty(TILES)
    safe_tile = -1
    for t in range(TILES):
        if revealed_mask[t] or mass[t, 2] + mass[t, 3] <= 0.0:
            continue
        if mass[t, 0] <= 1e-15 * total and safe_tile < 0:
            safe_tile = t
        tiles[ntiles] = t
        tb = 0.0
        for v in range(1, 4):
            # a child already solved (exactly, or as a fail-low upper bound) bounds tighter
            child_code = code | (v << (2 * t))
            if mass[t, v] > 0.0 and child_code in memo_val and memo_val[child_code] < bound[t, v]:
                bound[t, v] = memo_val[child_code]
            tb += won[t, v] + bound[t, v]
        tile_bound[ntiles] = tb
        ntiles += 1
    if safe_tile >= 0:
        order = np.array([safe_tile])
    else:
        order = tiles[:ntiles][np.argsort(-tile_bound[:ntiles], kind="mergesort")]
    best = -1.0
    best_tile = order[0]
    for oi in range(order.size):
        t = order[oi]
        threshold = max(best, alpha)
        running = 0.0
        for v in range(1, 4):
            running += won[t, v] + bound[t, v]
        if running <= threshold + eps:
            break
        acc = 0.0
        pruned = False
        for v in range(1, 4):
            if mass[t, v] <= 0.0:
                continue
            extra = 1 if v >= 2 else 0
            n_live = 0
            for i in range(idx.size):
                b = idx[i]
                if boards[b, t] == v and hm0[b] - nrev_mult - extra > 0:
                    n_live += 1
            child = 0.0
            if n_live > 0:
                live = np.empty(n_live, np.int64)
                j = 0
                for i in range(idx.size):
                    b = idx[i]
                    if boards[b, t] == v and hm0[b] - nrev_mult - extra > 0:
                        live[j] = b
                        j += 1
                child_alpha = threshold - (running - bound[t, v])
                if threshold < 0.0:
                    child_alpha = -1.0
                child = win_search(
                    boards, weights, hm0, live, code | (v << (2 * t)), nrev_mult + extra,
                    child_alpha, memo_val, memo_exact, memo_tile, counter,
                )
            acc += won[t, v] + child
            running -= bound[t, v] - child
            if running <= threshold + eps:
                pruned = True
                break
        if not pruned and acc > best:
            best = acc
            best_tile = t
    if best > alpha + eps or alpha < 0.0:
        memo_val[code] = best
        memo_exact[code] = True
        memo_tile[code] = best_tile
        return best
    memo_val[code] = alpha
    memo_exact[code] = False
    return alpha
