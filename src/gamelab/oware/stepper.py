"""A lean game of Owaré for the environments: :meth:`gamelab.oware.rules.Position.play` on
mutable lists.

:class:`GameStepper` plays a move with the rules module's own :func:`~gamelab.oware.rules.
apply_move` (sowing, captures, the grand-slam rule) and :func:`~gamelab.oware.rules.
legal_offsets` (the feeding obligation), and ends the game as ``Position.play`` does: the
first repetition of (houses, side to move) since the last capture under ``own-row`` (the
third occurrence under ``split``), a decided score, or a side with no legal move, the board
then collected (or split). It keeps ``houses``, ``stores``, ``to_move``, ``legal`` and
``done`` up to date without building a :class:`~gamelab.oware.rules.Position` per move;
``state()`` replays the moves as a :class:`gamelab.oware.state.OwareState`. The tests play
both side by side.
"""

from __future__ import annotations

import copy

from gamelab.oware.rules import HOUSES, SEEDS, Position, apply_move, legal_offsets
from gamelab.oware.state import OwareGame, OwareState


class GameStepper:
    """Games of `game` (its rules, from its start) on plain lists (see the module)."""

    def __init__(self, game: OwareGame) -> None:
        self.game = game
        self.rules = game.rules
        self._split = game.rules.cycle == "split"
        self.houses: list[int] = []
        self.stores: list[int] = [0, 0]
        self.to_move = 0
        self.legal: list[int] = []
        self.done = True
        self.moves: list[int] = []
        self._seen: dict[tuple[int, ...], int] = {}

    def reset(self) -> None:
        start: Position = self.game.start or Position.initial(self.rules)
        self.houses = list(start.houses)
        self.stores = list(start.stores)
        self.to_move = start.to_move
        self.moves = []
        self._seen = {(*start.houses, start.to_move): 1}
        self.legal = start.legal_moves()
        self.done = start.is_over()
        if self.done:
            self.legal = []

    def step(self, move: int) -> None:
        """Play a legal `move` (a house offset in ``legal``)."""
        houses, stores = self.houses, self.stores
        captured = apply_move(houses, stores, self.to_move, move, self.rules)
        self.to_move = side = 1 - self.to_move
        self.moves.append(move)
        key = (*houses, side)
        if captured:
            self._seen = {key: 1}
        else:
            seen = self._seen.get(key, 0)
            self._seen[key] = seen + 1
            if seen >= (2 if self._split else 1):
                self._end(split=self._split)
                return
        s0, s1 = stores
        half = SEEDS // 2
        if s0 > half or s1 > half or s0 == s1 == half:
            self._end()
            return
        self.legal = legal_offsets(tuple(houses), side, self.rules)
        if not self.legal:
            self._end()

    def _end(self, split: bool = False) -> None:
        houses, stores = self.houses, self.stores
        if split:
            n = sum(houses)
            stores[0] += n // 2
            stores[1] += n // 2
            stores[self.to_move] += n % 2
        else:
            stores[0] += sum(houses[:6])
            stores[1] += sum(houses[6:])
        self.houses = [0] * HOUSES
        self.legal = []
        self.done = True

    def returns(self) -> tuple[float, float]:
        """(+1, -1), (-1, +1) or (0, 0) at the end, as the state protocol's returns."""
        if not self.done:
            return (0.0, 0.0)
        s0, s1 = self.stores
        if s0 == s1:
            return (0.0, 0.0)
        return (1.0, -1.0) if s0 > s1 else (-1.0, 1.0)

    def clone(self) -> GameStepper:
        """An independent copy of this game (the game and its rules shared)."""
        out = copy.copy(self)
        out.houses, out.stores, out.legal = list(self.houses), list(self.stores), list(self.legal)
        out.moves, out._seen = list(self.moves), dict(self._seen)
        return out

    def state(self) -> OwareState:
        """This game as a state of the protocol (the start and the moves, replayed)."""
        state = self.game.new_initial_state()
        for move in self.moves:
            state.apply(move)
        return state
