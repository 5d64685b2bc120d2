"""The common game-state protocol: every game seen as an OpenSpiel-style ``State``.

A game (:class:`GameDef`) makes states; a state (:class:`GameState`) says whose turn it is
(a player 0, 1, ..., :data:`CHANCE` or :data:`TERMINAL`), which actions are legal, and, at a
chance node, every outcome with its exact probability. ``apply(action)`` changes the state in
place (``clone()`` first to keep it), ``returns()`` gives each player's result at the end, and
``to_text()`` / ``GameDef.state_from_text`` are a lossless round trip.

Actions are small non-negative integers: a player's action below ``GameDef.num_actions`` and a
chance outcome below ``GameDef.num_chance_outcomes``. An illegal action raises
:class:`IllegalActionError` (a ``ValueError`` that names the action and the legal ones) and
leaves the state unchanged.

The games adapt their own rules to this protocol (``gamelab.<game>.state``); nothing here knows
a game. Shells that play games (the environments of ``gamelab.envs``, the playout battery) drive
every game through it alone.

>>> class Coin:  # a one-flip game: chance, then terminal
...     def __init__(self): self.face = None
...     def current_player(self): return CHANCE if self.face is None else TERMINAL
...     def chance_outcomes(self): return [(0, 0.5), (1, 0.5)] if self.face is None else []
...     def legal_actions(self): return [a for a, _ in self.chance_outcomes()]
...     def apply(self, action): self.face = action
...     def is_terminal(self): return self.face is not None
>>> import numpy as np
>>> s = Coin(); play_random(s, np.random.default_rng(0)), s.face in (0, 1)
(1, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

#: `current_player()` at a chance node (OpenSpiel's kChancePlayerId).
CHANCE = -1
#: `current_player()` once the game is over (OpenSpiel's kTerminalPlayerId).
TERMINAL = -4


class IllegalActionError(ValueError):
    """An action that is not legal in the state it was applied to."""


def illegal(action: object, legal: Sequence[int], where: str) -> IllegalActionError:
    """The error every adapter raises: what was asked, where, and what is allowed."""
    shown = list(legal)
    if len(shown) > 30:
        allowed = f"{len(shown)} legal actions, e.g. {shown[:10]}"
    else:
        allowed = f"legal actions: {shown}" if shown else "no action is legal (the game is over)"
    return IllegalActionError(f"action {action!r} is not legal in {where}; {allowed}")


@runtime_checkable
class GameState(Protocol):
    """One position of a game, changed in place by :meth:`apply`."""

    def current_player(self) -> int: ...

    def legal_actions(self) -> list[int]: ...

    def chance_outcomes(self) -> list[tuple[int, float]]: ...

    def apply(self, action: int) -> None: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]: ...

    def clone(self) -> Any: ...

    def to_text(self) -> str: ...

    def action_to_string(self, action: int) -> str: ...


@runtime_checkable
class GameDef(Protocol):
    """A game with its settings: makes initial states and parses the text of a state."""

    name: str
    num_players: int
    num_actions: int  # player actions are 0 .. num_actions - 1
    num_chance_outcomes: int  # chance outcomes are 0 .. num_chance_outcomes - 1 (0: no chance)
    zero_sum: bool

    def new_initial_state(self) -> Any: ...

    def state_from_text(self, text: str) -> Any: ...


def sample_chance(state: Any, rng: np.random.Generator) -> int:
    """One outcome of a chance node, drawn with its probability (one uniform per draw).

    A state may offer ``resolve_chance(rng)`` to draw a whole run of chance nodes at once with
    the same law (Voltorb's deal, by the game's own generator); :func:`resolve_chance` uses it."""
    outcomes = state.chance_outcomes()
    cumulative = np.cumsum([p for _, p in outcomes])
    k = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    return int(outcomes[min(k, len(outcomes) - 1)][0])


def resolve_chance(state: Any, rng: np.random.Generator) -> None:
    """Play chance nodes until a player (or the end) is to move."""
    fast = getattr(state, "resolve_chance", None)
    if fast is not None:
        fast(rng)
    while state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))


def play_random(state: Any, rng: np.random.Generator, max_steps: int = 100_000) -> int:
    """Play `state` to the end with uniform random actions and sampled chance; the step count."""
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            raise RuntimeError(f"no end after {max_steps} steps")
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            action = int(legal[int(rng.integers(len(legal)))])
        state.apply(action)
        steps += 1
    return steps
