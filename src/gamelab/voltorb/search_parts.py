"""A win search split into parts (:func:`gamelab.voltorb.solved.split_decide`): what each part
proved, and how the parts combine into the whole search's tile and value.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SearchPart:
    """What a part of a split search proved (:meth:`OptimalSolver.search_part`): the whole
    search's order of first tiles, and the exact value (prior mass cleared) of each first tile
    the part searched to the end; `total` is the live mass of the state (for its tolerance)."""

    order: tuple[int, ...]
    values: dict[int, float]
    total: float


def combine_parts(order: list[int], parts: list[SearchPart]) -> tuple[int, float]:
    """(best first tile, value) of a search split into `parts` (all of one state, their tiles
    disjoint and covering its first tiles `order`, as :meth:`OptimalSolver.first_tiles` gives
    them): the tile the whole search picks, by its own rule (the first in its order whose value
    beats the best so far by more than its tolerance), and its value. A tile some part cut off
    is worth less than another part's tile by more than that tolerance, so it is never the
    pick. ValueError if no part searched a tile to the end."""
    if not parts:
        raise ValueError("no parts of a split search to combine")
    total = parts[0].total
    values: dict[int, float] = {}
    for part in parts:
        values.update(part.values)
    eps = 1e-12 * total
    best, best_tile = -1.0, -1
    for tile in order:
        value = values.get(tile)
        if value is not None and value > best + eps:
            best, best_tile = value, tile
    if best_tile < 0:
        raise ValueError("no part searched a first tile to the end")
    return best_tile, best
