"""Speed of the optimal (P(win)-maximising) policy: time per move at a level (target: median
<= 1 s at level 8 on hgss), and the numba search vs its Python twin on the same small states.

Every move of a game is timed, including the first (which solves the whole tree from the clues;
later moves mostly reuse its memo). A per-move time limit is not applied: the numbers include
the heavy tail.

    python benchmarks/voltorb_optimal.py [--games 30] [--level 8]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gamelab.voltorb.expectimax import OptimalSolver
from gamelab.voltorb.posterior import posterior_for
from gamelab.voltorb.rules import Clues, Round, generate_board


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--level", type=int, default=8)
    ap.add_argument("--generator", default="hgss")
    ap.add_argument("--twin-games", type=int, default=10)
    args = ap.parse_args()
    rng = np.random.default_rng(2)
    warm = posterior_for(Clues.from_board(generate_board("hgss", 1, rng)[0]), "hgss", 1)
    OptimalSolver(warm).decide({})  # compile / load
    move_times, first_times, nodes, wins = [], [], [], 0
    for _ in range(args.games):
        board, _ = generate_board(args.generator, args.level, rng)
        rnd = Round(board)
        post = posterior_for(rnd.clues, args.generator, args.level)
        solver = OptimalSolver(post)
        first = True
        while rnd.outcome is None:
            t0 = time.perf_counter()
            tile, _ = solver.decide(rnd.revealed)
            dt = time.perf_counter() - t0
            move_times.append(dt)
            if first:
                first_times.append(dt)
                first = False
            rnd.flip(tile)
        nodes.append(solver.nodes)
        wins += rnd.outcome == "won"
    mt = np.array(move_times)
    ft = np.array(first_times)
    print(f"{args.generator} level {args.level}: {args.games} games, {mt.size} moves, won {wins}")
    print(f"per move: median {np.median(mt) * 1e3:.1f} ms, p90 {np.percentile(mt, 90):.2f} s, "
          f"max {mt.max():.1f} s (target median <= 1 s)")
    print(f"first move (whole tree): median {np.median(ft):.2f} s, max {ft.max():.1f} s; "
          f"states searched per game: median {int(np.median(nodes))}, max {max(nodes)}")
    # side by side with the Python twin on small level-2 states
    ratios = []
    rng = np.random.default_rng(3)
    while len(ratios) < args.twin_games:
        post = posterior_for(Clues.from_board(generate_board("hgss", 2, rng)[0]), "hgss", 2)
        if not 20 <= post.count <= 300:
            continue
        t0 = time.perf_counter()
        a = OptimalSolver(post).win_probability()
        t1 = time.perf_counter()
        b = OptimalSolver(post, python=True).win_probability()
        t2 = time.perf_counter()
        assert abs(a - b) < 1e-12
        ratios.append((t2 - t1) / max(t1 - t0, 1e-9))
    print(f"Python twin / numba search on {len(ratios)} level-2 clue sets: median {np.median(ratios):.0f}x")


if __name__ == "__main__":
    main()
