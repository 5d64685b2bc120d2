"""H-cores: every set of k lattice sites with given colour counts that spans at least m edges.

In a fold, the H residues occupy k sites (the *H core*) and every lattice edge between two of
them is an HH contact or an HH bond, so a fold with c contacts has a core spanning exactly
c + (HH bonds) edges. Listing every core that spans enough edges is the first half of the
certificate of CPSP (Backofen & Will, Constraints 11:5, 2006; cores there are built layer by
layer as here); :mod:`.threading` is the second half.

**What is listed.** Every set S of k sites of Z^d (d = 2 square, 3 cubic) with ``counts`` sites of
the two colours (a site's colour is the parity of its coordinate sum; the lattice is bipartite,
and in a fold the H residues of even index share a colour), as an unordered pair, and at least
``min_edges`` edges, up to translation, rotation and reflection.

**How.** With r_a(S) the number of maximal runs of S along the lines of axis a, the edges of S
are d k - sum_a r_a(S) (a run of n sites spans n - 1 edges), so S may have at most
B = d k - min_edges runs in all: its *cost*. Cut S into the layers x = 0, 1, ...; a layer is a
(d-1)-dimensional set M_i whose runs in the other axes are its own cost, and the runs along x
are the sites of M_i not above a site of M_{i-1}. So cost(S) = sum_i cost(M_i) + |M_i - M_{i-1}|,
and a depth-first search over the layers, each drawn from the list of all layer sets in a
window of cost at most what is left (the same rule one dimension down: rows of 1-dimensional
runs), lists every S. It prunes with a lower bound on the cost of the layers still to come
(a layer of n sites costs at least ceil(2 sqrt n) in the plane, 1 on a line, and the x-runs at
least the growth of the layer sizes; a small dynamic programme over the sizes), which also
bounds the extent of S along every axis, hence the window. A core that spans that many edges
must be connected (checked: every split into two parts spans fewer), so its layers are
consecutive and none is empty. Layers are handled as bit masks in NumPy, a whole candidate
list at once.

Cost: the Harvard 48-mers' 24-site cores of 45 edges: about a second; 2D cores of 40-odd sites
with at most the optimum's edges minus one: seconds (measured in the tests and
``benchmarks/lattice_cores.py``).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from functools import cache, lru_cache
from math import isqrt

import numpy as np

from gamelab.lattice.bounds import core_edges

Site = tuple[int, ...]


def _min_layer_cost(n: int, ndim: int) -> int:
    """The fewest runs a set of n sites of Z^ndim can have (ndim = 1 or 2; colour-blind)."""
    if n == 0:
        return 0
    if ndim == 1:
        return 1
    return isqrt(4 * n - 1) + 1  # ceil(2 sqrt n): Harary & Harborth's 2n - ceil(2 sqrt n) edges


@cache
def _future_cost(layers: int, sites: int, previous: int, ndim: int) -> int:
    """Least cost of `layers` more non-empty layers holding `sites` sites after a layer of
    `previous` sites (module docstring); a large number when impossible."""
    if layers == 0:
        return 0 if sites == 0 else 10**6
    best = 10**6
    for n in range(1, sites - (layers - 1) + 1):
        rest = _future_cost(layers - 1, sites - n, n, ndim)
        best = min(best, _min_layer_cost(n, ndim - 1) + max(0, n - previous) + rest)
    return best


def max_extent(k: int, budget: int, ndim: int) -> int:
    """The most layers (along any axis) a set of k sites with cost <= budget can have."""
    return max(a for a in range(1, k + 1) if _future_cost(a, k, 0, ndim) <= budget)


def colour_blind_edges(k: int, ndim: int) -> int:
    """The most edges k sites of Z^ndim can span (:func:`gamelab.lattice.bounds.core_edges` over
    every colour split)."""
    return max(core_edges(a, k - a, ndim) for a in range(k + 1)) if k else 0


def must_be_connected(k: int, min_edges: int, ndim: int) -> bool:
    """Whether every set of k sites spanning at least `min_edges` edges is connected: any split
    into two parts without an edge between them spans at most the sum of their maxima."""
    return all(
        colour_blind_edges(a, ndim) + colour_blind_edges(k - a, ndim) < min_edges
        for a in range(1, k // 2 + 1)
    )


@dataclass(frozen=True)
class _Layers:
    """Every set of one layer (a (d-1)-dimensional window of side w) with cost <= a cap: bit
    masks (bit y * w + z), sizes, sites of colour 0 (coordinate sum even), costs."""

    masks: np.ndarray
    sizes: np.ndarray
    colour0: np.ndarray
    costs: np.ndarray


def _runs_1d(mask: int) -> int:
    return bin(mask & ~(mask << 1)).count("1")


#: The most search nodes (layers placed) :func:`list_cores` visits before it gives up.
NODE_LIMIT = 200_000
#: The most partial layer sets :func:`_layer_sets` keeps in memory (times the row choices).
LAYER_LIMIT = 30_000_000


@lru_cache(maxsize=16)
def _layer_sets(ndim: int, width: int, k: int, budget: int) -> _Layers:
    """All non-empty sets of a layer of Z^ndim (ndim = 1 or 2) inside a window of side `width`
    that can be a layer of a set of k sites of cost <= `budget`: a layer M needs
    cost(M) + |M| + (least cost of the other k - |M| sites) <= budget, since the runs along the
    layer axis are at least |M| (module docstring)."""

    def rest(n: int) -> int:  # the least cost of the layer and what the other layers need
        return min(m + _min_layer_cost(k - m, ndim) for m in range(n, k + 1))

    slack = np.array([rest(n) for n in range(k + 1)] + [10**6] * (width * width + 1), np.int64)
    rows = np.arange(1 << width, dtype=np.int64)
    row_cost = np.array([_runs_1d(m) for m in range(1 << width)], dtype=np.int64)
    row_size = np.array([bin(m).count("1") for m in range(1 << width)], dtype=np.int64)
    even_bits = sum(1 << z for z in range(0, width, 2))
    row_even = np.array([bin(m & even_bits).count("1") for m in range(1 << width)], np.int64)
    if ndim == 1:
        keep = (rows > 0) & (row_cost + slack[row_size] <= budget)
        return _Layers(rows[keep], row_size[keep], row_even[keep], row_cost[keep])
    # ndim == 2: stack `width` rows (empty rows allowed: a layer need not be connected); the
    # cost and size only grow, and rest() is non-decreasing, so a partial layer over budget is cut
    masks, sizes, colour0, costs, last = (np.zeros(1, np.int64) for _ in range(5))
    for y in range(width):
        if len(masks) * (1 << width) > LAYER_LIMIT:
            raise ValueError(
                f"too many candidate layers ({len(masks):,} partial ones in a {width} x {width} "
                "window): the core listing is limited to near-optimal cores"
            )
        m = masks[:, None] | (rows[None, :] << (y * width))
        new_sites = row_size[rows[None, :] & ~last[:, None]]  # the next row's x-runs
        c = costs[:, None] + row_cost[None, :] + new_sites
        n = sizes[:, None] + row_size[None, :]
        ok = c + slack[n] <= budget
        pick_a, pick_r = np.nonzero(ok)
        masks, costs = m[ok], c[ok]
        sizes = n[ok]
        # a row's colour-0 sites are its even z when y is even, its odd z when y is odd
        row_c0 = row_even[pick_r] if y % 2 == 0 else row_size[pick_r] - row_even[pick_r]
        colour0 = colour0[pick_a] + row_c0
        last = rows[pick_r]
    keep = sizes > 0
    return _Layers(masks[keep], sizes[keep], colour0[keep], costs[keep])


def _popcount(a: np.ndarray) -> np.ndarray:
    a = a.astype(np.uint64)
    out = np.zeros(a.shape, dtype=np.int64)
    while a.any():
        out += (a & np.uint64(1)).astype(np.int64)
        a = a >> np.uint64(1)
    return out


def canonical(sites: list[Site] | tuple[Site, ...]) -> tuple[Site, ...]:
    """The least of the sorted, translated images of `sites` under the lattice's symmetries
    (axis permutations and reflections): one name per shape."""
    ndim = len(sites[0])
    best: tuple[Site, ...] | None = None
    for perm in itertools.permutations(range(ndim)):
        for signs in itertools.product((1, -1), repeat=ndim):
            moved = [tuple(signs[a] * s[perm[a]] for a in range(ndim)) for s in sites]
            low = [min(p[a] for p in moved) for a in range(ndim)]
            image = tuple(sorted(tuple(p[a] - low[a] for a in range(ndim)) for p in moved))
            if best is None or image < best:
                best = image
    assert best is not None
    return best


def edges_of(sites: list[Site] | tuple[Site, ...]) -> int:
    """Lattice edges between the sites."""
    have = set(sites)
    ndim = len(sites[0])
    return sum(
        1 for s in have for a in range(ndim) if tuple(v + (i == a) for i, v in enumerate(s)) in have
    )


def colour_counts(sites: list[Site] | tuple[Site, ...]) -> tuple[int, int]:
    """(sites with an even coordinate sum, with an odd one)."""
    even = sum(1 for s in sites if sum(s) % 2 == 0)
    return even, len(sites) - even


def list_cores(
    counts: tuple[int, int], min_edges: int, ndim: int, seconds: float | None = None
) -> list[tuple[Site, ...]]:
    """Every set of sum(counts) sites of Z^ndim with colour counts `counts` (unordered) and at
    least `min_edges` edges, one per shape (:func:`canonical`), sorted (module docstring).
    A ValueError when the search would visit more than :data:`NODE_LIMIT` partial cores or take
    more than `seconds` CPU seconds."""
    started = time.process_time()
    if ndim not in (2, 3):
        raise ValueError(f"cores are listed in 2 or 3 dimensions, not {ndim}")
    k = counts[0] + counts[1]
    if min(counts) < 0 or k < 2:
        raise ValueError(f"a core needs at least 2 sites, got colour counts {counts}")
    if min_edges > core_edges(counts[0], counts[1], ndim):
        return []  # the layer bound already says none exists
    if not must_be_connected(k, min_edges, ndim):
        raise ValueError(
            f"{k} sites with at least {min_edges} edges need not be connected; the listing "
            "covers connected cores only"
        )
    budget = ndim * k - min_edges
    width = max_extent(k, budget, ndim)
    layers = _layer_sets(ndim - 1, width, k, budget)
    # the sites of the window's first row (y = 0) and first column (z = 0), for translation
    if ndim == 2:
        first_y, first_z = 0, 1  # a 1-dimensional layer: "touches z = 0" is bit 0
    else:
        first_y = (1 << width) - 1
        first_z = sum(1 << (y * width) for y in range(width))
    wanted = {tuple(counts), tuple(reversed(counts))}
    found: set[tuple[Site, ...]] = set()
    stack: list[tuple[int, int]] = []
    visited = [0]

    def sites_of(mask: int, x: int) -> list[Site]:
        out: list[Site] = []
        for b in range(width * width if ndim == 3 else width):
            if mask >> b & 1:
                out.append((x, b // width, b % width) if ndim == 3 else (x, b))
        return out

    def search(
        x: int, used: int, cost: int, colour0: int, prev: int, prev_size: int, union: int
    ) -> None:
        visited[0] += 1
        if seconds is not None and visited[0] % 256 == 0:
            if time.process_time() - started > seconds:
                raise ValueError(f"the core listing ran out of time ({seconds:g} CPU s)")
        if visited[0] > NODE_LIMIT:
            raise ValueError(
                f"more than {NODE_LIMIT:,} partial cores: the listing is limited to near-optimal "
                "cores"
            )
        if used == k:
            if (
                (colour0, k - colour0) in wanted
                and union & first_z
                and (ndim == 2 or union & first_y)
            ):
                sites = [s for m, xx in stack for s in sites_of(m, xx)]
                found.add(canonical(sites))
            return
        if x >= width:
            return
        left = k - used
        sizes = layers.sizes
        # each candidate layer's cost now and the least cost of the layers after it
        grow = np.maximum(0, sizes - prev_size)  # x-runs at least the growth (refined below)
        after = np.array(
            [
                min(_future_cost(p, left - n, n, ndim) for p in range(0, width - x))
                if n <= left
                else 10**6
                for n in range(int(sizes.max()) + 1)
            ],
            dtype=np.int64,
        )
        rough = cost + layers.costs + grow + after[np.minimum(sizes, len(after) - 1)]
        cand = np.nonzero((rough <= budget) & (sizes <= left))[0]
        if cand.size == 0:
            return
        masks = layers.masks[cand]
        new_x = _popcount(masks & ~np.int64(prev)) if prev else layers.sizes[cand]
        exact = cost + layers.costs[cand] + new_x
        total = exact + after[layers.sizes[cand]]
        # a layer at odd x has its colours the other way round
        c0 = layers.colour0[cand] if x % 2 == 0 else layers.sizes[cand] - layers.colour0[cand]
        for j in np.nonzero(total <= budget)[0]:
            i = cand[j]
            mask = int(layers.masks[i])
            stack.append((mask, x))
            search(
                x + 1,
                used + int(layers.sizes[i]),
                int(exact[j]),
                colour0 + int(c0[j]),
                mask,
                int(layers.sizes[i]),
                union | mask,
            )
            stack.pop()

    search(0, 0, 0, 0, 0, 0, 0)
    return sorted(found)
