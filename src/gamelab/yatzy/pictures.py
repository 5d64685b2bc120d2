"""Yatzy pictures: a score card, the dice shown and, from the coach, each keep's value.

>>> "<table" in card_html([("ones", 3), ("twos", None)], [1, 1, 1, 1, 4], 2)
True
>>> page = coach_html([("ones", None)], [1, 1, 1, 1, 4], 2, [("1111", 270.3, 0.0)])
>>> "1111" in page and "270.30" in page
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


def coach_html(
    boxes: Sequence[tuple[str, int | None]],
    dice: Sequence[int],
    rolls_left: int,
    options: Sequence[tuple[str, float, float]],
) -> str:
    """The coach's answer (:class:`gamelab.yatzy.coach.Advice`): the card and the dice as
    :func:`card_html` draws them, and every option (a keep, or a box with no rolls left) with
    its expected final score and its loss against the best, best first, the best in bold."""
    kind = "box" if rolls_left == 0 else "keep"
    bold = " style='font-weight:bold'"
    rows = "".join(
        f"<tr{bold if k == 0 else ''}><td style='text-align:left'>{html.escape(label)}</td>"
        f"<td>{score:.2f}</td><td>{loss:.2f}</td></tr>"
        for k, (label, score, loss) in enumerate(options)
    )
    table = (
        "<table style='display:inline-table;vertical-align:top;margin-left:1em'>"
        f"<tr><th>{kind}</th><th>expected final score</th><th>loss</th></tr>{rows}</table>"
    )
    card = card_html(boxes, dice, rolls_left)
    return card[: -len("</div>")] + table + "</div>"


def solution_html(
    rules: str, expected_score: float, std_dev: float, widgets: int, solve_seconds: float
) -> str:
    """A solved rule set (:class:`gamelab.yatzy.solver.Solution`): the optimal strategy's
    expected score and standard deviation, and what the solve cost."""
    rows = [
        ("optimal expected score", f"{expected_score:.7f}"),
        ("standard deviation", f"{std_dev:.4f}"),
        ("positions solved (widgets)", f"{widgets:,}"),
        ("solve time", f"{solve_seconds:.1f} s"),
    ]
    body = "".join(
        f"<tr><th style='text-align:left'>{name}</th><td>{value}</td></tr>" for name, value in rows
    )
    return f"<table><caption>{html.escape(rules)}</caption>{body}</table>"
