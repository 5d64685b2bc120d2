"""The coach: every keep (or box) of the current position with its expected final score.

For a card, the dice and the rolls left, the expected final score of an option is the points on
the card so far plus the optimal strategy's expected remaining score after taking that option
(one widget evaluation, about 10 us; see :mod:`gamelab.yatzy._widget_kernels`). Options come best first
with their loss against the best.

>>> from gamelab.yatzy.rules import RULES
>>> r = RULES["yahtzee"]
>>> opts = advise(r, Card.empty(r), "11114", rolls_left=2)  # doctest: +SKIP
>>> opts[0]["keep"], round(opts[0]["expected_score"], 2)    # doctest: +SKIP
('1111', 246.31)

:func:`coach` returns the same ranking as a typed :class:`Advice` (what ``gamelab yatzy advise
--json`` and the web page's coach show); the card is given in the CARD syntax of
:meth:`gamelab.yatzy.card.Card.parse`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from gamelab.yatzy._play_kernels import lane_policy
from gamelab.yatzy._turn_kernels import placement
from gamelab.yatzy._widget_kernels import new_lane_scratch
from gamelab.yatzy.card import Card
from gamelab.yatzy.rules import (
    KEEPS,
    N_KEEPS,
    N_ROLLS,
    RULES,
    SUBKEEP_INDEX,
    SUBKEEP_START,
    RuleSet,
    dice_text,
    parse_dice,
    roll_index,
)
from gamelab.yatzy.solver import compile_beside_the_solve, solve


@dataclass
class DecisionTables:
    """The optimal decisions and keep values of one position (a widget)."""

    value: float  # expected remaining score at the start of the turn
    box3: np.ndarray  # [252] box chosen for each final roll
    keep2: np.ndarray  # [252] keep after the second roll
    keep1: np.ndarray  # [252] keep after the first roll
    keep_value_1: np.ndarray  # [462] remaining value of a keep with one roll left
    keep_value_2: np.ndarray  # [462] remaining value of a keep with two rolls left


def decision_tables(rules: RuleSet, E: np.ndarray, card: Card) -> DecisionTables:
    if card.done:
        raise ValueError("the card is full; the game is over")
    K1, K2 = np.zeros(N_KEEPS), np.zeros(N_KEEPS)
    box3, keep2, keep1 = (np.zeros(N_ROLLS, dtype=np.int64) for _ in range(3))
    value = lane_policy(
        E,
        card.mask,
        card.capped_upper,
        card.bonus_flag,
        rules.kernel_rules(),
        new_lane_scratch(rules.n_boxes),
        K1,
        K2,
        box3,
        keep2,
        keep1,
    )
    return DecisionTables(float(value), box3, keep2, keep1, K2, K1)


def _warm_decision_tables(rules: RuleSet) -> None:
    """:func:`decision_tables` of a one-turn position (only Chance open) with a zero table: it
    compiles (or loads) the decision widget's kernels."""
    card = Card.parse(rules, ",".join(f"{b}=0" for b in rules.boxes if b != "chance"))
    decision_tables(rules, np.zeros(rules.n_states), card)


def check_rolls_left(rolls_left: int) -> None:
    """Refuse a number of rerolls left other than 0, 1 or 2."""
    if rolls_left not in (0, 1, 2):
        raise ValueError(f"rolls left must be 0, 1 or 2, got {rolls_left}")


