"""Yatzy pictures: a score card, the dice shown and, from the coach, each keep's value.

>>> "<table" in card_html([("ones", 3), ("twos", None)], [1, 1, 1, 1, 4], 2)
True
"""

from __future__ import annotations

import html
from collections.abc import Sequence

DIE = "⚀⚁⚂⚃⚄⚅"


def card_html(
    boxes: Sequence[tuple[str, int | None]],
    dice: Sequence[int] | None,
    rolls_left: int,
    coach: Sequence[tuple[str, float]] = (),
) -> str:
    """The card (each box with its points, open boxes blank), the dice (faces 1-6) with the
    rolls left, and the coach's rows (a keep or box with its expected final score)."""
    rows = "".join(
        f"<tr><td style='text-align:left'>{html.escape(name)}</td>"
        f"<td>{'' if points is None else points}</td></tr>"
        for name, points in boxes
    )
    total = sum(points or 0 for _, points in boxes)
    card = (
        "<table style='display:inline-table;vertical-align:top'><tr><th>box</th><th>points"
        f"</th></tr>{rows}<tr><th style='text-align:left'>boxes total</th><th>{total}</th></tr>"
        "</table>"
    )
    shown = (
        "roll due"
        if dice is None
        else " ".join(DIE[d - 1] for d in dice) + f" &nbsp;({rolls_left} rolls left)"
    )
    advice = ""
    if coach:
        advice = (
            "<table style='display:inline-table;vertical-align:top;margin-left:1em'><tr><th>"
            "choice</th><th>expected final score</th></tr>"
            + "".join(
                f"<tr><td style='text-align:left'>{html.escape(c)}</td><td>{v:.2f}</td></tr>"
                for c, v in coach
            )
            + "</table>"
        )
    return f"<div><p style='font-size:1.6em;margin:0'>{shown}</p>{card}{advice}</div>"
