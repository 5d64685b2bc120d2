"""Issue 47's page-wide checks, a few page loads each: every text of the Yatzy, Owaré and lattice
pages readable (at least 4.5:1, computed from the browser's styles) in the states a player meets
(dimmed, disabled, selected, highlighted, badges), at 1280 x 900 and on a 390 x 844 phone, where
the board and the advice for the next decision still fit one screen; and the pages in the
game's words (item 12)."""

from __future__ import annotations

from conftest import wait_until
from page_audit import contrast_failures, described, shown_text

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

#: the card of a Yatzy game with one box (yatzy) left: its review comes after one turn
ONE_BOX_LEFT = (
    "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10,two_pairs=14,"
    "three_kind=12,four_kind=16,small_straight=15,large_straight=20,full_house=18,chance=22"
)


class Audit:
    """Contrast failures of a page collected over its states (one list, one assertion)."""

    def __init__(self, page):
        self.page, self.failures = page, []

    def __call__(self, state: str) -> None:
        self.failures += [{"state": state, **f} for f in contrast_failures(self.page)]


def _screen_span(page, selectors: list[str]) -> float:
    """Pixels from the top of the first to the bottom of the last of `selectors` (one screen
    holds them all when this is at most the screen's height)."""
    return page.evaluate(
        """(sels) => {
          const boxes = sels.map((s) => document.querySelector(s).getBoundingClientRect());
          return Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top));
        }""",
        selectors,
    )


def test_issue_47_item_13_yatzy_is_readable_in_every_state_on_desktop_and_phone(page):
    audit = Audit(page)
    page.goto(f"/yatzy?rules=yatzy&seed=31&opponent=optimal&start={ONE_BOX_LEFT}")
    page.locator("#dice .die").first.wait_for()
    audit("a new game: Take and Undo disabled")
    page.check("#coach-on")
    page.locator("#coach tr.option.best").wait_for()
    page.keyboard.press("1")
    wait_until(page, "document.querySelector('#dice .die.held') !== null")
    audit("coach on, best option highlighted, a die held")
    page.set_viewport_size(PHONE)
    page.reload()  # the game comes back, drawn for a phone
    page.locator("#coach tr.option.best").wait_for()
    audit("the same on a phone")
    assert _screen_span(page, ["#dice", "#coach tr.option.best", "#card"]) <= PHONE["height"]
    page.locator("#card button").last.click()  # the last box: the game ends, the bot plays
    page.click("#tab-review")
    page.locator("#review-percentile").wait_for()
    audit("the review on a phone")
    page.set_viewport_size(DESKTOP)
    audit("the review")
    page.click("#tab-play")
    audit("the game over, the bot's card beside yours")
    assert not audit.failures, described(audit.failures)


def test_issue_47_item_13_owaré_is_readable_in_every_state_on_desktop_and_phone(page):
    audit = Audit(page)
    page.goto("/oware")
    page.locator("#board .ow-house.playable").first.wait_for()
    page.uncheck("#animate")
    page.select_option("#opponent", "engine:depth=2")
    page.click("#new-game")
    page.locator("#board .ow-house.playable").first.wait_for()
    audit("a new game: Take back disabled")
    page.check("#rank-live")
    page.click("#hint")
    wait_until(page, "document.querySelector('#hint-text').textContent.startsWith('Hint: ')")
    page.locator("#board .ow-house.playable").first.click()
    wait_until(
        page,
        "document.querySelector('#board').dataset.moves.split(' ').filter(Boolean).length >= 2"
        " && document.querySelector('#board .ow-house.playable') !== null",
    )
    audit("after a move and the reply: last sowing marked, hint, ranked moves")
    page.set_viewport_size(PHONE)
    audit("the same on a phone")
    assert _screen_span(page, ["#board", "#hint-text"]) <= PHONE["height"]
    page.set_viewport_size(DESKTOP)
    page.click("#tab-review")
    page.click("#review-go")
    page.locator("#review-table tbody tr").nth(1).wait_for()
    audit("the review: best and costliest rows, tags")
    # item 12: the review's strength in the game's words ("depth 8" was shown)
    assert "8 moves ahead at every position" in shown_text(page, "#review-summary")
    assert "depth" not in shown_text(page, "#review").lower()
    page.set_viewport_size(PHONE)
    audit("the review on a phone")
    assert not audit.failures, described(audit.failures)


