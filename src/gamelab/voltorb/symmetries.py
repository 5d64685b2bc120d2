"""The symmetries of a Voltorb Flip clue set: rows with equal clues (sum and Voltorbs) may be
swapped, and so may columns, without changing which boards are consistent or their prior
weights, so a state and its image under such a map have the same value. The exact search's memo
(:mod:`gamelab.voltorb.expectimax`) looks a state up under these maps.
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
    Voltorbs) and columns with equal clues: every board consistent with the clues maps to one
    with the same clues and the same prior weight, so a state and its image have the same
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
    return np.array(out[:SYMMETRIES_MAX], dtype=np.int64)
