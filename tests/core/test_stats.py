"""core.stats against closed forms and scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps

from gamelab.core import stats


def test_wilson_closed_forms():
    # 0 successes out of n: the upper end is z^2 / (n + z^2) (Wilson 1927).
    z = sps.norm.ppf(0.975)
    est = stats.wilson_interval(0, 10)
    assert est.lo == 0.0
    assert est.hi == pytest.approx(z * z / (10 + z * z))
    # symmetric in successes and failures
    a, b = stats.wilson_interval(3, 20), stats.wilson_interval(17, 20)
    assert a.lo == pytest.approx(1 - b.hi) and a.hi == pytest.approx(1 - b.lo)


def test_wilson_bounds_solve_the_score_equation():
    # The Wilson bounds are the p with |phat - p| = z * sqrt(p (1 - p) / n) (the score test).
    z = sps.norm.ppf(0.975)
    est = stats.wilson_interval(7014, 10000)
    assert est.value == pytest.approx(0.7014)
    for p in (est.lo, est.hi):
        assert abs(0.7014 - p) == pytest.approx(z * math.sqrt(p * (1 - p) / 10000), rel=1e-9)
    assert 0.009 > est.half_width > 0.0089


@given(st.integers(1, 5000), st.data())
def test_wilson_contains_estimate(n, data):
    k = data.draw(st.integers(0, n))
    est = stats.wilson_interval(k, n)
    assert 0.0 <= est.lo <= est.value <= est.hi <= 1.0


def test_wilson_rejects_bad_counts():
    with pytest.raises(ValueError, match="successes"):
        stats.wilson_interval(11, 10)
    with pytest.raises(ValueError, match="trial"):
        stats.wilson_interval(0, 0)


def test_mean_interval_matches_scipy():
    x = np.random.default_rng(0).normal(3.0, 2.0, 50)
    est = stats.mean_interval(x)
    lo, hi = sps.t.interval(0.95, df=49, loc=x.mean(), scale=sps.sem(x))
    assert (est.value, est.lo, est.hi) == pytest.approx((x.mean(), lo, hi))
    moments = stats.mean_interval_from_moments(x.sum(), (x * x).sum(), x.size)
    assert (moments.lo, moments.hi) == pytest.approx((lo, hi))


def test_paired_difference_is_tighter_than_unpaired():
    rng = np.random.default_rng(1)
    board_difficulty = rng.normal(0, 5, 400)
    a = board_difficulty + rng.normal(0.5, 1, 400)
    b = board_difficulty + rng.normal(0.0, 1, 400)
    paired = stats.paired_difference(a, b)
    assert paired.excludes(0.0)
    unpaired_half = 1.96 * math.sqrt(a.var(ddof=1) / 400 + b.var(ddof=1) / 400)
    assert paired.half_width < unpaired_half / 3
    with pytest.raises(ValueError, match="same length"):
        stats.paired_difference([1, 2], [1])


def test_elo():
    assert stats.elo_from_score(0.5) == 0.0
    assert stats.elo_from_score(0.9) == pytest.approx(381.7, abs=0.1)
    assert stats.elo_from_score(1.0) == math.inf
    est = stats.elo_difference(stats.score_rate_interval([1, 1, 0.5, 0, 1, 1, 1, 0.5]))
    assert est.lo < est.value < est.hi


def test_elo_says_when_one_side_won_or_lost_every_game():
    from gamelab.core.serialise import to_plain

    won = stats.elo_difference(stats.wilson_interval(10, 10))
    assert won.sweep == "all-won" and won.value == math.inf and math.isfinite(won.lo)
    assert stats.format_elo(won) == f"≥ {won.lo:+.0f} (all won)"
    lost = stats.elo_difference(stats.wilson_interval(0, 10))
    assert lost.sweep == "all-lost" and stats.format_elo(lost) == f"≤ {lost.hi:+.0f} (all lost)"
    mixed = stats.elo_difference(stats.wilson_interval(6, 10))
    assert mixed.sweep == "none" and stats.format_elo(mixed).count("[") == 1
    plain = to_plain(won)
    assert plain["sweep"] == "all-won" and plain["value"] is None and plain["hi"] is None
    assert plain["ci95"] == [won.lo, None]


def test_formatters():
    est = stats.Estimate(0.5, 0.25, 0.75, 10)
    assert stats.format_estimate(est, ".2f") == "0.50 [0.25, 0.75]"
    assert stats.format_difference(est, ".2f") == "+0.50 [+0.25, +0.75]"
    d = stats.paired_difference([1.0, 2.0, 4.0], [1.0, 1.0, 1.0])
    assert isinstance(d, stats.Difference) and str(d) == stats.format_difference(d)


def test_paired_proportions_difference_is_newcombes_interval():
    # Fagerland, Lydersen & Laake, "Statistical Analysis of Contingency Tables" (2017), ch. 8:
    # the Newcombe square-and-add interval for the paired table [[59, 6], [16, 80]] is
    # -0.0621 (95% CI -0.1186 to -0.0046)
    d = stats.paired_proportions_difference(59, 6, 16, 80)
    assert isinstance(d, stats.Difference) and d.n == 161
    assert (round(d.value, 4), round(d.lo, 4), round(d.hi, 4)) == (-0.0621, -0.1186, -0.0046)
    # many pairs: the t interval of the per-pair differences, to four decimals
    diffs = np.r_[np.ones(3000), -np.ones(2000), np.zeros(95000)]
    t = stats.paired_difference(diffs, np.zeros_like(diffs))
    many = stats.paired_proportions_difference(20000, 3000, 2000, 75000)
    assert many.value == pytest.approx(t.value) and many.ci == pytest.approx(t.ci, abs=1e-4)


@pytest.mark.parametrize("table", [(0, 0, 0, 2), (1, 0, 0, 1), (2, 0, 0, 0), (0, 1, 0, 0)])
def test_paired_proportions_difference_never_collapses(table):
    """Pairs that all ended alike (no spread at all) still leave a wide interval, in [-1, 1]:
    a t interval of the differences had width 0 there and claimed certainty."""
    d = stats.paired_proportions_difference(*table)
    assert -1 <= d.lo <= d.value <= d.hi <= 1
    assert d.hi - d.lo > 0.5


def test_paired_proportions_difference_refuses_an_impossible_table():
    with pytest.raises(ValueError, match="negative"):
        stats.paired_proportions_difference(1, -1, 0, 0)
    with pytest.raises(ValueError, match="at least one pair"):
        stats.paired_proportions_difference(0, 0, 0, 0)


def test_t_quantile_is_scipys_bit_for_bit():
    # the intervals printed by every simulation: the same numbers as scipy.stats.t.ppf
    for df in (1, 2, 3, 9, 49, 199, 1999, 99_999):
        for p in (0.0, 0.5, 0.8, 0.95, 0.975, 0.995, 1.0):
            assert stats.t_quantile(p, df) == float(sps.t.ppf(p, df))
    assert math.isnan(stats.t_quantile(0.975, 0)) and math.isnan(float(sps.t.ppf(0.975, 0)))
    for c in (0.5, 0.9, 0.95, 0.99):
        assert stats._z(c) == float(sps.norm.ppf(0.5 + c / 2))
