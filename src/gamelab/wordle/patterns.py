"""The game's notation of feedback: pattern codes and the colours a user types or reads.

A pattern is stored as the base-3 number whose most significant digit is the first character
(0 = grey, 1 = yellow, 2 = green), so sorting codes sorts patterns the way the blog lists them.
:mod:`gamelab.wordle.rules` owns the game and gives these functions under its name too.

    >>> pattern_text(parse_pattern("⬛🟨🟩⬛⬛", 5), 5)
    '01200'
"""

from __future__ import annotations

from collections.abc import Sequence

from gamelab.core.typed import typed

_COLOUR_CHARS = {
    "0": 0,
    "1": 1,
    "2": 2,
    "⬛": 0,
    "⬜": 0,
    "🟨": 1,
    "🟩": 2,
    "灰": 0,
    "黄": 1,
    "緑": 2,
    "b": 0,
    "y": 1,
    "g": 2,
    "B": 0,
    "Y": 1,
    "G": 2,
    "x": 0,
    "-": 0,
    ".": 0,
}


def pattern_code(colours: Sequence[int]) -> int:
    """Base-3 code of a colour tuple, first character most significant."""
    code = 0
    for c in colours:
        code = code * 3 + int(c)
    return code


def pattern_colours(code: int, length: int) -> tuple[int, ...]:
    out = []
    for _ in range(length):
        out.append(code % 3)
        code //= 3
    return tuple(reversed(out))


def pattern_text(code: int, length: int, style: str = "digits") -> str:
    """A pattern as digits ("00120"), squares (⬛🟨🟩) or the blog's kanji (灰黄緑)."""
    symbols = {"digits": "012", "squares": "⬛🟨🟩", "kanji": "灰黄緑"}[style]
    return "".join(symbols[c] for c in pattern_colours(code, length))


def parse_pattern(text: str, length: int) -> int:
    """Parse colours typed by a user (digits 0/1/2, ⬛🟨🟩, 灰黄緑 or b/y/g) into a code."""
    chars = [c for c in typed(text).strip() if not c.isspace() and c != "\ufe0f"]
    try:
        colours = [_COLOUR_CHARS[c] for c in chars]
    except KeyError as exc:
        raise ValueError(
            f"bad colour {exc.args[0]!r} in {text!r}; use 0/1/2, ⬛🟨🟩, 灰黄緑 or b/y/g"
        ) from None
    if len(colours) != length:
        raise ValueError(
            f"feedback {text!r} has {len(colours)} colours; the guess has {length} characters"
        )
    return pattern_code(colours)
