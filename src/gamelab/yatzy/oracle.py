"""Exact move values of a Yatzy state (:mod:`gamelab.core.oracle`) from the expected-score
optimum: every keep or box of the player to move with its expected final score, as the coach
ranks them (:func:`gamelab.yatzy.coach.advise`, one widget evaluation per decision over the
solved state values of :func:`gamelab.yatzy.solver.solve`). In a two-player game each player is
measured on their own card (the expected-score optimum, not the win-play one).

>>> from gamelab.yatzy.state import YatzyGame
>>> from gamelab.yatzy.rules import get_rules
>>> o = YatzyOracle(get_rules("yatzy")); round(o.start_value(), 2)  # doctest: +SKIP
248.63
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from gamelab.core.oracle import TableOracle
from gamelab.yatzy.coach import advise
from gamelab.yatzy.rules import N_KEEPS, RuleSet, keep_index
from gamelab.yatzy.solver import solve
from gamelab.yatzy.state import YatzyState


class YatzyOracle(TableOracle):
    """Expected final score of every decision, for the player to move."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._memo: dict[str, dict[int, float]] = {}

    @cached_property
    def E(self) -> np.ndarray:
        return solve(self.rules).E

    def start_value(self) -> float:
        """The optimal expected score of a whole game."""
        return float(solve(self.rules).expected_score)

    def _action(self, option: dict) -> int:
        if "box" in option:
            return N_KEEPS + self.rules.box_index(option["box"])
        return keep_index(_digits(option["keep"]))

    def values(self, state: YatzyState) -> dict[int, float]:
        """{action: expected final score} of every legal action of the player to move."""
        key = state.to_text()
        hit = self._memo.get(key)
        if hit is None:
            card = state.cards[state.player]
            options = advise(self.rules, card, state.dice, state.rolls_left, self.E)
            hit = {self._action(o): float(o["expected_score"]) for o in options}
            if len(self._memo) > 4096:
                self._memo.clear()
            self._memo[key] = hit
        return hit


def _digits(text: str) -> np.ndarray:
    counts = np.zeros(6, dtype=np.int64)
    for ch in text.strip("-"):
        counts[int(ch) - 1] += 1
    return counts
