"""Regenerate the default level pack shipped in the package (gamelab/lattice/data/levels.db).

    python tools/make_default_pack.py            # lengths 10-20, 2 levels each, seed 0

The pack is the output of gamelab's own GA (best-then-rarity objective); see docs/lattice.md.
"""

import sys
import time

from gamelab.lattice.puzzle import build_default_pack, default_pack_path

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else str(default_pack_path())
    t0 = time.perf_counter()
    pack = build_default_pack(out)
    for lv in pack.levels:
        print(
            f"{lv.number:2d} L={lv.length:2d} {lv.sequence:22s} best {lv.best:2d} "
            f"3-star share {lv.best_share:.2e}"
        )
    print(f"{len(pack.levels)} levels -> {out} in {time.perf_counter() - t0:.0f} s")
