"""Where a hard opening's proof is: each first tile's exact value against the optimum, and the
inseparable-boards ceilings of its children against their exact values.

The search proves the optimum by showing that no other first tile beats it; a tile is refuted at
once when the ceilings of its children (``pair_bound``, the greedy cover) sum to at most the
optimum, else its children are searched. This prints, per first tile (one of each symmetry class
of the clues), that sum, the tile's exact value (children solved exactly, one solver and memo for
all, tiles in index order), the states that took and, per child, its boards, ceiling and value.

    python benchmarks/voltorb_root_tiles.py
        [--rows "5,2 8,1 5,3 7,1 3,3" --cols "6,2 7,2 6,2 5,2 4,2" --level 8]
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    from gamelab.voltorb._bounds_kernels import pair_bound, symmetry_classes
    from gamelab.voltorb.assistant import position_posterior
    from gamelab.voltorb.expectimax import OptimalSolver, _clue_rows
    from gamelab.voltorb.rules import Position, VoltorbSetting

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="5,2 8,1 5,3 7,1 3,3")
    ap.add_argument("--cols", default="6,2 7,2 6,2 5,2 4,2")
    ap.add_argument("--level", type=int, default=8)
    args = ap.parse_args()
    post = position_posterior(Position.parse(args.rows, args.cols), VoltorbSetting(args.level))
    solver = OptimalSolver(post)
    idx, _, hm = solver.state_for({})
    total = float(solver.weights[idx].sum())
    rank = solver._rank  # the kernels' numbering (heaviest first), as pair_bound expects

    def ceiling(live: np.ndarray) -> float:
        return float(pair_bound(solver._bits, solver._weights, np.sort(rank[live]))) / total

    rep = symmetry_classes(_clue_rows(post.clues), np.int64(0))
    print(f"{idx.size:,} boards; ceiling of the opening {ceiling(idx):.4f}")
    for t in range(25):
        kids = list(solver.children(idx, hm, t))
        if rep[t] != t or not any(live.size for _, _, live, _ in kids):
            continue
        states0 = int(solver._counter[0])
        t0 = time.process_time()
        cover = value = 0.0
        parts = []
        for v, won_mass, live, _ in kids:
            cover += won_mass / total
            value += won_mass / total
            if live.size:
                c = ceiling(live)
                x = solver.decide({t: v})[1] * float(solver.weights[live].sum()) / total
                cover += c
                value += x
                parts.append(f"{v}: {live.size:,} boards {c:.4f} / {x:.4f}")
        print(
            f"tile {t:2d}: ceilings {cover:.4f} value {value:.4f} "
            f"({int(solver._counter[0]) - states0:,} states, {time.process_time() - t0:.1f} s) "
            f"| {'; '.join(parts)}",
            flush=True,
        )
    best_tile, best = solver.decide({})
    print(f"optimum {best:.4f} (tile {best_tile})")


if __name__ == "__main__":
    main()
