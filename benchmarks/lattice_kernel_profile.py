"""Where a replica-exchange step's time goes (issue 27): slot draws, proposals
(illegal slots and legal moves), the contacts of legal moves, accepted moves.

    nice -n 19 python benchmarks/lattice_kernel_profile.py [--chain S1-10] [--seed 0]
        [--warm 20000000] [--steps 10000000] [--snapshots 10] [--baseline REV]

First the default 2D replica set (:data:`replica.DEFAULT_SETTINGS`) runs `--warm` steps per
replica from the straight chain, so the replicas are compact (the folds a long run spends its
time in). Then, from the cold replica's fold (T = 0.25):

* the step mix: `--steps` Metropolis steps of the kernel's own step (:func:`kernel_step`: the
  move proposal and the Metropolis test, as the revision's replica kernel makes them) at T = 0.25,
  each classed as an illegal slot, a legal move rejected, a legal move accepted, with the
  residues each legal move changes;
* the cost of each stage, at `--snapshots` folds along that cold walk (between snapshots the
  walk goes on by the kernel's own steps, timed: the full step's cost): on each frozen fold, the
  same number of uniformly drawn slots taken only as far as (0) the draw, (1) and its proposal,
  (2) and, for a legal move, its contacts counted before, the move applied on the grid and
  positions, the contacts counted again and the move reverted (the earlier kernel's path of a
  rejected move). The differences split a step's time: draws, proposals, the legal moves'
  evaluation, and the rest (Metropolis draws, accepted moves, the kernel's own bookkeeping; for
  a kernel whose rejected moves cost less than stage 2, negative).

`--baseline REV` profiles the kernels module of a git revision instead (read with ``git show``,
compiled without numba's disk cache), e.g. ``--baseline e631701`` for the earlier kernel. CPU
time of this thread (time.thread_time).
"""

from __future__ import annotations

import argparse
import inspect
import time

import numpy as np
from lattice_kernel_speed import current, load_baseline, remc_call
from numba import njit

from gamelab.lattice.instances import get_benchmark
from gamelab.lattice.replica import DEFAULT_SETTINGS, new_state


def _geometry(n: int) -> tuple[int, int]:
    shift = 1
    while (1 << shift) <= n:
        shift += 1
    return (1 << shift) - 1, shift


def kernel_step(K):
    """Kernels module K's own Metropolis step (propose a slot, accept or not; the change in
    contacts) as ``step(is_h, pos, grid, nd, slot, beta, rng, mask, shift, new, old, bias,
    now)``, whatever the revision: ``_try_move`` took a scratch array ``old`` until the move
    step was split in two (``propose``, ``_metropolis``), which the replica kernel now inlines
    one by one, as this step does."""
    try_move = getattr(K, "_try_move", None)
    if try_move is not None and "old" in inspect.signature(try_move.py_func).parameters:
        return try_move
    propose, metropolis = K._propose, K._metropolis

    @njit(inline="always")
    def step(is_h, pos, grid, nd, slot, beta, rng, mask, shift, new, old, bias, now):
        lo, hi = propose(pos, grid, is_h.shape[0], nd, slot, mask, shift, new)
        if lo < 0:
            return 0
        return metropolis(is_h, pos, grid, nd, lo, hi, beta, rng, mask, shift, new, bias, now)

    return step


def make_loops(K):
    """The timing loops over kernels module K's own functions."""
    below, propose, try_move = K._below, K._propose, kernel_step(K)
    count, place = K._range_contacts2, K._place

    @njit
    def classify(is_h, pos, grid, nd, slots, beta, rng, steps, mask, shift, new, old, out, sizes):
        """`steps` Metropolis steps; out = [illegal, rejected, accepted], sizes = [moved residues
        of rejected, of accepted]."""
        n = is_h.shape[0]
        nobias = np.zeros(0)
        for _ in range(steps):
            slot = below(rng, slots)
            lo, hi = propose(pos, grid, n, nd, slot, mask, shift, new)
            if lo < 0:
                out[0] += 1
                continue
            x0 = pos[lo, 0]
            y0 = pos[lo, 1]
            try_move(is_h, pos, grid, nd, slot, beta, rng, mask, shift, new, old, nobias, 0)
            if pos[lo, 0] != x0 or pos[lo, 1] != y0:  # (every legal move moves residue lo)
                out[2] += 1
                sizes[1] += hi - lo + 1
            else:
                out[1] += 1
                sizes[0] += hi - lo + 1

    @njit
    def full(is_h, pos, grid, nd, slots, beta, rng, steps, mask, shift, new, old):
        nobias = np.zeros(0)
        total = 0
        for _ in range(steps):
            total += try_move(
                is_h, pos, grid, nd, below(rng, slots), beta, rng, mask, shift, new, old, nobias, 0
            )
        return total

    @njit
    def stages(is_h, pos, grid, nd, slots, rng, steps, mask, shift, new, old, stage):
        """`steps` uniformly drawn slots on the frozen fold, taken as far as `stage` (module
        docstring); the fold is unchanged at the end."""
        n = pos.shape[0]
        total = 0
        for _ in range(steps):
            slot = below(rng, slots)
            if stage == 0:
                total += slot
                continue
            lo, hi = propose(pos, grid, n, nd, slot, mask, shift, new)
            if lo < 0 or stage == 1:
                total += lo
                continue
            before = count(is_h, pos, grid, lo, hi, nd, mask, shift)
            place(pos, grid, lo, hi, False, mask, shift)
            for i in range(lo, hi + 1):
                for c in range(3):
                    old[i, c] = pos[i, c]
                    pos[i, c] = new[i, c]
            place(pos, grid, lo, hi, True, mask, shift)
            total += count(is_h, pos, grid, lo, hi, nd, mask, shift) - before
            place(pos, grid, lo, hi, False, mask, shift)
            for i in range(lo, hi + 1):
                for c in range(3):
                    pos[i, c] = old[i, c]
            place(pos, grid, lo, hi, True, mask, shift)
        return total

    return classify, full, stages


