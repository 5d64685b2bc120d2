"""Lattice folding: PERM on the standard 2D HP benchmarks, and the numba kernel vs its twin.

    /work/venv/bin/python benchmarks/lattice_fold.py [--seconds 60]

For each benchmark: literature optimum (research notes), best found, proof status and time;
then the PERM kernel's speed-up over its plain-Python twin on the same tours (same draws).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="budget per benchmark")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.environ.setdefault("GAMELAB_CACHE", tempfile.mkdtemp(prefix="lattice-bench-"))

    from gamelab.lattice.fold import BENCHMARKS_2D, fold, perm_kernel, perm_python

    print(
        f"{'benchmark':9s} {'L':>3s} {'optimum':>7s} {'found':>5s}  {'status':20s} {'seconds':>8s}"
    )
    for name, (seq, optimum) in BENCHMARKS_2D.items():
        r = fold(seq, seed=args.seed, seconds=args.seconds)
        print(f"{name:9s} {len(seq):3d} {optimum:7d} {r.score:5d}  {r.status:20s} {r.seconds:8.2f}")

    seq, _ = BENCHMARKS_2D["S1-36"]
    is_h = np.array([c == "H" for c in seq], dtype=np.bool_)
    perm_kernel(is_h, 2, 3.0, 5, 0, 1.0, 999)
    t = time.perf_counter()
    fast = perm_kernel(is_h, 2, 3.0, 300, 1, 1.0, 999)
    fast_s = time.perf_counter() - t
    t = time.perf_counter()
    slow = perm_python(is_h, 2, 3.0, 300, 1, 1.0, 999)
    slow_s = time.perf_counter() - t
    assert fast[0] == slow[0]
    print(
        f"\nPERM, 300 tours of S1-36: numba {fast_s * 1e3:.1f} ms vs Python {slow_s * 1e3:.0f} ms "
        f"-> {slow_s / fast_s:,.0f}x (same result: {fast[0]} contacts)"
    )


if __name__ == "__main__":
    main()
