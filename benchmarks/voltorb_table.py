"""The tight per-level table of issue 26 item 4: the optimal policy's P(win) per level within
+-0.3 pp (95 %), by two-phase sampling with the opening's inseparable-boards bound as control
(the design and its variance: ``gamelab.voltorb.optimal_table``), written to the package's
``data/optimal_table.json`` with ``--write``.

Per level: a first stage of `--control-blocks` blocks of `--control-block` deals (the bound
only) and `--gap-blocks` blocks of `--gap-block` deals (exact search and bound); from its
spreads and CPU cost per deal the sizes that reach `--margin` x `--target` (default 0.9) at least cost
(n1 / n2 = (s_X / s_D) sqrt(c2 / c1)); then rounds of 30 % more blocks of both phases until the
half-width is at most `--target`. Every block is a ``core.parallel`` task in the results store
(resumable: the same command computes only what is missing). `--direct N` (level 1: the check)
also solves N deals of a third stream exactly and prints their plain mean, to compare.

    nice -n 19 python benchmarks/voltorb_table.py --levels 1-8 \\
        --store stores/vstats/table.sqlite --write [--direct 20000]
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import tempfile
from pathlib import Path

TABLE = Path(__file__).resolve().parent.parent / "src" / "gamelab" / "voltorb" / "data"


def _as_typed(arg: str) -> str:
    """An argument as the recorded command shows it: a file by its name, not this machine's path."""
    return Path(arg).name if Path(arg).is_absolute() else arg


def _run(fn, item, blocks, level, phase, args, store):
    from gamelab.core.parallel import Backend, run_tasks
    from gamelab.voltorb.optimal_table import phase_seed

    params = {"level": level, "generator": args.generator, "item": list(item), "phase": phase}
    seed = phase_seed(args.seed, level, phase)
    if args.stored:  # the stored blocks 0, 1, ... up to the first missing one; nothing computed
        done = store.finished("voltorb-optimal-table-2phase", {**params, "seed": seed})
        prefix = []
        while len(prefix) in done:
            prefix.append(done[len(prefix)])
        if not prefix:
            raise SystemExit(f"--stored: no block of level {level} {phase} in the store")
        return prefix
    return run_tasks(
        fn,
        [item] * blocks,
        seed=seed,
        backend=Backend(workers=args.workers, quiet=True),
        label=f"voltorb table L{level} {phase}",
        store=store,
        experiment="voltorb-optimal-table-2phase",
        params=params,
    )


