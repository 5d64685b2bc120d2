"""The report page as analysts send it around (issue 50): read in Chromium at 1280 and 390 px.

The page is written by :class:`gamelab.core.report.Report` with what the games' sections put in
it (a long summary headline, a wide table, katakana names, cells without a value), so the test
needs no section to be computed.
"""

from __future__ import annotations

import math

import pytest

from gamelab.core.report import Report

KATAKANA = ["レントラー", "ジーランス", "グラードン", "ゴルダック", "フシギダネ", "ヒトカゲ"]


def _report(tmp_path):
    report = Report(tmp_path / "report", title="gamelab report (quick)")
    section = report.section("wordle", "Pokémon Wordle")
    section.set_headline(
        "the post's pruned search: ジーランス 964 total guesses over 493 answers; entropy "
        "ranking レントラー 4.15443; python benchmarks/voltorb_table.py --levels 1-8 --store "
        "table.sqlite --direct 20000"
    )
    section.text("First guesses by entropy: " + "、".join(KATAKANA * 4) + ".")
    section.table(
        "wide",
        [f"column {i}" for i in range(14)],
        [[name, None, math.nan, ""] + [12345.678 * i for i in range(10)] for name in KATAKANA],
        caption="A wide table",
        missing="not computed in the quick report",
    )
    quick = report.section("envs", "Environments")
    quick.leave_out("not computed in the quick report", "in the full report (gamelab report)")
    return report.write()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_report_fits_its_width_and_reads_whole(browser, tmp_path, width):
    index = _report(tmp_path)
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    page.goto(index.as_uri())
    page_width = page.evaluate("document.documentElement.scrollWidth")
    assert page_width <= width, f"the page is {page_width} px wide at {width} px"
    # a wide table scrolls inside its own box
    boxes = page.evaluate(
        "[...document.querySelectorAll('.wide')].map(b => [b.clientWidth, b.scrollWidth])"
    )
    assert boxes and all(client <= width for client, _ in boxes)
    # every katakana name sits on one line (no break inside a word)
    for name in KATAKANA:
        cell = page.get_by_role("cell", name=name, exact=True).first
        lines = cell.evaluate(
            "td => { const r = document.createRange(); r.selectNodeContents(td);"
            " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }"
        )
        assert lines == 1, f"{name} breaks over {lines} lines at {width} px"
    text = page.inner_text("body")
    for leak in ("None", "nan", "/work/", "/tmp/", "/home/"):
        assert leak not in text
    assert "—" in text and "not computed in the quick report" in text
    if width == 390:
        page.screenshot(path=str(tmp_path / "report-390.png"), full_page=True)
    context.close()
