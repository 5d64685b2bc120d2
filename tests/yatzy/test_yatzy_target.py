"""Target play (max P(score >= T)): kernel vs twin, and never below the EV strategy."""

import numpy as np
import pytest

from gamelab.yatzy import _kernels as kern
from gamelab.yatzy.distribution import score_distribution
from gamelab.yatzy.rules import RuleSet
from gamelab.yatzy.target import target_probabilities

MINI = RuleSet("mini-plain", ("fours", "fives", "sixes", "three_kind", "full_house", "yahtzee",
                              "chance"), 35)


def test_target_widget_matches_twin():
    rng = np.random.default_rng(2)
    tab = MINI.kernel_tables()
    L = 12
    Pn = np.sort(rng.random((40, L)), axis=1)[:, ::-1].copy()
    Pn[:, 0] = 1.0
    row_of = rng.integers(0, 40, (1 << MINI.n_boxes) * 64)
    for mask, m in [(0b0000001, 8), (0b1010010, 0), (0b0111100, 20)]:
        got = kern.target_widget(Pn, row_of, mask, m, tab["base"], tab["upper_face"],
                                 tab["params"], np.empty((252, L)), np.empty((462, L)),
                                 np.empty((462, L)), np.empty((6, L))).copy()
        want = kern.target_widget_python(Pn, row_of, mask, m, tab)
        assert np.allclose(got, want, atol=1e-13), (mask, m)


def test_target_play_dominates_expected_score_play():
    top = MINI.max_score
    p = target_probabilities(MINI, max_target=top)["p"]
    dist = score_distribution(MINI, cap=top)
    ev = np.array([dist.at_least(t) for t in range(top + 1)])
    assert p[0] == pytest.approx(1.0)
    assert (p >= ev - 1e-12).all() and (np.diff(p) <= 1e-12).all()
    # somewhere playing for the target is strictly better than playing for the mean
    assert (p - ev).max() > 0.01


def test_target_play_refuses_bonus_rules():
    with pytest.raises(ValueError, match="without Yahtzee bonus"):
        target_probabilities("yahtzee")
