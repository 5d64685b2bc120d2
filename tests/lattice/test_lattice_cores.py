"""The H-core listing and the threading certificate (issue 27.3): the listing against brute
force, the certificate never below an optimum known by enumeration or by a fold, and the
benchmarks it proves."""

from __future__ import annotations

import numpy as np
import pytest

from gamelab.core.serialise import to_plain
from gamelab.lattice.bounds import contact_bounds
from gamelab.lattice.cores import (
    canonical,
    colour_counts,
    edges_of,
    list_cores,
    must_be_connected,
)
from gamelab.lattice.enumeration import contact_sets
from gamelab.lattice.fold import fold
from gamelab.lattice.instances import get_benchmark, parse_chain
from gamelab.lattice.replica import replica_fold
from gamelab.lattice.rules import coordinates, hh_score
from gamelab.lattice.threading import can_thread, core_threading_bound


def _neighbours(site):
    for a in range(len(site)):
        for step in (1, -1):
            yield tuple(v + step * (i == a) for i, v in enumerate(site))


def _connected_sets(n: int, ndim: int) -> set[tuple]:
    """Every connected set of n sites up to symmetry, grown one site at a time (brute force)."""
    level = {((0,) * ndim,)}
    for _ in range(n - 1):
        grown = set()
        for cells in level:
            have = set(cells)
            for c in cells:
                for d in _neighbours(c):
                    if d not in have:
                        grown.add(canonical([*cells, d]))
        level = grown
    return level


@pytest.mark.parametrize(("ndim", "sizes"), [(2, range(4, 9)), (3, range(4, 7))])
def test_the_listing_equals_brute_force(ndim, sizes):
    for n in sizes:
        shapes = _connected_sets(n, ndim)
        top = max(edges_of(s) for s in shapes)
        for need in range(top - 3, top + 2):
            if not must_be_connected(n, need, ndim):
                continue
            for e in range(n + 1):
                counts = (e, n - e)
                want = sorted(
                    s
                    for s in shapes
                    if edges_of(s) >= need and sorted(colour_counts(s)) == sorted(counts)
                )
                assert list_cores(counts, need, ndim) == want, (ndim, n, need, counts)


def test_the_maximal_cores_of_24_cubic_sites():
    # 12/12 colours with 46 edges (the most, OEIS A007818): the 2 x 3 x 4 box and the 3 x 3 x 3
    # cube without the three sites of one edge
    cores = list_cores((12, 12), 46, 3)
    assert len(cores) == 2
    assert any(c == canonical([(x, y, z) for x in range(2) for y in range(3) for z in range(4)])
               for c in cores)  # fmt: skip
    assert all(edges_of(c) == 46 for c in cores)


def _core_of(sequence: str, conformation: str, lattice: str) -> tuple[tuple, int]:
    """The H sites of a fold and the colour of its even-index residues."""
    sites = coordinates(conformation, lattice)
    ndim = 2 if lattice == "square" else 3
    padded = [tuple(s)[:ndim] for s in sites]
    return tuple(p for p, c in zip(padded, sequence, strict=True) if c == "H"), sum(padded[0]) % 2


def test_a_real_folds_core_is_listed_and_threadable():
    # replica-exchange folds of benchmarks admit their chains (the relaxation keeps every real
    # fold); S1-4's optimal core (14 contacts + 10 bonds = 24 edges) is listed
    for name, steps in [("H48-2", 200_000), ("S1-5", 200_000), ("H48-1", 200_000), ("S1-4", None)]:
        b = get_benchmark(name)
        target = b.best_known if steps is None else None
        run = replica_fold(b.sequence, b.lattice, seed=1, max_steps=steps or 10**8, target=target)
        core, even_colour = _core_of(b.sequence, run.conformation, b.lattice)
        assert can_thread(b.sequence, core, even_colour), name
        assert (
            not can_thread(b.sequence, core, 1 - even_colour) or len(set(colour_counts(core))) == 1
        )
        edges = edges_of(core)
        bonds = sum(1 for x, y in zip(b.sequence, b.sequence[1:], strict=False) if x == y == "H")
        assert edges - bonds == run.contacts
        ndim = 2 if b.lattice == "square" else 3
        if steps is None:
            assert must_be_connected(len(core), edges, ndim)
            assert canonical(core) in list_cores(colour_counts(core), edges, ndim)


