"""Exact move values of a game state, and the regret of a move: what the environments report.

An oracle (:class:`Oracle`) knows, for a state where a player moves, the value of the state
under optimal play from there (:meth:`Oracle.value`: the expected return of the player to
move), the value of each action followed by optimal play (:meth:`Oracle.action_value`) and an
optimal action. The regret of an action is ``value - action_value``: 0 for an optimal move,
otherwise what the move costs in expectation, in the game's own unit (probability of winning,
points, guesses, contacts). Summed over a game, the regrets are the expected loss against
optimal play, free of the luck of the dice or the deal (:func:`percent_of_optimal`); each
decision's kept share of the value (:func:`kept_share`), compounded over the episode, is its
score in [0, 100] (:func:`compounded_percent`; docs/envs.md, "Scores").

Each game's oracle lives with the game (``gamelab.<game>.oracle``) over its exact solver;
nothing here knows a game.

>>> percent_of_optimal(250.0, 10.0), percent_of_optimal(-3.0, 1.0)
(96.0, 75.0)
>>> compounded_percent([kept_share(0.5, 0.25, 0.0), kept_share(-3.0, -4.0, -11.0)])
43.75
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


def kept_share(value: float, action_value: float, floor: float) -> float:
    """The share of the state's value above the game's lowest return that a decision keeps:
    ``(Q - L) / (V - L)`` for a state of value ``V``, an action of value ``Q`` and the lowest
    return ``L``; in [0, 1] (rounding clipped), 1 where nothing is left to lose (``V <= L``)."""
    if value - floor <= 1e-12:
        return 1.0
    return min(1.0, max(0.0, (action_value - floor) / (value - floor)))


def compounded_percent(shares: list[float]) -> float:
    """An episode's score: 100 times the product of its decisions' kept shares
    (:func:`kept_share`), in [0, 100]; 100 for an episode without a decision. See docs/envs.md
    ("Scores") for what its mean estimates."""
    product = 1.0
    for share in shares:
        product *= share
    return 100.0 * product


def return_share_percent(optimal: float, loss: float, floor: float) -> float:
    """``100 (V0 - loss - L) / (V0 - L)``: the return expected from the decisions taken, as a
    percent of the optimum's, both above the lowest return ``L``. ``V0 - loss`` is an unbiased
    estimate of the agent's expected return, so the mean over episodes is unbiased; one episode
    can leave 0-100 (a lucky draw after a poor move)."""
    if optimal - floor <= 1e-12:
        return 100.0
    return 100.0 * (optimal - loss - floor) / (optimal - floor)


@dataclass
class EpisodeSummary:
    """One episode against the oracle: its return, the optimum expected at the start, the
    expected loss of the decisions taken (the sum of their regrets) and what chance gave them
    (the luck, :mod:`gamelab.core.review`'s words), the episode's score
    (``percent_of_optimal``: the decisions' kept shares compounded, always in [0, 100]) and the
    unbiased return share (``return_percent_estimate``, :func:`return_share_percent`, which one
    episode can push outside 0-100)."""

    episode_return: float
    optimal: float | None  # the start state's value (None without an oracle)
    loss: float | None  # sum of the regrets of the decisions
    decisions: int
    percent_of_optimal: float | None  # compounded_percent of the kept shares, in [0, 100]
    return_percent_estimate: float | None  # return_share_percent: unbounded per episode
    illegal_action: bool = False
    # what chance (and an opponent) gave the decisions in all (core.review's luck): the return
    # is ``optimal - loss + luck``
    luck: float | None = None
    # the costliest decisions (numbered from 1, costliest first; at most three)
    costliest: list[int] | None = None

    @classmethod
    def of_decisions(
        cls,
        episode_return: float,
        optimal: float | None,
        befores: list[float],
        chosen: list[float],
        shares: list[float],
        floor: float,
        illegal_action: bool = False,
    ) -> EpisodeSummary:
        """The summary of an episode of one player's decisions, each given by its two values
        (:class:`gamelab.core.review.Decision`: ``before``, optimal play from its position, and
        ``chosen``, the action taken then optimal play), in order; each one's ``after`` is the
        next one's ``before`` and the last one's the return (:func:`gamelab.core.review.chain`),
        so the loss, the luck and the costliest decisions are their
        :class:`gamelab.core.review.Totals`, as every game's review has them."""
        from gamelab.core.review import Totals, chain

        if optimal is None:
            return cls(episode_return, None, None, len(befores), None, None, illegal_action)
        decisions = chain(list(zip(befores, chosen, strict=True)), episode_return)
        losses, lucks = [d.loss for d in decisions], [d.luck for d in decisions]
        totals = Totals.of("", optimal, losses, lucks, episode_return)
        loss = totals.loss if totals.loss is not None else float(sum(losses))
        return cls(
            episode_return,
            optimal,
            loss,
            len(decisions),
            compounded_percent(shares),
            return_share_percent(optimal, loss, floor),
            illegal_action,
            totals.luck,
            totals.costliest,
        )
