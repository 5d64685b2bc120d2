"""Upper bounds on the HH contacts of any fold: certificates for the folds we find.

Three bounds, each valid for every sequence on the square and cubic lattices (both bipartite:
a contact joins residues i, j with j - i odd and at least 3):

* ``free_face`` - a residue has 2 (square) / 4 (cubic) faces free of chain bonds, one more at a
  chain end, so the H residues of even index have at most as many contacts as their faces, and
  likewise the odd ones; nor can there be more contacts than H pairs that could touch.
* ``matching`` - the same capacities, but solved as a maximum flow in the bipartite graph of even-
  and odd-index H residues joined when they could touch (j - i >= 3): a b-matching, never above
  ``free_face`` and below it when near neighbours in the chain compete for the same partners.
* ``core`` - the H residues occupy k lattice sites (the H core), and every contact or HH bond is a
  lattice edge between two of them, so contacts <= (edges the core can span) - (HH bonds). The
  lattice is bipartite and a residue's colour is its index's parity, so the core has exactly
  e sites of one colour and o of the other (e, o = the H residues of even and odd index).
  :func:`core_edges` bounds the edges of such a set by its layers, as CPSP (Backofen & Will)
  builds its optimal H cores layer by layer: cut the set into the planes x = const (in 2D, the
  rows); a plane with (e_i, o_i) sites spans at most the bound of the dimension below (a row:
  e_i + o_i - max(1, |e_i - o_i|) edges, as a run of adjacent sites alternates colours), and two
  consecutive planes share at most min(e_i, o_{i+1}) + min(o_i, e_{i+1}) edges (each site faces
  one site of the other colour in the next plane); a dynamic programme over the planes' colour
  counts (:func:`layered_edges`) gives the most any such stack can have. Without the colours
  this is the exact maximum for every k (2D: Harary & Harborth's 2k - ceil(2 sqrt k), 1976; 3D:
  the counts 0, 1, 2, 4, 5, 7, 9, 12, ..., 46 (k = 24), ..., 54 (k = 27) of OEIS A007818, tested),
  and with them it is lower for unbalanced cores: a Harvard 48-mer core of 24 H splits 12/12
  (46 edges) or 13/11 (45). It proves H48-2 (34) and H48-10 (33) optimal. CPSP goes further: it
  threads the chain through every optimal core and falls back to the next-best cores when none
  fits, which is what proves the other Harvard optima: :mod:`.threading` does that (the
  H-core certificate, run by :func:`gamelab.lattice.fold.fold` where these bounds leave a gap).
  :func:`max_core_edges` is the earlier isoperimetric (Loomis-Whitney) bound, never stronger.

A fold whose contacts equal :func:`contact_bounds`'s ``upper`` is optimal (proven).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import isqrt

import numpy as np

from gamelab.core.serialise import attributes
from gamelab.lattice.rules import Chain, Lattice, dimensions


@dataclass(frozen=True)
class ContactBounds:
    free_face: int
    matching: int
    core: int

    @property
    def upper(self) -> int:
        return min(self.free_face, self.matching, self.core)

    def __json__(self) -> dict:
        return attributes(self, "free_face", "matching", "core", "upper")


def _faces(seq: str, lattice: Lattice) -> list[int]:
    inner = 2 if lattice == Lattice.SQUARE else 4
    return [inner + (1 if i in (0, len(seq) - 1) else 0) for i in range(len(seq))]


def free_face_bound(sequence: Chain, lattice: Lattice = Lattice.SQUARE) -> int:
    """The parity / free-face bound (module docstring)."""
    seq = sequence
    faces = _faces(seq, lattice)
    even = sum(
        f for i, (c, f) in enumerate(zip(seq, faces, strict=True)) if c == "H" and i % 2 == 0
    )
    odd = sum(f for i, (c, f) in enumerate(zip(seq, faces, strict=True)) if c == "H" and i % 2 == 1)
    h = [i for i, c in enumerate(seq) if c == "H"]
    possible_pairs = sum(1 for i in h for j in h if j - i >= 3 and (j - i) % 2 == 1)
    return min(even, odd, possible_pairs)


def matching_bound(sequence: Chain, lattice: Lattice = Lattice.SQUARE) -> int:
    """The maximum b-matching of even- and odd-index H residues (module docstring)."""
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import maximum_flow

    seq = sequence
    faces = _faces(seq, lattice)
    even = [i for i, c in enumerate(seq) if c == "H" and i % 2 == 0]
    odd = [i for i, c in enumerate(seq) if c == "H" and i % 2 == 1]
    if not even or not odd:
        return 0
    # nodes: 0 source, 1 sink, then the even H residues, then the odd ones
    node = {i: 2 + k for k, i in enumerate(even + odd)}
    rows, cols, caps = [], [], []
    for i in even:
        rows.append(0)
        cols.append(node[i])
        caps.append(faces[i])
        for j in odd:
            if abs(j - i) >= 3:
                rows.append(node[i])
                cols.append(node[j])
                caps.append(1)
    for j in odd:
        rows.append(node[j])
        cols.append(1)
        caps.append(faces[j])
    size = 2 + len(node)
    graph = csr_array(
        (
            np.array(caps, dtype=np.int32),
            (np.array(rows, dtype=np.int32), np.array(cols, dtype=np.int32)),
        ),
        shape=(size, size),
    )
    return int(maximum_flow(graph, 0, 1).flow_value)


def max_core_edges(k: int, ndim: int) -> int:
    """An upper bound on the lattice edges among k sites of Z^ndim (exact for ndim = 2):
    ndim k - s, s the least integer with s^ndim >= ndim^ndim k^(ndim - 1)."""
    if k <= 1:
        return 0
    if ndim == 2:
        s = isqrt(4 * k - 1) + 1  # ceil(2 sqrt k)
    else:
        need = 27 * k * k
        s = round(3 * k ** (2 / 3))
        while s**3 < need:
            s += 1
        while (s - 1) ** 3 >= need:
            s -= 1
    return ndim * k - s


#: Colour counts above which :func:`core_edges` uses the colour-blind maximum instead of the
#: layer programme (whose cost grows as (e o)^3: 0.3 s at 30 x 29 in 2D, the largest standard
#: core; 3D cores of up to 24 x 24 take about as long).
LAYER_LIMIT = {2: 32, 3: 24}
_NEG = -(10**9)


def _row_edges(a: int, b: int) -> np.ndarray:
    """Most edges among sites of one line with i, j sites of the two colours, for i <= a, j <= b."""
    i, j = np.meshgrid(np.arange(a + 1), np.arange(b + 1), indexing="ij")
    out = i + j - np.maximum(1, np.abs(i - j))
    out[0, 0] = 0
    return out.astype(np.int64)


def layered_edges(a: int, b: int, layer: np.ndarray) -> np.ndarray:
    """``out[i, j]``: the most edges a set with i, j sites of the two colours (i <= a, j <= b) can
    span, cut into layers (planes or rows) that span at most ``layer[i', j']`` edges each and share
    at most min(i_1, j_2) + min(j_1, i_2) with the next layer (module docstring).

    A dynamic programme over (sites used so far, the last layer's counts); each step adds a layer.
    """
    ni, nj = a + 1, b + 1
    dp = np.full((ni, nj, ni, nj), _NEG, dtype=np.int64)  # (used i, used j, last i, last j)
    for x in range(ni):
        for y in range(nj):
            if x + y:
                dp[x, y, x, y] = layer[x, y]
    xs, ys = np.arange(ni), np.arange(nj)
    for used in range(1, a + b):
        for p in range(max(0, used - b), min(a, used) + 1):
            q = used - p
            last = dp[p, q, : p + 1, : q + 1]
            if last.max() < 0:
                continue
            ra, rb = a - p, b - q  # room for the next layer (x', y')
            shared_x = np.minimum.outer(xs[: p + 1], ys[: rb + 1])  # min(x, y')
            shared_y = np.minimum.outer(ys[: q + 1], xs[: ra + 1])  # min(y, x')
            total = last[:, :, None, None] + shared_x[:, None, None, :] + shared_y[None, :, :, None]
            gain = total.max(axis=(0, 1)) + layer[: ra + 1, : rb + 1]
            gain[0, 0] = _NEG
            nx, ny = np.meshgrid(np.arange(ra + 1), np.arange(rb + 1), indexing="ij")
            dp[p + nx, q + ny, nx, ny] = np.maximum(dp[p + nx, q + ny, nx, ny], gain)
    out = dp.max(axis=(2, 3))
    out[0, 0] = 0
    return out


@lru_cache(maxsize=64)
def core_edge_table(a: int, b: int, ndim: int) -> np.ndarray:
    """``table[i, j]`` = :func:`core_edges` (i, j, ndim) for every i <= a, j <= b (read-only)."""
    table = _row_edges(a, b)
    for _ in range(ndim - 1):
        table = layered_edges(a, b, table)
    i, j = np.meshgrid(np.arange(a + 1), np.arange(b + 1), indexing="ij")
    blind = np.array([max_core_edges(k, ndim) for k in range(a + b + 1)], dtype=np.int64)
    table = np.minimum(np.minimum(table, blind[i + j]), 2 * ndim * np.minimum(i, j))
    table.flags.writeable = False
    return table


def core_edges(e: int, o: int, ndim: int) -> int:
    """An upper bound on the lattice edges among e + o sites of Z^ndim of which e have one colour
    and o the other (module docstring); the colour-blind :func:`max_core_edges` above
    :data:`LAYER_LIMIT`."""
    a, b = max(e, o), min(e, o)
    if a > LAYER_LIMIT[ndim]:  # each site of the fewer colour has at most 2 ndim edges
        return min(max_core_edges(e + o, ndim), 2 * ndim * b)
    return int(core_edge_table(a, b, ndim)[a, b])


def core_bound(sequence: Chain, lattice: Lattice = Lattice.SQUARE) -> int:
    """Edges of the best possible H core minus the HH bonds (module docstring)."""
    seq = sequence
    bonds = sum(1 for a, b in zip(seq, seq[1:], strict=False) if a == b == "H")
    even = sum(1 for i, c in enumerate(seq) if c == "H" and i % 2 == 0)
    odd = seq.count("H") - even
    return max(0, core_edges(even, odd, dimensions(lattice)) - bonds)


def contact_bounds(sequence: Chain, lattice: Lattice = Lattice.SQUARE) -> ContactBounds:
    """All three bounds; ``.upper`` is the best."""
    return ContactBounds(
        free_face_bound(sequence, lattice),
        matching_bound(sequence, lattice),
        core_bound(sequence, lattice),
    )
