"""The engine's review of a whole game of Owaré (the page's Review view, and any other shell):
every position searched as strongly as the engine the player faced (its time per move as a
budget of nodes, so a review of the same game always gives the same rows, or at least its depth:
:func:`gamelab.oware.budget.review_strength`), the played move scored at the depth the root
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
from gamelab.oware.game import exact_verdict, game_engine, replay
from gamelab.oware.match import EngineSpec, parse_player
from gamelab.oware.rules import TABLEBASE_SEEDS, Position, Rules
from gamelab.oware.tablebase import ready_reach
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
    "ReviewedMove",
    "review_game",
]

#: a loss below this (one seed, in evaluation units) is within the search's noise: not counted
NOISE = UNIT
#: the review's depth when neither a depth nor a time is given, and its least depth
REVIEW_DEPTH = 8
#: A review searches "T seconds a position" as a budget of nodes, never of time, so the same
#: game reviewed twice (or on another machine, under any load) gives the same rows: about the
#: engine's speed on one core (1.2-1.6 million nodes a second measured on the opening, loaded).
NODES_PER_SECOND = 1_000_000


def node_budget(seconds: float) -> int:
    """The nodes a review searches for "`seconds` a position" (:data:`NODES_PER_SECOND`)."""
    return max(1000, round(seconds * NODES_PER_SECOND))


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
    #: the endgame table the searches probed (``tablebase.ready_reach``: the best at hand)
    tablebase_seeds: int = TABLEBASE_SEEDS
    #: each side's figures in the vocabulary every game's review shares (core.review.Totals), in
    #: seeds over the moves counted in seeds (a move that decides an open game is counted apart,
    #: in `turning_moves`); no chance, so no luck
    totals: dict[str, review.Totals] = dataclasses.field(default_factory=dict)

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
    state, positions = replay(start, rules, moves)
    offsets = state.moves
    engine = game_engine("auale", ready_reach())
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
    side_loss = {s: round(side_totals(rows, s)[0]) for s in SIDES}
    turning = {
        s: sum(1 for r in rows if r.side == s and r.loss_seeds is None and r.loss) for s in SIDES
    }
    final = positions[-1]
    ending = list(final.result()) if final.is_over() else None
    by_side = {}
    for i, s in enumerate(SIDES):
        counted = [r for r in rows if r.side == s and r.loss_seeds is not None]
        losses = [r.loss / UNIT for r in counted]
        result = None if ending is None else float(ending[i])
        numbers = [r.ply for r in counted]
        by_side[s] = review.Totals.of("seeds", None, losses, [0.0] * len(counted), result, numbers)
    depths = [r.depth for r in rows] or [0]
    if not strength:
        strength = f"{seconds:g} s a position" if seconds is not None else f"depth {depth}"
    return GameReview(
        max(depths),
        f"auale evaluation units for the mover, {UNIT} per seed",
        rows,
        worst,
        side_loss,
        {s: round(t / UNIT, 1) for s, t in side_loss.items()},
        turning,
        ending,
        plies=len(moves),
        strength=strength,
        least_depth=min(depths),
        tablebase_seeds=engine.tablebase.max_seeds,
        totals=by_side,
    )
