"""The symmetries of a Voltorb Flip clue set: rows with equal clues (sum and Voltorbs) may be
swapped, and so may columns, without changing which boards are consistent or their prior
weights, so a state and its image under such a map have the same value; and when the rows' clues
are the columns' in another order, so may the board be transposed (each generator's prior treats
rows and columns alike: hgss and bulbapedia weigh a board by its 3s, its free cells, the union of
the lines without a Voltorb, and its busiest line of either kind; the iid ones tile by tile).
The exact search's memo (:mod:`gamelab.voltorb.expectimax`) looks a state up under these maps.
About 1 level-3 deal in 200 can be transposed, but those are hard: their openings took 18x the
mean CPU of the others (12 such deals against 150 others, measured).
"""

from __future__ import annotations

from itertools import permutations, product

import numpy as np

from gamelab.voltorb.rules import TILES, Clues

#: the most tile maps the memo tries for a state's canonical image (memo_find): each costs 25
#: steps per state searched; beyond it, a subset (the identity first), still all symmetries
SYMMETRIES_MAX = 48


def clue_symmetries(clues: Clues) -> np.ndarray:
    """Tile maps (G x 25 int64, the identity first) that permute rows with equal clues (sum and
    Voltorbs) and columns with equal clues, and each of them after a transposition when the
    rows' clues are the columns' in some order: every board consistent with the clues maps to
    one with the same clues and the same prior weight, so a state and its image have the same
    value. At most :data:`SYMMETRIES_MAX` of them."""

    def line_maps(sums: np.ndarray, voltorbs: np.ndarray) -> list[list[int]]:
        groups: dict[tuple[int, int], list[int]] = {}
        for i, key in enumerate(zip(sums.tolist(), voltorbs.tolist(), strict=True)):
            groups.setdefault(key, []).append(i)
        maps = []
        for images in product(*(permutations(g) for g in groups.values())):
            line = list(range(5))
            for group, image in zip(groups.values(), images, strict=True):
                for a, b in zip(group, image, strict=True):
                    line[a] = b
            maps.append(line)
        return maps  # the identity first (each group's first permutation is itself)

    rows = line_maps(clues.row_sums, clues.row_voltorbs)
    cols = line_maps(clues.col_sums, clues.col_voltorbs)
    out = [[r[t // 5] * 5 + c[t % 5] for t in range(TILES)] for r, c in product(rows, cols)]
    row_keys = list(zip(clues.row_sums.tolist(), clues.row_voltorbs.tolist(), strict=True))
    col_keys = list(zip(clues.col_sums.tolist(), clues.col_voltorbs.tolist(), strict=True))
    if sorted(row_keys) == sorted(col_keys):
        # transpose: column k becomes a row with column k's clue, row i a column with row i's
        to_row = [sorted(j for j in range(5) if row_keys[j] == key) for key in col_keys]
        to_col = [sorted(j for j in range(5) if col_keys[j] == key) for key in row_keys]
        row_of = [to_row[k][col_keys[:k].count(col_keys[k])] for k in range(5)]
        col_of = [to_col[i][row_keys[:i].count(row_keys[i])] for i in range(5)]
        flip = [row_of[t % 5] * 5 + col_of[t // 5] for t in range(TILES)]
        out += [[m[flip[t]] for t in range(TILES)] for m in list(out)]
    return np.array(out[:SYMMETRIES_MAX], dtype=np.int64)
