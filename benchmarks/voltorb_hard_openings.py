"""The hardest Voltorb openings we know, solved exactly: two source trees side by side, and one
search against the same search split across processes.

The corpus (:data:`CORPUS`) is the slowest tenth of the search's tail: the eight slowest of the
300 level-3 deals of ``benchmarks/envs_speed.py --tables openings`` (seeded 7; together they
take about 96 % of that table's time), the four slowest of 40 level-8 deals drawn the same way,
and issue 26's seed-1005 level-8 opening. Two tables:

* ``before_after``: each deal's opening solved by a fresh solver in each of two trees (``--before
  <old checkout>/src``, ``--after src``), each tree in its own worker process (its own numba and
  gamelab caches), the deals alternating between them; CPU seconds of the search (posterior
  included, as the regret oracle pays it), the states searched, and whether both trees give
  the same value to the last bit and the same tile (where several first flips tie exactly, the
  search recommends the first it proves, which depends on its order: another tile of the same
  value is still optimal). ``--objective`` solves them for another objective of
  ``gamelab voltorb solve`` (``coins``: the coin search; ``survive``, ``coins>=100``, ...: the
  general objective search), the win search by default. The corpus is hard for the win
  search; the coin search, with only its payout bound, needs far more memory on it (one process
  passed 5 GB on the first level-3 deal): time it with ``kernels_before_after.py --only
  voltorb.coin`` instead.
* ``split``: each deal's opening in a new process, once as one search (``solved.decide``) and
  once split across ``--processes`` worker processes (``solved.split_decide``: the first flips
  shared, a shared bound); wall seconds of each (the split's includes starting its workers and
  loading the deal in each), the CPU seconds of the one search, of the split's parent (the
  first tiles, merging the parts' memos) and of each part (the deal's posterior and its
  search), the ratio of the longest path (parent and longest part: what a machine with a free
  core per part waits for) to the one search's CPU, and whether tile and value agree to the
  last bit. A fresh gamelab cache each time, so no stored deal helps either side.

    nice -n 10 python benchmarks/voltorb_hard_openings.py --before <old>/src [--tables split]
        [--only level-8] [--processes 2] [--objective coins]

On a loaded machine the wall times of ``split`` say little (the parts wait for cores): read the
load average printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: (name, level, rows, cols): the hard openings measured
CORPUS: list[tuple[str, int, str, str]] = [
    ("level-3 deal 69", 3, "4,2 6,1 7,1 4,2 4,2", "5,2 5,1 6,2 4,2 5,1"),
    ("level-3 deal 211", 3, "8,1 5,1 4,2 4,2 4,2", "6,1 6,1 4,2 4,2 5,2"),
    ("level-3 deal 66", 3, "4,3 7,1 5,1 4,2 5,1", "4,2 6,1 7,1 4,2 4,2"),
    ("level-3 deal 292", 3, "5,2 5,1 6,1 4,2 5,2", "4,2 7,1 2,3 6,1 6,1"),
    ("level-3 deal 280", 3, "5,1 5,1 4,2 7,2 4,2", "6,1 5,2 4,2 6,1 4,2"),
    ("level-3 deal 68", 3, "5,2 5,1 4,3 6,1 5,1", "5,1 6,1 4,3 4,2 6,1"),
    ("level-3 deal 295", 3, "4,2 4,2 7,1 6,1 4,2", "5,1 5,1 6,1 6,2 3,3"),
    ("level-3 deal 277", 3, "6,1 5,1 6,1 4,2 3,3", "5,2 4,2 5,2 5,1 5,1"),
    ("level-8 deal 16", 8, "4,3 7,1 5,2 7,2 5,2", "5,2 4,2 4,2 7,2 8,2"),
    ("level-8 deal 9", 8, "7,2 4,2 7,2 4,3 6,1", "7,2 4,3 8,1 4,2 5,2"),
    ("level-8 deal 23", 8, "5,3 4,3 6,1 9,1 4,2", "6,2 6,2 4,3 6,1 6,2"),
    ("level-8 deal 0", 8, "6,2 4,3 5,2 7,1 6,2", "8,2 5,3 4,3 5,1 6,1"),
    ("level-8 seed 1005", 8, "5,2 8,1 5,3 7,1 3,3", "6,2 7,2 6,2 5,2 4,2"),
]

# ------------------------------------------------------------------------------ worker side


def _posterior(rows: str, cols: str, level: int):
    """The opening's posterior (hgss), in the tree's own words: typed settings, or (trees
    before them) the generator's name and the level."""
    from gamelab.voltorb import rules
    from gamelab.voltorb.posterior import posterior_for

    clues = rules.clues_from_text(rows, cols)
    if hasattr(rules, "VoltorbSetting"):
        return posterior_for(clues, rules.VoltorbSetting(level))
    return posterior_for(clues, "hgss", level)  # type: ignore[arg-type]


