"""Exact move values of a game state, and the regret of a move: what the environments report.

An oracle (:class:`Oracle`) knows, for a state where a player moves, the value of the state
under optimal play from there (:meth:`Oracle.value`: the expected return of the player to
move), the value of each action followed by optimal play (:meth:`Oracle.action_value`) and an
optimal action. The regret of an action is ``value - action_value``: 0 for an optimal move,
otherwise what the move costs in expectation, in the game's own unit (probability of winning,
points, guesses, contacts). Summed over a game, the regrets are the expected loss against
optimal play, free of the luck of the dice or the deal (:func:`percent_of_optimal`).

Each game's oracle lives with the game (``gamelab.<game>.oracle``) over its exact solver;
nothing here knows a game.

>>> percent_of_optimal(250.0, 10.0), percent_of_optimal(-3.0, 1.0)
(96.0, 75.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class Oracle(Protocol):
    """Exact values of a game's states (for the player to move)."""

    def value(self, state: Any) -> float: ...

    def action_value(self, state: Any, action: int) -> float: ...

    def best_action(self, state: Any) -> int: ...


class TableOracle:
    """An oracle that computes every legal action's value at once (:meth:`values`); the value of
    the state is the best of them and the best action the lowest-numbered one reaching it."""

    def values(self, state: Any) -> dict[int, float]:
        """{action: value} of every legal action of the player to move."""
        raise NotImplementedError

    def value(self, state: Any) -> float:
        return max(self.values(state).values())

    def action_value(self, state: Any, action: int) -> float:
        return self.values(state)[int(action)]

    def best_action(self, state: Any) -> int:
        values = self.values(state)
        return max(values, key=lambda a: (values[a], -a))


def regret(oracle: Oracle, state: Any, action: int) -> float:
    """What `action` costs against optimal play at `state` (>= 0 up to rounding)."""
    return max(0.0, oracle.value(state) - oracle.action_value(state, action))


def percent_of_optimal(optimal: float, loss: float) -> float:
    """The share of the optimum kept after an expected `loss`: ``(V - L) / V`` for a positive
    optimum (points, P(win)), ``V / (V - L)`` for a negative one (minus the guesses)."""
    if optimal > 0:
        return 100.0 * (optimal - loss) / optimal
    if optimal < 0:
        return 100.0 * optimal / (optimal - loss)
    return 100.0 if loss == 0 else 0.0


@dataclass
class EpisodeSummary:
    """One episode against the oracle: its return, the optimum expected at the start, the
    expected loss of the decisions taken (the sum of their regrets) and the share kept."""

    episode_return: float
    optimal: float | None  # the start state's value (None without an oracle)
    loss: float | None  # sum of the regrets of the decisions
    decisions: int
    percent_of_optimal: float | None
    illegal_action: bool = False

    @classmethod
    def of(
        cls,
        episode_return: float,
        optimal: float | None,
        regrets: list[float],
        illegal_action: bool = False,
    ) -> EpisodeSummary:
        if optimal is None:
            return cls(episode_return, None, None, len(regrets), None, illegal_action)
        loss = float(sum(regrets))
        return cls(
            episode_return,
            optimal,
            loss,
            len(regrets),
            percent_of_optimal(optimal, loss),
            illegal_action,
        )
