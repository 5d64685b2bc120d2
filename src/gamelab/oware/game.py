"""A game of Owaré as a front end sees it: replayed from its start and moves, each move checked
with the reason it is illegal, the opponent's reply, and an engine review of the whole game.

The state is the start position (its text form), the rule variant and the moves as house letters
(``A``-``F`` South, ``a``-``f`` North, as in :mod:`gamelab.oware.play`'s records), so a page or
any other shell holds the whole game and the library replays it on every call.

>>> view = game_view(START_TEXT, "no-capture", "own-row", ["C"])
>>> view.houses, view.to_move, view.legal
([4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4], 'North', ['a', 'b', 'c', 'd', 'e', 'f'])
>>> play_move(START_TEXT, "no-capture", "own-row", ["C"], "C")
Traceback (most recent call last):
...
ValueError: it is North's move: play one of a-f (North's houses), not C
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gamelab.oware.analysis import Analysis, analyse, move_letter
from gamelab.oware.match import make_player, parse_player
from gamelab.oware.play import format_record, parse_record
from gamelab.oware.rules import START_TEXT, Position, Rules

__all__ = ["START_TEXT", "GameView", "EngineReply", "ReviewedMove", "GameReview", "game_view",
           "play_move", "engine_reply", "review_game", "load_record", "analyse_position"]

SIDES = ("South", "North")


@dataclass(frozen=True)
class LastMove:
    move: str
    side: str
    sown: int
    captured: int
    captured_houses: list[int]


@dataclass(frozen=True)
class GameView:
    """The game after its moves: the board, whose move, the legal moves, the result, the record."""

    start: str
    grand_slam: str
    cycle: str
    moves: list[str]
    position: str
    houses: list[int]
    stores: list[int]
    to_move: str
    legal: list[str]
    over: bool
    result: list[int] | None
    winner: str | None
    last: LastMove | None
    record: str


@dataclass(frozen=True)
class EngineReply:
    """The opponent's move, its analysis when the opponent is the engine, and the game after it."""

    opponent: str
    move: str
    analysis: Analysis | None
    view: GameView
    note: str | None = None


@dataclass(frozen=True)
class ReviewedMove:
    ply: int
    side: str
    move: str
    best: str
    score_best: int
    score_played: int
    loss: int
    pv: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class GameReview:
    """Each move against the engine's best at a fixed depth: scores for the mover, in the
    engine's units (25 per seed), and the loss (0 when the move was the best or as good)."""

    depth: int
    score_unit: str
    moves: list[ReviewedMove]
    worst: list[int]
    total_loss: dict[str, int]


def _rules(grand_slam: str, cycle: str) -> Rules:
    return Rules(grand_slam=grand_slam, cycle=cycle)


def _offset(position: Position, letter: str) -> int:
    """The offset of a house letter for the side to move, or a ValueError saying why not."""
    text = letter.strip()
    side = SIDES[position.to_move]
    own = "ABCDEF" if position.to_move == 0 else "abcdef"
    if position.is_over():
        a, b = position.result()
        raise ValueError(f"the game is over ({a}-{b}); no move can be played")
    if len(text) != 1 or text not in "ABCDEFabcdef":
        raise ValueError(f"move {letter!r} is not a house: A-F are South's houses, a-f North's")
    if text not in own:
        raise ValueError(f"it is {side}'s move: play one of {own[0]}-{own[-1]} ({side}'s houses), "
                         f"not {text}")
    offset = own.index(text)
    house = offset + 6 * position.to_move
    if position.houses[house] == 0:
        raise ValueError(f"house {text} is empty")
    if offset not in position.legal_moves():
        theirs = position.houses[6:] if position.to_move == 0 else position.houses[:6]
        if sum(theirs) == 0:
            raise ValueError(f"{SIDES[1 - position.to_move]} has no seeds: a move must sow into "
                             f"their row (the feeding rule), and house {text} does not reach it")
        raise ValueError(f"house {text} would capture every seed of the opponent (a grand slam), "
                         f"which the {position.rules.grand_slam} rule forbids here")
    return offset


def _replay(start: str, grand_slam: str, cycle: str, moves: list[str]) -> tuple[Position, list[Position], list[int]]:
    if len(moves) > 2000:
        raise ValueError(f"a game of {len(moves)} moves is longer than any game can be")
    p = Position.from_text(start, _rules(grand_slam, cycle))
    positions, offsets = [p], []
    for i, m in enumerate(moves):
        try:
            off = _offset(p, m)
        except ValueError as exc:
            raise ValueError(f"move {i + 1} ({m}): {exc}") from None
        p = p.play(off)
        positions.append(p)
        offsets.append(off)
    return p, positions, offsets


