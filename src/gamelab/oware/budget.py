"""How an Owaré answer spends a shell's time budget: the library's plans
(:class:`gamelab.core.budget.Plan`) for the page's searches.

An opponent's reply runs at once when it is instant (random, greedy), else within the budget
plus the engine's own time per move, memoised unless the clock stops the search, with the
greedy move as its labelled fallback; an analysis within the budget plus its time (twice with
every move ranked), a depth-:data:`~gamelab.oware.game.FALLBACK_DEPTH` search past it; a piece
of a review (:func:`review_piece`) searched as strongly as the engine the player faced, in
pieces a page can chain (the review's limits: :func:`review_strength`, :func:`review_limits`),
a shallower piece past its budget.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from gamelab.core.budget import Plan
from gamelab.oware.game import FALLBACK_DEPTH, analyse_position, check_opponent, engine_reply
from gamelab.oware.game_review import REVIEW_DEPTH, GameReview, review_game
from gamelab.oware.match import EngineSpec, GreedySpec, PlayerSpec, RandomSpec
from gamelab.oware.rules import Rules
from gamelab.oware.tablebase import reach_settled

#: seconds per position when the player faced no timed engine (the page's default engine)
DEFAULT_SECONDS = 0.5
#: seconds of search one piece of a long review may take (a page's request)
PIECE_SECONDS = 2.0


@dataclass(frozen=True)
class ReviewStrength:
    """How strongly the review searches each position: `seconds` per position (the engine's
    time per move) or a fixed `depth`; `per_piece` positions per piece of a long review."""

    seconds: float | None
    depth: int | None
    text: str
    per_piece: int


def review_strength(opponent: PlayerSpec) -> ReviewStrength:
    """At least as strong as the engine the player faced: its time per move (``engine:time=T``),
    at least its depth (``engine:depth=D``, and never below :data:`REVIEW_DEPTH`), and the page's
    default engine's time for the weaker opponents (blog, greedy, random).

    >>> review_strength(EngineSpec(time=2)).text
    '2 s a position, as the engine you played'
    """
    spec = check_opponent(opponent)
    if isinstance(spec, EngineSpec) and spec.time is not None:
        t = float(spec.time)
        return ReviewStrength(
            t, None, f"{t:g} s a position, as the engine you played", per_piece(t)
        )
    if isinstance(spec, EngineSpec) and spec.depth is not None:
        d = max(int(spec.depth), REVIEW_DEPTH)
        return ReviewStrength(None, d, f"{d} moves ahead at every position", 4)
    t = DEFAULT_SECONDS
    return ReviewStrength(
        t, None, f"{t:g} s a position, as the page's default engine", per_piece(t)
    )


def per_piece(seconds: float) -> int:
    """Positions in one piece of a review searched `seconds` each."""
    return max(1, int(PIECE_SECONDS // (2 * seconds)))  # the root search and the played move


@dataclass(frozen=True)
class ReviewLimits:
    """How one piece of a review searches (the library's policy): `depth` or `seconds` per
    position (described by `strength`), the moves in the piece (`count`), and the labelled
    shallower fallback's depth and description (:func:`gamelab.oware.budget.review_plan`
    runs it when a time budget runs out)."""

    depth: int | None
    seconds: float | None
    strength: str
    count: int
    fallback_depth: int
    fallback_strength: str

    def fallback(self) -> ReviewLimits:
        """The labelled shallower limits for the same moves, when the budget runs out."""
        return dataclasses.replace(
            self, depth=self.fallback_depth, seconds=None, strength=self.fallback_strength
        )


def review_limits(
    opponent: PlayerSpec, moves: int, depth: int | None = None, count: int | None = None
) -> ReviewLimits:
    """How to review `count` moves (default: a piece's worth) of a game of `moves` moves whose
    player faced `opponent`: as strong as that engine (:func:`review_strength`), or to a fixed
    `depth` at every position (then the whole game in one piece by default).

    >>> review_limits(EngineSpec(time=0.5), 30).count, review_limits(EngineSpec(depth=6), 30, 3).count
    (2, 30)
    """
    fallback = f"depth {FALLBACK_DEPTH} (the time budget ran out)"
    if depth is not None:
        check_opponent(opponent)
        n = count or moves
        return ReviewLimits(
            depth, None, f"{depth} moves ahead at every position", n, FALLBACK_DEPTH, fallback
        )
    plan = review_strength(opponent)
    n = count or plan.per_piece
    return ReviewLimits(plan.depth, plan.seconds, plan.text, n, FALLBACK_DEPTH, fallback)


def review_piece(
    start: str,
    rules: Rules,
    moves: list[str],
    limits: ReviewLimits,
    first: int = 1,
    previous: list[Any] | tuple[Any, ...] = (),
    recommended: list[str] | tuple[str, ...] = (),
    players: Sequence[str] = (),
) -> GameReview:
    """The piece of the review that `limits` describes (:func:`review_limits`), from move `first`
    after the rows `previous`: what ``gamelab oware review`` and the page's Review both run."""
    return review_game(
        start,
        rules,
        moves,
        limits.depth,
        limits.seconds,
        first,
        limits.count,
        previous,
        recommended,
        limits.strength,
        players,
    )


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
        # the clock stops a timed search; the table may still rise to the database's reach
        cacheable=not (isinstance(spec, EngineSpec) and spec.time is not None) and reach_settled(),
    )


def analysis_plan(
    position: str,
    rules: Rules,
    time: float,
    moves: list[str],
    depth: int | None,
    evaluation: str,
    tablebase: int | None,
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
        # the clock stops a timed search; the table may still rise to the database's reach
        cacheable=depth is not None and reach_settled(),
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
    """One piece of the review (:func:`review_piece`, its limits :func:`review_limits`) within `seconds` plus two searches a
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
        # nodes, not the clock, stop its searches: a pure function of the request and the
        # table at hand (which may still rise to the database's reach)
        cacheable=reach_settled(),
    )
