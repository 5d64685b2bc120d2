"""A sixth game in one file, registered in one place: Nim on one heap (the recipe in
DEVELOPERS.md, "Adding a game", followed to the letter).

Two players take turns taking 1, 2 or 3 counters from a heap; whoever takes the last one wins.
Action ``a`` takes ``a + 1`` counters. A position is lost for the player to move exactly when
the heap is a multiple of 4 (the oracle's values say so, and a test checks them against a
search of the whole game).

``tests/conftest.py`` imports this module, so :func:`register_game` below puts Nim beside the
package's five games for the whole test run: the playout battery, the review, the kernel
registry's test, the environments (Gymnasium's ``gamelab/Nim-v0`` against a random or
optimal opponent and a PettingZoo AEC environment, both built from the record and its view:
``tests/envs/test_envs_registry.py``) and OpenSpiel's registration
(:func:`gamelab.envs.openspiel.register`, with OpenSpiel's own API checks in
``tests/envs/test_envs_openspiel.py``) find it like any other game; only those tests' tables of
settings and shapes name it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from gamelab.core.oracle import TableOracle
from gamelab.core.state import TERMINAL, GameInfo, illegal, register_game
from gamelab.envs.observers import GameView

MAX_TAKE = 3


@dataclass(frozen=True)
class NimGame:
    """Nim on one heap of `heap` counters (1 to 100)."""

    heap: int = 7
    name: str = field(default="nim", init=False)
    num_players: int = field(default=2, init=False)
    num_actions: int = field(default=MAX_TAKE, init=False)
    num_chance_outcomes: int = field(default=0, init=False)
    zero_sum: bool = field(default=True, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.heap, int) or not 1 <= self.heap <= 100:
            raise ValueError(f"heap must be an integer from 1 to 100, got {self.heap!r}")

    def new_initial_state(self) -> NimState:
        return NimState(self, self.heap, 0)

    def state_from_text(self, text: str) -> NimState:
        try:
            heap_text, player_text = text.split()
            heap, player = int(heap_text.removeprefix("heap=")), int(player_text[-1])
        except ValueError:
            raise ValueError(f"not a Nim position: {text!r} (e.g. 'heap=5 to-move=0')") from None
        if not 0 <= heap <= self.heap or player not in (0, 1):
            raise ValueError(f"not a position of this game: {text!r}")
        return NimState(self, heap, player)


class NimState:
    """A heap and the player to move (the other one took the last counter when it is 0)."""

    def __init__(self, game: NimGame, heap: int, player: int) -> None:
        self.game, self.heap, self.player = game, heap, player

    def current_player(self) -> int:
        return TERMINAL if self.heap == 0 else self.player

    def legal_actions(self) -> list[int]:
        return list(range(min(MAX_TAKE, self.heap)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise illegal(action, self.legal_actions(), f"Nim at {self.to_text()}")
        self.heap -= action + 1
        self.player = 1 - self.player

    def is_terminal(self) -> bool:
        return self.heap == 0

    def returns(self) -> list[float]:
        if self.heap:
            return [0.0, 0.0]
        winner = 1 - self.player  # the player who took the last counter
        return [1.0 if p == winner else -1.0 for p in (0, 1)]

    def clone(self) -> NimState:
        return NimState(self.game, self.heap, self.player)

    def to_text(self) -> str:
        return f"heap={self.heap} to-move={self.player}"

    def action_to_string(self, action: int) -> str:
        return f"take {action + 1}"


@cache
def _value(heap: int) -> float:
    """The mover's exact result from a heap: +1 a win, -1 a loss (no position is a draw)."""
    return max(-_value(heap - take) for take in range(1, min(MAX_TAKE, heap) + 1)) if heap else -1


class NimOracle(TableOracle):
    """Exact action values of a Nim state for the player to move (:mod:`gamelab.core.oracle`)."""

    def values(self, state: NimState) -> dict[int, float]:
        return {a: -_value(state.heap - a - 1) for a in state.legal_actions()}


class NimView(GameView):
    """What a player sees (OpenSpiel's observers, :mod:`gamelab.envs.observers`): the heap, one
    counter count one-hot, and whether it is this player's turn."""

    def __init__(self, game: NimGame) -> None:
        self.game = game

    def pieces(self, mode: str) -> list[tuple[str, tuple[int, ...]]]:
        return [("heap", (self.game.heap + 1,)), ("to_move", (2,))]

    def fill(self, mode: str, inner: NimState, player: int, out: dict) -> None:
        out["heap"][inner.heap] = 1.0
        if not inner.is_terminal():
            out["to_move"][(inner.player - player) % 2] = 1.0

    def text(self, mode: str, inner: NimState, player: int) -> str:
        return inner.to_text()


def new_nim(heap: int = 7) -> NimGame:
    return NimGame(int(heap))


NIM = register_game(
    GameInfo(
        "nim",
        "Nim",
        "Nim on one heap: take 1 to 3 counters, whoever takes the last one wins.",
        new_nim,
        {"heap": 7},
        lambda game: NimOracle(),
        zero_sum=True,
        players=(2, 2),
        bounds=lambda game: (-1.0, 1.0, game.heap),
        view="toy_nim:NimView",
        envs=("gamelab/Nim-v0",),
    )
)
