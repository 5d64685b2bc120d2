"""Optimal-strategy simulation speed: per-chunk decision tables vs per-process tables, side by side.

    NUMBA_NUM_THREADS=1 python benchmarks/yatzy_simulate.py [--rules yahtzee] [--games 200000]
        [--parallel 1000000]

1. One process, the same uniforms: games in chunks of 2000 with decision tables computed afresh
   for every chunk (the previous kernel, :func:`gamelab.yatzy._play_kernels.play_games`) vs tables
   kept for the life of the process (:func:`gamelab.yatzy.simulate.play_scores`); CPU time,
   games per second per core, the ratio, and that both give the same scores.
2. --parallel N: `simulate` with 2 workers (wall time, including the workers' start-up and their
   own table building), the issue's goal being 1e5 games per second on 2 cores.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gamelab.core.parallel import Backend
from gamelab.yatzy._play_kernels import play_games
from gamelab.yatzy.rules import get_rules
from gamelab.yatzy.simulate import (
    CHUNK,
    THREAD_ROWS,
    _decision_cache,
    draw_uniforms,
    play_scores,
    simulate,
)
from gamelab.yatzy.solver import solve


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="yahtzee")
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--parallel", type=int, default=1_000_000)
    args = ap.parse_args()
    rules = get_rules(args.rules)
    E = solve(rules).E
    bundle = rules.kernel_rules()
    warm = draw_uniforms(rules, 10, np.random.default_rng(1))
    play_games(E, 0, warm, bundle, np.empty(10, dtype=np.int64))  # compile both kernels
    play_scores(rules, "optimal", warm)
    _decision_cache.cache_clear()
    u = draw_uniforms(rules, args.games, np.random.default_rng(0))
    old = np.empty(args.games, dtype=np.int64)
    t0 = time.process_time()
    for lo in range(0, args.games, CHUNK):
        play_games(E, 0, u[lo : lo + CHUNK], bundle, old[lo : lo + CHUNK])
    t_old = time.process_time() - t0
    t0 = time.process_time()
    new = np.concatenate(
        [play_scores(rules, "optimal", u[lo : lo + CHUNK]) for lo in range(0, args.games, CHUNK)]
    )
    t_new = time.process_time() - t0
    t0 = time.process_time()
    again = np.concatenate(
        [play_scores(rules, "optimal", u[lo : lo + CHUNK]) for lo in range(0, args.games, CHUNK)]
    )
    t_warm = time.process_time() - t0
    assert (old == new).all() and (new == again).all()
    states = int(_decision_cache(rules, "optimal")[2][0]) - THREAD_ROWS
    print(
        f"{rules.name}, optimal strategy, {args.games} games in chunks of {CHUNK}, one process "
        f"(same dice, same scores):"
    )
    print(f"  tables per chunk (previous):  {args.games / t_old:9.0f} games/s per core")
    print(
        f"  tables per process, cold:     {args.games / t_new:9.0f} games/s per core "
        f"(x{t_old / t_new:.1f}; {states} states' tables built, {states * 1.512e-3:.0f} MB)"
    )
    print(
        f"  tables per process, warm:     {args.games / t_warm:9.0f} games/s per core "
        f"(x{t_old / t_warm:.1f})"
    )
    if args.parallel:
        res = simulate(rules, "optimal", args.parallel, 0, Backend(workers=2, quiet=True))
        print(
            f"simulate, 2 workers, {args.parallel} games: {args.parallel / res.seconds:.0f} "
            f"games/s wall incl. start-up (goal 1e5); mean {res.mean.value:.3f}"
        )


if __name__ == "__main__":
    main()
