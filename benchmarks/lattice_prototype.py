"""A prototype kernel on the benchmark's protocol (issue 27): one chain, one replica
set per seed, a CPU budget per run, exactly as `benchmarks/lattice_fold.py` runs it.

    nice -n 5 python benchmarks/lattice_prototype.py benchmarks/lattice_prototypes/ahead.patch \\
        [--chain S1-11] [--seeds 0-9] [--seconds 60] [--revision HEAD] [--settings R,T_MIN,...]

The prototype is a unified diff of ``src/gamelab/lattice/_replica_kernels.py``, applied to that
file as of `--revision` (read with ``git show``, compiled without numba's disk cache; the loader
of benchmarks/lattice_kernel_speed.py); its ``remc_kernel`` replaces the library's for the runs,
which are then :func:`gamelab.lattice.fold.fold` with `--seeds` (a range a-b or a list), the
lattice's default settings (or `--settings`) and `--seconds` CPU seconds, the best known value as
the target. Printed per seed: the contacts, the CPU second the best known value was first seen,
the steps per replica; then the seeds that reached it and the rate of success per CPU second
(successes over the CPU seconds spent, the failures counting their whole budget: the estimate of
a constant hazard, which 10 seeds of the pass/fail count alone measure poorly). Nothing is
stored: a prototype is not the library's kernel, so its runs do not belong in the results store.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from lattice_kernel_speed import load_baseline

from gamelab.lattice import replica
from gamelab.lattice.fold import fold
from gamelab.lattice.instances import get_benchmark
from gamelab.lattice.replica import ReplicaSettings


def seed_list(text: str) -> list[int]:
    """Seeds from ``a-b`` (inclusive) or ``a,b,c``; ValueError otherwise."""
    try:
        if "-" in text:
            lo, hi = (int(v) for v in text.split("-"))
            return list(range(lo, hi + 1))
        return [int(v) for v in text.split(",")]
    except ValueError:
        raise ValueError(f"--seeds: a range a-b or a list a,b,c, got {text!r}") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("patch", type=Path, help="the prototype: a diff of _replica_kernels.py")
    parser.add_argument("--chain", default="S1-11")
    parser.add_argument("--seeds", default="0-9", help="a range a-b or a list a,b,c")
    parser.add_argument("--seconds", type=float, default=60.0, help="CPU budget of one run")
    parser.add_argument("--revision", default="HEAD", help="the kernel file the patch applies to")
    parser.add_argument("--settings", default=None, help=ReplicaSettings.FIELDS)
    args = parser.parse_args()
    try:  # bad input: one error line, exit 2
        b = get_benchmark(args.chain)
        seeds = seed_list(args.seeds)
        settings = ReplicaSettings.parse(args.settings) if args.settings else None
        if args.seconds <= 0:
            raise ValueError(f"--seconds must be positive, got {args.seconds:g}")
        kernels = load_baseline(args.revision, "replica_kernels_prototype", args.patch)
    except ValueError as e:
        parser.error(str(e))
    replica.remc_kernel = kernels.remc_kernel  # replica_fold looks it up at call time
    times: list[float] = []
    spent = 0.0
    for seed in seeds:
        r = fold(
            b.sequence,
            seed=seed,
            seconds=args.seconds,
            method="remc",
            exhaustive=False,
            certify=False,
            settings=settings,
        )
        reached = r.score >= b.best_known
        spent += r.seconds_to_best if reached else args.seconds
        if reached:
            times.append(r.seconds_to_best)
        at = f"@ {r.seconds_to_best:.1f} CPU s" if reached else "(not reached)"
        print(f"{b.name} seed {seed}: {r.score} {at}, {r.steps:,} steps per replica", flush=True)
    rate = len(times) / spent if spent else math.nan
    print(
        f"{args.patch.name}: {b.best_known} reached on {len(times)} of {len(seeds)} seeds within "
        f"{args.seconds:g} CPU s; {100 * rate:.2f} % per CPU s ({len(times)} in {spent:.0f} s)"
    )


if __name__ == "__main__":
    main()
