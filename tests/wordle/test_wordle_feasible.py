"""The feasibility search (is there a strategy within a guess limit?) against its plain-Python
twin, against the optimal solver's depth-limited optimum, and as a resumable parallel job."""

import numpy as np
import pytest
from test_wordle_search_kernel import clustered_words

from gamelab.core.parallel import Backend
from gamelab.core.results import ResultStore
from gamelab.wordle.rules import Setting, parse_names, pokemon_word_list
from gamelab.wordle.solver import _feasible_kernels as fk
from gamelab.wordle.solver.feasible import (
    FeasibleSearch,
    HardFeasibleSearch,
    allow_masks_python,
    feasible_python,
    feasible_within,
    hard_feasibility_fits,
    hard_feasible_python,
    pool_mask,
    prove_feasible,
)
from gamelab.wordle.solver.optimal import OptimalSolver
from gamelab.wordle.table import Game


def test_pair_bits_kernel_matches_twin():
    game = Game(clustered_words(0), "standard")
    tab = np.ascontiguousarray(game.table)
    guesses = np.array([0, 3, 5, 8, 13, 21, 34, 55, 60, 61, 62, 63, 64, 65, 70], dtype=np.int32)
    guesses = guesses[guesses < game.n_guesses]
    assert np.array_equal(fk.pair_bits_kernel(tab, guesses), fk.pair_bits_python(tab, guesses))


@pytest.mark.parametrize("use_bits", [True, False])
def test_feasible_kernel_matches_twin_on_random_sets(use_bits):
    game = Game(pokemon_word_list(parse_names("gen1-4")), "blog")
    search = FeasibleSearch(game)
    rng = np.random.default_rng(7)
    checked = {True: 0, False: 0}
    for _ in range(25):
        guesses = np.sort(rng.choice(game.n_guesses, 24, replace=False)).astype(np.int32)
        search.use_guesses(guesses)  # clears the memo
        if not use_bits:
            search.bits = np.zeros((0, 0, 0), dtype=np.uint64)
        memo: dict = {}
        # several questions on one memo: limits and overlapping sets answer from it
        for _ in range(4):
            n = int(rng.integers(2, 11))
            cands = np.sort(rng.choice(game.n_answers, n, replace=False)).astype(np.int32)
            depth = int(rng.integers(1, 5))
            fast = search.feasible(cands, depth)
            assert fast == feasible_python(game.table, cands, depth, guesses, memo)
            checked[fast] += 1
    assert checked[True] > 10 and checked[False] > 10  # both answers were exercised


