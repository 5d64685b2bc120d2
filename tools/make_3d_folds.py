"""Regenerate the 3D folds shipped in the package (gamelab/lattice/data/folds3d.json).

    nice -n 19 python tools/make_3d_folds.py [--seconds 60] [--seed 0] [--certify-seconds 20]
        [--only H48-1,H48-4]

Each Harvard 48-mer H48-1 ... H48-10 is folded by gamelab's replica exchange (one replica set,
`--seed`, at most `--seconds` CPU s, stopped at the best known value), its fold re-scored before
it is written, and its best known value certified by our bounds or the H-core certificate (at
most `--certify-seconds` CPU s); see docs/lattice.md. With `--only`, the other records of the
existing file are kept.
"""

import argparse
import json
import time
from pathlib import Path

from gamelab.lattice.folds3d import build_records, folds3d_path, write_folds3d

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--certify-seconds", type=float, default=20.0)
    parser.add_argument("--only", default="", help="comma-separated benchmark names")
    parser.add_argument("--out", default=str(folds3d_path()))
    args = parser.parse_args()
    t0 = time.perf_counter()
    only = [n for n in args.only.split(",") if n]
    records = build_records(
        seconds=args.seconds, seed=args.seed, certify_seconds=args.certify_seconds, only=only
    )
    out = Path(args.out)
    command = (
        f"python tools/make_3d_folds.py --seconds {args.seconds:g} --seed {args.seed} "
        f"--certify-seconds {args.certify_seconds:g}"
    )
    if only and out.exists():  # the other records kept, and the command that made them
        new = {r["name"]: r for r in records}
        doc = json.loads(out.read_text())
        records = [new.pop(r["name"], r) for r in doc["folds"]] + list(new.values())
        command = f"{doc['command']}; then {command} --only {','.join(only)}"
    write_folds3d(out, records, command)
    for r in records:
        proof = f"proven by {r['proven_by']}" if r["proven_by"] else "not proven"
        print(
            f"{r['name']:6s} {r['contacts']:2d} of best known {r['best_known']:2d} "
            f"(bound {r['upper_bound']:2d}, {proof}) at {r['cpu_seconds']:.1f} CPU s"
        )
    print(f"{len(records)} folds -> {args.out} in {time.perf_counter() - t0:.0f} s wall")
