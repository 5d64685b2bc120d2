"""The exact win search's memo: an open-addressing hash table in one float64 array.

Shared by :func:`gamelab.voltorb._search_kernels.win_search` and
:func:`gamelab.voltorb._small_kernels.small_solve` (states keyed by their revealed code), grown
from Python by :func:`table_rehash` when the search reports it 70 % full.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.voltorb.rules import TILES

#: the memo's starting capacity (rows); Python grows it 4x when the search reports it 70 % full
TABLE_START = 1 << 16
_HASH_MULT = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit word
_HASH_MULT2 = -4658895280553007687  # 0xBF58476D1CE4E5B9 (splitmix64's second multiplier)
_LOW32 = 0xFFFFFFFF


@njit(cache=True)
def spread(key):
    """A hash of an int64 `key` whose low bits depend on every bit of it (multiply, fold the
    high half into the low half, twice), so `spread(key) & (capacity - 1)` spreads keys that
    differ only in their high bits: a code's last row, a set's heaviest-numbered boards. (Bits
    20 and up of one product ignored a code's last tiles: the states differing there shared a
    slot, and a miss in the win search's memo probed about 20 rows on a hard opening.)"""
    h = key * _HASH_MULT
    h ^= (h >> 32) & _LOW32
    h *= _HASH_MULT2
    h ^= (h >> 32) & _LOW32
    return h


def spread_python(key: int) -> int:
    """Plain-Python twin of :func:`spread` (64-bit wrap-around arithmetic on Python ints)."""

    def wrap(x: int) -> int:
        return (x + 2**63) % 2**64 - 2**63

    h = wrap(key * _HASH_MULT)
    h ^= (h >> 32) & _LOW32
    h = wrap(h * _HASH_MULT2)
    h ^= (h >> 32) & _LOW32
    return h


@njit(cache=True)
def table_slot(table, code):
    """Row of state `code` in the memo `table`, or the empty row where it would go.

    The memo is an open-addressing hash table with linear probing: a (capacity, 3) float64 array,
    capacity a power of two, rows [code (exact as a float: codes are < 2**51), value,
    2 * (best tile + 1) + exact]; an empty row has code -1. One row is one cache line's half,
    so a look-up costs one memory access (numba's typed dicts cost three arrays and ~0.4 us)."""
    mask = table.shape[0] - 1
    i = spread(code) & mask
    key = float(code)
    while table[i, 0] != key and table[i, 0] >= 0.0:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def table_store(table, counter, code, value, exact, tile):
    """Write state `code` (value, exact flag, best tile); past 70 % full, ask Python to grow the
    table (counter[2] = counter[4] = 1: the search unwinds, keeps the memo, and is run again)."""
    i = table_slot(table, code)
    if table[i, 0] < 0.0:
        counter[3] += 1
        if counter[3] * 10 > table.shape[0] * 7:
            counter[2] = 1
            counter[4] = 1
    table[i, 0] = float(code)
    table[i, 1] = value
    table[i, 2] = 2.0 * (tile + 1) + (1.0 if exact else 0.0)


@njit(cache=True)
def table_rehash(table, bigger):
    """Copy every row of `table` into the empty `bigger` table."""
    for i in range(table.shape[0]):
        if table[i, 0] >= 0.0:
            j = table_slot(bigger, np.int64(table[i, 0]))
            bigger[j, 0] = table[i, 0]
            bigger[j, 1] = table[i, 1]
            bigger[j, 2] = table[i, 2]


def table_rehash_python(table: np.ndarray, bigger: np.ndarray) -> None:
    """Plain-Python twin of :func:`table_rehash` (its own probing, from the same hash)."""
    mask = bigger.shape[0] - 1
    for row in table:
        if row[0] < 0.0:
            continue
        code = int(row[0])
        i = spread_python(code) & mask
        while bigger[i, 0] >= 0.0 and bigger[i, 0] != row[0]:
            i = (i + 1) & mask
        bigger[i] = row


def table_new(capacity: int = TABLE_START) -> np.ndarray:
    """An empty memo of `capacity` rows (a power of two)."""
    table = np.zeros((capacity, 3))
    table[:, 0] = -1.0
    return table


def table_entry(table: np.ndarray, code: int) -> tuple[float, bool, int] | None:
    """(value, exact, best tile) of state `code`, or None (a plain-Python reader of the memo)."""
    row = table[table_slot(table, np.int64(code))]
    if row[0] != float(code):
        return None
    info = int(row[2])
    return float(row[1]), bool(info & 1), (info >> 1) - 1


@njit(cache=True)
def canonical_code(code, perms):
    """(the least image of the revealed `code` under the tile maps `perms`, the row of the map
    that gives it): `perms` is G x 25, row g sends tile t to perms[g, t], row 0 the identity."""
    best = code
    best_g = 0
    if perms.shape[0] <= 1:
        return best, best_g
    for g in range(1, perms.shape[0]):
        image = np.int64(0)
        rest = code
        t = 0
        while rest != 0:  # (hidden tiles cost a shift each)
            v = rest & 3
            if v != 0:
                image |= v << (2 * perms[g, t])
            rest >>= 2
            t += 1
        if image < best:
            best = image
            best_g = g
    return best, best_g


def canonical_code_python(code: int, perms: np.ndarray) -> tuple[int, int]:
    """Plain-Python twin of :func:`canonical_code`."""
    images = []
    for g, row in enumerate(perms.tolist()):
        image = sum(((code >> (2 * t)) & 3) << (2 * row[t]) for t in range(TILES))
        images.append((image, g))
    return min(images)


@njit(cache=True)
def memo_find(table, counter, code, perms):
    """Row of state `code` in the memo, as :func:`table_slot`, but when the state has no row of
    its own and its canonical image under the deal's symmetries (`perms`, see
    :func:`canonical_code`) has one, that row is copied to the state's own (values are equal
    under a symmetry; the best tile mapped back), so the state is found: a mirror image of a
    state searched before is not searched again."""
    slot = table_slot(table, code)
    if table[slot, 0] == code or perms.shape[0] <= 1:
        return slot
    canon, g = canonical_code(code, perms)
    if canon == code:
        return slot
    cs = table_slot(table, canon)
    if table[cs, 0] != canon:
        return slot
    info = np.int64(table[cs, 2])
    tile = (info >> 1) - 1
    if tile >= 0:
        for u in range(TILES):
            if perms[g, u] == tile:
                tile = u
                break
    table_store(table, counter, code, table[cs, 1], (info & 1) == 1, tile)
    return table_slot(table, code)


@njit(cache=True)
def memo_store(table, counter, code, value, exact, tile, perms):
    """:func:`table_store`, and the same value under the state's canonical image (its tile
    mapped) when that image differs, unless the image already holds an exact value or a tighter
    bound (see :func:`memo_find`)."""
    table_store(table, counter, code, value, exact, tile)
    if perms.shape[0] <= 1:
        return
    canon, g = canonical_code(code, perms)
    if canon == code:
        return
    cs = table_slot(table, canon)
    if table[cs, 0] == canon:
        if np.int64(table[cs, 2]) & 1:
            return
        if not exact and table[cs, 1] <= value:
            return
    table_store(table, counter, canon, value, exact, perms[g, tile] if tile >= 0 else -1)