def _timed(fn) -> float:
    t = time.thread_time()
    fn()
    return time.thread_time() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chain", default="S1-10")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--warm", type=int, default=20_000_000, help="steps per replica")
    parser.add_argument("--steps", type=int, default=10_000_000)
    parser.add_argument("--snapshots", type=int, default=10)
    parser.add_argument("--baseline", default=None, help="git revision of the kernels to profile")
    args = parser.parse_args()
    K = load_baseline(args.baseline) if args.baseline else current
    classify, full, stages = make_loops(K)

    b = get_benchmark(args.chain)
    s = DEFAULT_SETTINGS["square"]
    n = len(b.sequence)
    is_h = np.array([c == "H" for c in b.sequence], dtype=np.bool_)
    temps = s.temperatures()
    pos, grid = new_state(n, 2, s.replicas)
    contacts = np.zeros(s.replicas, dtype=np.int64)
    rep_at = np.arange(s.replicas, dtype=np.int64)
    rng = np.array([np.random.default_rng(args.seed).integers(0, 2**63)], dtype=np.uint64)
    best = np.zeros(1, dtype=np.int64)
    best_pos = pos[0].copy()

    def warm(rounds: int) -> None:
        remc_call(
            K, (is_h, 2, temps, pos, grid, contacts, rep_at, rng), rounds, s.phi, 10**9, best_pos,
            best, np.zeros(5, dtype=np.int64), (0.0, np.zeros((s.replicas, n + 1)), 0.0, 0.0),
        )  # fmt: skip

    warm(0)  # compile
    t_warm = _timed(lambda: warm(args.warm // s.phi))
    print(
        f"{args.chain} ({args.baseline or 'current'} kernels): warm-up {args.warm:,} steps per "
        f"replica ({2 * args.warm / t_warm / 1e6:.2f} M steps/CPU s in the kernel), contacts "
        f"{contacts.tolist()}, best {int(best[0])}"
    )
    r = int(rep_at[0])
    mask, shift = _geometry(n)
    nd = 4
    beta = 1.0 / temps[0]
    new = np.zeros((n, 3), dtype=np.int64)
    old = np.zeros((n, 3), dtype=np.int64)
    slots = K.move_slots(n, 2)

    # the step mix (compiles on a few steps first)
    for steps in (10, args.steps):
        p, g = pos[r].copy(), grid[r].copy()
        out = np.zeros(3, dtype=np.int64)
        sizes = np.zeros(2, dtype=np.int64)
        classify(is_h, p, g, nd, slots, beta, rng.copy(), steps, mask, shift, new, old, out, sizes)
    ill, rej, acc = (int(v) for v in out)
    total = ill + rej + acc
    print(
        f"step mix over {total:,} steps at T = {temps[0]}: illegal {ill / total:.1%}, legal "
        f"rejected {rej / total:.1%}, accepted {acc / total:.1%}; residues moved per legal move: "
        f"rejected {sizes[0] / max(rej, 1):.1f}, accepted {sizes[1] / max(acc, 1):.1f}"
    )

    # the cost of each stage, on `--snapshots` folds along the same cold walk
    p, g = pos[r].copy(), grid[r].copy()
    walk = rng.copy()
    times = np.zeros(4)  # full steps, draw only, draw + propose, + evaluate and revert
    per = args.steps // args.snapshots
    legal_share = 0.0
    for k in range(args.snapshots + 1):
        t_full = _timed(lambda: full(is_h, p, g, nd, slots, beta, walk, per, mask, shift, new, old))
        t_stage = [
            _timed(
                lambda st=st: stages(
                    is_h, p, g, nd, slots, rng.copy(), per, mask, shift, new, old, st
                )
            )
            for st in range(3)
        ]
        if k == 0:  # the first round compiles
            continue
        times += [t_full, *t_stage]
        legal_share += (
            sum(K._propose(p, g, n, nd, t, mask, shift, new)[0] >= 0 for t in range(slots)) / slots
        )
    ns = 1e9 / (per * args.snapshots)
    c_full, c_draw, c_prop, c_eval = times * ns
    print(
        f"frozen folds: {legal_share / args.snapshots:.1%} of the {slots} slots legal (mean of "
        f"{args.snapshots})"
    )
    print(f"full step (the walk): {c_full:.1f} ns ({1e3 / c_full:.2f} M steps/CPU s)")
    parts = [
        ("slot draw (splitmix64 + modulo)", c_draw),
        ("proposal of the slot, legal or not", c_prop - c_draw),
        ("legal moves counted, applied, counted, reverted", c_eval - c_prop),
        ("the rest (Metropolis draws, accepted moves, the kernel's own step)", c_full - c_eval),
    ]
    for label, cost in parts:
        print(f"  {label}: {cost:.1f} ns per step ({cost / c_full:.0%})")


if __name__ == "__main__":
    main()
