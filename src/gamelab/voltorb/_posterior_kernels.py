"""Hot loop of the exact posterior: enumerate every board consistent with clues and revealed tiles.

Depth-first over rows 0-3, each row taking one of the (at most ~100) value patterns that match its
sum, Voltorb count and revealed tiles, pruned by what the columns can still hold; row 4 is then
forced by the column clues. For each board the features that decide its prior weight are recorded:
number of 3s, free-multiplier total (capped at 6) and the busiest line's free count (see
:mod:`gamelab.voltorb.prior`). Used by :mod:`gamelab.voltorb.posterior`.

``enumerate_boards`` is the numba kernel; ``enumerate_boards_python`` is its plain-Python twin (same
order, same output) used by the tests and the benchmark.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.voltorb.rules import SIZE, TILES

FREE_TOTAL_CAP = 6


def _all_row_patterns() -> np.ndarray:
    grid = np.indices((4,) * SIZE).reshape(SIZE, -1).T  # 1024 x 5, row-major value order
    return np.ascontiguousarray(grid.astype(np.int8))


ROW_PATTERNS = _all_row_patterns()


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _features(board, free_row, free_col):
    # counted line by line, without arrays: numba compiles an array's allocation and its max()
    # for every caller (0.3 CPU-s of a cold compile), and a board's two arrays cost run time
    threes = 0
    total = 0
    busiest = 0
    for r in range(SIZE):
        in_row = 0
        for c in range(SIZE):
            v = board[r * SIZE + c]
            if v == 3:
                threes += 1
            if v >= 2 and (free_row[r] or free_col[c]):
                total += 1
                in_row += 1
        busiest = max(busiest, in_row)
    for c in range(SIZE):
        in_col = 0
        for r in range(SIZE):
            if board[r * SIZE + c] >= 2 and (free_row[r] or free_col[c]):
                in_col += 1
        busiest = max(busiest, in_col)
    return threes, min(total, FREE_TOTAL_CAP), busiest


@njit(cache=True)
def enumerate_boards(patterns, row_sums, row_volts, col_sums, col_volts, known):
    """All consistent boards (n x 25 int8, row-major) and their features (n x 3 int64).
    `patterns` is :data:`ROW_PATTERNS`: every row of values, in the order of the values read as
    a base-4 number (candidates that fail a column's clue are skipped by that order)."""
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
    # int64 like ncand and pos (1 where the line has no Voltorb): numba compiles an allocation
    # once per element type and shape, so one kind of small array compiles once
    free_row = np.zeros(SIZE, np.int64)
    free_col = np.zeros(SIZE, np.int64)
    for i in range(SIZE):
        free_row[i] = row_volts[i] == 0
        free_col[i] = col_volts[i] == 0

    cap = 1024
    boards = np.empty((cap, TILES), np.int8)
    feats = np.empty((cap, 3), np.int64)
    n = 0
    csum = np.zeros((SIZE, SIZE), np.int64)  # csum[d] = column sums of rows 0..d-1
    cvol = np.zeros((SIZE, SIZE), np.int64)
    pos = np.zeros(SIZE, np.int64)  # the candidate tried at each depth, -1 before the first
    for i in range(SIZE):
        pos[i] = -1
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
                # so do the next candidates with the same first c + 1 values: skip them (the
                # candidates are in pattern order, i.e. by their values as a base-4 number)
                shift = 2 * (SIZE - 1 - c)
                while pos[d] + 1 < ncand[d] and cand[d, pos[d] + 1] >> shift == p >> shift:
                    pos[d] += 1
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
            # element by element: a slice assignment makes numba compile its shape check and
            # that check's error message (string formatting), about 3 of this kernel's 4.5
            # CPU-s of compiling (``gamelab serve``'s cold start waits for it)
            for i in range(n):
                for j in range(TILES):
                    nb[i, j] = boards[i, j]
                for j in range(3):
                    nf[i, j] = feats[i, j]
            boards = nb
            feats = nf
        for j in range(TILES):
            boards[n, j] = board[j]
        t3, ft, fb = _features(board, free_row, free_col)
        feats[n, 0] = t3
        feats[n, 1] = ft
        feats[n, 2] = fb
        n += 1
    return boards[:n].copy(), feats[:n].copy()


def enumerate_boards_python(patterns, row_sums, row_volts, col_sums, col_volts, known):
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
