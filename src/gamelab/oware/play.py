"""A game against a chosen player (:class:`PlaySession`, injectable I/O), and game records.

``gamelab oware play`` is :class:`PlaySession` wired to the terminal; any front end can drive
the same session with its own ``read_line`` / ``write`` (see :mod:`gamelab.core.interactive`).
A failed command (a typo, an illegal move, a ``save`` to a path that cannot be written, a record
that cannot be read) shows one ``error:`` line and the game goes on unchanged.

Game records and house letters are defined with the rules (:mod:`gamelab.oware.rules`);
this module reads and writes record files.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gamelab.core.files import read_text_file, write_text_atomic
from gamelab.core.interactive import QUIT_WORDS, Session, run_session
from gamelab.oware.analysis import analyse, move_letter, pv_letters
from gamelab.oware.match import EngineSpec, PlayerSpec
from gamelab.oware.rules import (
    MAX_RECORD_CHARS,
    TABLEBASE_SEEDS,
    Position,
    format_record,
    parse_move,
    parse_record,
)


def save_record(path: Path, start: Position, moves: list[int], south: str, north: str) -> None:
    """Write the game record to `path` (atomically); ValueError naming `path` if it cannot be."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"cannot save the game to {path}: it is a folder; give a file name")
    folder = next((p for p in path.parents if p.exists()), None)
    if folder is not None and not folder.is_dir():
        raise ValueError(f"cannot save the game to {path}: {folder} is a file, not a folder")
    try:
        write_text_atomic(path, format_record(start, moves, south, north))
    except OSError as exc:
        raise ValueError(f"cannot save the game to {path}: {exc.strerror or exc}") from None


def load_record(path: Path) -> tuple[Position, list[int], dict[str, str]]:
    """:func:`parse_record` of the file `path` (a regular file of at most
    :data:`MAX_RECORD_CHARS` bytes); a ValueError naming `path` otherwise."""
    text = read_text_file(path, "game record", max_bytes=MAX_RECORD_CHARS)
    try:
        return parse_record(text)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


HELP = """commands:
  A-F / a-f / 1-6   sow that house (your row; 1-6 count from your left)
  hint              the engine's suggestion
  eval              the engine's evaluation and its whole principal variation
  undo              take back your last move (and the reply)
  save FILE         write the game record
  load FILE         continue a saved game
  board             draw the board again
  help              this text
  q, quit           leave"""


