"""Issue 26 item 1 (speed): the multi-word search of mid-size states and the inseparable-boards
lists, each against its plain-Python twin, and the solver's value unchanged by either."""

import numpy as np
import pytest

from gamelab.voltorb._bounds_kernels import (
    board_bits,
    inseparable_lists,
    inseparable_lists_python,
    pair_bound,
    pair_bound_lists,
    pair_bound_python,
)
from gamelab.voltorb._small_kernels import (
    light_first,
    light_first_python,
    small_solve,
    small_solve_python,
)
from gamelab.voltorb._table_kernels import table_new
from gamelab.voltorb._wide_kernels import wide_solve
from gamelab.voltorb.expectimax import OptimalSolver, _clue_rows, choice_value
from gamelab.voltorb.posterior import posterior_for
from gamelab.voltorb.rules import Clues, VoltorbSetting, generate_board

#: the memo's symmetries of a search without any (the identity alone)
NO_SYMMETRY = np.arange(25, dtype=np.int64).reshape(1, 25)


def _posteriors(n, levels, lo, hi, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        level = levels[len(out) % len(levels)]
        board, _ = generate_board(VoltorbSetting(level), rng)
        post = posterior_for(Clues.from_board(board), VoltorbSetting(level))
        if lo <= post.count <= hi:
            out.append(post)
    return out


def _ranked(post):
    """The kernels' numbering: heaviest first, ties in the posterior's order."""
    perm = np.argsort(-post.weights, kind="stable")
    boards = np.ascontiguousarray(post.boards[perm], dtype=np.int8)
    return boards, np.ascontiguousarray(post.weights[perm]), board_bits(boards)


def _counter():
    return np.array([0, 2**62, 0, 0, 0], np.int64)


def test_inseparable_lists_and_their_pair_bound_match_twins():
    rng = np.random.default_rng(40)
    for post in _posteriors(5, [5, 7, 8], 20, 160, seed=41):
        boards, w, bits = _ranked(post)
        n = len(boards)
        start, nbr = inseparable_lists(bits, np.int64(n))
        lists = [[int(x) for x in nbr[start[b] : start[b + 1]]] for b in range(n)]
        assert lists == inseparable_lists_python(boards)
        mark = np.zeros(n + 1, np.int64)
        for _ in range(12):
            idx = np.flatnonzero(rng.random(n) < rng.uniform(0.05, 1.0)).astype(np.int64)
            if idx.size == 0:
                continue
            got = pair_bound_lists(bits, w, idx, start, nbr, mark)
            # the same greedy cover, summed in the same order: equal to the last bit
            assert got == pair_bound(bits, w, idx)
            assert got == pytest.approx(pair_bound_python(boards, w, idx), abs=1e-12)


def test_wide_solve_matches_twin_and_keeps_the_alpha_contract():
    """The multi-word search equals its twin (plain recursion over sets of boards), the one-word
    search where both apply, and keeps the fail-low contract: exact above alpha, else an upper
    bound no more than alpha; with or without the inseparable lists, and with or without the
    symmetries of the clues (one tile of each class tried)."""
    rng = np.random.default_rng(42)
    cases = _posteriors(3, [5, 7, 8], 63, 110, seed=43) + _posteriors(3, [3, 6], 8, 40, seed=44)
    for post in cases:
        boards, w, bits = _ranked(post)
        n = len(boards)
        idx = np.arange(n, dtype=np.int64)
        start, nbr = inseparable_lists(bits, np.int64(n))
        pos = np.full(n, -1, np.int64)
        no_lists = (np.zeros(1, np.int64), np.zeros(0, np.int64))

        clue = _clue_rows(post.clues)

        def solve(
            alpha,
            table,
            lists=(start, nbr),
            sym=True,
            idx=idx,
            args0=(boards, w, bits),
            pos=pos,
            clue=clue,
        ):
            args = (*args0, idx, np.int64(0), alpha, table, _counter())
            return wide_solve(*args, *lists, pos, clue, sym, NO_SYMMETRY)[0]

        exact = solve(-1.0, table_new())
        assert exact == pytest.approx(small_solve_python(boards, w, idx), abs=1e-12)
        assert solve(-1.0, table_new(), no_lists) == pytest.approx(exact, abs=1e-12)
        assert solve(-1.0, table_new(), sym=False) == pytest.approx(exact, abs=1e-12)
        assert (pos == -1).all()
        if n <= 62:
            one_word = small_solve(
                boards, w, bits, idx, np.int64(0), -1.0, table_new(), _counter(), NO_SYMMETRY
            )
            assert one_word[0] == pytest.approx(exact, abs=1e-12)
        table = table_new()
        for alpha in rng.uniform(0.0, 1.0, 4):
            value = solve(alpha, table)
            if exact > alpha + 1e-9:
                assert value == pytest.approx(exact, abs=1e-12)
            else:
                assert exact - 1e-12 <= value <= alpha + 1e-9


def test_the_solver_value_is_the_same_with_every_state_kernel():
    """The optimum and an optimal first tile, through the general search alone, with the
    one-word kernel, and with both kernels (the default), against the Python twin."""
    for post in _posteriors(3, [6, 7, 8], 150, 700, seed=45):
        twin = OptimalSolver(post, python=True).decide({})[1]
        for kw in ({"small_max": 0, "wide_max": 0}, {"wide_max": 0}, {}):
            tile, value = OptimalSolver(post, **kw).decide({})
            assert value == pytest.approx(twin, abs=1e-12)
            # the tile it names is optimal: flipping it first, then playing on, is worth it
            assert choice_value(OptimalSolver(post), {}, tile) == pytest.approx(twin, abs=1e-12)


def test_symmetry_in_the_state_kernels_keeps_the_value_mid_round():
    """One tile of each symmetry class in the multi-word search (its states are reached after
    flips, so their codes have revealed tiles): the same optimum as without symmetry and as the
    Python twin, on mid-round positions whose clues have equal lines."""
    from gamelab.voltorb._bounds_kernels import symmetry_classes

    rng = np.random.default_rng(46)
    checked = 0
    for level in (5, 6, 7, 8, 8, 8):
        while True:
            board, _ = generate_board(VoltorbSetting(level), rng)
            clues = Clues.from_board(board)
            clue = _clue_rows(clues)
            if (symmetry_classes(clue, np.int64(0)) != np.arange(25)).any():
                break
        flat = np.asarray(board).reshape(-1)
        safe = [t for t in range(25) if flat[t] != 0]
        for n_shown in (0, 1, 2):
            shown = {int(t): int(flat[t]) for t in rng.choice(safe, n_shown, replace=False)}
            post = posterior_for(clues, VoltorbSetting(level), shown)
            if not 20 <= post.count <= 1500:
                continue
            twin = OptimalSolver(post, python=True).decide(shown)[1] if post.count <= 400 else None
            plain = OptimalSolver(post, symmetry=False).decide(shown)[1]
            value = OptimalSolver(post).decide(shown)[1]
            assert value == pytest.approx(plain, abs=1e-12)
            if twin is not None:
                assert value == pytest.approx(twin, abs=1e-12)
            checked += 1
    assert checked >= 6


def test_light_first_matches_twin():
    """The order of a flip's children in the searches: fewest boards first, ties by value."""
    rng = np.random.default_rng(8)
    for _ in range(200):
        counts = rng.integers(0, 4, size=4).astype(np.int64)
        values = np.zeros(4, np.int64)
        light_first(counts, values)
        assert values[1:].tolist() == light_first_python(counts)
        assert sorted(values[1:].tolist()) == [1, 2, 3]
