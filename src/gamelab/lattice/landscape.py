"""The exhaustive sequence landscape: the exact score histogram of all 2^L HP sequences.

With the contact sets of length L enumerated once (:mod:`.enumeration`), every sequence's
histogram is a popcount pass over the distinct sets, so all 65,536 sequences of length 16 take
about a second on 2 cores (31,940 sets each) and all 262,144 of length 18 under a minute. The
result (one row per sequence, sequence ``code`` bit i = residue i is H) is cached on disk.
Only one of each sequence / reversed-sequence pair is scored (their histograms are equal).

From it we read how each puzzle objective behaves over *all* puzzles of a length: its
distribution, its optimum, and whether it is just the best score in disguise (the paper's
``distinct-scores`` is, for every sequence with L <= 16).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gamelab.core.cache import cached_arrays
from gamelab.lattice.enumeration import contact_sets
from gamelab.lattice.objectives import OBJECTIVES, best_scores, objective_values
from gamelab.lattice.rules import Lattice

MAX_LANDSCAPE_LENGTH = 18
CACHE_VERSION = 2


def code_to_sequence(code: int, length: int) -> str:
    """The sequence whose residue i is H when bit i of `code` is set."""
    return "".join("H" if (int(code) >> i) & 1 else "P" for i in range(length))


def sequence_to_code(sequence: str) -> int:
    return sum(1 << i for i, c in enumerate(sequence) if c == "H")


def reversed_codes(length: int) -> np.ndarray:
    """For every code 0..2^length - 1, the code of the reversed sequence."""
    codes = np.arange(1 << length, dtype=np.int64)
    out = np.zeros_like(codes)
    for i in range(length):
        out |= ((codes >> i) & 1) << (length - 1 - i)
    return out


def landscape_histograms(
    length: int,
    lattice: Lattice = Lattice.SQUARE,
    *,
    chunk: int = 8192,
    progress: Callable[[str], None] | None = None,
) -> np.ndarray:
    """Histograms of all 2^length sequences (row = sequence code), cached on disk."""
    if not 2 <= length <= MAX_LANDSCAPE_LENGTH:
        raise ValueError(
            f"exhaustive landscapes are for lengths 2..{MAX_LANDSCAPE_LENGTH}, got {length}"
        )
    sets = contact_sets(length, lattice)

    def compute() -> dict[str, np.ndarray]:
        # A sequence and its reverse have the same histogram (reversing a walk maps the
        # conformations of one onto those of the other, symmetry classes included), so only
        # the 2^(L-1) + 2^(ceil(L/2)-1) sequences with code <= reversed code are scored.
        total = 1 << length
        codes = np.arange(total, dtype=np.int64)
        reverse = reversed_codes(length)
        canonical = codes[codes <= reverse]
        out = np.zeros((total, sets.max_contacts + 1), dtype=np.int64)
        for start in range(0, canonical.size, chunk):
            part = canonical[start : start + chunk]
            hists = sets.histograms_for_codes(part)
            out[part] = hists
            out[reverse[part]] = hists
            if progress is not None:
                done = min(canonical.size, start + chunk)
                progress(f"{done:,} of {canonical.size:,} conformations scored")
        return {"hists": out}

    return cached_arrays(
        "lattice-landscape", {"length": length, "lattice": lattice}, CACHE_VERSION, compute
    )["hists"]


@dataclass(frozen=True)
class ObjectiveSummary:
    """One objective over a whole landscape: its range, how many sequences reach its maximum,
    and its correlation with the best score (None when either is constant)."""

    min: float
    median: float
    max: float
    argmax_count: int
    correlation_with_best: float | None


@dataclass(frozen=True)
class LandscapeSummary:
    """Every objective over all 2^L sequences, and the checks behind the finding that the
    paper's ``distinct-scores`` is the best score in disguise."""

    length: int
    sequences: int
    objectives: dict[str, ObjectiveSummary]
    distinct_equals_best: int
    sequences_with_gaps: int
    distinct_scores_distribution: dict[int, int]
    seconds: float = 0.0


def landscape_summary(hists: np.ndarray, seconds: float = 0.0) -> LandscapeSummary:
    """Per objective: distribution summary and how many sequences reach its maximum; plus the
    checks behind the 'distinct-scores is degenerate' finding."""
    best = best_scores(hists)
    objectives = {}
    for name in OBJECTIVES:
        values = objective_values(name, hists)
        top = values.max()
        arg = np.flatnonzero(values == top)
        objectives[name] = ObjectiveSummary(
            min=float(values.min()),
            median=float(np.median(values)),
            max=float(top),
            argmax_count=int(arg.size),
            correlation_with_best=float(np.corrcoef(values, best)[0, 1])
            if values.std() > 0 and best.std() > 0
            else None,
        )
    distinct = objective_values("distinct-scores", hists)
    return LandscapeSummary(
        length=int(hists.shape[0]).bit_length() - 1,
        sequences=int(hists.shape[0]),
        objectives=objectives,
        distinct_equals_best=int(np.count_nonzero(distinct == best)),
        sequences_with_gaps=int(np.count_nonzero(objective_values("gaps", hists))),
        distinct_scores_distribution={
            int(k): int(v) for k, v in enumerate(np.bincount(distinct.astype(np.int64))) if v
        },
        seconds=seconds,
    )


def landscape_study(length: int, lattice: Lattice = Lattice.SQUARE) -> LandscapeSummary:
    """Score all 2^length sequences (from the cache when present) and summarise them, timed."""
    started = time.perf_counter()
    hists = landscape_histograms(length, lattice)
    return landscape_summary(hists, time.perf_counter() - started)
