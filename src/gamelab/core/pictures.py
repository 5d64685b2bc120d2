"""Pieces shared by the games' pictures for notebooks (``_repr_svg_`` / ``_repr_html_``).

Each game draws its pictures with pure functions of plain values in ``gamelab.<game>.pictures``
(a board from its tiles, a fold from its sites): no state is read there and nothing is written,
so a page or a notebook can call them alike. This module holds what they share: SVG text with
escaping, and an HTML table of a result's fields for results without a picture of their own.

>>> svg = svg_document(40, 20, [rect(0, 0, 40, 20, "#eee"), text(20, 14, "a<b")])
>>> svg.startswith("<svg") and "a&lt;b" in svg
True
"""

from __future__ import annotations

import html
from typing import Any

FONT = "font-family='system-ui, sans-serif'"


def svg_document(width: float, height: float, parts: list[str]) -> str:
    """An SVG picture of the given size holding `parts` (elements as text)."""
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:g}' height='{height:g}' "
        f"viewBox='0 0 {width:g} {height:g}' {FONT}>" + "".join(parts) + "</svg>"
    )


def rect(
    x: float, y: float, w: float, h: float, fill: str, stroke: str = "#555", width: float = 1
) -> str:
    return (
        f"<rect x='{x:g}' y='{y:g}' width='{w:g}' height='{h:g}' rx='3' fill='{fill}' "
        f"stroke='{stroke}' stroke-width='{width:g}'/>"
    )


def circle(x: float, y: float, r: float, fill: str, stroke: str = "#222", width: float = 1) -> str:
    return (
        f"<circle cx='{x:g}' cy='{y:g}' r='{r:g}' fill='{fill}' stroke='{stroke}' "
        f"stroke-width='{width:g}'/>"
    )


def line(x1: float, y1: float, x2: float, y2: float, stroke: str = "#222", dash: str = "") -> str:
    pattern = f" stroke-dasharray='{dash}'" if dash else ""
    return (
        f"<line x1='{x1:g}' y1='{y1:g}' x2='{x2:g}' y2='{y2:g}' stroke='{stroke}' "
        f"stroke-width='2'{pattern}/>"
    )


def text(x: float, y: float, words: object, size: float = 14, fill: str = "#111") -> str:
    return (
        f"<text x='{x:g}' y='{y:g}' font-size='{size:g}' text-anchor='middle' "
        f"fill='{fill}'>{html.escape(str(words))}</text>"
    )


def text_left(x: float, y: float, words: object, size: float = 13, fill: str = "#111") -> str:
    """Text starting at x (a line of a caption or a list)."""
    return (
        f"<text x='{x:g}' y='{y:g}' font-size='{size:g}' fill='{fill}'>"
        f"{html.escape(str(words))}</text>"
    )


def text_width(words: str, size: float = 13) -> float:
    """About how wide `words` is drawn at `size` (a wide character, kana or kanji, counts as a
    full em, any other as about half of one), to size a picture around its captions."""
    return sum(size if ord(c) > 0x2E7F else 0.58 * size for c in words)


def mix(low: str, high: str, t: float) -> str:
    """The colour a fraction `t` (0..1) of the way from `low` to `high` (``#rrggbb``)."""
    t = min(max(float(t), 0.0), 1.0)
    a = [int(low[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(high[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b, strict=True))


def fields_html(title: str, result: Any) -> str:
    """An HTML table of a result's fields (through the one serialiser), for a notebook."""
    from gamelab.core.serialise import to_plain

    plain = to_plain(result)
    rows = plain.items() if isinstance(plain, dict) else [("value", plain)]
    body = "".join(
        f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
        f"<td style='text-align:left'>{html.escape(_short(v))}</td></tr>"
        for k, v in rows
    )
    return f"<table><caption>{html.escape(title)}</caption>{body}</table>"


def _short(value: Any, limit: int = 200) -> str:
    shown = "—" if value is None else str(value)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
