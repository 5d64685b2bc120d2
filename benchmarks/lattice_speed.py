"""Lattice speed: enumerate-once vs the paper's per-sequence re-enumeration, measured side by side.

    .venv/bin/python benchmarks/lattice_speed.py [--quick]

Prints ratios (ours vs baseline, numba vs the plain-Python twin) measured in this run:
* enumeration + dedup time per length (numba) and the Python twin at small L;
* one GA generation (30 sequences) at L=16: score against cached contact sets vs re-enumerate
  all 802,075 conformations per sequence (what the paper's C tool did; we use our own numba
  enumerator as the baseline, which is generous to it); the paper reports 7.8 s per generation;
* all 2^16 sequences scored exactly;
* the histogram kernel vs its Python twin.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np


def timed(fn, repeat=1):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip L=20 and the 3D L=13 run")
    args = parser.parse_args()
    os.environ.setdefault("GAMELAB_CACHE", tempfile.mkdtemp(prefix="lattice-bench-"))

    from gamelab.core.evolve import genetic_algorithm
    from gamelab.lattice import _kernels as K
    from gamelab.lattice.enumeration import _compute, contact_sets, warm_up
    from gamelab.lattice.generate import PuzzleFitness

    warm_up("square")
    warm_up("cubic")
    print("== enumeration + dedup (numba, kernels loaded) ==")
    lengths = [("square", n) for n in (12, 14, 16, 18)] + [("cubic", n) for n in (10, 11, 12)]
    if not args.quick:
        lengths += [("square", 20), ("cubic", 13)]
    for lattice, n in lengths:
        sec, arrays = timed(lambda n=n, lattice=lattice: _compute(n, lattice))
        print(
            f"{lattice:6s} L={n:2d}: {int(arrays['counts'].sum()):>12,} conformations -> "
            f"{len(arrays['counts']):>9,} contact sets in {sec:8.3f} s"
        )
    for n, ndim in ((11, 2), (8, 3)):
        fast, _ = timed(lambda n=n, ndim=ndim: _compute(n, "square" if ndim == 2 else "cubic"), 3)
        slow, _ = timed(lambda n=n, ndim=ndim: K.enumerate_python(n, ndim))
        print(
            f"numba vs Python twin, {'square' if ndim == 2 else 'cubic'} L={n}: "
            f"{slow / fast:,.0f}x faster ({fast * 1e3:.2f} ms vs {slow * 1e3:.0f} ms)"
        )

    print("\n== one GA generation at L=16 (30 sequences) ==")
    fitness = PuzzleFitness(16)
    rng = np.random.default_rng(0)
    population = ["".join(rng.choice(["H", "P"], 16)) for _ in range(30)]
    ours, _ = timed(lambda: fitness(population), 20)
    sets = contact_sets(16)

    def re_enumerate():
        for seq in population:
            arrays = _compute(16, "square")
            hh = sets.hh_mask(seq)
            K.histogram_kernel(arrays["keys"], arrays["counts"], hh, 10)

    baseline, _ = timed(re_enumerate)
    ga = genetic_algorithm(fitness, 16, "HP", rng=1)
    print(f"scoring 30 sequences against cached contact sets: {ours * 1e3:.2f} ms")
    print(
        f"re-enumerating all conformations per sequence:     {baseline:.2f} s "
        f"-> {baseline / ours:,.0f}x"
    )
    print(
        f"full GA generation incl. breeding (50-gen run):   "
        f"{ga.seconds_per_generation * 1e3:.2f} ms -> {7.8 / ga.seconds_per_generation:,.0f}x "
        "faster than the paper's 7.8 s (8-core M2)"
    )

    print("\n== all 2^16 sequences ==")
    codes = np.arange(1 << 16, dtype=np.int64)
    sets.histograms_for_codes(codes[:64])
    sec, hists = timed(lambda: sets.histograms_for_codes(codes))
    print(
        f"65,536 exact histograms in {sec:.2f} s ({sec / 65536 * 1e6:.1f} us each); "
        f"{int((hists.sum(axis=1) == sets.conformations).sum()):,} sum to 802,075"
    )

    print("\n== histogram kernel vs Python twin (L=14, 20 sequences) ==")
    small = contact_sets(14)
    masks = [small.hh_mask("".join(rng.choice(["H", "P"], 14))) for _ in range(20)]
    fast, _ = timed(lambda: [K.histogram_kernel(small.keys, small.counts, m, 8) for m in masks], 5)
    slow, _ = timed(lambda: [K.histogram_python(small.keys, small.counts, m, 8) for m in masks])
    print(f"numba {fast * 1e3:.2f} ms vs Python {slow * 1e3:.0f} ms -> {slow / fast:,.0f}x")


if __name__ == "__main__":
    main()
