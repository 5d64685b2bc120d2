"""The report section builds (quick mode) with the post's numbers in its tables."""

from gamelab.core.report import Report, ReportContext
from gamelab.wordle import report as wordle_report


def test_quick_section(tmp_path, monkeypatch):
    # quick: two pruned first guesses (the full ten: test_wordle_published), no optimum
    # (test_wordle_optimal covers it)
    report = Report(tmp_path / "rep")
    section = report.section("wordle", wordle_report.TITLE)
    wordle_report.build(section, ReportContext(quick=True, seed=0, backend=None, store=None))
    report.write()
    results = report.results()
    text = str(results)
    assert "4.15443" in text and "ゴルダック" in text
    assert "964" in text and "1028" in text  # post's pruned total (ジーランス) and greedy figure
    assert (tmp_path / "rep" / "wordle" / "distribution.png").exists()
    assert len(results["sections"]["wordle"]["tables"]["pruned"]["rows"]) == 2
    assert "in the full report" in text  # the optimum's row says where it is
