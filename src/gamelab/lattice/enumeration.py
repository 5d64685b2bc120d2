"""Enumerate once, score any sequence in microseconds: exact score histograms of HP sequences.

The seed paper's fitness re-enumerates all 802,075 symmetry-distinct conformations of a 16-mer
for every sequence it scores (a C program per sequence, ~7.8 s per GA generation). The HH score
of a conformation depends only on its *contact set* and on which residues are H, and a
16-mer's 802,075 walks have only 31,940 distinct contact sets (research notes, section 3). So we

1. walk all symmetry-distinct conformations of length L once (:mod:`._kernels`, numba) and keep
   each distinct contact set as a bitmask with its multiplicity and one representative walk
   (the idea of harmslab/latticeproteins' ``Conformations``), cached on disk by core.cache;
2. score a sequence by popcount(set & HH pairs) per set: the exact histogram of the number of
   conformations per score, summing to the number of conformations.

Cost: enumeration ~ number of walks (A046171(L-1) in 2D; ~0.1 s at L=16), memory ~ number of
distinct sets; one histogram ~ number of sets (tens of microseconds at L=16).

>>> sets = contact_sets(8)
>>> sets.conformations, sets.size
(272, 41)
>>> sets.histogram("HPHPPHPH").tolist()
[210, 51, 9, 2]
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from gamelab.core.cache import cached_arrays
from gamelab.core.threads import run_pieces, thread_count
from gamelab.lattice import _kernels
from gamelab.lattice.rules import Chain, Fold, Lattice, at_least, dimensions

#: Bump when the layout or meaning of the cached tables changes.
CACHE_VERSION = 1
#: Largest chain lengths we agree to enumerate (time and memory on a laptop).
MAX_LENGTH = {"square": 22, "cubic": 14}
#: Batches with more (sequence, contact set) pairs than this are scored on all cores (pieces of
#: the batch on threads: the kernel releases the GIL).
PARALLEL_THRESHOLD = 20_000_000
#: Pieces per thread of such a batch (the threads take the next piece as they finish one).
PIECES_PER_THREAD = 4


def check_length(length: int, lattice: Lattice) -> int:
    if not 2 <= length <= MAX_LENGTH[lattice]:
        raise ValueError(
            f"chain length {length} cannot be enumerated on the {lattice} lattice; "
            f"allowed: 2..{MAX_LENGTH[lattice]}"
        )
    return length


@dataclass(frozen=True, eq=False)
class ContactSets:
    """The distinct contact sets of all symmetry-distinct conformations of one chain length."""

    length: int
    lattice: Lattice
    keys: np.ndarray  # (sets, words) uint64 bitmasks over pair_table(length)
    counts: np.ndarray  # walks per set
    reps: np.ndarray  # one walk per set, encoded (see _kernels.decode_walk)
    seconds: float = 0.0  # enumeration time when computed (0 when loaded from the cache)
    from_cache: bool = False
    _pairs: tuple = field(default=(), repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_pairs", _kernels.pair_table(self.length))

    @property
    def conformations(self) -> int:
        """Number of symmetry-distinct conformations (A046171(L-1) on the square lattice)."""
        return int(self.counts.sum())

    @property
    def size(self) -> int:
        """Number of distinct contact sets."""
        return int(self.counts.shape[0])

    @property
    def words(self) -> int:
        return int(self.keys.shape[1])

    @functools.cached_property
    def max_contacts(self) -> int:
        """The most contacts any conformation has (bound on any sequence's best score)."""
        if self.size == 0:
            return 0
        everything = np.full(self.words, np.iinfo(np.uint64).max, dtype=np.uint64)
        hist = _kernels.histogram_kernel(self.keys, self.counts, everything, 64 * self.words + 1)
        return int(np.nonzero(hist)[0].max())

    def pairs(self) -> list[tuple[int, int]]:
        pi, pj, _ = self._pairs
        return list(zip(pi.tolist(), pj.tolist(), strict=True))

    def hh_mask(self, sequence: Chain) -> np.ndarray:
        """Bitmask of the possible contact pairs whose residues are both H."""
        seq = self._check(sequence)
        code = np.array([sum(1 << i for i, c in enumerate(seq) if c == "H")], dtype=np.int64)
        pi, pj, _ = self._pairs
        return _kernels.hh_rows_from_codes(code, pi, pj, self.words)[0]

    def _check(self, sequence: str) -> str:
        seq = sequence
        if len(seq) != self.length:
            raise ValueError(
                f"sequence {seq} has length {len(seq)}; these contact sets are for length {self.length}"
            )
        return seq

    def histogram(self, sequence: Chain) -> np.ndarray:
        """Conformations per score 0..best (exact; sums to :attr:`conformations`)."""
        hist = _kernels.histogram_kernel(
            self.keys, self.counts, self.hh_mask(sequence), self.max_contacts + 1
        )
        return np.trim_zeros(hist, "b") if hist.any() else hist[:1]

    def histograms_for_codes(self, codes: np.ndarray) -> np.ndarray:
        """Histograms (rows, width max_contacts + 1) of sequences given as H-bit integers."""
        pi, pj, _ = self._pairs
        rows = _kernels.hh_rows_from_codes(np.asarray(codes, dtype=np.int64), pi, pj, self.words)
        kernel, nbins = _kernels.histograms_kernel, self.max_contacts + 1
        threads = thread_count()
        if threads == 1 or rows.shape[0] * self.size <= PARALLEL_THRESHOLD:
            return kernel(self.keys, self.counts, rows, nbins)
        pieces = np.array_split(rows, min(rows.shape[0], threads * PIECES_PER_THREAD))
        parts = run_pieces(kernel, [(self.keys, self.counts, p, nbins) for p in pieces], threads)
        return np.concatenate(parts)

    def histograms(self, sequences: Sequence[str]) -> np.ndarray:
        """Histograms of many sequences (rows, width max_contacts + 1): chains, or H/P strings
        the library made itself (the GA's)."""
        codes = [sum(1 << i for i, c in enumerate(self._check(s)) if c == "H") for s in sequences]
        return self.histograms_for_codes(np.array(codes, dtype=np.int64))

    def best_conformation(self, sequence: Chain) -> str:
        """A conformation (move string) reaching the sequence's best score."""
        row = _kernels.best_set_kernel(self.keys, self.hh_mask(sequence))
        return _kernels.decode_walk(int(self.reps[row]), self.length, dimensions(self.lattice))

    def conformation(self, row: int) -> str:
        return _kernels.decode_walk(int(self.reps[row]), self.length, dimensions(self.lattice))


def _compute(length: int, lattice: Lattice) -> dict[str, np.ndarray]:
    ndim = dimensions(lattice)
    words = _kernels.words_for(length)
    if length == 2:
        return {
            "keys": np.zeros((1, words), dtype=np.uint64),
            "counts": np.ones(1, dtype=np.int64),
            "reps": np.zeros(1, dtype=np.int64),
        }
    _, _, index = _kernels.pair_table(length)
    keys, counts, reps, total = _kernels.enumerate_kernel(length, ndim, words, index, 1 << 12)
    order = np.lexsort(keys.T[::-1])  # a canonical order, independent of hash-table layout
    assert counts.sum() == total
    return {"keys": keys[order], "counts": counts[order], "reps": reps[order]}


def warm_up(lattice: Lattice = Lattice.SQUARE) -> None:
    """Load (or compile) the numba kernels, so a timing measures the work, not the JIT: the
    enumeration's and the histograms' (:func:`warm_enumeration`, :func:`warm_histograms`)."""
    warm_enumeration(lattice)
    warm_histograms()


def warm_enumeration(lattice: Lattice = Lattice.SQUARE) -> None:
    """Load (or compile) the enumeration's kernels alone."""
    _compute(3, lattice)


def warm_histograms() -> None:
    """Load (or compile) the histogram kernels alone: no enumeration."""
    warm_serial_histograms()


def _made_up_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(keys, counts, hh rows): a table of one contact set and four sequences, to call the
    histogram kernels with the argument types of real tables."""
    pi, pj, _ = _kernels.pair_table(4)
    rows = _kernels.hh_rows_from_codes(np.arange(4, dtype=np.int64), pi, pj, 1)
    return np.ones((1, 1), dtype=np.uint64), np.ones(1, dtype=np.int64), rows


def warm_serial_histograms() -> None:
    """Load (or compile) the kernels of many sequences' histograms (a GA's generation, a
    landscape)."""
    _kernels.histograms_kernel(*_made_up_table(), 2)


@functools.lru_cache(maxsize=8)
def contact_sets(
    length: int, lattice: Lattice = Lattice.SQUARE, *, use_cache: bool = True
) -> ContactSets:
    """All distinct contact sets for chains of `length` on `lattice` (from the disk cache when
    present; computed and stored otherwise)."""
    check_length(length, lattice)
    started = time.perf_counter()
    computed = False

    def compute() -> dict[str, np.ndarray]:
        nonlocal computed
        computed = True
        return _compute(length, lattice)

    if use_cache:
        arrays = cached_arrays(
            "lattice-contact-sets", {"length": length, "lattice": lattice}, CACHE_VERSION, compute
        )
    else:
        arrays = compute()
    seconds = time.perf_counter() - started
    return ContactSets(
        length=length,
        lattice=lattice,
        keys=arrays["keys"],
        counts=arrays["counts"],
        reps=arrays["reps"],
        seconds=seconds,
        from_cache=not computed,
    )


@dataclass(frozen=True)
class EnumerationSummary:
    """What one enumeration found and cost (`gamelab lattice enumerate`)."""

    length: int
    lattice: Lattice
    conformations: int
    contact_sets: int
    max_contacts: int
    seconds: float
    from_cache: bool


def enumerate_timed(
    length: int, lattice: Lattice = Lattice.SQUARE, use_cache: bool = True
) -> EnumerationSummary:
    """Enumerate (or load) the contact sets of `length`, timing the work without the JIT."""
    check_length(length, lattice)
    warm_enumeration(lattice)  # (only the enumeration is timed: no histogram kernel needed)
    contact_sets.cache_clear()
    started = time.perf_counter()
    sets = contact_sets(length, lattice, use_cache=use_cache)
    return EnumerationSummary(
        length,
        lattice,
        sets.conformations,
        sets.size,
        sets.max_contacts,
        time.perf_counter() - started,
        sets.from_cache,
    )


def resolve_fold(
    sequence: Chain, conformation: str | None = None, lattice: Lattice = Lattice.SQUARE
) -> Fold:
    """The fold of `sequence` along `conformation`, or along a best one when none is given
    (enumerated, so only for chains up to :data:`MAX_LENGTH`)."""
    seq = at_least(sequence, 2)
    if conformation is None:
        if len(seq) > MAX_LENGTH[lattice]:
            raise ValueError(
                f"no conformation given and L={len(seq)} is too long to enumerate; pass "
                "--conformation (or find one with `gamelab lattice fold`)"
            )
        conformation = contact_sets(len(seq), lattice).best_conformation(seq)
    return Fold(seq, conformation, lattice)


def histogram(sequence: Chain, lattice: Lattice = Lattice.SQUARE) -> np.ndarray:
    """Exact number of symmetry-distinct conformations per HH score of `sequence`."""
    seq = at_least(sequence, 2)
    return contact_sets(len(seq), lattice).histogram(seq)
