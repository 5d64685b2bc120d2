"""How a Yatzy answer spends a shell's time budget: the library's plans
(:class:`gamelab.core.budget.Plan`) for the page's calls.

A game's position is instant (a replay) unless the win-play bot's turn is due: its solve runs
within the budget, the expected-score bot's turn past it, labelled. A review runs for up to
:data:`REVIEW_SECONDS` and is refused past them: the first review of a game from the empty card
computes the rule set's exact final-score distribution (30 s wall for Yatzy at load 6 on 2
cores), and one stopped at this limit would leave it uncomputed for the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from gamelab.core.budget import Plan
from gamelab.yatzy.game import game_view
from gamelab.yatzy.review import review_game
from gamelab.yatzy.rules import RuleSet

#: Seconds a review may take (a generous limit, see the module's docstring).
REVIEW_SECONDS = 900.0


#: A game as it travels with every request, :func:`~gamelab.yatzy.game.game_view`'s first
#: arguments: rule set, seed, your moves, start card, opponent, the bot's moves.
Game = tuple[RuleSet, int, list[str], str, str, Sequence[Sequence[str]]]


def game_plan(
    game: Game, coach: bool, draws: Sequence[int], takebacks: int, seconds: float
) -> Plan:
    """The game's position (:func:`~gamelab.yatzy.game.game_view`) within a budget of
    `seconds`: instant but for the win-play bot's solve."""
    asked = (*game, coach)
    args = (*asked, True, False, draws, takebacks)  # ..., win_solve, evaluate_moves, ...
    if game[4] != "win":
        return Plan(game_view, args, None)
    return Plan(
        game_view,
        args,
        seconds,
        partial(game_view, *asked, False, False, draws, takebacks),
        "the win-play bot's solve",
        "the expected-score bot's turn",
    )


def review_plan(
    game: Game, undone: Sequence[int], chart_width: int, draws: Sequence[int], takebacks: int
) -> Plan:
    """A review (:func:`~gamelab.yatzy.review.review_game`) within :data:`REVIEW_SECONDS`;
    never kept: reviews are cheap once the distribution is on disk."""
    args = (*game, undone, chart_width, draws, takebacks)
    return Plan(review_game, args, REVIEW_SECONDS, cacheable=False)