@pytest.mark.parametrize("seed", range(3))
def test_feasible_agrees_with_the_optimum_under_each_limit(seed):
    game = Game(clustered_words(seed), "standard")
    search = FeasibleSearch(game)
    answers = game.all_answers()
    seen = set()
    for limit in (2, 3, 4, 5):
        best = OptimalSolver(Setting(game.words, game.rule, None, limit)).solve()
        assert best.proven or best.total is None
        feasible = search.feasible(answers, limit)
        assert feasible == (best.total is not None)
        job = prove_feasible(
            Setting(game.words, game.rule, None, limit),
            backend=Backend(workers=1, quiet=True),
            chunk=7,
        )
        assert job.feasible == feasible
        assert job.openings_checked == game.n_guesses
        # each first guess agrees with the optimal solver's exact value of that opening
        for row in job.openings[:: max(1, game.n_guesses // 12)]:
            g = game.words.guesses.index(row.guess)
            one = OptimalSolver(Setting(game.words, game.rule, None, limit)).solve_first(g)
            assert row.feasible == (one.total is not None)
            if not row.feasible:
                sub = np.array([game.words.answers.index(a) for a in row.refuting_class])
                assert not search.feasible(sub, limit - 1)
        if best.total is not None:
            assert best.first_guesses[0] in job.feasible_first_guesses
        seen.add(feasible)
    assert seen == {True, False}


@pytest.mark.parametrize("seed", range(3))
def test_feasible_within_agrees_with_the_optimum_and_stops_when_told(seed):
    """`feasible_within` (the depth limits' first question in solve-optimal) answers as the
    optimal solver under each limit, and None when its clock says stop."""
    game = Game(clustered_words(seed), "standard")
    seen = set()
    for limit in (2, 3, 4, 5):
        setting = Setting(game.words, game.rule, None, limit)
        best = OptimalSolver(setting).solve()
        assert feasible_within(setting, lambda: False) == (best.total is not None)
        assert feasible_within(setting, lambda: True) is None
        seen.add(best.total is not None)
    assert seen == {True, False}


@pytest.mark.parametrize("hard", ["game", "strict"])
def test_hard_feasible_kernel_matches_twin_on_random_sets(hard):
    """The hard-mode feasibility kernel against its plain twin (which narrows pools by
    Game.hard_pool) on random sets, pools and limits, several questions per memo; its
    allowed-word masks against theirs."""
    checked = {True: 0, False: 0}
    for seed in range(2):
        game = Game(clustered_words(seed), "standard")
        search = HardFeasibleSearch(game, hard)
        assert np.array_equal(search.allow, allow_masks_python(game, hard))
        rng = np.random.default_rng(seed)
        memo: dict = {}
        n_full = len(game.full_length_guesses)
        for _ in range(30):
            n = int(rng.integers(2, 12))
            cands = np.sort(rng.choice(game.n_answers, n, replace=False)).astype(np.int32)
            pool = rng.choice(n_full, int(rng.integers(5, 40)), replace=False)
            # (an answer is always allowed: its own colours meet every demand)
            own = np.searchsorted(game.full_length_index, game.guess_of_answer[cands])
            pool = np.union1d(pool, own).astype(np.int32)
            depth = int(rng.integers(1, 5))
            fast = search.feasible(cands, depth, pool_mask(pool, search.n_words))
            assert fast == hard_feasible_python(game, cands, depth, pool, hard, memo)
            checked[fast] += 1
    assert checked[True] > 10 and checked[False] > 10  # both answers were exercised


@pytest.mark.parametrize("hard", ["game", "strict"])
def test_hard_feasible_within_agrees_with_the_optimum_under_each_limit(hard):
    """`feasible_within` in hard mode answers as the optimal solver's worst case under each
    limit, and each sampled opening as that opening's exact value."""
    seen = set()
    for seed in range(2):
        game = Game(clustered_words(seed), "standard")
        search = HardFeasibleSearch(game, hard)
        for limit in (3, 4, 5):
            setting = Setting(game.words, game.rule, hard, limit)
            best = OptimalSolver(setting).solve()
            assert best.proven or best.total is None
            assert feasible_within(setting, lambda: False) == (best.total is not None)
            assert feasible_within(setting, lambda: True) is None
            for g in range(0, game.n_guesses, 9):
                one = OptimalSolver(setting).solve_first(g)
                assert search.opening(g, limit)[0] == (one.total is not None)
            seen.add(best.total is not None)
    assert seen == {True, False}


def test_hard_feasibility_needs_small_tables(monkeypatch):
    game = Game(clustered_words(0), "standard")
    assert hard_feasibility_fits(game)
    with pytest.raises(ValueError, match="hard mode must be game or strict"):
        HardFeasibleSearch(game, "easy")
    monkeypatch.setattr(HardFeasibleSearch, "MAX_BYTES", 1000)
    assert not hard_feasibility_fits(game)
    with pytest.raises(ValueError, match="tables of at most 0 MB"):
        HardFeasibleSearch(game, "game")


def test_pokemon_gen1_4_needs_five_guesses():
    """docs/wordle.md: at most 4 guesses is infeasible for the post's list (both rules), at most
    5 is feasible (the optimum's worst case is 5 or more); the proofs shipped for 4 (which
    solve-optimal's depth limits take) say the same."""
    from gamelab.wordle.solver.feasible import shipped_feasibility

    for rule in ("blog", "standard"):
        search = FeasibleSearch(Game(pokemon_word_list(parse_names("gen1-4")), rule))
        answers = search.game.all_answers()
        assert not search.feasible(answers, 4)
        assert search.feasible(answers, 5)
        assert shipped_feasibility(Setting(parse_names("gen1-4"), rule, None, 4)) is False


def test_the_job_resumes_from_the_store(tmp_path):
    game = Game(clustered_words(1), "standard")
    store = ResultStore(tmp_path / "r.sqlite")
    first = prove_feasible(
        Setting(game.words, game.rule, None, 3), backend=Backend(workers=1, quiet=True), store=store
    )
    again = prove_feasible(
        Setting(game.words, game.rule, None, 3), backend=Backend(workers=1, quiet=True), store=store
    )
    assert first.openings == again.openings
    assert first.statement == again.statement
    assert store.finished("wordle-feasible", _params(game, 3), None)


def _params(game, limit):
    from gamelab.wordle.solver.feasible import VERSION

    return {
        "words": game.words.fingerprint(),
        "rule": game.rule,
        "max_guesses": limit,
        "chunk": 16,
        "version": VERSION,
        "seed": 0,
    }


def test_bad_limits_are_refused():
    game = Game(clustered_words(0), "standard")
    with pytest.raises(ValueError, match=r"the guess limit must be 1\.\.20"):
        Setting(game.words, game.rule, None, 0)  # (the setting refuses it, for every shell)
    with pytest.raises(ValueError, match="needs a guess limit"):
        prove_feasible(Setting(game.words, game.rule, None, None))
    with pytest.raises(ValueError, match="normal mode"):
        prove_feasible(Setting(game.words, game.rule, "strict", 3))
    with pytest.raises(ValueError, match="chunk must be at least 1"):
        prove_feasible(Setting(game.words, game.rule, None, 3), chunk=0)


def test_solve_optimal_takes_a_proven_limit_from_a_stored_feasibility_run(tmp_path, monkeypatch):
    import gamelab.wordle.solver.summary as summary_module
    from gamelab.wordle.solver.feasible import stored_feasibility
    from gamelab.wordle.solver.summary import solve_summary

    game = Game(clustered_words(2), "standard")
    store = ResultStore(tmp_path / "r.sqlite")
    plain = solve_summary(Setting(game.words, game.rule, None, None), store=None)
    rows = {r.max_guesses: r for r in plain.depth_limited}
    infeasible = min(rows)  # the tightest limit tried is the infeasible one
    assert rows[infeasible].total is None and rows[infeasible].proven
    assert (
        stored_feasibility(Setting(game.words, game.rule, None, infeasible), store) is None
    )  # nothing run yet
    job = prove_feasible(
        Setting(game.words, game.rule, None, infeasible),
        backend=Backend(workers=1, quiet=True),
        store=store,
    )
    assert not job.feasible
    kept = stored_feasibility(Setting(game.words, game.rule, None, infeasible), store)
    assert kept is not None and kept.openings == job.openings
    limits = []

    class Counting(OptimalSolver):
        def __init__(self, *args, **kwargs):
            limits.append(kwargs.get("max_guesses"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(summary_module, "OptimalSolver", Counting)
    again = solve_summary(Setting(game.words, game.rule, None, None), store=store)
    assert again.depth_limited == plain.depth_limited
    assert infeasible not in limits  # that limit was not searched again


def _sampled_openings_are_refuted(count: int, seed: int, proofs_refuted: int | None = None) -> None:
    """Every shipped proof matches today's lists; `count` sampled first guesses of each of the
    first `proofs_refuted` proofs (None: all) are refuted again (about 5 CPU s per opening)."""
    from gamelab.wordle.solver.feasible import shipped_proofs

    proofs = shipped_proofs()
    assert {(p["names"], p["rule"], p["max_guesses"]) for p in proofs} >= {
        ("all", "blog", 5),
        ("all", "standard", 5),
    }
    rng = np.random.default_rng(seed)
    for k, proof in enumerate(proofs):
        game = Game(pokemon_word_list(parse_names(proof["names"])), proof["rule"])
        assert proof["words"] == game.words.fingerprint(), (
            "stale: run tools/make_wordle_feasibility.py"
        )
        assert proof["first_guesses_checked"] == game.n_guesses
        if proofs_refuted is not None and k >= proofs_refuted:
            continue
        search = FeasibleSearch(game)
        for g in rng.choice(game.n_guesses, count, replace=False):
            ok, part = search.opening(int(g), proof["max_guesses"])
            assert ok == proof["feasible"] or proof["feasible"], game.words.guesses[g]


def test_shipped_proofs_match_the_lists_and_sampled_first_guesses():
    """docs/wordle.md: `all` cannot be solved within 5 guesses (every first guess refuted). The
    default suite re-refutes one sampled opening of the first proof (the slow test below: 40 of
    each)."""
    _sampled_openings_are_refuted(count=1, seed=3, proofs_refuted=1)


@pytest.mark.slow
def test_shipped_proofs_hold_for_many_sampled_first_guesses():
    _sampled_openings_are_refuted(count=40, seed=11)


def test_solve_optimal_compiles_its_later_kernels_ahead_in_normal_mode_with_depth_limits(
    monkeypatch,
):
    """On cold caches the greedy bound's and the feasibility search's kernels compile in a second
    process (gamelab.core.ahead) beside the exact search, and the feasibility search waits for
    it before its first call; nothing is asked without depth limits."""
    from gamelab.core import ahead
    from gamelab.wordle.solver.precompile import AHEAD
    from gamelab.wordle.solver.summary import solve_summary

    started: list[tuple[str, list]] = []
    waited: list[str] = []
    monkeypatch.setattr(
        ahead,
        "start",
        lambda target, kernels, in_turn=(): bool(started.append((target, list(kernels)))),
    )
    monkeypatch.setattr(ahead, "wait", lambda target, timeout=120.0: waited.append(target))
    game = Game(clustered_words(2), "standard")
    out = solve_summary(Setting(game.words, game.rule, None, None), store=None)
    assert [target for target, _ in started] == [AHEAD]
    assert fk.feasible_kernel in started[0][1] and fk.pair_bits_kernel in started[0][1]
    assert any(row.total is None for row in out.depth_limited)  # a limit proven infeasible
    assert AHEAD in waited
    started.clear()
    solve_summary(Setting(game.words, game.rule, None, None), store=None, depth_limits=False)
    assert started == []


def test_solve_optimal_of_lists_with_a_shipped_proof_compiles_the_search_helpers_ahead(
    monkeypatch,
):
    """gen1-4 (a proof shipped for its depth limits): the second process compiles the exact
    search's late helpers, which the search waits for one by one, and the bounds' kernels, not
    the feasibility search; a list without a shipped proof gets the feasibility search."""
    from gamelab.core import ahead
    from gamelab.wordle.solver.kernel_search import late_helpers
    from gamelab.wordle.solver.precompile import AHEAD, HELPERS_AHEAD
    from gamelab.wordle.solver.summary import start_ahead

    started: list[tuple[str, list, list]] = []
    monkeypatch.setattr(
        ahead,
        "start",
        lambda target, kernels, in_turn=(): bool(
            started.append((target, list(kernels), list(in_turn)))
        ),
    )
    start_ahead(pokemon_word_list(parse_names("gen1-4")), "blog")
    start_ahead(clustered_words(2), "standard")
    (target, kernels, in_turn), (other, other_kernels, none) = started
    assert (target, other) == (HELPERS_AHEAD, AHEAD)
    assert in_turn == list(late_helpers()) and none == []
    assert fk.feasible_kernel not in kernels and fk.feasible_kernel in other_kernels
