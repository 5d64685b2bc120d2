"""A hard-mode depth limit settled by the feasibility search vs by the optimal search, side by side.

    python benchmarks/wordle_hard_feasible.py [--rows upto-gen3:4,upto-gen5:5] [--hard game]
                                              [--rule standard] [--cap 150]

For each row SPEC:K (the live game's lists, at most K guesses): the optimum under K + 1
guesses first (the looser limit's proven bound, untimed), then in one process, one after the
other, the two ways ``solve-optimal``'s depth limits can settle the limit K:

* ``feasible``: :func:`gamelab.wordle.solver.feasible.feasible_within` (the AND-OR
  search of :class:`~gamelab.wordle.solver.feasible.HardFeasibleSearch`);
* ``optimal``: the optimal search under the limit from the looser limit's bound (what the
  depth limits ran in hard mode earlier), stopped after `--cap` CPU seconds.

Prints each one's answer and CPU seconds and their ratio (``>=`` when the optimal search was
stopped by the cap). Kernels are loaded before the timings.
"""

from __future__ import annotations

import argparse
import time

from gamelab.wordle.rules import parse_setting
from gamelab.wordle.solver.feasible import feasible_within
from gamelab.wordle.solver.kernel_search import INF
from gamelab.wordle.solver.optimal import OptimalSolver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="upto-gen3:4,upto-gen5:5")
    parser.add_argument("--hard", default="game")
    parser.add_argument("--rule", default="standard")
    parser.add_argument("--cap", type=float, default=150.0)
    args = parser.parse_args()
    warm = parse_setting("gen1", args.rule, args.hard, 3)
    feasible_within(warm, lambda: False)
    OptimalSolver(warm).load_kernels()
    for row in args.rows.split(","):
        spec, k = row.split(":")
        limit = int(k)
        looser = OptimalSolver(parse_setting(spec, args.rule, args.hard, limit + 1)).solve()
        floor = looser.lower_bound
        setting = parse_setting(spec, args.rule, args.hard, limit)
        c = time.process_time()
        exists = feasible_within(setting, lambda: False)
        c_feas = time.process_time() - c
        c = time.process_time()
        res = OptimalSolver(setting, cpu_limit=args.cap).solve(lower_bound=floor)
        c_opt = time.process_time() - c
        if res.proven:
            optimal = f"optimum {res.total}"
        elif res.total is None and res.lower_bound >= INF:
            optimal = "infeasible"
        else:
            optimal = f"not settled: optimum >= {res.lower_bound}"
        capped = not res.proven and res.lower_bound < INF
        print(
            f"{spec} {args.rule} hard={args.hard} at most {limit} (looser optimum {floor}): "
            f"feasible {exists} in {c_feas:.1f} CPU-s; optimal search: {optimal} in "
            f"{c_opt:.1f} CPU-s; ratio {'>= ' if capped else ''}{c_opt / max(c_feas, 1e-9):.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
