"""Yatzy pictures: a score card, the dice shown and, from the coach, each keep's value; a
solved rule set; a review; and the final score's distribution, the chart the page's review
shows (the server sends it as SVG), so a notebook and the page draw it with one function.

>>> "<table" in card_html([("ones", 3), ("twos", None)], [1, 1, 1, 1, 4], 2)
True
>>> page = coach_html([("ones", None)], [1, 1, 1, 1, 4], 2, [("1111", 270.3, 0.0)])
>>> "1111" in page and "270.30" in page
True
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Protocol

import numpy as np


class ScoreLawLike(Protocol):
    """What :func:`distribution_svg` reads of a score law (:class:`gamelab.yatzy.review.ScoreLaw`;
    named by its fields so that the pictures import nothing of the game they draw)."""

    @property
    def offset(self) -> int: ...
    @property
    def probability(self) -> np.ndarray: ...
    @property
    def mean(self) -> float: ...


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


def distribution_svg(
    law: ScoreLawLike, score: int | None = None, width: int = 640, height: int = 240
) -> str:
    """An SVG line plot of the law (the central 99.98 %), the mean dashed and labelled (on the
    side away from `score`), `score` marked."""
    p = np.asarray(law.probability, dtype=float)
    c = np.cumsum(p)
    lo_i = int(np.searchsorted(c, 1e-4))
    hi_i = int(min(len(p) - 1, np.searchsorted(c, c[-1] - 1e-4)))
    lo, hi = law.offset + lo_i, law.offset + hi_i
    if score is not None:
        lo, hi = min(lo, score), max(hi, score)
    hi = max(hi, lo + 1)
    left, right, top, bottom = 48, 12, 12, 34
    pw, ph = width - left - right, height - top - bottom
    peak = float(p.max()) or 1.0

    def x(s: float) -> float:
        return left + (s - lo) / (hi - lo) * pw

    def y(q: float) -> float:
        return top + ph - q / peak * ph

    pts = " ".join(
        f"{x(law.offset + i):.1f},{y(float(p[i])):.1f}"
        for i in range(len(p))
        if lo <= law.offset + i <= hi
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" class="score-law"><title>Exact final-score distribution of optimal play'
        f"{'' if score is None else f'; your score {score}'}</title>",
        f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="#fbfbf8" stroke="#d9d9d2"/>',
    ]
    # ticks at least 48 px apart, whatever the width: their labels never crowd on a phone
    step = next((st for st in (10, 25, 50, 100) if st * pw / (hi - lo) >= 48), 200)
    for s in range((lo + step - 1) // step * step, hi + 1, step):
        out.append(
            f'<line x1="{x(s):.1f}" y1="{top + ph}" x2="{x(s):.1f}" y2="{top + ph + 4}" '
            f'stroke="#66665f"/><text x="{x(s):.1f}" y="{top + ph + 16}" font-size="11" '
            f'text-anchor="middle" fill="#66665f">{s}</text>'
        )
    out.append(
        f'<text x="{left + pw / 2:.1f}" y="{height - 2}" font-size="11" '
        f'text-anchor="middle" fill="#66665f">final score</text>'
    )
    out.append(
        f'<text x="12" y="{top + ph / 2:.1f}" font-size="11" text-anchor="middle" '
        f'fill="#66665f" transform="rotate(-90 12 {top + ph / 2:.1f})">probability</text>'
    )
    out.append(
        f'<text x="{left - 4}" y="{top + 10}" font-size="10" text-anchor="end" '
        f'fill="#66665f">{peak:.3f}</text>'
    )
    out.append(f'<polyline fill="none" stroke="#2f6db5" stroke-width="1.5" points="{pts}"/>')
    if lo <= law.mean <= hi:
        out.append(
            f'<line x1="{x(law.mean):.1f}" y1="{top}" x2="{x(law.mean):.1f}" '
            f'y2="{top + ph}" stroke="#2f6db5" stroke-dasharray="4 3"/>'
        )
        side = "end" if score is not None and score > law.mean else "start"
        out.append(
            f'<text class="mean" x="{x(law.mean) + (-4 if side == "end" else 4):.1f}" '
            f'y="{top + ph - 6}" font-size="11" fill="#2f6db5" text-anchor="{side}">'
            f"mean {law.mean:.1f}</text>"
        )
    if score is not None:
        anchor = "end" if x(score) > left + pw * 0.7 else "start"
        dx = -4 if anchor == "end" else 4
        out.append(
            f'<line class="your-score" x1="{x(score):.1f}" y1="{top}" x2="{x(score):.1f}" '
            f'y2="{top + ph}" stroke="#c62828" stroke-width="2"/>'
            f'<text x="{x(score) + dx:.1f}" y="{top + 14}" font-size="12" fill="#c62828" '
            f'text-anchor="{anchor}">you: {score}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def review_html(
    summary: str, rows: Sequence[tuple[int, str, str, str, float]], chart: str | None
) -> str:
    """A review (:class:`gamelab.yatzy.review.Review`): a line of totals, each of your
    decisions (turn, dice, your choice, the best, the loss in expected points) and the chart of
    the final score's distribution (None: the game is not finished)."""
    body = "".join(
        f"<tr><td>{turn}</td><td>{html.escape(dice)}</td><td style='text-align:left'>"
        f"{html.escape(choice)}</td><td style='text-align:left'>{html.escape(best)}</td>"
        f"<td>{loss:.2f}</td></tr>"
        for turn, dice, choice, best, loss in rows
    )
    table = (
        "<table><tr><th>turn</th><th>dice</th><th>you</th><th>best</th><th>loss</th></tr>"
        f"{body}</table>"
    )
    return f"<div><p>{html.escape(summary)}</p>{table}{chart or ''}</div>"
