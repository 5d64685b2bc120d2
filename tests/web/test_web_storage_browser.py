"""What every page keeps in the browser goes through the page kit's `store()` (issue 48, item 4):
storage that is off or full, or a saved value that is unreadable or of the wrong shape, never
breaks a page (no exception, a fresh start), and games saved by the pages before the kit kept
them still load."""

import json
import re
from pathlib import Path

from conftest import wait_until

import gamelab.web

STATIC = Path(gamelab.web.__file__).parent / "static"

#: localStorage as a browser with site data blocked has it: reading the property throws
STORAGE_OFF = """Object.defineProperty(window, 'localStorage', {
  configurable: true,
  get() { throw new DOMException('The operation is insecure.', 'SecurityError'); },
});"""
#: a full storage: everything reads, nothing can be written
STORAGE_FULL = """Storage.prototype.setItem = function () {
  throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
};"""

#: messages the page shows (an error beside an input or for the whole page)
SHOWN_ERRORS = """() => [...document.querySelectorAll('#page-error, .field-error')]
  .filter((e) => !e.hidden && e.textContent.trim()).map((e) => e.textContent.trim())"""

OWARE_IDLE = "document.querySelector('#board').dataset.state === 'idle'"
OWARE_MY_TURN = f"{OWARE_IDLE} && document.querySelector('#board .ow-house.playable') !== null"
LATTICE_READY = (
    "!['…', '...', ''].includes(document.querySelector('#level-title').textContent.trim())"
)
VOLTORB_ROWS = ["4,2", "8,0", "4,2", "4,2", "5,1"]
VOLTORB_COLS = ["6,1", "5,0", "5,2", "4,3", "5,1"]


def _moves(page, selector="#board") -> list[str]:
    return (page.locator(selector).get_attribute("data-moves") or "").split()


def _put(page, values: dict[str, str]) -> None:
    """Put raw `values` into the site's localStorage (from a page of the same site that keeps
    nothing itself), replacing whatever the pages kept."""
    page.goto("/api/health")
    page.evaluate(
        "(kv) => { localStorage.clear(); for (const [k, v] of Object.entries(kv)) localStorage.setItem(k, v); }",
        values,
    )


def _kept(page, key: str):
    return page.evaluate("(k) => localStorage.getItem(k)", key)


def _no_errors_shown(page) -> None:
    assert page.evaluate(SHOWN_ERRORS) == []


def test_no_page_script_but_the_kit_touches_the_browsers_storage():
    """One way to keep anything: `store()` in kit.js (whose load never throws)."""
    offenders = {
        js.name
        for js in STATIC.glob("*.js")
        if js.name != "kit.js" and re.search(r"\b(localStorage|sessionStorage)\b", js.read_text())
    }
    assert offenders == set()


def _play_lattice(page) -> None:
    """A move and a generated level (the page reads and writes its next seed)."""
    page.goto("/lattice?level=1")
    wait_until(page, LATTICE_READY)
    page.locator("#board").focus()
    page.keyboard.press("ArrowRight")
    wait_until(page, "document.querySelector('#board').dataset.moves === 'R'")
    page.click("#make-generate")  # its seeds are kept between visits
    page.locator("#make-result .lat-hist").wait_for()
    _no_errors_shown(page)


def _play_each_page(page) -> None:
    """One step of a game on each page that keeps one (the pages save after every step)."""
    _play_lattice(page)

    page.goto("/oware")
    wait_until(page, OWARE_MY_TURN)
    page.uncheck("#animate")
    page.locator("#board .ow-house.playable").first.click()
    wait_until(
        page,
        f"({OWARE_MY_TURN}) && document.querySelector('#board').dataset.moves.split(' ').length >= 2",
    )

    page.goto("/yatzy?rules=yatzy&seed=7&opponent=none")
    wait_until(page, "document.querySelector('#turn-line').textContent.startsWith('Turn 1 ')")
    page.locator("#card button.score-btn").first.click()
    wait_until(page, "document.querySelector('#turn-line').textContent.startsWith('Turn 2 ')")

    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    page.locator("#assist-board input.vf-clue").first.focus()
    for text in VOLTORB_ROWS + VOLTORB_COLS:
        page.keyboard.type(text)
        page.keyboard.press("Enter")
    wait_until(page, "document.querySelector('#assist-count').textContent === '198'")
    _no_errors_shown(page)


