"""What a verdict on an Owaré position looks like to a player: the tablebase's exact result, a
score as an evaluation bar, and a score or a loss in words (for the page, the review and the
terminal game).

Scores are the engine's (:mod:`gamelab.oware.analysis`): for the side to move, :data:`UNIT`
units per seed, ``±(10000 − plies) + 25 × margin`` for a decided game.

>>> score_label(-60), score_label(10000 - 9 + 25 * 4)
('-2.4 seeds', 'a won game')
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gamelab.oware import _search_kernels as K
from gamelab.oware.evaluation import SEED_UNIT

SIDES = ("South", "North")
UNIT = SEED_UNIT["auale"]
#: what the tablebase's verdicts assume (see gamelab.oware.tablebase and docs/oware.md)
TABLEBASE_BASIS = (
    "perfect play of the seeds on the board until nobody can move (the winner is the "
    "one Abapa's stop at 25 gives); a capture-free cycle counts as an even split"
)


@dataclass(frozen=True)
class Exact:
    """The tablebase's verdict on a position (Abapa, at most ``exact_reach()`` seeds on the
    board): the result under perfect play by both sides, for the side to move and as the final
    split."""

    seeds: int  # seeds on the board
    outcome: str  # "win", "draw" or "loss" for the side to move
    side: str  # the side to move
    final: list[int]  # South's and North's seeds at the end
    south: float  # what an evaluation bar shows: 1 South wins, 0.5 a draw, 0 North wins
    text: str
    basis: str = TABLEBASE_BASIS


@dataclass(frozen=True)
class Evaluation:
    """A score turned into what an evaluation bar shows: `south` is the bar's share for South
    (0.5 even, 1 South wins), `text` says who is ahead and by how much."""

    score: int  # for `side`
    side: str
    exact: bool
    south: float
    text: str
    source: str


def score_label(score: int, unit: int = UNIT, side: str | None = None) -> str:
    """A score for the side to move in words: ``-2.4 seeds``, ``a won game``, ``a lost game``;
    with that side's name, whose advantage it is: ``North ahead by 2.4 seeds``, ``South wins``.

    >>> score_label(-60, side="South"), score_label(10091, side="North"), score_label(1, side="South")
    ('North ahead by 2.4 seeds', 'North wins', 'even')
    """
    if side is not None:
        other = SIDES[1 - SIDES.index(side)]
        if score >= K.DECIDED:
            return f"{side} wins"
        if score <= -K.DECIDED:
            return f"{other} wins"
        seeds = score / unit
        if abs(seeds) < 0.05:
            return "even"
        return f"{side if seeds > 0 else other} ahead by {abs(seeds):.1f} seeds"
    if score >= K.DECIDED:
        return "a won game"
    if score <= -K.DECIDED:
        return "a lost game"
    return f"{score / unit:+.1f} seeds"


def loss_label(best: int, played: int, unit: int = UNIT, side: str | None = None) -> str:
    """What a move lost against the best one, both scores for the mover; with the mover's name,
    as a sentence about that side.

    >>> loss_label(30, 30), loss_label(30, -45), loss_label(10050, 20), loss_label(40, -10030)
    ('', '-3.0 seeds', 'lets a won game go', 'walks into a lost game')
    >>> loss_label(30, -45, side="South"), loss_label(10050, 20, side="North")
    ('South gave away 3.0 seeds', 'North let a won game go')
    """
    if played >= best:
        return ""
    if side is not None:
        if best >= K.DECIDED > played:
            return f"{side} let a won game go"
        if played <= -K.DECIDED < best:
            return f"{side} walked into a lost game"
        return f"{side} gave away {(best - played) / unit:.1f} seeds"
    if best >= K.DECIDED > played:
        return "lets a won game go"
    if played <= -K.DECIDED < best:
        return "walks into a lost game"
    return f"{(played - best) / unit:+.1f} seeds"


def evaluation_of(
    score: int, side: int, source: str, exact: Exact | None = None, unit: int = UNIT
) -> Evaluation:
    """`score` (for `side`, engine units: `unit` per seed) as an evaluation bar; an exact
    verdict overrides it."""
    if exact is not None:
        return Evaluation(score, SIDES[side], True, exact.south, exact.text, "endgame tablebase")
    south = score if side == 0 else -score
    if abs(south) >= K.DECIDED:
        share = 1.0 if south > 0 else 0.0
        text = f"{SIDES[0] if south > 0 else SIDES[1]} wins by force (the engine sees the end)"
    else:
        seeds = south / unit
        share = 1 / (1 + math.exp(-seeds / 3))  # a 3-seed lead fills about three quarters
        if abs(seeds) < 0.5:
            text = "about even"
        else:
            text = f"{SIDES[0] if seeds > 0 else SIDES[1]} ahead by about {abs(seeds):.1f} seeds"
    return Evaluation(score, SIDES[side], False, round(share, 4), text, source)
