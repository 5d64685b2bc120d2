"""The coach: every keep (or box) of the current position with its expected final score.

For a card, the dice and the rolls left, the expected final score of an option is the points on
the card so far plus the optimal strategy's expected remaining score after taking that option
(one widget evaluation, about 10 us; see :mod:`gamelab.yatzy._kernels`). Options come best first
with their loss against the best.

>>> r = get_rules("yahtzee")
>>> opts = advise(r, Card.empty(r), "11114", rolls_left=2)  # doctest: +SKIP
>>> opts[0]["keep"], round(opts[0]["expected_score"], 2)    # doctest: +SKIP
('1111', 246.31)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gamelab.yatzy import _kernels as kern
from gamelab.yatzy.rules import (
    KEEPS,
    N_KEEPS,
    N_ROLLS,
    SUBKEEP_INDEX,
    SUBKEEP_START,
    Card,
    RuleSet,
    dice_text,
    get_rules,
    parse_dice,
    roll_index,
)
from gamelab.yatzy.solver import solve


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
    tab = rules.kernel_tables()
    nb = rules.n_boxes
    box3 = np.empty(N_ROLLS, dtype=np.int64)
    keep2 = np.empty(N_ROLLS, dtype=np.int64)
    keep1 = np.empty(N_ROLLS, dtype=np.int64)
    K1 = np.empty(N_KEEPS)
    K2 = np.empty(N_KEEPS)
    value = kern.widget_policy(
        E, card.mask, card.capped_upper, card.bonus_flag, tab["base"], tab["upper_face"],
        tab["joker_value"], tab["upper_box_of_face"], tab["joker_fixed"], tab["params"],
        np.empty(N_ROLLS), np.empty(N_ROLLS), np.empty(N_KEEPS), np.zeros(N_KEEPS),
        np.empty(N_KEEPS), np.empty(N_KEEPS, dtype=np.int64), np.zeros((nb, 7)),
        np.zeros((nb, 7)), np.zeros((nb, 7)), box3, keep2, keep1, K1, K2)
    return DecisionTables(float(value), box3, keep2, keep1, K2, K1)


def advise(rules: RuleSet | str, card: Card, dice, rolls_left: int,
           E: np.ndarray | None = None) -> list[dict]:
    """Every keep (rolls_left 1 or 2) or legal box (rolls_left 0), best first.

    Each option: ``{"keep": "1111"}`` or ``{"box": "fours", "points": 20}`` (box names as the
    rule set says them, :meth:`RuleSet.box_label`: Yatzy's "yatzy"), with
    ``expected_score`` (expected final score) and ``loss`` (against the best option).
    """
    rules = get_rules(rules)
    if rolls_left not in (0, 1, 2):
        raise ValueError(f"rolls left must be 0, 1 or 2, got {rolls_left}")
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
        tab = rules.kernel_tables()
        r = roll_index(counts)
        for name, points, _bonus in rules.placements(counts, card):
            b = rules.boxes.index(name)
            gain, j = kern.placement(card.mask, card.capped_upper, card.bonus_flag, b, r,
                                     tab["base"], tab["upper_face"], tab["joker_value"],
                                     tab["upper_box_of_face"], tab["joker_fixed"], tab["params"])
            options.append({"box": rules.box_label(b), "points": int(points),
                            "expected_score": base + float(gain) + float(E[j])})
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
