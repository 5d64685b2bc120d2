"""Issue 50 item 6 (a first answer without compiling): the win search of a small position runs
interpreted (the kernels' own source, :mod:`gamelab.core.tiers`) while its kernels are not
compiled, and gives what the kernels give: the same tile, value, states and memo."""

import contextlib
import os
import subprocess
import sys

import numpy as np
import pytest

import gamelab.voltorb.expectimax as expectimax
import gamelab.voltorb.interpreted as python_tier
from gamelab.core.tiers import compiled_kernels
from gamelab.voltorb._bounds_kernels import board_bits, inseparable_lists
from gamelab.voltorb.expectimax import OptimalSolver, SearchLimitError
from gamelab.voltorb.posterior import playing_posterior
from gamelab.voltorb.rules import Clues, Position, VoltorbSetting, generate_board

README_ROWS, README_COLS = "4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"


def _positions(n, seed, max_boards=512):
    """Positions of random deals (levels 1-8, a few tiles revealed) small enough for the
    bit-mask searches, as (posterior, revealed)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        setting = VoltorbSetting(int(rng.integers(1, 9)))
        board, _ = generate_board(setting, rng)
        board = board.reshape(-1)
        revealed = {
            int(t): int(board[t]) for t in rng.permutation(25)[: rng.integers(0, 4)] if board[t]
        }
        post = playing_posterior(Clues.from_board(board), revealed, setting)
        if 2 < post.count <= max_boards:
            out.append((post, revealed))
    return out


@pytest.fixture
def interpreted(monkeypatch):
    """Searches run interpreted whatever numba's cache holds, with a fresh process budget."""
    monkeypatch.setattr(expectimax, "has_machine_code", lambda kernel, args: False)
    monkeypatch.setattr(expectimax, "_interpreted", [0])
    monkeypatch.setattr(expectimax, "_compiled", [False])
    return monkeypatch


def _search(post, revealed, **options):
    solver = OptimalSolver(post, **options)
    answer = solver.decide(revealed)
    return solver, answer


def test_the_interpreted_search_gives_the_kernels_answer_states_and_memo(interpreted):
    for post, revealed in _positions(10, seed=50):
        with compiled_kernels():
            kernel, kernel_answer = _search(post, revealed)
        before = expectimax._interpreted[0]
        python, python_answer = _search(post, revealed)
        assert expectimax._interpreted[0] - before == python.nodes > 0  # it ran interpreted
        assert python_answer == kernel_answer  # the tile, and the value to the last bit
        assert python.nodes == kernel.nodes
        assert np.array_equal(python._table, kernel._table)


def test_a_search_past_its_interpreted_budget_is_undone_and_run_by_the_kernels(interpreted):
    interpreted.setattr(expectimax, "INTERPRETED_SEARCH_STATES", 5)
    post, revealed = max(_positions(6, seed=51), key=lambda p: p[0].count)
    with compiled_kernels():
        kernel, kernel_answer = _search(post, revealed)
    assert kernel.nodes > 5
    solver, answer = _search(post, revealed)
    assert expectimax._interpreted[0] == 6  # it tried, stopped after 5 states...
    assert answer == kernel_answer and solver.nodes == kernel.nodes  # ...and started again
    assert np.array_equal(solver._table, kernel._table)
    # the process's budget spent: the kernels run at once
    interpreted.setattr(expectimax, "_interpreted", [expectimax.INTERPRETED_STATES])
    assert _search(post, revealed)[1] == kernel_answer


def test_the_callers_state_limit_stops_an_interpreted_search_as_it_stops_the_kernels(
    interpreted,
):
    post, revealed = max(_positions(6, seed=51), key=lambda p: p[0].count)
    for run in (compiled_kernels, contextlib.nullcontext):
        with run(), pytest.raises(SearchLimitError):
            _search(post, revealed, state_limit=3)


def test_the_numpy_inseparable_lists_are_the_kernels():
    for post, _ in _positions(4, seed=52, max_boards=2000):
        bits = board_bits(np.ascontiguousarray(post.boards, dtype=np.int8))
        n = len(bits)
        start, nbr = python_tier.inseparable_lists_numpy(bits, n)
        kernel_start, kernel_nbr = inseparable_lists(bits, np.int64(n))
        assert np.array_equal(start, kernel_start) and np.array_equal(nbr, kernel_nbr)
        assert start.dtype == nbr.dtype == np.int64


