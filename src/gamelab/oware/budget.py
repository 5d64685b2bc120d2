"""How an Owaré answer spends a shell's time budget: the library's plans
(:class:`gamelab.core.budget.Plan`) for the page's searches.

An opponent's reply runs at once when it is instant (random, greedy), else within the budget
plus the engine's own time per move, memoised unless the clock stops the search, with the
greedy move as its labelled fallback; an analysis within the budget plus its time (twice with
every move ranked), a depth-:data:`~gamelab.oware.game.FALLBACK_DEPTH` search past it; a piece
of a review as strong as the engine the player faced (:func:`review_limits`), a shallower piece
past its budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from gamelab.core.budget import Plan
from gamelab.oware.game import FALLBACK_DEPTH, analyse_position, check_opponent, engine_reply
from gamelab.oware.game_review import review_limits, review_piece
from gamelab.oware.match import EngineSpec, GreedySpec, PlayerSpec, RandomSpec
from gamelab.oware.rules import Rules


def reply_plan(
    start: str, rules: Rules, moves: list[str], spec: PlayerSpec, seed: int, seconds: float
) -> Plan:
    """The plan for `spec`'s reply (checked by :func:`~gamelab.oware.game.check_opponent`)
    within a budget of `seconds`."""
    check_opponent(spec)
    args = (start, rules, moves, spec, seed)
    if isinstance(spec, RandomSpec | GreedySpec):
        return Plan(engine_reply, args, None)
    own = float(spec.time or 0.0) if isinstance(spec, EngineSpec) else 0.0
    return Plan(
        engine_reply,
        args,
        seconds + own,
        partial(engine_reply, start, rules, moves, GreedySpec(), seed),
        f"the {spec} search",
        "the greedy move",
        cacheable=not (isinstance(spec, EngineSpec) and spec.time is not None),
    )


def analysis_plan(
    position: str,
    rules: Rules,
    time: float,
    moves: list[str],
    depth: int | None,
    evaluation: str,
    tablebase: int,
    rank: bool,
    book: bool,
    seconds: float,
) -> Plan:
    """An analysis (:func:`~gamelab.oware.game.analyse_position`) within `seconds` plus its own
    time (twice when every move is ranked); past it a labelled shallow search."""
    args = (position, rules, time, moves, depth, evaluation, tablebase, rank, book)
    shallow = partial(
        analyse_position, position, rules, time, moves, FALLBACK_DEPTH, evaluation, tablebase
    )
    return Plan(
        analyse_position,
        args,
        seconds + (0.0 if depth else time * (2 if rank else 1)),
        partial(shallow, rank, book),
        "the analysis",
        f"a depth-{FALLBACK_DEPTH} search",
        cacheable=depth is not None,  # the clock stops a timed search
    )


def review_plan(
    start: str,
    rules: Rules,
    moves: list[str],
    opponent: PlayerSpec,
    seconds: float,
    depth: int | None = None,
    count: int | None = None,
    first: int = 1,
    previous: list[Any] | tuple[Any, ...] = (),
    recommended: list[str] | tuple[str, ...] = (),
    players: Sequence[str] = (),
) -> Plan:
    """One piece of the review (:func:`~gamelab.oware.game_review.review_piece`, its limits
    :func:`~gamelab.oware.game_review.review_limits`) within `seconds` plus two searches a
    position with room for a busy server; past it the same moves at a shallower depth."""
    limits = review_limits(opponent, len(moves), depth, count)
    rest = (first, previous, recommended, players)
    return Plan(
        review_piece,
        (start, rules, moves, limits, *rest),
        seconds + 4.0 * (limits.seconds or 0.0) * limits.count,
        partial(review_piece, start, rules, moves, limits.fallback(), *rest),
        "the review",
        f"a depth-{limits.fallback_depth} review of these moves",
        cacheable=True,  # nodes, not the clock, stop its searches: a pure function of the request
    )
