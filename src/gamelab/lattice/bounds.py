"""Upper bounds on the HH contacts of any fold: certificates for the folds we find.

Three bounds, each valid for every sequence on the square and cubic lattices (both bipartite:
a contact joins residues i, j with j - i odd and at least 3):

* ``free_face`` - a residue has 2 (square) / 4 (cubic) faces free of chain bonds, one more at a
  chain end, so the H residues of even index have at most as many contacts as their faces, and
  likewise the odd ones; nor can there be more contacts than H pairs that could touch.
* ``matching`` - the same capacities, but solved as a maximum flow in the bipartite graph of even-
  and odd-index H residues joined when they could touch (j - i >= 3): a b-matching, never above
  ``free_face`` and below it when near neighbours in the chain compete for the same partners.
* ``core`` - the H residues occupy k lattice sites; k sites of Z^d span at most
  d k - ceil(d k^((d-1)/d)) lattice edges (each line along an axis through the set leaves it
  through two boundary edges, and by the Loomis-Whitney inequality the three (two) projections
  have at least d k^((d-1)/d) lines together; in 2D this is Harary & Harborth's exact
  2k - ceil(2 sqrt k), 1976). The bonds between consecutive H residues are among those edges, so
  contacts <= that maximum minus the HH bonds. This is the quantity CPSP (Backofen & Will) bounds
  by its optimal H-cores; ours is the isoperimetric relaxation of it, exact in 2D.

A fold whose contacts equal :func:`contact_bounds`'s ``upper`` is optimal (proven).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import isqrt

import numpy as np

from gamelab.lattice.rules import check_lattice, dimensions, parse_sequence


@dataclass(frozen=True)
class ContactBounds:
    free_face: int
    matching: int
    core: int

    @property
    def upper(self) -> int:
        return min(self.free_face, self.matching, self.core)

    def __json__(self) -> dict:
        return {
            "free_face": self.free_face,
            "matching": self.matching,
            "core": self.core,
            "upper": self.upper,
        }


def _faces(seq: str, lattice: str) -> list[int]:
    inner = 2 if check_lattice(lattice) == "square" else 4
    return [inner + (1 if i in (0, len(seq) - 1) else 0) for i in range(len(seq))]


def free_face_bound(sequence: str, lattice: str = "square") -> int:
    """The parity / free-face bound (module docstring)."""
    seq = parse_sequence(sequence)
    faces = _faces(seq, lattice)
    even = sum(
        f for i, (c, f) in enumerate(zip(seq, faces, strict=True)) if c == "H" and i % 2 == 0
    )
    odd = sum(f for i, (c, f) in enumerate(zip(seq, faces, strict=True)) if c == "H" and i % 2 == 1)
    h = [i for i, c in enumerate(seq) if c == "H"]
    possible_pairs = sum(1 for i in h for j in h if j - i >= 3 and (j - i) % 2 == 1)
    return min(even, odd, possible_pairs)


def matching_bound(sequence: str, lattice: str = "square") -> int:
    """The maximum b-matching of even- and odd-index H residues (module docstring)."""
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import maximum_flow

    seq = parse_sequence(sequence)
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
        (np.array(caps, dtype=np.int32), (np.array(rows), np.array(cols))), shape=(size, size)
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


def core_bound(sequence: str, lattice: str = "square") -> int:
    """Edges of the best possible H core minus the HH bonds (module docstring)."""
    seq = parse_sequence(sequence)
    bonds = sum(1 for a, b in zip(seq, seq[1:], strict=False) if a == b == "H")
    return max(0, max_core_edges(seq.count("H"), dimensions(lattice)) - bonds)


def contact_bounds(sequence: str, lattice: str = "square") -> ContactBounds:
    """All three bounds; ``.upper`` is the best."""
    return ContactBounds(
        free_face_bound(sequence, lattice),
        matching_bound(sequence, lattice),
        core_bound(sequence, lattice),
    )
