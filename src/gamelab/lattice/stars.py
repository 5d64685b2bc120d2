"""Three-star thresholds for a puzzle from its exact score histogram.

Three bandings:

* ``paper``: the seed paper's rule, generalised. For a best score of 9 the paper gives 0-3
  contacts no star, 4-7 one star, 8 two stars, 9 three stars; for a best of 3, one star per
  contact. We use 3 stars at the best score b, 2 stars at b - 1 and 1 star at floor(b / 2)
  (kept below the 2-star threshold and at least 1), which reproduces both of the paper's
  examples. With b < 3 the thresholds are (1, 2, 3) capped at b, so some bands are empty.
* ``percentile``: the threshold of k stars is the lowest score s >= 1 that at most a share p_k of
  all conformations reach (default p = 25 %, 2 %, 0.1 %), capped at the best score and kept
  strictly increasing where the score range allows it: stars measure how rare a fold is rather
  than how close it is to the optimum (the paper's "choosing specific percentiles").
* ``graded``: the game's banding, one star at half the best score, two at three quarters, three
  at the best (1 star = floor(b / 2), 2 stars = ceil(3 b / 4), kept strictly between where the
  score range allows): the paper's banding puts two stars only one contact below the best, so a
  fold one or two contacts short of it earns a single star although it beats nearly every fold
  (a best of 9: 7 contacts, better than 99.9 % of the folds of HPHHHHHHPHHPHHPH, is one paper
  star and two graded stars).

>>> paper_thresholds(9), paper_thresholds(3)
((4, 8, 9), (1, 2, 3))
>>> graded_thresholds(9), graded_thresholds(12), graded_thresholds(4), graded_thresholds(3)
((4, 7, 9), (6, 9, 12), (2, 3, 4), (1, 2, 3))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

BANDINGS = ("paper", "percentile", "graded")
DEFAULT_SHARES = (0.25, 0.02, 0.001)


def _best(hist: np.ndarray) -> int:
    nz = np.nonzero(np.asarray(hist))[0]
    if nz.size == 0:
        raise ValueError("empty histogram: no conformation at all")
    return int(nz.max())


def paper_thresholds(best: int) -> tuple[int, int, int]:
    """Minimum scores for 1, 2, 3 stars under the paper's banding (see module docstring)."""
    if best < 0:
        raise ValueError(f"best score must be >= 0, got {best}")
    if best < 3:
        return (min(1, best), min(2, best), best)
    two = best - 1
    one = max(1, min(best // 2, two - 1))
    return (one, two, best)


def graded_thresholds(best: int) -> tuple[int, int, int]:
    """Minimum scores for 1, 2, 3 stars under the game's graded banding (module docstring)."""
    if best < 0:
        raise ValueError(f"best score must be >= 0, got {best}")
    if best < 3:
        return (min(1, best), min(2, best), best)
    two = min(best - 1, max(2, -(-3 * best // 4)))
    one = max(1, min(best // 2, two - 1))
    return (one, two, best)


def percentile_thresholds(
    hist: np.ndarray, shares: tuple[float, float, float] = DEFAULT_SHARES
) -> tuple[int, int, int]:
    """Minimum scores for 1, 2, 3 stars so that at most shares[k] of the conformations earn k+1
    stars or more (where the score range allows)."""
    if not (len(shares) == 3 and 1 > shares[0] > shares[1] > shares[2] > 0):
        raise ValueError(f"shares must be three decreasing fractions in (0, 1), got {shares}")
    hist = np.asarray(hist, dtype=np.float64)
    best = _best(hist)
    if best == 0:
        return (0, 0, 0)
    at_least = np.cumsum(hist[::-1])[::-1] / hist.sum()  # at_least[s] = P(score >= s)
    raw = []
    for p in shares:
        ok = [s for s in range(1, best + 1) if at_least[s] <= p]
        raw.append(ok[0] if ok else best)
    three = min(raw[2], best)
    two = max(1, min(raw[1], three - 1)) if three > 1 else three
    one = max(1, min(raw[0], two - 1)) if two > 1 else two
    return (one, two, three)


@dataclass(frozen=True)
class StarBands:
    """A puzzle's star thresholds and how many conformations fall in each band (0-3 stars)."""

    banding: str
    thresholds: tuple[int, int, int]
    counts: tuple[int, int, int, int]

    @property
    def shares(self) -> tuple[float, float, float, float]:
        total = sum(self.counts)
        return tuple(c / total for c in self.counts)  # type: ignore[return-value]

    @property
    def non_empty(self) -> int:
        """Number of star levels 1-3 that some conformation reaches."""
        return sum(1 for c in self.counts[1:] if c > 0)

    def stars(self, score: int) -> int:
        return sum(1 for t in self.thresholds if score >= t)

    def __json__(self) -> dict[str, Any]:
        return {
            "banding": self.banding,
            "thresholds": list(self.thresholds),
            "counts": list(self.counts),
            "shares": list(self.shares),
        }


def star_bands(hist: np.ndarray, banding: str = "paper", shares=DEFAULT_SHARES) -> StarBands:
    """Thresholds and band counts for a histogram (conformations per score 0..best).

    A conformation earns the largest k with score >= threshold[k-1]; with equal thresholds the
    higher star wins (so a collapsed band is empty).

    >>> star_bands([210, 51, 9, 2]).counts
    (210, 51, 9, 2)
    """
    hist = np.asarray(hist, dtype=np.int64)
    if banding == "paper":
        thresholds = paper_thresholds(_best(hist))
    elif banding == "graded":
        thresholds = graded_thresholds(_best(hist))
    elif banding == "percentile":
        thresholds = percentile_thresholds(hist, shares)
    else:
        raise ValueError(f"unknown banding {banding!r}; allowed: {', '.join(BANDINGS)}")
    counts = [0, 0, 0, 0]
    for score, n in enumerate(hist.tolist()):
        counts[sum(1 for t in thresholds if score >= t)] += n
    return StarBands(banding, thresholds, tuple(counts))  # type: ignore[arg-type]
