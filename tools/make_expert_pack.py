"""Regenerate the expert pack shipped in the package (gamelab/lattice/data/expert.json).

    nice -n 10 python tools/make_expert_pack.py [--seconds 60] [--seed 0]
    nice -n 10 python tools/make_expert_pack.py --recertify [--certify-seconds 60]

Each 2D benchmark S1-1 ... S1-11 is folded by gamelab's replica exchange (at most --seconds CPU
seconds each), its fold re-scored before it is written, and its best known value certified by
our upper bounds, the H-core certificate or, for S1-1 (20 residues), by exhaustive enumeration;
see docs/lattice.md. ``--recertify`` keeps the shipped folds and makes only the bounds and proofs
again (after a new certificate).
"""

import argparse
import json
import time
from pathlib import Path

from gamelab.lattice.expert import (
    build_expert_records,
    expert_pack_path,
    recertify_records,
    write_expert_pack,
)

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--certify-seconds", type=float, default=60.0)
    parser.add_argument("--recertify", action="store_true", help="keep the folds, redo proofs")
    parser.add_argument("--out", default=str(expert_pack_path()))
    args = parser.parse_args()
    t0 = time.perf_counter()
    if args.recertify:
        doc = json.loads(expert_pack_path().read_text())
        records = recertify_records(doc["levels"], args.certify_seconds)
        command = (
            f"{doc['command']}; then python tools/make_expert_pack.py --recertify "
            f"--certify-seconds {args.certify_seconds:g}"
        )
    else:
        records = build_expert_records(
            seconds=args.seconds, seed=args.seed, certify_seconds=args.certify_seconds
        )
        command = (
            f"python tools/make_expert_pack.py --seconds {args.seconds:g} --seed {args.seed} "
            f"--certify-seconds {args.certify_seconds:g}"
        )
    write_expert_pack(Path(args.out), records, command)
    for r in records:
        fold = "fold shipped" if r["solution"] else "no fold reached"
        print(
            f"{r['name']:6s} best known {r['best_known']:2d} bound {r['upper_bound']:2d} "
            f"proven by {r['proven_by']}; {fold}"
        )
    print(f"{len(records)} levels -> {args.out} in {time.perf_counter() - t0:.0f} s")
