"""Exact comeback probabilities: joint laws consistent with the distribution, brute-force check."""

import numpy as np
import pytest

from gamelab.yatzy.comeback import comeback_from_joint, joint_after_rounds
from gamelab.yatzy.distribution import score_distribution
from gamelab.yatzy.rules import JOKER_FORCED, RuleSet

MINI = RuleSet(
    "mini-forced",
    ("fours", "fives", "sixes", "three_kind", "full_house", "yahtzee", "chance"),
    35,
    100,
    JOKER_FORCED,
)


def test_joint_laws_have_the_final_distribution_as_marginal():
    joints = joint_after_rounds(MINI, [3, 6, 7], cap=MINI.max_score)
    dist = score_distribution(MINI, cap=MINI.max_score)
    for y, J in joints.items():
        assert J.sum() == pytest.approx(1.0, abs=1e-12)
        final = J.sum(axis=0)[: len(dist.probability)]
        assert np.abs(final - dist.probability).max() < 1e-14, y
        # the final score is never below the score after Y rounds
        assert np.allclose(np.tril(J, -1), 0.0)
    win, loss, tie = comeback_from_joint(joints[7], 10)
    assert win == 0.0 and tie == 0.0 and loss > 0  # a finished game cannot be turned round


def test_comeback_formula_against_brute_force():
    rng = np.random.default_rng(1)
    J = np.triu(rng.random((6, 12)))
    J /= J.sum()
    for deficit in (1, 2, 3):
        win = loss = tie = 0.0
        for a in range(6):
            for s in range(12):
                for b in range(6):
                    for t in range(12):
                        if b - a < deficit:
                            continue
                        p = J[a, s] * J[b, t]
                        if s > t:
                            win += p
                        elif s < t:
                            loss += p
                        else:
                            tie += p
        got = comeback_from_joint(J, deficit)
        assert got == pytest.approx((win, loss, tie), abs=1e-14)


def test_comeback_study_json_has_null_where_the_condition_never_holds():
    import json

    from gamelab.core.serialise import to_json
    from gamelab.yatzy.comeback import comeback_study

    # its own name: the comeback cache is keyed by the rule set's name
    rules = RuleSet("mini-comeback", MINI.boxes, 35, 100, JOKER_FORCED)
    study = comeback_study(rules, cap=120)
    doc = json.loads(to_json(study))
    assert doc["rounds"] == list(study.rounds) and len(doc["p_win"]) == len(study.rounds)
    for row, values in zip(doc["p_win"], study.p_win, strict=True):
        assert [v is None for v in row] == [bool(np.isnan(v)) for v in values]
