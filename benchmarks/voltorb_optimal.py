"""Speed of the exact optimal (P(win)) search per decision, against the page's 2 s / 1 GB budget,
side by side with an older solver on the same decisions.

A fixed, seeded sample of deals per level (`--deals`, issue 26 asks for 2,000; the task of deal i
of level L gets ``task_rng(seed, i)`` of that level's run, so every run sees the same boards). For
each deal the decisions are the opening and every position of the round played by MinRisk on the
true board (a fixed policy, so an older solver that breaks ties differently faces the same
positions). Each decision is solved from scratch, as the web page does (a fresh
``OptimalSolver(posterior).decide``), timed in CPU seconds (``time.process_time``), capped at
`--state-limit` states (a capped decision counts with its time so far and is reported). Memory:
the process's peak resident set after the deal (``ru_maxrss``), so a level's figure is the peak
over all its decisions so far in that process.

Per level it prints decisions, p50 / p99 / max seconds, how many are over 2 s, the peak memory,
and, with ``--baseline-src``, the same figures of the older solver (its ``src`` directory, e.g. a
scratch worktree of an older commit, run in a subprocess) with the ratio of total CPU time and a
check that every uncapped value agrees to 1e-9.

Resumable: each deal is one ``core.parallel`` task stored in the results store (experiment
``voltorb-optimal-speed``, keyed by the solver's tag, level, seed, state limit and the deal's
index, not by the number of deals), so running the same command again, or one with more deals,
skips finished deals (``--store PATH``; ``--no-store`` to
recompute). The full sample of the issue is ``--deals 2000``; a session can run part of it and a
later one resume.

    python benchmarks/voltorb_optimal.py [--levels 1-8] [--deals 10] [--seed 26]
        [--state-limit 2000000] [--baseline-src $TMPDIR/voltorb-baseline/src] [--workers 1]
        [--store PATH [--stored]]

``--stored`` prints the same figures for the deals of a run already in the store (the first
ones of each level, up to the first missing deal) and computes nothing: the state of a long run.

The baseline of issue 26 is main before the speed-ups:
    git worktree add --detach $TMPDIR/voltorb-baseline ad79911
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from gamelab.voltorb.rules import VoltorbSetting

GOAL_SECONDS = 2.0
GOAL_BYTES = 1 << 30
EXPERIMENT = "voltorb-optimal-speed"


def _levels(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",")]


def bench_deal(item, rng: np.random.Generator) -> dict:
    """Solve every decision of one deal: the opening and each position MinRisk reaches."""
    import resource
    import time

    from gamelab.voltorb.expectimax import OptimalSolver, SearchLimitError
    from gamelab.voltorb.posterior import posterior_for
    from gamelab.voltorb.rules import Round, generate_board
    from gamelab.voltorb.strategies import minrisk_tile

    level, generator, limit = item
    board, _ = generate_board(VoltorbSetting(level, generator), rng)
    rnd = Round(board)
    decisions = []
    while rnd.outcome is None:
        post = posterior_for(rnd.clues, VoltorbSetting(level, generator), dict(rnd.revealed))
        solver = OptimalSolver(post, state_limit=limit)
        t0 = time.process_time()
        try:
            _, value = solver.decide(dict(rnd.revealed))
        except SearchLimitError:
            value = None
        seconds = time.process_time() - t0
        decisions.append(
            {"boards": post.count, "seconds": seconds, "states": solver.nodes, "value": value}
        )
        rnd.flip(minrisk_tile(post))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"decisions": decisions, "peak_bytes": peak}


def stored(levels, deals, seed, generator, limit, tag, store_path) -> dict[int, list]:
    """The first deals of each level already in the store, in order, up to the first missing
    one (`--stored`: a summary of an unfinished run, computing nothing)."""
    from gamelab.core.results import ResultStore

    store = ResultStore(store_path)
    out = {}
    for level in levels:
        params = {"tag": tag, "level": level, "generator": generator, "state_limit": limit}
        done = store.finished(EXPERIMENT, {**params, "seed": seed * 100 + level}, deals)
        n = 0
        while n in done:
            n += 1
        if n:
            out[level] = [done[i] for i in range(n)]
    return out


def run(levels, deals, seed, generator, limit, tag, store_path, workers) -> dict[int, list]:
    from gamelab.core.parallel import Backend, run_tasks
    from gamelab.core.results import ResultStore

    store = ResultStore(store_path) if store_path != "none" else None
    out = {}
    # compile / load the kernels before timing anything
    bench_deal((1, generator, 1000), np.random.default_rng(0))
    for level in levels:
        # keyed without the number of deals: deal i of a level is the same task in every run
        # (task_rng(seed, i)), so a larger sample reuses the deals of a smaller one
        params = {"tag": tag, "level": level, "generator": generator, "state_limit": limit}
        out[level] = run_tasks(
            bench_deal,
            [(level, generator, limit)] * deals,
            seed=seed * 100 + level,
            backend=Backend(workers=workers, quiet=False),
            label=f"voltorb optimal speed {tag} L{level}",
            store=store,
            experiment=EXPERIMENT if store is not None else None,
            params=params,
        )
    return out


def _summary(results: list) -> dict:
    secs = np.array([d["seconds"] for r in results for d in r["decisions"]])
    capped = sum(d["value"] is None for r in results for d in r["decisions"])
    return {
        "decisions": int(secs.size),
        "p50": float(np.percentile(secs, 50)),
        "p99": float(np.percentile(secs, 99)),
        "max": float(secs.max()),
        "total": float(secs.sum()),
        "over": int((secs > GOAL_SECONDS).sum()),
        "capped": int(capped),
        "peak": max(r["peak_bytes"] for r in results),
        "states": max(d["states"] for r in results for d in r["decisions"]),
    }


def print_caps(got: dict[int, list], caps: list[int]) -> None:
    """What a page's state cap (``budget.STATES_PER_SECOND`` x its seconds) does on these
    decisions: per cap, the decisions past it (the page's fallbacks) per level and the most CPU
    seconds any decision within it took; and the search's states per CPU-second on the decisions
    of 10,000 states or more (percentiles): the figures ``STATES_PER_SECOND`` is set from."""
    decs = [(lv, d) for lv, res in got.items() for r in res for d in r["decisions"]]
    rate = np.array([d["states"] / d["seconds"] for _, d in decs if d["states"] >= 10_000])
    if rate.size:
        p1, p10, p50 = np.percentile(rate, [1, 10, 50])
        print(
            f"\nstates per CPU-second on the {rate.size} decisions of >= 10,000 states: "
            f"p1 {p1:,.0f}, p10 {p10:,.0f}, p50 {p50:,.0f}"
        )
    print("state cap  past it (levels " + ",".join(str(lv) for lv in got) + ")  max CPU s within")
    for cap in caps:
        past = [sum(d["states"] > cap for lv2, d in decs if lv2 == lv) for lv in got]
        within = [d["seconds"] for _, d in decs if d["states"] <= cap]
        print(f"{cap:9,d}  {sum(past):7d} {past}  {max(within, default=0.0):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="1-8")
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--generator", default="hgss")
    ap.add_argument("--state-limit", type=int, default=2_000_000)
    ap.add_argument("--baseline-src", default=None, help="src directory of the older solver")
    ap.add_argument("--tag", default="this", help="the solver's name in the results store")
    ap.add_argument("--store", default=None, help="results store path ('none' = do not store)")
    ap.add_argument("--no-store", action="store_true")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--stored",
        action="store_true",
        help="summarise the deals already in --store (the first ones of each level), compute none",
    )
    ap.add_argument(
        "--caps",
        default="",
        help="comma-separated state caps: the page's fallbacks and times under each (print_caps)",
    )
    ap.add_argument("--json-out", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    levels = _levels(args.levels)
    store_path = "none" if args.no_store else args.store
    if args.stored:
        if not store_path or store_path == "none":
            ap.error("--stored needs --store PATH")
        got = stored(
            levels, args.deals, args.seed, args.generator, args.state_limit, args.tag, store_path
        )
        print(
            f"{args.generator}, stored deals of run {args.tag!r} (seed {args.seed}, state limit "
            f"{args.state_limit:,}), CPU s; goal <= {GOAL_SECONDS:g} s and <= 1 GB"
        )
        print("level deals decisions   p50 s   p99 s   max s  >2s capped peak MB  max states")
        for level, res in got.items():
            sm = _summary(res)
            print(
                f"{level:5d} {len(res):5d} {sm['decisions']:9d} {sm['p50']:7.3f} {sm['p99']:7.2f} "
                f"{sm['max']:7.2f} {sm['over']:4d} {sm['capped']:6d} {sm['peak'] / 2**20:7.0f} "
                f"{sm['states']:11,d}"
            )
        if args.caps:
            print_caps(got, [int(c) for c in args.caps.split(",")])
        return
    if args.json_out:
        # the baseline subprocess: its src directory is first on sys.path (set by the parent)
        res = run(
            levels,
            args.deals,
            args.seed,
            args.generator,
            args.state_limit,
            args.tag,
            store_path,
            args.workers,
        )
        Path(args.json_out).write_text(json.dumps({str(k): v for k, v in res.items()}))
        return
    base = None
    if args.baseline_src:
        out = Path(os.environ.get("TMPDIR", "/tmp")) / f"voltorb_baseline_{os.getpid()}.json"
        env = dict(os.environ, PYTHONPATH=str(Path(args.baseline_src).resolve()))
        cmd = [sys.executable, __file__, "--levels", args.levels, "--deals", str(args.deals)]
        cmd += ["--seed", str(args.seed), "--generator", args.generator]
        cmd += ["--state-limit", str(args.state_limit), "--tag", "baseline"]
        cmd += ["--workers", str(args.workers), "--json-out", str(out)]
        if store_path:
            cmd += ["--store", store_path]
        subprocess.run(cmd, env=env, check=True)
        base = {int(k): v for k, v in json.loads(out.read_text()).items()}
        out.unlink()
    this = run(
        levels,
        args.deals,
        args.seed,
        args.generator,
        args.state_limit,
        args.tag,
        store_path,
        args.workers,
    )
    print(
        f"{args.generator}, {args.deals} deals per level (seed {args.seed}), every decision of "
        f"each (opening + MinRisk's positions) solved from scratch, CPU s; goal <= "
        f"{GOAL_SECONDS:g} s and <= 1 GB; state limit {args.state_limit:,}"
    )
    head = "level decisions   p50 s   p99 s   max s  >2s capped peak MB  max states"
    if base:
        head += " | baseline p50 s  max s  >2s capped peak MB | CPU ratio  values"
    print(head)
    for level in levels:
        s = _summary(this[level])
        line = (
            f"{level:5d} {s['decisions']:9d} {s['p50']:7.3f} {s['p99']:7.2f} {s['max']:7.2f} "
            f"{s['over']:4d} {s['capped']:6d} {s['peak'] / 2**20:7.0f} {s['states']:11,d}"
        )
        if base:
            b = _summary(base[level])
            agree = total = 0
            for r1, r2 in zip(this[level], base[level], strict=True):
                for d1, d2 in zip(r1["decisions"], r2["decisions"], strict=True):
                    if d1["value"] is not None and d2["value"] is not None:
                        total += 1
                        agree += abs(d1["value"] - d2["value"]) < 1e-9
            bound = ">=" if b["capped"] else "  "
            line += (
                f" | {b['p50']:14.3f} {b['max']:6.2f} {b['over']:4d} {b['capped']:6d} "
                f"{b['peak'] / 2**20:7.0f} | {bound}{b['total'] / s['total']:6.1f}x "
                f"{agree}/{total}"
            )
        print(line)
    if args.caps:
        print_caps(this, [int(c) for c in args.caps.split(",")])


if __name__ == "__main__":
    main()
