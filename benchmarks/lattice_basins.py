"""Where replica exchange stalls on a long 2D benchmark: the folds it ends in against a fold of the
best known value, compared by their HH contacts; and the mean contacts per temperature.

    nice -n 19 .venv/bin/python benchmarks/lattice_basins.py [--chain S1-10] [--seeds 1,3,5]
        [--seconds 15] [--temperatures 0.25,0.3,0.35,0.4,0.45,0.5,0.55,0.6,0.7]

Basins: for each seed, one replica set with the default settings runs for `--seconds` CPU s
(stopped at the best known value); its best fold is compared with the fold of the best known
value shipped in the expert pack (`gamelab.lattice.expert`): how many HH contacts (residue
pairs) the two share, and which H residues have no contact. Folds of the same basin share most
contacts; folds of different global shapes share few.

Then, per fold, how many of the move slots (`gamelab.lattice._replica_kernels`) are legal moves of
it, and how many of those keep or raise its contacts (how much of a step's draw is wasted).

Temperatures (``--temperatures``): one replica set over that ladder (seed 0) runs 2000 rounds of
500 steps to settle, then 400 x 20 rounds; printed per temperature: the mean and standard
deviation of the contacts of the replica there (how compact each temperature keeps the chain,
and how much neighbouring temperatures overlap for exchanges).
"""

from __future__ import annotations

import argparse

import numpy as np


def basins(chain: str, seeds: list[int], seconds: float) -> None:
    from gamelab.lattice.expert import load_expert_pack
    from gamelab.lattice.instances import get_benchmark
    from gamelab.lattice.replica import replica_fold
    from gamelab.lattice.rules import hh_contacts

    b = get_benchmark(chain)
    shipped = load_expert_pack().solutions.get(b.sequence)
    folds = {}
    if shipped is not None:
        folds[f"shipped ({b.best_known})"] = shipped
    for seed in seeds:
        run = replica_fold(b.sequence, "square", seed=seed, seconds=seconds, target=b.best_known)
        print(
            f"{chain} seed {seed}: {run.contacts} contacts (first at {run.seconds_to_best:.1f} "
            f"CPU s of {run.seconds:.1f})",
            flush=True,
        )
        folds[f"seed {seed} ({run.contacts})"] = run.conformation
    sets = {name: set(hh_contacts(b.sequence, conf)) for name, conf in folds.items()}
    h = [i for i, c in enumerate(b.sequence) if c == "H"]
    print(f"\n{chain}: {len(h)} H; HH contacts shared by two folds")
    names = list(sets)
    print(" " * 16 + "".join(f"{n:>16s}" for n in names))
    for a in names:
        print(f"{a:16s}" + "".join(f"{len(sets[a] & sets[x]):16d}" for x in names))
    for name, pairs in sets.items():
        touched = {i for pair in pairs for i in pair}
        print(f"{name}: H residues without a contact: {[i for i in h if i not in touched]}")
    slots(b.sequence, folds)


def slots(sequence: str, folds: dict[str, str]) -> None:
    """How many of the move slots are legal moves of each fold (pull, end pull and end moves;
    bond-rebridging), and how many of the legal ones keep or raise the contacts."""
    from gamelab.lattice._move_kernels import apply_move_kernel, move_slots, rebridge_slots
    from gamelab.lattice.replica import conformation_of
    from gamelab.lattice.rules import coordinates, hh_score

    n = len(sequence)
    total, extra = move_slots(n, 2), rebridge_slots(n, 2)
    print(f"\nlegal move slots of each fold ({total} pull / end slots, {extra} rebridging slots)")
    for name, conf in folds.items():
        pos = np.array(coordinates(conf), dtype=np.int64)
        score = hh_score(sequence, conf)
        legal, kept, bridges = 0, 0, 0
        for slot in range(total + extra):
            ok, new = apply_move_kernel(pos, 2, slot)
            if not ok:
                continue
            if slot >= total:
                bridges += 1
                continue
            legal += 1
            kept += hh_score(sequence, conformation_of(new, 2)) >= score
        print(
            f"{name}: {legal} legal pull / end moves ({kept} of them keep or raise the "
            f"contacts), {bridges} legal rebridging moves"
        )


def temperatures(chain: str, temps: list[float]) -> None:
    from gamelab.lattice._replica_kernels import remc_kernel
    from gamelab.lattice.instances import get_benchmark
    from gamelab.lattice.replica import new_state

    b = get_benchmark(chain)
    is_h = np.array([c == "H" for c in b.sequence], dtype=np.bool_)
    n, r = len(b.sequence), len(temps)
    ladder = np.array(temps)
    pos, grid = new_state(n, 2, r)
    contacts, rep_at = np.zeros(r, np.int64), np.arange(r, dtype=np.int64)
    state = np.array([np.random.default_rng(0).integers(0, 2**63)], np.uint64)
    best, best_pos, restart = np.zeros(1, np.int64), pos[0].copy(), np.zeros(5, np.int64)
    bias = np.zeros((r, n + 1))

    def rounds(k: int) -> None:
        remc_kernel(
            (is_h, 2, ladder, pos, grid, contacts, rep_at, state), k, 500, 10**9, best_pos, best,
            restart, (0.0, bias, 0.0, 0.0, 0.0, 2, 1.0),
        )  # fmt: skip

    rounds(2000)
    seen = []
    for _ in range(400):
        rounds(20)
        seen.append(contacts[rep_at].copy())
    a = np.array(seen, dtype=float)
    print(f"{chain}: contacts of the replica at each temperature ({r} replicas, phi 500)")
    for t, mean, sd in zip(temps, a.mean(axis=0), a.std(axis=0), strict=True):
        print(f"  T = {t:.2f}: mean {mean:.1f}, sd {sd:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chain", default="S1-10")
    parser.add_argument("--seeds", default="1,3,5")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--temperatures", default="")
    args = parser.parse_args()
    if args.temperatures:
        temperatures(args.chain, [float(t) for t in args.temperatures.split(",")])
    else:
        basins(args.chain, [int(s) for s in args.seeds.split(",")], args.seconds)


if __name__ == "__main__":
    main()
