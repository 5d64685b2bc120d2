"""Engine speed: nodes per second of the numba search against its plain-Python twin.

Both search the same positions (random game positions, seeded): the twin at a fixed depth, the
numba kernel (a) without the table: at the same fixed depth to check it finds the same value
(its history-heuristic ordering prunes a slightly different tree), then timed one ply deeper at a
time until one call searches at least `--min-nodes` nodes — a call of a few hundred nodes (depth
5) times mostly the call itself (thread, arrays), not the search — and (b) as the engine plays
(iterative deepening, table, ordering) for `--time` seconds.
Run: .venv/bin/python benchmarks/oware_search.py [--positions 8] [--depth 5] [--time 1]
[--min-nodes 500000]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from gamelab.oware.rules import random_positions
from gamelab.oware.search import Engine, twin_negamax

#: the deepest timed no-table search (a position near its end never reaches --min-nodes)
MAX_DEPTH = 40


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--time", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--min-nodes",
        type=int,
        default=500_000,
        help="nodes a timed no-table kernel call searches at least (it goes deeper until then)",
    )
    args = ap.parse_args()
    ps = random_positions(args.positions, args.seed)
    plain = Engine(tablebase_seeds=-1, use_tt=False, tt_bits=10)
    plain.search_depth(ps[0], 2)  # compile outside the timing
    twin_nodes, twin_s, kern_nodes, kern_s, kern_depths = 0, 0.0, 0, 0.0, []
    for p in ps:
        counter = [0]
        t0 = time.perf_counter()
        v_twin = twin_negamax(p, args.depth, nodes=counter)
        twin_s += time.perf_counter() - t0
        twin_nodes += counter[0]
        v, _, _, _ = plain.search_depth(p, args.depth)
        assert v == v_twin, (p.to_text(), v, v_twin)
        depth = args.depth
        while True:  # deeper until one call is mostly search (a finished game stays small)
            t0 = time.perf_counter()
            _, _, n, _ = plain.search_depth(p, depth)
            seconds = time.perf_counter() - t0
            if n >= args.min_nodes or depth >= MAX_DEPTH:
                break
            depth += 1
        kern_s += seconds
        kern_nodes += n
        kern_depths.append(depth)
    engine = Engine(tablebase_seeds=-1)
    eng_nodes, eng_s, depths = 0, 0.0, []
    for p in ps:
        engine.clear()
        r = engine.search(p, time_limit=args.time)
        eng_nodes += r.nodes
        eng_s += r.seconds
        depths.append(r.depth)
    out = {
        "positions": len(ps),
        "fixed_depth": args.depth,
        "twin_nodes_per_s": twin_nodes / twin_s,
        "kernel_nodes_per_s_no_table": kern_nodes / kern_s,
        "kernel_depths_no_table": kern_depths,
        "kernel_nodes_per_call_no_table": kern_nodes // len(ps),
        "node_counts_twin_kernel": [twin_nodes, kern_nodes],
        "engine_nodes_per_s": eng_nodes / eng_s,
        "engine_mean_depth": float(np.mean(depths)),
        "speedup_kernel_no_table": (kern_nodes / kern_s) / (twin_nodes / twin_s),
        "speedup_engine_vs_twin": (eng_nodes / eng_s) / (twin_nodes / twin_s),
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
