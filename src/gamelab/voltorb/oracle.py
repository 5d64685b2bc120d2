"""Exact move values of a Voltorb Flip round (:mod:`gamelab.core.oracle`): the probability of
clearing the board under the win-maximising policy (:class:`gamelab.voltorb.expectimax.
OptimalSolver` over the posterior of the round's clues, :func:`gamelab.voltorb.posterior.
posterior_for`), for the player who sees the clues and the flipped tiles only.

The value of flipping tile t is the chance, over the values t can show, that the round is won
from there: ``sum_v P(t = v) * P(win | t = v)`` (a Voltorb loses; a flip that reveals the last
multiplier wins). Quitting wins nothing. One solver is kept per round (its memo makes every later
decision of the round a lookup); the first decision costs the exact solve (milliseconds at level
1, up to minutes for the hardest level-8 openings: see docs/voltorb.md).
"""

from __future__ import annotations

from gamelab.voltorb.expectimax import OptimalSolver
from gamelab.voltorb.posterior import Posterior, posterior_for
from gamelab.voltorb.rules import TILES
from gamelab.voltorb.state import QUIT, VoltorbState


class VoltorbOracle:
    """P(win) of every flip of the round being played (objective "win")."""

    def __init__(self, generator: str, level: int) -> None:
        self.generator = generator
        self.level = level
        self._key: tuple | None = None
        self._solver: OptimalSolver | None = None
        self._root: Posterior | None = None  # the round's boards before any flip

    def _solver_for(self, state: VoltorbState) -> OptimalSolver:
        assert state.round is not None, "the board is not dealt yet"
        key = state.round.clues.key()
        if self._solver is None or key != self._key:
            self._root = Posterior.from_clues(state.round.clues, self.generator, self.level)
            root = posterior_for(state.round.clues, self.generator, self.level)
            self._solver, self._key = OptimalSolver(root, "win"), key
        return self._solver

    def _posterior(self, state: VoltorbState) -> Posterior:
        """The boards still possible (the round's boards filtered by the flips, not yet won):
        what :func:`posterior_for` enumerates, without enumerating again."""
        assert state.round is not None
        self._solver_for(state)
        post = self._root
        assert post is not None
        for tile, value in state.round.revealed.items():
            post = post.observe(tile, value)
        return post.still_playing()

    def _win_after(self, solver: OptimalSolver, post: Posterior) -> float:
        won = post.won_mask()
        p = float(post.weights[won].sum())
        if not won.all():
            p += float(post.weights[~won].sum()) * solver.decide(post.revealed)[1]
        return p

    def value(self, state: VoltorbState) -> float:
        assert state.round is not None
        return self._solver_for(state).decide(dict(state.round.revealed))[1]

    def action_value(self, state: VoltorbState, action: int) -> float:
        if action == QUIT:
            return 0.0
        if not 0 <= action < TILES:
            raise ValueError(f"tile must be 0..24, got {action}")
        solver = self._solver_for(state)
        post = self._posterior(state)
        probs = post.tile_probabilities()[action]
        return sum(
            float(probs[v]) * self._win_after(solver, post.observe(action, v))
            for v in (1, 2, 3)
            if probs[v] > 0
        )

    def best_action(self, state: VoltorbState) -> int:
        assert state.round is not None
        tile = self._solver_for(state).decide(dict(state.round.revealed))[0]
        return QUIT if tile < 0 else int(tile)
