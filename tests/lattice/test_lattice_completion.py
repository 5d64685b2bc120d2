"""best_completion against brute force over every walk (short chains, every short prefix)."""

from __future__ import annotations

import itertools

import numpy as np

from gamelab.lattice.completion import best_completion
from gamelab.lattice.enumeration import histogram
from gamelab.lattice.rules import MOVES, hh_score, is_self_avoiding


def _brute(seq: str, prefix: str, lattice: str) -> int | None:
    best = None
    for rest in itertools.product(MOVES[lattice], repeat=len(seq) - 1 - len(prefix)):
        conf = prefix + "".join(rest)
        if is_self_avoiding(conf, lattice):
            score = hh_score(seq, conf, lattice)
            best = score if best is None else max(best, score)
    return best


def test_best_completion_is_the_brute_force_optimum():
    rng = np.random.default_rng(0)
    for _ in range(12):
        n = int(rng.integers(4, 8))
        seq = "".join(rng.choice(list("HP"), n))
        for k in range(3):
            for prefix in map("".join, itertools.product("RULD", repeat=k)):
                if is_self_avoiding(prefix):
                    assert best_completion(seq, prefix) == _brute(seq, prefix, "square")
    assert best_completion("HHPPHH", "RUL", "cubic") == _brute("HHPPHH", "RUL", "cubic")


def test_trapped_prefixes_and_the_enumeration_bound():
    """A prefix every completion of which is trapped gives None (as brute force finds); a cap
    equal to the best over all folds changes nothing."""
    seq = "HPPHPPHHP"
    trapped = [
        p
        for p in ("R" + "".join(t) for t in itertools.product("RULD", repeat=6))
        if is_self_avoiding(p) and _brute(seq, p, "square") is None
    ]
    assert trapped  # e.g. a walk that spirals its end in
    for p in trapped:
        assert best_completion(seq, p) is None
    best = len(histogram(seq)) - 1
    for p in ("R", "RU", "RUL", "RRD"):
        assert (
            best_completion(seq, p, cap=best) == best_completion(seq, p) == _brute(seq, p, "square")
        )


def test_completion_kernel_matches_python_twin():
    """The kernel against the plain recursion, on random sequences and random self-avoiding
    prefixes of both lattices, with and without a cap."""
    rng = np.random.default_rng(1)
    checked = 0
    for lattice, longest in (("square", 14), ("cubic", 9)):
        for _ in range(15):
            n = int(rng.integers(3, longest))
            seq = "".join(rng.choice(list("HP"), n))
            prefix = ""
            for _ in range(int(rng.integers(0, n))):
                steps = [m for m in MOVES[lattice] if is_self_avoiding(prefix + m, lattice)]
                if not steps:
                    break
                prefix += steps[int(rng.integers(len(steps)))]
            for cap in (None, 2):
                assert best_completion(seq, prefix, lattice, cap) == best_completion(
                    seq, prefix, lattice, cap, python=True
                )
                checked += 1
    assert checked == 60
