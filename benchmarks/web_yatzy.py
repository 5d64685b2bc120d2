"""Coach answers of the Yatzy page: latency through the web app, side by side with baselines.

    .venv/bin/python benchmarks/web_yatzy.py [--rules yatzy] [--positions 300] [--seed 0] [--url URL]

Starts ``gamelab serve`` (its own process, as a user runs it, one solver process; or uses the
server at ``--url``, e.g. ``http://127.0.0.1:8000``), waits until
the rule set's tables are loaded (``/api/yatzy/prepare``; a first build on a fresh cache is
timed and reported separately), then asks, interleaved in one loop over the same positions:

* ``/api/yatzy/game`` with ``coach: true``: what the page asks after every click (the whole
  game replayed from its moves, plus the coach's ranking);
* ``/api/yatzy/advise``: the assistant's answer for the same card, dice and rolls left;
* ``/api/health``: a trivial endpoint (the HTTP round trip alone);
* the library call :func:`gamelab.yatzy.coach.coach` in this process (no HTTP).

Positions come from seeded games played with random legal moves (every turn of the game,
every roll). Reports median / p90 / max in ms, the ratios of the medians and the machine's load
average before and after (the HTTP round trip alone grows with the load: run it on a quiet
machine); the goal is a median coach answer under 50 ms.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
from web_server import request, served


def positions(rules: str, count: int, seed: int) -> list[dict]:
    """Game states (rules, seed, moves) of random legal play, with the matching advise request."""
    from gamelab.yatzy.game import game_view
    from gamelab.yatzy.rules import get_rules

    rule_set = get_rules(rules)
    rng = np.random.default_rng(seed)
    out: list[dict] = []
    game_seed = int(seed)
    while len(out) < count:
        moves: list[str] = []
        while len(out) < count:
            v = game_view(rule_set, game_seed, moves)
            if v.finished:
                break
            dice = "".join(map(str, sorted(v.dice)))
            out.append(
                {
                    "game": {
                        "rules": rules,
                        "seed": game_seed,
                        "moves": list(moves),
                        "coach": True,
                    },
                    "advise": {
                        "rules": rules,
                        "card": v.you.card,
                        "dice": dice,
                        "rolls_left": v.rolls_left,
                    },
                }
            )
            # the boxes these dice may go in (under a forced joker, not every open box)
            open_boxes = [r.box for r in v.rows if r.would_score is not None]
            if v.rolls_left and rng.random() < 0.75:
                moves.append("hold " + "".join(rng.choice(["0", "1"], 5)))
            else:
                moves.append(f"box {open_boxes[int(rng.integers(len(open_boxes)))]}")
        game_seed += 1
    return out


def post(base: str, path: str, body: dict | None) -> tuple[float, dict]:
    """Milliseconds and answer of one request (GET when `body` is None); an error unless 200."""
    seconds, payload, status = request(base, path, body, timeout=120)
    if status != 200:
        raise RuntimeError(f"{path}: HTTP {status}")
    return 1000 * seconds, payload


def summary(name: str, ms: list[float]) -> str:
    a = np.array(ms)
    return (
        f"{name:<34} median {np.median(a):7.2f} ms   p90 {np.percentile(a, 90):7.2f}   "
        f"max {a.max():7.2f}   (n={len(a)})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="yatzy")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--url", default=None, help="a running gamelab serve (default: start one)")
    args = ap.parse_args()

    from gamelab.yatzy.coach import coach
    from gamelab.yatzy.rules import get_rules
    from gamelab.yatzy.tables import optimal_values, tables_status

    rule_set = get_rules(args.rules)

    print(
        f"tables of {args.rules} in this process: {tables_status(rule_set).message or 'loaded'}",
        file=sys.stderr,
    )
    E = optimal_values(rule_set)  # builds the disk cache on a fresh machine (the server loads it)
    states = positions(args.rules, args.positions, args.seed)
    first = states[0]["advise"]  # load the coach's kernels (numba cache) before timing them
    coach(rule_set, first["card"], first["dice"], first["rolls_left"], E)
    load_before = os.getloadavg()

    with served(args.url, "--workers", "1") as server:
        base = server.base
        deadline = time.monotonic() + 900  # a cold start compiles every page's kernels
        while True:
            try:
                post(base, "/api/health", None)
                break
            except OSError:
                if server.process is None and time.monotonic() > deadline - 840:
                    raise RuntimeError(f"no gamelab server answers at {base}") from None
                if server.stopped() or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start:\n" + server.said()) from None
                time.sleep(0.5)
        ms, status = post(base, "/api/yatzy/status", {"rules": args.rules})
        ms, status = post(base, "/api/yatzy/prepare", {"rules": args.rules})
        print(f"first /prepare (loads the tables into the server): {ms:.0f} ms", file=sys.stderr)
        times: dict[str, list[float]] = {"game": [], "advise": [], "health": [], "library": []}
        for state in states:
            ms, view = post(base, "/api/yatzy/game", state["game"])
            times["game"].append(ms)
            ms, advice = post(base, "/api/yatzy/advise", state["advise"])
            times["advise"].append(ms)
            assert advice["options"][0] == view["coach"]["options"][0]
            ms, _ = post(base, "/api/health", None)
            times["health"].append(ms)
            a = state["advise"]
            t0 = time.perf_counter()
            coach(rule_set, a["card"], a["dice"], a["rolls_left"], E)
            times["library"].append(1000 * (time.perf_counter() - t0))
    load_after = os.getloadavg()
    print(f"{args.rules}: {len(states)} positions from seeded random games (seed {args.seed})")
    print(
        f"load average (1, 5, 15 min) before {' '.join(f'{x:.2f}' for x in load_before)}, "
        f"after {' '.join(f'{x:.2f}' for x in load_after)} ({os.cpu_count()} cores)"
    )
    labels = {
        "game": "/api/yatzy/game (replay + coach)",
        "advise": "/api/yatzy/advise",
        "health": "/api/health (HTTP only)",
        "library": "coach() in process",
    }
    for key, label in labels.items():
        print(summary(label, times[key]))
    med = {k: float(np.median(v)) for k, v in times.items()}
    print(
        f"ratios of medians: game / health {med['game'] / med['health']:.2f}, advise / health "
        f"{med['advise'] / med['health']:.2f}, advise / library {med['advise'] / med['library']:.1f}"
    )
    goal = max(med["game"], med["advise"])
    print(
        f"goal: median coach answer under 50 ms: {'met' if goal < 50 else 'NOT met'} "
        f"({goal:.1f} ms)"
    )


if __name__ == "__main__":
    main()
