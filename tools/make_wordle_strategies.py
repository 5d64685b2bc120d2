"""Build, check and ship the Wordle page's optimal strategies (gamelab/wordle/data/strategy-*.npz).

    python tools/make_wordle_strategies.py            # every missing shippable setting
    python tools/make_wordle_strategies.py gen1-4     # one list only
    python tools/make_wordle_strategies.py all:standard:game   # one setting (names:rule:hard)
    python tools/make_wordle_strategies.py --force daily       # rebuild even if shipped

Each table comes from the exact solver (``gamelab wordle strategy``: proven optimal within the
game's guess limit, else the build fails) and is replayed answer by answer with the rules' own
feedback (:func:`gamelab.wordle.solver.strategy.check_strategy`) before it is written. A table already
shipped is skipped unless ``--force``. Per setting it prints the total, worst case, the
distribution of guesses over the answers, and the CPU seconds of the solve (``process_time``:
what one core spent, whatever the machine's load).
"""

import sys
import time

from gamelab.core.cache import save_arrays
from gamelab.wordle.solver.strategy import (
    PRECOMPUTED,
    check_strategy,
    optimal_strategy,
    shipped_strategy_path,
)

OPEN: set[tuple[str, str, str | None]] = set()  # settings with no proven optimum (none now)
FIELDS = (
    "guess",
    "candidates",
    "total",
    "worst",
    "child_start",
    "child_count",
    "child_code",
    "child_node",
)


def distribution(table) -> dict[int, int]:
    """How many answers the table finds with 1, 2, ... guesses (from its tree)."""
    out: dict[int, int] = {}
    stack = [(0, 1)]
    while stack:
        node, depth = stack.pop()
        start, count = int(table.child_start[node]), int(table.child_count[node])
        below = sum(int(table.candidates[table.child_node[k]]) for k in range(start, start + count))
        found = int(table.candidates[node]) - below  # the answer that is this node's guess
        if found:
            out[depth] = out.get(depth, 0) + found
        stack.extend((int(table.child_node[k]), depth + 1) for k in range(start, start + count))
    return dict(sorted(out.items()))


if __name__ == "__main__":
    args = sys.argv[1:]
    force = "--force" in args
    only = {a for a in args if a != "--force"}
    for setting in PRECOMPUTED:
        names, rule, hard = setting.names, setting.rule, setting.hard
        spec = f"{names.name}:{rule}:{hard or 'normal'}"
        if (names.name, rule, hard) in OPEN or (
            only and names.name not in only and spec not in only
        ):
            continue
        path = shipped_strategy_path(setting)
        if path.is_file() and not force:
            continue
        t0, c0 = time.perf_counter(), time.process_time()
        table = optimal_strategy(setting)
        cpu = time.process_time() - c0
        total = check_strategy(table)
        dist = distribution(table)
        save_arrays(
            path,
            {f: getattr(table, f) for f in FIELDS},
            {"names": names.name, "rule": rule, "hard": hard, "total": total},
        )
        first = table.words.guesses[int(table.guess[0])]
        print(
            f"{names.name:10s} {rule:8s} {hard or 'normal':7s} total {total:5d} "
            f"(average {total / len(table.words.answers):.4f}) worst {int(table.worst[0])} "
            f"first {first} dist {' '.join(f'{k}:{v}' for k, v in dist.items())} "
            f"{len(table.guess):5d} nodes -> {path.name} "
            f"({cpu:.1f} s CPU, {time.perf_counter() - t0:.0f} s wall)",
            flush=True,
        )