class PlaySession(Session):
    """A game against `opponent` (a player spec, see :func:`gamelab.oware.match.parse_player`).

    The human plays `human_side` (0 South, 1 North); moves, hints and records use house letters.
    A command changes the game only when it succeeds (the opponent's reply included), so a failed
    or interrupted command leaves the game as it was.
    """

    def __init__(
        self,
        opponent: PlayerSpec = EngineSpec(time=1.0),
        human_side: int = 0,
        load: Path | None = None,
        seed: int = 0,
        analysis_time: float = 1.0,
        tablebase_seeds: int | None = None,
    ) -> None:
        from gamelab.oware.match import make_player
        from gamelab.oware.tablebase import engine_seeds

        if human_side not in (0, 1):
            raise ValueError(f"human_side must be 0 (South) or 1 (North), got {human_side}")
        self.opponent = str(opponent)
        self.human_side = human_side
        self.start, self.moves = Position.initial(), list[int]()
        if load is not None:  # a bad record is refused before the engine is built
            self.start, self.moves, _ = load_record(load)
        # the engine's default table is the best this machine has verified, as on the page
        # (tablebase.ready_reach); hint and eval probe the same
        self.tablebase_seeds = engine_seeds(tablebase_seeds)
        if isinstance(opponent, EngineSpec) and opponent.tablebase == TABLEBASE_SEEDS:
            opponent = dataclasses.replace(opponent, tablebase=self.tablebase_seeds)
        self.bot = make_player(opponent, seed)
        self.rng = np.random.default_rng(seed)
        self.analysis_time = analysis_time
        self.finished = False

    @property
    def position(self) -> Position:
        p = self.start
        for m in self.moves:
            p = p.play(m)
        return p

    @property
    def names(self) -> dict[int, str]:
        return {self.human_side: "human", 1 - self.human_side: self.opponent}

    @property
    def prompt(self) -> str:
        letters = "A-F" if self.human_side == 0 else "a-f"
        return f"your move ({letters}, or help)> "

    def intro(self) -> str:
        side = "South (A-F, bottom row)" if self.human_side == 0 else "North (a-f, top row)"
        lines = [
            f"You play {side} against {self.opponent}. Type 'help' for commands.",
            self.position.draw(),
        ]
        lines += self._advance(self.moves)
        return "\n".join(lines)

    def _advance(self, moves: list[int], start: Position | None = None) -> list[str]:
        """From `start` (default: the game's) and `moves`, let the opponent move until it is the
        human's turn or the game is over; only then commit the new game."""
        start = self.start if start is None else start
        moves = list(moves)
        p = start
        for m in moves:
            p = p.play(m)
        lines = []
        while not p.is_over() and p.to_move != self.human_side:
            m = self.bot.choose(p, moves, self.rng)
            lines.append(f"{self.opponent} plays {move_letter(p.to_move, m)}")
            moves.append(m)
            p = p.play(m)
            lines.append(p.draw())
        self.start, self.moves = start, moves
        if p.is_over():
            self.finished = True
            a, b = p.result()
            mine, theirs = (a, b) if self.human_side == 0 else (b, a)
            verdict = "you win" if mine > theirs else "draw" if mine == theirs else "you lose"
            lines.append(f"game over {a}-{b}: {verdict}")
        return lines

    def handle(self, line: str) -> str:
        text = line.strip()
        cmd, _, arg = text.partition(" ")
        arg = arg.strip()
        word = cmd.lower()
        p = self.position
        if word in QUIT_WORDS:
            self.finished = True
            return ""
        if word in ("help", "?"):
            return HELP
        if not text:
            return "type a house letter to sow it, or help"
        if word == "board":
            return p.draw()
        if word in ("hint", "eval"):
            a = analyse(p, time_limit=self.analysis_time, tablebase_seeds=self.tablebase_seeds)
            if word == "hint":
                return f"hint: {a.best_move_text}; score {a.score_text}; depth {a.depth}"
            return (
                f"evaluation for the side to move: {a.score_text}; depth {a.depth}\n"
                f"principal variation: {' '.join(a.pv_text)}"
            )
        if word == "undo":
            moves = list(self.moves)
            while moves:
                moves.pop()
                q = self.start
                for m in moves:
                    q = q.play(m)
                if q.to_move == self.human_side:
                    break
            if moves == self.moves:
                return "nothing to undo"
            self.moves = moves
            return self.position.draw()
        if word == "save":
            if not arg:
                raise ValueError("save needs a file name, e.g. save game.txt")
            save_record(Path(arg), self.start, self.moves, self.names[0], self.names[1])
            return f"saved {arg}"
        if word == "load":
            if not arg:
                raise ValueError("load needs a file name, e.g. load game.txt")
            start, moves, _ = load_record(Path(arg))
            q = start
            for m in moves:
                q = q.play(m)
            return "\n".join([f"loaded {arg}", q.draw(), *self._advance(moves, start)])
        m = parse_move(cmd, p)
        lines = [p.play(m).draw()]
        lines += self._advance(self.moves + [m])
        return "\n".join(lines)


def run_terminal_game(
    opponent: PlayerSpec = EngineSpec(time=1.0),
    human_side: int = 0,
    load: Path | None = None,
    seed: int = 0,
    input_fn: Callable[[str], str] = input,
    print_fn: Callable[[str], None] | None = None,
    analysis_time: float = 1.0,
    tablebase_seeds: int | None = None,
) -> list[int]:
    """Play with `input_fn` / `print_fn` (the terminal by default); returns the move list when
    the game ends or the player quits."""
    session = PlaySession(opponent, human_side, load, seed, analysis_time, tablebase_seeds)
    if print_fn is None:
        from gamelab.core.interactive import run_in_terminal

        run_in_terminal(session)
    else:
        run_session(session, input_fn, print_fn)
    return session.moves


__all__ = [
    "PlaySession",
    "run_terminal_game",
    "format_record",
    "parse_record",
    "save_record",
    "load_record",
    "parse_move",
    "move_letter",
    "pv_letters",
]
