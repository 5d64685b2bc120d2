"""Pages on phones narrower than 390 px: the most common Android width (360 px) and the small
iPhones' (375 px). The Voltorb board (354 px wide plus the page's margin) and the Owaré board
(375 px) made their pages scroll sideways there; the boards now shrink with the screen (and
keep their size from 390 px up)."""

from __future__ import annotations

from conftest import phone_page

WIDTH_JS = "() => document.documentElement.scrollWidth"


def test_the_voltorb_and_oware_boards_fit_a_narrow_phone(browser, live_server):
    """At 360 px (and so at 375: the boards shrink with the width) no page scrolls sideways."""
    width, height = 360, 780
    with phone_page(browser, live_server, width, height) as page:
        page.goto("/voltorb")
        page.locator("#assist-board .vf-tile").first.wait_for()
        assert page.evaluate(WIDTH_JS) <= width
        page.click("#tab-practice")
        page.locator("#practice-board .vf-tile").first.wait_for()
        assert page.evaluate(WIDTH_JS) <= width
        board = page.locator("#practice-board").bounding_box()
        assert board["x"] + board["width"] <= width
        page.goto("/oware")
        page.locator("#board .ow-house").first.wait_for()
        assert page.evaluate(WIDTH_JS) <= width
        board = page.locator("#board").bounding_box()
        assert board["x"] + board["width"] <= width
