"""Population annealing on the 2D benchmarks, an arm tried for S1-11 (issue 27).

    nice -n 19 python benchmarks/lattice_population.py S1-11 [--members 100] [--temperatures 50]
        [--t-hot 0.7] [--t-cold 0.25] [--rounds 64] [--seeds 0,1,...,9] [--seconds 60]

Population annealing (Hukushima & Iba 2003; Machta, Phys. Rev. E 82:026704, 2010): `--members`
chains start straight; at each of `--temperatures` temperatures, linear in 1/T from `--t-hot`
down to `--t-cold`, the population is resampled by the Boltzmann weights of the step in 1/T
(systematic resampling, numpy generator of the seed), then every member makes `--rounds` x 500
pull-move Metropolis steps (the replica-exchange kernel, :func:`remc_kernel`, run with every
temperature equal, where an exchange changes nothing). Lineages in poor global folds should die
out early. A pass ends at `--t-cold`; passes repeat from straight chains until the chain's best
known value or `--seconds` CPU seconds. Printed per seed: the best contacts, the CPU second the
best known value was first seen (None: not within the budget), the passes completed.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gamelab.core.parallel import task_rng
from gamelab.lattice._replica_kernels import remc_kernel
from gamelab.lattice.instances import get_benchmark
from gamelab.lattice.replica import new_state

PHI = 500


def anneal(sequence: str, seed: int, args: argparse.Namespace, target: int):
    n = len(sequence)
    members = args.members
    is_h = np.array([c == "H" for c in sequence], dtype=np.bool_)
    rng = task_rng(seed, 0)
    state = np.array([rng.integers(0, 2**63, dtype=np.uint64)], dtype=np.uint64)
    best = np.zeros(1, dtype=np.int64)
    best_pos = np.zeros((n, 3), dtype=np.int64)
    started = time.thread_time()
    passes = 0
    while True:
        pos, grid = new_state(n, 2, members)
        contacts = np.zeros(members, dtype=np.int64)
        rep_at = np.arange(members, dtype=np.int64)
        betas = np.linspace(1 / args.t_hot, 1 / args.t_cold, args.temperatures)
        for k, beta in enumerate(betas):
            if k:
                w = np.exp((beta - betas[k - 1]) * (contacts - contacts.max()))
                u = (rng.random() + np.arange(members)) / members
                pick = np.minimum(np.searchsorted(np.cumsum(w / w.sum()), u), members - 1)
                pos, grid, contacts = pos[pick].copy(), grid[pick].copy(), contacts[pick].copy()
            remc_kernel(
                (is_h, 2, np.full(members, 1.0 / beta), pos, grid, contacts, rep_at, state),
                args.rounds, PHI, target, best_pos, best, np.zeros(5, dtype=np.int64),
                (0.0, np.zeros((members, n + 1)), 0.0, 0.0, 0.0, 2, 1.0),
            )  # fmt: skip
            spent = time.thread_time() - started
            if best[0] >= target:
                return int(best[0]), round(spent, 2), passes
            if spent > args.seconds:
                return int(best[0]), None, passes
        passes += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chain")
    parser.add_argument("--members", type=int, default=100)
    parser.add_argument("--temperatures", type=int, default=50)
    parser.add_argument("--t-hot", type=float, default=0.7)
    parser.add_argument("--t-cold", type=float, default=0.25)
    parser.add_argument("--rounds", type=int, default=64, help="rounds of 500 steps per member")
    parser.add_argument("--seeds", default="0,1,2,3,4,5,6,7,8,9")
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    b = get_benchmark(args.chain)
    reached = 0
    for seed in (int(s) for s in args.seeds.split(",")):
        best, at, passes = anneal(b.sequence, seed, args, b.best_known)
        reached += at is not None
        print(f"{b.name} seed {seed}: {best} contacts, best known at {at} CPU s, {passes} passes")
    print(f"reached {b.best_known}: {reached} of {len(args.seeds.split(','))}")


if __name__ == "__main__":
    main()