@pytest.mark.parametrize(("lattice", "length", "count"), [("square", 14, 25), ("cubic", 10, 15)])
def test_the_certificate_is_never_below_the_exact_optimum(lattice, length, count):
    sets = contact_sets(length, lattice)
    rng = np.random.default_rng(27)
    proved = 0
    for _ in range(count):
        seq = "".join(rng.choice(["H", "P"], size=length, p=[0.6, 0.4]))
        best = hh_score(seq, sets.best_conformation(seq), lattice)
        cert = core_threading_bound(seq, lattice)
        assert cert.upper >= best, (seq, cert, best)
        assert cert.upper <= contact_bounds(seq, lattice).upper
        proved += cert.upper < contact_bounds(seq, lattice).upper
    assert proved > 0  # the certificate does improve on the core bound somewhere


def test_threading_refuses_a_core_of_the_wrong_size():
    with pytest.raises(ValueError, match="3 sites for 2 H residues"):
        can_thread("HPPH", ((0, 0), (1, 0), (2, 0)), 0)


def test_harvard_48_1_optimum_is_proven():
    # Yue et al. (PNAS 92:325, 1995): H48-1's best is 32 contacts; its core bound says 33, and
    # none of the 4 cores of 24 sites (13/11 colours) with 33 + 12 bonds = 45 edges admits it
    b = get_benchmark("H48-1")
    cert = core_threading_bound(b.sequence, "cubic", floor=32)
    assert cert.upper == 32 and cert.refuted == [33] and cert.cores == [4]


@pytest.mark.slow
def test_the_certificate_proves_h48_9_and_s1_8():
    # H48-9: 34 (Yue et al. 1995), core bound 36; S1-8: 42 (Thachuk et al. 2007), core bound 43
    cert = core_threading_bound(get_benchmark("H48-9").sequence, "cubic", floor=34)
    assert cert.upper == 34 and cert.refuted == [36, 35]
    cert = core_threading_bound(get_benchmark("S1-8").sequence, "square", floor=42)
    assert cert.upper == 42 and cert.refuted == [43] and cert.cores == [1]


def test_fold_says_proven_by_the_certificate():
    # a 16-mer with optimum 8 by enumeration, bounds 10; the certificate refutes 10 and 9
    seq = "HHHHPHHPHPHHPHHH"
    sets = contact_sets(16, "square")
    assert hh_score(seq, sets.best_conformation(seq), "square") == 8
    assert contact_bounds(seq, "square").upper == 10
    r = fold(parse_chain(seq), "square", seconds=None, max_steps=200_000, exhaustive=False)
    assert (r.score, r.status, r.upper_bound, r.verdict) == (
        8,
        "proven (cores)",
        8,
        "optimal (proven)",
    )
    assert r.certificate is not None and r.certificate.refuted == [10, 9]
    assert "optimal (proven by H-core threading)" in r.summary()
    assert "no fold has 10 contacts (1 core" in r.summary()
    assert to_plain(r)["certificate"]["upper"] == 8
    r = fold(
        parse_chain(seq), "square", seconds=None, max_steps=200_000, exhaustive=False, certify=False
    )
    assert (r.status, r.upper_bound, r.certificate) == ("found", 10, None)


def test_an_enumerated_chain_is_optimal_whatever_its_bounds_say():
    # the paper's level: 9 contacts by enumeration, while the best upper bound is 10
    r = fold(parse_chain("HPHHHHHHPHHPHHPH"), "square")
    assert (r.status, r.score, r.upper_bound) == ("proven (exhaustive)", 9, 10)
    assert (r.gap, r.verdict) == (0, "optimal (proven)")