def main() -> None:
    from voltorb_optimal import _levels  # the same "1-8" / "1,3" level lists (this folder)

    from gamelab.core.results import ResultStore
    from gamelab.core.stats import mean_interval
    from gamelab.voltorb.optimal_table import (
        TABLE_FILE,
        control_block,
        gap_arrays,
        gap_block,
        level_estimate,
    )

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="1-8")
    ap.add_argument("--target", type=float, default=0.003, help="95 %% half-width")
    ap.add_argument("--control-blocks", type=int, default=8)
    ap.add_argument("--control-block", type=int, default=500)
    ap.add_argument("--gap-blocks", type=int, default=10)
    ap.add_argument("--gap-block", type=int, default=20)
    ap.add_argument("--margin", type=float, default=0.9, help="plan for margin x target")
    ap.add_argument("--rounds", type=int, default=4, help="extension rounds after the plan")
    ap.add_argument("--state-limit", type=int, default=20_000_000)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--generator", default="hgss")
    ap.add_argument("--direct", type=int, default=0, help="deals of the plain-mean check")
    ap.add_argument("--store", default=str(Path(tempfile.gettempdir()) / "voltorb_table.sqlite"))
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--write", action="store_true", help="write data/optimal_table.json")
    ap.add_argument(
        "--stored", action="store_true", help="use the blocks in the store only (no plan)"
    )
    args = ap.parse_args()
    store = ResultStore(args.store)
    citem = (0, args.generator, args.control_block)
    print(
        "level  estimate   95% interval        +- pp   n1 (bound)  n2 (exact)  capped  "
        "mean bound  mean gap  sd bound  sd gap  CPU-s",
        flush=True,
    )
    entries = []
    for level in _levels(args.levels):
        citem = (level, args.generator, args.control_block)
        gitem = (level, args.generator, args.gap_block, args.state_limit)
        nc, ng = args.control_blocks, args.gap_blocks
        control = _run(control_block, citem, nc, level, "control", args, store)
        gap = _run(gap_block, gitem, ng, level, "gap", args, store)
        est = level_estimate(control, gap)
        # the plan: least CPU for a variance of (0.9 target / 1.96)^2
        c1 = sum(b["cpu"] for b in control) / est["control"]["n"]
        c2 = sum(b["cpu"] for b in gap) / est["gap"]["n"]
        sx, sd = est["control"]["sd"], max(est["gap"]["sd"], 1e-6)
        var = (args.margin * args.target / 1.96) ** 2
        k = (sx * math.sqrt(c1) + sd * math.sqrt(c2)) / var
        nc = max(nc, math.ceil(k * sx / math.sqrt(c1) / args.control_block))
        ng = max(ng, math.ceil(k * sd / math.sqrt(c2) / args.gap_block))
        for _ in range(0 if args.stored else args.rounds + 1):
            control = _run(control_block, citem, nc, level, "control", args, store)
            gap = _run(gap_block, gitem, ng, level, "gap", args, store)
            est = level_estimate(control, gap)
            if est["half_width"] <= args.target:
                break
            nc, ng = math.ceil(1.3 * nc), math.ceil(1.3 * ng)
        if args.stored:
            nc, ng = len(control), len(gap)
        cpu = sum(b["cpu"] for b in control) + sum(b["cpu"] for b in gap)
        states = [s for b in gap for s in b["states"]]
        entry = {
            "level": level,
            **est,
            "blocks": {"control": [nc, args.control_block], "gap": [ng, args.gap_block]},
            "cpu_seconds": round(cpu, 1),
            "max_states": max(states),
            "complete": est["half_width"] <= args.target,
            "command": "python benchmarks/voltorb_table.py "
            + " ".join(
                shlex.quote(_as_typed(a)) for a in sys.argv[1:] if a not in ("--write", "--stored")
            ),
            "check": {
                "control_block_0_sum": control[0]["sum"],
                "gap_block_0_values": gap[0]["values"],
                "gap_block_0_bounds": gap[0]["bounds"],
            },
        }
        if args.direct and level == 1:
            nd = math.ceil(args.direct / args.gap_block)
            direct = _run(gap_block, gitem, nd, level, "direct", args, store)
            d_lo, d_hi, capped = gap_arrays(direct)
            vals = [v for b in direct for v in b["values"] if v is not None]
            m = mean_interval(vals)
            entry["direct"] = {"n": len(vals), "capped": int(capped.sum()), "mean": m.value}
            entry["direct"]["lo"], entry["direct"]["hi"] = m.lo, m.hi
            print(
                f"  L{level} direct check: plain mean of {len(vals):,} exact openings "
                f"{100 * m.value:.2f} % [{100 * m.lo:.2f}, {100 * m.hi:.2f}] "
                f"({int(capped.sum())} capped, left out)",
                flush=True,
            )
        entries.append(entry)
        g, c = est["gap"], est["control"]
        print(
            f"{level:5d}  {100 * est['estimate']:6.2f} %  [{100 * est['lo']:6.2f}, "
            f"{100 * est['hi']:6.2f}]  {100 * est['half_width']:5.2f}  {c['n']:11,d} "
            f"{g['n']:11,d} {g['capped']:7d}  {c['mean']:10.4f} {g['mean']:9.4f} "
            f"{c['sd']:9.4f} {g['sd']:7.4f} {cpu:6.0f}",
            flush=True,
        )
    if args.write:
        path = TABLE / TABLE_FILE
        old = json.loads(path.read_text("utf-8")) if path.exists() else {"levels": []}
        same = (old.get("seed"), old.get("generator"), old.get("state_limit")) == (
            args.seed,
            args.generator,
            args.state_limit,
        )
        keep = [
            e for e in old["levels"] if same and e["level"] not in {x["level"] for x in entries}
        ]
        doc = {
            "what": "the optimal policy's P(win) of a level's opening, mean over deals, "
            "two-phase difference estimator (gamelab.voltorb.optimal_table)",
            "generator": args.generator,
            "seed": args.seed,
            "state_limit": args.state_limit,
            "target_half_width": args.target,
            "command": "python benchmarks/voltorb_table.py "
            + " ".join(
                shlex.quote(_as_typed(a)) for a in sys.argv[1:] if a not in ("--write", "--stored")
            ),
            "levels": sorted(keep + entries, key=lambda e: e["level"]),
        }
        TABLE.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(doc, indent=1) + "\n", "utf-8")
        tmp.replace(path)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
