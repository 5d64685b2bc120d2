"""The H-core bound: the layer programme of :func:`gamelab.lattice.bounds.core_edges`."""

from __future__ import annotations

import itertools

import numpy as np

from gamelab.lattice.bounds import (
    contact_bounds,
    core_bound,
    core_edge_table,
    core_edges,
    max_core_edges,
)
from gamelab.lattice.instances import get_benchmark

# OEIS A007818: the maximal number of edges joining n points of the cubic lattice, n = 1..27
A007818 = [0, 1, 2, 4, 5, 7, 9, 12, 13, 15, 17, 20, 21, 23, 25, 28, 30, 33, 34, 36, 38, 41, 43,
           46, 48, 51, 54]  # fmt: skip


def test_colour_blind_maximum_is_the_published_one():
    cubic, square = core_edge_table(27, 27, 3), core_edge_table(30, 30, 2)
    for n, edges in enumerate(A007818, start=1):
        assert max(cubic[a, n - a] for a in range(n + 1)) == edges, n
    for n in range(1, 31):  # Harary & Harborth 1976: exact in 2D
        assert max(square[a, n - a] for a in range(n + 1)) == max_core_edges(n, 2), n
    assert core_edges(12, 12, 3) == cubic[12, 12] and core_edges(7, 9, 2) == square[9, 7]


def _max_edges_by_colours(shape: tuple[int, ...]) -> dict[tuple[int, int], int]:
    """The most edges of every subset of a box of `shape`, by its colour counts (brute force)."""
    cells = list(itertools.product(*(range(s) for s in shape)))
    index = {c: k for k, c in enumerate(cells)}
    edges = [
        (index[c], index[d])
        for c in cells
        for axis in range(len(shape))
        if (d := tuple(v + (i == axis) for i, v in enumerate(c))) in index
    ]
    masks = np.arange(1 << len(cells), dtype=np.int64)
    bit = [(masks >> k) & 1 for k in range(len(cells))]
    count = sum(bit[i] & bit[j] for i, j in edges)
    even = sum(bit[k] for k, c in enumerate(cells) if sum(c) % 2 == 0)
    odd = sum(bit[k] for k, c in enumerate(cells) if sum(c) % 2 == 1)
    best: dict[tuple[int, int], int] = {}
    for e, o, m in zip(even.tolist(), odd.tolist(), count.tolist(), strict=True):
        best[(e, o)] = max(best.get((e, o), 0), m)
    return best


def test_the_layer_bound_holds_for_every_set_of_a_small_box():
    found = {
        shape: _max_edges_by_colours(shape) for shape in [(4, 4), (3, 5), (2, 2, 3), (2, 3, 3)]
    }
    for shape, best in found.items():
        for (e, o), m in best.items():
            assert core_edges(e, o, len(shape)) >= m, (shape, e, o)
    # and the colours cost edges: 4 + 2 sites span 6 edges at most in the plane (reached), 7
    # colour-blind (a 2 x 3 rectangle, 3 + 3)
    assert core_edges(4, 2, 2) == found[(4, 4)][(4, 2)] == 6 < max_core_edges(6, 2) == 7


def test_the_harvard_cores_prove_two_optima():
    # 24 H each: a 12/12 core spans at most 46 edges (a 2x3x4 box), a 13/11 one 45
    assert core_edges(12, 12, 3) == 46 and core_edges(13, 11, 3) == 45
    # H48-2 (12/12 H, 12 HH bonds) and H48-10 (12/12, 13 bonds): bound = best known (Yue et al.)
    for name, optimum in [("H48-2", 34), ("H48-10", 33)]:
        b = get_benchmark(name)
        assert core_bound(b.sequence, "cubic") == contact_bounds(b.sequence, "cubic").upper
        assert contact_bounds(b.sequence, "cubic").upper == optimum == b.best_known
    # H48-1: 13/11 H and 12 bonds, so 45 - 12 = 33 against the best known 32 (gap 1)
    assert core_bound(get_benchmark("H48-1").sequence, "cubic") == 33
