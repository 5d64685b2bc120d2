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
