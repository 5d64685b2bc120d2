"""Review of a game: skill (every decision's loss in expected points) and luck, kept apart.

For each of your decisions the expected final score of your choice and of the best one under
optimal play from then on (:func:`gamelab.yatzy.game.evaluate`); their difference is the loss,
in the spirit of Verhoeff's proficiency test for Yahtzee. These are the ``before`` and ``chosen``
values of :mod:`gamelab.core.review` in expected points (a decision's ``after`` is the next
one's ``before``, the last one's the final score): each decision's loss and luck, the totals and
the costliest decision come from there. Your final score then splits exactly as

    final = E(start) - total loss + luck

where E(start) is the optimal strategy's expected final score from the game's start card, so
``luck`` (the first roll's, then each decision's) is what the dice gave beyond expectation. The final score is also placed in the exact
final-score distribution of the optimal strategy from the same start (forward propagation:
:func:`gamelab.yatzy.distribution.score_distribution` from the empty card, cached on disk, or
:func:`gamelab.yatzy.winplay.final_score_law` from a later card): its percentile counts half
the ties, 100 (P(S < score) + P(S = score) / 2).

Cost: two coach evaluations per decision (well under a millisecond each); the distribution from
the empty card is computed once per rule set (about a core-minute for Yatzy, then cached), from a
later card in milliseconds to seconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from gamelab.core import review
from gamelab.yatzy.card import Card
from gamelab.yatzy.game import LOSS_TOLERANCE, OPPONENTS, Decision, game_view, move_draws
from gamelab.yatzy.pictures import distribution_svg
from gamelab.yatzy.rules import RuleSet
from gamelab.yatzy.solver import state_index
from gamelab.yatzy.tables import optimal_distribution, optimal_values


@dataclass(frozen=True)
class ScoreLaw:
    """P(final score = offset + i) = probability[i]; `tail` is P(final score beyond the array)."""

    offset: int
    probability: np.ndarray
    tail: float = 0.0
    mean: float = 0.0

    def below(self, score: int) -> float:
        i = int(np.clip(score - self.offset, 0, len(self.probability)))
        return float(self.probability[:i].sum())

    def at(self, score: int) -> float:
        i = score - self.offset
        return float(self.probability[i]) if 0 <= i < len(self.probability) else 0.0

    def _repr_svg_(self) -> str:
        """The law as the review's chart, in a notebook (:func:`distribution_svg`)."""
        return distribution_svg(self)


@dataclass(frozen=True)
class Review:
    """A game's decisions with their losses, the total loss, and (once finished) the luck."""

    rules: str
    seed: int
    start: str
    finished: bool
    decisions: list[Decision]
    total_loss: float  # expected points given away by your choices
    worst: Decision | None  # the costliest decision
    start_expected: float  # optimal expected final score from the start card
    final_score: int | None = None
    luck: float | None = None  # final - (start_expected - total_loss)
    percentile: float | None = None  # of the final score among optimal play's, ties half
    p_below: float | None = None  # P(optimal final < your score)
    p_equal: float | None = None
    distribution: ScoreLaw | None = None
    svg: str | None = field(default=None)
    note: str | None = None
    #: decisions (1-based, as numbered in `decisions`) made again after an undo: the player saw
    #: the dice that followed the first choice, so luck and skill there are not a first try
    undone: list[int] = field(default_factory=list)
    #: moves taken back in the game (each drew fresh dice for the move made again), and what
    #: that means for the luck and percentile in words; None for a game played straight
    takebacks: int = 0
    takebacks_note: str | None = None
    #: the figures above in the vocabulary every game's review shares (core.review.Totals)
    totals: dict[str, review.Totals] = field(default_factory=dict)

    def _repr_html_(self) -> str:
        """Your decisions with their losses and, once finished, the chart of your score among
        optimal play's, in a notebook (:func:`gamelab.yatzy.pictures.review_html`)."""
        from gamelab.yatzy.pictures import review_html

        rows = [(d.turn, d.dice, f"{d.kind} {d.label}", d.best, d.loss)
                for d in self.decisions if d.player == "you"]  # fmt: skip
        summary = f"{self.rules}, seed {self.seed}: {self.total_loss:.2f} expected points lost"
        if self.final_score is not None and self.percentile is not None:
            summary += f"; final score {self.final_score}, percentile {self.percentile:.1f}"
        return review_html(summary, rows, self.svg)


def takebacks_note(takebacks: int) -> str | None:
    """What take-backs mean for a review, in words (None without any)."""
    if not takebacks:
        return None
    times = "once" if takebacks == 1 else f"{takebacks} times"
    return (
        f"a move was taken back {times}: the dice after each were drawn afresh, so the "
        "luck and your place among perfect play's scores are not those of a game played straight"
    )


#: The chart's default width in pixels (the CLI's), and the widths a page may ask for.
CHART_WIDTH = 640
CHART_WIDTHS = (280, 1200)