def test_every_page_plays_with_the_browsers_storage_off(page):
    """Before, the lattice page's Generate threw when the browser refused storage (the one
    save without a try/catch); now every page plays on, only without keeping anything."""
    page.context.add_init_script(STORAGE_OFF)
    _play_each_page(page)


def test_a_page_plays_with_the_browsers_storage_full(page):
    """Only the kit writes (test_no_page_script_but_the_kit_touches_the_browsers_storage), so
    one page shows that a save refused for want of room is shrugged off on every page."""
    page.context.add_init_script(STORAGE_FULL)
    _play_lattice(page)


def test_an_unreadable_or_misshapen_saved_value_starts_afresh(page):
    """A saved value the page cannot use is ignored: the page starts afresh, says nothing
    and throws nothing. Before, a `null` star record stopped the lattice page ("Cannot read
    properties of null"), a kept fold of a level without its source stopped it too, and a
    kept practice round without its level showed "level: this field is required"."""
    _put(
        page,
        {
            "gamelab.lattice.progress": "null",
            "gamelab.lattice.game": json.dumps(
                {"level": {"sequence": "HPH", "counts": [1]}, "moves": "QQ"}
            ),
            "gamelab.lattice.generate-seed": "{not json",
            "gamelab.lattice.settings": "5",
            "gamelab.lattice.history": '"x"',
        },
    )
    page.goto("/lattice")
    wait_until(page, LATTICE_READY)
    assert page.locator("#level-title").inner_text().startswith("Tutorial")  # a new player's start
    assert page.locator("#board").get_attribute("data-moves") == ""
    page.click("#make-generate")
    page.locator("#make-result .lat-hist").wait_for()
    assert re.fullmatch(r"[0-9]+", _kept(page, "gamelab.lattice.generate-seed"))
    _no_errors_shown(page)

    _put(
        page,
        {
            "gamelab.oware.game": json.dumps({"game": {"moves": ["Z", 3], "start": 5}}),
            "gamelab.oware.settings": "[1",
            "gamelab.oware.history": "{}",
        },
    )
    page.goto("/oware")
    wait_until(page, OWARE_MY_TURN)
    assert _moves(page) == []
    _no_errors_shown(page)

    _put(
        page,
        {
            "gamelab.yatzy.game": json.dumps(
                {"rules": "nope", "seed": "x", "moves": ["Z"], "botMoves": []}
            ),
            "gamelab.yatzy.settings": "null",
            "gamelab.yatzy.history": "7",
        },
    )
    page.goto("/yatzy")
    wait_until(page, "document.querySelector('#turn-line').textContent.startsWith('Turn 1 ')")
    _no_errors_shown(page)

    _put(
        page,
        {
            "gamelab.voltorb.assist": json.dumps(
                {"rows": [5, None], "cols": ["x"], "flips": [[1]]}
            ),
            "gamelab.voltorb.practice": "true",
            "gamelab.voltorb.practice-round": json.dumps({"round": {"seed": 3}, "flips": []}),
            "gamelab.voltorb.history": "{not json",
            "gamelab.voltorb.review": json.dumps(
                {"path": "/api/voltorb/practice/review", "body": {"level": "x"}, "historyId": 3}
            ),
        },
    )
    page.goto("/voltorb")
    page.locator("#assist-board input.vf-clue").first.wait_for()
    assert (
        page.evaluate(
            "() => [...document.querySelectorAll('#assist-board input.vf-clue')].map((el) => el.value).join('')"
        )
        == ""
    )
    page.click("#tab-practice")
    page.locator("#practice").wait_for()
    _no_errors_shown(page)
    page.click("#tab-review")
    page.locator("#review").wait_for()
    page.reload()  # on the Review tab: the kept review is refused quietly
    page.locator("#review-empty").wait_for()
    _no_errors_shown(page)

    for kept in ({"seed": "x", "guesses": [3], "setting": None}, {"seed": 5, "guesses": ["ZZZ"],
                 "setting": {"names": "daily", "rule": "standard", "hard": "off"}}):  # fmt: skip
        _put(page, {"gamelab.wordle.play": json.dumps(kept)})
        page.goto("/wordle")
        wait_until(page, "document.querySelector('#tab-play').hasAttribute('tabindex')")
        page.click("#tab-play")
        page.locator("#play-board .pw-row").first.wait_for()
        assert page.locator("#play-board .pw-en").count() == 0  # a fresh deal
        _no_errors_shown(page)


