"""Exact score distribution by forward propagation: its moments equal the DP's."""

import numpy as np
import pytest

from gamelab.yatzy.distribution import score_distribution
from gamelab.yatzy.rules import JOKER_FORCED, JOKER_FREE, RuleSet, get_rules
from gamelab.yatzy.solver import solve

# Reduced games (7 boxes, 128 masks) keep the test fast while exercising the upper bonus, the
# Yahtzee bonus and both joker rules.
MINI = [
    RuleSet(
        "mini-forced",
        ("fours", "fives", "sixes", "three_kind", "full_house", "yahtzee", "chance"),
        35,
        100,
        JOKER_FORCED,
    ),
    RuleSet(
        "mini-free",
        ("fours", "fives", "sixes", "small_straight", "full_house", "yahtzee", "chance"),
        35,
        100,
        JOKER_FREE,
    ),
]


@pytest.mark.parametrize("rules", MINI, ids=lambda r: r.name)
def test_distribution_moments_match_dp(rules):
    sol = solve(rules)
    dist = score_distribution(rules, cap=rules.max_score)
    assert dist.tail_probability == 0.0
    assert dist.probability.sum() == pytest.approx(1.0, abs=1e-12)
    assert (dist.probability >= 0).all()
    assert dist.mean == pytest.approx(sol.expected_score, abs=1e-9)
    assert dist.std_dev == pytest.approx(sol.std_dev, abs=1e-7)


def test_capped_distribution_keeps_exact_mean():
    rules = MINI[0]
    sol = solve(rules)
    dist = score_distribution(rules, cap=250)
    assert 0 < dist.tail_probability < 0.05
    assert dist.mean == pytest.approx(sol.expected_score, abs=1e-9)
    assert dist.at_least(0) == pytest.approx(1.0, abs=1e-12)
    assert dist.at_least(251 - 1) >= dist.tail_probability
    with pytest.raises(ValueError, match="beyond"):
        dist.at_least(300)
    assert np.isclose(dist.probability.sum() + dist.tail_probability, 1.0)


def test_capped_distribution_keeps_exact_sd():
    # Issue 11 item 3: the SD used to leave out the mass beyond the cap (yahtzee: 56.60 vs 59.61).
    rules = MINI[0]
    dist = score_distribution(rules, cap=250)
    assert 0 < dist.tail_probability
    assert dist.std_dev == pytest.approx(solve(rules).std_dev, abs=1e-9)


def _sd_agrees_with_solve(name: str, gamelab_cli) -> None:
    import json

    solved = json.loads(gamelab_cli("yatzy", "solve", "--rules", name, "--json").stdout)
    dist = score_distribution(get_rules(name))
    assert dist.std_dev == pytest.approx(solved["std_dev"], abs=1e-6)
    assert dist.mean == pytest.approx(solved["expected_score"], abs=1e-6)
    shown = gamelab_cli("yatzy", "distribution", "--rules", name)
    assert shown.returncode == 0, shown.stderr
    assert f"SD {solved['std_dev']:.4f}" in shown.stdout


def test_yahtzee_sd_agrees_between_solve_and_distribution(gamelab_cli):
    _sd_agrees_with_solve("yahtzee", gamelab_cli)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["yahtzee-free-joker", "yahtzee-no-bonus", "yatzy", "yatzy-ls2012"]
)
def test_every_rule_set_sd_agrees_between_solve_and_distribution(name, gamelab_cli):
    _sd_agrees_with_solve(name, gamelab_cli)
