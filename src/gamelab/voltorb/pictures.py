"""Voltorb Flip pictures: the board with its clues and, for hidden tiles, their odds.

>>> svg = board_svg([(4, 2)] * 5, [(4, 2)] * 5, {0: 1, 6: 0}, [0.5] * 25)
>>> svg.count("<rect") == 25 and "0.50" in svg
True
>>> from gamelab.core.stats import wilson_interval
>>> "41.0%" in simulation_html("hgss", 8, [("minrisk", 100, wilson_interval(41, 100), 7.2)])
True
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from gamelab.core.pictures import mix, rect, svg_document, text
from gamelab.core.stats import Estimate, format_difference, format_estimate

CELL = 46
SAFE, RISKY, HIDDEN = "#e6f4e6", "#f4b5a8", "#d9dde3"


def board_svg(
    row_clues: Sequence[tuple[int, int]] | None,
    col_clues: Sequence[tuple[int, int]] | None,
    revealed: Mapping[int, int],
    p_voltorb: Sequence[float] | None = None,
    recommended: int | None = None,
) -> str:
    """The 5x5 board (tiles 0..24 row-major) with each line's clue (sum, Voltorbs): revealed
    tiles show their value (V for a Voltorb), hidden ones their P(Voltorb) as a colour and a
    number when `p_voltorb` is given; `recommended` is outlined. Clues None: none drawn."""
    size = 5
    parts = []
    for tile in range(size * size):
        r, c = divmod(tile, size)
        x, y = c * CELL + 2, r * CELL + 2
        if tile in revealed:
            value = revealed[tile]
            parts.append(rect(x, y, CELL - 4, CELL - 4, "#fff"))
            parts.append(text(x + CELL / 2 - 2, y + CELL / 2 + 4, "V" if value == 0 else value, 18))
            continue
        p = None if p_voltorb is None else float(p_voltorb[tile])
        fill = HIDDEN if p is None else mix(SAFE, RISKY, p)
        chosen = tile == recommended
        parts.append(rect(x, y, CELL - 4, CELL - 4, fill, "#1a5fb4" if chosen else "#555",
                          4 if chosen else 1))  # fmt: skip
        if p is not None:
            parts.append(text(x + CELL / 2 - 2, y + CELL / 2 + 3, f"{p:.2f}", 12))
    for i, (total, voltorbs) in enumerate(row_clues or []):
        parts.append(text(size * CELL + 24, i * CELL + CELL / 2, total, 13))
        parts.append(text(size * CELL + 24, i * CELL + CELL / 2 + 15, f"V{voltorbs}", 11, "#a33"))
    for i, (total, voltorbs) in enumerate(col_clues or []):
        parts.append(text(i * CELL + CELL / 2, size * CELL + 16, total, 13))
        parts.append(text(i * CELL + CELL / 2, size * CELL + 31, f"V{voltorbs}", 11, "#a33"))
    return svg_document(size * CELL + 50, size * CELL + 40, parts)


def state_svg(clues: object | None, revealed: Mapping[int, int], dealt: int) -> str:
    """A round in play (:class:`gamelab.voltorb.state.VoltorbState`): the clues and the tiles
    flipped so far; while the deal is still being drawn, how far it is."""
    if clues is None:
        return svg_document(5 * CELL + 50, 40, [text(130, 25, f"dealing: {dealt} of 25 tiles")])
    rows = list(zip(clues.row_sums, clues.row_voltorbs, strict=True))  # type: ignore[attr-defined]
    cols = list(zip(clues.col_sums, clues.col_voltorbs, strict=True))  # type: ignore[attr-defined]
    return board_svg([(int(a), int(b)) for a, b in rows], [(int(a), int(b)) for a, b in cols],
                     revealed)  # fmt: skip


def analysis_svg(p_voltorb: Sequence[Sequence[float]], recommended: Sequence[int] | None) -> str:
    """The assistant's answer (:class:`gamelab.voltorb.assistant.BoardAnalysis`): every tile's
    P(Voltorb), the recommended flip outlined (a tile certainly safe or flipped shows 0.00)."""
    flat = [float(p) for row in p_voltorb for p in row]
    tile = None if recommended is None else (recommended[0] - 1) * 5 + recommended[1] - 1
    return board_svg(None, None, {}, flat, tile)


def simulation_html(
    generator: str,
    level: int,
    rows: Sequence[tuple[str, int, Estimate, float]],
    difference: Estimate | None = None,
) -> str:
    """A simulation (:class:`gamelab.voltorb.simulate.SimulationStudy`): per strategy, the
    rounds played, the win rate with its 95% interval and the mean flips; with a second
    strategy on the same boards, the paired difference of the win rates (first minus second)."""
    body = "".join(
        f"<tr><td style='text-align:left'>{html.escape(name)}</td><td>{games:,}</td>"
        f"<td>{html.escape(format_estimate(rate, '.1%'))}</td><td>{flips:.2f}</td></tr>"
        for name, games, rate, flips in rows
    )
    caption = f"Voltorb Flip level {level}, {html.escape(generator)} boards"
    paired = (
        ""
        if difference is None
        else f"<p>paired difference of the win rates: {format_difference(difference, '+.1%')}</p>"
    )
    return (
        f"<div><table><caption>{caption}</caption><tr><th>strategy</th><th>rounds</th>"
        f"<th>win rate (95% interval)</th><th>mean flips</th></tr>{body}</table>{paired}</div>"
    )