def _view(positions: list[Position], offsets: list[int], moves: list[str]) -> GameView:
    start, p = positions[0], positions[-1]
    last = None
    if offsets:
        before = positions[-2]
        mover = before.to_move
        captured = p.stores[mover] - before.stores[mover]
        theirs = range(6, 12) if mover == 0 else range(0, 6)
        after_houses = list(before.houses)
        from gamelab.oware.rules import apply_move

        stores = list(before.stores)
        apply_move(after_houses, stores, mover, offsets[-1], before.rules)
        emptied = [h for h in theirs if before.houses[h] and not after_houses[h] and captured > 0]
        last = LastMove(moves[-1], SIDES[mover], before.houses[offsets[-1] + 6 * mover],
                        captured, emptied)
    over = p.is_over()
    winner = p.winner() if over else None
    return GameView(
        start=start.to_text(), grand_slam=start.rules.grand_slam, cycle=start.rules.cycle,
        moves=list(moves), position=p.to_text(), houses=list(p.houses), stores=list(p.stores),
        to_move=SIDES[p.to_move], legal=[] if over else [move_letter(p.to_move, m) for m in p.legal_moves()],
        over=over, result=list(p.result()) if over else None,
        winner=(None if winner is None else SIDES[winner]) if over else None,
        last=last, record=format_record(start, offsets),
    )


def game_view(start: str, grand_slam: str, cycle: str, moves: list[str]) -> GameView:
    """The game replayed from `start` through `moves` (house letters), checked move by move."""
    _, positions, offsets = _replay(start, grand_slam, cycle, moves)
    return _view(positions, offsets, moves)


def play_move(start: str, grand_slam: str, cycle: str, moves: list[str], move: str) -> GameView:
    """The game after the side to move plays `move`; a ValueError says why an illegal one is."""
    p, positions, offsets = _replay(start, grand_slam, cycle, moves)
    off = _offset(p, move)
    positions.append(p.play(off))
    offsets.append(off)
    return _view(positions, offsets, [*moves, move.strip()])


def engine_reply(start: str, grand_slam: str, cycle: str, moves: list[str], opponent: str,
                 seed: int = 0) -> EngineReply:
    """The opponent's move (``engine:time=0.5``, ``engine:depth=8``, ``blog:depth=4``, ``greedy``,
    ``random``); random choices are seeded by (seed, ply), so a game replays."""
    spec = parse_player(opponent)
    if spec.kind == "mcts":
        raise ValueError("the mcts opponent needs OpenSpiel and is not offered here")
    p, positions, offsets = _replay(start, grand_slam, cycle, moves)
    if p.is_over():
        raise ValueError("the game is over; there is no move to reply")
    analysis = None
    if spec.kind == "engine":
        o = spec.options
        analysis = analyse(p, time_limit=o.get("time"), depth=o.get("depth"),
                           evaluation=o.get("eval", "auale"), tablebase_seeds=o.get("tb", 12))
        off = analysis.best_move
    else:
        rng = np.random.default_rng([seed, len(moves)])
        off = make_player(spec, seed).choose(p, p.legal_moves(), rng)
    letter = move_letter(p.to_move, off)
    positions.append(p.play(off))
    offsets.append(off)
    return EngineReply(str(spec), letter, analysis, _view(positions, offsets, [*moves, letter]))


def analyse_position(position: str, grand_slam: str = "no-capture", cycle: str = "own-row",
                     time_limit: float = 1.0) -> Analysis:
    """The engine's analysis of any position given in its text form."""
    if not 0 < time_limit <= 30:
        raise ValueError(f"analysis time must be in (0, 30] seconds, got {time_limit}")
    return analyse(Position.from_text(position, _rules(grand_slam, cycle)), time_limit=time_limit)


def review_game(start: str, grand_slam: str, cycle: str, moves: list[str], depth: int = 6) -> GameReview:
    """Every move of the game against the engine's best at `depth` plies (fixed depth, so the
    review is the same on every machine)."""
    from gamelab.oware.search import Engine

    if not 1 <= depth <= 12:
        raise ValueError(f"review depth must be 1-12, got {depth}")
    _, positions, offsets = _replay(start, grand_slam, cycle, moves)
    engine = Engine()
    rows = []
    for ply, (p, off) in enumerate(zip(positions, offsets, strict=False)):
        best = engine.search(p, depth=depth)
        child = p.play(off)
        if child.is_over():
            a, b = child.result()
            mine, theirs = (a, b) if p.to_move == 0 else (b, a)
            margin = mine - theirs  # a finished game, scored as the engine scores decided ones
            played = 0 if margin == 0 else (10000 if margin > 0 else -10000) + 25 * margin
        else:
            played = -engine.search(child, depth=depth - 1).score if depth > 1 else 0
        score_best = max(best.score, played)
        rows.append(ReviewedMove(ply + 1, SIDES[p.to_move], moves[ply],
                                 move_letter(p.to_move, best.best_move), score_best, played,
                                 score_best - played))
    worst = sorted(range(len(rows)), key=lambda i: -rows[i].loss)[:3]
    worst = [rows[i].ply for i in worst if rows[i].loss > 0]
    totals = {s: sum(r.loss for r in rows if r.side == s) for s in SIDES}
    return GameReview(depth, "auale evaluation units for the mover, 25 per seed", rows, worst, totals)


def load_record(text: str) -> GameView:
    """A game record (the text ``gamelab oware play`` saves) opened as a game."""
    if len(text) > 50_000:
        raise ValueError("a game record is at most 50,000 characters")
    start, offsets, _ = parse_record(text)
    p, letters = start, []
    for off in offsets:
        letters.append(move_letter(p.to_move, off))
        p = p.play(off)
    return game_view(start.to_text(), start.rules.grand_slam, start.rules.cycle, letters)


def warm_up() -> None:
    """Load the engine's kernels (compiled once, then from numba's cache)."""
    engine_reply(START_TEXT, "no-capture", "own-row", [], "engine:depth=2")