def start_law(rules: RuleSet, start: str) -> ScoreLaw:
    """The exact final-score law of optimal play from the card `start`."""
    from gamelab.yatzy.winplay import final_score_law

    card = Card.parse(rules, start)
    if card.filled_count == 0:
        d = optimal_distribution(rules)
        return ScoreLaw(0, d.probability, d.tail_probability, d.mean)
    E = optimal_values(rules)
    offset, p = final_score_law(
        rules, (card.mask, card.capped_upper, card.bonus_flag, card.total), E
    )
    mean = float((np.arange(len(p)) + offset) @ p)
    return ScoreLaw(offset, p, 0.0, mean)


def review_game(
    rules: RuleSet,
    seed: int,
    moves: list[str],
    start: str = "-",
    opponent: str = "none",
    bot_moves: Sequence[Sequence[str]] = (),
    undone: Sequence[int] = (),
    chart_width: int = CHART_WIDTH,
    draws: Sequence[int] = (),
    takebacks: int = 0,
) -> Review:
    """Every decision of a game with its loss; luck and percentile once the card is full.

    The arguments are those of :func:`gamelab.yatzy.game.game_view`; a game whose bot turn is
    due is reviewed as far as you have played (the bot's turn is not needed). `undone` numbers
    the decisions (1-based) that were taken back and made again: the review marks them, and
    every move whose take-back count (`draws`, `takebacks`: as for ``game_view``) is above the
    previous move's, since a take-back came just before it.
    `chart_width` is the drawing's width in pixels (a page asks for its own, so that the
    labels keep their size on a phone)."""
    if not CHART_WIDTHS[0] <= chart_width <= CHART_WIDTHS[1]:
        raise ValueError(
            f"chart width must be {CHART_WIDTHS[0]}..{CHART_WIDTHS[1]} pixels, got {chart_width}"
        )
    if opponent not in OPPONENTS:
        raise ValueError(f"unknown opponent {opponent!r}; allowed: {', '.join(OPPONENTS)}")
    for n in undone:
        if not 1 <= int(n) <= len(moves):
            raise ValueError(f"undone decision {n} is not one of the game's {len(moves)} decisions")
    full_draws = move_draws(moves, draws, takebacks)
    again = {k for k in range(1, len(moves) + 1) if full_draws[k - 1] > ([0, *full_draws][k - 1])}
    marks = sorted({int(n) for n in undone} | again)
    note_of_takebacks = takebacks_note(int(takebacks))
    # the bot's policy does not matter here: its recorded moves are replayed, never re-solved
    view = game_view(
        rules,
        seed,
        moves,
        start,
        "none" if opponent == "none" else "optimal",
        bot_moves,
        evaluate_moves=True,
        draws=full_draws,
        takebacks=takebacks,
    )
    E = optimal_values(rules)
    card = Card.parse(rules, start)
    start_expected = card.total + float(
        E[state_index(rules, card.mask, card.capped_upper, card.bonus_flag)]
    )
    you_done = view.you.filled == view.you.boxes
    final = view.you.total
    # core.review's values in expected points: best option's, the choice's, the next decision's
    values = [(d.best_expected_score, d.expected_score) for d in view.decisions]
    judged = review.chain(values, final if you_done else None, tolerance=LOSS_TOLERANCE)
    known = len(judged) if you_done else len(judged) - 1  # the last luck comes with the dice
    decisions = [
        replace(d, loss=j.loss, luck=j.luck if i < known else None)
        for i, (d, j) in enumerate(zip(view.decisions, judged, strict=True))
    ]
    total, luck = review.totals(judged)
    worst = next((decisions[i] for i in review.costliest([d.loss for d in decisions])), None)
    first_roll = values[0][0] - start_expected if values else 0.0  # the dice before any choice
    mine = review.Totals.of(
        "expected points",
        start_expected,
        [d.loss for d in decisions],
        [first_roll, *(d.luck for d in decisions)] if you_done else None,
        float(final) if you_done else None,
    )
    if not you_done:
        return Review(
            rules.name,
            view.seed,
            view.start,
            False,
            decisions,
            total,
            worst,
            start_expected,
            note="the game is not finished: luck and your place among perfect play's scores come once "
            "your card is full",
            undone=marks,
            takebacks=int(takebacks),
            takebacks_note=note_of_takebacks,
            totals={"you": mine},
        )
    law = start_law(rules, start)
    below, equal = law.below(final), law.at(final)
    return Review(
        rules.name,
        view.seed,
        view.start,
        True,
        decisions,
        total,
        worst,
        start_expected,
        final_score=final,
        luck=first_roll + luck,  # the first roll's luck, then every decision's
        percentile=100.0 * (below + equal / 2),
        p_below=below,
        p_equal=equal,
        distribution=law,
        svg=distribution_svg(law, final, width=chart_width),
        undone=marks,
        takebacks=int(takebacks),
        takebacks_note=note_of_takebacks,
        totals={"you": mine},
    )
