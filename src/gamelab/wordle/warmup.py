"""Pokémon Wordle's warm-up: one small call of each library entry point, so that numba compiles
(once, into its cache) or loads every kernel the commands, the report and the web page use."""

from __future__ import annotations

from gamelab.core.warm import PageWarmup

#: What the page needs warm (``gamelab serve``).
PAGE_WARMUP = PageWarmup(
    pool=("gamelab.wordle.warmup:warm_page",),
    seconds=13.8,  # benchmarks/page_warm.py (load 4-6: CPU-s on empty caches)
)


def warm_up() -> None:
    """Rank and chart gen1-4 (blog rule), solve gen1 exactly, the assistant's advice after one
    guess (the page's, ``next``'s and ``assist``'s), the hard-mode feasibility search (the
    depth limits of ``solve-optimal --hard``) and the kernels only larger lists reach."""
    from gamelab.wordle.chart import chart
    from gamelab.wordle.entropy import ranking
    from gamelab.wordle.rules import (
        POST_SETTING,
        FeedbackRule,
        Setting,
        load_word_list,
        parse_names,
    )
    from gamelab.wordle.solver.feasible import feasible_within
    from gamelab.wordle.solver.kernel_search import warm_up as warm_scan
    from gamelab.wordle.solver.summary import solve_summary
    from gamelab.wordle.table import Game

    words = load_word_list(POST_SETTING)
    blog = Game(words, FeedbackRule.BLOG)
    ranking(blog, 3)
    chart(blog, "レントラー")
    solve_summary(Setting(parse_names("gen1"), FeedbackRule.BLOG), store=None)
    feasible_within(Setting(parse_names("gen1"), FeedbackRule.STANDARD, "game", 3), lambda: False)
    warm_page()
    warm_scan()


def warm_depth_limits(feasibility: bool = True) -> None:
    """What ``solve-optimal`` (normal mode) calls besides its exact search: the greedy chart
    that gives its first upper bound, the two-level bounds of the first guesses and (unless
    `feasibility` is False) the feasibility search of its depth limits, on gen1
    (a list of five-letter words, as the feasibility search needs: the same kernel types as
    any such list)."""
    from gamelab.wordle.entropy import greedy_tree, guess_counts
    from gamelab.wordle.rules import FeedbackRule, Setting, parse_names
    from gamelab.wordle.solver.feasible import feasible_within
    from gamelab.wordle.solver.optimal import OptimalSolver
    from gamelab.wordle.table import Game

    setting = Setting(parse_names("gen1"), FeedbackRule.BLOG, max_guesses=3)
    game = Game.of(setting)
    opening = game.best_entropy_guess(game.all_answers())
    guess_counts(game, greedy_tree(game, opening))
    OptimalSolver(setting).opening_bound(opening)  # the first guesses' two-level bounds
    if feasibility:
        feasible_within(setting, lambda: False)


def warm_search_helpers_and_bounds() -> None:
    """The exact search's late helpers in normal mode (as the search calls them on a list of
    five-letter words), then what ``solve-optimal`` calls besides its exact search but the
    feasibility search: the second process of a first ``solve-optimal`` whose depth limits a
    shipped proof settles (:func:`gamelab.wordle.solver.precompile.start_ahead`)."""
    from itertools import islice, permutations

    from gamelab.wordle.rules import FeedbackRule, WordList
    from gamelab.wordle.solver.kernel_search import compile_helpers

    words = tuple("".join(p) for p in islice(permutations("abcdef", 5), 0, 720, 12))  # 60
    compile_helpers(WordList("warm-up", words, words), FeedbackRule.STANDARD)
    warm_depth_limits(feasibility=False)


def warm_tables() -> None:
    """What the assistant compiles besides its exact search (the feedback table, the entropies,
    a partition), on a small list of five-letter words (the kernels' types of any such list):
    the second process of a first exact search on an empty cache
    (:func:`gamelab.wordle.solver.kernel_search.compile_search_first`). Nothing is written to
    the gamelab cache."""
    from itertools import islice, permutations

    from gamelab.wordle.rules import FeedbackRule, WordList
    from gamelab.wordle.table import Game, build_table

    words = tuple("".join(p) for p in islice(permutations("abcdef", 5), 0, 720, 12))  # 60
    game = Game(WordList("warm-up", words, words), FeedbackRule.STANDARD)
    game.__dict__["table"] = build_table(game.words, game.rule)  # (not kept in the cache)
    subset = game.all_answers()
    game.entropies(subset)
    game.partition(0, subset)


def warm_feasible_tables() -> None:
    """The feedback table's, the partitions' and the pair bits' kernels, on a small list of
    five-letter words (the kernels' types of any such list): the second process of a first
    feasibility proof on an empty cache
    (:func:`gamelab.wordle.solver.feasible.compile_feasible_first`). Nothing is written to the
    gamelab cache."""
    from itertools import islice, permutations

    import numpy as np

    from gamelab.wordle.rules import FeedbackRule, WordList
    from gamelab.wordle.solver._feasible_kernels import pair_bits_kernel
    from gamelab.wordle.table import Game, build_table

    words = tuple("".join(p) for p in islice(permutations("abcdef", 5), 0, 720, 12))  # 60
    game = Game(WordList("warm-up", words, words), FeedbackRule.STANDARD)
    table = build_table(game.words, game.rule)
    game.__dict__["table"] = table  # (not kept in the cache)
    game.partition(0, game.all_answers())
    pair_bits_kernel(np.ascontiguousarray(table), np.arange(game.n_guesses, dtype=np.int32))


def warm_search_helpers() -> None:
    """The exact search's late helpers in normal mode (as the search calls them on a list of
    five-letter words), then :func:`warm_tables`: the second process of a first exact search
    in normal mode on an empty cache, so that the search, compiling meanwhile, loads them."""
    from itertools import islice, permutations

    from gamelab.wordle.rules import FeedbackRule, WordList
    from gamelab.wordle.solver.kernel_search import compile_helpers

    words = tuple("".join(p) for p in islice(permutations("abcdef", 5), 0, 720, 12))  # 60
    compile_helpers(WordList("warm-up", words, words), FeedbackRule.STANDARD)
    warm_tables()


def warm_page() -> None:
    """Load the optimal strategies of the post's lists and of the page's default, the live
    daily game (shipped: milliseconds each), their games and the search kernel, so no request
    waits for them."""
    from gamelab.wordle.advice import advise
    from gamelab.wordle.rules import POST_SETTING, Setting, parse_names
    from gamelab.wordle.solver.strategy import PRECOMPUTED, optimal_strategy

    daily = parse_names("daily")
    for setting in PRECOMPUTED:
        if setting.names in (POST_SETTING, daily):
            optimal_strategy(setting)
    for names in (POST_SETTING, daily):
        advise(Setting(names), [("レントラー", "00000")])
