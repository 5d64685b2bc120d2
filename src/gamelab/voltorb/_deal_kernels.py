"""Batched board dealing for the environments: many boards per call, from a buffer of uniform
draws (``rng.random(n)`` of the caller's generator) consumed in order, so the boards dealt
depend only on the uniforms, never on how many boards one call deals.

The law is :func:`gamelab.voltorb.rules.generate_board`'s: a configuration uniformly among the
level's ten, its cards placed uniformly (a partial Fisher-Yates shuffle picks the Voltorb, 2 and
3 tiles in that order), for ``hgss`` dealt again while the board fails the free-multiplier
test (at most :data:`~gamelab.voltorb.rules.MAX_GENERATION_TRIES` tries, the last kept), and
for the i.i.d. generators every tile drawn alone. The plain-Python twin
:func:`deal_boards_python` uses the rules module's own free test and clues
(:func:`~gamelab.voltorb.rules.passes_free_test`, :meth:`~gamelab.voltorb.rules.Clues.from_board`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.voltorb.rules import (
    CONFIGS,
    MAX_GENERATION_TRIES,
    SIZE,
    TILES,
    Clues,
    iid_tile_probabilities,
    passes_free_test,
)

#: `mode` of :func:`deal_boards`
PLACED, PLACED_FREE_TEST, IID = 0, 1, 2


@njit(cache=True)
def deal_boards(u, pos, n, mode, counts, limits, iid_cumulative, boards, configs, clues):
    """Deal up to `n` boards into ``boards`` (int8, 25 per board) from the uniforms ``u[pos:]``,
    with their configuration index among the level's ten (``configs``; -1 for i.i.d.) and clues
    (``clues[k]``: row sums, row Voltorbs, column sums, column Voltorbs). `counts` (10 x 3):
    Voltorbs, 2s, 3s of each configuration; `limits` (10 x 2): its free limits per line and in
    total. Returns (boards dealt, position after the last one): a board the uniforms left
    cannot finish is not dealt (call again with more)."""
    cells = np.empty(TILES, dtype=np.int64)
    end = u.shape[0]
    for k in range(n):
        start = pos
        board = boards[k]
        if mode == IID:
            if pos + TILES > end:
                return k, start
            configs[k] = -1
            for t in range(TILES):
                x = u[pos]
                pos += 1
                v = 0
                while v < 3 and x >= iid_cumulative[v]:
                    v += 1
                board[t] = v
        else:
            if pos >= end:
                return k, start
            c = int(u[pos] * 10.0)
            pos += 1
            configs[k] = c
            nv, n2, n3 = counts[c, 0], counts[c, 1], counts[c, 2]
            m = nv + n2 + n3
            tries = 0
            while True:
                tries += 1
                if pos + m > end:
                    return k, start
                for t in range(TILES):
                    cells[t] = t
                    board[t] = 1
                for i in range(m):
                    j = i + int(u[pos] * (TILES - i))
                    pos += 1
                    cells[i], cells[j] = cells[j], cells[i]
                    board[cells[i]] = 0 if i < nv else (2 if i < nv + n2 else 3)
                if mode != PLACED_FREE_TEST or tries >= MAX_GENERATION_TRIES:
                    break
                total = 0
                per_line = 0
                for line in range(SIZE):
                    row_free = 0
                    col_free = 0
                    for x in range(SIZE):
                        r = board[SIZE * line + x]
                        cl = board[SIZE * x + line]
                        if r >= 2 and _free(board, line, x):
                            row_free += 1
                            total += 1
                        if cl >= 2 and _free(board, x, line):
                            col_free += 1
                    per_line = max(per_line, row_free, col_free)
                if total < limits[c, 1] and per_line < limits[c, 0]:
                    break
        for line in range(SIZE):
            rs = 0
            rv = 0
            cs = 0
            cv = 0
            for x in range(SIZE):
                r = board[SIZE * line + x]
                cl = board[SIZE * x + line]
                rs += r
                cs += cl
                rv += r == 0
                cv += cl == 0
            clues[k, 0, line] = rs
            clues[k, 1, line] = rv
            clues[k, 2, line] = cs
            clues[k, 3, line] = cv
    return n, pos


@njit(cache=True)
def _free(board, row, col):
    """Whether tile (row, col)'s row or column holds no Voltorb."""
    row_clear = True
    col_clear = True
    for x in range(SIZE):
        if board[SIZE * row + x] == 0:
            row_clear = False
        if board[SIZE * x + col] == 0:
            col_clear = False
    return row_clear or col_clear


def level_tables(generator: str, level: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's view of a level: (mode, counts, limits, cumulative i.i.d. probabilities)."""
    cfgs = CONFIGS[10 * (level - 1) : 10 * level]
    counts = np.array([(c.voltorbs, c.twos, c.threes) for c in cfgs], dtype=np.int64)
    limits = np.array([(c.max_free_per_line, c.max_free_total) for c in cfgs], dtype=np.int64)
    if generator in ("iid", "iid-as-coded"):
        cumulative = np.cumsum(iid_tile_probabilities(generator, level))
        return IID, counts, limits, cumulative
    mode = PLACED_FREE_TEST if generator == "hgss" else PLACED
    return mode, counts, limits, np.zeros(4)


def deal_boards_python(
    u: np.ndarray, pos: int, n: int, generator: str, level: int
) -> tuple[int, int, np.ndarray, np.ndarray, np.ndarray]:
    """The readable twin of :func:`deal_boards`: (boards dealt, position after them, boards
    n x 25, configuration ids n, clues n x 4 x 5), with the rules module's free test and clues
    and the kernel's use of the uniforms."""
    mode, _counts, _limits, cumulative = level_tables(generator, level)
    cfgs = CONFIGS[10 * (level - 1) : 10 * level]
    boards = np.ones((n, TILES), dtype=np.int8)
    configs = np.full(n, -1, dtype=np.int64)
    clues = np.zeros((n, 4, SIZE), dtype=np.int64)
    draws = [float(x) for x in u]
    for k in range(n):
        start = pos
        try:
            if mode == IID:
                if pos + TILES > len(draws):
                    raise IndexError
                for t in range(TILES):
                    x = draws[pos]
                    pos += 1
                    boards[k, t] = min(int(np.searchsorted(cumulative[:3], x, side="right")), 3)
            else:
                c = int(draws[pos] * 10.0)
                pos += 1
                configs[k] = c
                cfg = cfgs[c]
                tries = 0
                while True:
                    tries += 1
                    order = [0] * cfg.voltorbs + [2] * cfg.twos + [3] * cfg.threes
                    if pos + len(order) > len(draws):
                        raise IndexError
                    cells = list(range(TILES))
                    flat = [1] * TILES
                    for i, value in enumerate(order):
                        j = i + int(draws[pos] * (TILES - i))
                        pos += 1
                        cells[i], cells[j] = cells[j], cells[i]
                        flat[cells[i]] = value
                    board = np.array(flat, dtype=np.int8)
                    if (
                        mode != PLACED_FREE_TEST
                        or tries >= MAX_GENERATION_TRIES
                        or passes_free_test(board, cfg)
                    ):
                        break
                boards[k] = board
        except IndexError:  # the uniforms ran out inside this board
            configs[k] = -1
            return k, start, boards, configs, clues
        cl = Clues.from_board(boards[k])
        clues[k] = np.stack([cl.row_sums, cl.row_voltorbs, cl.col_sums, cl.col_voltorbs])
    return n, pos, boards, configs, clues
