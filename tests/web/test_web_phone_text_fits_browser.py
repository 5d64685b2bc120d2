"""Text that must fit its box on a phone (390 px, and 320 px, the narrowest phone the header
supports): a Voltorb tile's odds line, and the Wordle page's closed game chooser."""

from __future__ import annotations

from conftest import phone_page, save_screenshot

ROWS = ["4,2", "8,0", "4,2", "4,2", "5,1"]
COLS = ["6,1", "5,0", "5,2", "4,3", "5,1"]

#: for each odds line of the board ("2+ 100%"): its text, how many lines it takes, its font
#: size and whether it stays inside its tile's border
ODDS_JS = """() => [...document.querySelectorAll('#assist-board .vf-tile .vf-pm')].map((el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  const text = range.getBoundingClientRect(), tile = el.parentElement.getBoundingClientRect();
  const inside = text.left >= tile.left + 1 && text.right <= tile.right - 1;
  return [el.textContent, tops.size, parseFloat(getComputedStyle(el).fontSize), inside];
})"""


def _check_odds(page, width: int, smallest: float) -> None:
    odds = page.evaluate(ODDS_JS)
    assert len(odds) == 25
    assert any(text == "2+ 100%" for text, *_ in odds)  # the widest line is on this board
    for text, lines, size, inside in odds:
        assert lines == 1, f"at {width} px the odds {text!r} take {lines} lines in their tile"
        assert inside, f"at {width} px the odds {text!r} stick out of their tile"
        assert size >= smallest, f"at {width} px the odds {text!r} are {size} px high"


def test_a_voltorb_tile_s_odds_fit_on_one_line_on_a_phone(browser, live_server):
    """On a 390 px phone "2+ 100%" wrapped to two lines inside its tile; it now takes one line
    there (as large as before: 12 px) and at 320 px (smaller, still legible)."""
    with phone_page(browser, live_server, 390, 844) as page:
        page.goto("/voltorb")
        page.select_option("#assist-level", "2")
        first = page.locator("#assist-board input.vf-clue").first
        first.focus()
        for text in ROWS + COLS:
            page.keyboard.type(text)
            page.keyboard.press("Enter")
        page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
        _check_odds(page, 390, 11)
        save_screenshot(page, "voltorb-phone-odds-390.png")
        page.set_viewport_size({"width": 320, "height": 640})
        _check_odds(page, 320, 9)
        save_screenshot(page, "voltorb-phone-odds-320.png")


#: the closed game chooser: the chosen option's text (in the chooser's font) against the room
#: for it (the chooser's inside less its padding and its arrow, as wide as a line is high)
CHOOSER_JS = """() => {
  const el = document.getElementById('pw-names'), st = getComputedStyle(el);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
  const text = el.options[el.selectedIndex].text;
  const room = el.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight)
    - parseFloat(st.fontSize);
  return [text, ctx.measureText(text).width, room, el.title];
}"""


def test_the_wordle_game_chooser_says_which_game_on_a_phone(browser, live_server):
    """On a 390 px phone the closed chooser showed "Today's answer: generations 1-4 answers,
    a…": it now shows the library's short label whole (390 and 320 px), and the full label
    stays readable beside it."""
    with phone_page(browser, live_server, 390, 844) as page:
        page.goto("/wordle")
        page.wait_for_function("document.getElementById('pw-names').options.length > 5")
        page.locator("#pw-settings-box > summary").click()
        for width in (390, 320):
            page.set_viewport_size({"width": width, "height": 700})
            for spec in ("daily", "upto-gen9", "daily-2022", "gen1-4"):
                page.select_option("#pw-names", spec)
                text, needed, room, _ = page.evaluate(CHOOSER_JS)
                assert needed <= room, f"at {width} px {text!r} needs {needed:.0f} px of {room:.0f}"
        page.select_option("#pw-names", "daily")
        info = page.locator("#pw-names-info").inner_text()
        assert "generations 1-4 answers, any species may be guessed" in info
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 320
        save_screenshot(page, "wordle-phone-chooser-320.png")
