"""The H-core certificate: no fold reaches c contacts when no core that spans enough edges can
hold the chain.

A fold with c HH contacts puts its H residues on a core of k sites spanning exactly c + b
edges (b = HH bonds; :mod:`.cores`), with the even-index H residues on one colour. So if the
chain cannot be *threaded* through any core with at least c + b edges and the right colour
counts, every fold has fewer than c contacts. This is the certificate of CPSP (Backofen & Will,
Constraints 11:5, 2006: "threading" a sequence through its optimal H cores; when no optimal
core admits it, the next-best cores are tried), here as a proof of an upper bound.

**Threading (relaxed).** The H residues h_1 < ... < h_k are assigned to distinct core sites,
in chain order, by a depth-first search, each site of the colour of its residue's index parity;
consecutive H residues h, h' (g = h' - h apart along the chain) need sites u, v with

* g = 1: u and v adjacent (an HH bond);
* g >= 2: a path of g steps from u to v whose g - 1 inner sites are outside the core (the P
  residues between them may not sit on a core site, which holds only H), i.e. the distance
  from u to v through sites outside the core is at most g (the parity agrees by the colours);
  for g = 2 the one P residue between takes a site of its own outside the core, not shared
  with another such residue;

and a chain end that is P needs an outside neighbour of its first (last) H residue's site.
Paths of different P runs may cross here, so this is a relaxation of self-avoidance: a core
through which no relaxed threading exists admits no fold, which is what the certificate needs
(a threading found here is not claimed to be a fold). A search ends as soon as a threading is
found; the number of search nodes is capped (:data:`NODE_LIMIT`, then the core counts as
threadable: the bound stays where it is, never too low).

Cost: milliseconds to seconds per core for the 48-mers (the HH bonds and the P singlets pin
most residues to few sites).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

from gamelab.lattice.bounds import contact_bounds
from gamelab.lattice.cores import Site, colour_counts, list_cores
from gamelab.lattice.rules import Chain, Lattice, dimensions

#: Depth-first search nodes per core before the search gives up (and the core counts as
#: threadable, so the bound is never wrong, only weaker).
NODE_LIMIT = 2_000_000


def _neighbours(site: Site) -> list[Site]:
    out = []
    for a in range(len(site)):
        for step in (1, -1):
            out.append(tuple(v + step * (i == a) for i, v in enumerate(site)))
    return out


def _outside_distances(core: tuple[Site, ...], reach: int) -> list[list[int]]:
    """d[u][v]: the fewest steps from core site u to core site v with every inner site outside
    the core (at least 2), capped at reach + 1 (farther)."""
    inside = {s: i for i, s in enumerate(core)}
    k = len(core)
    far = reach + 1
    out = [[far] * k for _ in range(k)]
    for u, start in enumerate(core):
        dist: dict[Site, int] = {}
        queue: deque[Site] = deque()
        for w in _neighbours(start):
            if w not in inside:
                dist[w] = 1
                queue.append(w)
        while queue:
            w = queue.popleft()
            if dist[w] + 1 >= far:
                continue
            for x in _neighbours(w):
                if x not in inside and x not in dist:
                    dist[x] = dist[w] + 1
                    queue.append(x)
        for w, d in dist.items():
            for x in _neighbours(w):
                v = inside.get(x)
                if v is not None and d + 1 < out[u][v]:
                    out[u][v] = d + 1
    return out


def can_thread(sequence: Chain, core: tuple[Site, ...], even_colour: int) -> bool:
    """Whether the H residues of `sequence` can be put on the sites of `core` (as many sites as
    H residues), the even-index ones on sites of colour `even_colour` (coordinate-sum parity),
    under the relaxed rules of the module docstring. True also when the search hits
    :data:`NODE_LIMIT`."""
    seq = sequence
    hs = [i for i, c in enumerate(seq) if c == "H"]
    k = len(core)
    if len(hs) != k:
        raise ValueError(f"the core has {k} sites for {len(hs)} H residues")
    colour = [sum(s) % 2 for s in core]
    want = [(even_colour + h) % 2 for h in hs]
    if sorted(colour) != sorted(want):
        return False
    gaps = [b - a for a, b in zip(hs, hs[1:], strict=False)]
    dist = _outside_distances(core, max([2, *gaps]))
    inside = {s: i for i, s in enumerate(core)}
    index = {s: i for i, s in enumerate(core)}
    adjacent = [[index[w] for w in _neighbours(s) if w in inside] for s in core]
    # the outside sites next to two core sites u, v (the places of a P between them)
    between: dict[tuple[int, int], list[Site]] = {}
    for u, su in enumerate(core):
        for w in _neighbours(su):
            if w in inside:
                continue
            for x in _neighbours(w):
                v = inside.get(x)
                if v is not None and v != u:
                    between.setdefault((u, v), []).append(w)
    surface = [any(w not in inside for w in _neighbours(s)) for s in core]
    n = len(seq)
    site_of = [-1] * k
    used = [False] * k
    taken: set[Site] = set()
    nodes = 0

    def fits(a: int, v: int) -> bool:
        if used[v] or colour[v] != want[a]:
            return False
        if a == 0 and hs[0] > 0 and not surface[v]:
            return False
        if a == k - 1 and hs[-1] < n - 1 and not surface[v]:
            return False
        return True

    def place(a: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > NODE_LIMIT:
            return True
        if a == k:
            return True
        u = site_of[a - 1]
        g = gaps[a - 1]
        if g == 1:
            options = [v for v in adjacent[u] if fits(a, v)]
        else:
            options = [v for v in range(k) if dist[u][v] <= g and fits(a, v)]
        for v in options:
            if g == 2:
                free = [w for w in between.get((u, v), ()) if w not in taken]
                for w in free:
                    taken.add(w)
                    used[v], site_of[a] = True, v
                    ok = place(a + 1)
                    used[v], site_of[a] = False, -1
                    taken.discard(w)
                    if ok:
                        return True
                continue
            used[v], site_of[a] = True, v
            ok = place(a + 1)
            used[v], site_of[a] = False, -1
            if ok:
                return True
        return False

    for v in range(k):
        if fits(0, v):
            used[v], site_of[0] = True, v
            if place(1):
                return True
            used[v], site_of[0] = False, -1
    return False


@dataclass(frozen=True)
class CoreCertificate:
    """What the H-core certificate proved: no fold of the chain has `refuted` or more contacts
    (so ``upper = refuted - 1``), from `cores` listed cores at that level; `threadable` cores of
    the level above the proof (``upper + 1``... none when the certificate is exhaustive), and
    why it stopped."""

    upper: int
    refuted: list[int]  # the contact counts shown impossible, from the core bound down
    cores: list[int]  # cores listed at each refuted level
    stopped: str  # why the certificate stopped going down
    seconds: float


def core_threading_bound(
    sequence: Chain, lattice: Lattice = Lattice.SQUARE, floor: int = 0, seconds: float | None = None
) -> CoreCertificate:
    """An upper bound on the HH contacts of `sequence`: from the best of the bounds of
    :mod:`.bounds` (:func:`gamelab.lattice.bounds.contact_bounds`) down, each value c is refuted while no core with
    c + (HH bonds) edges admits a threading (module docstring); stops at the first value some
    core admits, at `floor` (a value known to be reached: no need to go lower), when the cores
    are too many to list, or after `seconds` of CPU time (checked between cores: a value not
    refuted in time stays; so a limited run may give a weaker bound on a slower machine, never
    a wrong one)."""
    seq = sequence
    ndim = dimensions(lattice)
    started = time.process_time()
    bonds = sum(1 for a, b in zip(seq, seq[1:], strict=False) if a == b == "H")
    even = sum(1 for i, c in enumerate(seq) if c == "H" and i % 2 == 0)
    odd = seq.count("H") - even
    upper = contact_bounds(seq, lattice).upper
    refuted: list[int] = []
    counts: list[int] = []
    stopped = f"reached the floor {floor}"
    while upper > floor:
        try:
            left = None if seconds is None else max(0.0, seconds - (time.process_time() - started))
            cores = list_cores((even, odd), upper + bonds, ndim, seconds=left)
        except ValueError as err:
            stopped = f"{upper} contacts not refuted: {err}"
            break
        fits = next(
            (
                core
                for core in cores
                for side in (
                    (0, 1) if even == odd else (0 if colour_counts(core)[0] == even else 1,)
                )
                if can_thread(seq, core, side)
            ),
            None,
        )
        if fits is not None:
            stopped = (
                f"{upper} contacts not refuted: a core of {upper + bonds} edges admits a threading"
            )
            break
        refuted.append(upper)
        counts.append(len(cores))
        upper -= 1
    return CoreCertificate(upper, refuted, counts, stopped, time.process_time() - started)
