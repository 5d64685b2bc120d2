"""The risk-taking player: risky keep vs its twin, duel kernel vs the game kernel."""

import numpy as np
import pytest

from gamelab.core.parallel import Backend
from gamelab.yatzy._play_kernels import duel_games, risky_keep, risky_keep_python
from gamelab.yatzy.risk import parse_rounds, positions, risk_study
from gamelab.yatzy.rules import KEEPS, ROLLS, RULES, get_rules
from gamelab.yatzy.simulate import draw_uniforms, play_scores, strategy_values


def test_risky_keep_matches_twin():
    rng = np.random.default_rng(0)
    for _ in range(30):
        V3 = rng.normal(size=252)
        r = int(rng.integers(0, 252))
        v = int(rng.integers(1, 6))
        k = risky_keep(r, V3, v)
        assert k == risky_keep_python(r, V3, v)
        assert (KEEPS[k] <= ROLLS[r]).all() and KEEPS[k].sum() >= v


def test_risky_keep_valence_one_goes_for_yahtzee():
    # thesis: valence 1 means going for a Yatzy whenever possible
    V3 = np.zeros(252)
    six5 = [i for i, r in enumerate(ROLLS) if r[5] == 5][0]
    V3[six5] = 100.0
    r = [i for i, x in enumerate(ROLLS) if list(x) == [1, 1, 1, 1, 0, 1]][0]
    assert KEEPS[risky_keep(r, V3, 1)].tolist() == [0, 0, 0, 0, 0, 1]


def test_duel_kernel_agrees_with_game_kernel():
    rules = get_rules("yahtzee-no-bonus")
    E = strategy_values(rules, "optimal")
    rng = np.random.default_rng(4)
    ua, ub = draw_uniforms(rules, 5, rng), draw_uniforms(rules, 5, rng)
    start = np.zeros((5, 4), dtype=np.int64)
    diff = np.empty(5, dtype=np.int64)
    duel_games(E, start, start, ua, ub, 10**6, 2, rules.kernel_rules(), diff)
    assert (
        diff.tolist()
        == (play_scores(rules, "optimal", ub) - play_scores(rules, "optimal", ua)).tolist()
    )
    pos = positions(rules, 13, 5, np.random.default_rng(1))
    assert (pos[:, 0] == (1 << 13) - 1).all() and (pos[:, 3] > 0).all()


def test_risk_study_small():
    study = risk_study(
        RULES["yahtzee-no-bonus"],
        rounds=[11],
        valence=2,
        games_per_cell=300,
        chunk=150,
        backend=Backend(workers=1, quiet=True),
        deficits=[20],
    )
    (row,) = study.rows
    assert row.games == 300 and 0 <= row.opt.value <= 0.5
    assert row.win_difference.lo <= row.win_difference.value <= row.win_difference.hi
    assert row.win_difference.n == 300


@pytest.mark.parametrize(
    "rounds, message",
    [
        ([13], "rounds Y must be between 0 and 12 (rounds both players have played), got 13"),
        ([7, -1], "rounds Y must be between 0 and 12 (rounds both players have played), got -1"),
        ([], "give at least one round Y, like 7,8,9"),
        ([7, 8, 7], "round 7 is listed twice"),
    ],
)
def test_risk_study_refuses_bad_rounds_before_playing(monkeypatch, rounds, message):
    """The rounds are the library's to check, in one message for every shell (the command line
    says it too), and before a single game is played."""
    import gamelab.yatzy.risk

    def played(*args, **kwargs):
        raise AssertionError("games were played")

    monkeypatch.setattr(gamelab.yatzy.risk, "run_tasks", played)
    with pytest.raises(ValueError) as e:
        risk_study(RULES["yahtzee"], rounds=rounds, games_per_cell=10)
    assert str(e.value) == message


@pytest.mark.parametrize(
    "text, message",
    [
        ("7,x", "rounds Y must be whole numbers like 7,8,9, got '7,x'"),
        ("13", "rounds Y must be between 0 and 12 (rounds both players have played), got 13"),
        (" , ", "give at least one round Y, like 7,8,9"),
    ],
)
def test_parse_rounds_says_what_is_wrong(text, message):
    with pytest.raises(ValueError) as e:
        parse_rounds(text, RULES["yahtzee"])
    assert str(e.value) == message
    assert parse_rounds(" 7, 12", RULES["yahtzee"]) == (7, 12)
