"""Solved deals (issue 47, item 5): one exact search per deal serves the rest of its round, in
this process and, once stored, in any other."""

import numpy as np
import pytest

from gamelab.voltorb import solved
from gamelab.voltorb.assistant import playing_posterior, solve_position
from gamelab.voltorb.expectimax import OptimalSolver
from gamelab.voltorb.practice import new_practice, play_practice
from gamelab.voltorb.rules import Position, VoltorbSetting, clues_from_text


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    monkeypatch.setenv("GAMELAB_CACHE", str(tmp_path))
    solved.forget()
    yield tmp_path
    solved.forget()


def _deal(level=5, seed=7):
    deal = new_practice(VoltorbSetting(level), seed)
    return deal.rows, deal.cols, clues_from_text(deal.rows, deal.cols)


def test_after_the_recommended_flip_the_next_decision_needs_no_search(fresh):
    level, seed = 5, 7
    rows, cols, clues = _deal(level, seed)
    first = solve_position(Position.parse(rows, cols, []), VoltorbSetting(level))
    solver = solved.deal_solver(clues, VoltorbSetting(level))
    nodes = solver.nodes
    assert nodes > 0
    r, c = first.recommended
    shown = play_practice(VoltorbSetting(level), seed, [[r, c]]).revealed[0][2]
    revealed = [f"{r},{c}={shown}"]
    later = solve_position(Position.parse(rows, cols, revealed), VoltorbSetting(level))
    assert solver.nodes == nodes  # answered from what the first search solved
    # the same answer as a search of that position alone
    post = playing_posterior(clues, {(r - 1) * 5 + c - 1: shown}, VoltorbSetting(level))
    tile, p = OptimalSolver(post).decide(dict(post.revealed))
    assert later.win_probability == pytest.approx(p, abs=1e-12)
    assert later.recommended == [tile // 5 + 1, tile % 5 + 1]


def test_a_stored_deal_answers_in_another_process_without_a_search(fresh, monkeypatch):
    level = 5
    rows, cols, clues = _deal(level)
    monkeypatch.setattr(solved, "STORE_MIN_STATES", 1)
    first = solve_position(Position.parse(rows, cols, []), VoltorbSetting(level))
    assert list((fresh / solved.TABLE).glob("*.npz"))
    solved.forget()  # as a new process would start
    again = solve_position(
        Position.parse(rows, cols, []), VoltorbSetting(level), state_limit=1
    )  # no room for a search
    assert again.answer == "optimal" and again.win_probability == first.win_probability
    assert again.recommended == first.recommended
    # a stored table that does not match the deal's weights is not used
    from gamelab.core.cache import load_arrays, save_arrays

    (path,) = (fresh / solved.TABLE).glob("*.npz")
    arrays = dict(load_arrays(path))
    arrays["check"] = arrays["check"] + 1.0
    save_arrays(path, arrays)
    solved.forget()
    assert solve_position(
        Position.parse(rows, cols, []), VoltorbSetting(level), state_limit=1
    ).answer.startswith("fallback")


def test_solved_states_carry_over_to_a_solver_of_the_same_deal(fresh):
    rows, cols, clues = _deal(4, 11)
    post = playing_posterior(clues, {}, VoltorbSetting(4))
    one = OptimalSolver(post)
    tile, p = one.decide({})
    other = OptimalSolver(post, state_limit=1, keep_memo=True)
    other.add_solved_states(*one.solved_states())
    assert other.decide({}) == (tile, p)
    with pytest.raises(ValueError, match="same length"):
        other.add_solved_states(np.zeros(2, np.int64), np.zeros(1), np.zeros(2, np.int8))