# Values exactly as the pages wrote them before they kept them through the kit (taken from the
# pages of that time after these moves): a player's game in progress must survive the update.
SAVED_BEFORE = {
    "lattice": {
        "gamelab.lattice.game": json.dumps(
            {
                "level": {
                    "sequence": "HHHHPHPHPPH",
                    "length": 11,
                    "lattice": "square",
                    "thresholds": [2, 4, 5],
                    "best": 5,
                    "counts": [2915, 1755, 658, 167, 16, 2],
                    "total": 5513,
                    "best_share": 0.00036277888626881915,
                    "source": "default pack",
                    "number": 3,
                },
                "moves": "RRUL",
                "origin": [0, 0],
                "revealed": False,
            },
            separators=(",", ":"),
        ),
        "gamelab.lattice.generate-seed": "671938274",
    },
    "oware": {
        "gamelab.oware.game": json.dumps(
            {
                "game": {
                    "start": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
                    "grand_slam": "no-capture",
                    "cycle": "own-row",
                    "moves": ["A", "f", "A", "c"],
                },
                "opponent": "engine:time=0.5,book=1",
                "side": "South",
                "recommended": [None, "f", None, "c"],
                "players": None,
                "began": 1796641034709,
                "takebacks": 0,
            },
            separators=(",", ":"),
        )
    },
    "yatzy": {
        "gamelab.yatzy.game": json.dumps(
            {
                "rules": "yatzy",
                "seed": 7,
                "start": "-",
                "opponent": "none",
                "moves": ["box ones", "hold 00000"],
                "botMoves": [],
                "botLog": [],
                "draws": [0, 0],
                "takebacks": 0,
                "began": 1796641043084,
            },
            separators=(",", ":"),
        )
    },
    "voltorb": {
        "gamelab.voltorb.assist": json.dumps(
            {
                "rows": VOLTORB_ROWS,
                "cols": VOLTORB_COLS,
                "flips": [[5, 1]],
                "level": "2",
                "policy": "optimal",
            },
            separators=(",", ":"),
        )
    },
}


def test_games_saved_by_the_pages_before_the_kit_still_continue(page):
    levels = page.request.post("/api/lattice/levels", data={}).json()["levels"]
    _put(
        page,
        {
            **SAVED_BEFORE["lattice"],
            "gamelab.lattice.progress": json.dumps({levels[0]["sequence"]: 3}),
        },
    )
    page.goto("/lattice")
    wait_until(page, LATTICE_READY)
    assert page.locator("#level-title").inner_text().startswith("Level 3")
    assert page.locator("#board").get_attribute("data-moves") == "RRUL"
    assert page.locator('#levels button[data-level="1"] .got').inner_text() == "★★★"
    page.click("#make-generate")  # the next seed of the kept sequence
    page.locator("#make-result .lat-hist").wait_for()
    assert _kept(page, "gamelab.lattice.generate-seed") == "671938275"

    _put(page, SAVED_BEFORE["oware"])
    page.goto("/oware")
    wait_until(page, f"({OWARE_MY_TURN}) && document.querySelector('#board').dataset.moves !== ''")
    assert _moves(page) == ["A", "f", "A", "c"]
    assert page.locator("#opponent").input_value() == "engine:time=0.5,book=1"

    _put(page, SAVED_BEFORE["yatzy"])
    page.goto("/yatzy")
    wait_until(page, "document.querySelector('#turn-line').textContent.startsWith('Turn 2 ')")
    assert "1 reroll" in page.locator("#turn-line").inner_text()
    page.locator("#card button.score-btn").first.click()
    wait_until(page, "document.querySelector('#turn-line').textContent.startsWith('Turn 3 ')")
    assert json.loads(_kept(page, "gamelab.yatzy.game"))["moves"][:2] == ["box ones", "hold 00000"]

    _put(page, SAVED_BEFORE["voltorb"])
    page.goto("/voltorb")
    wait_until(page, "document.querySelector('#assist-count').textContent === '138'")
    assert page.locator("#assist-level").input_value() == "2"
    assert page.locator('#assist-board .vf-tile[data-tile="5"] .vf-value').inner_text() == "1"