def advise(
    rules: RuleSet, card: Card, dice, rolls_left: int, E: np.ndarray | None = None
) -> list[dict]:
    """Every keep (rolls_left 1 or 2) or legal box (rolls_left 0), best first.

    Each option: ``{"keep": "1111"}`` or ``{"box": "fours", "points": 20}`` (box names as the
    rule set says them, :meth:`RuleSet.box_label`: Yatzy's "yatzy"), with
    ``expected_score`` (expected final score) and ``loss`` (against the best option).
    """
    check_rolls_left(rolls_left)
    counts = parse_dice(dice) if isinstance(dice, str) else np.asarray(dice, dtype=np.int64)
    if card.rules.name != rules.name:
        raise ValueError("the card belongs to other rules")
    if card.done:
        raise ValueError("the card is full; the game is over")
    if E is None:
        E = solve(rules).E
    base = card.total
    options: list[dict[str, Any]] = []
    if rolls_left == 0:
        bundle = rules.kernel_rules()
        r = roll_index(counts)
        for name, points, _bonus in rules.placements(counts, card):
            b = rules.boxes.index(name)
            gain, j = placement(card.mask, card.capped_upper, card.bonus_flag, b, r, bundle)
            options.append(
                {
                    "box": rules.box_label(b),
                    "points": int(points),
                    "expected_score": base + float(gain) + float(E[j]),
                }
            )
    else:
        tables = decision_tables(rules, E, card)
        values = tables.keep_value_1 if rolls_left == 1 else tables.keep_value_2
        r = roll_index(counts)
        for i in range(SUBKEEP_START[r], SUBKEEP_START[r + 1]):
            k = int(SUBKEEP_INDEX[i])
            options.append({"keep": dice_text(KEEPS[k]), "expected_score": base + float(values[k])})
    options.sort(key=lambda o: -o["expected_score"])
    best = options[0]["expected_score"]
    for o in options:
        o["loss"] = best - o["expected_score"]
    return options


@dataclass(frozen=True)
class Option:
    """One keep (``keep`` = the dice kept, ``-`` for none) or box (``box`` with its ``points``),
    with the expected final score after taking it and the loss against the best option."""

    expected_score: float
    loss: float
    keep: str | None = None
    box: str | None = None
    points: int | None = None
    label: str = ""  # as the rule set says it: the keep's digits or the box label ("yatzy")

    def __json__(self) -> dict[str, Any]:
        out: dict[str, Any] = (
            {"keep": self.keep}
            if self.keep is not None
            else {"box": self.box, "points": self.points}
        )
        out.update(expected_score=self.expected_score, loss=self.loss, label=self.label)
        return out


@dataclass(frozen=True)
class Advice:
    """The coach's answer for one position: every option, best first (``options[0]``)."""

    rules: str
    card: str  # the card in CARD syntax ('-' for a fresh card)
    dice: str  # the five dice, sorted
    rolls_left: int
    options: list[Option] = field(default_factory=list)

    @property
    def best(self) -> Option:
        return self.options[0]

    def _repr_html_(self) -> str:
        """The card, the dice and the coach's table, in a notebook
        (:func:`gamelab.yatzy.pictures.coach_html`)."""
        from gamelab.yatzy.pictures import coach_html

        rules = RULES[self.rules]
        card = Card.parse(rules, self.card)
        boxes = [(rules.box_label(b), v) for b, v in enumerate(card.entries)]
        dice = [int(d) for d in self.dice]
        options = [(o.label, o.expected_score, o.loss) for o in self.options]
        return coach_html(boxes, dice, self.rolls_left, options)


def coach(
    rules: RuleSet,
    card: Card | str,
    dice,
    rolls_left: int,
    E: np.ndarray | None = None,
    top: int | None = None,
) -> Advice:
    """:func:`advise` as a typed :class:`Advice`; `card` may be given in CARD syntax.

    `top` keeps the best `top` options only (losses still count from the best)."""
    if top is not None and top < 1:
        raise ValueError(f"top must be at least 1, got {top}")
    check_rolls_left(rolls_left)  # (before the table: a first call loads or solves it)
    card = Card.parse(rules, card) if isinstance(card, str) else card
    counts = parse_dice(dice) if isinstance(dice, str) else np.asarray(dice, dtype=np.int64)
    if E is None and RULES.get(rules.name) is rules:
        from gamelab.yatzy.tables import optimal_values

        # on a cold cache the decision widget compiles while the table's layers are solved
        compiled = (
            compile_beside_the_solve(partial(_warm_decision_tables, rules), (lane_policy,))
            if rolls_left
            else None
        )
        E = optimal_values(rules)  # loaded once per process, not once per call
        if compiled is not None:
            compiled()
    options = [
        Option(
            expected_score=o["expected_score"],
            loss=o["loss"],
            keep=o.get("keep"),
            box=o.get("box"),
            points=o.get("points"),
            label=rules.box_label(o["box"]) if "box" in o else o["keep"],
        )
        for o in advise(rules, card, counts, rolls_left, E)
    ]
    return Advice(
        rules=rules.name,
        card=card.text(),
        dice=dice_text(counts),
        rolls_left=rolls_left,
        options=options[:top],
    )
