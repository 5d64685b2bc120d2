"""The assistant's analysis with a policy (what `voltorb solve` and the web page show)."""

import doctest

import numpy as np
import pytest

import gamelab.voltorb.assistant as assistant
from gamelab.voltorb.assistant import Policy, playing_posterior, solve_position
from gamelab.voltorb.evaluate import exact_win_probability
from gamelab.voltorb.posterior import posterior_for
from gamelab.voltorb.rules import Clues, Position, VoltorbSetting, clues_from_text, generate_board

ROWS, COLS = "4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"


def test_docstring_examples():
    assert doctest.testmod(assistant).failed == 0


def test_policies_share_the_odds_and_the_optimal_value():
    optimal = solve_position(Position.parse(ROWS, COLS), VoltorbSetting(2))
    minrisk = solve_position(Position.parse(ROWS, COLS), VoltorbSetting(2), Policy.parse("minrisk"))
    fom = solve_position(Position.parse(ROWS, COLS), VoltorbSetting(2), Policy.parse("fom"))
    cheap = solve_position(
        Position.parse(ROWS, COLS), VoltorbSetting(2), Policy.parse("minrisk", False)
    )
    for other in (minrisk, fom, cheap):
        assert other.p_voltorb == optimal.p_voltorb and other.consistent_boards == 198
    assert minrisk.win_probability == optimal.win_probability and cheap.win_probability is None
    assert (optimal.policy, minrisk.policy, fom.policy) == ("optimal", "minrisk", "fom")
    post = posterior_for(clues_from_text(ROWS, COLS), VoltorbSetting(2))
    assert optimal.win_probability == pytest.approx(
        exact_win_probability(post, "optimal"), abs=1e-12
    )
    # the blog's FoM flips a Voltorb-free line first: row 2, left to right
    assert fom.recommended == [2, 1]
    # a safe useful tile is never a Voltorb
    r, c = minrisk.recommended
    assert minrisk.p_voltorb[r - 1][c - 1] == 0.0


def test_bad_positions_are_value_errors():
    with pytest.raises(ValueError, match="allowed: optimal, minrisk, fom"):
        solve_position(Position.parse(ROWS, COLS), VoltorbSetting(2), Policy.parse("greedy"))
    with pytest.raises(ValueError, match="optimal policy needs its search"):
        solve_position(
            Position.parse(ROWS, COLS), VoltorbSetting(2), Policy.parse("optimal", False)
        )
    assert (
        solve_position(
            Position.parse(ROWS, COLS), VoltorbSetting(2), Policy.parse(None, False)
        ).policy
        == "minrisk"
    )  # --no-optimal
    with pytest.raises(ValueError, match="row 2"):
        solve_position(Position.parse(ROWS, COLS, ["2,1=0"]), VoltorbSetting(2))
    board, _ = generate_board(VoltorbSetting(1), np.random.default_rng(5))
    clues = Clues.from_board(board)
    every_multiplier = {t: int(v) for t, v in enumerate(board.reshape(-1)) if v >= 2}
    with pytest.raises(ValueError, match="the round is won"):
        playing_posterior(clues, every_multiplier, VoltorbSetting(1))


def test_state_limit_gives_the_labelled_minrisk_answer():
    from gamelab.voltorb.expectimax import OptimalSolver, SearchLimitError
    from gamelab.voltorb.practice import practice_board

    for seed in range(50):  # the first level-8 deal whose optimal search needs over 300 states
        clues = Clues.from_board(practice_board(VoltorbSetting(), seed))
        try:
            OptimalSolver(posterior_for(clues, VoltorbSetting()), state_limit=300).decide({})
        except SearchLimitError:
            break
    else:
        pytest.fail("no level-8 deal in 50 needs more than 300 states")
    rows, cols = clues.as_text()
    cut = solve_position(Position.parse(rows, cols), VoltorbSetting(), state_limit=300)
    assert cut.note == "exact optimal search stopped after 300 states; showing MinRisk"
    assert cut.policy == "minrisk" and cut.win_probability is None
    cheap = solve_position(Position.parse(rows, cols), VoltorbSetting(), Policy.parse(None, False))
    assert cut.recommended == cheap.recommended and cut.p_voltorb == cheap.p_voltorb
    # fom's own P(win) search cuts on its own deals (not always the optimal search's)
    for seed in range(50):
        rows, cols = Clues.from_board(practice_board(VoltorbSetting(), seed)).as_text()
        fom = solve_position(
            Position.parse(rows, cols), VoltorbSetting(), Policy.parse("fom"), state_limit=300
        )
        if fom.note is not None:
            break
    else:
        pytest.fail("no level-8 deal in 50 needs more than 300 states for fom's P(win)")
    assert fom.note.endswith("showing fom without P(win)") and fom.policy == "fom"
    assert fom.win_probability is None
    whole = solve_position(Position.parse(rows, cols), VoltorbSetting(), Policy.parse("fom"))
    assert whole.note is None and whole.recommended == fom.recommended
