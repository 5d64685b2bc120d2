"""Confidence intervals for the quantities games report.

* :func:`wilson_interval` — a proportion (win rate) with the Wilson score interval, which stays
  inside [0, 1] and behaves at 0 or n successes (Wilson 1927).
* :func:`mean_interval` — a mean with a Student-t interval (normal for large n).
* :func:`paired_difference` — two strategies played on the same seeds: the mean of the per-seed
  differences with a t interval, which is far tighter than comparing two independent means.
* :func:`elo_difference` — the Elo gap implied by a score rate, with the interval mapped through.

Every function returns an :class:`Estimate` (value, lo, hi, n) that prints as ``0.701 [0.694, 0.707]``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats as _sps


@dataclass(frozen=True)
class Estimate:
    value: float
    lo: float
    hi: float
    n: int
    confidence: float = 0.95

    @property
    def ci(self) -> tuple[float, float]:
        return (self.lo, self.hi)

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def excludes(self, x: float) -> bool:
        """Whether `x` lies outside the interval (e.g. 0 for a paired difference)."""
        return x < self.lo or x > self.hi

    def as_dict(self) -> dict:
        d = asdict(self)
        d["ci95" if self.confidence == 0.95 else "ci"] = [self.lo, self.hi]
        return d

    def __json__(self) -> dict:
        return self.as_dict()

    def __str__(self) -> str:
        return f"{self.value:.4g} [{self.lo:.4g}, {self.hi:.4g}]"


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return float(_sps.norm.ppf(0.5 + confidence / 2))


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> Estimate:
    """Proportion successes/trials with its Wilson score interval."""
    if trials <= 0:
        raise ValueError(f"need at least one trial, got {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and trials={trials}, got {successes}")
    z = _z(confidence)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # clamp rounding so the interval always contains p (at k = 0 or k = n it touches 0 or 1)
    lo = 0.0 if successes == 0 else min(p, max(0.0, centre - half))
    hi = 1.0 if successes == trials else max(p, min(1.0, centre + half))
    return Estimate(p, lo, hi, trials, confidence)


def mean_interval(values: Sequence[float] | np.ndarray, confidence: float = 0.95) -> Estimate:
    """Sample mean with a Student-t confidence interval."""
    x = np.asarray(values, dtype=float)
    n = x.size
    if n == 0:
        raise ValueError("need at least one value for a mean")
    mean = float(x.mean())
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1, confidence)
    sem = float(x.std(ddof=1)) / math.sqrt(n)
    t = float(_sps.t.ppf(0.5 + confidence / 2, df=n - 1)) if 0 < confidence < 1 else _z(confidence)
    return Estimate(mean, mean - t * sem, mean + t * sem, n, confidence)


def mean_interval_from_moments(total: float, total_sq: float, n: int, confidence: float = 0.95) -> Estimate:
    """Mean and t interval from the sum and the sum of squares (for streamed simulations)."""
    if n <= 1:
        raise ValueError(f"need at least two values, got {n}")
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    sem = math.sqrt(var / n)
    t = float(_sps.t.ppf(0.5 + confidence / 2, df=n - 1))
    return Estimate(mean, mean - t * sem, mean + t * sem, n, confidence)


def paired_difference(
    a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, confidence: float = 0.95
) -> Estimate:
    """Mean of a - b over paired observations (same seeds), with a t interval."""
    a_arr, b_arr = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a_arr.shape != b_arr.shape:
        raise ValueError(f"paired samples must have the same length, got {a_arr.size} and {b_arr.size}")
    return mean_interval(a_arr - b_arr, confidence)


def elo_from_score(score_rate: float) -> float:
    """Elo difference for an expected score rate in (0, 1); ±inf at the ends."""
    if score_rate <= 0:
        return -math.inf
    if score_rate >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score_rate - 1.0)


def elo_difference(score: Estimate) -> Estimate:
    """The Elo gap implied by a score-rate estimate, its interval mapped through the same curve."""
    return Estimate(
        elo_from_score(score.value), elo_from_score(score.lo), elo_from_score(score.hi), score.n, score.confidence
    )


def score_rate_interval(points: Sequence[float] | np.ndarray, confidence: float = 0.95) -> Estimate:
    """Score rate of per-game points (1 win, 0.5 draw, 0 loss) with a t interval clipped to [0, 1]."""
    est = mean_interval(points, confidence)
    return Estimate(est.value, max(0.0, est.lo), min(1.0, est.hi), est.n, confidence)
