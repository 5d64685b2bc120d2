"""Pin the exact optimal values of sampled Voltorb Flip states (tests/voltorb/data/optimal_values.json).

Run once with a trusted solver (it was run with the earlier search, main at ad79911, before the
speed-ups of issue 26): the test `test_optimal_values_equal_the_pinned_reference` then checks that
every later search finds the same optimal P(win) (and optimal-coins value) on the same states.

    python benchmarks/voltorb_pin_optimal.py [--per-level 4] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from gamelab.voltorb.expectimax import OptimalSolver, SearchLimitError
from gamelab.voltorb.posterior import posterior_for
from gamelab.voltorb.rules import Clues, VoltorbSetting, generate_board

OUT = Path(__file__).resolve().parent.parent / "tests" / "voltorb" / "data" / "optimal_values.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-level", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--limit", type=int, default=20_000, help="skip states needing more states")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    states = []
    for level in range(1, 9):
        found = 0
        while found < args.per_level:
            board, _ = generate_board(VoltorbSetting(level), rng)
            clues = Clues.from_board(board)
            flat = board.reshape(-1)
            # the opening, or a position after 1-4 random non-Voltorb cards of the true board
            flips = int(rng.integers(0, 5))
            cards = np.flatnonzero(flat > 0)
            shown = {int(t): int(flat[t]) for t in rng.choice(cards, size=flips, replace=False)}
            if all(flat[t] < 2 or t in shown for t in range(25)):
                continue  # already won
            post = posterior_for(clues, VoltorbSetting(level), shown)
            try:
                win = OptimalSolver(post, state_limit=args.limit).decide(shown)[1]
                coins = OptimalSolver(post, "coins", state_limit=args.limit).decide(shown)[1]
            except SearchLimitError:
                continue
            rows, cols = clues.as_text()
            states.append(
                {
                    "level": level,
                    "rows": rows,
                    "cols": cols,
                    "revealed": {str(t): v for t, v in shown.items()},
                    "boards": post.count,
                    "win": win,
                    "coins": coins,
                }
            )
            found += 1
    OUT.write_text(json.dumps({"source": __doc__.splitlines()[2:4], "states": states}, indent=1))
    print(f"{len(states)} states -> {OUT}")


if __name__ == "__main__":
    main()
