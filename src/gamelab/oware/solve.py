"""Small Abapa games solved exactly: the start with k seeds in every house, from the tables.

The game started with k seeds in each of the 12 houses (the standard game has 4) puts 12k seeds
on the board, so its value is the tablebase's value of that board: South's final seed difference
under perfect play of the board seeds, with the table's conventions (play continues to the last
seed; a capture-free cycle is an even split: see :mod:`gamelab.oware.tablebase`). Each first move
is valued as ``captured - value(child)`` from the same table and the principal variation follows
a best move (the first in house order) until the game ends or a capture-free cycle repeats.

k = 1 is a 12-seed board (the default table); k = 2 is 24 seeds, the endgame database on disk
(:mod:`gamelab.oware.tablebase_disk`) built to 24.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gamelab.oware import _tablebase_kernels as K
from gamelab.oware.rules import ABAPA, apply_move, legal_offsets, move_letter
from gamelab.oware.tablebase import MAX_SUPPORTED, Tablebase, load_tablebase

#: Longest principal variation printed (plies)
MAX_LINE = 400


@dataclass(frozen=True)
class MoveValue:
    move: str  # the house letter (A-F South, a-f North)
    captured: int
    value: int  # South's final difference of the board seeds after this move, best play


@dataclass(frozen=True)
class SolvedStart:
    """The exact value of the start with `seeds_per_house` seeds in each house."""

    seeds_per_house: int
    board_seeds: int
    value: int  # South's (the first mover's) final seed difference with perfect play
    south: int  # South's seeds at the end
    north: int
    verdict: str
    best_moves: list[str]
    moves: list[MoveValue] = field(default_factory=list)
    principal_variation: list[str] = field(default_factory=list)
    line_end: str = ""
    table: str = ""


def _value(tb: Tablebase, houses: list[int], side: int, binom: np.ndarray) -> int:
    b = np.array([*houses, 0, 0], dtype=np.int64)
    return int(K.tb_board_value(b, side, tb.values, tb.offsets, binom))


def _move_values(
    tb: Tablebase, houses: list[int], side: int, binom: np.ndarray
) -> list[tuple[int, int, int, list[int]]]:
    """(offset, captured, mover's value, child houses) of every legal move."""
    out = []
    for o in legal_offsets(tuple(houses), side, ABAPA):
        child = list(houses)
        captured = apply_move(child, [0, 0], side, o, ABAPA)
        out.append((o, captured, captured - _value(tb, child, 1 - side, binom), child))
    return out


def solve_start(seeds_per_house: int) -> SolvedStart:
    """Solve the start with `seeds_per_house` seeds in each house from the tables (a
    ValueError saying what to build when they do not reach 12 x that many seeds)."""
    if not 1 <= seeds_per_house <= 4:
        raise ValueError(f"seeds per house must be 1 to 4, got {seeds_per_house}")
    total = 12 * seeds_per_house
    if total > MAX_SUPPORTED:
        from gamelab.oware.tablebase_disk import database_reach

        reach = database_reach()
        if reach < total:
            raise ValueError(
                f"the {seeds_per_house}-seed game has {total} seeds on the board; the endgame "
                f"database here reaches {max(reach, 0)} seeds: build it with "
                f"`gamelab oware tablebase --seeds {total}`"
            )
    tb = load_tablebase(total)
    binom = K.binomial_table()
    houses = [seeds_per_house] * 12
    value = _value(tb, houses, 0, binom)
    moves = _move_values(tb, houses, 0, binom)
    assert max(v for _, _, v, _ in moves) == value  # the table is a fixed point
    best = [move_letter(0, o) for o, _, v, _ in moves if v == value]
    line, end = _principal_variation(tb, houses, binom)
    south, north = (total + value) // 2, (total - value) // 2
    if value > 0:
        verdict = f"South (the first player) wins by {value} seeds, {south}-{north}"
    elif value < 0:
        verdict = f"North (the second player) wins by {-value} seeds, {north}-{south}"
    else:
        verdict = f"a draw, {south}-{north}"
    return SolvedStart(
        seeds_per_house=seeds_per_house,
        board_seeds=total,
        value=value,
        south=south,
        north=north,
        verdict=verdict,
        best_moves=best,
        moves=[MoveValue(move_letter(0, o), c, v) for o, c, v, _ in moves],
        principal_variation=line,
        line_end=end,
        table="tablebase" if total <= MAX_SUPPORTED else "endgame database",
    )


def _principal_variation(
    tb: Tablebase, houses: list[int], binom: np.ndarray
) -> tuple[list[str], str]:
    line: list[str] = []
    side = 0
    seen = {(tuple(houses), side)}
    for _ in range(MAX_LINE):
        moves = _move_values(tb, houses, side, binom)
        if not moves:
            own = sum(houses[6 * side : 6 * side + 6])
            return line, (
                f"{'South' if side == 0 else 'North'} cannot move: each side takes its own row "
                f"({own} and {sum(houses) - own} seeds)"
            )
        best = max(v for _, _, v, _ in moves)
        o, captured, _, child = next(m for m in moves if m[2] == best)
        line.append(move_letter(side, o))
        houses, side = child, 1 - side
        if captured:
            seen = set()
        key = (tuple(houses), side)
        if key in seen:
            return line, "a capture-free cycle repeats: an even split of the board seeds"
        seen.add(key)
        if sum(houses) == 0:
            return line, "the board is empty"
    return line, f"line cut at {MAX_LINE} plies"
