"""The pages' tab bars on small phones: at 320 px Wordle's four tabs (Assistant, Play, Review,
Your games) were wider than the screen, and the bar scrolled sideways with its scroll bar hidden,
so "Your games" was cut off with nothing saying more tabs exist. Every tab now shows whole, on
one line, on every page with tabs from 320 px up (a bar that cannot fit wraps rather than hide
a tab); on a desktop the bar is as before."""

from __future__ import annotations

import pytest
from conftest import phone_page

# each tab's box, and the bar's own, as the page lays them out
TABS_JS = """() => {
  const bar = document.querySelector('.tabs');
  const tabs = [...bar.querySelectorAll('[role=tab]')].map((t) => {
    const r = t.getBoundingClientRect();
    const s = getComputedStyle(t);
    return { name: t.textContent.trim(), left: r.left, right: r.right, top: r.top,
             bottom: r.bottom, clipped: t.scrollWidth > t.clientWidth + 0.5,
             visible: s.visibility === 'visible' && r.width > 0 && r.height > 0 };
  });
  return { tabs, scrolls: bar.scrollWidth > bar.clientWidth + 0.5,
           width: document.documentElement.clientWidth };
}"""

PAGES = {  # page: an element that shows once its script has run
    "wordle": "#assist-name",
    "yatzy": "#dice .die",
    "oware": "#board .ow-house",
    "voltorb": "#assist-board .vf-tile",
}


def _every_tab_shows(page, where: str) -> list[dict]:
    bars = page.evaluate(TABS_JS)
    assert not bars["scrolls"], (where, bars)
    for tab in bars["tabs"]:
        assert tab["visible"] and not tab["clipped"], (where, tab)
        assert 0 <= tab["left"] and tab["right"] <= bars["width"], (where, tab)
    return bars["tabs"]


@pytest.mark.parametrize("width, height", [(320, 640), (390, 844)])
def test_every_tab_shows_whole_on_a_small_phone(browser, live_server, width, height):
    with phone_page(browser, live_server, width, height) as page:
        for name, ready in PAGES.items():
            page.goto(f"/{name}")
            page.locator(ready).first.wait_for()
            tabs = _every_tab_shows(page, f"{name} at {width} px")
            assert len(tabs) == 4
            assert len({round(t["top"]) for t in tabs}) == 1, (name, width, tabs)  # one line
        # Wordle's last tab is reached with a tap, and its panel shows
        page.goto("/wordle")
        page.locator("#tab-history").tap()
        page.locator("#history").wait_for()
        assert page.locator("#tab-history").get_attribute("aria-selected") == "true"


def test_a_desktop_keeps_the_tabs_on_one_line(page):
    page.goto("/wordle")
    page.locator("#assist-name").wait_for()
    tabs = _every_tab_shows(page, "wordle at 1280 px")
    assert len({round(t["top"]) for t in tabs}) == 1
    assert [t["name"] for t in tabs] == ["Assistant", "Play", "Review", "Your games"]
