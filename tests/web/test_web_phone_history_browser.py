"""A phone's "Your games" tab: the table of finished games (date, game, result, score, skill,
luck) was wider than a 390 px screen and scrolled sideways inside its box with no scroll bar
showing, so a player saw "lost 10" cut off and never the review's verdict. On a phone each game
is now a block of its own whose lines wrap within the screen; a desktop keeps the table."""

from __future__ import annotations

import json

import pytest

GAMES = [  # as the Yatzy page records them: a reviewed game and one not reviewed yet
    {
        "id": "yatzy:1:optimal:-",
        "when": 1_765_000_000_000,
        "label": "yatzy, seed 1, vs the optimal bot",
        "result": "lost 106-281",
        "won": False,
        "score": 106,
        "skill": "gave away 114.4 expected points",
        "luck": "unlucky: the dice gave 28.1 points less than expected",
        "marks": ["1 take-back"],
    },
    {
        "id": "yatzy:2:none:-",
        "when": 1_765_000_000_000,
        "label": "yatzy, seed 2, solitaire",
        "result": "251 points",
        "won": None,
        "score": 251,
        "skill": None,
        "luck": None,
        "marks": [],
    },
]

# every cell of the history table and whether its box scrolls sideways
CELLS_JS = """() => {
  const box = document.querySelector('#history .history-scroll');
  const cells = [...box.querySelectorAll('td')].map((td) => {
    const r = td.getBoundingClientRect();
    return { text: td.textContent.trim(), left: r.left, right: r.right, width: r.width };
  });
  return { cells, scrolls: box.scrollWidth > box.clientWidth + 0.5,
           width: document.documentElement.clientWidth };
}"""


def _history(browser, live_server, width, height):
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=width < 600,
        has_touch=width < 600,
        base_url=live_server,
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.add_init_script(
        "localStorage.setItem('gamelab.yatzy.history', " + json.dumps(json.dumps(GAMES)) + ")"
    )
    page.goto("/yatzy")
    page.locator("#dice .die").first.wait_for()
    page.click("#tab-history")
    page.locator("#history .history-table td").first.wait_for()
    return context, page


@pytest.mark.parametrize("width, height", [(390, 844), (320, 640)])
def test_a_phone_shows_every_games_result_and_verdict(browser, live_server, width, height):
    context, page = _history(browser, live_server, width, height)
    try:
        table = page.evaluate(CELLS_JS)
        assert not table["scrolls"], table
        texts = [c["text"] for c in table["cells"]]
        for words in ("lost 106-281", "gave away 114.4 expected points", "unlucky", "251 points"):
            assert any(words in t for t in texts), (words, texts)
        for cell in table["cells"]:
            if cell["text"]:
                assert 0 <= cell["left"] and cell["right"] <= table["width"] + 0.5, cell
        # each figure still says what it is, as the desktop's column names do
        labels = page.evaluate(
            """() => [...document.querySelectorAll('#history tbody tr:first-child td')]
                .map((td) => getComputedStyle(td, '::before').content)"""
        )
        assert [x for x in labels if x not in ("none", "normal")] == [
            '"score: "',
            '"skill: "',
            '"luck: "',
        ], labels
    finally:
        context.close()


def test_a_desktop_keeps_the_history_table(browser, live_server):
    context, page = _history(browser, live_server, 1280, 900)
    try:
        heads = page.locator("#history .history-table th")
        assert heads.all_inner_texts() == ["date", "game", "result", "score", "skill", "luck"]
        row = page.locator("#history .history-table tbody tr").first.locator("td")
        tops = {round(row.nth(i).bounding_box()["y"]) for i in range(row.count())}
        assert len(tops) == 1  # one game, one line of cells
    finally:
        context.close()


def test_a_game_without_chance_has_no_luck_to_show(browser, live_server):
    """Owaré deals no dice: its games listed "luck: —" on a phone, and an empty luck column on a
    desktop."""
    game = {
        "id": "start:no-capture:own-row:1",
        "when": 1_765_000_000_000,
        "label": "you South vs the engine (0.5 s a move)",
        "result": "lost 3-45",
        "won": False,
        "score": 3,
        "skill": "gave away 26.6 seeds, 1 turning move",
        "luck": None,
        "marks": [],
    }
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=live_server
        )
        context.set_default_timeout(15_000)
        try:
            page = context.new_page()
            page.add_init_script(
                "localStorage.setItem('gamelab.oware.history', "
                + json.dumps(json.dumps([game]))
                + ")"
            )
            page.goto("/oware")
            page.locator("#board .ow-house").first.wait_for()
            page.click("#tab-history")
            table = page.locator("#history .history-table")
            table.locator("td").first.wait_for()
            assert "gave away 26.6 seeds" in table.inner_text()
            assert table.locator("td.history-luck").count() == 0, width
            heads = table.locator("th").all_inner_texts()
            assert heads == ["date", "game", "result", "seeds", "skill"], heads
        finally:
            context.close()
