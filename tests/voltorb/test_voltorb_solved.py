"""Solved deals (issue 47, item 5): one exact search per deal serves the rest of its round, in
this process and, once stored, in any other."""

import numpy as np
import pytest

from gamelab.voltorb import solved
from gamelab.voltorb.assistant import Policy, playing_posterior, solve_position
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


# -- a search split across processes (issue 47, item 5) ---------------------------------------
def _split_in_process(post, groups, shared_position):
    """(first tiles, decision) of a split search whose parts run one after another in this
    process, each with its own solver (as separate processes would): with `shared_position`
    every part may take every tile from one position counter, else each part has its own group
    of tiles. The combination is stored in a new solver, which then decides."""
    from gamelab.voltorb.info_tree import revealed_code
    from gamelab.voltorb.search_parts import combine_parts

    kw = {"small_max": 0, "wide_max": 0}  # the general search at every size (splittable)
    revealed = dict(post.revealed)
    order = OptimalSolver(post, **kw).first_tiles(revealed)
    if len(order) < 2:
        return order, None
    shared = np.array([-1.0, 0.0, 25.0])
    parts = []
    for tiles in groups(order):
        if not shared_position:
            shared[1] = 0.0
        parts.append(OptimalSolver(post, **kw).search_part(revealed, tiles, shared, order))
    tile, value = combine_parts(order, parts)
    solver = OptimalSolver(post, **kw)
    code = np.array([revealed_code(revealed)])
    solver.add_solved_states(code, np.array([value]), np.array([tile], dtype=np.int8))
    return order, solver.decide(revealed)


def _random_posteriors(n, levels, max_count, seed):
    from gamelab.voltorb.posterior import posterior_for
    from gamelab.voltorb.rules import Clues, generate_board

    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        level = levels[len(out) % len(levels)]
        board, _ = generate_board(VoltorbSetting(level), rng)
        post = posterior_for(Clues.from_board(board), VoltorbSetting(level))
        if 3 <= post.count <= max_count:
            out.append(post)
    return out


def test_a_split_search_gives_the_whole_search_tile_and_value():
    """Parts of the first flips (disjoint halves; or two parts taking tiles as they come, the
    second seeing the first's bound) combine to exactly the whole search's tile and value, on
    random states of levels 1-8."""
    checked = 0
    for post in _random_posteriors(40, [1, 3, 5, 8], 800, seed=5):
        whole = OptimalSolver(post, small_max=0, wide_max=0).decide(dict(post.revealed))
        for shared_position, groups in (
            (False, lambda o: [o[0::2], o[1::2]]),
            (False, lambda o: [o[:1], o[1:]]),
            (True, lambda o: [o, o]),
        ):
            order, split = _split_in_process(post, groups, shared_position)
            if split is not None:
                assert split == whole
                checked += 1
    assert checked >= 30, checked


def test_split_decide_in_two_processes_equals_one_search(fresh, monkeypatch):
    """The library's split (two worker processes sharing a bound), as the web's exact job runs
    it (budget.exact_call with the server's solver processes), answers what one search does,
    and keeps the deal's solved states: the next decision is a lookup."""
    from gamelab.voltorb import budget
    from gamelab.voltorb.budget import exact_call, exact_split_position

    level = 3
    rows, cols = "5,1 5,2 3,2 7,1 5,2", "3,2 6,1 7,2 5,1 4,2"  # 1,969 boards, no safe tile
    clues = clues_from_text(rows, cols)
    monkeypatch.setattr(solved, "SPLIT_MIN_BOARDS", 1000)
    question = (Position.parse(rows, cols, []), VoltorbSetting(level), Policy("optimal"))
    # two processes answer no sooner than one (budget.SPLIT_PROCESSES_MIN): one search
    assert exact_call(*question, processes=2)[0] is not exact_split_position
    monkeypatch.setattr(budget, "SPLIT_PROCESSES_MIN", 2)
    fn, args = exact_call(*question, processes=2)
    assert fn is exact_split_position
    answer = fn(*args)
    assert len(solved.LAST_SPLIT) == 2
    solver = solved.deal_solver(clues, VoltorbSetting(level))
    nodes = solver.nodes
    tile, value = solver.decide({})
    assert solver.nodes == nodes  # the root and its children are in the memo
    post = playing_posterior(clues, {}, VoltorbSetting(level))
    assert OptimalSolver(post).decide({}) == (tile, value)
    assert answer.win_probability == pytest.approx(value, abs=1e-6)  # (rounded for display)
    assert answer.recommended == [tile // 5 + 1, tile % 5 + 1]
    with pytest.raises(ValueError, match="at least 1"):
        solved.split_decide(clues, VoltorbSetting(level), {}, 0)
    with pytest.raises(ValueError, match="at least 1"):
        exact_call(
            Position.parse(rows, cols, []), VoltorbSetting(level), Policy("optimal"), processes=0
        )
