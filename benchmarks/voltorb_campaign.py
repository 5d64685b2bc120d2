"""The campaign-optimal policy of issue 26 item 3, chosen on one sample of deals and evaluated
on a fresh one (:mod:`gamelab.voltorb.campaign_study`): long-run coins per round and expected
rounds to reach level 8 from level 1, against always-win and always-coins play, with paired
bootstrap intervals over the evaluation deals.

    nice -n 19 python benchmarks/voltorb_campaign.py --choose 40 --evaluate 40 \\
        --store stores/vstats/campaign.sqlite [--json out.json] [--write]

``--write`` ships the summary as ``src/gamelab/voltorb/data/campaign_study.json`` (the report's
table; rerun the same command on the same store to write it again without computing).

Every block of deals is a ``core.parallel`` task in the results store: the same command with
more deals computes only the new blocks.
"""

from __future__ import annotations

import argparse
import os
import tempfile


def _counts(values: list[int]) -> tuple[int, ...]:
    return tuple(values) * 8 if len(values) == 1 else tuple(values)


def main() -> None:
    from gamelab.core.parallel import Backend
    from gamelab.core.results import ResultStore
    from gamelab.core.serialise import to_json
    from gamelab.voltorb.campaign_study import StudySettings, campaign_study

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--choose", type=int, nargs="+", default=[20], help="deals per level (A)")
    ap.add_argument("--evaluate", type=int, nargs="+", default=[20], help="deals per level (B)")
    ap.add_argument("--block", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=1)
    ap.add_argument("--state-limit", type=int, default=5_000_000)
    ap.add_argument("--search-limit", type=int, default=300_000)
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument(
        "--min-share",
        type=float,
        default=0.005,
        help="search only where the menu plays at least this share of its rounds",
    )
    ap.add_argument(
        "--store", default=os.path.join(tempfile.gettempdir(), "voltorb_campaign.sqlite")
    )
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", default=None)
    ap.add_argument(
        "--write",
        action="store_true",
        help="ship the summary as src/gamelab/voltorb/data/campaign_study.json (with the command)",
    )
    args = ap.parse_args()
    settings = StudySettings(
        _counts(args.choose),
        _counts(args.evaluate),
        args.block,
        args.seed,
        "hgss",
        args.state_limit,
        args.search_limit,
        args.iterations,
        args.bootstrap,
        args.min_share,
    )
    res = campaign_study(
        settings,
        Backend(workers=args.workers, quiet=True),
        ResultStore(args.store),
        progress=lambda line: print(line, flush=True),
    )
    print(f"deals dropped (baseline search past the state limit): {res['dropped']}")
    for goal, unit in (("gain", "coins per round"), ("rounds", "rounds to level 8")):
        g = res["goals"][goal]
        print(
            f"\n{goal}: {unit} on the evaluation sample; chosen on the other (steps there "
            f"{[round(x, 2) for x in g['steps_on_choose']]}, chosen step {g['chosen_step']}, "
            f"fallbacks {g['fallbacks_choose']} / {g['fallbacks_evaluate']} on B)"
        )
        print(
            "policy      value     95% bootstrap       - win (95%)              - coins (95%)"
            "             share of rounds at level 1..8 (%)"
        )
        for r in g["evaluate"]:
            diffs = "  ".join(
                f"{r[k][0]:+8.1f} [{r[k][1]:+.1f}, {r[k][2]:+.1f}]" if k in r else " " * 24
                for k in ("minus_win", "minus_coins")
            )
            share = " ".join(f"{100 * x:4.1f}" for x in r["level_share"])
            print(
                f"{r['policy']:9s} {r['value']:8.1f}   [{r['ci95'][0]:.1f}, {r['ci95'][1]:.1f}]"
                f"   {diffs}   {share}"
            )
    print(f"\n{res['seconds']:.0f} s wall")
    if args.json:
        with open(args.json, "w") as fh:
            fh.write(to_json(res))
    if args.write:
        import json
        import shlex
        import sys
        from pathlib import Path

        from gamelab.voltorb.campaign_study import STUDY_FILE

        keep = ("--write",)
        res["command"] = "python benchmarks/voltorb_campaign.py " + " ".join(
            # a file by its name, not this machine's path
            shlex.quote(Path(a).name if Path(a).is_absolute() else a)
            for a in sys.argv[1:]
            if a not in keep
        )
        res.pop("seconds", None)  # wall time of this run (mostly store reads on a rerun)
        path = Path(__file__).resolve().parent.parent / "src/gamelab/voltorb/data" / STUDY_FILE
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(json.loads(to_json(res)), indent=1) + "\n", "utf-8")
        tmp.replace(path)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