def test_the_readme_example_compiles_nothing_and_answers_as_the_kernels(tmp_path):
    """The README's first example on empty caches, as a user runs it: nothing is compiled (no
    index file in numba's cache, no notice) and the document is the kernels' (here, in this
    process)."""
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "GAMELAB_CACHE": str(tmp_path / "cache"),
        "GAMELAB_RESULTS": str(tmp_path / "results.sqlite"),
    }
    argv = [sys.executable, "-c", "from gamelab.entry import main; main()"]
    argv += ["voltorb", "solve", "--rows", README_ROWS]
    argv += ["--cols", README_COLS, "--level", "2", "--json"]
    run = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    cached = sorted(p.name for p in (tmp_path / "numba").rglob("*.nbi"))
    assert not cached and "compiling" not in run.stderr, (cached, run.stderr)

    from gamelab.core.serialise import to_json
    from gamelab.voltorb import solved
    from gamelab.voltorb.assistant import solve_position

    solved.forget()
    with compiled_kernels():
        document = solve_position(Position.parse(README_ROWS, README_COLS), VoltorbSetting(2))
    solved.forget()
    assert run.stdout.strip() == to_json(document).strip()


def test_once_the_kernels_are_at_hand_no_search_asks_numbas_cache_again(monkeypatch):
    asked = []
    monkeypatch.setattr(expectimax, "has_machine_code", lambda k, a: asked.append(1) or True)
    monkeypatch.setattr(expectimax, "_compiled", [False])
    monkeypatch.setattr(expectimax, "_interpreted", [0])  # (whatever this process interpreted)
    for post, revealed in _positions(3, seed=53):
        _search(post, revealed)
    assert asked == [1]  # (a per-search check cost 0.2 ms: 40 % of a small position's search)


def test_the_interpreted_enumeration_is_the_kernels(monkeypatch):
    from gamelab.voltorb import posterior
    from gamelab.voltorb._posterior_kernels import ROW_PATTERNS, enumerate_boards

    monkeypatch.setattr(posterior.ENUMERATION, "compiled", False)
    monkeypatch.setattr(posterior.ENUMERATION, "spent", 0.0)
    monkeypatch.setattr("gamelab.core.tiers.has_machine_code", lambda kernel, args: False)
    rng = np.random.default_rng(54)
    for level in (1, 2, 4, 8):
        board, _ = generate_board(VoltorbSetting(level), rng)
        c = Clues.from_board(board.reshape(-1))
        known = np.full(25, -1, dtype=np.int64)
        known[3] = board.reshape(-1)[3]
        call = (ROW_PATTERNS, c.row_sums, c.row_voltorbs, c.col_sums, c.col_voltorbs, known)
        spent = posterior.ENUMERATION.spent
        boards, features = posterior.ENUMERATION(*call)
        assert posterior.ENUMERATION.spent > spent  # it ran interpreted
        kernel_boards, kernel_features = enumerate_boards(*call)
        assert np.array_equal(boards, kernel_boards) and boards.dtype == kernel_boards.dtype
        assert np.array_equal(features, kernel_features)


def test_an_interrupted_interpreted_search_leaves_the_solver_as_it_was(interpreted):
    post, revealed = max(_positions(6, seed=51), key=lambda p: p[0].count)
    solver = OptimalSolver(post)
    table, counter = solver._table.copy(), solver._counter.copy()
    copies = python_tier.python_search()
    calls = []

    def stop_midway(*args):
        calls.append(1)
        if len(calls) > 3:
            raise KeyboardInterrupt
        return store(*args)

    store = copies.win_search.__globals__["memo_store"]
    interpreted.setitem(copies.win_search.__globals__, "memo_store", stop_midway)
    with pytest.raises(KeyboardInterrupt):
        solver.decide(revealed)
    kept = [0, 2, 3, 4]  # (counter[1] is the limit, set by every call)
    assert np.array_equal(solver._table, table)
    assert np.array_equal(solver._counter[kept], counter[kept])
    interpreted.setitem(copies.win_search.__globals__, "memo_store", store)
    with compiled_kernels():
        assert solver.decide(revealed) == _search(post, revealed)[1]
