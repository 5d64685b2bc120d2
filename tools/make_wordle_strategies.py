"""Build, check and ship the Wordle page's optimal strategies (gamelab/wordle/data/strategy-*.npz).

    python tools/make_wordle_strategies.py            # every shippable setting (minutes for `all`)
    python tools/make_wordle_strategies.py gen1-4     # one list only
    python tools/make_wordle_strategies.py all:standard:game   # one setting (names:rule:hard)

Each table comes from the exact solver (``gamelab wordle strategy``: proven optimal within the
game's guess limit, else the build fails) and is replayed answer by answer with the rules' own
feedback (:func:`gamelab.wordle.strategy.check_strategy`) before it is written.
"""

import sys
import time

from gamelab.core.cache import save_arrays
from gamelab.wordle.strategy import (
    PRECOMPUTED,
    check_strategy,
    optimal_strategy,
    shipped_strategy_path,
)

OPEN: set[tuple[str, str, str | None]] = set()  # settings with no proven optimum (none now)

if __name__ == "__main__":
    only = set(sys.argv[1:])
    for names, rule, hard in PRECOMPUTED:
        spec = f"{names}:{rule}:{hard or 'normal'}"
        if (names, rule, hard) in OPEN or (only and names not in only and spec not in only):
            continue
        t0 = time.perf_counter()
        table = optimal_strategy(names, rule, hard)
        total = check_strategy(table)
        path = shipped_strategy_path(names, rule, hard)
        fields = (
            "guess",
            "candidates",
            "total",
            "worst",
            "child_start",
            "child_count",
            "child_code",
            "child_node",
        )
        save_arrays(
            path,
            {f: getattr(table, f) for f in fields},
            {"names": names, "rule": rule, "hard": hard, "total": total},
        )
        print(
            f"{names:7s} {rule:8s} {hard or 'normal':7s} total {total:5d} worst "
            f"{int(table.worst[0])}  {len(table.guess):4d} nodes -> {path.name} "
            f"({time.perf_counter() - t0:.0f} s)"
        )
