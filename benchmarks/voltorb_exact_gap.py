"""Exact (not simulated) gap between the optimal policy and a heuristic, per level.

For each sampled board only its clues are used: P(win | clues) of both policies is computed
exactly as an expectation over the posterior, so the per-board difference has no flip-outcome
noise and the paired interval is far tighter than a simulation of the same size.

    python benchmarks/voltorb_exact_gap.py --level 1 --boards 300 [--other minrisk]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gamelab.core.stats import mean_interval, paired_difference
from gamelab.voltorb.evaluate import exact_win_probability
from gamelab.voltorb.posterior import posterior_for
from gamelab.voltorb.rules import Clues, VoltorbSetting, generate_board


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", type=int, default=1)
    ap.add_argument("--boards", type=int, default=300)
    ap.add_argument("--generator", default="hgss")
    ap.add_argument("--other", default="minrisk")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    opt, other = [], []
    t_opt = t_other = 0.0
    for _ in range(args.boards):
        board, _ = generate_board(VoltorbSetting(args.level, args.generator), rng)
        post = posterior_for(Clues.from_board(board), VoltorbSetting(args.level, args.generator))
        t0 = time.perf_counter()
        opt.append(exact_win_probability(post, "optimal"))
        t1 = time.perf_counter()
        other.append(exact_win_probability(post, args.other))
        t2 = time.perf_counter()
        t_opt += t1 - t0
        t_other += t2 - t1
    d = paired_difference(opt, other)
    print(
        f"{args.generator} level {args.level}, {args.boards} boards (exact P(win) given the clues):"
    )
    print(f"  optimal {mean_interval(opt)}; {args.other} {mean_interval(other)}")
    print(
        f"  optimal - {args.other}: {d}; optimal below {args.other} on "
        f"{int(np.sum(np.array(opt) < np.array(other) - 1e-12))} boards"
    )
    print(f"  time: optimal {t_opt:.1f} s, {args.other} evaluation {t_other:.1f} s")


if __name__ == "__main__":
    main()
