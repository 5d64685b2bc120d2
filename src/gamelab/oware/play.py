"""A terminal game against a chosen player, and game records.

Game record format (plain text, one ``key: value`` header per line, ``#`` starts a comment)::

    # gamelab oware record v1
    rules: grand-slam=no-capture cycle=own-row
    start: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S
    south: human
    north: engine:time=1
    moves: C f A b E
    result: 25-23

Moves are house letters: ``A``-``F`` for South's houses 0-5 and ``a``-``f`` for North's houses
6-11 (offsets 0-5 from each player's left), as OpenSpiel's board and Aualé's notation label them.
``start`` is the position's text form (see :mod:`gamelab.oware.rules`); ``result`` is written for
finished games and checked when a record is loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from gamelab.core.report import write_text_atomic
from gamelab.oware.rules import Position, Rules

HEADER = "# gamelab oware record v1"


def move_letter(side: int, offset: int) -> str:
    return ("ABCDEF" if side == 0 else "abcdef")[offset]


def parse_move(token: str, position: Position) -> int:
    """A move typed as a letter (A-F South, a-f North) or a digit 1-6 (mover's houses)."""
    t = token.strip()
    if len(t) == 1 and t.isdigit() and 1 <= int(t) <= 6:
        offset = int(t) - 1
    elif len(t) == 1 and t in "ABCDEF":
        if position.to_move != 0:
            raise ValueError(f"{t} is a South house but North is to move; North's houses are a-f")
        offset = "ABCDEF".index(t)
    elif len(t) == 1 and t in "abcdef":
        if position.to_move != 1:
            raise ValueError(f"{t} is a North house but South is to move; South's houses are A-F")
        offset = "abcdef".index(t)
    else:
        raise ValueError(f"a move is a house letter (A-F for South, a-f for North) or 1-6, got {token!r}")
    if offset not in position.legal_moves():
        legal = " ".join(move_letter(position.to_move, m) for m in position.legal_moves())
        raise ValueError(f"house {t} cannot be played now; legal: {legal or 'none'}")
    return offset


def format_record(start: Position, moves: list[int], south: str = "?", north: str = "?") -> str:
    p = start
    letters = []
    for m in moves:
        letters.append(move_letter(p.to_move, m))
        p = p.play(m)
    lines = [HEADER, f"rules: grand-slam={start.rules.grand_slam} cycle={start.rules.cycle}",
             f"start: {start.to_text()}", f"south: {south}", f"north: {north}",
             f"moves: {' '.join(letters)}"]
    if p.is_over():
        lines.append("result: {}-{}".format(*p.result()))
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> tuple[Position, list[int], dict[str, str]]:
    """(start position, moves as offsets, headers); raises ValueError on a bad record."""
    headers: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"record line {number} is not 'key: value': {raw!r}")
        headers[key.strip().lower()] = value.strip()
    rules_kw = {}
    for item in headers.get("rules", "").split():
        k, _, v = item.partition("=")
        if k not in ("grand-slam", "cycle"):
            raise ValueError(f"unknown rule {k!r} in record; rules are grand-slam=... cycle=...")
        rules_kw["grand_slam" if k == "grand-slam" else "cycle"] = v
    start = Position.from_text(headers.get("start", "start"), Rules(**rules_kw))
    p, moves = start, []
    for i, token in enumerate(headers.get("moves", "").split(), 1):
        try:
            m = parse_move(token, p)
        except ValueError as exc:
            raise ValueError(f"record move {i} ({token}): {exc}") from None
        moves.append(m)
        p = p.play(m)
    if "result" in headers:
        if not p.is_over() or "{}-{}".format(*p.result()) != headers["result"]:
            raise ValueError(f"record result {headers['result']} does not match its moves")
    return start, moves, headers


def save_record(path: Path, start: Position, moves: list[int], south: str, north: str) -> None:
    write_text_atomic(Path(path), format_record(start, moves, south, north))


