"""Confidence intervals for the quantities games report.

* :func:`wilson_interval` — a proportion (win rate) with the Wilson score interval, which stays
  inside [0, 1] and behaves at 0 or n successes (Wilson 1927).
* :func:`mean_interval` — a mean with a Student-t interval (normal for large n).
* :func:`paired_difference` — two strategies played on the same seeds: the mean of the per-seed
  differences with a t interval, which is far tighter than comparing two independent means.
* :func:`paired_proportions_difference` — two win rates on the same seeds, from the paired
  table of wins (Newcombe's interval: it never collapses to a point, however few the pairs).
* :func:`elo_difference` — the Elo gap implied by a score rate, with the interval mapped through.

The functions return an :class:`Estimate` (value, lo, hi, n), a :class:`Difference` (an estimate
of a paired difference) or an :class:`Elo` (which says explicitly when one side won or lost every
game, where the gap itself is infinite). Each value type has one formatter, used by the CLI and
the report alike: :func:`format_estimate`, :func:`format_difference`, :func:`format_elo`.

>>> format_estimate(wilson_interval(7, 10), ".3f")
'0.700 [0.397, 0.892]'
>>> format_elo(elo_difference(wilson_interval(10, 10)))
'≥ +166 (all won)'
>>> format_difference(paired_difference([1, 2, 3], [0, 2, 1]), ".2f")
'+1.00 [-1.48, +3.48]'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np

from gamelab.core.serialise import attributes


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

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["ci95" if self.confidence == 0.95 else "ci"] = [self.lo, self.hi]
        return d

    def __json__(self) -> dict[str, Any]:
        return self.as_dict()

    def __str__(self) -> str:
        return f"{self.value:.4g} [{self.lo:.4g}, {self.hi:.4g}]"


@dataclass(frozen=True)
class Difference(Estimate):
    """The mean of paired differences a - b (same seeds) with its interval; prints signed."""

    def __str__(self) -> str:
        return format_difference(self)


Sweep = Literal["none", "all-won", "all-lost"]


@dataclass(frozen=True)
class Elo:
    """An Elo gap (A minus B) with its interval, mapped from a score-rate estimate.

    When A won (or lost) every game the gap is +inf (-inf) and only one bound is finite; `sweep`
    says so explicitly (``"all-won"``, ``"all-lost"``, else ``"none"``), so no reader has to
    interpret an infinity or a JSON ``null``.
    """

    value: float
    lo: float
    hi: float
    n: int
    sweep: Sweep = "none"
    confidence: float = 0.95

    def __json__(self) -> dict[str, Any]:
        return {
            **attributes(self, "value", "lo", "hi", "n", "sweep", "confidence"),
            "ci95" if self.confidence == 0.95 else "ci": [self.lo, self.hi],
        }

    def __str__(self) -> str:
        return format_elo(self)


def format_estimate(estimate: Estimate, spec: str = ".4g") -> str:
    """``value [lo, hi]`` with every number in the format `spec` (e.g. ``".3f"``, ``".1%"``)."""
    return f"{estimate.value:{spec}} [{estimate.lo:{spec}}, {estimate.hi:{spec}}]"


def format_difference(difference: Estimate, spec: str = ".4f") -> str:
    """A paired difference, signed: ``+0.012 [+0.004, +0.020]``."""
    sign = spec if spec.startswith("+") else "+" + spec
    return format_estimate(difference, sign)


def format_elo(elo: Elo) -> str:
    """``+85 [+20, +150]``; a sweep shows its finite bound: ``≥ +566 (all won)``."""

    def signed(x: float) -> str:
        return f"{x:+.0f}" if math.isfinite(x) else ("+∞" if x > 0 else "-∞")

    if elo.sweep == "all-won":
        return f"≥ {signed(elo.lo)} (all won)" if math.isfinite(elo.lo) else "+∞ (all won)"
    if elo.sweep == "all-lost":
        return f"≤ {signed(elo.hi)} (all lost)" if math.isfinite(elo.hi) else "-∞ (all lost)"
    return f"{signed(elo.value)} [{signed(elo.lo)}, {signed(elo.hi)}]"


def t_quantile(p: float, df: int) -> float:
    """The p-quantile of Student's t with `df` degrees of freedom: scipy's ``stats.t.ppf(p,
    df)`` bit for bit (the same special function, ``scipy.special.stdtrit``), without importing
    scipy.stats (about a CPU-second of every command that prints an interval; scipy.special
    alone is a fifth of it)."""
    from scipy.special import stdtrit

    if not df > 0 or not 0 <= p <= 1:
        return math.nan
    if p in (0, 1):
        return -math.inf if p == 0 else math.inf
    return float(stdtrit(df, p))


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    from scipy.special import ndtri  # scipy's stats.norm.ppf, bit for bit

    return float(ndtri(0.5 + confidence / 2))


def wilson_interval(successes: float, trials: int, confidence: float = 0.95) -> Estimate:
    """Proportion successes/trials with its Wilson score interval (a draw may count half)."""
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
    t = t_quantile(0.5 + confidence / 2, n - 1) if 0 < confidence < 1 else _z(confidence)
    return Estimate(mean, mean - t * sem, mean + t * sem, n, confidence)


def bounded_mean_interval(
    values: Sequence[float] | np.ndarray,
    lower: float = 0.0,
    confidence: float = 0.95,
    resamples: int = 4000,
    upper: float = math.inf,
) -> Estimate:
    """Mean of values that cannot go below `lower` (coins, counts) nor above `upper` (a
    percent), with an interval that cannot either: a percentile bootstrap (seeded, so the same
    data give the same interval).

    The t interval of skewed data near its bound (most campaigns win few coins, a few win
    many) reaches below the bound; every bootstrap mean is a mean of the data, so it cannot.
    """
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        raise ValueError("need at least one value for a mean")
    if (x < lower).any():
        raise ValueError(f"values must be at least {lower}, got {x.min()}")
    if (x > upper).any():
        raise ValueError(f"values must be at most {upper}, got {x.max()}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    mean = float(x.mean())
    if x.size == 1:
        return Estimate(mean, lower, upper, 1, confidence)
    rng = np.random.default_rng(np.random.SeedSequence(0))
    means = x[rng.integers(0, x.size, size=(resamples, x.size))].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2])
    # a mean of the data lies between its extremes; min/max only absorb rounding
    lo, hi = max(lower, min(mean, float(lo))), min(upper, max(mean, float(hi)))
    return Estimate(mean, lo, hi, int(x.size), confidence)


def mean_interval_from_moments(
    total: float, total_sq: float, n: int, confidence: float = 0.95
) -> Estimate:
    """Mean and t interval from the sum and the sum of squares (for streamed simulations)."""
    if n <= 1:
        raise ValueError(f"need at least two values, got {n}")
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    sem = math.sqrt(var / n)
    t = t_quantile(0.5 + confidence / 2, n - 1)
    return Estimate(mean, mean - t * sem, mean + t * sem, n, confidence)


def paired_difference(
    a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, confidence: float = 0.95
) -> Difference:
    """Mean of a - b over paired observations (same seeds), with a t interval."""
    a_arr, b_arr = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a_arr.shape != b_arr.shape:
        raise ValueError(
            f"paired samples must have the same length, got {a_arr.size} and {b_arr.size}"
        )
    e = mean_interval(a_arr - b_arr, confidence)
    return Difference(e.value, e.lo, e.hi, e.n, e.confidence)


def paired_proportions_difference(
    both: int, first_only: int, second_only: int, neither: int, confidence: float = 0.95
) -> Difference:
    """The difference p1 - p2 of two proportions measured on the same units (two players on the
    same dice), from the paired 2x2 table: units where both succeed, only the first, only the
    second, neither.

    The interval is Newcombe's (1998, Statistics in Medicine 17:2635, method 10): the Wilson
    intervals of p1 and p2 combined with the table's correlation (phi, shrunk by n/2 towards 0
    when positive). It stays inside [-1, 1] and never collapses: two pairs that ended alike give
    a wide interval, not a point, where a t interval of the per-pair differences (sample
    variance 0) would claim certainty. For large samples it agrees with the t interval.

    >>> format_difference(paired_proportions_difference(0, 0, 0, 2), ".3f")
    '+0.000 [-0.658, +0.658]'
    """
    counts = (both, first_only, second_only, neither)
    if min(counts) < 0:
        raise ValueError(f"the counts of a paired table cannot be negative, got {counts}")
    n = sum(counts)
    if n < 1:
        raise ValueError("need at least one pair")
    first, second = both + first_only, both + second_only
    p1, p2 = first / n, second / n
    l1, u1 = wilson_interval(first, n, confidence).ci
    l2, u2 = wilson_interval(second, n, confidence).ci
    margins = float(first) * (n - first) * second * (n - second)
    cross = float(both) * neither - float(first_only) * second_only
    shrunk = cross - n / 2 if cross > n / 2 else min(cross, 0.0)
    phi = shrunk / math.sqrt(margins) if margins > 0 else 0.0
    below = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    above = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    d = (first_only - second_only) / n  # p1 - p2 in one rounding
    lo = max(-1.0, d - math.sqrt(max(0.0, below)))
    hi = min(1.0, d + math.sqrt(max(0.0, above)))
    return Difference(d, lo, hi, n, confidence)


def elo_from_score(score_rate: float) -> float:
    """Elo difference for an expected score rate in (0, 1); ±inf at the ends."""
    if score_rate <= 0:
        return -math.inf
    if score_rate >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score_rate - 1.0)


def elo_difference(score: Estimate) -> Elo:
    """The Elo gap implied by a score-rate estimate, its interval mapped through the same curve."""
    sweep: Sweep = "all-won" if score.value >= 1 else "all-lost" if score.value <= 0 else "none"
    return Elo(
        elo_from_score(score.value),
        elo_from_score(score.lo),
        elo_from_score(score.hi),
        score.n,
        sweep,
        score.confidence,
    )


def score_rate_interval(points: Sequence[float] | np.ndarray, confidence: float = 0.95) -> Estimate:
    """Score rate of per-game points (1 win, 0.5 draw, 0 loss) with a t interval clipped to [0, 1]."""
    est = mean_interval(points, confidence)
    return Estimate(est.value, max(0.0, est.lo), min(1.0, est.hi), est.n, confidence)


def two_phase_difference(
    control_sum: float,
    control_sumsq: float,
    n1: int,
    differences: Sequence[float] | np.ndarray,
    confidence: float = 0.95,
) -> Estimate:
    """Mean of an expensive y by two-phase sampling with a cheap control x (difference estimator).

    Phase 1 measures x alone on n1 units (given as the sum and the sum of squares); phase 2
    measures d = y - x on n2 *other* units, drawn independently of phase 1. The estimate
    mean_1(x) + mean_2(d) is unbiased for E[y] (the coefficient of x is fixed at 1, not
    fitted), and since the samples are independent its variance is exactly
    Var(x) / n1 + Var(d) / n2; the interval is the normal one with the sample variances.
    Worth it when x is cheap and y - x varies much less than y. ``n`` of the result is n1 + n2.
    """
    d = np.asarray(differences, dtype=float)
    if n1 < 2 or d.size < 2:
        raise ValueError(f"need at least two units in each phase, got {n1} and {d.size}")
    mean_x = control_sum / n1
    var_x = max(0.0, (control_sumsq - n1 * mean_x * mean_x) / (n1 - 1))
    value = mean_x + float(d.mean())
    half = _z(confidence) * math.sqrt(var_x / n1 + float(d.var(ddof=1)) / d.size)
    return Estimate(value, value - half, value + half, n1 + int(d.size), confidence)