def test_issue_47_item_13_lattice_is_readable_in_every_state_on_desktop_and_phone(page):
    audit = Audit(page)
    page.goto("/lattice?level=1")
    page.locator("#levels li").first.wait_for()
    page.locator("#board circle").first.wait_for()
    audit("level 1: the current level marked, Play it disabled")
    page.locator("#make-generate").click()
    page.locator("#make-result .lat-hist").wait_for()
    page.locator("#board").focus()
    for key in ("ArrowUp", "ArrowUp", "ArrowRight"):
        page.keyboard.press(key)
    audit("a fold under way, a generated level's scores")
    page.set_viewport_size(PHONE)
    audit("the same on a phone")
    assert _screen_span(page, ["#level-title", "#board", "#result"]) <= PHONE["height"]
    # the level finished (its best fold, played on the phone): stars, and "Your folds" listed
    best = page.request.post("/api/lattice/best", data={"sequence": "HHPHPPHPPH"}).json()
    page.click("#restart")
    page.locator("#board").focus()
    for move in best["conformation"]:
        page.keyboard.press(
            {"R": "ArrowRight", "L": "ArrowLeft", "U": "ArrowUp", "D": "ArrowDown"}[move]
        )
    page.locator("#folds-panel table").wait_for()
    audit("a level finished on a phone: stars, your folds")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # and at 1280 the levels stay beside the board (the folds' table pushed them below it)
    page.set_viewport_size(DESKTOP)
    beside = page.evaluate(
        """() => [document.querySelector('#play-card'), document.querySelector('.lat-side')]
             .map((el) => el.getBoundingClientRect().top)"""
    )
    assert abs(beside[0] - beside[1]) < 2, beside
    assert not audit.failures, described(audit.failures)


def test_issue_47_item_12_the_lattice_page_speaks_the_games_words(page):
    """Issue 47, item 12: the lattice's 3D and expert parts said "HH contacts", "replica
    exchange", "H-core threading", "CPU s", "benchmarks": the game's words now, the methods in
    a closed "details" and the glossary."""
    page.goto("/lattice?expert=S1-2")
    page.locator("#fold3d[data-name]").wait_for()
    page.locator("#expert li").first.wait_for()
    shown = shown_text(page).lower()
    for word in ("hh contact", "replica", "threading", "cpu", "benchmark", "48-mer", "cubic",
                 "lattice:", "thachuk", "yue", "upper bound", "optimal"):  # fmt: skip
        assert word not in shown, word
    assert "contacts (dotted)" in shown and "no fold can have more" in shown
    page.locator("#fold3d-details summary").click()
    assert "replica exchange" in page.locator("#fold3d-details").inner_text()
    page.locator("#glossary summary").click()
    glossary = page.locator("#glossary").inner_text()
    for name in ("HH contact", "H-core threading", "replica exchange", "Thachuk"):
        assert name in glossary, name


def test_issue_47_a_wordle_game_at_1280x900_keeps_the_board_guess_box_and_keyboard_in_view(page):
    """A whole game at 1280 x 900 (issue 47's play-through): the 10-row board pushed the guess
    box and the kana keyboard below the screen, so each guess scrolled the rows played out of
    view. The guess box and the keyboard now sit beside the board."""
    page.goto("/wordle?tab=play&seed=5")
    page.locator("#play-board .pw-row").first.wait_for()
    page.fill("#play-name", "rentoraa")
    page.click("#play-guess")
    page.locator(
        "#play-board .pw-tile.grey, #play-board .pw-tile.yellow, #play-board .pw-tile.green"
    ).first.wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    boxes = page.evaluate(
        """() => ['#play-board .pw-row', '#play-name', '#kana-keyboard']
             .map((s) => document.querySelector(s).getBoundingClientRect())
             .map((r) => [r.top, r.bottom])"""
    )
    assert all(0 <= top and bottom <= DESKTOP["height"] for top, bottom in boxes), boxes
