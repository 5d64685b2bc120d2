"""The leaderboard in the library (gamelab.envs.baselines) and its report section."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("gymnasium")

from gamelab.core.parallel import Backend  # noqa: E402
from gamelab.core.report import Report, ReportContext  # noqa: E402
from gamelab.core.results import ResultStore  # noqa: E402
from gamelab.envs import baselines  # noqa: E402
from gamelab.envs import report as envs_report  # noqa: E402
from gamelab.envs.baselines import LeaderboardSetting, leaderboard  # noqa: E402

LATTICE = "LatticeFold HPHPPHHPHPPH"  # the cheapest oracle: a 12-residue chain


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"episodes": 1}, "episodes must be 2 to 100,000"),
        ({"episodes": 10**6}, "episodes must be 2 to 100,000"),
        ({"environments": ("Chess",)}, "unknown environment(s) 'Chess'; allowed: VoltorbFlip"),
        ({"agents": ("random", "genius")}, "unknown agent(s) 'genius'; allowed: random"),
        ({"agents": ()}, "unknown agent(s) (none given)"),
        ({"seed": -1}, "seed must be a non-negative integer"),
    ],
)
def test_bad_settings_say_what_is_allowed(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        LeaderboardSetting(**kwargs)


def test_the_optimum_scores_100_and_the_others_lose_and_the_store_resumes(tmp_path):
    setting = LeaderboardSetting(episodes=2, environments=(LATTICE,))
    with ResultStore(tmp_path / "r.sqlite") as store:
        board = leaderboard(setting, store=store)
        assert board.episodes_computed == 8
        rows = {r.agent: r for r in board.rows}
        assert list(rows) == list(baselines.AGENTS)
        optimal = rows["optimal"]
        assert optimal.percent_of_optimal.value == 100.0
        assert optimal.regret_per_decision.value == optimal.loss_per_episode == 0.0
        # the chain folds in 11 moves whatever the agent; random folds lose contacts
        assert {r.decisions_per_episode for r in board.rows} == {11.0}
        assert rows["random"].loss_per_episode > 0
        assert rows["random"].percent_of_optimal.value < 100
        assert rows["strong"].plays_as == "heuristic"
        assert rows["strong"].percent_of_optimal == rows["heuristic"].percent_of_optimal
        assert rows["random"].regret_per_decision.value == pytest.approx(
            rows["random"].loss_per_episode / 11
        )
        assert rows["random"].regret_per_decision.lo >= 0
        for row in board.rows:  # every interval inside its natural bounds
            assert_inside_bounds(row, baselines.ENVIRONMENTS[3])
        # the same run again comes from the store
        again = leaderboard(setting, store=store)
        assert again.episodes_computed == 0 and again.rows == board.rows
    # an episode depends on its own item only (not on the run): replayed alone, it is the same
    with ResultStore(tmp_path / "r.sqlite") as store:
        stored = store.finished(baselines.EXPERIMENT, baselines.run_params(setting), 8)
    assert baselines.play_episode((LATTICE, "random", 1, 0)) == stored[1]
    assert baselines.play_episode((LATTICE, "strong", 1, 0)) == stored[5]  # agents in order


def assert_inside_bounds(row, environment, highest=None):
    for est, lo, hi in (
        (row.percent_of_optimal, 0.0, 100.0),
        (row.return_share, 0.0, 100.0),
        (row.mean_return, environment.lowest_return, highest),
        (row.regret_per_decision, 0.0, None),
    ):
        assert lo <= est.lo <= est.hi and (hi is None or est.hi <= hi), (est, lo, hi)


@pytest.mark.parametrize("name", baselines.ENVIRONMENT_NAMES)
def test_intervals_stay_inside_their_bounds_at_the_extremes(name):
    """Few episodes at the edges, where a t interval leaves the range (the issue's case: a
    0/1 return's interval [-0.08, 1.28], a percent's [72.8, 110.9])."""
    environment = {e.name: e for e in baselines.ENVIRONMENTS}[name]
    low, high = environment.lowest_return, 1.0 if environment.binary_return else 9.0
    for returns, percents, shares in (
        ([low, high, high], [100.0, 100.0, 40.0], [-300.0, 150.0, 110.0]),
        ([high, high], [100.0, 0.0], [500.0, 100.0]),
        ([low] * 40, [0.0] * 39 + [100.0], [-679.0] + [5.0] * 39),
        ([high] * 3, [100.0] * 3, [120.0] * 3),  # a share's interval wholly above 100
    ):
        results = [
            {"return": r, "percent": p, "return_share": sh, "loss": 0.1, "decisions": 1}
            for r, p, sh in zip(returns, percents, shares, strict=True)
        ]
        row = baselines._row(environment, "random", results)
        assert_inside_bounds(row, environment, high)
    if environment.binary_return:
        with pytest.raises(ValueError, match="returns must be 0 or 1"):
            baselines.return_interval(environment, [0.5, 1.0])


def test_report_section_shows_the_leaderboard_and_the_quick_report_leaves_it_out(
    tmp_path, monkeypatch
):
    report = Report(tmp_path / "out", title="t")
    with ResultStore(tmp_path / "r.sqlite") as store:
        quick = report.section("envs-quick", envs_report.TITLE)
        envs_report.build(quick, ReportContext(True, 0, Backend(workers=1, quiet=True), store))
        assert quick.headline.startswith("in the full report")
        assert quick.status == "not computed in the quick report" and not quick.computed
        assert "tables" not in quick.data
        monkeypatch.setattr(
            envs_report,
            "setting_of",
            lambda ctx: LeaderboardSetting(episodes=2, environments=(LATTICE,), seed=ctx.seed),
        )
        section = report.section("envs", envs_report.TITLE)
        envs_report.build(section, ReportContext(False, 0, Backend(workers=1, quiet=True), store))
    table = section.data["tables"]["leaderboard"]
    assert table["columns"] == list(baselines.TABLE_COLUMNS)
    assert [row[1] for row in table["rows"]] == [
        "random",
        "heuristic",
        "strong (= heuristic)",
        "optimal",
    ]
    assert table["rows"][3][2] == "100.0 [100.0, 100.0]"
    assert "LatticeFold HPHPPHHPHPPH: gamelab/LatticeFold-v0" in table["caption"]
    assert section.headline.startswith("heuristic agents' score: LatticeFold ")
    figure = section.data["figures"]["percent_of_optimal"]
    assert (tmp_path / "out" / figure["file"]).stat().st_size > 1000
    report.write()
    written = json.loads((tmp_path / "out" / "results.json").read_text())
    assert "envs" in json.dumps(written)


def test_the_report_lists_the_leaderboard_after_the_games():
    from gamelab import GAMES
    from gamelab import report as report_runner

    # section_modules() imports gamelab.<name>.report for each of these
    assert report_runner.SECTIONS == (*GAMES, "envs")
    assert envs_report.TITLE and callable(envs_report.build)
