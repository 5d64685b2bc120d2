"""Owaré through the common state protocol (:mod:`gamelab.core.state`): two players, no chance.

Player 0 is South (moves first), player 1 North; an action is the house offset 0-5 within the
mover's row (:meth:`gamelab.oware.rules.Position.play` decides everything). Returns are +1 for
the winner, -1 for the loser, 0 each for a draw. The text of a state is the start position and
the moves played (``4-4-4-4-4-4-4-4-4-4-4-4-0-0-S: 2 5 0``): the repetition rule needs the
history, which a position's own text does not hold.

>>> g = OwareGame(); s = g.new_initial_state(); s.apply(2); s.to_text()
'4-4-4-4-4-4-4-4-4-4-4-4-0-0-S: 2'
>>> g.state_from_text(s.to_text()).position == s.position
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gamelab.core.state import TERMINAL, illegal
from gamelab.oware.rules import ABAPA, HOUSES, Position, Rules, move_letter, parse_move

SIDES = ("south", "north")


@dataclass(frozen=True)
class OwareGame:
    """Owaré under `rules`, from `start` (the initial position by default)."""

    rules: Rules = ABAPA
    start: Position | None = None
    name: str = field(default="oware", init=False)
    num_players: int = field(default=2, init=False)
    num_actions: int = field(default=HOUSES // 2, init=False)
    num_chance_outcomes: int = field(default=0, init=False)
    zero_sum: bool = field(default=True, init=False)

    def new_initial_state(self) -> OwareState:
        start = self.start if self.start is not None else Position.initial(self.rules)
        return OwareState(self, start, start, [])

    def state_from_text(self, text: str) -> OwareState:
        head, _, tail = text.partition(":")
        start = Position.from_text(head, self.rules)
        state = OwareState(self, start, start, [])
        for token in tail.split():
            try:
                move = int(token)
            except ValueError:
                raise ValueError(f"a move is a house offset 0-5, got {token!r}") from None
            state.apply(move)
        return state


class OwareState:
    """A position and the moves that led to it from the game's start."""

    __slots__ = ("game", "start", "position", "moves")

    def __init__(self, game: OwareGame, start: Position, position: Position, moves: list[int]):
        self.game = game
        self.start = start
        self.position = position
        self.moves = moves

    def current_player(self) -> int:
        return TERMINAL if self.position.is_over() else self.position.to_move

    def legal_actions(self) -> list[int]:
        return self.position.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def apply(self, action: int) -> None:
        try:  # the position refuses an illegal move itself
            move = int(action)
            if move != action:
                raise ValueError(action)
            self.position = self.position.play(move)
        except (ValueError, TypeError):
            where = f"Owaré position {self.position.to_text()}"
            raise illegal(action, self.position.legal_moves(), where) from None
        self.moves.append(move)

    def is_terminal(self) -> bool:
        return self.position.is_over()

    def returns(self) -> list[float]:
        if not self.position.is_over():
            return [0.0, 0.0]
        winner = self.position.winner()
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def clone(self) -> OwareState:
        return OwareState(self.game, self.start, self.position, list(self.moves))

    def _repr_svg_(self) -> str:
        """The board in a notebook (:mod:`gamelab.oware.pictures`)."""
        from gamelab.oware.pictures import board_svg

        p = self.position
        return board_svg(p.houses, p.stores, p.to_move)

    def to_text(self) -> str:
        moves = " ".join(str(m) for m in self.moves)
        return f"{self.start.to_text()}: {moves}" if moves else f"{self.start.to_text()}:"

    def action_to_string(self, action: int) -> str:
        return move_letter(self.position.to_move, int(action))

    def string_to_action(self, text: str) -> int:
        """The action of a house letter (:meth:`action_to_string`'s notation: ``A``-``F``
        South's, ``a``-``f`` North's); a ValueError says why it cannot be played here (whose
        move it is, an empty house, the feeding or grand-slam rule: ``rules.parse_move``).

        >>> OwareGame().new_initial_state().string_to_action("C")
        2
        """
        return parse_move(text, self.position, digits=False)

    def __str__(self) -> str:
        return self.position.draw()


def record_trail(start: Position, moves: Sequence[int]) -> tuple[OwareState, list[Position]]:
    """The game of a record (its start and its moves, house offsets) as an :class:`OwareState`,
    and the position before each move and after the last; a ValueError names an illegal move.
    The one way a saved game is opened (the terminal game's ``load``, the page's record box)."""
    state = OwareGame(start.rules, start).new_initial_state()
    trail = [start]
    for action in moves:
        state.apply(action)
        trail.append(state.position)
    return state, trail


def record_state(start: Position, moves: Sequence[int]) -> OwareState:
    """The game of a record as an :class:`OwareState` (:func:`record_trail`'s state)."""
    return record_trail(start, moves)[0]
