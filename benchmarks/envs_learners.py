"""Learners on the one-player environments: percent of optimal against training steps.

A thin shell over :func:`gamelab.envs.learners.learning_curves` (the learners, the training,
the evaluation and the store are described there) and :func:`gamelab.envs.baselines.leaderboard`
(the random, heuristic, strong and optimal rows on the same evaluation episodes): MaskablePPO
(sb3-contrib, no wrapper) on every environment, OpenSpiel's tabular Q-learner on the lattice.
MaskablePPO needs the ``rl`` extra (``pip install "gamelab[rl]"``). It prints the learning
curves (the score at each checkpoint, with its 95% interval over seeds x episodes, and each
seed's mean) and the learners' leaderboard; runs are kept in the results store
(``GAMELAB_RESULTS``), so a second run reads them back, and more seeds only train the new ones.

    nice -n 10 .venv/bin/python benchmarks/envs_learners.py --seeds 2 --checkpoints 0,4096,8192,16384

A results store lives on one machine. ``--export-json FILE`` writes the stored runs this command
reads (every training run and the baselines' episodes) to a JSON file, merged with the runs
already in it; ``--import-json FILE`` puts such a file's runs into the store first, so that the
command prints its tables without training (docs/envs-learners-runs.json is the committed copy
of the runs docs/envs.md quotes):

    .venv/bin/python benchmarks/envs_learners.py --import-json docs/envs-learners-runs.json
"""

from __future__ import annotations

import argparse
import os
import sys

from gamelab.core.parallel import Backend
from gamelab.core.report import markdown_table
from gamelab.core.results import ResultStore
from gamelab.core.stats import format_estimate
from gamelab.envs.baselines import ENVIRONMENT_NAMES, LeaderboardSetting, leaderboard
from gamelab.envs.learners import (
    LEARNER_ENVIRONMENTS,
    LEARNERS,
    LearnerSetting,
    import_runs,
    learners_table,
    learning_curves,
    runs_document,
    stored_curves,
    stored_runs,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=2, help="training seeds per environment")
    parser.add_argument(
        "--checkpoints",
        default="0,4096,8192,16384",
        help="environment steps at which to evaluate, comma-separated (the last is the budget)",
    )
    parser.add_argument("--episodes", type=int, default=40, help="evaluation episodes")
    parser.add_argument("--only", help="one environment (a name of the leaderboard)")
    parser.add_argument("--learner", choices=LEARNERS, help="one learner (default: both)")
    parser.add_argument(
        "--observation", default="default", help="MaskablePPO's observation option (docs/envs.md)"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--no-store", action="store_true")
    parser.add_argument("--markdown", help="also write the tables to this file")
    parser.add_argument("--plot", help="also draw the curves to this PNG file")
    parser.add_argument("--export-json", help="write the stored runs read to this file")
    parser.add_argument("--import-json", help="put this file's runs into the store first")
    args = parser.parse_args()
    try:
        checkpoints = tuple(int(c) for c in args.checkpoints.split(","))
        settings = [
            LearnerSetting(
                learner=learner,
                environments=(args.only,) if args.only else (),
                checkpoints=checkpoints,
                seeds=args.seeds,
                episodes=args.episodes,
                observation=args.observation,
            )
            for learner in ([args.learner] if args.learner else LEARNERS)
            if not args.only or args.only in LEARNER_ENVIRONMENTS[learner]
            if args.learner or args.observation == "default" or learner == "MaskablePPO"
        ]
        if not settings:
            raise ValueError(f"no learner trains on {args.only!r}")
        environments = tuple(
            n for n in ENVIRONMENT_NAMES if any(n in s.environments for s in settings)
        )
        baselines = LeaderboardSetting(episodes=args.episodes, environments=environments)
        if args.no_store and (args.import_json or args.export_json):
            raise ValueError("--import-json and --export-json need the results store")
        store = None if args.no_store else ResultStore()
        if args.import_json:
            with open(args.import_json, encoding="utf-8") as fh:
                imported = import_runs(fh.read(), store)
            print(f"{imported} stored runs imported from {args.import_json}", file=sys.stderr)
    except (ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    missing = [
        s
        for s in settings
        if store is None or stored_curves(s, store) is None
        if s.learner == "MaskablePPO"
    ]
    if missing:
        try:
            import sb3_contrib  # noqa: F401
        except ImportError:
            print(
                'error: MaskablePPO needs the rl extra: pip install "gamelab[rl]" '
                "(or --learner QLearner)",
                file=sys.stderr,
            )
            raise SystemExit(2) from None
    backend = Backend(workers=args.workers, quiet=True)
    all_curves = [learning_curves(s, backend=backend, store=store) for s in settings]
    board = leaderboard(baselines, backend=backend, store=store)
    text = ""
    for curves in all_curves:
        setting = curves.setting
        text += markdown_table(
            (
                "environment",
                "learner",
                "steps",
                "score % (95% CI)",
                "each seed's score %",
                "mean return",
            ),
            [
                [
                    p.environment,
                    setting.learner,
                    f"{p.steps:,}",
                    format_estimate(p.score, ".1f"),
                    ", ".join(f"{s:.1f}" for s in p.seed_scores),
                    f"{p.mean_return:.3f}",
                ]
                for p in curves.points
            ],
        )
        text += (
            f"\n{setting.learner} (observation {setting.observation!r}), {setting.seeds} seeds, "
            f"evaluated on episodes "
            f"0-{setting.episodes - 1} (greedy, masked); {curves.runs_computed} runs trained in "
            f"this call, {curves.seconds:.0f} s.\n\n"
        )
    columns, rows = learners_table(all_curves, board)
    text += markdown_table(columns, rows)
    print(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(text)
    if args.export_json:
        assert store is not None
        earlier = None
        try:
            with open(args.export_json, encoding="utf-8") as fh:
                earlier = fh.read()
        except FileNotFoundError:
            pass
        rows = stored_runs(settings, baselines, store)
        text = runs_document(rows, earlier)
        with open(args.export_json + ".tmp", "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(args.export_json + ".tmp", args.export_json)
        print(f"{len(rows)} stored runs written to {args.export_json}", file=sys.stderr)
    if args.plot:
        from gamelab.envs.report import curves_figure

        curves_figure(all_curves, board).savefig(args.plot, dpi=110)


if __name__ == "__main__":
    main()
