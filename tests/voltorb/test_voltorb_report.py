"""The report section builds its tables (tiny sample sizes)."""

from pathlib import Path

from gamelab.core.parallel import Backend
from gamelab.core.report import Report, ReportContext
from gamelab.core.results import ResultStore
from gamelab.voltorb import report


def test_report_section_tables(tmp_path: Path, monkeypatch):
    tiny = {
        "strategies": report.HEURISTICS,
        "campaign_strategies": ("greedy-coins", "minrisk", "fom"),
        "heuristic": 8,
        "blog": 10,
        "optimal": 5,
        "optimal_levels": (1, 2),
        "campaigns": 2,
        "rounds": 3,
        "posterior_levels": (2, 8),
    }
    monkeypatch.setattr(report, "_sizes", lambda quick: tiny)
    rep = Report(tmp_path)
    sec = rep.section("voltorb", report.TITLE)
    with ResultStore(tmp_path / "r.sqlite") as store:
        report.build(sec, ReportContext(True, 0, Backend(workers=1, quiet=True), store))
    tables = sec.data["tables"]
    for name in (
        "win_rate_by_level",
        "blog_reproduction",
        "optimal_by_level",
        "paired_differences",
        "campaign",
        "optimal_table",
        "campaign_study",
    ):
        assert tables[name]["rows"], name
    blog = tables["blog_reproduction"]["rows"]
    assert blog[0][:2] == ["fom", 8] and blog[0][3] == 0.7173
    assert sec.headline.startswith("fom L8")
    assert (tmp_path / "voltorb" / "win_rate_by_level.png").exists()
    pooled = [r for r in tables["paired_differences"]["rows"] if r[1] == "1-2 pooled"]
    assert pooled and pooled[0][2] == 10 and pooled[0][4] <= pooled[0][3] <= pooled[0][5]
    opt = tables["optimal_by_level"]["rows"]
    assert [r[0] for r in opt] == [1, 2] and all(r[6] <= r[5] <= r[7] for r in opt)
    # the shipped per-level table (issue 26 item 4), as the library reads it
    from gamelab.voltorb.optimal_table import optimal_win_rates

    shipped = tables["optimal_table"]["rows"]
    assert [r[0] for r in shipped] == list(range(1, 9))
    assert [r[1] for r in shipped] == [e.value for e in optimal_win_rates().values()]
    # the shipped campaign study (issue 26 item 3), as the library reads it
    from gamelab.voltorb.campaign_study import shipped_study, study_rows

    study = shipped_study()
    assert study is not None
    assert tables["campaign_study"]["rows"] == study_rows(study)


def test_23_the_quick_section_plays_only_strategies_that_compile_nothing(tmp_path: Path):
    """The README's first command: no exact posterior (its numba kernels take a minute to
    compile), one task per run (no worker start-up) and samples large enough to read the blog's
    50-point gap (a Wilson interval of at most 12.4 points)."""
    from gamelab.core.stats import wilson_interval
    from gamelab.voltorb.simulate import CHUNK
    from gamelab.voltorb.strategies import make_strategy

    quick = report._sizes(True)
    used = {*quick["strategies"], *(row[0] for row in report.BLOG_ROWS)}
    assert not any(make_strategy(s).needs_posterior for s in used)
    assert not quick["posterior_levels"]
    assert not quick["optimal_levels"] and not quick["campaign_strategies"]
    worst = wilson_interval(quick["blog"] // 2, quick["blog"])
    assert quick["heuristic"] == quick["blog"] == CHUNK and worst.hi - worst.lo <= 0.124
