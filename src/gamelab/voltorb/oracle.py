"""Exact move values of a Voltorb Flip round (:mod:`gamelab.core.oracle`): the probability of
clearing the board under the win-maximising policy (:class:`gamelab.voltorb.expectimax.
OptimalSolver` over the posterior of the round's clues, :func:`gamelab.voltorb.posterior.
posterior_for`), for the player who sees the clues and the flipped tiles only.

The value of flipping tile t is the chance, over the values t can show, that the round is won
from there: ``sum_v P(t = v) * P(win | t = v)`` (a Voltorb loses; a flip that reveals the last
multiplier wins; :func:`gamelab.voltorb.expectimax.choice_value`). Quitting wins nothing.

One solver is kept per deal's clues, the :data:`SOLVERS` most recently used (a deal seen again
soon, as a repeated seeded reset deals it, is a lookup): its memo holds every state the search
proved, so the value of the state a flip leads to, already summed into the flip's value, is a
lookup on the next step. The first decision of a new deal costs the exact solve: a median of
under 2 ms at level 3, but a heavy tail (the slowest tenth of the deals take nine tenths of
the time, seconds for the worst), and up to minutes for the hardest level-8 openings (see
docs/voltorb.md and docs/envs.md, Speed).

On the environment's fast path the oracle reads the round from the stepper
(:class:`gamelab.voltorb.stepper.RoundStepper`: clues and revealed tiles), so no protocol state
is built (:meth:`VoltorbOracle.stepper_value`, :meth:`VoltorbOracle.stepper_action_value`).
"""

from __future__ import annotations

import numpy as np

from gamelab.core.memo import Kept
from gamelab.voltorb.expectimax import OptimalSolver, choice_value
from gamelab.voltorb.posterior import posterior_for
from gamelab.voltorb.rules import TILES, Clues, VoltorbSetting
from gamelab.voltorb.state import QUIT, VoltorbState

#: solvers (one per deal's clues) kept, most recently used first (few: the memo of a hard
#: opening's search grows with it)
SOLVERS = 4


class VoltorbOracle:
    """P(win) of every flip of the round being played (objective "win")."""

    def __init__(self, setting: VoltorbSetting) -> None:
        self.setting = setting
        self._solvers: Kept[tuple, OptimalSolver] = Kept(keep=SOLVERS)

    def _solver(self, key: tuple, clues: Clues) -> OptimalSolver:
        return self._solvers.get_or_build(key, lambda progress: self._new_solver(clues))

    def _new_solver(self, clues: Clues) -> OptimalSolver:
        return OptimalSolver(posterior_for(clues, self.setting), "win")

    def _solver_for(self, state: VoltorbState) -> OptimalSolver:
        assert state.round is not None, "the board is not dealt yet"
        clues = state.round.clues
        return self._solver(clues.key(), clues)

    @staticmethod
    def _flip_value(solver: OptimalSolver, revealed: dict[int, int], action: int) -> float:
        if action == QUIT:
            return 0.0
        if not 0 <= action < TILES:
            raise ValueError(f"tile must be 0..24, got {action}")
        return choice_value(solver, revealed, action)

    def value(self, state: VoltorbState) -> float:
        assert state.round is not None
        return self._solver_for(state).decide(dict(state.round.revealed))[1]

    def action_value(self, state: VoltorbState, action: int) -> float:
        assert state.round is not None
        return self._flip_value(self._solver_for(state), dict(state.round.revealed), int(action))

    def best_action(self, state: VoltorbState) -> int:
        assert state.round is not None
        tile = self._solver_for(state).decide(dict(state.round.revealed))[0]
        return QUIT if tile < 0 else int(tile)

    # -- the environment's fast path: the stepper's arrays ------------------------------------
    def _stepper_solver(self, stepper) -> tuple[OptimalSolver, dict[int, int]]:
        c = stepper.clues
        key = tuple(c.reshape(-1).tolist())
        solver = self._solvers.get(key)  # (now the most recently used)
        if solver is None:
            clues = Clues(c[0].copy(), c[1].copy(), c[2].copy(), c[3].copy())
            solver = self._solver(key, clues)
        shown = stepper.revealed
        revealed = {int(t): int(shown[t]) for t in np.flatnonzero(shown >= 0)}
        return solver, revealed

    def stepper_value(self, stepper) -> float:
        """:meth:`value` of the round a :class:`~gamelab.voltorb.stepper.RoundStepper` plays."""
        solver, revealed = self._stepper_solver(stepper)
        return solver.decide(revealed)[1]

    def stepper_action_value(self, stepper, action: int) -> float:
        """:meth:`action_value` of `action` in the stepper's round."""
        solver, revealed = self._stepper_solver(stepper)
        return self._flip_value(solver, revealed, int(action))
