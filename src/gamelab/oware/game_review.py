"""The engine's review of a whole game of Owaré (the page's Review view, and any other shell):
every position searched as strongly as the engine the player faced (its time per move as a
budget of nodes, so a review of the same game always gives the same rows, or at least its depth:
:func:`review_strength`), the played move scored at the depth the root
search reached, so a loss is never negative. Losses below :data:`NOISE` (one seed) are within
the search's noise and not counted, and a move the engine itself recommended in the game (its
own reply, or the hint shown, or any move of a side a loaded record names as the engine) is
never called a loss: the review then notes the deeper or other
preference in `remark`. The three costliest moves are marked, and moves that let a won game go
(or walk into a lost one) are counted apart from the seed losses. A long review runs in pieces
(`first`, `count`, carrying the rows done so far as `previous`), so a page can show progress.
Each move is a decision of :mod:`gamelab.core.review` in evaluation units for the mover (the
best move's score, the played move's; no chance, so no luck): its loss, the totals and the
costliest moves come from there.
The game is given as in :mod:`gamelab.oware.game` (start, rule variant, moves).

>>> r = review_game("start", Rules(), ["C", "a"], depth=2)
>>> [(m.ply, m.side, m.move, m.loss >= 0, m.depth) for m in r.moves]
[(1, 'South', 'C', True, 2), (2, 'North', 'a', True, 2)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamelab.core import review
from gamelab.oware import _search_kernels as K
from gamelab.oware.analysis import move_letter
from gamelab.oware.game import FALLBACK_DEPTH, check_opponent, exact_verdict, game_engine, replay
from gamelab.oware.match import EngineSpec, PlayerSpec, parse_player
from gamelab.oware.rules import TABLEBASE_SEEDS, Position, Rules
from gamelab.oware.verdicts import (
    SIDES,
    UNIT,
    Evaluation,
    evaluation_of,
    loss_label,
    score_label,
)

__all__ = [
    "GameReview",
    "ReviewLimits",
    "ReviewStrength",
    "ReviewedMove",
    "review_game",
    "review_piece",
    "review_limits",
    "review_strength",
]

#: a loss below this (one seed, in evaluation units) is within the search's noise: not counted
NOISE = UNIT
#: the review's depth when neither a depth nor a time is given, and its least depth
REVIEW_DEPTH = 8
#: seconds per position when the player faced no timed engine (the page's default engine)
DEFAULT_SECONDS = 0.5
#: seconds of search one piece of a long review may take (a page's request)
PIECE_SECONDS = 2.0
#: A review searches "T seconds a position" as a budget of nodes, never of time, so the same
#: game reviewed twice (or on another machine, under any load) gives the same rows: about the
#: engine's speed on one core (1.2-1.6 million nodes a second measured on the opening, loaded).
NODES_PER_SECOND = 1_000_000


def node_budget(seconds: float) -> int:
    """The nodes a review searches for "`seconds` a position" (:data:`NODES_PER_SECOND`)."""
    return max(1000, round(seconds * NODES_PER_SECOND))


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
            t, None, f"{t:g} s a position, as the engine you played", _per_piece(t)
        )
    if isinstance(spec, EngineSpec) and spec.depth is not None:
        d = max(int(spec.depth), REVIEW_DEPTH)
        return ReviewStrength(None, d, f"{d} moves ahead at every position", 4)
    t = DEFAULT_SECONDS
    return ReviewStrength(
        t, None, f"{t:g} s a position, as the page's default engine", _per_piece(t)
    )


def _per_piece(seconds: float) -> int:
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


@dataclass(frozen=True)
class ReviewedMove:
    """One move against the engine's best: the mover's score before (the best move's) and after
    (the played move's), the loss, and South's evaluation after the move (for a graph)."""

    ply: int
    side: str
    move: str
    best: str
    score_before: int
    score_after: int
    loss: int
    loss_seeds: float | None  # None when the move turns an open game into a decided one
    loss_text: str
    before_text: str
    after_text: str
    south_after: float
    exact: bool  # the position was inside the tablebase: the scores are exact
    worst: bool = False
    depth: int = 0  # the depth of this position's search (plies)
    #: the raw difference was below NOISE, or the engine itself recommended the played move:
    #: either way not counted as a loss (the raw scores stay in score_before / score_after)
    within_noise: bool = False
    remark: str = ""  # e.g. "the engine's own choice in the game (depth 14); ..."


@dataclass(frozen=True)
class GameReview:
    """Each move against the engine's best at a fixed depth (every legal move searched to the
    same depth, so a loss is never negative), the costliest moves marked."""

    depth: int  # the deepest search of a position (plies)
    score_unit: str
    moves: list[ReviewedMove]
    worst: list[int]
    total_loss: dict[str, int]  # over the moves whose loss is counted in seeds
    total_loss_seeds: dict[str, float]
    turning_moves: dict[str, int]  # moves that let a won game go or walked into a lost one
    result: list[int] | None
    note: str | None = None
    plies: int = 0  # the game's moves; the review covers moves 1..len(moves) of them
    strength: str = ""  # how each position was searched, in words
    least_depth: int = 0  # the shallowest search of a position (plies)

    @property
    def done(self) -> bool:
        return len(self.moves) == self.plies


def _child_score(engine: Any, child: Position, depth: int) -> tuple[int, bool]:
    """The score of a move for its mover: minus the child's score (exact when it is over)."""
    if child.is_over():
        a, b = child.result()
        margin = (a - b) if child.to_move == 1 else (b - a)  # for the player who just moved
        if margin > 0:
            return K.WIN - 1 + UNIT * margin, True
        if margin < 0:
            return -K.WIN + 1 + UNIT * margin, True
        return 0, True
    if depth <= 1:
        from gamelab.oware.evaluation import evaluate

        return -evaluate(child), False
    return -engine.search(child, depth=depth - 1).score, False


def _row_of(d: dict[str, Any]) -> ReviewedMove:
    names = {f.name for f in dataclasses.fields(ReviewedMove)}
    if not isinstance(d, dict) or not set(d) <= names:
        raise ValueError("the review so far (previous) is not a list of reviewed moves")
    try:
        return ReviewedMove(**d)
    except TypeError as exc:
        raise ValueError(f"the review so far (previous) is incomplete: {exc}") from None


def _search_root(engine: Any, p: Position, depth: int | None, seconds: float | None):
    if seconds is not None:  # a budget of nodes: the same rows on every run
        return engine.search(p, node_limit=node_budget(seconds))
    return engine.search(p, depth=depth)


def engine_sides(players: Sequence[str]) -> set[int]:
    """The sides (0 South, 1 North) that `players` (South's, North's names, as a record holds
    them) name as the engine: their moves are the engine's own choices."""
    sides = set()
    for side, name in enumerate(players):
        try:
            spec = parse_player(name)
        except ValueError:
            continue  # "human", "?", a person's name
        if isinstance(spec, EngineSpec):
            sides.add(side)
    return sides


def side_totals(rows: Sequence[ReviewedMove], side: str) -> tuple[float, float]:
    """(total loss, total luck) of `side`'s moves whose loss is counted in seeds (a move that
    decides an open game is counted apart), in evaluation units (:func:`gamelab.core.review.totals`)."""
    counted = [r for r in rows if r.side == side and r.loss_seeds is not None]
    return review.totals(
        review.Decision.of(r.score_after + r.loss, r.score_after, r.score_after) for r in counted
    )


def review_game(
    start: str,
    rules: Rules,
    moves: list[str],
    depth: int | None = None,
    seconds: float | None = None,
    first: int = 1,
    count: int | None = None,
    previous: list[Any] | tuple[Any, ...] = (),
    recommended: list[str] | tuple[str, ...] = (),
    strength: str = "",
    players: Sequence[str] = (),
) -> GameReview:
    """The game's moves `first`..`first + count - 1` (all by default) against the engine's
    best, after the rows `previous` (the review so far, moves 1..first-1, as returned before).

    Each position is searched for `seconds` (the engine's time per move, as a budget of nodes:
    :func:`node_budget`) or to `depth` plies (default :data:`REVIEW_DEPTH`); the played move is
    scored at the depth the root search reached, so its loss is never negative.
    `recommended[i]` is the move the engine recommended at move i + 1 in the game ("" for
    none): that move is never called a loss; nor is any move of a side that `players` (South's
    and North's names, as in a record) names as the engine (:func:`engine_sides`)."""
    if depth is not None and not 1 <= depth <= 20:
        raise ValueError(f"review depth must be 1-20, got {depth}")
    if seconds is not None and not 0 < seconds <= 10:
        raise ValueError(f"review time per position must be in (0, 10] s, got {seconds:g}")
    if depth is None and seconds is None:
        depth = REVIEW_DEPTH
    moves = [m.strip() for m in moves]
    if not moves:
        raise ValueError("there are no moves to review yet: play a move first")
    if len(recommended) > len(moves):
        raise ValueError("more recommended moves than moves")
    done = [r if isinstance(r, ReviewedMove) else _row_of(r) for r in previous]
    if first != len(done) + 1:
        raise ValueError(f"the review continues at move {len(done) + 1}, not {first}")
    if [(r.ply, r.move) for r in done] != [(i + 1, m) for i, m in enumerate(moves[: len(done)])]:
        raise ValueError("the review so far (previous) is of another game")
    last = len(moves) if count is None else min(len(moves), first - 1 + count)
    if count is not None and count < 1 or first > len(moves):
        raise ValueError(f"nothing to review from move {first} (count {count})")
    if len(players) not in (0, 2):
        raise ValueError("players are two names, South's and North's")
    by_engine = engine_sides(players)
    positions, offsets = replay(start, rules, moves)
    engine = game_engine("auale", TABLEBASE_SEEDS)
    rows = list(done)
    for ply in range(first - 1, last):
        p, off = positions[ply], offsets[ply]
        engine.clear()  # each position alone: a review in pieces equals the whole one
        root = _search_root(engine, p, depth, seconds)
        d = root.depth
        scores = {root.best_move: root.score}
        if off not in scores:
            scores[off] = _child_score(engine, p.play(off), d)[0]
        best = max(scores, key=lambda m: (scores[m], m == off))
        played = scores[off]
        # core.review's values in evaluation units for the mover: no chance, so no luck
        raw = round(review.Decision.of(scores[best], played, played).loss)
        rec = recommended[ply].strip() if ply < len(recommended) else ""
        if p.to_move in by_engine:
            rec = moves[ply]  # the engine played it: its own choice
        remark = ""
        noise = 0 < raw < NOISE and abs(scores[best]) < K.DECIDED and abs(played) < K.DECIDED
        if raw > 0 and rec == moves[ply]:
            noise = True
            remark = (
                f"the engine's own choice in the game; this depth-{d} search prefers "
                f"{move_letter(p.to_move, best)} ({loss_label(scores[best], played)})"
            )
        elif noise:
            remark = (
                f"{move_letter(p.to_move, best)} scores {loss_label(scores[best], played)[1:]} "
                "more: within the search's noise"
            )
        loss = 0 if noise else raw
        child = positions[ply + 1]
        exact = exact_verdict(child) if not child.is_over() else None
        after = evaluation_of(-played, child.to_move, f"engine, depth {d}", exact)
        if child.is_over():
            a, b = child.result()
            after = Evaluation(
                -played,
                SIDES[child.to_move],
                True,
                0.5 if a == b else float(a > b),
                f"game over {a}-{b}",
                "the rules",
            )
        rows.append(
            ReviewedMove(
                ply=ply + 1,
                side=SIDES[p.to_move],
                move=moves[ply],
                best=move_letter(p.to_move, best),
                score_before=scores[best],
                score_after=played,
                loss=loss,
                loss_seeds=round(loss / UNIT, 1) if abs(raw) < K.DECIDED else None,
                loss_text=loss_label(scores[best], played, side=SIDES[p.to_move]) if loss else "",
                before_text=score_label(scores[best], side=SIDES[p.to_move]),
                after_text=score_label(played, side=SIDES[p.to_move]),
                south_after=after.south,
                exact=exact_verdict(p) is not None,
                depth=d,
                within_noise=noise,
                remark=remark,
            )
        )
    worst = sorted(rows[i].ply for i in review.costliest([r.loss for r in rows], 3))
    rows = [dataclasses.replace(r, worst=r.ply in worst) for r in rows]
    totals = {s: round(side_totals(rows, s)[0]) for s in SIDES}
    turning = {
        s: sum(1 for r in rows if r.side == s and r.loss_seeds is None and r.loss) for s in SIDES
    }
    final = positions[-1]
    depths = [r.depth for r in rows] or [0]
    if not strength:
        strength = f"{seconds:g} s a position" if seconds is not None else f"depth {depth}"
    return GameReview(
        max(depths),
        f"auale evaluation units for the mover, {UNIT} per seed",
        rows,
        worst,
        totals,
        {s: round(t / UNIT, 1) for s, t in totals.items()},
        turning,
        list(final.result()) if final.is_over() else None,
        plies=len(moves),
        strength=strength,
        least_depth=min(depths),
    )


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
