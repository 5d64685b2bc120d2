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


# --------------------------------------------------------------------------- the compact builder
# (gamelab.oware.tablebase_disk): a level is solved in chunks of consecutive ranks without the
# successor table of build_level; each sweep generates the capture-free moves again, so a
# board costs 4 bytes while its level is built (lo, hi, its best capture or end value, the mask
# of its capture-free moves) instead of about 44.

#: "no capture and no end value" in a board's fixed value (below every value, -48..48)
NO_FIXED = -128


@njit(cache=True)
def next_board(b):
    """Advance b[0:12] to the next board of the same seed count in rank order (side 0), in
    place; False (and b unchanged) after the last one. Twin: :func:`next_board_python`."""
    if b[11] > 0:
        b[10] += 1
        b[11] -= 1
        return True
    k = 10
    while k >= 0 and b[k] == 0:
        k -= 1
    if k <= 0:
        return False
    b[k - 1] += 1
    b[11] = b[k] - 1
    b[k] = 0
    return True


@njit(cache=True, nogil=True)
def level_captures_kernel(n, start, count, values, offsets, binom, fixed, free, lo, hi):
    """First pass over boards `start` .. `start + count - 1` of level n (lower levels in
    `values`): fixed[i] is the best a capture gives the mover (or the end value when the mover
    cannot move; NO_FIXED when neither), free[i] the mask of capture-free moves, and lo[i], hi[i]
    the first bounds (equal when the board has no capture-free move). Twin:
    :func:`level_captures_python`."""
    board = np.zeros(14, dtype=np.int64)
    child = np.zeros(14, dtype=np.int64)
    if count == 0:
        return 0
    unrank_board(n, start, board, binom)
    undecided = 0
    for i in range(count):
        if i > 0:
            next_board(board)
        mask = legal_mask(board, 0, GS_NO_CAPTURE)
        best = NO_FIXED
        moves = 0
        if mask == 0:
            own = 0
            for k in range(6):
                own += board[k]
            best = own - (n - own)
        else:
            for o in range(6):
                if not (mask >> o) & 1:
                    continue
                copy_board(child, board)
                c = sow_and_capture(child, 0, o, GS_NO_CAPTURE)
                if c > 0:
                    v = c - values[offsets[n - c] + rank_board(child, 1, binom)]
                    if v > best:
                        best = v
                else:
                    moves |= 1 << o
        fixed[i] = best
        free[i] = moves
        if moves == 0:
            lo[i] = best
            hi[i] = best
        else:
            lo[i] = best if best > -n else -n
            hi[i] = n
            undecided += 1
    return undecided


@njit(cache=True, nogil=True)
def level_sweep_kernel(n, start, count, fixed, free, lo, hi, binom):
    """One sweep over boards `start` .. `start + count - 1` of level n, in rank order: raise
    lo to the best of fixed and -hi of each capture-free child, lower hi to the best of fixed
    and -lo of each child (lo and hi hold the whole level; fixed and free the chunk's boards).
    Returns (bounds changed, boards still open). Twin: :func:`level_sweep_python`."""
    board = np.zeros(14, dtype=np.int64)
    child = np.zeros(14, dtype=np.int64)
    changed = 0
    still_open = 0
    if count == 0:
        return changed, still_open
    unrank_board(n, start, board, binom)
    for i in range(count):
        if i > 0:
            next_board(board)
        p = start + i
        if lo[p] == hi[p]:
            continue
        moves = free[i]
        best_lo = np.int64(fixed[i])
        best_hi = np.int64(fixed[i])
        for o in range(6):
            if not (moves >> o) & 1:
                continue
            copy_board(child, board)
            sow_and_capture(child, 0, o, GS_NO_CAPTURE)
            q = rank_board(child, 1, binom)
            if -hi[q] > best_lo:
                best_lo = -hi[q]
            if -lo[q] > best_hi:
                best_hi = -lo[q]
        if best_lo > lo[p]:
            lo[p] = best_lo
            changed += 1
        if best_hi < hi[p]:
            hi[p] = best_hi
            changed += 1
        if lo[p] != hi[p]:
            still_open += 1
    return changed, still_open


def rank_board_python(houses: list[int], side: int) -> int:
    """Twin of :func:`rank_board`: the board's index among boards of its seed count."""
    row = [houses[(6 * side + i) % 12] for i in range(12)]
    r = sum(row)
    idx = 0
    for i in range(11):
        parts = 11 - i
        idx += math.comb(r + parts, parts) - math.comb(r - row[i] + parts, parts)
        r -= row[i]
    return idx


def next_board_python(houses: list[int]) -> bool:
    """Twin of :func:`next_board`: the lexicographically next split of the same seeds over
    houses 0-10 (house 11 takes the rest), in place."""
    if houses[11] > 0:
        houses[10] += 1
        houses[11] -= 1
        return True
    nonzero = [k for k in range(11) if houses[k] > 0]
    if not nonzero or nonzero[-1] == 0:
        return False
    k = nonzero[-1]
    houses[k - 1] += 1
    houses[11] = houses[k] - 1
    houses[k] = 0
    return True


def _board_of_rank(n: int, idx: int) -> list[int]:
    houses = [0] * 11 + [n]  # rank 0: every seed in the last house
    for _ in range(idx):
        next_board_python(houses)
    return houses


def level_captures_python(
    n: int, start: int, count: int, values: np.ndarray, offsets: np.ndarray
) -> tuple[list[int], list[int], list[int], list[int]]:
    """Twin of :func:`level_captures_kernel`, with the readable rules: (fixed, free, lo, hi)."""
    from gamelab.oware.rules import ABAPA, apply_move, legal_offsets

    fixed, free, lo, hi = [], [], [], []
    houses = _board_of_rank(n, start)
    for i in range(count):
        if i > 0:
            next_board_python(houses)
        moves = legal_offsets(tuple(houses), 0)
        best, mask = NO_FIXED, 0
        if not moves:
            best = 2 * sum(houses[:6]) - n
        for o in moves:
            child = list(houses)
            captured = apply_move(child, [0, 0], 0, o, ABAPA)
            if captured:
                rank = rank_board_python(child, 1)
                best = max(best, captured - int(values[offsets[n - captured] + rank]))
            else:
                mask |= 1 << o
        fixed.append(best)
        free.append(mask)
        lo.append(best if mask == 0 else max(best, -n))
        hi.append(best if mask == 0 else n)
    return fixed, free, lo, hi


def level_sweep_python(
    n: int,
    start: int,
    count: int,
    fixed: list[int],
    free: list[int],
    lo: list[int],
    hi: list[int],
) -> tuple[int, int]:
    """Twin of :func:`level_sweep_kernel` on lists (lo and hi of the whole level, in place)."""
    from gamelab.oware.rules import ABAPA, apply_move

    changed = still_open = 0
    houses = _board_of_rank(n, start)
    for i in range(count):
        if i > 0:
            next_board_python(houses)
        p = start + i
        if lo[p] == hi[p]:
            continue
        best_lo = best_hi = fixed[i]
        for o in range(6):
            if free[i] >> o & 1:
                child = list(houses)
                apply_move(child, [0, 0], 0, o, ABAPA)
                q = rank_board_python(child, 1)
                best_lo = max(best_lo, -hi[q])
                best_hi = max(best_hi, -lo[q])
        if best_lo > lo[p]:
            lo[p] = best_lo
            changed += 1
        if best_hi < hi[p]:
            hi[p] = best_hi
            changed += 1
        still_open += lo[p] != hi[p]
    return changed, still_open