def _warm() -> None:
    """Load the search's kernels (a small solve), so no side times numba's loading."""
    from gamelab.voltorb.expectimax import OptimalSolver

    post = _posterior("5,1 5,2 3,2 7,1 5,2", "3,2 6,1 7,2 5,1 4,2", 3)
    OptimalSolver(post, "win").decide({})


def _solve(level: int, rows: str, cols: str, objective: str = "win") -> dict:
    """The opening by a fresh solver of a fresh posterior, as the regret oracle solves it (the
    win search; another `objective` as ``gamelab voltorb solve --objective`` solves it)."""
    from gamelab.voltorb.expectimax import OptimalSolver

    start = time.process_time()
    post = _posterior(rows, cols, level)
    if objective == "win":
        solver = OptimalSolver(post, "win")
        tile, value = solver.decide({})
        states = solver.nodes
    else:
        from gamelab.voltorb.objectives import Objective, objective_decision

        decision = objective_decision(post, {}, Objective.parse(objective), level)
        tile, value, states = decision.tile, decision.value, decision.states
    cpu = time.process_time() - start
    return {"tile": tile, "value": repr(value), "states": states, "cpu": cpu}


def worker() -> None:
    """Answer one JSON request per line on stdin: [level, rows, cols] -> the solve's figures."""
    _warm()
    print("ready", flush=True)
    for line in sys.stdin:
        level, rows, cols, objective = json.loads(line)
        print(json.dumps(_solve(level, rows, cols, objective)), flush=True)


def split_worker(level: int, rows: str, cols: str, processes: int) -> None:
    """One opening in this new process, one search (processes 0) or split: prints JSON."""
    from gamelab.voltorb import solved
    from gamelab.voltorb.rules import VoltorbSetting, clues_from_text

    _warm()
    clues = clues_from_text(rows, cols)
    wall, cpu = time.perf_counter(), time.process_time()
    if processes == 0:
        tile, value = solved.decide(clues, VoltorbSetting(level), {})
        parts: list = []
    else:
        tile, value = solved.split_decide(clues, VoltorbSetting(level), {}, processes)
        parts = list(solved.LAST_SPLIT)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    doc = {"tile": tile, "value": repr(value), "wall": wall, "cpu": cpu, "parts": parts}
    print(json.dumps(doc), flush=True)


# ------------------------------------------------------------------------------ parent side


