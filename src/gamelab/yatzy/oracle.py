"""Exact move values of a Yatzy state (:mod:`gamelab.core.oracle`) from the expected-score
optimum: every keep or box of the player to move with its expected final score, as the coach
ranks them (:func:`gamelab.yatzy.coach.advise`, one widget evaluation per decision over the
solved state values of :func:`gamelab.yatzy.solver.solve`). In a two-player game each player is
measured on their own card (the expected-score optimum, not the win-play one).

On the environment's fast path the oracle reads the solitaire stepper
(:class:`gamelab.yatzy.stepper.SolitaireStepper`) instead of a protocol state
(:meth:`YatzyOracle.stepper_value`, :meth:`YatzyOracle.stepper_action_value`): one widget
evaluation per card state (:func:`gamelab.yatzy._oracle_kernels.turn_tables`), kept for later
decisions and games, then array lookups; the same values as :func:`advise`, bit for bit.

>>> from gamelab.yatzy.state import YatzyGame
>>> from gamelab.yatzy.rules import get_rules
>>> o = YatzyOracle(get_rules("yatzy")); round(o.start_value(), 2)  # doctest: +SKIP
248.63
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from gamelab.core.oracle import TableOracle
from gamelab.yatzy._oracle_kernels import (
    T_KEEP_1,
    T_KEEP_2,
    T_ROLL_1,
    T_ROLL_2,
    box_options,
    new_turn_table,
    turn_tables,
)
from gamelab.yatzy._turn_kernels import workspace_arrays
from gamelab.yatzy.coach import advise
from gamelab.yatzy.rules import N_KEEPS, UPPER_CAP, RuleSet, keep_index
from gamelab.yatzy.solver import solve
from gamelab.yatzy.state import YatzyState

#: card states whose turn tables the fast path keeps (about 15 KB each)
TURN_TABLES = 2048


class YatzyOracle(TableOracle):
    """Expected final score of every decision, for the player to move."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._memo: dict[str, dict[int, float]] = {}
        self._tables: dict[tuple[int, int, int], np.ndarray] = {}

    @cached_property
    def E(self) -> np.ndarray:
        return solve(self.rules).E

    def start_value(self) -> float:
        """The optimal expected score of a whole game."""
        return float(solve(self.rules).expected_score)

    # -- the environment's fast path: the stepper's flat state ---------------------------------
    def _turn_table(self, stepper) -> np.ndarray:
        key = (stepper.filled_mask, min(UPPER_CAP, stepper.upper_total), stepper.flag)
        table = self._tables.get(key)
        if table is None:
            if len(self._tables) >= TURN_TABLES:
                self._tables.clear()
            table = new_turn_table()
            turn_tables(self.E, *key, self._bundle, self._ws, table)
            self._tables[key] = table
        return table

    def _box_values(self, stepper) -> dict[int, float]:
        """{box action: expected final score} of the stepper's final roll."""
        key = (stepper.filled_mask, min(UPPER_CAP, stepper.upper_total), stepper.flag)
        boxes, gains, after = self._box_buffers
        n = box_options(self.E, *key, stepper.roll, self._bundle, boxes, gains, after)
        base = stepper.total
        return {N_KEEPS + int(boxes[i]): base + float(gains[i]) + float(after[i]) for i in range(n)}

    def stepper_value(self, stepper) -> float:
        """:meth:`value` of the position a :class:`~gamelab.yatzy.stepper.SolitaireStepper`
        holds (not over)."""
        if stepper.rolls_left == 0:
            return max(self._box_values(stepper).values())
        row = T_ROLL_1 if stepper.rolls_left == 1 else T_ROLL_2
        return stepper.total + float(self._turn_table(stepper)[row, stepper.roll])

    def stepper_action_value(self, stepper, action: int) -> float:
        """:meth:`action_value` of a legal `action` at the stepper's position."""
        if stepper.rolls_left == 0:
            return self._box_values(stepper)[int(action)]
        row = T_KEEP_1 if stepper.rolls_left == 1 else T_KEEP_2
        return stepper.total + float(self._turn_table(stepper)[row, int(action)])

    @cached_property
    def _bundle(self) -> tuple:
        return self.rules.kernel_rules()

    @cached_property
    def _ws(self) -> tuple:
        return workspace_arrays(self.rules.n_boxes)

    @cached_property
    def _box_buffers(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = self.rules.n_boxes
        return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n)

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
