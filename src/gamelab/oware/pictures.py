"""Owaré pictures: the board, North's houses on top (right to left), South's below.

>>> svg = board_svg([4] * 12, (0, 0), 0)
>>> svg.count("<circle") == 12 and "South to move" in svg
True
"""

from __future__ import annotations

from collections.abc import Sequence

from gamelab.core.pictures import circle, rect, svg_document, text

PIT = 48


def board_svg(houses: Sequence[int], stores: Sequence[int], to_move: int) -> str:
    """Houses 0-5 are South's (A-F, left to right), 6-11 North's (a-f, drawn right to left
    above them); each store beside its row; whose move it is under the board."""
    parts = [rect(0, 0, 6 * PIT + 2 * PIT, 2 * PIT + 8, "#c8a26b", "#6b4f2a")]
    for i in range(6):
        south, north = houses[i], houses[11 - i]
        xs = PIT + i * PIT + PIT / 2
        parts.append(circle(xs, PIT + PIT / 2 + 4, PIT / 2 - 5, "#f1dfbf", "#6b4f2a"))
        parts.append(text(xs, PIT + PIT / 2 + 9, south, 16))
        parts.append(circle(xs, PIT / 2 + 4, PIT / 2 - 5, "#f1dfbf", "#6b4f2a"))
        parts.append(text(xs, PIT / 2 + 9, north, 16))
    parts.append(text(PIT / 2, PIT + 10, stores[1], 18))
    parts.append(text(7 * PIT + PIT / 2, PIT + 10, stores[0], 18))
    who = "South" if to_move == 0 else "North"
    parts.append(text(4 * PIT, 2 * PIT + 28, f"{who} to move (store: North left, South right)", 12))
    return svg_document(8 * PIT, 2 * PIT + 36, parts)