def _start(tree: str, cache: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=tree, GAMELAB_CACHE=cache, NUMBA_NUM_THREADS="1")
    proc = subprocess.Popen(
        [sys.executable, __file__, "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if line != "ready":
        raise RuntimeError(f"the worker of {tree} did not start")
    return proc


def _ask(proc: subprocess.Popen, level: int, rows: str, cols: str, objective: str) -> dict:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps([level, rows, cols, objective]) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def before_after(before: str, after: str, deals: list, objective: str = "win") -> None:
    print(
        "| deal | before CPU s | after CPU s | after / before | states before | states after "
        "| same value | same tile |"
    )
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as c1, tempfile.TemporaryDirectory() as c2:
        procs = {"before": _start(before, c1), "after": _start(after, c2)}
        sums = {"before": 0.0, "after": 0.0}
        try:
            for i, (name, level, rows, cols) in enumerate(deals):
                sides = ["before", "after"] if i % 2 == 0 else ["after", "before"]
                got = {side: _ask(procs[side], level, rows, cols, objective) for side in sides}
                b, a = got["before"], got["after"]
                sums["before"] += b["cpu"]
                sums["after"] += a["cpu"]
                value = "yes" if b["value"] == a["value"] else "NO"
                tile = "yes" if b["tile"] == a["tile"] else f"{b['tile']} -> {a['tile']}"
                print(
                    f"| {name} | {b['cpu']:.2f} | {a['cpu']:.2f} | {a['cpu'] / b['cpu']:.2f} | "
                    f"{b['states']:,} | {a['states']:,} | {value} | {tile} |",
                    flush=True,
                )
        finally:
            for proc in procs.values():
                proc.kill()
        print(
            f"| all | {sums['before']:.2f} | {sums['after']:.2f} | "
            f"{sums['after'] / sums['before']:.2f} | | | | |"
        )


def _split_run(level: int, rows: str, cols: str, processes: int) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, GAMELAB_CACHE=cache, NUMBA_NUM_THREADS="1")
        args = [sys.executable, __file__, "--split-worker", str(level), rows, cols, str(processes)]
        out = subprocess.run(args, env=env, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"the split worker failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def split_table(deals: list, processes: int) -> None:
    print(
        f"| deal | 1 process: wall s | CPU s | {processes} processes: wall s | wall ratio | "
        "parent's CPU s | parts' CPU s | parts' states | longest path CPU ratio | "
        "same tile and value |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, level, rows, cols in deals:
        one = _split_run(level, rows, cols, 0)
        many = _split_run(level, rows, cols, processes)
        same = (one["tile"], one["value"]) == (many["tile"], many["value"])
        cpus = " + ".join(f"{p[2]:.1f}" for p in many["parts"]) or "(not split)"
        states = " + ".join(f"{p[1]:,}" for p in many["parts"]) or "-"
        # what a machine with a free core per part waits for: the parent and the longest part
        path = many["cpu"] + max((p[2] for p in many["parts"]), default=0.0)
        print(
            f"| {name} | {one['wall']:.2f} | {one['cpu']:.2f} | {many['wall']:.2f} | "
            f"{many['wall'] / one['wall']:.2f} | {many['cpu']:.2f} | {cpus} | {states} | "
            f"{path / one['cpu']:.2f} | {'yes' if same else 'NO'} |",
            flush=True,
        )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker()
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--split-worker":
        level, rows, cols, processes = sys.argv[2:6]
        split_worker(int(level), rows, cols, int(processes))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="the old tree's src folder (for the before_after table)")
    ap.add_argument("--after", default=str(Path(__file__).resolve().parents[1] / "src"))
    ap.add_argument("--tables", default="before_after,split")
    ap.add_argument("--only", help="only the deals whose name contains this text")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument(
        "--objective",
        default="win",
        help="the before_after table's objective (win, coins, survive, coins>=100, ...)",
    )
    args = ap.parse_args()
    deals = [d for d in CORPUS if not args.only or args.only in d[0]]
    print(f"load average before: {os.getloadavg()[0]:.1f}", flush=True)
    for table in args.tables.split(","):
        if table == "before_after":
            if not args.before:
                ap.error("the before_after table needs --before <old checkout>/src")
            before_after(args.before, args.after, deals, args.objective)
        elif table == "split":
            split_table(deals, args.processes)
        else:
            ap.error(f"unknown table {table!r}; allowed: before_after, split")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
