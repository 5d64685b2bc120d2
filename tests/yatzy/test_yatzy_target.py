"""Target play (max P(score >= T)): kernel vs twin, and never below the EV strategy."""

import numpy as np
import pytest
from numba import njit

from gamelab.yatzy._distribution_kernels import turn_outcomes
from gamelab.yatzy._turn_kernels import RI_OUT_B, RI_OUT_J, RI_OUT_S, W_ACC, W_ROLL_I, new_workspace
from gamelab.yatzy._utility_kernels import (
    new_utility_workspace,
    utility_decisions,
    utility_widget,
    utility_widget_python,
)
from gamelab.yatzy.distribution import score_distribution
from gamelab.yatzy.rules import JOKER_FORCED, JOKER_FREE, RULES, RuleSet, get_rules
from gamelab.yatzy.target import target_probabilities


@njit(cache=True)
def _turn_outcomes(mask, m, f, rules, ws):
    """turn_outcomes (a kernel without a Python entry) called from Python: the outcomes are
    left in the workspace."""
    return turn_outcomes(mask, m, f, rules, ws)


BOXES = ("fours", "fives", "sixes", "three_kind", "full_house", "yahtzee", "chance")
MINI = RuleSet("mini-plain", BOXES, 35)
# reduced games with the Yahtzee bonus and both joker rules
MINI_BONUS = [
    RuleSet("mini-forced", BOXES, 35, 100, JOKER_FORCED),
    RuleSet(
        "mini-free",
        ("fours", "fives", "sixes", "small_straight", "full_house", "yahtzee", "chance"),
        35,
        100,
        JOKER_FREE,
    ),
]


def _states(rules, rng):
    nb = rules.n_boxes
    yb = rules.boxes.index("yahtzee")
    full = (1 << nb) - 1
    nf = rules.bonus_flags
    out = [(0, 0, 0), (0b0000001, 8, 0), (0b1010010, 0, 0), (0b0111100, 20, 0)]
    # Yahtzee box filled: the extra-Yahtzee (bonus, joker) paths, with and without the flag
    out += [
        ((full & ~0b1001) | (1 << yb), 5, nf - 1),
        ((1 << yb) | 0b1000, 12, nf - 1),
        ((1 << yb) | 0b0011, 30, 0),
        (full & ~(1 << 0), 40, nf - 1),
    ]
    for _ in range(3):
        mask = int(rng.integers(0, full))
        out.append(
            (mask, int(rng.integers(0, 64)), int(rng.integers(0, nf)) if (mask >> yb) & 1 else 0)
        )
    return out


@pytest.mark.parametrize("rules", [MINI, *MINI_BONUS, get_rules("yahtzee")], ids=lambda r: r.name)
def test_utility_widget_matches_twin(rules):
    rng = np.random.default_rng(2)
    bundle = rules.kernel_rules()
    L = 9
    Pn = np.sort(rng.random((40, L)), axis=1)[:, ::-1].copy()
    Pn[:, 0] = 1.0
    row_of = rng.integers(0, 40, rules.n_states)
    ws = new_workspace(rules.n_boxes)
    acc, roll_i = ws[W_ACC], ws[W_ROLL_I]
    ob, oj, os_ = roll_i[RI_OUT_B], roll_i[RI_OUT_J], roll_i[RI_OUT_S]
    states = _states(rules, rng)
    if rules.n_boxes > 7:  # the twin is slow: two states of the full game
        states = [((1 << 11) | 0b111111, 63, 1), ((1 << 11) | 0b1, 2, 0)]
    for mask, m, f in states:
        got = utility_widget(Pn, row_of, mask, m, f, bundle, new_utility_workspace(L)).copy()
        want = utility_widget_python(Pn, row_of, mask, m, f, rules)
        assert np.allclose(got, want, atol=1e-13), (mask, m, f)
        # the scalar decision kernel reaches the vector's value at every t
        for t in range(L):
            v = utility_decisions(Pn, row_of, mask, m, f, t, bundle, ws)
            assert v == pytest.approx(got[t], abs=1e-13)
            # and its decision tables realise that value (exact turn law)
            n = _turn_outcomes(mask, m, f, bundle, ws)
            total = 0.0
            for o in range(n):
                p = acc[ob[o], os_[o]]
                acc[ob[o], os_[o]] = 0.0
                total += p * Pn[row_of[oj[o]], max(0, t - os_[o])]
            assert total == pytest.approx(got[t], abs=1e-12)


@pytest.mark.parametrize("rules", [MINI, *MINI_BONUS], ids=lambda r: r.name)
def test_target_play_dominates_expected_score_play(rules):
    top = min(260, rules.max_score)
    p = target_probabilities(rules, max_target=top)["p"]
    dist = score_distribution(rules, cap=rules.max_score)
    ev = np.array([dist.at_least(t) for t in range(top + 1)])
    assert p[0] == pytest.approx(1.0)
    assert (p >= ev - 1e-12).all() and (np.diff(p) <= 1e-12).all()
    # somewhere playing for the target is strictly better than playing for the mean
    assert (p - ev).max() > 0.01


def test_target_play_bad_target():
    with pytest.raises(ValueError, match="max_target"):
        target_probabilities(MINI, max_target=-1)


@pytest.mark.slow
def test_target_play_yahtzee_full_game():
    # the full game with the Yahtzee bonus and forced joker (about 5 core-minutes)
    p = target_probabilities(RULES["yahtzee"], max_target=350)["p"]
    dist = score_distribution(RULES["yahtzee"])
    assert p[0] == pytest.approx(1.0)
    for t in (100, 200, 250, 300, 350):
        assert p[t] >= dist.at_least(t) - 1e-12
    assert (np.diff(p) <= 1e-12).all()


def test_target_table_rows_match_their_sources():
    from gamelab.yatzy.target import target_table

    table = target_table(MINI, targets=(20, 60))
    ev = score_distribution(MINI)
    p = target_probabilities(MINI, max_target=60)["p"]
    for row in table.targets:
        assert row.max_probability == pytest.approx(float(p[row.target]))
        assert row.expected_score_strategy == pytest.approx(ev.at_least(row.target))
        assert row.max_probability >= row.expected_score_strategy - 1e-12  # target play is best
