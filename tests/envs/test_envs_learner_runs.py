"""The learners' leaderboard from its committed runs (docs/envs-learners-runs.json, written by
``benchmarks/envs_learners.py --export-json``): imported into an empty results store, they give
the tables docs/envs.md quotes, row for row, without training (torch is not needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

from gamelab.core.report import markdown_table  # noqa: E402
from gamelab.core.results import ResultStore  # noqa: E402
from gamelab.core.stats import format_estimate  # noqa: E402
from gamelab.envs.baselines import LeaderboardSetting, leaderboard  # noqa: E402
from gamelab.envs.learners import (  # noqa: E402
    LearnerSetting,
    import_runs,
    learners_table,
    runs_document,
    stored_curves,
    stored_runs,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
RUNS = DOCS / "envs-learners-runs.json"


def test_the_committed_runs_give_the_documented_leaderboard(tmp_path):
    store = ResultStore(tmp_path / "results.sqlite")
    imported = import_runs(RUNS.read_text(encoding="utf-8"), store)
    settings = [LearnerSetting(), LearnerSetting(learner="QLearner")]
    curves = [stored_curves(s, store) for s in settings]
    assert all(c is not None for c in curves)  # every run is there: nothing to train
    board = leaderboard(LeaderboardSetting(episodes=40), store=store)
    assert board.episodes_computed == 0
    columns, rows = learners_table(curves, board)
    documented = (DOCS / "envs.md").read_text(encoding="utf-8")
    table = markdown_table(columns, rows)
    assert len(rows) == 21  # 4 agents x 4 environments, MaskablePPO x 4, the Q-learner
    for line in table.splitlines()[2:]:
        assert line in documented, line
    # the other two tables of docs/envs.md: a longer budget, a richer observation
    longer = LearnerSetting(
        environments=("LatticeFold HPHPPHHPHPPH",), checkpoints=(0, 16_384, 32_768, 65_536)
    )
    richer = LearnerSetting(environments=("VoltorbFlip level 3",), observation="lines")
    for setting, last in ((longer, "83.3 [83.3, 83.3]"), (richer, "46.5 [38.9, 54.1]")):
        curves_ = stored_curves(setting, store)
        assert curves_ is not None and format_estimate(curves_.points[-1].score, ".1f") == last
    # and an export of this store writes the same file again
    rows_again = stored_runs(settings, LeaderboardSetting(episodes=40), store)
    assert len(rows_again) < imported
    assert runs_document(rows_again, RUNS.read_text(encoding="utf-8")) == RUNS.read_text(
        encoding="utf-8"
    )


def test_a_document_of_something_else_is_refused(tmp_path):
    store = ResultStore(tmp_path / "results.sqlite")
    with pytest.raises(ValueError, match="not a runs document"):
        import_runs("[1, 2]", store)
    with pytest.raises(ValueError, match="not a runs document"):
        import_runs("{", store)
    bad = '{"format": "gamelab envs-learners runs 1", "runs": [{"experiment": "x", "params": {}, "task": 0, "value": 1}]}'
    with pytest.raises(ValueError, match="unknown experiment 'x'"):
        import_runs(bad, store)
    assert store.experiments() == []
