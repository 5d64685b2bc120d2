"""What one exact search of a deal leaves for the rest of its round (gamelab.voltorb.solved).

    nice -n 10 python benchmarks/voltorb_solved.py [--level 7 --seed 7] [--level 8 --seed 1005]

For a practice deal (level, seed) prints, side by side: the states the exact search needs from
the deal's start; the states a search of the position after its recommended flip needs alone
(a fresh solver of that position) and from the deal's solver after the first search (0 when the
first search solved it); the exact states the deal's table keeps and the size of the stored file
(written to a temporary cache folder, not the user's). Run it once first so numba's caches are
warm (the first run also compiles).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from gamelab.voltorb.rules import VoltorbSetting


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", type=int, default=7, help="practice level (1-8)")
    ap.add_argument("--seed", type=int, default=7, help="practice seed")
    args = ap.parse_args()
    try:
        report(args.level, args.seed)
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None


def report(level: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["GAMELAB_CACHE"] = folder
        from gamelab.voltorb import solved
        from gamelab.voltorb.assistant import playing_posterior
        from gamelab.voltorb.expectimax import OptimalSolver
        from gamelab.voltorb.practice import new_practice, play_practice
        from gamelab.voltorb.rules import clues_from_text

        deal = new_practice(VoltorbSetting(level), seed)
        clues = clues_from_text(deal.rows, deal.cols)
        solved.forget()
        solver = solved.deal_solver(clues, VoltorbSetting(level))
        t0 = time.process_time()
        tile, p = solved.decide(clues, VoltorbSetting(level), {})
        cpu = time.process_time() - t0
        first = solver.nodes
        print(
            f"level {level} seed {seed}: {solver.boards.shape[0]:,} boards; from the start "
            f"{first:,} states, {cpu:.2f} CPU-s, P(win) {p:.6f}, flip {tile}"
        )
        shown = play_practice(
            VoltorbSetting(level), seed, [[tile // 5 + 1, tile % 5 + 1]]
        ).revealed[0][2]
        if shown == 0:
            print("the recommended flip is a Voltorb: the round ends there")
        else:
            later = {tile: shown}
            alone = OptimalSolver(playing_posterior(clues, later, VoltorbSetting(level)))
            alone.decide(later)
            before = solver.nodes
            solved.decide(clues, VoltorbSetting(level), later)
            print(
                f"after the flip (it shows {shown}): alone {alone.nodes:,} states, from the "
                f"deal's solver {solver.nodes - before:,}"
            )
        codes, _, _ = solver.solved_states()
        path = solved.stored_path(clues, VoltorbSetting(level))
        size = f"{path.stat().st_size / 1e6:.1f} MB" if path.exists() else "not stored"
        print(f"exact states kept: {codes.size:,}; stored file: {size}")


if __name__ == "__main__":
    main()
