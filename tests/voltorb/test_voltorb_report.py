"""The report section builds its tables (tiny sample sizes)."""

from pathlib import Path

from gamelab.core.parallel import Backend
from gamelab.core.report import Report, ReportContext
from gamelab.core.results import ResultStore
from gamelab.voltorb import report


def test_report_section_tables(tmp_path: Path, monkeypatch):
    tiny = {
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
