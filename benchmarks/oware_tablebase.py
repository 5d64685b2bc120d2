"""Tablebase build: seconds and sizes per seed count (numba retrograde analysis).

Builds without the cache (numba compiled first on a tiny table), so the times are real builds.
Run: .venv/bin/python benchmarks/oware_tablebase.py [--seeds 12]
"""

from __future__ import annotations

import argparse
import json
import time

from gamelab.oware.tablebase import compute_tablebase


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=12)
    args = ap.parse_args()
    compute_tablebase(2)  # compile
    t0 = time.perf_counter()
    arrays = compute_tablebase(args.seeds)
    total = time.perf_counter() - t0
    offsets = arrays["offsets"]
    levels = [
        {
            "seeds": n,
            "boards": int(offsets[n + 1] - offsets[n]),
            "seconds": round(float(arrays["seconds"][n]), 3),
            "sweeps": int(arrays["sweeps"][n]),
        }
        for n in range(args.seeds + 1)
    ]
    print(
        json.dumps(
            {
                "max_seeds": args.seeds,
                "boards": int(offsets[-1]),
                "bytes": int(arrays["values"].nbytes),
                "build_seconds": round(total, 2),
                "under_a_minute": total < 60,
                "levels": levels,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
