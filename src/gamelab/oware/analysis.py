"""What the engine says about a position, in the players' notation and in seeds.

:func:`analyse` runs :class:`gamelab.oware.search.Engine` and returns an :class:`Analysis`: the
best move and the whole principal variation as house letters (``A``-``F`` South, ``a``-``f``
North, as in game records), and the score with its unit. Scores are for the side to move, in the
evaluation's units: ``auale`` counts 25 per seed of store difference (plus its house terms),
``blog`` 2 per seed; a decided game scores ``±(10000 − plies) + unit × final margin``.

>>> from gamelab.oware.rules import Position
>>> describe_score(75, "auale")
'+75 (auale evaluation units, 25 = one seed; about +3.0 seeds for the side to move)'
>>> describe_score(10000 - 7 + 25 * 4, "auale")
'+10093 (a won game for the side to move: 10000 − plies to the end + 25 × the final margin)'
>>> pv_letters(Position.initial(), [2, 3, 0])
['C', 'd', 'A']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamelab.oware import _search_kernels as K
from gamelab.oware.evaluation import SEED_UNIT, evaluation_code
from gamelab.oware.rules import TABLEBASE_SEEDS, Position, move_letter


def pv_letters(position: Position, pv: list[int]) -> list[str]:
    """The moves of `pv` (offsets 0-5 of the mover's row) as house letters, stopping where the
    line stops being legal (the search's line may run past the end of the game)."""
    out, p = [], position
    for m in pv:
        if p.is_over() or m not in p.legal_moves():
            break
        out.append(move_letter(p.to_move, m))
        p = p.play(m)
    return out


def describe_score(score: int, evaluation: str = "auale") -> str:
    """A score with its unit, for the side to move."""
    evaluation_code(evaluation)
    unit = SEED_UNIT[evaluation]
    if abs(score) >= K.DECIDED:
        verdict = "won" if score > 0 else "lost"
        return (
            f"{score:+d} (a {verdict} game for the side to move: 10000 − plies to the end "
            f"+ {unit} × the final margin)"
        )
    return (
        f"{score:+d} ({evaluation} evaluation units, {unit} = one seed; about "
        f"{score / unit:+.1f} seeds for the side to move)"
    )


@dataclass
class Analysis:
    """The engine's verdict on a position (moves as offsets and as letters)."""

    position: str  # the position's text form
    to_move: str  # "South" or "North"
    best_move: int  # offset 0-5 in the mover's row
    best_move_text: str  # its house letter
    score: int  # for the side to move, in `score_unit`
    score_unit: str
    score_text: str
    pv: list[int]
    pv_text: list[str]
    depth: int
    nodes: int
    nps: float
    seconds: float
    #: the endgame table the search probed: boards of at most this many seeds (-1: none)
    tablebase_seeds: int = TABLEBASE_SEEDS


def complete_pv(engine, position: Position, pv: list[int], depth: int) -> list[int]:
    """`pv` extended to `depth` plies (or the end of the game).

    The engine reads its principal variation back from the transposition table, where later
    entries may have been overwritten, so the line can stop short of the searched depth. Where it
    does, the position at its end is searched again to the remaining depth (a search far smaller
    than the root's, with the table still warm) and the line goes on with that search's move.
    """
    pv = list(pv)
    p = position
    for m in pv:
        p = p.play(m)
    while len(pv) < depth and not p.is_over():
        _, move, _, finished = engine.search_depth(p, depth - len(pv))
        if not finished or move not in p.legal_moves():
            break
        chunk = engine.principal_variation(p, move, depth - len(pv))
        for m in chunk:
            if p.is_over() or m not in p.legal_moves():
                break
            pv.append(m)
            p = p.play(m)
    return pv


def analyse(
    position: Position,
    time_limit: float | None = None,
    depth: int | None = None,
    evaluation: str = "auale",
    tablebase_seeds: int = TABLEBASE_SEEDS,
    engine: Any = None,
) -> Analysis:
    """Search `position` (`time_limit` seconds, or to `depth`; 2 s when neither is given).

    `engine` reuses an :class:`gamelab.oware.search.Engine` made with the same evaluation and
    tablebase (building one allocates its table and loads the tablebase)."""
    from gamelab.oware.search import Engine

    if position.is_over():
        raise ValueError(
            f"the game is over ({position.result()[0]}-{position.result()[1]}); "
            "there is no move to analyse"
        )
    if time_limit is None and depth is None:
        time_limit = 2.0
    if engine is None:
        engine = Engine(evaluation=evaluation, tablebase_seeds=tablebase_seeds)
    elif (engine.evaluation, engine.tablebase_seeds) != (evaluation, tablebase_seeds):
        raise ValueError("the engine given was made with another evaluation or tablebase")
    r = engine.search(position, time_limit=time_limit, depth=depth)
    pv = complete_pv(engine, position, list(r.pv), r.depth)
    unit = SEED_UNIT[evaluation]
    return Analysis(
        position=position.to_text(),
        to_move="South" if position.to_move == 0 else "North",
        best_move=r.best_move,
        best_move_text=move_letter(position.to_move, r.best_move),
        score=r.score,
        score_unit=f"{evaluation} evaluation units for the side to move, {unit} per seed",
        score_text=describe_score(r.score, evaluation),
        pv=pv,
        pv_text=pv_letters(position, pv),
        depth=r.depth,
        nodes=r.nodes,
        nps=round(r.nps, 1),
        seconds=round(r.seconds, 4),
        tablebase_seeds=engine.tablebase.max_seeds,
    )


def format_analysis(a: Analysis) -> str:
    """The analysis as two lines of text (the board is drawn by the caller)."""
    return (
        f"best move {a.best_move_text} for {a.to_move}, score {a.score_text}\n"
        f"principal variation ({len(a.pv_text)} plies): {' '.join(a.pv_text)}\n"
        f"depth {a.depth}, {a.nodes:,} nodes, {a.nps:,.0f} nodes/s, {table_words(a.tablebase_seeds)}"
    )


def table_words(seeds: int) -> str:
    """The endgame table a search probed, in words.

    >>> table_words(24), table_words(-1)
    ('exact endgames from 24 seeds down', 'no endgame table')
    """
    return "no endgame table" if seeds < 0 else f"exact endgames from {seeds} seeds down"
