"""Exact score distribution by forward propagation: its moments equal the DP's."""

import numpy as np
import pytest

from gamelab.yatzy.distribution import score_distribution
from gamelab.yatzy.rules import JOKER_FORCED, JOKER_FREE, RULES, RuleSet, get_rules
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


def test_47_14_every_rule_sets_distribution_ships_and_is_fresh():
    """Issue 47, item 14: the first review of a rule set computed its exact distribution (a
    core-minute). Each named rule set's ships (tools/make_yatzy_distributions.py), under the
    cache's key of today's rule set and format, adds up to 1, and is what score_distribution
    returns; Yahtzee's mean is its value table's E(start) (the tool checks every one)."""
    from gamelab.core.cache import load_arrays
    from gamelab.yatzy.card import Card
    from gamelab.yatzy.distribution import shipped_distribution_path
    from gamelab.yatzy.solver import state_index

    for name, rules in RULES.items():
        path = shipped_distribution_path(rules)
        arrays = load_arrays(path)
        assert arrays is not None, f"{name}: {path.name} is missing or damaged"
        d = score_distribution(rules)
        assert d.from_cache and d.probability.sum() + d.tail_probability == pytest.approx(
            1, abs=1e-9
        )
        assert (arrays["p"] == d.probability).all()
    rules = RULES["yahtzee"]
    card = Card.parse(rules, "-")
    e = solve(rules).E[state_index(rules, card.mask, card.capped_upper, card.bonus_flag)]
    assert score_distribution(rules).mean == pytest.approx(float(e), abs=1e-6)
