"""The numpy solver of small rule sets (the quick report's) against the kernel solver."""

from __future__ import annotations

import pytest

from gamelab.yatzy.array_solver import solve_by_arrays
from gamelab.yatzy.rules import RULES, UPPER_NAMES, RuleSet
from gamelab.yatzy.solver import solve


@pytest.mark.parametrize(
    "boxes, bonus",
    [
        (("yahtzee",), 0),
        (("small_straight",), 0),
        (("threes", "full_house", "chance"), 35),
        (("fours", "fives", "sixes"), 35),
        (UPPER_NAMES, 35),
    ],
)
def test_array_solver_equals_the_kernel_solver(boxes, bonus):
    rules = RuleSet(f"test-array-{'-'.join(boxes)}-{bonus}", boxes, bonus)
    assert solve_by_arrays(rules).expected_score == pytest.approx(
        solve(rules, use_cache=False).expected_score, abs=1e-9
    )


def test_one_turn_yahtzee_is_the_exact_probability():
    # P(five of a kind within three rolls, keeping the most common face) = 2783176 / 6**10
    value = solve_by_arrays(RuleSet("test-yahtzee-alone", ("yahtzee",), 0)).expected_score
    assert value == pytest.approx(50 * 2783176 / 6**10, abs=1e-12)


def test_refuses_what_it_cannot_solve():
    with pytest.raises(ValueError, match="at most 8"):
        solve_by_arrays(RULES["yahtzee-no-bonus"])
    with pytest.raises(ValueError, match="Yahtzee bonus or joker"):
        solve_by_arrays(RuleSet("test-bonus", ("yahtzee", "chance"), 0, yahtzee_bonus=100))
