"""Sets of live boards on multi-word bit masks: the helpers of :func:`._wide_kernels.wide_solve`.

A set of up to :data:`._wide_kernels.WIDE_MAX` boards is ``nw`` int64 words (bit ``i`` of word
``j``: board ``64 j + i`` in the wide search's order). These kernels take a set's mass and size,
its inseparable-boards ceiling, its memo slot and its stored best tile, and renumber a small
child into one word for :mod:`._small_kernels`. Compared with the plain-Python twin through
``wide_solve`` (``tests/voltorb/test_voltorb_wide.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.voltorb._small_kernels import ctpop, low_index
from gamelab.voltorb._table_kernels import spread
from gamelab.voltorb.rules import TILES

_HASH = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit word


@njit(cache=True)
def wide_mass(w, m, nw):
    """Prior mass of the boards of the nw-word set `m`."""
    s = 0.0
    for j in range(nw):
        x = m[j]
        while x:
            low = x & -x
            s += w[j * 64 + low_index(low)]
            x ^= low
    return s


@njit(cache=True)
def wide_class_mass(w, m, nw, cls_w, cls_m, ncls):
    """Prior mass of the boards of `m` by popcounts per weight class (see _small_kernels._pmass);
    ncls = 0: one add per board."""
    if ncls == 0:
        return wide_mass(w, m, nw)
    s = 0.0
    for c in range(ncls):
        n = 0
        for j in range(nw):
            n += ctpop(m[j] & cls_m[c, j])
        s += cls_w[c] * n
    return s


@njit(cache=True)
def wide_popcount(m, nw):
    """The number of boards in `m`."""
    c = 0
    for j in range(nw):
        c += ctpop(m[j])
    return c


@njit(cache=True)
def compact_child(boards, loc, w, insep, child, nw, cpos, s_w, s_masks, s_mult, s_insep):
    """Renumber the boards of the nw-word set `child` (at most SMALL_MAX) as bits 0 .. c - 1 of
    one word, in the same (heaviest-first) order, for small_search; returns c. `cpos` is
    nw * 64 scratch, -1 everywhere (left so)."""
    c = 0
    for j in range(nw):
        m = child[j]
        while m:
            low = m & -m
            p = j * 64 + low_index(low)
            cpos[p] = c
            s_w[c] = w[p]
            c += 1
            m ^= low
    for t in range(TILES):
        for x in range(4):
            s_masks[t, x] = 0
    i = 0
    for j in range(nw):
        m = child[j]
        while m:
            low = m & -m
            p = j * 64 + low_index(low)
            bit = np.int64(1) << i
            mb = np.int64(0)
            for t in range(TILES):
                x = boards[loc[p], t]
                s_masks[t, x] |= bit
                if x >= 2:
                    mb |= np.int64(1) << t
            s_mult[i] = mb
            ins = np.int64(0)
            for q in range(nw):
                r = insep[p, q] & child[q]
                while r:
                    lb = r & -r
                    ins |= np.int64(1) << cpos[q * 64 + low_index(lb)]
                    r ^= lb
            s_insep[i] = ins
            i += 1
            m ^= low
    for j in range(nw):
        m = child[j]
        while m:
            low = m & -m
            cpos[j * 64 + low_index(low)] = -1
            m ^= low
    return c


@njit(cache=True)
def wide_count(m, nw, most):
    """The number of boards in `m`, counted up to `most`."""
    c = 0
    for j in range(nw):
        x = m[j]
        while x:
            x &= x - 1
            c += 1
            if c >= most:
                return c
    return c


@njit(cache=True)
def wide_cover(w, insep, live, nw, rem, common):
    """The inseparable-boards ceiling of `live` (the greedy cover of pair_bound, heaviest
    first); `rem` and `common` are nw-word scratch."""
    for j in range(nw):
        rem[j] = live[j]
    ceil = 0.0
    j = 0
    while j < nw:
        if rem[j] == 0:
            j += 1
            continue
        low = rem[j] & -rem[j]
        a = j * 64 + low_index(low)
        ceil += w[a]
        rem[j] ^= low
        for q in range(nw):
            common[q] = rem[q] & insep[a, q]
        q = 0
        while q < nw:
            if common[q] == 0:
                q += 1
                continue
            lb = common[q] & -common[q]
            b = q * 64 + low_index(lb)
            rem[q] ^= lb
            for r in range(nw):
                common[r] &= insep[b, r]
    return ceil


@njit(cache=True)
def wide_hash(keys, row, m, nw, cap):
    """Slot of set `m` in the memo (keys (cap, nw), row[i] true when slot i is used)."""
    h = np.int64(0)
    for j in range(nw):
        h = (h ^ m[j]) * _HASH
    i = spread(h) & (cap - 1)
    while row[i]:
        same = True
        for j in range(nw):
            if keys[i, j] != m[j]:
                same = False
                break
        if same:
            return i
        i = (i + 1) & (cap - 1)
    return i


@njit(cache=True)
def wide_state_tile(masks, mult, lset, nw, code, tile, play):
    """The best tile to store for state `code` whose boards are `lset` (see small_solve's
    _state_tile): a safe useful tile on the boards not yet won if there is one, else `tile`."""
    hidden = np.int64(0)
    for t in range(TILES):
        if ((code >> (2 * t)) & 3) == 0:
            hidden |= np.int64(1) << t
    for j in range(nw):
        play[j] = 0
        m = lset[j]
        while m:
            low = m & -m
            if (mult[j * 64 + low_index(low)] & hidden) != 0:
                play[j] |= low
            m ^= low
    for t in range(TILES):
        if not (hidden >> t) & 1:
            continue
        safe = True
        useful = False
        for j in range(nw):
            if (masks[t, 0, j] & play[j]) != 0:
                safe = False
                break
            if ((masks[t, 2, j] | masks[t, 3, j]) & play[j]) != 0:
                useful = True
        if safe and useful:
            return t
    return tile
