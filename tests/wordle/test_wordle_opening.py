"""The opening proof (`gamelab.wordle.solver.opening`): every first guess evaluated exactly or refuted
by a proven bound, checked against the exact value of each opening on its own."""

import pytest
from test_wordle_optimal import random_words

from gamelab.core.parallel import Backend
from gamelab.core.results import ResultStore
from gamelab.wordle.rules import Setting, load_word_list, parse_names, parse_setting
from gamelab.wordle.solver.opening import EXPERIMENT, prove_opening
from gamelab.wordle.solver.optimal import INF, OptimalSolver
from gamelab.wordle.table import Game

ONE = Backend(workers=1, quiet=True)


def opening_values(game, hard, limit):
    """Each first guess's exact total, opening by opening (``solve-optimal --first``)."""
    out = {}
    for g, word in enumerate(game.words.guesses):
        res = OptimalSolver(Setting(game.words, game.rule, hard, limit)).solve_first(g)
        out[word] = INF if res.total is None else res.total
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("hard", [None, "game", "strict"])
def test_every_row_is_exact_or_a_valid_refutation(seed, hard):
    game = Game(random_words(200 + seed, n_answers=14, n_extra=10), "standard")
    truth = opening_values(game, hard, 4)
    proof = prove_opening(Setting(game.words, game.rule, hard, 4), chunk=5, backend=ONE)
    best = min(truth.values())
    assert proof.complete and proof.openings_done == game.n_guesses
    if best >= INF:
        assert not proof.proven and proof.best is None
        return
    assert proof.proven and proof.best == best
    assert proof.best_guesses == sorted(w for w, v in truth.items() if v == best)
    assert proof.budget > best
    for row in proof.rows:
        true = truth[row.guess]
        if row.exact:
            assert row.value == true < proof.budget
        else:  # a refutation: a proven bound, at or above the budget
            assert (INF if row.value is None else row.value) <= true
            assert (INF if row.value is None else row.value) >= proof.budget
    # a margin makes the top of the table exact
    wide = prove_opening(Setting(game.words, game.rule, hard, 4), margin=3, chunk=5, backend=ONE)
    assert [r.guess for r in wide.rows if r.exact] == sorted(
        (w for w, v in truth.items() if v <= wide.budget - 1), key=lambda w: (truth[w], w)
    )


def test_gen1_opening_agrees_with_the_optimal_solver():
    game = Game(load_word_list(parse_names("gen1")), "standard")
    proof = prove_opening(parse_setting(game.words, game.rule, None), backend=ONE)
    whole = OptimalSolver(Setting(game.words, game.rule, None, 10)).solve()
    assert proof.proven and proof.best == whole.total
    assert proof.best_guesses == whole.first_guesses == ["ワンリキー"]  # (review.py's doctest)


@pytest.mark.slow
def test_gen1_4_blog_opening_is_proven_and_the_post_ranks_below():
    # the post's setting: ジーランス 964 is the only best opening (docs/wordle.md), and its
    # pruned-search runner-up レントラー is exactly 968 (the post's pruned figure, here optimal)
    game = Game(load_word_list(parse_names("gen1-4")), "blog")
    proof = prove_opening(parse_setting(game.words, game.rule, None), margin=4, backend=ONE)
    assert proof.proven and proof.best == 964 and proof.best_guesses == ["ジーランス"]
    exact = {r.guess: r.value for r in proof.rows if r.exact}
    assert exact["レントラー"] == 968 and all(v < proof.budget for v in exact.values())
    assert proof.budget >= 964 + 4 + 1  # (the margin counts from the seeds' best, >= the best)
    assert sum(proof.settled.values()) == 493 and proof.cpu_seconds > 0


def test_a_cpu_budget_stops_and_the_store_resumes(tmp_path):
    game = Game(random_words(7, n_answers=16, n_extra=12), "standard")
    store = ResultStore(tmp_path / "r.sqlite")
    first = prove_opening(
        Setting(game.words, game.rule, None, 5), chunk=2, backend=ONE, store=store, cpu_budget=1e-9
    )
    assert not first.complete and 0 < first.openings_done < game.n_guesses
    assert first.cpu_seconds_left is not None and "run again to resume" in first.statement
    again = prove_opening(
        Setting(game.words, game.rule, None, 5), chunk=2, backend=ONE, store=store
    )
    assert again.complete and again.proven
    whole = prove_opening(Setting(game.words, game.rule, None, 5), chunk=2, backend=ONE)
    assert again.rows == whole.rows or [(r.guess, r.value, r.exact) for r in again.rows] == [
        (r.guess, r.value, r.exact) for r in whole.rows
    ]
    assert any(e == EXPERIMENT for e, _, _ in store.experiments())


def test_bad_options_are_refused():
    game = Game(random_words(3), "blog")
    with pytest.raises(ValueError, match="standard feedback rule"):
        prove_opening(parse_setting(game.words, game.rule, "game"))
    with pytest.raises(ValueError, match="margin"):
        prove_opening(parse_setting(random_words(3), "standard", None), margin=-1)


@pytest.mark.parametrize("limit", [None, 2, 3, 4])
def test_class_bounds_kernel_matches_twin(limit):
    """The one-pass two-level bound (numba engine, normal mode) gives every opening the same
    bound as the class-by-class one (the Python engine), with and without a guess limit; and
    the kernel equals its twin on the classes of each opening."""
    import numpy as np

    from gamelab.wordle.solver._bound_kernels import class_bounds, class_bounds_python

    for game in (
        Game(load_word_list(parse_names("gen1")), "standard"),
        Game(random_words(7, n_answers=40, n_extra=30), "standard"),
    ):
        fast = OptimalSolver(Setting(game.words, game.rule, None, limit))
        slow = OptimalSolver(Setting(game.words, game.rule, None, limit), engine="python")
        fast_b = [fast.opening_bound(g) for g in range(game.n_guesses)]
        assert fast_b == [slow.opening_bound(g) for g in range(game.n_guesses)]
        assert limit is not None or min(fast_b) < INF
        rem = -1 if limit is None else limit - 2
        for g in range(0, game.n_guesses, 7):
            parts = [p for p in game.partition(g, game.all_answers()).values() if len(p) >= 3]
            if not parts:
                continue
            sizes = np.array([len(p) for p in parts], dtype=np.int64)
            members = np.concatenate(parts)
            order = np.argsort(members, kind="stable")
            cls = np.repeat(np.arange(len(parts)), sizes)[order]
            args = (game.table, members[order], cls, sizes, fast._splitters_first())
            rest = (game.n_codes, game.answer_of_guess, rem)
            assert (class_bounds(*args, *rest) == class_bounds_python(*args, *rest)).all()
