"""Exact prior of each generator: valid-board counts and the per-board weight table.

For ``hgss`` a board with card counts (v, t2, t3) has probability
``sum_c [counts_c = (v, t2, t3)] * [board passes c's free test] / (10 * N_c)`` over the level's 10
configurations, where ``N_c`` is the number of boards passing the test (research note voltorb.md,
section 2). ``N_c`` is counted exactly here, not sampled:

* the Voltorbs decide which rows (a of them) and columns (b) hold no Voltorb; the number of Voltorb
  placements with exactly those empty lines is an inclusion-exclusion sum;
* the free cells are the union of those a rows and b columns; a placement of the multipliers passes
  the test when the k that land on free cells satisfy ``k < MaxFreeTotal`` and no line holds
  ``MaxFreePerRowCol`` of them; the k-subsets of free cells are enumerated (k <= 5), the other
  ``m - k`` multipliers go anywhere among the remaining non-Voltorb cells.

Cost: a few hundred thousand small subsets once (well under a second), then cached in memory.
Cross-checks: the ratio ``N_c / multinomial`` reproduces the Monte-Carlo acceptance rates of the
research table, and Tobs40/rust-voltorb-flip-solver's exact values (id 70: 0.7606, id 12: 0.4163).

The posterior weight of a consistent board depends only on (number of 3s, free total, largest free
count on a line) once the clues fix the Voltorb count and the excess (#2s + 2 #3s):
:func:`weight_table` returns that table for any generator.
"""

from __future__ import annotations

import itertools
from functools import cache
from math import comb

import numpy as np

from gamelab.voltorb.rules import (
    CONFIGS,
    SIZE,
    TILES,
    BoardConfig,
    BoardGenerator,
    iid_tile_probabilities,
    level_configs,
)

#: Index caps of the weight table: free totals >= 6 and line counts >= 5 fail every configuration.
FREE_TOTAL_CAP = 6
FREE_LINE_CAP = 5
MAX_THREES = TILES


def _voltorb_placements(rows: int, cols: int, v: int) -> int:
    """v-subsets of a rows x cols grid that touch every row and every column."""
    total = 0
    for i in range(rows + 1):
        for j in range(cols + 1):
            total += (
                (-1) ** (i + j) * comb(rows, i) * comb(cols, j) * comb((rows - i) * (cols - j), v)
            )
    return total


@cache
def _free_subset_histogram(a: int, b: int) -> np.ndarray:
    """h[k, m] = k-subsets (k <= 5) of the free cells of rows 0..a-1 and columns 0..b-1 whose
    busiest line holds exactly m cells."""
    cells = [(r, c) for r in range(SIZE) for c in range(SIZE) if r < a or c < b]
    hist = np.zeros((6, 6), dtype=np.int64)
    hist[0, 0] = 1
    if not cells:
        return hist
    incidence = np.zeros((len(cells), 2 * SIZE), dtype=np.int8)
    for i, (r, c) in enumerate(cells):
        incidence[i, r] = 1
        incidence[i, SIZE + c] = 1
    for k in range(1, 6):
        if k > len(cells):
            break
        combos = np.array(list(itertools.combinations(range(len(cells)), k)), dtype=np.int16)
        line_counts = incidence[combos].sum(axis=1)
        busiest = line_counts.max(axis=1)
        hist[k] += np.bincount(busiest, minlength=6)[:6]
    return hist


@cache
def valid_board_count(config_id: int) -> int:
    """Exact number of boards of a configuration that pass its free-multiplier test."""
    c: BoardConfig = CONFIGS[config_id]
    v, m = c.voltorbs, c.twos + c.threes
    total = 0
    for a in range(SIZE + 1):
        for b in range(SIZE + 1):
            placements = comb(SIZE, a) * comb(SIZE, b) * _voltorb_placements(SIZE - a, SIZE - b, v)
            if placements == 0:
                continue
            rest = (SIZE - a) * (SIZE - b) - v  # non-free, non-Voltorb cells
            hist = _free_subset_histogram(a, b)
            ways = 0
            for k in range(min(c.max_free_total, m + 1, 6)):
                ok_subsets = int(hist[k, : c.max_free_per_line].sum())
                ways += ok_subsets * comb(rest, m - k)
            total += placements * ways
    return total * comb(m, c.twos)


def acceptance_rate(config_id: int) -> float:
    """Probability that a uniformly placed board of this configuration passes the test."""
    return valid_board_count(config_id) / CONFIGS[config_id].placements


@cache
def _weight_table_cached(generator: str, level: int, voltorbs: int, excess: int) -> np.ndarray:
    table = np.zeros((MAX_THREES + 1, FREE_TOTAL_CAP + 1, FREE_LINE_CAP + 1))
    if generator in ("hgss", "bulbapedia"):
        for c in level_configs(level):
            if c.voltorbs != voltorbs or c.twos + 2 * c.threes != excess:
                continue
            if generator == "hgss":
                table[c.threes, : c.max_free_total, : c.max_free_per_line] += 1.0 / (
                    10 * valid_board_count(c.id)
                )
            else:
                table[c.threes] += 1.0 / (10 * c.placements)
    else:
        p_v, p1, p2, p3 = iid_tile_probabilities(generator, level)
        for threes in range(MAX_THREES + 1):
            twos = excess - 2 * threes
            ones = TILES - voltorbs - twos - threes
            if twos < 0 or ones < 0:
                continue
            table[threes] = p_v**voltorbs * p1**ones * p2**twos * p3**threes
    table.setflags(write=False)
    return table


def weight_table(generator: BoardGenerator, level: int, voltorbs: int, excess: int) -> np.ndarray:
    """W[threes, free total (capped at 6), busiest free line (capped at 5)] = prior probability
    of one board with `voltorbs` Voltorbs and `excess` = #2s + 2 #3s (clue totals), under a
    :class:`~gamelab.voltorb.rules.VoltorbSetting`'s generator at a level 1-8."""
    return _weight_table_cached(str(generator), level, voltorbs, excess)
