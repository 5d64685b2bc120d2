"""The exact best completion of a partial fold as one numba kernel: the depth-first search of
:func:`gamelab.lattice.completion.best_completion` (its plain-Python twin, ``python=True``)
with an explicit stack and the occupied sites in a grid array instead of a dict.

Same search, same bounds (the caps of the residues still to place, the sequence's best score
as the target that ends the search), so the same value; about a hundred times faster, which the
lattice environment's oracle pays once per step.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def completion_search(is_h, sites, vectors, rest, top, cubic):
    """The most HH contacts of a complete fold whose first residues sit at `sites` (k x 3, a
    self-avoiding walk), or -1 when every completion is trapped.

    `is_h` (n, int8) marks the H residues, `vectors` (moves x 3) the lattice's unit steps,
    `rest[k]` bounds the contacts residues k.. can still add, `top` the best score of any fold
    (the search stops when a completion reaches it)."""
    n = is_h.shape[0]
    start = sites.shape[0]
    side = 2 * n + 1
    depth_z = side if cubic else 1
    off_z = n if cubic else 0
    grid = np.zeros(side * side * depth_z, dtype=np.int32)  # residue + 1, 0 = free
    xs = np.zeros(n, dtype=np.int64)
    ys = np.zeros(n, dtype=np.int64)
    zs = np.zeros(n, dtype=np.int64)
    for k in range(start):
        xs[k], ys[k], zs[k] = sites[k, 0], sites[k, 1], sites[k, 2]
        grid[((xs[k] + n) * side + ys[k] + n) * depth_z + zs[k] + off_z] = k + 1
    moves = vectors.shape[0]
    score = 0  # the prefix's contacts: each H with the earlier, non-consecutive H beside it
    for k in range(start):
        if is_h[k]:
            for e in range(moves):
                i = (
                    grid[
                        ((xs[k] + vectors[e, 0] + n) * side + ys[k] + vectors[e, 1] + n) * depth_z
                        + zs[k]
                        + vectors[e, 2]
                        + off_z
                    ]
                    - 1
                )
                if i >= 0 and i < k - 1 and is_h[i]:
                    score += 1
    if start == n:
        return score
    tried = np.zeros(n + 1, dtype=np.int64)  # next move to try at each depth
    scores = np.zeros(n + 1, dtype=np.int64)
    best = -1
    k = start
    scores[k] = score
    while True:
        if k == n:
            if scores[k] > best:
                best = scores[k]
            if best >= top:
                return best
            k -= 1
            grid[((xs[k] + n) * side + ys[k] + n) * depth_z + zs[k] + off_z] = 0
            continue
        if tried[k] == moves or (tried[k] == 0 and scores[k] + rest[k] <= best):
            tried[k] = 0
            if k == start:
                return best
            k -= 1
            grid[((xs[k] + n) * side + ys[k] + n) * depth_z + zs[k] + off_z] = 0
            continue
        d = tried[k]
        tried[k] += 1
        x = xs[k - 1] + vectors[d, 0]
        y = ys[k - 1] + vectors[d, 1]
        z = zs[k - 1] + vectors[d, 2]
        cell = ((x + n) * side + y + n) * depth_z + z + off_z
        if grid[cell] != 0:
            continue
        gain = 0
        if is_h[k]:
            for e in range(moves):
                i = (
                    grid[
                        ((x + vectors[e, 0] + n) * side + y + vectors[e, 1] + n) * depth_z
                        + z
                        + vectors[e, 2]
                        + off_z
                    ]
                    - 1
                )
                if i >= 0 and i < k - 1 and is_h[i]:
                    gain += 1
        xs[k], ys[k], zs[k] = x, y, z
        grid[cell] = k + 1
        scores[k + 1] = scores[k] + gain
        k += 1
