"""Replica-exchange settings for the hardest standard HP benchmarks: a small study.

    nice -n 10 .venv/bin/python benchmarks/lattice_tune.py [--seeds 3] [--seconds 20]
        [--only S1-10,H48-1]
    nice -n 10 .venv/bin/python benchmarks/lattice_tune.py --restarts --only S1-10,S1-11
        [--seeds 12] [--seconds 20] [--budget 60] [--patience 1,2,3,4,6,8]

Settings (default mode): for each benchmark and each candidate
:class:`gamelab.lattice.replica.ReplicaSettings` (replica count, temperature ladder, steps between
exchanges), one replica set per seed runs for `--seconds` CPU seconds (one process, one core),
stopped at the best known value. Printed per setting: the best reached, how many seeds reached the
best known value and best known - 1, and each seed's final contacts with the CPU second it was
first seen. The candidates are the current default and variations of one knob at a time, so a
change can be read off.

Restarts (``--restarts``): each seed is one run of the default settings *without* restarts for
`--seconds` CPU s (stopped at the best known value), and its trace - the CPU second of each rise
of the best - is kept in the results store (``$GAMELAB_RESULTS``; resumable). A restart begins a
run afresh from the straight chain with a fresh random stream, so a run that restarts after P
CPU s without a new best is a sequence of independent fresh runs, each cut at its first pause of
P s: the script resamples the traces (bootstrap) to estimate, for each patience P, the chance of
reaching the best known value within `--budget` CPU s and the median CPU time to it. Epochs a
trace cannot decide (a pause still open when its run ended) are left out and counted. This picks
a patience; the benchmark (benchmarks/lattice_fold.py) then measures the chosen one for real.

Side by side at the full budget: ``benchmarks/lattice_fold.py --settings R,T_MIN,T_MAX,PHI,
PATIENCE`` runs other settings on the benchmark's own seeds and budget, each run stored (an earlier run compared restarts on and off that way, docs/experiments/lattice.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics

import numpy as np

CANDIDATES = {
    "square": [
        ("earlier 2 x 0.30-0.45", (2, 0.30, 0.45, 500)),
        ("default 2 x 0.25-0.40", (2, 0.25, 0.40, 500)),
        ("4 x 0.28-0.50", (4, 0.28, 0.50, 500)),
        ("6 x 0.25-0.60", (6, 0.25, 0.60, 500)),
    ],
    "cubic": [
        ("default 5 x 0.28-0.65", (5, 0.28, 0.65, 500)),
        ("3 x 0.30-0.55", (3, 0.30, 0.55, 500)),
        ("8 x 0.28-0.80", (8, 0.28, 0.80, 500)),
    ],
}


def settings_study(args: argparse.Namespace) -> None:
    from gamelab.lattice.instances import get_benchmark
    from gamelab.lattice.replica import ReplicaSettings, replica_fold

    for name in args.only.split(","):
        b = get_benchmark(name)
        print(f"{b.name} ({len(b.sequence)} residues, {b.lattice}, best known {b.best_known})")
        for label, (r, t0, t1, phi) in CANDIDATES[b.lattice]:
            s = ReplicaSettings(replicas=r, t_min=t0, t_max=t1, phi=phi)
            runs = []
            for seed in range(args.seeds):
                run = replica_fold(
                    b.sequence,
                    b.lattice,
                    seed=np.random.default_rng([seed, 1]),
                    settings=s,
                    target=b.best_known,
                    seconds=args.seconds,
                )
                runs.append((run.contacts, run.seconds_to_best))
            best = max(c for c, _ in runs)
            ok = sum(c >= b.best_known for c, _ in runs)
            near = sum(c >= b.best_known - 1 for c, _ in runs)
            print(
                f"  {label:24s} best {best:3d}  reached best {ok}/{len(runs)}, best-1 "
                f"{near}/{len(runs)}; contacts {[c for c, _ in runs]} first seen at CPU s "
                f"{[round(t, 1) for _, t in runs]}",
                flush=True,
            )


def _epoch(trace: dict, target: int, patience: float) -> tuple[float, bool] | None:
    """(CPU s spent, reached the target) of one fresh run cut at its first pause of `patience`
    CPU s, or None if the trace ended during an open pause."""
    last = 0.0
    for contacts, when in trace["improvements"]:
        if when - last >= patience:
            return last + patience, False
        last = when
        if contacts >= target:
            return when, True
    if last + patience <= trace["seconds"]:
        return last + patience, False
    return None


def restart_study(args: argparse.Namespace) -> None:
    from gamelab.core.results import ResultStore
    from gamelab.lattice.instances import get_benchmark
    from gamelab.lattice.replica import DEFAULT_SETTINGS, replica_fold

    store = ResultStore()
    rng = np.random.default_rng(0)
    patiences = [float(p) for p in args.patience.split(",")]
    for name in args.only.split(","):
        b = get_benchmark(name)
        s = dataclasses.replace(DEFAULT_SETTINGS[b.lattice], patience=0)  # no restarts
        params = {
            "chain": name,
            "seconds": args.seconds,
            "settings": [s.replicas, s.t_min, s.t_max, s.phi],
        }
        done = store.finished("benchmarks/lattice_tune.py traces", params, None)
        traces = []
        for seed in range(args.seeds):
            if seed not in done:
                run = replica_fold(
                    b.sequence,
                    b.lattice,
                    seed=np.random.default_rng([seed, 1]),
                    settings=s,
                    target=b.best_known,
                    seconds=args.seconds,
                )
                value = {"improvements": list(run.improvements), "seconds": run.seconds}
                done[seed] = store.put("benchmarks/lattice_tune.py traces", params, seed, value)
            traces.append(done[seed])
        reached = [
            t["improvements"][-1][1] for t in traces if t["improvements"][-1][0] >= b.best_known
        ]
        print(
            f"{name} (best known {b.best_known}): {len(traces)} runs of {args.seconds:g} CPU s "
            f"without restarts; {len(reached)} reached it, at CPU s {sorted(round(t, 1) for t in reached)}; "
            f"final bests {[t['improvements'][-1][0] for t in traces]}"
        )
        for patience in patiences:
            times, undecided = [], 0
            for _ in range(args.samples):
                spent, hit = 0.0, False
                while spent < args.budget and undecided < 100 * args.samples:
                    epoch = _epoch(traces[rng.integers(len(traces))], b.best_known, patience)
                    if epoch is None:
                        undecided += 1
                        continue
                    spent += epoch[0]
                    if epoch[1]:
                        hit = True
                        break
                times.append(spent if hit and spent <= args.budget else float("inf"))
            ok = sum(t < float("inf") for t in times) / len(times)
            median = statistics.median(times)
            med = f"{median:.1f}" if median < float("inf") else f"> {args.budget:g}"
            print(
                f"  patience {patience:4g} CPU s: reached within {args.budget:g} s in {ok:.0%} "
                f"of {args.samples} resampled runs, median CPU s {med} "
                f"({undecided} undecided epochs redrawn)",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--only", default="S1-10,S1-11,H48-1,H48-4")
    parser.add_argument("--restarts", action="store_true", help="the restart study (docstring)")
    parser.add_argument("--budget", type=float, default=60.0, help="CPU s of a restarted run")
    parser.add_argument("--patience", default="1,2,3,4,6,8", help="CPU s, comma-separated")
    parser.add_argument("--samples", type=int, default=4000, help="resampled runs per patience")
    args = parser.parse_args()
    (restart_study if args.restarts else settings_study)(args)


if __name__ == "__main__":
    main()
