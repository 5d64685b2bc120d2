"""Cost of win play and target play: the vector widget (numba vs twin) and one solve per K.

    NUMBA_NUM_THREADS=1 python benchmarks/yatzy_winplay.py [--rules yahtzee-no-bonus]
        [--turns 5,6,7,8,9,10] [--positions 5] [--length 256]

1. The same random states are evaluated by the numba vector widget
   (:func:`gamelab.yatzy._utility_kernels.utility_widget`, L scores at once) and by its plain-Python
   twin; prints microseconds per widget and the ratio.
2. For each K: `--positions` switch positions (both players after 13 - K rounds of
   expected-score play, seed 0); per position the exact law of B's final score and one win-play
   solve for A. Prints CPU seconds per solve (mean and max), reachable states, vector length,
   the memory of the solve's vectors and the process's peak RSS.
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from gamelab.yatzy import winplay as wp
from gamelab.yatzy import winplay_study as study
from gamelab.yatzy._play_kernels import UNIFORMS_PER_TURN
from gamelab.yatzy._turn_kernels import upper_subset
from gamelab.yatzy._utility_kernels import (
    new_utility_workspace,
    utility_widget,
    utility_widget_python,
)
from gamelab.yatzy.rules import get_rules
from gamelab.yatzy.solver import upper_reach


def widget_speed(rules, L: int, n: int) -> None:
    rng = np.random.default_rng(0)
    tab = rules.kernel_tables()
    reach = upper_reach()
    states = []
    while len(states) < n:
        mask = int(rng.integers(0, (1 << rules.n_boxes) - 1))
        m = int(rng.integers(0, 64))
        if reach[int(upper_subset(mask, tab["upper_face"], rules.n_boxes)), m]:
            states.append((mask, m, 0))
    Pn = np.sort(rng.random((64, L)), axis=1)[:, ::-1].copy()
    Pn[:, 0] = 1.0
    row_of = rng.integers(0, 64, rules.n_states)
    bundle = rules.kernel_rules()
    uws = new_utility_workspace(L)
    utility_widget(Pn, row_of, *states[0], bundle, uws)  # compile
    reps = 20
    t0 = time.process_time()
    for _ in range(reps):
        for s in states:
            utility_widget(Pn, row_of, *s, bundle, uws)
    nb_us = (time.process_time() - t0) / (reps * n) * 1e6
    t0 = time.process_time()
    for s in states[:2]:
        utility_widget_python(Pn, row_of, *s, rules)
    py_us = (time.process_time() - t0) / 2 * 1e6
    print(f"vector widget, {rules.name}, L = {L} (same states):")
    print(f"  plain-Python twin: {py_us / 1e3:10.1f} ms/widget")
    print(
        f"  numba:             {nb_us / 1e3:10.3f} ms/widget (x{py_us / nb_us:.0f} faster; "
        f"{nb_us / L:.2f} us per score)"
    )


def solve_costs(rules, turns: list[int], positions: int) -> None:
    E = wp.expected_values(rules)
    print(f"win-play solves, {rules.name}, {positions} switch positions per K (seed 0):")
    print("   K   s/solve (mean)   s (max)   states   L (mean)   vectors MB   peak RSS MB")
    for K in turns:
        rng = np.random.default_rng(0)
        ua = rng.random((positions, rules.n_boxes, UNIFORMS_PER_TURN))
        ub = rng.random((positions, rules.n_boxes, UNIFORMS_PER_TURN))
        sa, sb = study.switch_states(rules, K, ua, ub)
        secs, states, lens, mb = [], [], [], []
        for g in range(positions):
            law = wp.final_score_law(rules, sb[g], E)
            t0 = time.process_time()
            sol = wp.solve_win(rules, sa[g], law)
            secs.append(time.process_time() - t0)
            states.append(sum(len(x[0]) for x in sol.reach.layers))
            lens.append(sol.length)
            mb.append(sum(v.nbytes for v in sol.vectors) / 2**20)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"  {K:2d}   {np.mean(secs):14.2f}   {max(secs):7.2f}   {np.mean(states):6.0f}   "
            f"{np.mean(lens):8.0f}   {max(mb):10.1f}   {rss:11.0f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="yahtzee-no-bonus")
    ap.add_argument("--turns", default="5,6,7,8,9,10")
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--length", type=int, default=256)
    args = ap.parse_args()
    rules = get_rules(args.rules)
    widget_speed(rules, args.length, 10)
    # compile the layer kernels once before timing
    wp.solve_win(rules, (((1 << rules.n_boxes) - 1) & ~1, 0, 0, 0), (0, np.array([1.0])))
    solve_costs(rules, [int(k) for k in args.turns.split(",")], args.positions)


if __name__ == "__main__":
    main()
