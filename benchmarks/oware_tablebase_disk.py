"""The endgame database on disk: what it holds, its CPU per level, the check against the
in-memory tables, and the CPU-hours to 24 seeds extrapolated from the levels measured.

Reads the database in the gamelab cache (built by ``gamelab oware tablebase --seeds N``); builds
nothing but the in-memory table it compares with (16 seeds: about a minute, cached).

The extrapolation fits log(CPU-seconds per board) as a line in the seed count over the levels
from --fit-from up (the cost per board grows with the level: more sweeps, longer sowings, more
cache misses) and sums boards x fitted cost over the levels not built yet. It is an estimate from
the levels measured, stated as such, not a measurement.

Run: python benchmarks/oware_tablebase_disk.py [--compare 16] [--target 24] [--fit-from 12]
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from gamelab.oware.tablebase import MAX_SUPPORTED, compute_tablebase, open_database
from gamelab.oware.tablebase_disk import database_levels, level_boards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", type=int, default=16, help="compare levels up to this (<= 16)")
    ap.add_argument("--target", type=int, default=24)
    ap.add_argument("--fit-from", type=int, default=12)
    args = ap.parse_args()
    if not 0 <= args.compare <= MAX_SUPPORTED or not 0 <= args.target <= 48:
        print(f"error: --compare is 0 to {MAX_SUPPORTED} and --target 0 to 48", file=sys.stderr)
        raise SystemExit(2)
    levels, damaged = database_levels()
    reach = len(levels) - 1
    if reach < 0:
        print("error: no endgame database here: gamelab oware tablebase --seeds N", file=sys.stderr)
        raise SystemExit(2)
    upto = min(args.compare, reach)
    memory = compute_tablebase(upto)["values"] if upto <= 12 else None
    if memory is None:
        from gamelab.oware.tablebase import load_tablebase

        memory = load_tablebase(upto).values
    equal = bool(np.array_equal(open_database(upto).values, memory))
    fit = [r for r in levels if r.seeds >= args.fit_from and r.cpu_seconds > 0]
    rows = [
        {
            "seeds": r.seeds,
            "boards": r.boards,
            "rounds": r.rounds,
            "sweeps": r.sweeps,
            "cpu_seconds": r.cpu_seconds,
            "total_cpu_seconds": r.total_cpu_seconds,
            "wall_seconds": r.wall_seconds,
            "cpu_us_per_board": round(1e6 * r.cpu_seconds / r.boards, 3),
            "runner": r.runner,
        }
        for r in levels
    ]
    estimate = None
    if len(fit) >= 2:
        xs = np.array([r.seeds for r in fit], dtype=float)
        ys = np.log(np.array([r.cpu_seconds / r.boards for r in fit]))
        slope, intercept = np.polyfit(xs, ys, 1)
        todo = list(range(reach + 1, args.target + 1))
        per_level = {n: level_boards(n) * math.exp(intercept + slope * n) for n in todo}
        estimate = {
            "fitted_levels": [r.seeds for r in fit],
            "cost_growth_per_seed": round(float(math.exp(slope)), 3),
            "levels": {n: round(s / 3600, 2) for n, s in per_level.items()},
            "cpu_hours_to_target": round(sum(per_level.values()) / 3600, 2),
        }
    print(
        json.dumps(
            {
                "reach": reach,
                "damaged": damaged,
                "boards": sum(r.boards for r in levels),
                "cpu_hours": round(sum(r.cpu_seconds for r in levels) / 3600, 3),
                "total_cpu_hours": round(sum(r.total_cpu_seconds for r in levels) / 3600, 3),
                "equal_to_memory_table_up_to": upto if equal else None,
                "levels": rows,
                "estimate": estimate,
            },
            indent=2,
        )
    )
    if not equal:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
