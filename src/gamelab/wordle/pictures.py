"""Pokémon Wordle pictures: guesses as rows of coloured tiles.

>>> svg = history_svg([("レントラー", "00120")])
>>> svg.count("<rect") == 5 and "ト" in svg
True
"""

from __future__ import annotations

from collections.abc import Sequence

from gamelab.core.pictures import rect, svg_document, text

CELL = 44
#: the colours of feedback digits 0 (absent), 1 (elsewhere) and 2 (right place)
COLOURS = {"0": "#787c7e", "1": "#c9b458", "2": "#6aaa64"}


def history_svg(rows: Sequence[tuple[str, str]], note: str = "") -> str:
    """Each guess (a word) with its feedback digits (0 grey, 1 yellow, 2 green) as a row of
    tiles; `note` (the advice, say) is written under them."""
    width = max((len(word) for word, _ in rows), default=5) * CELL + 4
    parts = []
    for r, (word, feedback) in enumerate(rows):
        for c, (letter, digit) in enumerate(zip(word, feedback, strict=False)):
            x, y = c * CELL + 2, r * CELL + 2
            parts.append(rect(x, y, CELL - 4, CELL - 4, COLOURS.get(digit, "#ddd"), "#444"))
            parts.append(text(x + CELL / 2 - 2, y + CELL / 2 + 5, letter, 18, "#fff"))
    height = len(rows) * CELL + 4
    if note:
        parts.append(
            f"<text x='2' y='{height + 16}' font-size='13' fill='#111'>"
            + note.replace("&", "&amp;").replace("<", "&lt;")
            + "</text>"
        )
        height += 24
    return svg_document(max(width, 8 * len(note) if note else width), max(height, 10), parts)
