"""One review for every game: each decision's loss against optimal play, its luck, and the totals.

A decision is reviewed by three values for the player who made it, each the expected return
(in the game's own unit: probability of winning, points, guesses as a negative count) under
optimal play from there, as the game's oracle (:mod:`gamelab.core.oracle`) defines it:

* ``before`` -- optimal play from the position the decision was made in;
* ``chosen`` -- the action taken, then optimal play;
* ``after`` -- optimal play once chance has shown what it shows after the action (the deal, the
  dice, the colours of a guess); at the end of the game, the player's return.

The **loss** is ``before - chosen`` (the regret, >= 0: zero exactly for an optimal action) and
the **luck** ``after - chosen`` (what chance gave or took). In a one-player game each decision's
``after`` is the next one's ``before``, so skill and luck add up exactly::

    result = start - total loss + total luck

and in a two-player zero-sum game each player's result is its start value less its own losses
plus its opponent's (and its luck). A game's review is an adapter: it turns its
notation into actions, or its solver's figures into these three values, and shows them in its
own units; :func:`review_play` reviews any registered game through its state protocol and oracle.

>>> d = Decision.of(before=0.5, chosen=0.25, after=1.0)
>>> d.loss, d.luck
(0.25, 0.75)
>>> totals([d, Decision.of(1.0, 1.0, 1.0)])
(0.25, 0.75)
>>> [d.luck for d in chain([(2.0, 2.0), (3.0, 2.5)], end=4.0)]  # after = the next before
[1.0, 1.5]
>>> costliest([0.0, 0.5, 0.25, 0.5], 2)
[1, 3]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gamelab.core.state import CHANCE, TERMINAL


@dataclass(frozen=True)
class Decision:
    """One decision's three values (for the player who made it) and what they give."""

    before: float  # optimal play from the position
    chosen: float  # the action taken, then optimal play
    after: float  # optimal play once chance has shown its outcome (the return at the end)
    loss: float  # before - chosen: the regret (0 for an optimal action)
    luck: float  # after - chosen: what chance gave (negative: took)

    @classmethod
    def of(
        cls, before: float, chosen: float, after: float, *, tolerance: float = 1e-12
    ) -> Decision:
        """The decision with these values; a loss within `tolerance` of 0 (rounding, in the
        game's unit) or below is 0."""
        loss = before - chosen
        return cls(before, chosen, after, loss if loss > tolerance else 0.0, after - chosen)


def totals(decisions: Iterable[Decision]) -> tuple[float, float]:
    """(total loss, total luck) of the decisions."""
    rows = list(decisions)
    return sum(d.loss for d in rows), sum(d.luck for d in rows)


def chain(
    values: Sequence[tuple[float, float]], end: float | None, *, tolerance: float = 1e-12
) -> list[Decision]:
    """One player's decisions, in the order made, from their ``(before, chosen)`` values: in a
    one-player game each decision's ``after`` is the next one's ``before``, the last one's the
    result `end` (None while the game goes on: the last luck is then not known and counted 0,
    its ``after`` being its ``chosen``)."""
    out = []
    for i, (before, chosen) in enumerate(values):
        if i + 1 < len(values):
            after = values[i + 1][0]
        else:
            after = chosen if end is None else end
        out.append(Decision.of(before, chosen, after, tolerance=tolerance))
    return out


def costliest(losses: Sequence[float], n: int = 1) -> list[int]:
    """The indices of the `n` largest losses above 0, costliest first (the earlier first among
    equal losses): the decisions a review marks."""
    ranked = sorted((i for i, loss in enumerate(losses) if loss > 0), key=lambda i: (-losses[i], i))
    return ranked[:n]


