"""numba kernels of the Oware moves: sowing, captures, legal moves, the end by score, perft.

A board is an int64 array of 14 cells: houses 0-11 (0-5 the first player's row, sowing toward
higher indices) then the two stores. The plain-Python twins are the move generator of
:mod:`gamelab.oware.rules` (and its ``perft``); the tests compare them on random positions.

Grand-slam codes: 0 = legal but captures nothing (Abapa), 1 = forbidden unless every move is
one (Awari; then it captures), 2 = captures everything.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GS_NO_CAPTURE = 0
GS_FORBIDDEN = 1
GS_CAPTURE_ALL = 2


# --------------------------------------------------------------------------- moves


@njit(cache=True, inline="always")  # measured: as a call, perft and the search ran 8 % slower
def _sow(b, start):
    """Sow the seeds of house `start` on `b` in place (skipping it); return the last house."""
    seeds = b[start]
    b[start] = 0
    i = start
    while seeds > 0:
        i += 1
        if i == 12:
            i = 0
        if i == start:
            continue
        b[i] += 1
        seeds -= 1
    return i


@njit(cache=True, inline="always")
def _capture_run(b, i, lo):
    """(seeds in the run of 2s and 3s ending at house i within the row from `lo`, the house
    before the run)."""
    captured = 0
    j = i
    while j >= lo and (b[j] == 2 or b[j] == 3):
        captured += b[j]
        j -= 1
    return captured, j


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def sow_and_capture(b, side, offset, gs):
    """Play `offset` for `side` on `b` in place; return the seeds captured (already stored)."""
    i = _sow(b, 6 * side + offset)
    lo = 6 * (1 - side)
    if i < lo or i >= lo + 6:
        return 0
    captured, j = _capture_run(b, i, lo)
    if captured == 0:
        return 0
    opp_total = 0
    for k in range(lo, lo + 6):
        opp_total += b[k]
    if captured == opp_total and gs == GS_NO_CAPTURE:
        return 0
    for k in range(j + 1, i + 1):
        b[k] = 0
    b[12 + side] += captured
    return captured


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _is_grand_slam(b, side, offset):
    """Whether `side` playing `offset` would capture every seed of the opponent's row. `b` is
    read, not sown: a house `d` steps past the start (1-11, the start skipped) receives
    ``seeds // 11`` seeds, one more when ``d <= seeds % 11`` (no copy of the board to allocate)."""
    start = 6 * side + offset
    seeds = b[start]
    laps = seeds // 11
    extra = seeds % 11
    last = (start + (extra if extra > 0 else 11)) % 12
    lo = 6 * (1 - side)
    if last < lo or last >= lo + 6:
        return False
    captured = 0
    j = last
    while j >= lo:
        x = b[j] + laps + (1 if (j - start) % 12 <= extra else 0)
        if x != 2 and x != 3:
            break
        captured += x
        j -= 1
    if captured == 0:
        return False
    total = 0
    for k in range(lo, lo + 6):
        total += b[k] + laps + (1 if (k - start) % 12 <= extra else 0)
    return captured == total


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def legal_mask(b, side, gs):
    """Bit `o` set when offset `o` is legal for `side` (0 when the side cannot move)."""
    lo = 6 * side
    opp = 6 * (1 - side)
    opp_total = 0
    for k in range(opp, opp + 6):
        opp_total += b[k]
    mask = 0
    for o in range(6):
        n = b[lo + o]
        if n == 0:
            continue
        if opp_total == 0 and n <= 5 - o:
            continue
        mask |= 1 << o
    if gs == GS_FORBIDDEN and mask != 0:
        keep = 0
        for o in range(6):
            if (mask >> o) & 1 and not _is_grand_slam(b, side, o):
                keep |= 1 << o
        if keep != 0:
            mask = keep
    return mask


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def game_over_by_score(b):
    return b[12] > 24 or b[13] > 24 or (b[12] == 24 and b[13] == 24)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def final_difference(b, side):
    """Seed difference for `side` when the game ends here and each side takes its own row."""
    own = 0
    other = 0
    for k in range(6):
        own += b[6 * side + k]
        other += b[6 * (1 - side) + k]
    return (b[12 + side] + own) - (b[13 - side] + other)


@njit(cache=True, inline="always")
def copy_board(dst, src):
    """``dst[:] = src``, element by element: numba compiles a slice assignment's shape check
    and its error message (about 2.5 of the search's 7.6 CPU-s of compiling, which a cold
    ``gamelab serve`` waits for); a loop has none."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


# --------------------------------------------------------------------------- perft


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _same_houses(a, c):
    for k in range(12):
        if a[k] != c[k]:
            return False
    return True


@njit(cache=True, nogil=True)
def perft_kernel(board, side, depth, gs):
    """Move sequences of length `depth` (games that end earlier are not counted).

    Iterative depth-first walk (numba cannot cache recursive functions). A board repeating one
    with the same side to move since the last capture ends the game (first-repetition rule).
    Its stack is allocated here, as the search's (scratch passed in ran slower: see
    :func:`gamelab.oware._search_kernels.search_root`). Runs without the GIL, so a Ctrl-C can
    stop it (:func:`gamelab.core.stoppable.run_stoppable`)."""
    if depth == 0:
        return 1
    if game_over_by_score(board):
        return 0
    stack = np.zeros((depth + 2, 14), dtype=np.int64)
    next_move = np.zeros(depth + 2, dtype=np.int64)
    masks = np.zeros(depth + 2, dtype=np.int64)
    hstart = np.zeros(depth + 2, dtype=np.int64)
    copy_board(stack[0], board)
    masks[0] = legal_mask(board, side, gs)
    total = 0
    ply = 0
    while ply >= 0:
        o = next_move[ply]
        while o < 6 and not (masks[ply] >> o) & 1:
            o += 1
        if o == 6:
            ply -= 1
            continue
        next_move[ply] = o + 1
        mover = side ^ (ply & 1)
        c = stack[ply + 1]
        copy_board(c, stack[ply])
        captured = sow_and_capture(c, mover, o, gs)
        if ply + 1 == depth:
            total += 1
            continue
        hs = ply + 1
        if captured == 0:
            hs = hstart[ply]
            k = ply - 1
            repeated = False
            while k >= hs:
                if _same_houses(stack[k], c):
                    repeated = True
                    break
                k -= 2
            if repeated:
                continue
        if game_over_by_score(c):
            continue
        m = legal_mask(c, 1 - mover, gs)
        if m == 0:
            continue
        ply += 1
        masks[ply] = m
        next_move[ply] = 0
        hstart[ply] = hs
    return total


# --------------------------------------------------------------------------- Python entries
# The kernels above call sow_and_capture and legal_mask, which have no Python entry (numba
# builds none, which saves a cold command's compiling); Python (the tests comparing them with
# the rules) calls these.


@njit(cache=True)
def sow_and_capture_kernel(b, side, offset, gs):
    """:func:`sow_and_capture` called from Python."""
    return sow_and_capture(b, side, offset, gs)


@njit(cache=True)
def legal_mask_kernel(b, side, gs):
    """:func:`legal_mask` called from Python."""
    return legal_mask(b, side, gs)
