"""The environments' leaderboard: baseline agents scored against the exact optimum.

A thin shell over :func:`gamelab.envs.baselines.leaderboard` (the agents, the episodes and the
measures are described there; `gamelab report` shows the same table): it prints the table as
Markdown, and with --markdown also writes it to a file. Episodes are kept in the results store
(``GAMELAB_RESULTS``), so a second run, or the report, reuses them; --no-store recomputes.

    nice -n 10 .venv/bin/python benchmarks/envs_baselines.py --episodes 40
"""

from __future__ import annotations

import argparse

from gamelab.core.parallel import Backend
from gamelab.core.report import markdown_table
from gamelab.core.results import ResultStore
from gamelab.envs.baselines import TABLE_COLUMNS, LeaderboardSetting, leaderboard, table_cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0, help="the agents' randomness")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--no-store", action="store_true")
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args()
    setting = LeaderboardSetting(episodes=args.episodes, seed=args.seed)
    store = None if args.no_store else ResultStore()
    board = leaderboard(setting, backend=Backend(workers=args.workers, quiet=True), store=store)
    text = markdown_table(TABLE_COLUMNS, [table_cells(row) for row in board.rows])
    text += (
        f"\n{setting.episodes} seeded episodes per row (episode k: `env.reset(seed=k)`); "
        f"{board.episodes_computed} played in this run in {board.seconds:.0f} s.\n"
    )
    outside = [
        f"{r.environment} {r.agent} {r.shares_outside}" for r in board.rows if r.shares_outside
    ]
    text += f"Episodes whose return share left 0-100: {', '.join(outside) or 'none'}.\n"

    print(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
