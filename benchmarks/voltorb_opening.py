"""One hard opening solved exactly, with and without the small-state kernel, side by side.

Issue 26's seed-1005 level-8 opening by default (13,797 consistent boards):
    nice -n 10 python benchmarks/voltorb_opening.py [--small-max 62 0]
        [--rows "5,2 8,1 5,3 7,1 3,3" --cols "6,2 7,2 6,2 5,2 4,2" --level 8]
prints, per `small_max` (0 = the search before the small-state kernel), the best tile, the
optimal P(win), the states searched, CPU seconds and the process's peak memory so far. Run it
once first so numba's caches are warm (the first run also compiles).
"""

from __future__ import annotations

import argparse
import resource
import time


def main() -> None:
    from gamelab.voltorb.assistant import position_posterior
    from gamelab.voltorb.expectimax import OptimalSolver
    from gamelab.voltorb.rules import Position, VoltorbSetting

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="5,2 8,1 5,3 7,1 3,3")
    ap.add_argument("--cols", default="6,2 7,2 6,2 5,2 4,2")
    ap.add_argument("--level", type=int, default=8)
    ap.add_argument("--small-max", type=int, nargs="+", default=[62, 0])
    args = ap.parse_args()
    post = position_posterior(Position.parse(args.rows, args.cols), VoltorbSetting(args.level))
    print(f"{post.count:,} consistent boards")
    for small in args.small_max:
        t0 = time.process_time()
        solver = OptimalSolver(post, small_max=small)
        tile, value = solver.decide({})
        cpu = time.process_time() - t0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"small_max {small:2d}: tile {tile} P(win) {value:.6f} states {solver.nodes:,} "
            f"CPU {cpu:.2f} s peak {peak:.0f} MB",
            flush=True,
        )


if __name__ == "__main__":
    main()