@dataclass(frozen=True)
class Totals:
    """One player's review in the one vocabulary every game's review shares (its ``totals``,
    by player), in the game's `unit`: optimal play's value from the start, the total loss
    (skill), the total luck, the result, and the costliest decisions (numbered from 1, costliest
    first). None where a figure is not known (a game going on, a row not solved exactly)."""

    unit: str
    start: float | None
    loss: float | None
    luck: float | None
    result: float | None
    costliest: list[int]

    @classmethod
    def of(
        cls,
        unit: str,
        start: float | None,
        losses: Sequence[float | None],
        lucks: Sequence[float | None] | None,
        result: float | None,
        numbers: Sequence[int] | None = None,
    ) -> Totals:
        """The totals of decisions with these losses and lucks (a sum is None if any term is;
        `lucks` None: luck not known yet); `numbers` are the decisions' numbers (1, 2, ... by
        default) for the three costliest.

        >>> Totals.of("points", 10.0, [0.0, 2.0, 0.5], [1.0, -1.0, 0.0], 8.5).costliest
        [2, 3]
        """
        numbers = list(numbers) if numbers is not None else list(range(1, len(losses) + 1))
        known = [x if x is not None else 0.0 for x in losses]
        lucky = [x for x in lucks or () if x is not None]
        return cls(
            unit,
            start,
            None if len(known) != sum(x is not None for x in losses) else float(sum(known)),
            None if lucks is None or len(lucky) != len(lucks) else float(sum(lucky)),
            result,
            [numbers[i] for i in costliest(known, COSTLIEST)],
        )


#: How many of the costliest decisions a review's totals name.
COSTLIEST = 3


@dataclass(frozen=True)
class Move:
    """One reviewed move of :func:`review_play`: who, what, the best action there, the values."""

    player: int
    action: int
    move: str  # the game's notation (``action_to_string``)
    best: int  # an optimal action (the oracle's)
    best_move: str
    decision: Decision


@dataclass(frozen=True)
class PlayReview:
    """A played game reviewed move by move: per player its start value, loss, luck and result
    (``result`` None while the game is not over)."""

    moves: list[Move]
    start: list[float]  # each player's optimal value from the start
    total_loss: list[float]
    total_luck: list[float]
    result: list[float] | None


def review_play(game: Any, oracle: Any, actions: Sequence[int]) -> PlayReview:
    """Review `actions` (players' and chance's, in the order played) from the game's initial
    state: every player's decision against `oracle`. For a one-player game, or a two-player
    zero-sum game (the value of a position for one player is minus the other's); ValueError
    for another game or an illegal action (the state protocol's message). A last decision whose
    chance outcome is not among `actions` yet is not reviewed (its luck is not known)."""
    players = int(game.num_players)
    if players not in (1, 2) or (players == 2 and not game.zero_sum):
        raise ValueError("a review needs a one-player game or a two-player zero-sum game")
    state = game.new_initial_state()
    moves: list[Move] = []
    start: list[float] | None = None
    pending: tuple[int, int, float, float] | None = None  # (player, action, before, chosen)

    def value_for(player: int) -> float:
        """The value of the current state for `player` (its return at the end)."""
        if state.is_terminal():
            return float(state.returns()[player])
        mover = state.current_player()
        value = float(oracle.value(state))
        return value if mover == player else -value

    def settle() -> None:
        nonlocal pending
        if pending is None or state.current_player() == CHANCE:
            return
        player, action, before, chosen = pending
        best = int(oracle.best_action(previous[0]))
        decision = Decision.of(before, chosen, value_for(player))
        text = previous[0].action_to_string
        moves.append(Move(player, action, text(action), best, text(best), decision))
        pending = None

    previous: list[Any] = [None]
    for action in actions:
        player = state.current_player()
        if player == TERMINAL:
            raise ValueError(f"action {action} comes after the end of the game")
        if player != CHANCE:
            if start is None:
                start = [value_for(p) for p in range(players)]
            previous[0] = state.clone()
            state.apply(int(action))  # (an illegal action raises here, before any search)
            before = float(oracle.value(previous[0]))
            chosen = float(oracle.action_value(previous[0], int(action)))
            pending = (player, int(action), before, chosen)
        else:
            state.apply(int(action))
        settle()
    settle()
    if start is None:
        start = [value_for(p) for p in range(players)] if not state.is_terminal() else []
    loss = [sum(m.decision.loss for m in moves if m.player == p) for p in range(players)]
    luck = [sum(m.decision.luck for m in moves if m.player == p) for p in range(players)]
    result = [float(r) for r in state.returns()] if state.is_terminal() else None
    return PlayReview(moves, start, loss, luck, result)
