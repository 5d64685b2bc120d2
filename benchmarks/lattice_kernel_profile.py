"""Where a replica-exchange step's time goes (issue 27, session 16): illegal slot draws, legal
moves rejected by Metropolis, accepted moves.

    nice -n 19 python benchmarks/lattice_kernel_profile.py [--chain S1-10] [--seed 0]
        [--warm 20000000] [--steps 20000000]

First the default replica set (:data:`replica.DEFAULT_SETTINGS`) runs `--warm` steps per
replica from the straight chain, so the replicas are compact (the folds a long run spends its
time in). Then, from the cold replica's fold (T = 0.25):

* the step mix: `--steps` Metropolis steps of the kernel's own `_try_move` at T = 0.25, each
  classed as an illegal slot, a legal move rejected, a legal move accepted (and the residues
  each legal move changes);
* the cost of each class, by timing loops over the same steps: the full step loop; the slot
  draws and proposals alone on the frozen fold, over its illegal slots and over its legal ones;
  the legal proposals applied and always reverted (a rejected move's cost) and applied and
  never reverted (an accepted one's, alternating two folds);

and prints the time per step split by class. CPU time of this thread (time.thread_time).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from gamelab.lattice import _replica_kernels as K
from gamelab.lattice.instances import get_benchmark
from gamelab.lattice.replica import DEFAULT_SETTINGS, new_state


def _geometry(n: int) -> tuple[int, int]:
    shift = 1
    while (1 << shift) <= n:
        shift += 1
    return (1 << shift) - 1, shift


@njit(cache=False)
def _classify(is_h, pos, grid, nd, beta, rng, steps, mask, shift, new, old, out, sizes):
    """`steps` Metropolis steps; out = [illegal, rejected, accepted], sizes = [moved residues of
    rejected, of accepted]."""
    n = is_h.shape[0]
    slots = K._slot_count(n, nd)
    nobias = np.zeros(0)
    for _ in range(steps):
        slot = K._below(rng, slots)
        lo, hi = K._propose(pos, grid, n, nd, slot, mask, shift, new)
        if lo < 0:
            out[0] += 1
            continue
        x0 = pos[lo, 0]
        y0 = pos[lo, 1]
        K._try_move(is_h, pos, grid, nd, slot, beta, rng, mask, shift, new, old, nobias, 0)
        moved = pos[lo, 0] != x0 or pos[lo, 1] != y0  # (every legal move moves residue lo)
        if moved:
            out[2] += 1
            sizes[1] += hi - lo + 1
        else:
            out[1] += 1
            sizes[0] += hi - lo + 1


@njit(cache=False)
def _full(is_h, pos, grid, nd, beta, rng, steps, mask, shift, new, old):
    n = is_h.shape[0]
    slots = K._slot_count(n, nd)
    nobias = np.zeros(0)
    total = 0
    for _ in range(steps):
        total += K._try_move(
            is_h, pos, grid, nd, K._below(rng, slots), beta, rng, mask, shift, new, old, nobias, 0
        )
    return total


@njit(cache=False)
def _stages(is_h, pos, grid, nd, rng, steps, mask, shift, new, old, stage):
    """`steps` uniformly drawn slots on the frozen fold, taken as far as `stage`: 0 the slot draw
    only, 1 and its proposal, 2 and for a legal move its contacts counted, applied, counted again
    and reverted (what a rejected move costs); the fold is unchanged at the end."""
    n = pos.shape[0]
    slots = K._slot_count(n, nd)
    total = 0
    for _ in range(steps):
        slot = K._below(rng, slots)
        if stage == 0:
            total += slot
            continue
        lo, hi = K._propose(pos, grid, n, nd, slot, mask, shift, new)
        if lo < 0 or stage == 1:
            total += lo
            continue
        before = K._range_contacts2(is_h, pos, grid, lo, hi, nd, mask, shift)
        K._place(pos, grid, lo, hi, False, mask, shift)
        for i in range(lo, hi + 1):
            for c in range(3):
                old[i, c] = pos[i, c]
                pos[i, c] = new[i, c]
        K._place(pos, grid, lo, hi, True, mask, shift)
        total += K._range_contacts2(is_h, pos, grid, lo, hi, nd, mask, shift) - before
        K._place(pos, grid, lo, hi, False, mask, shift)
        for i in range(lo, hi + 1):
            for c in range(3):
                pos[i, c] = old[i, c]
        K._place(pos, grid, lo, hi, True, mask, shift)
    return total


def _timed(fn) -> float:
    t = time.thread_time()
    fn()
    return time.thread_time() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chain", default="S1-10")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--warm", type=int, default=20_000_000, help="steps per replica")
    parser.add_argument("--steps", type=int, default=20_000_000)
    parser.add_argument("--snapshots", type=int, default=20)
    args = parser.parse_args()

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
    restart = np.zeros(5, dtype=np.int64)
    bias = np.zeros((s.replicas, n + 1))
    warm = _timed(
        lambda: K.remc_kernel(
            is_h,
            2,
            temps,
            pos,
            grid,
            contacts,
            rep_at,
            rng,
            args.warm // s.phi,
            s.phi,
            10**9,
            best_pos,
            best,
            restart,
            0.0,
            0.0 * bias,
            0.0,
            0.0,
        )  # fmt: skip
    )
    print(
        f"{args.chain}: warm-up {args.warm:,} steps per replica ({2 * args.warm / warm / 1e6:.2f} "
        f"M steps/CPU s in the kernel), contacts {contacts.tolist()}, best {int(best[0])}"
    )
    r = int(rep_at[0])
    mask, shift = _geometry(n)
    nd = 4
    beta = 1.0 / temps[0]
    new = np.zeros((n, 3), dtype=np.int64)
    old = np.zeros((n, 3), dtype=np.int64)
    slots = K.move_slots(n, 2)

    def frozen():
        return pos[r].copy(), grid[r].copy()

    # the step mix (compiles the helpers on a throw-away copy first)
    for steps in (10, args.steps):
        p, g = frozen()
        out = np.zeros(3, dtype=np.int64)
        sizes = np.zeros(2, dtype=np.int64)
        _classify(is_h, p, g, nd, beta, rng.copy(), steps, mask, shift, new, old, out, sizes)
    ill, rej, acc = (int(v) for v in out)
    total = ill + rej + acc
    print(
        f"step mix over {total:,} steps at T = {temps[0]}: illegal {ill / total:.1%}, legal "
        f"rejected {rej / total:.1%}, accepted {acc / total:.1%}; residues moved per legal move: "
        f"rejected {sizes[0] / max(rej, 1):.1f}, accepted {sizes[1] / max(acc, 1):.1f}"
    )

    # the cost of each stage, on `--snapshots` folds along the same cold trajectory
    p, g = frozen()
    walk = rng.copy()
    times = np.zeros(4)  # full steps, draw only, draw + propose, + apply/count/revert
    per = args.steps // args.snapshots
    legal_share = 0.0
    for k in range(args.snapshots + 1):
        t_full = _timed(lambda: _full(is_h, p, g, nd, beta, walk, per, mask, shift, new, old))
        t_stage = [
            _timed(
                lambda st=st: _stages(is_h, p, g, nd, rng.copy(), per, mask, shift, new, old, st)
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
    c_full, c_draw, c_prop, c_rej = times * ns
    print(
        f"frozen folds: {legal_share / args.snapshots:.1%} of the {slots} slots legal (mean of "
        f"{args.snapshots})"
    )
    print(f"full step (trajectory): {c_full:.1f} ns ({1e3 / c_full:.2f} M steps/CPU s)")
    print(f"  slot draw (splitmix64 + modulo): {c_draw:.1f} ns ({c_draw / c_full:.0%})")
    print(
        f"  proposal of the slot, legal or not: {c_prop - c_draw:.1f} ns ({(c_prop - c_draw) / c_full:.0%})"
    )
    print(
        f"  legal moves counted, applied, counted, reverted (all as if rejected): "
        f"{c_rej - c_prop:.1f} ns per step ({(c_rej - c_prop) / c_full:.0%})"
    )
    print(
        f"  the rest (Metropolis draws, accepted moves kept, bookkeeping): {c_full - c_rej:.1f} ns "
        f"({(c_full - c_rej) / c_full:.0%})"
    )


if __name__ == "__main__":
    main()
