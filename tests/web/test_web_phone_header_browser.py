"""Small phones (320 to 390 px): every game's link shows in the header (Owaré and Yatzy were
reachable only by swiping the nav, with nothing on screen saying it scrolls), and at 320 px
no page scrolls sideways (Wordle's name box and Owaré's selects were 350 px wide); the page
kit's Yatzy review says where a score ranks in a plain sentence."""

from __future__ import annotations

WIDTH_JS = "() => document.documentElement.scrollWidth"
# the elements sticking out past the right edge, to name them when a page is too wide
WIDE_JS = """(w) => [...document.querySelectorAll('main *')]
  .filter((e) => e.getBoundingClientRect().right > w + 0.5)
  .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`).slice(0, 6)"""


def _phone(browser, live_server, width):
    context = browser.new_context(
        viewport={"width": width, "height": 700},
        is_mobile=True,
        has_touch=True,
        base_url=live_server,
    )
    context.set_default_timeout(15_000)
    return context


def _all_five_links_show(page, width):
    links = page.locator("header.site nav a")
    assert links.count() == 5
    for i in range(5):
        box = links.nth(i).bounding_box()
        assert box is not None and box["width"] > 20
        assert 0 <= box["x"] and box["x"] + box["width"] <= width, (width, i, box)
    # a phone shows the games' short names; each link's title keeps the whole one
    labels = [links.nth(i).inner_text() for i in range(5)]
    assert {"Wordle", "Owaré", "Yatzy"} <= set(labels), labels
    assert "Pokémon Wordle" in [links.nth(i).get_attribute("title") for i in range(5)]


def test_small_phones_show_every_game_link_and_no_page_scrolls_sideways(browser, live_server):
    sizes = {}
    for width in (320, 390):
        context = _phone(browser, live_server, width)
        try:
            page = context.new_page()
            page.goto("/wordle")
            page.locator("#assist-name").wait_for()
            _all_five_links_show(page, width)
            assert page.evaluate(WIDTH_JS) <= width, page.evaluate(WIDE_JS, width)
            sizes[width, "name"] = page.locator("#assist-name").bounding_box()["width"]
            page.goto("/oware")
            page.locator("#board .ow-house").first.wait_for()
            assert page.evaluate(WIDTH_JS) <= width, page.evaluate(WIDE_JS, width)
            sizes[width, "opponent"] = page.locator("#opponent").bounding_box()["width"]
            if width == 320:  # the most common Android width: the header's other layout
                page.set_viewport_size({"width": 360, "height": 700})
                _all_five_links_show(page, 360)
        finally:
            context.close()
    # from 390 px up the name box is as it was (13rem) and the opponent's select its own width
    assert sizes[390, "name"] == 208 > sizes[320, "name"]
    assert sizes[390, "opponent"] > sizes[320, "opponent"]


def test_the_yatzy_review_says_where_the_score_ranks_in_a_plain_sentence(page):
    page.goto("/yatzy")
    page.locator("#dice .die").first.wait_for()
    src = page.locator("script[type=module][src*='yatzy.js']").get_attribute("src")
    words = page.evaluate(
        """async (src) => {
          const m = await import(src);  // the page's own module (already loaded: no second run)
          return [[0.402, 0.013], [0.25, 0], [0, 0.02], [0, 0], [0.0002, 0]]
            .map(([b, e]) => m.rankWords({ percentile: 100 * (b + e), p_below: b, p_equal: e }));
        }""",
        src,
    )
    assert words == [
        "41.5: a perfect player scores lower in 40.2% of games and the same in 1.3%",
        "25.0: a perfect player scores lower in 25.0% of games",
        "2.0: a perfect player scores the same in 2.0% of games and never lower",
        "0.0: a perfect player always scores higher",
        "0.0: a perfect player scores lower in under 0.1% of games",
    ]
