"""Perft: numba kernel against the plain-Python rules, and the depth-10 count.

Run: .venv/bin/python benchmarks/oware_perft.py [--depth 10] [--twin-depth 6]
"""

from __future__ import annotations

import argparse
import json
import time

from gamelab.oware.perft import START_PERFT, perft_count
from gamelab.oware.rules import Position, perft


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--twin-depth", type=int, default=6)
    args = ap.parse_args()
    start = Position.initial()
    perft_count(start, 2)  # compile
    rows = []
    for d in range(1, args.depth + 1):
        t0 = time.perf_counter()
        n = perft_count(start, d)
        rows.append(
            {
                "depth": d,
                "nodes": n,
                "seconds": round(time.perf_counter() - t0, 3),
                "matches_reference": n == START_PERFT[d - 1] if d <= 10 else None,
            }
        )
    t0 = time.perf_counter()
    n_twin = perft(start, args.twin_depth)
    twin_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    n_kern = perft_count(start, args.twin_depth)
    kern_s = time.perf_counter() - t0
    assert n_twin == n_kern
    print(
        json.dumps(
            {
                "perft": rows,
                "twin_depth": args.twin_depth,
                "speedup_kernel_vs_python": twin_s / kern_s,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
