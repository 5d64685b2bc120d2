"""Enumeration and exhaustive landscapes of short chains in plain Python and numpy: no numba
kernel, so nothing compiles (the quick report's, issue 23).

The same two steps as :mod:`gamelab.lattice.enumeration`: every symmetry-distinct walk once
(:func:`gamelab.lattice._kernels.enumerate_python`, the kernel's plain-Python twin: 0.06 s at
L = 12, 0.2 s at L = 13), kept as distinct contact sets with their multiplicities; then every
sequence's score histogram at once, as a matrix product: HH pairs of each sequence (2^L x
pairs) times contact sets (pairs x sets) gives each sequence's score on each set, and the
histogram sums the multiplicities per score. At L = 12 that is 4,096 x 1,113 scores (a few
milliseconds); the kernels' way wins from about L = 15 on, once compiled.

The tables equal the kernels' (:func:`gamelab.lattice.enumeration.contact_sets`,
:func:`gamelab.lattice.landscape.landscape_histograms`; ``tests/lattice/
test_lattice_array_landscape.py``).

>>> enumerate_by_arrays(8).conformations, enumerate_by_arrays(8).contact_sets
(272, 41)
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from gamelab.lattice._kernels import enumerate_python
from gamelab.lattice.enumeration import EnumerationSummary, check_length
from gamelab.lattice.rules import Lattice, dimensions

#: the longest chains enumerated here (L = 14 takes about half a second in Python)
MAX_LENGTH = {"square": 14, "cubic": 10}


@dataclass(frozen=True)
class ContactMatrix:
    """The distinct contact sets of every walk of one length, as a 0/1 matrix over the pairs
    (i, j) of residues that some walk brings into contact."""

    length: int
    lattice: Lattice
    pairs: np.ndarray  # [pairs, 2] residue indices i < j - 1
    sets: np.ndarray  # [sets, pairs] 1 where the set has that contact
    counts: np.ndarray  # [sets] walks with that contact set
    seconds: float

    @property
    def conformations(self) -> int:
        return int(self.counts.sum())

    @property
    def max_contacts(self) -> int:
        return int(self.sets.sum(axis=1).max()) if len(self.sets) else 0


def _check(length: int, lattice: Lattice) -> None:
    check_length(length, lattice)
    if length > MAX_LENGTH[lattice]:
        raise ValueError(
            f"the plain-Python enumeration takes {lattice} chains of at most "
            f"{MAX_LENGTH[lattice]} residues, got {length} (use gamelab.lattice.enumeration)"
        )


@functools.lru_cache(maxsize=16)
def contact_matrix(length: int, lattice: Lattice = Lattice.SQUARE) -> ContactMatrix:
    """Every walk of `length` on `lattice` enumerated in Python, as a :class:`ContactMatrix`."""
    _check(length, lattice)
    started = time.perf_counter()
    found, total = enumerate_python(length, dimensions(lattice))
    pairs = sorted({pair for contacts in found for pair in contacts})
    column = {pair: p for p, pair in enumerate(pairs)}
    sets = np.zeros((len(found), len(pairs)), dtype=np.int32)
    counts = np.zeros(len(found), dtype=np.int64)
    for s, (contacts, (count, _walk)) in enumerate(found.items()):
        sets[s, [column[pair] for pair in contacts]] = 1
        counts[s] = count
    assert counts.sum() == total
    return ContactMatrix(
        length=length,
        lattice=lattice,
        pairs=np.array(pairs, dtype=np.int64).reshape(-1, 2),
        sets=sets,
        counts=counts,
        seconds=time.perf_counter() - started,
    )


def enumerate_by_arrays(length: int, lattice: Lattice = Lattice.SQUARE) -> EnumerationSummary:
    """:func:`gamelab.lattice.enumeration.enumerate_timed`'s summary, from the Python walk."""
    matrix = contact_matrix(length, lattice)
    return EnumerationSummary(
        length,
        lattice,
        matrix.conformations,
        len(matrix.counts),
        matrix.max_contacts,
        matrix.seconds,
        False,
    )


def landscape_by_arrays(length: int, lattice: Lattice = Lattice.SQUARE) -> np.ndarray:
    """Score histograms of all 2^length sequences (row = sequence code, bit i = residue i is
    H), like :func:`gamelab.lattice.landscape.landscape_histograms`."""
    matrix = contact_matrix(length, lattice)
    codes = np.arange(1 << length, dtype=np.int64)
    h = ((codes[:, None] >> np.arange(length)) & 1).astype(np.float32)
    hh = h[:, matrix.pairs[:, 0]] * h[:, matrix.pairs[:, 1]] if len(matrix.pairs) else h[:, :0]
    scores = (hh @ matrix.sets.T.astype(np.float32)).astype(np.int64)  # small exact integers
    hists = np.zeros((len(codes), matrix.max_contacts + 1), dtype=np.int64)
    for s in range(matrix.max_contacts + 1):
        hists[:, s] = (scores == s).astype(np.int64) @ matrix.counts
    return hists
