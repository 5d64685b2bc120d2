"""The best score a partial fold can still reach: an exact depth-first search over its
self-avoiding completions, for the move values of the lattice environment.

Given the first moves of a conformation, the search extends the walk one residue at a time and
keeps the best number of HH contacts over every complete self-avoiding walk (None when every
extension is trapped). It is exact and prunes with two upper bounds: the best score of the whole
sequence over all conformations (:meth:`gamelab.lattice.enumeration.ContactSets.histogram`; a
completion reaching it ends the search) and, per node, the contacts so far plus what each H
residue still to place can add (at most its free neighbour sites, ``2 * dims - 2`` for an inner
residue and one more for the last, and only with earlier H residues of the other parity: on the
square and cubic lattices neighbouring sites differ in parity).

Cost: the number of completions visited. The search runs in one numba kernel
(:func:`gamelab.lattice._completion_kernels.completion_search`); ``python=True`` runs this
module's plain recursion instead, its twin (a few milliseconds for 10 residues, up to seconds
for the 16-18 residues of the pack's hardest levels from an empty start; the kernel is about a
hundred times faster).

>>> best_completion("HPPHPPH", "RU")
2
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gamelab.lattice._completion_kernels import completion_search
from gamelab.lattice.rules import MOVES, Chain, Lattice, coordinates, dimensions, hh_score


def _caps(seq: str, dims: int) -> list[int]:
    """Most contacts residue j can make with earlier residues when it is placed."""
    inner = 2 * dims - 2
    out = []
    for j, c in enumerate(seq):
        if c != "H":
            out.append(0)
            continue
        partners = sum(1 for i in range(0, j - 2) if seq[i] == "H" and (j - i) % 2 == 1)
        cap = inner + 1 if j == len(seq) - 1 else inner
        out.append(min(cap, partners))
    return out


@lru_cache(maxsize=64)
def completion_tables(
    sequence: Chain, lattice: Lattice
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's tables of a sequence on a lattice, made once: H marks (int8), the unit
    steps (moves x 3) and ``rest[k]``, what residues k.. can still add (:func:`_caps`)."""
    seq = sequence
    vectors = [coordinates(m, lattice)[1] for m in MOVES[lattice]]
    caps = _caps(seq, dimensions(lattice))
    rest = np.zeros(len(seq) + 1, dtype=np.int64)
    for k in range(len(seq) - 1, -1, -1):
        rest[k] = rest[k + 1] + caps[k]
    is_h = np.array([c == "H" for c in seq], dtype=np.int8)
    return is_h, np.array(vectors, dtype=np.int64), rest


def best_completion(
    sequence: Chain,
    prefix: str,
    lattice: Lattice = Lattice.SQUARE,
    cap: int | None = None,
    *,
    python: bool = False,
) -> int | None:
    """The most HH contacts of a complete fold starting with the moves `prefix` (None: trapped).

    `cap` is an upper bound known beforehand (the sequence's best score over all folds);
    ``python=True`` searches in plain Python (the kernel's twin)."""
    seq = sequence
    n = len(seq)
    sites = coordinates(prefix, lattice)
    if len(sites) > n:
        raise ValueError(f"{prefix!r} has more moves than a chain of {n} allows")
    if len(set(sites)) != len(sites):
        raise ValueError(f"{prefix!r} is not self-avoiding")
    if not python:
        is_h, steps, left = completion_tables(seq, lattice)
        found = completion_search(
            is_h,
            np.array(sites, dtype=np.int64),
            steps,
            left,
            np.int64(cap if cap is not None else left[0]),
            dimensions(lattice) == 3,
        )
        return None if found < 0 else int(found)
    if len(sites) == n:
        return hh_score(seq, prefix, lattice)
    dims = dimensions(lattice)
    vectors = [coordinates(m, lattice)[1] for m in MOVES[lattice]]
    caps = _caps(seq, dims)
    rest = [0] * (n + 1)  # rest[k] = sum of caps of residues k..n-1
    for k in range(n - 1, -1, -1):
        rest[k] = rest[k + 1] + caps[k]
    where = {site: k for k, site in enumerate(sites)}
    score = hh_score(seq[: len(sites)], prefix, lattice) if len(sites) > 1 else 0
    top = cap if cap is not None else rest[0]
    best = -1

    def extend(k: int, site: tuple[int, int, int], score: int) -> bool:
        """Place residues k.. after `site` (residue k-1); True once `top` is reached."""
        nonlocal best
        if k == n:
            if score > best:
                best = score
            return best >= top
        if score + rest[k] <= best:
            return False
        x, y, z = site
        h = seq[k] == "H"
        for dx, dy, dz in vectors:
            nxt = (x + dx, y + dy, z + dz)
            if nxt in where:
                continue
            gain = 0
            if h:
                for ex, ey, ez in vectors:
                    i = where.get((nxt[0] + ex, nxt[1] + ey, nxt[2] + ez))
                    if i is not None and i < k - 1 and seq[i] == "H":
                        gain += 1
            where[nxt] = k
            done = extend(k + 1, nxt, score + gain)
            del where[nxt]
            if done:
                return True
        return False

    extend(len(sites), sites[-1], score)
    return None if best < 0 else best
