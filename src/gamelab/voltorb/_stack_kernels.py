"""The parts that Voltorb's explicit-stack round searches share (:func:`._coin_kernels.coin_search`,
:func:`._objective_kernels.objective_search`): their frames, the pool of live boards the frames
slice, the node budget and the memo's store.

A frame is one revealed state; its live boards are ``pool[start : start + k]``, and a child's are
appended at the pool's top, so a frame's boards stay put while its children are searched. These
are helpers of the two kernels (compared with their twins through them), not kernels of their
own, and inlined: as calls they made the searches 8-19 % slower
(``benchmarks/kernels_before_after.py --only voltorb``). Opening a child stays written out in
each kernel: as an inlined helper it still cost 5-10 %.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.voltorb.rules import TILES

#: Frames of a search: one per revealed tile, and the root.
DEPTH = TILES + 2


@njit(cache=True, inline="always")
def new_frames(idx, code, nrev_mult):
    """The arrays every frame of both searches has, DEPTH rows each: its live boards (start, k),
    revealed code, multipliers revealed, memo key, tolerance, tiles to try in order (and how many),
    best value and tile so far, position in the order, the value of the tile being tried and the
    sum over its values so far; then the pool of live boards (:func:`new_pool`). The root frame
    (row 0) holds the boards `idx` at the revealed state `code` with `nrev_mult` multipliers
    shown."""
    f_start = np.zeros(DEPTH, np.int64)
    f_k = np.zeros(DEPTH, np.int64)
    f_code = np.zeros(DEPTH, np.int64)
    f_nrev = np.zeros(DEPTH, np.int64)
    f_key = np.zeros(DEPTH, np.int64)
    f_eps = np.zeros(DEPTH)
    f_order = np.zeros((DEPTH, TILES), np.int64)
    f_norder = np.zeros(DEPTH, np.int64)
    f_best = np.zeros(DEPTH)
    f_best_tile = np.zeros(DEPTH, np.int64)
    f_oi = np.zeros(DEPTH, np.int64)
    f_v = np.zeros(DEPTH, np.int64)
    f_acc = np.zeros(DEPTH)
    f_k[0] = idx.size
    f_code[0] = code
    f_nrev[0] = nrev_mult
    return (f_start, f_k, f_code, f_nrev, f_key, f_eps, f_order, f_norder, f_best, f_best_tile,
            f_oi, f_v, f_acc, new_pool(idx))  # fmt: skip


@njit(cache=True, inline="always")
def new_pool(idx):
    """The pool of live boards, the root's `idx` first (room for four times as many)."""
    pool = np.empty(max(64, 4 * idx.size), np.int64)
    for i in range(idx.size):  # no slice assignments in a kernel (DEVELOPERS.md)
        pool[i] = idx[i]
    return pool


@njit(cache=True, inline="always")
def over_budget(counter):
    """Count one more state searched (``counter[0]``); past the limit ``counter[1]``, mark the
    search stopped (``counter[2] = 1``) and say so."""
    counter[0] += 1
    if counter[0] > counter[1]:
        counter[2] = 1
        return True
    return False


@njit(cache=True, inline="always")
def live_mass(weights, pool, start, k):
    """The summed weight of the frame's live boards ``pool[start : start + k]``."""
    total = 0.0
    for i in range(start, start + k):
        total += weights[pool[i]]
    return total


@njit(cache=True, inline="always")
def flagged_tiles(flags, tiles):
    """How many tiles `flags` marks; they go, in order, to ``tiles[:count]``."""
    count = 0
    for t in range(TILES):
        if flags[t]:
            tiles[count] = t
            count += 1
    return count


@njit(cache=True, inline="always")
def store(memo_val, memo_tile, key, value, tile):
    """Memoise the finished state `key` (its value and best tile); returns the value."""
    memo_val[key] = value
    memo_tile[key] = tile
    return value
