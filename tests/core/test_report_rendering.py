"""Report rendering (issue 11, item 16): code spans, wide tables, bounded intervals, kana."""

from __future__ import annotations

import warnings

import numpy as np

from gamelab.core.report import Report, new_figure, save_figure
from gamelab.core.stats import bounded_mean_interval, mean_interval


def test_code_spans_render_and_wide_tables_scroll(tmp_path):
    report = Report(tmp_path / "r", title="t")
    sec = report.section("g", "Game")
    sec.text("Run `gamelab g x --json` <now>.")
    sec.table("wide", [f"c{i}" for i in range(30)], [list(range(30))], caption="see `cmd`")
    html = (report.write()).read_text()
    assert "<code>gamelab g x --json</code>" in html and "`" not in html
    assert "&lt;now&gt;" in html  # still escaped
    assert "<div class='wide'><table>" in html and ".wide{overflow-x:auto" in html


def test_interval_of_a_nonnegative_mean_stays_nonnegative():
    coins = np.array([0.0] * 18 + [40.0, 300.0])  # most campaigns win nothing, a few a lot
    assert mean_interval(coins).lo < 0  # the t interval leaves the possible range
    est = bounded_mean_interval(coins, lower=0.0)
    assert 0.0 <= est.lo <= est.value <= est.hi
    assert est.value == coins.mean()
    assert (
        bounded_mean_interval(coins, lower=0.0) == est
    )  # seeded: the same data, the same interval


def test_katakana_labels_have_a_font(tmp_path):
    fig, ax = new_figure()
    ax.set_title("レントラー ゴルダック")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        save_figure(fig, tmp_path / "kana.png")
    missing = [str(w.message) for w in caught if "missing from" in str(w.message)]
    assert not missing, missing


def test_the_report_has_a_viewport_for_phones(tmp_path):
    """Without it a phone renders the report 980 px wide and shrinks it (issue 23)."""
    html = Report(tmp_path / "r", title="t").write().read_text()
    assert "<meta name='viewport' content='width=device-width, initial-scale=1'>" in html
