"""Owaré pictures: the board, North's houses on top (right to left), South's below; and an
analysed position with each legal move's value.

>>> svg = board_svg([4] * 12, (0, 0), 0)
>>> svg.count("<circle") == 12 and "South to move" in svg
True
>>> svg = analysis_svg([4] * 12, (0, 0), 0, "C", [("C", "South ahead by 0.4 seeds")], "even")
>>> "C: South ahead by 0.4 seeds" in svg and "stroke='#1a5fb4'" in svg
True
"""

from __future__ import annotations

from collections.abc import Sequence

from gamelab.core.pictures import circle, rect, svg_document, text, text_left, text_width

PIT = 48
BEST = "#1a5fb4"


def _board(
    houses: Sequence[int], stores: Sequence[int], to_move: int, best: int | None
) -> list[str]:
    parts = [rect(0, 0, 6 * PIT + 2 * PIT, 2 * PIT + 8, "#c8a26b", "#6b4f2a")]
    for i in range(6):
        for house, y in ((i, PIT + PIT / 2 + 4), (11 - i, PIT / 2 + 4)):
            x = PIT + i * PIT + PIT / 2
            chosen = house == best
            parts.append(circle(x, y, PIT / 2 - 5, "#f1dfbf", BEST if chosen else "#6b4f2a",
                                4 if chosen else 1))  # fmt: skip
            parts.append(text(x, y + 5, houses[house], 16))
    parts.append(text(PIT / 2, PIT + 10, stores[1], 18))
    parts.append(text(7 * PIT + PIT / 2, PIT + 10, stores[0], 18))
    who = "South" if to_move == 0 else "North"
    parts.append(text(4 * PIT, 2 * PIT + 28, f"{who} to move (store: North left, South right)", 12))
    return parts


def board_svg(houses: Sequence[int], stores: Sequence[int], to_move: int) -> str:
    """Houses 0-5 are South's (A-F, left to right), 6-11 North's (a-f, drawn right to left
    above them); each store beside its row; whose move it is under the board."""
    return svg_document(8 * PIT, 2 * PIT + 36, _board(houses, stores, to_move, None))


def house_of(move: str) -> int:
    """The house a move letter sows from: A-F South's houses 0-5, a-f North's 6-11."""
    return ord(move) - ord("A") if move.isupper() else 6 + ord(move) - ord("a")


def analysis_svg(
    houses: Sequence[int],
    stores: Sequence[int],
    to_move: int,
    best_move: str,
    moves: Sequence[tuple[str, str]],
    verdict: str,
) -> str:
    """An analysed position (:class:`gamelab.oware.game.PositionAnalysis`): the board with the
    best move's house outlined, the verdict, and each legal move (a house letter) with its value
    in words, best first (`moves` empty: the best move alone)."""
    parts = _board(houses, stores, to_move, house_of(best_move))
    lines = [f"best move {best_move}: {verdict}"]
    lines += [f"{move}: {value}" for move, value in moves]
    y = 2 * PIT + 36
    for k, line in enumerate(lines):
        parts.append(text_left(8, y + 18 * k + 14, line))
    width = max([8 * PIT, *(text_width(line) + 16 for line in lines)])
    return svg_document(round(width), y + 18 * len(lines) + 8, parts)
