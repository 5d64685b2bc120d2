"""Yatzy solver speed: microseconds per widget, numba kernel vs plain-Python twin, side by side.

    python benchmarks/yatzy_solver.py [--rules yatzy] [--widgets 30] [--full] [--games 20000]

1. The same random widgets (states with random successor values) are evaluated by the numba
   kernel (repeated to get a stable time) and by the Python twin; prints us/widget and the ratio.
2. --full: solves the whole table of --rules (E only, then E and second moment) and prints
   us/widget and core-seconds (CPU time of this process, all numba threads).
3. Simulation: optimal-strategy games per second in one process (CPU time) and through
   core.parallel with 2 workers (wall time).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gamelab.core.parallel import Backend
from gamelab.yatzy._turn_kernels import new_workspace, upper_subset
from gamelab.yatzy._widget_kernels import widget, widget_python
from gamelab.yatzy.rules import get_rules
from gamelab.yatzy.simulate import draw_uniforms, play_scores, simulate
from gamelab.yatzy.solver import solve, solve_tables, upper_reach


def random_widgets(rules, n, rng):
    tab = rules.kernel_tables()
    reach = upper_reach()
    out = []
    while len(out) < n:
        mask = int(rng.integers(0, (1 << rules.n_boxes) - 1))
        m = int(rng.integers(0, 64))
        if reach[int(upper_subset(mask, tab["upper_face"], rules.n_boxes)), m]:
            out.append((mask, m, 0))
    return out


def widgets_solved(rules) -> tuple[int, int]:
    """(states a widget solves, reachable states) of a full solve: the others copy the first
    settled state of their card (upper bonus scored or out of reach; ``solve_masks``)."""
    reach = upper_reach()
    faces = [rules.upper_face(b) for b in range(rules.n_boxes)]
    solved = states = 0
    for mask in range((1 << rules.n_boxes) - 1):  # the full card is not solved
        u = sum(1 << (face - 1) for b, face in enumerate(faces) if face and (mask >> b) & 1)
        room = sum(5 * face for b, face in enumerate(faces) if face and not (mask >> b) & 1)
        totals = [m for m in range(64) if reach[u, m]]
        settled = [m for m in totals if m == 63 or m + room < 63 or rules.upper_bonus == 0]
        flags = 2 if rules.bonus_flags == 2 and (mask >> rules.boxes.index("yahtzee")) & 1 else 1
        solved += flags * (len(totals) - len(settled) + (1 if settled else 0))
        states += flags * len(totals)
    return solved, states


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="yatzy")
    ap.add_argument("--widgets", type=int, default=30)
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--games", type=int, default=20000)
    args = ap.parse_args()
    rules = get_rules(args.rules)
    bundle = rules.kernel_rules()
    rng = np.random.default_rng(0)
    E = rng.uniform(0, 200, rules.n_states)
    W = E**2
    states = random_widgets(rules, args.widgets, rng)
    ws = new_workspace(rules.n_boxes)

    def run_numba(with_w, reps):
        total = 0.0
        for _ in range(reps):
            for mask, m, f in states:
                total += widget(E, W, with_w, mask, m, f, bundle, ws)[0]
        return total

    run_numba(True, 1)  # compile
    results = {}
    for with_w in (False, True):
        reps = 200
        t0 = time.process_time()
        run_numba(with_w, reps)
        results[with_w] = (time.process_time() - t0) / (reps * len(states)) * 1e6
    t0 = time.process_time()
    for mask, m, f in states:
        widget_python(E, W, mask, m, f, rules)
    py = (time.process_time() - t0) / len(states) * 1e6
    print(f"rules {rules.name}, {len(states)} random widgets (same widgets for both):")
    print(f"  plain-Python twin (E and W): {py:10.1f} us/widget")
    print(
        f"  numba, E only:               {results[False]:10.2f} us/widget  "
        f"(x{py / results[False]:.0f} faster)"
    )
    print(
        f"  numba, E and W:              {results[True]:10.2f} us/widget  "
        f"(x{py / results[True]:.0f} faster)"
    )
    if args.full:
        solved, states = widgets_solved(rules)
        print(f"  full {rules.name} table: {solved} of {states} states solved by a widget")
        solve_tables(get_rules("yahtzee-no-bonus"), with_w=False)  # compile the layer kernel
        for with_w in (False, True):
            t0, w0 = time.process_time(), time.perf_counter()
            _, _, widgets = solve_tables(rules, with_w=with_w)
            cpu, wall = time.process_time() - t0, time.perf_counter() - w0
            print(
                f"  full {rules.name} table ({'E and W' if with_w else 'E only'}): {widgets} "
                f"widgets, {cpu:.1f} core-s ({cpu / widgets * 1e6:.2f} us/widget), "
                f"wall {wall:.1f} s; goal 10 core-s, precisit (Rust, 1 core) 28.5 s"
            )
    sim_rules = get_rules("yahtzee")
    solve(sim_rules)
    u = draw_uniforms(sim_rules, 200, rng)
    play_scores(sim_rules, "optimal", u)
    u = draw_uniforms(sim_rules, 4000, rng)
    t0 = time.process_time()
    play_scores(sim_rules, "optimal", u)
    per_core = 4000 / (time.process_time() - t0)
    res = simulate(sim_rules, "optimal", args.games, 0, Backend(workers=2, quiet=True))
    print(
        f"simulation (yahtzee, optimal): {per_core:.0f} games/s per core (CPU time); "
        f"{args.games / res.seconds:.0f} games/s wall on 2 workers incl. start-up "
        f"(goal >= 1e4 on 2 cores)"
    )


if __name__ == "__main__":
    main()