def load_record(path: Path) -> tuple[Position, list[int], dict[str, str]]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read game record {path}: {exc.strerror}") from None
    return parse_record(text)


HELP = """commands:
  A-F / a-f / 1-6   sow that house (your row)
  hint              the engine's suggestion
  eval              the engine's evaluation of the position
  undo              take back your last move (and the reply)
  save FILE         write the game record
  load FILE         continue a saved game
  board             draw the board again
  quit              leave"""


def run_terminal_game(
    opponent: str = "engine:time=1",
    human_side: int = 0,
    load: Path | None = None,
    seed: int = 0,
    input_fn: Callable[[str], str] = input,
    print_fn: Callable[[str], None] | None = None,
    analysis_time: float = 1.0,
    tablebase_seeds: int = 12,
) -> list[int]:
    """Play in the terminal; returns the move list when the game ends or the player quits."""
    from gamelab.oware.match import make_player
    from gamelab.oware.search import Engine

    if print_fn is None:
        from gamelab.cli_common import console

        def print_fn(text: str) -> None:
            console.print(text, markup=False, highlight=False)

    bot = make_player(opponent, seed)
    rng = np.random.default_rng(seed)
    analyst = Engine(tablebase_seeds=tablebase_seeds)
    start, moves = Position.initial(), []
    if load is not None:
        start, moves, _ = load_record(load)

    def current() -> Position:
        p = start
        for m in moves:
            p = p.play(m)
        return p

    names = {human_side: "human", 1 - human_side: opponent}
    print_fn(f"You play {'South (A-F, bottom row)' if human_side == 0 else 'North (a-f, top row)'}"
             f" against {opponent}. Type 'help' for commands.")
    p = current()
    print_fn(p.draw())
    while not p.is_over():
        if p.to_move != human_side:
            m = bot.choose(p, moves, rng)
            moves.append(m)
            print_fn(f"{opponent} plays {move_letter(p.to_move, m)}")
            p = p.play(m)
            print_fn(p.draw())
            continue
        try:
            line = input_fn("your move> ").strip()
        except EOFError:
            return moves
        cmd, _, arg = line.partition(" ")
        try:
            if cmd in ("quit", "exit", "q"):
                return moves
            if cmd == "help" or cmd == "":
                print_fn(HELP)
            elif cmd == "board":
                print_fn(p.draw())
            elif cmd in ("hint", "eval"):
                r = analyst.search(p, time_limit=analysis_time)
                if cmd == "hint":
                    print_fn(f"hint: {move_letter(p.to_move, r.best_move)} "
                             f"(score {r.score}, depth {r.depth})")
                else:
                    pv = " ".join(_letters(p, r.pv))
                    print_fn(f"evaluation for the side to move: {r.score} "
                             f"(25 = one seed; depth {r.depth}; line {pv})")
            elif cmd == "undo":
                while moves:
                    moves.pop()
                    if current().to_move == human_side:
                        break
                p = current()
                print_fn(p.draw())
            elif cmd == "save":
                if not arg:
                    raise ValueError("save needs a file name")
                save_record(Path(arg), start, moves, names[0], names[1])
                print_fn(f"saved {arg}")
            elif cmd == "load":
                if not arg:
                    raise ValueError("load needs a file name")
                start, moves, _ = load_record(Path(arg))
                p = current()
                print_fn(p.draw())
            else:
                m = parse_move(cmd, p)
                moves.append(m)
                p = p.play(m)
                print_fn(p.draw())
        except ValueError as exc:
            print_fn(f"error: {exc}")
    a, b = p.result()
    mine, theirs = (a, b) if human_side == 0 else (b, a)
    verdict = "you win" if mine > theirs else "draw" if mine == theirs else "you lose"
    print_fn(f"game over {a}-{b}: {verdict}")
    return moves


def _letters(position: Position, moves: list[int]) -> list[str]:
    out = []
    p = position
    for m in moves:
        out.append(move_letter(p.to_move, m))
        p = p.play(m)
    return out
