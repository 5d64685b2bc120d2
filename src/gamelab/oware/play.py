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
from gamelab.oware.state import OwareState, record_state


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
    The game is an :class:`~gamelab.oware.state.OwareState` (the state protocol, as on the page
    and in the environments): moves, turns and the end come from it. A command changes the game
    only when it succeeds (the opponent's reply included), so a failed or interrupted command
    leaves the game as it was.
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
        self.state = record_state(Position.initial(), [])
        if load is not None:  # a bad record is refused before the engine is built
            self.state = record_state(*load_record(load)[:2])
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
    def start(self) -> Position:
        return self.state.start

    @property
    def moves(self) -> list[int]:
        """The moves played from :attr:`start` (house offsets 0-5 of the mover's row)."""
        return list(self.state.moves)

    @property
    def position(self) -> Position:
        return self.state.position

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
        lines += self._advance(self.state.clone())
        return "\n".join(lines)

    def _advance(self, state: OwareState) -> list[str]:
        """Let the opponent move in `state` (a copy: the game is not touched until then) until it
        is the human's turn or the game is over; only then make it the game."""
        lines = []
        while not state.is_terminal() and state.current_player() != self.human_side:
            action = self.bot.choose(state.position, state.moves, self.rng)
            lines.append(f"{self.opponent} plays {state.action_to_string(action)}")
            state.apply(action)
            lines.append(state.position.draw())
        self.state = state
        if state.is_terminal():
            self.finished = True
            a, b = state.position.result()
            mine = state.returns()[self.human_side]
            verdict = "you win" if mine > 0 else "draw" if mine == 0 else "you lose"
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
        if word == "undo":  # back to your previous turn (none before the game's first)
            moves = self.moves
            while moves:
                moves.pop()
                earlier = record_state(self.start, moves)
                if earlier.current_player() == self.human_side:
                    self.state = earlier
                    return self.position.draw()
            return "nothing to undo"
        if word == "save":
            if not arg:
                raise ValueError("save needs a file name, e.g. save game.txt")
            save_record(Path(arg), self.start, self.moves, self.names[0], self.names[1])
            return f"saved {arg}"
        if word == "load":
            if not arg:
                raise ValueError("load needs a file name, e.g. load game.txt")
            loaded = record_state(*load_record(Path(arg))[:2])
            return "\n".join([f"loaded {arg}", loaded.position.draw(), *self._advance(loaded)])
        state = self.state.clone()
        # the terminal's notation: the protocol's house letters, or 1-6 along the mover's row
        state.apply(parse_move(cmd, state.position))
        return "\n".join([state.position.draw(), *self._advance(state)])


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
