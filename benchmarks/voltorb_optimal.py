"""Speed of the optimal (P(win)-maximising) policy: time per move at a level (target: median
<= 1 s at level 8 on hgss), and the numba search vs its Python twin on the same small states.

Every move of a game is timed, including the first (which solves the whole tree from the clues;
later moves reuse its memo). A per-move time limit is not applied: the numbers include the heavy
tail. Then the same openings are solved side by side by the session-1 search (first-flip bound
only, no symmetry classes, no pair bound: ``pair_bounds=False, symmetry=False``), capped at
``--baseline-limit`` states (a capped opening counts with its time so far, so the ratio is then a
lower bound).

    python benchmarks/voltorb_optimal.py [--games 30] [--level 8] [--baseline-limit 3000000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gamelab.voltorb.expectimax import OptimalSolver, SearchLimitError
from gamelab.voltorb.posterior import posterior_for
from gamelab.voltorb.rules import Clues, Round, generate_board


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--level", type=int, default=8)
    ap.add_argument("--generator", default="hgss")
    ap.add_argument("--twin-games", type=int, default=10)
    ap.add_argument("--baseline-limit", type=int, default=3_000_000)
    ap.add_argument("--coin-games", type=int, default=20, help="openings of optimal-coins")
    ap.add_argument("--coin-level", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(2)
    warm = posterior_for(Clues.from_board(generate_board("hgss", 1, rng)[0]), "hgss", 1)
    OptimalSolver(warm).decide({})  # compile / load
    move_times, first_times, nodes, wins, openings = [], [], [], 0, []
    for _ in range(args.games):
        board, _ = generate_board(args.generator, args.level, rng)
        rnd = Round(board)
        post = posterior_for(rnd.clues, args.generator, args.level)
        openings.append(post)
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
    print(
        f"per move: median {np.median(mt) * 1e3:.1f} ms, p90 {np.percentile(mt, 90):.2f} s, "
        f"max {mt.max():.1f} s (target median <= 1 s)"
    )
    print(
        f"first move (whole tree): median {np.median(ft):.2f} s, max {ft.max():.1f} s; "
        f"states searched per game: median {int(np.median(nodes))}, max {max(nodes)}"
    )
    # side by side with the session-1 search on the same openings
    new_t, old_t, capped = [], [], 0
    for post in openings:
        t0 = time.perf_counter()
        a = OptimalSolver(post).win_probability()
        t1 = time.perf_counter()
        try:
            b = OptimalSolver(
                post, symmetry=False, pair_bounds=False, state_limit=args.baseline_limit
            ).win_probability()
            assert abs(a - b) < 1e-9, (a, b)
        except SearchLimitError:
            capped += 1
        t2 = time.perf_counter()
        new_t.append(t1 - t0)
        old_t.append(t2 - t1)
    new_t, old_t = np.array(new_t), np.array(old_t)
    print(
        f"openings, this search vs the session-1 search (same clues): total {new_t.sum():.1f} s vs "
        f"{old_t.sum():.1f} s ({'>= ' if capped else ''}{old_t.sum() / new_t.sum():.1f}x), slowest "
        f"{new_t.max():.2f} s vs {old_t.max():.2f} s; {capped} baseline openings capped at "
        f"{args.baseline_limit:,} states"
    )
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
    print(
        f"Python twin / numba search on {len(ratios)} level-2 clue sets: median {np.median(ratios):.0f}x"
    )
    # the coin objective: openings at a level, and the kernel vs its twin on level-1 clue sets
    rng = np.random.default_rng(4)
    OptimalSolver(warm, "coins").decide({})  # compile (this kernel is not cached)
    coin_times = []
    for _ in range(args.coin_games):
        board, _ = generate_board(args.generator, args.coin_level, rng)
        post = posterior_for(Clues.from_board(board), args.generator, args.coin_level)
        t0 = time.perf_counter()
        OptimalSolver(post, "coins").decide({})
        coin_times.append(time.perf_counter() - t0)
    ct = np.array(coin_times)
    print(
        f"optimal-coins openings, level {args.coin_level}, {ct.size} clue sets: median "
        f"{np.median(ct) * 1e3:.1f} ms, max {ct.max():.1f} s"
    )
    ratios = []
    for _ in range(args.twin_games):
        post = posterior_for(Clues.from_board(generate_board("hgss", 1, rng)[0]), "hgss", 1)
        t0 = time.perf_counter()
        a = OptimalSolver(post, "coins").decide({})
        t1 = time.perf_counter()
        b = OptimalSolver(post, "coins", python=True).decide({})
        t2 = time.perf_counter()
        assert a[0] == b[0] and abs(a[1] - b[1]) < 1e-9
        ratios.append((t2 - t1) / max(t1 - t0, 1e-9))
    print(
        f"optimal-coins Python twin / numba on {len(ratios)} level-1 clue sets: median "
        f"{np.median(ratios):.0f}x"
    )


if __name__ == "__main__":
    main()
