"""The engine's review of a whole game of Owaré (the page's Review view, and any other shell):
every legal move of every position searched to one fixed depth, so a move's loss against the
best is never negative and the review is the same on every machine; the three costliest moves
are marked, and moves that let a won game go (or walk into a lost one) are counted apart from
the seed losses. The game is given as in :mod:`gamelab.oware.game` (start, rule variant, moves).

>>> r = review_game("start", "no-capture", "own-row", ["C", "a"], depth=2)
>>> [(m.ply, m.side, m.move, m.loss >= 0) for m in r.moves]
[(1, 'South', 'C', True), (2, 'North', 'a', True)]
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from gamelab.oware import _search_kernels as K
from gamelab.oware.analysis import move_letter
from gamelab.oware.game import (
    SIDES,
    TABLEBASE_SEEDS,
    UNIT,
    Evaluation,
    evaluation_of,
    exact_verdict,
    game_engine,
    loss_label,
    replay,
    score_label,
)
from gamelab.oware.rules import Position

__all__ = ["GameReview", "ReviewedMove", "review_game"]


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


@dataclass(frozen=True)
class GameReview:
    """Each move against the engine's best at a fixed depth (every legal move searched to the
    same depth, so a loss is never negative), the costliest moves marked."""

    depth: int
    score_unit: str
    moves: list[ReviewedMove]
    worst: list[int]
    total_loss: dict[str, int]  # over the moves whose loss is counted in seeds
    total_loss_seeds: dict[str, float]
    turning_moves: dict[str, int]  # moves that let a won game go or walked into a lost one
    result: list[int] | None
    note: str | None = None


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


def review_game(
    start: str, grand_slam: str, cycle: str, moves: list[str], depth: int = 8
) -> GameReview:
    """Every move of the game against the engine's best: each legal move is searched to `depth`
    plies (fixed depth, so the review is the same on every machine) and the played move's score
    compared with the best one's."""
    if not 1 <= depth <= 12:
        raise ValueError(f"review depth must be 1-12, got {depth}")
    moves = [m.strip() for m in moves]
    if not moves:
        raise ValueError("there are no moves to review yet: play a move first")
    positions, offsets = replay(start, grand_slam, cycle, moves)
    engine = game_engine("auale", TABLEBASE_SEEDS)
    engine.clear()
    rows = []
    for ply, (p, off) in enumerate(zip(positions, offsets, strict=False)):
        scores = {m: _child_score(engine, p.play(m), depth)[0] for m in p.legal_moves()}
        best = max(scores, key=lambda m: (scores[m], m == off))
        played = scores[off]
        loss = scores[best] - played
        child = positions[ply + 1]
        exact = exact_verdict(child) if not child.is_over() else None
        after = evaluation_of(-played, child.to_move, f"engine, depth {depth}", exact)
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
                loss_seeds=round(loss / UNIT, 1) if abs(loss) < K.DECIDED else None,
                loss_text=loss_label(scores[best], played),
                before_text=score_label(scores[best]),
                after_text=score_label(played),
                south_after=after.south,
                exact=exact_verdict(p) is not None,
            )
        )
    ranked = sorted((r for r in rows if r.loss > 0), key=lambda r: (-r.loss, r.ply))[:3]
    worst = sorted(r.ply for r in ranked)
    rows = [dataclasses.replace(r, worst=r.ply in worst) for r in rows]
    totals = {
        s: sum(r.loss for r in rows if r.side == s and r.loss_seeds is not None) for s in SIDES
    }
    turning = {s: sum(1 for r in rows if r.side == s and r.loss_seeds is None) for s in SIDES}
    final = positions[-1]
    return GameReview(
        depth,
        f"auale evaluation units for the mover, {UNIT} per seed",
        rows,
        worst,
        totals,
        {s: round(t / UNIT, 1) for s, t in totals.items()},
        turning,
        list(final.result()) if final.is_over() else None,
    )
