"""Lattice folding pictures: a chain on the grid, H black and P white, HH contacts dotted.

>>> svg = fold_svg("HPPH", [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)])
>>> svg.count("<circle") == 4 and "stroke-dasharray" in svg
True
>>> svg = level_svg("HPPH", "RUL", "square", [5, 1], (1, 1, 1))
>>> "1 contact: 1 fold" in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

from gamelab.core.pictures import circle, line, rect, svg_document, text, text_left, text_width
from gamelab.lattice.rules import Lattice, coordinates


class FoldLike(Protocol):
    """What :func:`result_svg` reads of a fold (:class:`gamelab.lattice.fold.FoldResult`; named
    by its fields so that the pictures import nothing of the modules that draw with them)."""

    @property
    def name(self) -> str | None: ...
    @property
    def score(self) -> int: ...
    @property
    def gap(self) -> int: ...
    @property
    def verdict(self) -> str: ...
    @property
    def sequence(self) -> str: ...
    @property
    def conformation(self) -> str: ...
    @property
    def lattice(self) -> Lattice: ...


STEP = 36


def fold_svg(sequence: str, sites: Sequence[Sequence[int]], title: str = "") -> str:
    """Residues at `sites` ((x, y) or (x, y, z); a cubic fold is drawn with z as a shift to the
    lower right), bonds as lines, H-H contacts between non-neighbours dotted."""
    points = [(s[0] + 0.35 * (s[2] if len(s) > 2 else 0), -s[1] + 0.35 * (s[2] if len(s) > 2 else 0))
              for s in sites]  # fmt: skip
    if not points:
        return svg_document(STEP * 2, STEP, [text(STEP, STEP / 2, "empty", 12)])
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, y0 = min(xs), min(ys)

    def at(i: int) -> tuple[float, float]:
        return (points[i][0] - x0 + 1) * STEP, (points[i][1] - y0 + 1) * STEP

    parts = []
    where = {tuple(s): i for i, s in enumerate(sites)}
    for i, s in enumerate(sites):
        if sequence[i] != "H":
            continue
        for d in range(len(s)):
            other = list(s)
            other[d] += 1
            j = where.get(tuple(other))
            if j is not None and sequence[j] == "H" and abs(i - j) > 1:
                parts.append(line(*at(i), *at(j), "#c01c28", "4 4"))
    for i in range(len(points) - 1):
        parts.append(line(*at(i), *at(i + 1)))
    for i in range(len(points)):
        parts.append(circle(*at(i), STEP / 4, "#222" if sequence[i] == "H" else "#fff"))
    width = max((max(xs) - x0 + 2) * STEP, text_width(title, 12) + 12)
    height = (max(ys) - y0 + 2) * STEP + (18 if title else 0)
    if title:
        parts.append(text(width / 2, height - 6, title, 12))
    return svg_document(width, height, parts)


def result_svg(result: FoldLike) -> str:
    """A fold of :func:`gamelab.lattice.fold.fold`: the chain as :func:`fold_svg` draws it,
    titled with the contacts and whether they are proven optimal or how far the upper bound
    is."""
    label = f"{result.name}: " if result.name else ""
    score = result.score
    bound = f", upper bound {score + result.gap}" if result.gap else ""
    title = f"{label}{score} contact{'' if score == 1 else 's'}, {result.verdict}{bound}"
    return fold_svg(result.sequence, coordinates(result.conformation, result.lattice), title)


#: a band's colour: no star, then one, two and three stars
BAND_COLOURS = ("#c0c4c8", "#e5c07b", "#d19a66", "#c01c28")


def level_svg(
    sequence: str,
    conformation: str,
    lattice: Lattice,
    counts: Sequence[int],
    thresholds: tuple[int, int, int],
) -> str:
    """A puzzle analysed exactly (:class:`gamelab.lattice.pack.Level`): a best fold beside the
    histogram of every fold's contacts (``counts[k]`` folds make k contacts, bars on a log
    scale as in the paper's Figure 4), each bar coloured by the stars its folds earn under
    `thresholds` (the contacts for one, two and three stars)."""
    fold = fold_svg(sequence, coordinates(conformation, lattice), "a best fold")
    fold_w = float(fold.split("width='", 1)[1].split("'", 1)[0])
    top = max(math.log10(n + 1) for n in counts) or 1.0
    left, bar_h, scale_w = fold_w + 20, 20, 260
    parts = [fold.replace("<svg ", "<svg x='0' y='0' ", 1)]
    parts.append(text_left(left, 16, f"{sum(counts):,} folds by contacts (log scale)", 13))
    for k, n in enumerate(counts):
        y = 26 + k * bar_h
        stars = sum(1 for t in thresholds if k >= t)
        w = scale_w * math.log10(n + 1) / top
        bar = rect(left + 70, y + 2, max(w, 1), bar_h - 4, BAND_COLOURS[stars], "#555")
        label = f"{k} contact{'' if k == 1 else 's'}: {n:,} fold{'' if n == 1 else 's'}"
        parts.append(f"<g><title>{label}</title>{bar}</g>")
        parts.append(text_left(left, y + 15, k, 12))
        parts.append(text_left(left + 76 + w, y + 15, f"{n:,}", 12))
    parts.append(text_left(left, 26 + len(counts) * bar_h + 16,
                           "stars at " + ", ".join(str(t) for t in thresholds) + " contacts", 12))  # fmt: skip
    height = max(
        float(fold.split("height='", 1)[1].split("'", 1)[0]), 26 + len(counts) * bar_h + 28
    )
    return svg_document(left + 70 + scale_w + 110, height, parts)
