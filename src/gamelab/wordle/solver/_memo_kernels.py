"""The search's memo: an open-addressing hash table of proven node values, as numba kernels.

The table is five parallel arrays (``mk1``, ``mk2``: the two 64-bit words of a key; ``mflag``:
EMPTY, EXACT or LOWER; ``mval``: the exact value or the proven lower bound; ``mguess``: the best
guess of an exact entry, for the tree), with a power-of-two capacity and linear probing. Keys
are canonical: a node's key is computed from two independent 64-bit sums of random words per
candidate (and per allowed word, in hard mode) and its depth (:func:`memo_key`), so the same
subproblem reached by different histories is found again, and a wrong hit needs a 128-bit
collision. :func:`memo_record` writes an entry; the caller (:func:`gamelab.wordle.solver._search_kernels.search_kernel`)
keeps the table under 70 % full and asks Python to grow it (:func:`memo_rehash`) otherwise.

Plain-Python twins: :func:`memo_key_python`, :func:`memo_find_python`, :func:`memo_rehash_python`
(``tests/test_kernel_twins.py``); :func:`memo_record` is compared through the search kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

INF = 1 << 30  # the value of an infeasible node (no strategy within the guess limit)
UNLIMITED = 1 << 20  # depth value meaning "no guess limit" (never decremented)
EMPTY, EXACT, LOWER = 0, 1, 2


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _mix(x):
    """splitmix64's finaliser: a well-mixed 64-bit word."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def memo_key(h1, h2, p1, p2, depth):
    """The two 64-bit words of a node's key: its candidate-set and pool hashes and its depth."""
    d = np.uint64(depth)
    k1 = _mix(h1 + _mix(p1 + d * np.uint64(0x9E3779B97F4A7C15)))
    k2 = _mix(h2 ^ _mix(p2 + d * np.uint64(0xD6E8FEB86659FD93) + np.uint64(1)))
    return k1, k2


@njit(cache=True)
def memo_find(mk1, mk2, mflag, k1, k2):
    """Slot of key (k1, k2), or the empty slot where it would go."""
    mask = mk1.shape[0] - 1
    i = np.int64(k1 & np.uint64(mask))
    while mflag[i] != EMPTY and not (mk1[i] == k1 and mk2[i] == k2):
        i = (i + 1) & mask
    return i


@njit(cache=True)
def memo_rehash(mk1, mk2, mflag, mval, mguess, nk1, nk2, nflag, nval, nguess):
    """Copy every entry into the (larger, empty) new table."""
    for i in range(mk1.shape[0]):
        if mflag[i] != EMPTY:
            j = memo_find(nk1, nk2, nflag, mk1[i], mk2[i])
            nk1[j] = mk1[i]
            nk2[j] = mk2[i]
            nflag[j] = mflag[i]
            nval[j] = mval[i]
            nguess[j] = mguess[i]


@njit(cache=True)
def memo_record(mk1, mk2, mflag, mval, mguess, slot, k1, k2, exact, value, guess):
    """Record at `slot` (found by :func:`memo_find` for the key) an exact value with its best
    guess, or a lower bound (kept only if it raises a known bound; an exact entry stays).
    Returns 1 if the slot was empty (a new entry), else 0."""
    added = 0
    if mflag[slot] == EMPTY:
        added = 1
        mk1[slot] = k1
        mk2[slot] = k2
        mval[slot] = 0
    if exact:
        mflag[slot] = EXACT
        mval[slot] = value
        mguess[slot] = guess
    elif mflag[slot] != EXACT:
        mval[slot] = max(mval[slot], value) if mflag[slot] == LOWER else value
        mflag[slot] = LOWER
    return added


MASK64 = (1 << 64) - 1


def _mix_python(x: int) -> int:
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def memo_key_python(h1: int, h2: int, p1: int, p2: int, depth: int) -> tuple[int, int]:
    """Twin of :func:`memo_key` in Python integers (arithmetic modulo 2^64)."""
    k1 = _mix_python((h1 + _mix_python((p1 + depth * 0x9E3779B97F4A7C15) & MASK64)) & MASK64)
    k2 = _mix_python(h2 ^ _mix_python((p2 + depth * 0xD6E8FEB86659FD93 + 1) & MASK64))
    return k1, k2


def memo_find_python(mk1, mk2, mflag, k1: int, k2: int) -> int:
    """Twin of :func:`memo_find`: linear probing from the key's home slot."""
    mask = len(mk1) - 1
    i = k1 & mask
    while mflag[i] != EMPTY and not (int(mk1[i]) == k1 and int(mk2[i]) == k2):
        i = (i + 1) & mask
    return i


def memo_rehash_python(mk1, mk2, mflag, mval, mguess, nk1, nk2, nflag, nval, nguess) -> None:
    """Twin of :func:`memo_rehash`."""
    for i in range(len(mk1)):
        if mflag[i] != EMPTY:
            j = memo_find_python(nk1, nk2, nflag, int(mk1[i]), int(mk2[i]))
            nk1[j], nk2[j], nflag[j], nval[j], nguess[j] = (
                mk1[i],
                mk2[i],
                mflag[i],
                mval[i],
                mguess[i],
            )
