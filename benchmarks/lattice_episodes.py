"""When does the cold replica sit near the best known value, and does it come back to the same
folds? (issue 27: whether a tabu on visited folds could help S1-11).

    nice -n 5 python benchmarks/lattice_episodes.py [--chain S1-11] [--seeds 2,6] [--seconds 30]
        [--every 20] [--floor 48] [--gap 0.5]

Each seed runs the lattice's default replica set (:data:`replica.DEFAULT_SETTINGS`, the seed's
stream as in ``gamelab lattice fold``: :func:`gamelab.core.parallel.task_rng` (seed, 0)) for
`--seconds` CPU seconds; every `--every` rounds it looks at the replica at the coldest
temperature and, if it has at least `--floor` contacts, records its set of HH contacts (residue
pairs: two folds with the same set are counted as one fold). Such samples less than `--gap` CPU
seconds apart form an *episode*. Printed per seed: the share of samples at or above the floor,
the distinct folds, and per episode its start, length, samples, distinct folds, how many of
them an earlier episode had already visited (a tabu on visited folds or contact sets could only
help if that count were large), and the most contacts sampled.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gamelab.core.parallel import task_rng
from gamelab.lattice._replica_kernels import remc_kernel
from gamelab.lattice.instances import get_benchmark
from gamelab.lattice.replica import DEFAULT_SETTINGS, conformation_of, new_state
from gamelab.lattice.rules import dimensions, hh_contacts


def watch(chain: str, seed: int, seconds: float, every: int, floor: int, gap: float) -> None:
    b = get_benchmark(chain)
    s = DEFAULT_SETTINGS[b.lattice]
    ndim = dimensions(b.lattice)
    n = len(b.sequence)
    is_h = np.array([c == "H" for c in b.sequence], dtype=np.bool_)
    temps = s.temperatures()
    pos, grid = new_state(n, ndim, s.replicas)
    contacts = np.zeros(s.replicas, dtype=np.int64)
    rep_at = np.arange(s.replicas, dtype=np.int64)
    state = np.array([task_rng(seed, 0).integers(0, 2**63, dtype=np.uint64)], dtype=np.uint64)
    best = np.zeros(1, dtype=np.int64)
    best_pos = pos[0].copy()
    restart = np.zeros(5, dtype=np.int64)
    bias = np.zeros((s.replicas, n + 1))

    def rounds(k: int) -> None:
        remc_kernel(
            (is_h, ndim, temps, pos, grid, contacts, rep_at, state), k, s.phi, 10**9, best_pos,
            best, restart,
            (s.end_share, bias, s.flat, s.rebridge, s.regrow, s.regrow_max, s.regrow_bias),
        )  # fmt: skip

    rounds(0)  # compile or load
    samples = high = 0
    folds: dict[frozenset, int] = {}  # fold -> the episode that first visited it
    episodes: list[dict] = []
    last_high = -1.0
    started = time.thread_time()
    while (now := time.thread_time() - started) < seconds:
        rounds(every)
        samples += 1
        cold = rep_at[0]
        if contacts[cold] < floor:
            continue
        high += 1
        if not episodes or now - last_high >= gap:
            episodes.append(
                {"start": now, "end": now, "samples": 0, "folds": set(), "seen": 0, "top": 0}
            )
        ep = episodes[-1]
        last_high = ep["end"] = now
        ep["samples"] += 1
        ep["top"] = max(ep["top"], int(contacts[cold]))
        fold = frozenset(hh_contacts(b.sequence, conformation_of(pos[cold], ndim), b.lattice))
        if fold not in ep["folds"]:
            ep["folds"].add(fold)
            if fold in folds:
                ep["seen"] += 1
            else:
                folds[fold] = len(episodes) - 1
    print(
        f"{chain} seed {seed}: best {int(best[0])} in {seconds:g} CPU s; {high} of {samples} "
        f"samples (every {every} rounds) at >= {floor} contacts; {len(folds)} distinct folds "
        "there; "
        f"{len(episodes)} episodes; folds an earlier episode had visited: "
        f"{sum(e['seen'] for e in episodes)}"
    )
    for k, e in enumerate(episodes):
        print(
            f"  episode {k}: {e['start']:6.2f}-{e['end']:6.2f} CPU s, {e['samples']} samples, "
            f"{len(e['folds'])} folds, {e['seen']} of them seen in an earlier episode, most "
            f"contacts sampled {e['top']}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chain", default="S1-11")
    parser.add_argument("--seeds", default="2,6")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--every", type=int, default=20, help="rounds between samples")
    parser.add_argument("--floor", type=int, default=48, help="contacts a sample must have")
    parser.add_argument("--gap", type=float, default=0.5, help="CPU s that end an episode")
    args = parser.parse_args()
    try:  # bad input: one error line, exit 2
        get_benchmark(args.chain)
        seeds = [int(v) for v in args.seeds.split(",")]
    except ValueError as e:
        parser.error(str(e))
    for seed in seeds:
        watch(args.chain, seed, args.seconds, args.every, args.floor, args.gap)


if __name__ == "__main__":
    main()
