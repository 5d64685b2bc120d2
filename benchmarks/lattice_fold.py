"""Lattice folding: the standard HP benchmarks (2D S1-1 ... S1-11, 3D H48-1 ... H48-10) by
replica-exchange Monte Carlo with pull moves, side by side with the earlier PERM on the same
budget; then the kernels' speed-up over their plain-Python twins.

    nice -n 10 .venv/bin/python benchmarks/lattice_fold.py [--seeds 3] [--seconds 10]
        [--perm-seeds 1] [--workers 2] [--only S1-7,H48-1] [--settings 2,0.25,0.4,500,0[,KICK[,END[,FLAT[,REBRIDGE[,EPOCH[,REGROW[,REGROW_MAX[,REGROW_BIAS]]]]]]]]]
        [--export-json docs/lattice-runs.json] [--import-json docs/lattice-runs.json]

Each run is one replica set (`gamelab.lattice.fold`, method ``remc``) or one PERM search
(method ``perm``) with a budget of `--seconds` CPU seconds on one core, stopped as soon as it
reaches the best known value. Per benchmark: the best found over the seeds, the success rate
(seeds reaching the best known value) and the median CPU time to reach it (a failed seed counts
as never: the median is "> budget" unless more than half succeed), for both methods; the upper
bound (best of free-face, matching and core, `gamelab.lattice.bounds`, then the H-core
certificate, `gamelab.lattice.threading`, within `--certify-seconds` CPU s) and whether it proves
the best known value optimal. Runs go through `core.parallel` (workers) and the results store
(``$GAMELAB_RESULTS``), each run under its own key (chain, method, budget, the method's settings
and revision; the seed is the task index), so an interrupted run resumes where it stopped, a
run with more seeds or other chains reuses the runs it shares with an earlier one, and a change
of the 2D settings recomputes the 2D runs only (`--no-store` to recompute everything).

`--settings R,T_MIN,T_MAX,PHI,PATIENCE[,KICK[,END[,FLAT[,REBRIDGE[,EPOCH[,REGROW[,REGROW_MAX[,REGROW_BIAS]]]]]]]]]` runs replica exchange with other
settings than the lattice's defaults (for a side-by-side study on the same seeds and budget; their
own store key; KICK > 0 restarts from the best fold so far perturbed by KICK steps,
`ReplicaSettings.kick`; END the share of steps drawn among the end moves,
`ReplicaSettings.end_share`; FLAT the flat-histogram penalty per step, `ReplicaSettings.flat`;
REBRIDGE the share of bond-rebridging moves, `ReplicaSettings.rebridge`; EPOCH the steps per
replica of each fresh attempt, `ReplicaSettings.epoch`; REGROW the share of fragment-regrowth
steps, REGROW_MAX their longest stretch and REGROW_BIAS the growth's inverse temperature as a
multiple of the replica's, `ReplicaSettings.regrow`, `regrow_max`, `regrow_bias`).
`--export-json FILE` writes every stored run of the chosen table (key and value) to a small JSON
file (merged with the runs already in it), `--import-json FILE` puts such a file's runs back into the store (the machine may be wiped
between sessions; docs/lattice-runs.json is the committed copy).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import tempfile
import time

import numpy as np


def run_one(item: tuple, rng: np.random.Generator) -> dict:
    """One benchmark run (a run_tasks task): plain JSON."""
    from gamelab.lattice.fold import fold
    from gamelab.lattice.instances import parse_chain
    from gamelab.lattice.replica import ReplicaSettings

    name, method, seed, seconds, *override = item
    settings = ReplicaSettings(*override[0]) if override and override[0] else None
    r = fold(
        parse_chain(name),
        seed=seed,
        seconds=seconds,
        method=method,
        exhaustive=False,
        certify=False,
        settings=settings,
    )
    return {
        "score": r.score,
        "cpu_to_best": r.seconds_to_best,
        "reached": r.known_optimum is not None and r.score >= r.known_optimum,
        # (the run's steps per replica and CPU s, so that the step rate of
        # runs at different loads can be compared; earlier stored runs lack them)
        "steps": r.steps,
        "cpu": r.cpu_seconds,
    }


EXPERIMENT = "benchmarks/lattice_fold.py runs"


def run_params(item: tuple) -> dict:
    """The results-store key of one benchmark's runs (the seed is the task index): the chain, the
    method, the budget and what the method's result depends on (replica exchange: the default
    settings of the chain's lattice and the kernel's revision; PERM: its revision), so a change
    of either recomputes exactly the runs it affects."""
    from gamelab.lattice.fold import PERM_REVISION
    from gamelab.lattice.instances import get_benchmark
    from gamelab.lattice.replica import DEFAULT_SETTINGS, REMC_REVISION, ReplicaSettings

    name, method, _, seconds, *override = item
    if method == "remc":
        s = DEFAULT_SETTINGS[get_benchmark(name).lattice]
        if override and override[0]:
            s = ReplicaSettings(*override[0])
        algorithm = [REMC_REVISION, s.replicas, s.t_min, s.t_max, s.phi]
        if s.patience:  # (runs without restarts keep the key they had before restarts existed)
            algorithm.append(s.patience)
        if s.kick:  # (likewise restarts from the straight chain)
            algorithm.append(s.kick)
        if s.end_share:  # (and uniform slots)
            algorithm.append({"end_share": s.end_share})
        if s.flat:  # (and runs without the flat-histogram penalty)
            algorithm.append({"flat": s.flat})
        if s.rebridge:  # (and pull moves only)
            algorithm.append({"rebridge": s.rebridge})
        if s.epoch:  # (and one attempt)
            algorithm.append({"epoch": s.epoch})
        if s.regrow:  # (and no fragment regrowth)
            grown = {"regrow": s.regrow, "regrow_max": s.regrow_max}
            if s.regrow_bias != 1.0:  # (and growth at the replica's temperature)
                grown["regrow_bias"] = s.regrow_bias
            algorithm.append(grown)
    else:
        algorithm = [PERM_REVISION]
    return {"chain": name, "method": method, "seconds": seconds, "algorithm": algorithm}


def _median_time(runs: list[dict], budget: float) -> str:
    times = sorted(r["cpu_to_best"] if r["reached"] else float("inf") for r in runs)
    m = statistics.median(times)
    return f"> {budget:g}" if m == float("inf") else f"{m:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="replica-exchange seeds per benchmark")
    parser.add_argument("--perm-seeds", type=int, default=1, help="PERM seeds per benchmark")
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU budget of one run")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated benchmark names")
    parser.add_argument("--no-store", action="store_true", help="recompute every run")
    parser.add_argument(
        "--certify-seconds",
        type=float,
        default=30.0,
        help="CPU budget of the H-core certificate per benchmark with a gap (0: none)",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="print the table from the runs already in the results store (no new runs)",
    )
    parser.add_argument(
        "--settings",
        default="",
        help="replica exchange with R,T_MIN,T_MAX,PHI,PATIENCE[,KICK[,END[,FLAT[,REBRIDGE[,EPOCH"
        "[,REGROW[,REGROW_MAX[,REGROW_BIAS]]]]]]]] instead of the defaults",
    )
    parser.add_argument("--export-json", default="", help="write the stored runs to this file")
    parser.add_argument("--import-json", default="", help="put this file's runs into the store")
    args = parser.parse_args()
    from gamelab.lattice.replica import ReplicaSettings

    override: tuple = ()
    if args.settings:
        try:
            override = dataclasses.astuple(ReplicaSettings.parse(args.settings))
        except ValueError as exc:
            parser.error(f"--settings {ReplicaSettings.FIELDS}: {exc}")
    os.environ.setdefault("GAMELAB_CACHE", tempfile.mkdtemp(prefix="lattice-bench-"))

    from gamelab.core.parallel import Backend, run_tasks
    from gamelab.core.results import ResultStore
    from gamelab.lattice.bounds import contact_bounds
    from gamelab.lattice.instances import STANDARD, get_benchmark
    from gamelab.lattice.threading import core_threading_bound

    chosen = [get_benchmark(n) for n in args.only.split(",")] if args.only else list(STANDARD)
    # seed by seed over the benchmarks (replica exchange first, then PERM), so that a run stopped
    # early (or resumed) has as many seeds of every benchmark as it could
    items = [
        (b.name, method, seed, args.seconds, override if method == "remc" else ())
        for seed in range(max(args.seeds, args.perm_seeds))
        for method, seeds in (("remc", args.seeds), ("perm", args.perm_seeds))
        if seed < seeds
        for b in chosen
    ]
    store = None if args.no_store else ResultStore()
    if args.import_json:
        if store is None:
            parser.error("--import-json writes to the results store")
        with open(args.import_json, encoding="utf-8") as f:
            rows = json.load(f)["runs"]
        for row in rows:
            store.put(EXPERIMENT, row["params"], row["seed"], row["value"])
        print(f"{len(rows)} runs imported from {args.import_json}")
    started = time.perf_counter()
    results: list[dict | None] = [None] * len(items)
    if store is not None:
        for k, item in enumerate(items):
            results[k] = store.finished(EXPERIMENT, run_params(item), None).get(item[2])
    pending = [k for k, r in enumerate(results) if r is None]
    if args.report_only and store is None:
        parser.error("--report-only reads the results store")
    if pending and not args.report_only:
        print(
            f"{len(items) - len(pending)} of {len(items)} runs already in the store; "
            f"running {len(pending)}",
            flush=True,
        )
        backend = Backend(workers=args.workers, quiet=True)
        for start in range(0, len(pending), args.workers):
            batch = pending[start : start + args.workers]
            values = run_tasks(run_one, [items[k] for k in batch], seed=0, backend=backend)
            for k, value in zip(batch, values, strict=True):
                if store is not None:
                    value = store.put(EXPERIMENT, run_params(items[k]), items[k][2], value)
                results[k] = value
                name, method, seed, *_ = items[k]
                print(
                    f"  {name} {method} seed {seed}: {value['score']} contacts"
                    + (
                        f", best known at {value['cpu_to_best']:.1f} CPU s"
                        if value["reached"]
                        else ""
                    ),
                    flush=True,
                )
    wall = time.perf_counter() - started
    if args.export_json:
        rows = [
            {"params": run_params(item), "seed": item[2], "value": res}
            for item, res in zip(items, results, strict=True)
            if res is not None
        ]
        if os.path.exists(args.export_json):  # merged with the runs already in the file
            with open(args.export_json, encoding="utf-8") as f:
                old = json.load(f)["runs"]
            ours = {(json.dumps(r["params"], sort_keys=True), r["seed"]) for r in rows}
            rows = [
                r for r in old if (json.dumps(r["params"], sort_keys=True), r["seed"]) not in ours
            ] + rows
        with open(args.export_json, "w", encoding="utf-8") as f:  # one run a line
            f.write(f'{{"experiment": {json.dumps(EXPERIMENT)}, "runs": [\n')
            f.write(",\n".join(json.dumps(row, sort_keys=True) for row in rows))
            f.write("\n]}\n")
        print(f"{len(rows)} stored runs written to {args.export_json}")
    by_key: dict[tuple[str, str], list[dict]] = {}
    for (name, method, *_), res in zip(items, results, strict=True):
        if res is not None:
            by_key.setdefault((name, method), []).append(res)
    missing = sum(r is None for r in results)

    print(
        f"budget: {args.seconds:g} CPU s per run; replica exchange {args.seeds} seeds, "
        f"PERM {args.perm_seeds}; {len(items) - missing} of {len(items)} runs done"
        + (f"; replica exchange settings {args.settings}" if override else "")
        + ("" if args.report_only else f" in {wall:.0f} s wall on {args.workers} workers")
    )
    head = (
        f"{'benchmark':9s} {'dim':3s} {'L':>3s} {'best':>4s} {'bound':>5s} {'proven':11s} | "
        f"{'REMC best':>9s} {'success':>7s} {'median s':>8s} | "
        f"{'PERM best':>9s} {'success':>7s} {'median s':>8s}"
    )
    print(head)
    print("-" * len(head))
    for b in chosen:
        bound = contact_bounds(b.sequence, b.lattice).upper
        how = "bound"
        if bound > b.best_known and args.certify_seconds > 0:
            cert = core_threading_bound(
                b.sequence, b.lattice, floor=b.best_known, seconds=args.certify_seconds
            )
            bound, how = cert.upper, "cores"
        cells = []
        for method in ("remc", "perm"):
            runs = by_key.get((b.name, method), [])
            if not runs:
                cells.append(f"{'-':>9s} {'-':>7s} {'-':>8s}")
                continue
            best = max(r["score"] for r in runs)
            ok = sum(r["reached"] for r in runs)
            cells.append(
                f"{best:9d} {f'{ok}/{len(runs)}':>7s} {_median_time(runs, args.seconds):>8s}"
            )  # seeds not run (an interrupted run, --report-only) are not counted
        proven = f"yes ({how})" if bound == b.best_known else f"gap {bound - b.best_known}"
        dim = "2D" if b.lattice == "square" else "3D"
        print(
            f"{b.name:9s} {dim:3s} {len(b.sequence):3d} {b.best_known:4d} {bound:5d} {proven:11s} | "
            + " | ".join(cells)
        )
    print(
        "best = best known HH contacts (Thachuk et al. 2007; Yue et al. 1995); bound = our upper "
        "bound (the bounds of gamelab.lattice.bounds, then the H-core certificate of "
        "gamelab.lattice.threading within --certify-seconds); proven = whether it equals the best known value; median s = median CPU seconds "
        "to reach the best known value"
    )
    if not args.report_only:
        _twin_speed()


def _twin_speed() -> None:
    from gamelab.lattice._replica_kernels import remc_kernel
    from gamelab.lattice._replica_twins import remc_python
    from gamelab.lattice.instances import get_benchmark
    from gamelab.lattice.replica import DEFAULT_SETTINGS, new_state

    square = DEFAULT_SETTINGS["square"]
    seq = get_benchmark("S1-4").sequence
    is_h = np.array([c == "H" for c in seq], dtype=np.bool_)
    temps = np.array([0.3, 0.45])
    timings = []
    for fn in (remc_kernel, remc_kernel, remc_python):
        pos, grid = new_state(len(seq), 2, 2)
        args = (np.zeros(2, np.int64), np.arange(2, dtype=np.int64), np.array([1], np.uint64))
        best, best_pos = np.zeros(1, np.int64), pos[0].copy()
        t = time.perf_counter()
        restart = np.zeros(5, np.int64)
        bias = np.zeros((2, len(seq) + 1))
        move_set = (0.0, bias, 0.0, 0.0, square.regrow, square.regrow_max, square.regrow_bias)
        replicas = (is_h, 2, temps, pos, grid, *args)
        fn(replicas, 20, 500, 999, best_pos, best, restart, move_set)
        timings.append((time.perf_counter() - t, int(best[0])))
    (fast, a), (slow, b) = timings[1], timings[2]
    assert a == b
    print(
        f"\nreplica exchange, 2 x 10,000 steps of S1-4: numba {fast * 1e3:.1f} ms vs Python "
        f"{slow * 1e3:.0f} ms -> {slow / fast:,.0f}x (same result: {a} contacts)"
    )


if __name__ == "__main__":
    main()
