"""The pages' games before and after a refactoring: whole games as the Owaré and Yatzy pages
play them, timed in two source trees side by side.

    python benchmarks/pages_before_after.py --before /path/to/old/src [--after src] [--reps 5]
                                            [--only oware,yatzy] [--list]

Each workload plays one whole seeded game through the library calls a page makes, each call
replaying the game from its moves as the server does: Owaré's moves and the opponent's replies
(`play_move`, `engine_reply`: random replies, which leave the replay alone, and the engine at
depth 6), Yatzy's clicks (`game_view` with the coach after each, solo and against the optimal
bot, and with every decision valued as the review does). Each tree runs in its own worker
process (``PYTHONPATH=<tree>``, ``NUMBA_NUM_THREADS=1``, the same ``GAMELAB_CACHE`` for the
tables); the parent asks both for the same workloads alternately (the order flips every
repetition), each worker times its games in CPU seconds of its process, and the report gives
per workload the median seconds of each tree and the median and worst of the per-repetition
ratios after / before (1.00 = same speed). The first repetition (imports, tables, kernels) is
not counted. Both trees must give the same documents: each workload returns a checksum of
every answer (timings left out), and the parent compares them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from kernels_before_after import (  # the same worker protocol: a name in, a JSON line out
    ask,
    side_by_side,
)

# ------------------------------------------------------------------------------------ worker side

TIMING_FIELDS = {"nps", "seconds", "cpu_seconds", "elapsed"}


def _document(value) -> str:
    from gamelab.core.serialise import to_plain

    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in TIMING_FIELDS}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return json.dumps(strip(to_plain(value)), sort_keys=True)


def w_oware(opponent: str, games: int):
    def run() -> str:
        from gamelab.oware.game import engine_reply, game_view, play_move
        from gamelab.oware.match import parse_player
        from gamelab.oware.rules import ABAPA, START_TEXT

        digest = hashlib.sha256()
        spec = parse_player(opponent)
        for g in range(games):
            rng = np.random.default_rng(g)
            view = game_view(START_TEXT, ABAPA, [])
            while not view.over and len(view.moves) < 400:
                view = play_move(START_TEXT, ABAPA, view.moves, str(rng.choice(view.legal)))
                digest.update(_document(view).encode())
                if not view.over:
                    reply = engine_reply(START_TEXT, ABAPA, view.moves, spec, seed=g)
                    digest.update(_document(reply).encode())
                    view = reply.view
        return digest.hexdigest()[:16]

    return run


def w_yatzy(opponent: str, games: int, coach: bool, evaluate: bool = False):
    def run() -> str:
        from gamelab.yatzy.game import game_view
        from gamelab.yatzy.rules import get_rules

        rules = get_rules("yatzy")
        digest = hashlib.sha256()
        for g in range(games):
            rng = np.random.default_rng(g)
            moves: list[str] = []
            bots: list[list[str]] = []
            view = game_view(rules, g, moves, "-", opponent, bots, coach)
            while not view.finished:
                if view.rolls_left and rng.random() < 0.6:
                    move = "hold " + "".join(str(int(x)) for x in rng.integers(0, 2, 5))
                else:
                    move = "box " + str(rng.choice([r.box for r in view.rows if r.you is None]))
                moves.append(move)
                view = game_view(
                    rules, g, moves, "-", opponent, bots, coach, evaluate_moves=evaluate
                )
                bots = view.bot_moves
                digest.update(_document(view).encode())
        return digest.hexdigest()[:16]

    return run


WORKLOADS = {
    "oware: 2 games, page moves and random replies": w_oware("random", 2),
    "oware: 4 games, page moves and engine replies at depth 6": w_oware("engine:depth=6", 4),
    "yatzy: 2 solo games, the coach after every click": w_yatzy("none", 2, True),
    "yatzy: 2 games against the optimal bot": w_yatzy("optimal", 2, False),
    "yatzy: 1 game, every decision valued (the review's replay)": w_yatzy("none", 1, False, True),
}


def worker() -> None:
    """Answer workload names on stdin with {"cpu", "check"} on stdout."""
    for line in sys.stdin:
        name = line.strip()
        if not name:
            continue
        t0 = time.process_time()
        check = WORKLOADS[name]()
        print(json.dumps({"cpu": time.process_time() - t0, "check": check}), flush=True)


# ------------------------------------------------------------------------------------ parent side


def start(tree: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS="1")
    return subprocess.Popen(
        [sys.executable, __file__, "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def main() -> None:
    here = Path(__file__).resolve().parents[1] / "src"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="src folder of the baseline tree")
    ap.add_argument("--after", type=Path, default=here, help="src folder of the new tree")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated name prefixes (oware,yatzy)")
    ap.add_argument("--list", action="store_true")
    chosen = side_by_side(ap, list(WORKLOADS), worker)
    if chosen is None:
        return
    args, names = chosen
    procs = {
        side: start(tree.resolve())
        for side, tree in (("before", args.before), ("after", args.after))
    }
    times: dict[str, dict[str, list[float]]] = {n: {"before": [], "after": []} for n in names}
    checks: dict[str, dict[str, str]] = {}
    try:
        for rep in range(args.reps + 1):  # rep 0: imports, tables and kernels loaded
            for n in names:
                for side in ("before", "after") if rep % 2 else ("after", "before"):
                    ans = ask(procs[side], n)
                    checks.setdefault(n, {})[side] = ans["check"]
                    if rep:
                        times[n][side].append(ans["cpu"])
    finally:
        for p in procs.values():
            p.kill()
    print(f"{'workload':62} {'before s':>9} {'after s':>9} {'ratio':>6} {'worst':>6}  same")
    for n in names:
        b, a = times[n]["before"], times[n]["after"]
        ratios = [x / y for x, y in zip(a, b, strict=True)]
        same = "yes" if checks[n]["before"] == checks[n]["after"] else "NO"
        print(
            f"{n:62} {statistics.median(b):9.3f} {statistics.median(a):9.3f} "
            f"{statistics.median(ratios):6.2f} {max(ratios):6.2f}  {same}"
        )


if __name__ == "__main__":
    main()
