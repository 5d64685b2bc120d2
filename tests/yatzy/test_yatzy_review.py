"""The review (yatzy/review.py): losses, luck, the exact law from the start, the SVG."""

import numpy as np
import pytest
from test_yatzy_game import NEAR_END, _coach_game

from gamelab.yatzy.coach import coach
from gamelab.yatzy.game import game_view
from gamelab.yatzy.review import ScoreLaw, distribution_svg, review_game, start_law
from gamelab.yatzy.rules import RULES


def test_coach_game_has_zero_loss_and_luck_closes_the_books():
    v = _coach_game(8)
    r = review_game(RULES["yatzy"], 8, v.moves, start=NEAR_END)
    assert r.finished and r.total_loss == 0 and r.worst is None
    assert len(r.decisions) == len(v.moves) and r.final_score == v.you.total
    assert r.luck == pytest.approx(r.final_score - r.start_expected)
    assert 0 <= r.percentile <= 100 and "your-score" in r.svg
    t = r.totals["you"]  # the shared vocabulary: result = start - loss + luck
    assert (t.start, t.loss, t.result, t.costliest) == (r.start_expected, 0.0, r.final_score, [])
    assert t.luck == pytest.approx(r.luck) == pytest.approx(t.result - t.start + t.loss)


def test_start_law_is_exact_its_mean_is_the_dp_value():
    r = review_game(RULES["yatzy"], 8, [], start=NEAR_END)
    law = start_law(RULES["yatzy"], NEAR_END)
    assert law.probability.sum() == pytest.approx(1.0, abs=1e-12)
    assert law.mean == pytest.approx(r.start_expected, abs=1e-9)
    assert not r.finished and r.percentile is None and "not finished" in r.note


def test_a_poor_choice_costs_what_the_coach_says():
    first = game_view(RULES["yatzy"], 4, [], start=NEAR_END)
    dice = "".join(map(str, first.dice))
    advice = coach(RULES["yatzy"], NEAR_END, dice, 2)
    worst = advice.options[-1]
    r = review_game(RULES["yatzy"], 4, [f"keep {worst.keep}"], start=NEAR_END)
    d = r.decisions[0]
    assert d.choice == worst.keep and d.loss > 0 and d.loss == pytest.approx(worst.loss, abs=1e-12)
    assert d.best == f"keep {advice.best.keep}" and r.worst == d
    # scoring with rerolls left is valued too: against the best keep
    box = review_game(RULES["yatzy"], 4, ["box chance"], start=NEAR_END).decisions[0]
    assert box.kind == "box" and box.best_expected_score == pytest.approx(
        advice.best.expected_score
    )


def test_percentile_counts_half_the_ties():
    law = ScoreLaw(10, np.array([0.25, 0.5, 0.25]), mean=11.0)
    assert law.below(11) == 0.25 and law.at(11) == 0.5 and law.below(99) == 1.0
    svg = distribution_svg(law, 12)
    assert svg.startswith("<svg") and "you: 12" in svg and svg.endswith("</svg>")
    assert ">mean 11.0</text>" in svg


@pytest.mark.slow
def test_acceptance_a_whole_seeded_game_on_the_coachs_advice_loses_nothing():
    # issue 15's acceptance, from the empty card (the review needs the exact yatzy distribution:
    # about a core-minute and 0.5 GB the first time, hence slow)
    v = _coach_game(1, start="-")
    r = review_game(RULES["yatzy"], 1, v.moves)
    assert r.finished and r.total_loss == 0 and len(r.decisions) == len(v.moves)
    assert r.start_expected == pytest.approx(
        248.4399894, abs=1e-6
    )  # research notes (docs/yatzy.md)
    assert r.luck == pytest.approx(r.final_score - r.start_expected)
