"""numba kernels of the Oware endgame tablebase: board ranking and the retrograde solution.

Boards of n seeds on the houses (stores ignored) are ranked among all C(n + 11, 11) such boards;
:func:`build_level` solves a level from the lower ones. Used by :mod:`gamelab.oware.tablebase`
(whose ``exhaustive_board_value`` is the plain-Python twin of a looked-up value) and by the
search kernel's probes (:mod:`gamelab.oware._search_kernels`).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numba import njit

from gamelab.oware._move_kernels import (
    GS_NO_CAPTURE,
    copy_board,
    legal_mask,
    sow_and_capture,
)

# --------------------------------------------------------------------------- tablebase indexing


@njit(cache=True)
def binomial_table():
    t = np.zeros((80, 13), dtype=np.int64)
    for n in range(80):
        t[n, 0] = 1
        for k in range(1, min(n, 12) + 1):
            t[n, k] = t[n - 1, k - 1] + (t[n - 1, k] if k <= n - 1 else 0)
    return t


@njit(cache=True)
def rank_board(b, side, binom):
    """Index of the houses among all boards with the same seed count, seen from `side`'s row."""
    n = 0
    for k in range(12):
        n += b[k]
    r = n
    idx = 0
    for i in range(11):
        h = b[(6 * side + i) % 12]
        parts = 11 - i  # houses after this one
        # boards whose house i holds fewer than h seeds: C(r+parts, parts) - C(r-h+parts, parts)
        idx += binom[r + parts, parts] - binom[r - h + parts, parts]
        r -= h
    return idx


@njit(cache=True)
def unrank_board(n, idx, out, binom):
    """Inverse of rank_board for side 0: fill out[0:12] with the board of index idx."""
    r = n
    for i in range(11):
        parts = 11 - i
        h = 0
        # count of boards with house i < h+1 minus those < h, grow h until idx fits
        while True:
            below = binom[r + parts, parts] - binom[r - (h + 1) + parts, parts]
            if idx < below:
                break
            h += 1
        idx -= binom[r + parts, parts] - binom[r - h + parts, parts]
        out[i] = h
        r -= h
    out[11] = r


@njit(cache=True)
def level_offsets(max_seeds, binom):
    off = np.zeros(max_seeds + 2, dtype=np.int64)
    for n in range(max_seeds + 1):
        off[n + 1] = off[n] + binom[n + 11, 11]
    return off


@njit(cache=True)
def tb_board_value(b, side, values, offsets, binom):
    """Tablebase value (mover's final difference of the board seeds) or a large sentinel."""
    n = 0
    for k in range(12):
        n += b[k]
    if n >= offsets.shape[0] - 1:
        return -999
    return values[offsets[n] + rank_board(b, side, binom)]


@njit(cache=True)
def build_level(n, values, offsets, binom):
    """Retrograde solution of all boards with n seeds (lower levels must be in `values`).

    The game here ignores the stores: play continues until no move is possible (each side then
    keeps its own row). Capture-free cycles are valued as an even split of the board seeds:
    lo/hi are the least/greatest fixed points of v(p) = max over moves (captured - v(child)),
    i.e. what the mover can force when endless play counts as -n or +n; the value with endless
    play worth 0 is median(lo, 0, hi). Returns the number of sweeps."""
    size = binom[n + 11, 11]
    base = offsets[n]
    succ = np.full((size, 6), -1, dtype=np.int32)
    fixed = np.full(size, -128, dtype=np.int32)
    board = np.zeros(14, dtype=np.int64)
    child = np.zeros(14, dtype=np.int64)
    for p in range(size):
        board[:] = 0
        unrank_board(n, p, board, binom)
        mask = legal_mask(board, 0, GS_NO_CAPTURE)
        if mask == 0:
            own = 0
            for k in range(6):
                own += board[k]
            fixed[p] = own - (n - own)
            continue
        for o in range(6):
            if not (mask >> o) & 1:
                continue
            copy_board(child, board)
            c = sow_and_capture(child, 0, o, GS_NO_CAPTURE)
            if c > 0:
                v = c - values[offsets[n - c] + rank_board(child, 1, binom)]
                if v > fixed[p]:
                    fixed[p] = v
            else:
                succ[p, o] = rank_board(child, 1, binom)
    lo = np.full(size, -n, dtype=np.int32)
    hi = np.full(size, n, dtype=np.int32)
    # boards without a capture-free move are decided at once; the rest stay active until
    # lo == hi (lo only rises and hi only falls, so equal bounds never move again)
    active = np.empty(size, dtype=np.int64)
    count = 0
    for p in range(size):
        has_succ = False
        for o in range(6):
            if succ[p, o] >= 0:
                has_succ = True
        if has_succ:
            active[count] = p
            count += 1
        else:
            lo[p] = fixed[p]
            hi[p] = fixed[p]
    sweeps = 0
    changed = True
    while changed:
        changed = False
        sweeps += 1
        keep = 0
        for i in range(count):
            p = active[i]
            best_lo = fixed[p]
            best_hi = fixed[p]
            for o in range(6):
                q = succ[p, o]
                if q >= 0:
                    if -hi[q] > best_lo:
                        best_lo = -hi[q]
                    if -lo[q] > best_hi:
                        best_hi = -lo[q]
            if best_lo != lo[p] or best_hi != hi[p]:
                lo[p] = best_lo
                hi[p] = best_hi
                changed = True
            if best_lo != best_hi:
                active[keep] = p
                keep += 1
        count = keep
    for p in range(size):
        v = 0
        if lo[p] > 0:
            v = lo[p]
        elif hi[p] < 0:
            v = hi[p]
        values[base + p] = v
    return sweeps


def binomial_table_python() -> np.ndarray:
    """Twin of :func:`binomial_table`: C(n, k) for n < 80, k <= 12."""
    return np.array([[math.comb(n, k) for k in range(13)] for n in range(80)], dtype=np.int64)


def level_offsets_python(max_seeds: int, binom: np.ndarray) -> np.ndarray:
    """Twin of :func:`level_offsets`: where each seed count's boards start in the table."""
    sizes = [int(binom[n + 11, 11]) for n in range(max_seeds + 1)]
    return np.array([0, *itertools.accumulate(sizes)], dtype=np.int64)
