"""Exact win probability of a named strategy from given clues: an expectation over the posterior
(every consistent board with its prior weight), following the strategy's choices through every
possible flip outcome — no sampling. See :func:`gamelab.voltorb.expectimax.policy_win_probability`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gamelab.voltorb.expectimax import OptimalSolver, policy_win_probability
from gamelab.voltorb.posterior import Posterior
from gamelab.voltorb.rules import Position, VoltorbSetting
from gamelab.voltorb.strategies import Strategy, View, make_strategy


def evaluable_strategy(strategy: str) -> Strategy:
    """The strategy called `strategy` if its chance to clear a board can be computed exactly
    (a deterministic win policy); ValueError says why not. Checked before any board is
    counted, so a wrong name is refused at once."""
    strat = make_strategy(strategy)
    if strategy in ("optimal-coins", "greedy-coins"):
        raise ValueError(
            f"{strategy} may quit, so its chance to clear the board is not a win policy's; "
            "evaluate optimal or a heuristic instead"
        )
    if strategy != "optimal" and not strat.deterministic:
        raise ValueError(
            f"exact evaluation needs a deterministic strategy; {strategy!r} is random "
            "(use simulate instead)"
        )
    return strat


def exact_win_probability(posterior: Posterior, strategy: str) -> float:
    """P(strategy clears the board) given the posterior's clues and revealed tiles."""
    strat = evaluable_strategy(strategy)
    if strategy == "optimal":
        return OptimalSolver(posterior, "win").win_probability()
    clues = posterior.clues
    player = strat.new_player(posterior, clues, np.random.default_rng(0))

    def choose(view_post: Posterior, flips: int) -> int:
        return player.choose(View(clues, dict(view_post.revealed), flips, view_post))

    return policy_win_probability(posterior, choose)


@dataclass(frozen=True)
class PolicyEvaluation:
    """The exact chance that `strategy` clears the board from a position."""

    win_probability: float
    strategy: str
    consistent_boards: int


def evaluate_position(
    position: Position, setting: VoltorbSetting, strategy: str = "optimal"
) -> PolicyEvaluation:
    """:func:`exact_win_probability` of a position (as `gamelab voltorb evaluate` parses it)."""
    from gamelab.voltorb.assistant import position_posterior

    evaluable_strategy(strategy)  # before the boards are counted (their kernels compile)
    post = position_posterior(position, setting)
    return PolicyEvaluation(exact_win_probability(post, strategy), strategy, post.count)
