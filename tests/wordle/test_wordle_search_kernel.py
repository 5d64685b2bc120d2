"""The numba search kernel against its plain-Python twin (OptimalSolver(engine="python")) on
random word lists: every mode (normal, the game's hard mode, strict), guess limits, forced
first guesses, totals, optimal first guesses and the trees."""

import numpy as np
import pytest

from gamelab.wordle.rules import Setting, WordList
from gamelab.wordle.solver.optimal import INF, OptimalSolver, answer_depths
from gamelab.wordle.table import Game


def clustered_words(
    seed: int,
    n_templates: int = 5,
    per: int = 7,
    n_extra: int = 50,
    alphabet: str = "abcdefghijklmnop",
    length: int = 5,
) -> WordList:
    """Five-letter answers in families differing at one position (like _IGHT), plus random
    guesses: the shape that makes hard mode costly, so the three modes differ."""
    rng = np.random.default_rng(seed)
    letters = list(alphabet)
    answers = []
    for _ in range(n_templates):
        base, pos = list(rng.choice(letters, length)), int(rng.integers(length))
        for ch in rng.choice(letters, per, replace=False):
            word = base.copy()
            word[pos] = ch
            answers.append("".join(word))
    answers = list(dict.fromkeys(answers))
    guesses = list(
        dict.fromkeys(["".join(rng.choice(letters, length)) for _ in range(n_extra)] + answers)
    )
    return WordList(f"clustered{seed}", tuple(guesses), tuple(answers))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("hard", [None, "game", "strict"])
def test_kernel_matches_twin(seed, hard):
    game = Game(clustered_words(seed), "standard")
    for limit in (None, 5, 4):
        fast = OptimalSolver(Setting(game.words, game.rule, hard, limit), engine="numba").solve()
        slow = OptimalSolver(Setting(game.words, game.rule, hard, limit), engine="python").solve()
        assert (fast.total, fast.lower_bound, fast.proven) == (
            slow.total,
            slow.lower_bound,
            slow.proven,
        )
        assert fast.first_guesses == slow.first_guesses
        assert fast.distribution == slow.distribution and fast.tree == slow.tree
        if fast.total is not None:
            assert sum(answer_depths(fast.tree).values()) == fast.total
            if limit is not None:
                assert fast.worst <= limit


@pytest.mark.parametrize("hard", [None, "game", "strict"])
def test_kernel_matches_twin_beyond_a_byte_of_patterns(hard):
    # six letters: 3^6 = 729 patterns, so the kernel scans the table guess by guess
    # (scan_table) instead of the transposed byte table (scan_transposed)
    game = Game(clustered_words(11, per=6, n_extra=30, length=6), "standard")
    assert game.n_codes > 256
    for limit in (None, 4):
        fast = OptimalSolver(Setting(game.words, game.rule, hard, limit), engine="numba").solve()
        slow = OptimalSolver(Setting(game.words, game.rule, hard, limit), engine="python").solve()
        assert (fast.total, fast.lower_bound, fast.first_guesses) == (
            slow.total,
            slow.lower_bound,
            slow.first_guesses,
        )
        assert fast.tree == slow.tree


def test_modes_differ_and_order():
    # the game's rule allows more words than strict, so it can only do better (or equal)
    totals = {}
    for seed in range(3):
        game = Game(clustered_words(seed), "standard")
        totals[seed] = [
            OptimalSolver(Setting(game.words, game.rule, h, None)).solve().total
            for h in (None, "game", "strict")
        ]
        assert totals[seed][0] <= totals[seed][1] <= totals[seed][2]
    assert any(t[1] < t[2] for t in totals.values()) and any(t[0] < t[1] for t in totals.values())


@pytest.mark.parametrize("hard", [None, "game", "strict"])
def test_forced_first_guess_and_budgets(hard):
    game = Game(clustered_words(7, per=5), "standard")
    cands = game.all_answers()
    pool = game.full_pool() if hard else None
    fast = OptimalSolver(Setting(game.words, game.rule, hard, None), engine="numba")
    slow = OptimalSolver(Setting(game.words, game.rule, hard, None), engine="python")
    for g in range(0, game.n_guesses, 9):
        exact = slow._guess_cost(g, cands, INF, None, pool)
        assert fast._guess_cost(g, cands, INF, None, pool) == exact
        # with a budget: exact below it, else a lower bound at least the budget
        for budget in (exact, exact + 1, exact - 5):
            got = fast._guess_cost(g, cands, budget, None, pool)
            assert got == exact if exact < budget else got >= budget


def test_game_hard_mode_needs_the_standard_rule():
    game = Game(clustered_words(0, per=2), "blog")
    with pytest.raises(ValueError, match="standard feedback rule"):
        OptimalSolver(Setting(game.words, game.rule, "game", None))
    with pytest.raises(ValueError, match="engine"):
        OptimalSolver(Setting(game.words, "standard", None, None), engine="c++")
