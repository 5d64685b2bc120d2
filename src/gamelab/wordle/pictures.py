"""Pokémon Wordle pictures: guesses as rows of coloured tiles, the assistant's advice under
them, and a solved setting's distribution of guesses.

>>> svg = history_svg([("レントラー", "00120")])
>>> svg.count("<rect") == 5 and "ト" in svg
True
>>> svg = advice_svg(["レントラー:00000"], 67, [], "ゴルダック", 3.03, "normal mode")
>>> "ゴルダック" in svg and "67 candidates" in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gamelab.core.pictures import rect, svg_document, text, text_left, text_width

CELL = 44
#: the colours of feedback digits 0 (absent), 1 (elsewhere) and 2 (right place)
COLOURS = {"0": "#787c7e", "1": "#c9b458", "2": "#6aaa64"}
LINE = 20


def _tiles(rows: Sequence[tuple[str, str]]) -> tuple[list[str], float, float]:
    """The tiles of `rows` (word, feedback digits), their width and height."""
    parts = []
    for r, (word, feedback) in enumerate(rows):
        for c, (letter, digit) in enumerate(zip(word, feedback, strict=False)):
            x, y = c * CELL + 2, r * CELL + 2
            parts.append(rect(x, y, CELL - 4, CELL - 4, COLOURS.get(digit, "#ddd"), "#444"))
            parts.append(text(x + CELL / 2 - 2, y + CELL / 2 + 5, letter, 18, "#fff"))
    width = max((len(word) for word, _ in rows), default=5) * CELL + 4
    return parts, width, len(rows) * CELL + 4


def _with_lines(parts: list[str], width: float, height: float, lines: Sequence[str]) -> str:
    for k, line in enumerate(lines):
        parts.append(text_left(2, height + LINE * k + 15, line))
    height += LINE * len(lines) + (6 if lines else 0)
    width = max([width, *(text_width(line) + 8 for line in lines)])
    return svg_document(round(width), round(max(height, 10)), parts)


def history_svg(rows: Sequence[tuple[str, str]], note: str = "") -> str:
    """Each guess (a word) with its feedback digits (0 grey, 1 yellow, 2 green) as a row of
    tiles; `note` is written under them."""
    parts, width, height = _tiles(rows)
    return _with_lines(parts, width, height, [note] if note else [])


def advice_svg(
    history: Sequence[str],
    candidates: int,
    remaining: Sequence[str],
    next_guess: str | None,
    expected_guesses: float | None,
    mode: str,
    warning: str | None = None,
) -> str:
    """The assistant's answer (:class:`gamelab.wordle.advice.Advice`): the guesses so far
    (``word:digits``) as tiles, how many candidates are left (named when `remaining` lists them
    all), the recommended next guess with its expected number of guesses from here (next
    included; None: not known, e.g. the max-entropy guess past the time limit) and the mode."""
    rows = [tuple(entry.rsplit(":", 1)) for entry in history]
    parts, width, height = _tiles([(w, d) for w, d in rows])
    left = f"{candidates} candidate{'' if candidates == 1 else 's'} left"
    if remaining and len(remaining) == candidates:
        left += ": " + ", ".join(remaining[:8]) + (", …" if len(remaining) > 8 else "")
    lines = [left]
    if next_guess is not None:
        expected = "" if expected_guesses is None else f", {expected_guesses:.3f} guesses expected"
        lines.append(f"next guess: {next_guess}{expected} ({mode})")
    elif candidates == 1:
        lines.append(f"solved ({mode})")
    if warning:
        lines.append(warning)
    return _with_lines(parts, width, height if rows else 0, lines)


def summary_svg(
    title: str, distribution: Mapping[int, int], first_guesses: Sequence[str], statement: str
) -> str:
    """A solved setting (:class:`gamelab.wordle.solver.summary.OptimalSummary`): how many
    answers need 1, 2, 3 … guesses under the optimal strategy, as bars, with the first guesses
    and what is proven."""
    bar_h, label_w, scale_w = 22, 70, 320
    most = max(distribution.values(), default=1) or 1
    parts = [text_left(2, 16, title, 14)]
    y = 28
    for guesses, answers in sorted(distribution.items()):
        w = scale_w * answers / most
        parts.append(text_left(2, y + 15, f"{guesses} guess{'' if guesses == 1 else 'es'}"))
        parts.append(rect(label_w, y + 2, max(w, 1), bar_h - 4, "#6aaa64", "#3d7a38"))
        parts.append(text_left(label_w + w + 6, y + 15, answers))
        y += bar_h
    lines = [f"first guess: {', '.join(first_guesses) or '—'}", statement]
    return _with_lines(parts, label_w + scale_w + 60, y + 4, lines)
