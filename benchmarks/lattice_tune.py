"""Replica-exchange settings for the hardest standard HP benchmarks: a small study.

    nice -n 10 .venv/bin/python benchmarks/lattice_tune.py [--seeds 3] [--seconds 20]
        [--only S1-10,H48-1]

For each benchmark and each candidate :class:`gamelab.lattice.replica.ReplicaSettings` (replica
count, temperature ladder, steps between exchanges), one replica set per seed runs for
`--seconds` CPU seconds (one process, one core), stopped at the best known value. Printed per
setting: the best reached, how many seeds reached the best known value and best known - 1, and
each seed's final contacts with the CPU second it was first seen. The candidates are
the current default and variations of one knob at a time, so a change can be read off.
"""

from __future__ import annotations

import argparse

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--only", default="S1-10,S1-11,H48-1,H48-4")
    args = parser.parse_args()

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


if __name__ == "__main__":
    main()
