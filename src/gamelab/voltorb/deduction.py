"""The blog's "two and a half rules" as a label board (Dylan Black, "Voltorb Flip: Overanalyzing a
Minigame", parts 1-2; code ``Sparkplug94/VoltorbFlip`` ``charSumCheck``/``voltorbCheck``).

Each tile keeps the set of values it may still hold. For a line with sum S, Voltorb count V and
revealed 2s/3s, the remaining reward is ``R = S + V - 5 - (#revealed 2s) - 2 (#revealed 3s)``
(= #hidden 2s + 2 #hidden 3s):

1. a line with no Voltorb is safe: its tiles cannot be 0 (the blog reveals them at once);
2. a line with R = 0 holds no hidden 2 or 3: its hidden tiles are 0 or 1;
2½. a line with R = 1 holds exactly one hidden 2 and no 3.

A revealed tile holds its value. Nothing else is deduced: the exact posterior
(:mod:`gamelab.voltorb.posterior`) knows everything these rules know and more.

    >>> from gamelab.voltorb.rules import Clues
    >>> import numpy as np
    >>> b = np.array([[1,1,1,1,1],[0,2,1,1,1],[0,0,3,1,1],[1,0,1,1,2],[1,1,0,0,0]])
    >>> labels = label_board(Clues.from_board(b))
    >>> labels[0]  # row 1: no Voltorb and R = 0 -> every tile is a 1
    ['1', '1', '1', '1', '1']
"""

from __future__ import annotations

import numpy as np

from gamelab.voltorb.rules import SIZE, Clues


def line_rewards(
    clues: Clues, revealed: dict[int, int] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(R per row, R per column): remaining #2s + 2 #3s of each line."""
    revealed = revealed or {}
    r_row = clues.row_sums + clues.row_voltorbs - SIZE
    r_col = clues.col_sums + clues.col_voltorbs - SIZE
    r_row = r_row.astype(np.int64).copy()
    r_col = r_col.astype(np.int64).copy()
    for tile, value in revealed.items():
        if value >= 2:
            r_row[tile // SIZE] -= value - 1
            r_col[tile % SIZE] -= value - 1
    return r_row, r_col


def label_board(clues: Clues, revealed: dict[int, int] | None = None) -> list[list[str]]:
    """5x5 strings of the values each tile may hold, e.g. ``'01'`` or ``'0123'``."""
    revealed = revealed or {}
    r_row, r_col = line_rewards(clues, revealed)
    labels = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            tile = r * SIZE + c
            if tile in revealed:
                row.append(str(revealed[tile]))
                continue
            allowed = {0, 1, 2, 3}
            if clues.row_voltorbs[r] == 0 or clues.col_voltorbs[c] == 0:
                allowed.discard(0)
            if clues.row_voltorbs[r] == SIZE or clues.col_voltorbs[c] == SIZE:
                allowed &= {0}
            for reward in (r_row[r], r_col[c]):
                if reward <= 0:
                    allowed -= {2, 3}
                elif reward == 1:
                    allowed.discard(3)
            row.append("".join(str(v) for v in sorted(allowed)))
        labels.append(row)
    return labels


def safe_tiles(clues: Clues, revealed: dict[int, int] | None = None) -> list[int]:
    """Unrevealed tiles the rules prove are not Voltorbs."""
    labels = label_board(clues, revealed)
    revealed = revealed or {}
    return [
        r * SIZE + c
        for r in range(SIZE)
        for c in range(SIZE)
        if r * SIZE + c not in revealed and "0" not in labels[r][c]
    ]
