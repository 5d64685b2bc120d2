"""Owaré's warm-up: one small call of each library entry point, so that numba compiles (once,
into its cache) or loads every kernel the commands, the report and the web page use; the page's
warm-up (:func:`warm_view` in the server, :func:`warm_page` for the solver processes) is a part
of it."""

from __future__ import annotations

from gamelab.core.warm import PageWarmup

#: What the page needs warm (``gamelab serve``): a game view in the server, the engine and the
#: review in every solver process (from the forkserver).
PAGE_WARMUP = PageWarmup(
    pool=("gamelab.oware.warmup:warm_view",),
    prefork=("gamelab.oware.warmup:warm_page",),
    seconds=4.7,  # benchmarks/page_warm.py --only oware (load 4-5: CPU-s on empty caches)
)


def warm_engine() -> None:
    """Load the engine's kernels and the tablebase (compiled once, then from numba's cache); the
    page's whole warm-up, with the review, is :func:`warm_page`."""
    from gamelab.oware.game import engine_reply, exact_verdict
    from gamelab.oware.match import EngineSpec
    from gamelab.oware.rules import ABAPA, START_TEXT, Position

    exact_verdict(Position.from_text("1 0 0 0 0 0 0 0 0 0 0 1 23 23 S", ABAPA))  # loads the table
    engine_reply(START_TEXT, ABAPA, [], EngineSpec(depth=2))


def warm_view() -> None:
    """Import and run what a game view needs, without the engine. The tablebase is loaded on
    the first endgame (from the cache that :func:`warm_engine` fills in the solver pool: building
    it twice at once on a cold cache would only slow the start)."""
    from gamelab.oware.game import game_view
    from gamelab.oware.rules import ABAPA, START_TEXT

    game_view(START_TEXT, ABAPA, ["C"])


def warm_page() -> None:
    """What the web page's solver processes load before serving: the engine, the tablebase and
    the review (one engine reply and a one-move review at depth 2)."""
    from gamelab.oware.game_review import review_game
    from gamelab.oware.rules import ABAPA, START_TEXT

    warm_engine()
    review_game(START_TEXT, ABAPA, ["C"], depth=2)


def warm_up() -> None:
    """Perft to depth 4, a 4-seed tablebase, a depth-4 analysis, a two-game match and the page's
    engine reply and review."""
    from gamelab.core.parallel import Backend
    from gamelab.oware.analysis import analyse
    from gamelab.oware.match import BlogSpec, GreedySpec, run_match
    from gamelab.oware.perft import timed_perft
    from gamelab.oware.rules import Position, Rules
    from gamelab.oware.tablebase import tablebase_summary
    from gamelab.oware.tablebase import warm_up as warm_lookup

    start = Position.from_text("start", Rules())
    timed_perft(start, 4)
    tablebase_summary(4)
    analyse(start, depth=4, tablebase_seeds=4)
    one = Backend(workers=1, quiet=True)
    run_match(GreedySpec(), BlogSpec(depth=2), games=2, backend=one, use_store=False)
    warm_lookup()
    warm_page()
