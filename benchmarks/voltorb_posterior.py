"""Speed of the exact posterior: time per decision at level 8 on hgss (target: median <= 5 ms),
numba kernel vs its plain-Python twin measured side by side on the same states.

A "decision" = enumerate every board consistent with the clues and the tiles revealed so far,
weight them by the generator's prior and compute P(value) for every tile (a fresh computation,
not the incremental filtering used during play). States are taken from minrisk games.

    python benchmarks/voltorb_posterior.py [--games 100] [--level 8] [--generator hgss]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gamelab.voltorb.posterior import Posterior
from gamelab.voltorb.rules import Clues, Round, VoltorbSetting, generate_board
from gamelab.voltorb.strategies import minrisk_tile


def states(games: int, level: int, generator: str, seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(games):
        board, _ = generate_board(VoltorbSetting(level, generator), rng)
        rnd = Round(board)
        clues = Clues.from_board(board)
        while rnd.outcome is None:
            yield clues, dict(rnd.revealed)
            post = Posterior.from_clues(
                clues, VoltorbSetting(level, generator), rnd.revealed
            ).still_playing()
            rnd.flip(minrisk_tile(post))


def decide(clues, revealed, generator, level, python=False):
    post = Posterior.from_clues(
        clues, VoltorbSetting(level, generator), revealed, python=python
    ).still_playing()
    return post.tile_probabilities()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--level", type=int, default=8)
    ap.add_argument("--generator", default="hgss")
    ap.add_argument(
        "--twin-every", type=int, default=10, help="time the Python twin on every n-th state"
    )
    args = ap.parse_args()
    all_states = list(states(args.games, args.level, args.generator, seed=1))
    decide(*all_states[0], args.generator, args.level)  # compile / load the kernel
    fast, pairs = [], []
    for i, (clues, revealed) in enumerate(all_states):
        t0 = time.perf_counter()
        p_fast = decide(clues, revealed, args.generator, args.level)
        dt = time.perf_counter() - t0
        fast.append(dt)
        if i % args.twin_every == 0:
            t0 = time.perf_counter()
            p_py = decide(clues, revealed, args.generator, args.level, python=True)
            pairs.append((dt, time.perf_counter() - t0))
            assert np.allclose(p_fast, p_py)
    fast_ms = np.array(fast) * 1e3
    opening = np.array([f for f, (_, rev) in zip(fast, all_states, strict=True) if not rev]) * 1e3
    ratio = np.array([py / max(f, 1e-9) for f, py in pairs])
    print(
        f"{args.generator} level {args.level}: {len(fast)} decisions from {args.games} minrisk games"
    )
    print(
        f"numba posterior per decision: median {np.median(fast_ms):.2f} ms, "
        f"p90 {np.percentile(fast_ms, 90):.2f} ms, max {fast_ms.max():.1f} ms (target median <= 5 ms)"
    )
    print(
        f"  opening positions only (no tile revealed): median {np.median(opening):.2f} ms, "
        f"max {opening.max():.1f} ms"
    )
    print(
        f"plain-Python twin / numba on {len(pairs)} states: median ratio {np.median(ratio):.0f}x, "
        f"total {sum(p for _, p in pairs):.2f} s vs {sum(f for f, _ in pairs):.3f} s"
    )


if __name__ == "__main__":
    main()
