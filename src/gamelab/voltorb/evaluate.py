"""Exact win probability of a named strategy from given clues: an expectation over the posterior
(every consistent board with its prior weight), following the strategy's choices through every
possible flip outcome — no sampling. See :func:`policy_win_probability`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gamelab.voltorb.expectimax import OptimalSolver
from gamelab.voltorb.info_tree import InfoTree, key_add
from gamelab.voltorb.posterior import Posterior
from gamelab.voltorb.rules import Position, VoltorbSetting
from gamelab.voltorb.strategies import Strategy, View, make_strategy


def policy_win_probability(
    posterior: Posterior, choose: Callable[[Posterior, int], int], limit: int = 2_000_000
) -> float:
    """Exact P(win) of a deterministic policy from the posterior's state.

    `choose(view_posterior, flips_so_far)` returns the tile to flip; the view posterior holds the
    boards still possible (normalised, round not yet won) and the revealed tiles.
    """
    tree = InfoTree(posterior)
    memo: dict[int, float] = {}
    root_flips = len(tree.root_revealed)

    def value(idx: np.ndarray, key: int, hm: np.ndarray, revealed: dict[int, int]) -> float:
        hit = memo.get(key)
        if hit is not None:
            return hit
        tree.nodes += 1
        if tree.nodes > limit:
            raise RuntimeError(f"policy evaluation exceeded {limit} states")
        w = tree.weights[idx]
        view = Posterior(tree.boards[idx], w / w.sum(), revealed, posterior.clues)
        tile = int(choose(view, len(revealed) - root_flips))
        if tile in revealed:
            raise RuntimeError(f"policy chose the revealed tile {tile}")
        acc = 0.0
        for v, won_mass, live, hm_new in tree.children(idx, hm, tile):
            acc += won_mass
            if live.size:
                acc += value(live, key_add(key, tile, v), hm_new, {**revealed, tile: v})
        memo[key] = acc
        return acc

    idx, key = tree.root_state()
    won = float(tree.weights[tree.root_won].sum())
    if idx.size == 0:
        return won
    return won + value(idx, key, tree.hidden_mult, dict(tree.root_revealed))


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
