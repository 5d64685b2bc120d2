"""Owaré's warm-up: one small call of each library entry point, so that numba compiles (once,
into its cache) or loads every kernel the commands, the report and the web page use."""

from __future__ import annotations


def warm_page() -> None:
    """What the web page's solver processes load before serving: the engine, the tablebase and
    the review (one engine reply and a one-move review at depth 2)."""
    from gamelab.oware.game import warm_engine
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
