"""The Voltorb Flip page in a real Chromium: type clues, read the odds, record flips, errors."""

import json

ROWS = ["4,2", "8,0", "4,2", "4,2", "5,1"]
COLS = ["6,1", "5,0", "5,2", "4,3", "5,1"]


def _type_clues(page, rows=ROWS, cols=COLS):
    first = page.locator("#assist-board input.vf-clue").first
    first.focus()
    for text in rows + cols:  # keyboard only: type, Enter moves on, the last Enter analyses
        page.keyboard.type(text)
        page.keyboard.press("Enter")


def _open_chooser(page, tile):
    """Click a tile until its value chooser shows. Once in a fresh-clone run of the whole suite
    (two workers busy) the chooser stayed hidden after the click (cause not found; the test
    passed alone every time); a player would click again, and so does the test, at most
    three times, so a chooser that never opens still fails."""
    chooser = page.locator("#assist-chooser")
    for _ in range(3):
        page.locator(f'#assist-board .vf-tile[data-tile="{tile}"]').click()
        try:
            chooser.wait_for(state="visible", timeout=3000)
            return
        except Exception:  # noqa: BLE001 - Playwright's TimeoutError: click again
            continue
    raise AssertionError(f"the value chooser of tile {tile} did not open")


def _solve(page, revealed):
    """The API's answer for the same position, from the same live server."""
    body = {"rows": " ".join(ROWS), "cols": " ".join(COLS), "level": 2, "revealed": revealed}
    response = page.request.post("/api/voltorb/solve", data=body)
    assert response.ok, response.text()
    return response.json()


def test_home_links_to_the_voltorb_page(page):
    page.goto("/")
    page.get_by_role("link", name="Voltorb Flip").first.click()
    page.wait_for_url("**/voltorb")
    assert page.locator("h1").inner_text() == "Voltorb Flip"


def test_assistant_shows_odds_and_records_flips(page):
    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    _type_clues(page)
    page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
    expected = _solve(page, [])
    tile = page.locator('#assist-board .vf-tile[data-tile="0"]')  # row 1, column 1
    assert tile.locator(".vf-pv").inner_text() == f"{round(100 * expected['p_voltorb'][0][0])}%"
    assert page.locator("#assist-recommended").inner_text().startswith("row 2, column 1")
    assert page.locator("#assist-pwin").inner_text() == f"{100 * expected['win_probability']:.2f}%"
    assert page.locator("#assist-board .vf-tile.safe").count() == len(expected["safe_useful_tiles"])
    assert page.locator("#assist-board .vf-tile.certain-one").count() == len(
        expected["safe_tiles"]
    ) - len(expected["safe_useful_tiles"])
    tile.hover()
    assert "P(2 or 3) 42.4%" in page.locator("#assist-tileinfo").inner_text()
    # record the recommended flip: row 2, column 1 showed a 1 (by the chooser), then by keyboard
    _open_chooser(page, 5)
    page.locator("#assist-chooser button[data-value='1']").click()
    page.wait_for_function("document.querySelector('#assist-count').textContent === '138'")
    assert page.locator('#assist-board .vf-tile[data-tile="5"] .vf-value').inner_text() == "1"
    page.locator('#assist-board .vf-tile[data-tile="7"]').focus()
    page.keyboard.press("2")
    page.wait_for_function(
        "document.querySelector('#assist-board .vf-tile[data-tile=\"7\"]').classList.contains('revealed')"
    )
    after = _solve(page, ["2,1=1", "2,3=2"])
    assert page.locator("#assist-count").inner_text() == f"{after['consistent_boards']:,}"


def test_bad_clues_and_impossible_flips_show_the_message_and_change_nothing(page):
    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    _type_clues(page, rows=ROWS[:4] + ["6,1"])
    error = page.locator("#assist-clue-error")
    error.wait_for(state="visible")
    assert "row sums add up to 26 but the column sums to 25" in error.inner_text()
    assert page.locator("#assist-count").inner_text() == "—"
    # fix the clue: the odds appear; then a Voltorb where none can be is refused
    row5 = page.locator('#assist-board input[data-kind="row"][data-index="4"]')
    row5.fill("5,1")
    row5.press("Enter")
    page.locator("#assist-analyse").click()
    page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
    before = page.locator("#assist-board").inner_text()
    page.locator('#assist-board .vf-tile[data-tile="5"]').focus()  # row 2 has no Voltorb
    page.keyboard.press("0")
    error.wait_for(state="visible")
    assert "row 2" in error.inner_text() and "no board is consistent" in error.inner_text()
    assert page.locator("#assist-board").inner_text() == before
    assert page.locator("#assist-count").inner_text() == "198"


def _start_practice(page, level, seed):
    """Open the Practice tab and deal round (level, seed): both as the player types them."""
    page.click("#tab-practice")
    page.select_option("#practice-level", level)
    page.fill("#practice-seed", seed)
    page.press("#practice-seed", "Enter")
    page.wait_for_function("document.querySelector('#practice-coins').textContent === '0'")


def test_practice_round_to_the_end_and_its_review(page):
    page.goto("/voltorb")
    _start_practice(page, "3", "12345")
    clues = [page.locator("#practice-board .vf-clue-shown").nth(i).inner_text() for i in range(10)]
    expected = page.request.post(
        "/api/voltorb/practice/new", data={"level": 3, "seed": 12345}
    ).json()
    assert " ".join(clues[:5]) == expected["rows"] and " ".join(clues[5:]) == expected["cols"]
    # a memo mark, as in the game
    page.check("#practice-memo")
    page.locator('#practice-board .vf-tile[data-tile="0"]').click()
    page.locator("#memo-chooser button[data-memo='0']").click()
    assert page.locator('#practice-board .vf-tile[data-tile="0"] .vf-memo').inner_text() == "V"
    page.uncheck("#practice-memo")
    # with the overlay on, follow the recommended flip until the round ends
    page.check("#practice-overlay")
    for _ in range(25):
        if page.locator("#practice-status").is_visible():
            break
        page.wait_for_function(
            "document.querySelector('#practice-pwin').textContent !== '—'"
            " || !document.querySelector('#practice-status').hidden"
        )
        if page.locator("#practice-status").is_visible():
            break
        flips_before = page.locator("#practice-board .vf-tile.revealed").count()
        page.locator("#practice-board .vf-tile.recommended").click()
        page.wait_for_function(
            f"document.querySelectorAll('#practice-board .vf-tile.revealed').length > {flips_before}"
        )
    status = page.locator("#practice-status").inner_text()
    assert "Next round: level" in status
    won = "Board cleared" in status
    assert (
        page.locator("#practice-board .vf-tile.unflipped").count()
        + page.locator("#practice-board .vf-tile.revealed").count()
        == 25
    )  # the whole board shown
    page.click("#practice-review")
    page.locator("#review-body").wait_for(state="visible")
    rows = page.locator("#review-table tbody tr")
    assert rows.count() == page.locator("#practice-board .vf-tile.revealed").count()
    losses = [rows.nth(i).locator("td").nth(7).inner_text() for i in range(rows.count())]
    assert set(losses) == {"0"}  # every flip was the optimal one
    summary = page.locator("#review-summary").inner_text()
    assert f"Result: {'won' if won else 'lost'}" in summary
    assert f"Optimal play would have {'cleared' if won else 'lost'} this very board" in summary


def test_screenshot_level_8_board_with_a_flip(page):
    """A real level-8 deal (practice seed 3) typed into the assistant, one flip recorded; the
    page's numbers equal the API's. With $GAMELAB_SCREENSHOTS set this is docs/voltorb-page.png."""
    from conftest import save_screenshot

    deal = page.request.post("/api/voltorb/practice/new", data={"level": 8, "seed": 3}).json()
    rows, cols = deal["rows"].split(), deal["cols"].split()
    page.goto("/voltorb")
    page.select_option("#assist-level", "8")
    _type_clues(page, rows, cols)
    page.wait_for_function("document.querySelector('#assist-count').textContent !== '—'")
    first = page.request.post(
        "/api/voltorb/solve", data={"rows": deal["rows"], "cols": deal["cols"]}
    ).json()
    r, c = first["recommended"]
    shown = page.request.post(
        "/api/voltorb/practice/play", data={"level": 8, "seed": 3, "flips": [[r, c]]}
    ).json()["revealed"][0][2]
    tile = page.locator(f'#assist-board .vf-tile[data-tile="{(r - 1) * 5 + c - 1}"]')
    tile.focus()
    page.keyboard.press(str(shown))
    expected = page.request.post(
        "/api/voltorb/solve",
        data={"rows": deal["rows"], "cols": deal["cols"], "revealed": [f"{r},{c}={shown}"]},
    ).json()
    page.wait_for_function(
        f"document.querySelector('#assist-count').textContent === '{expected['consistent_boards']:,}'"
    )
    assert page.locator("#assist-pwin").inner_text() == f"{100 * expected['win_probability']:.2f}%"
    r2, c2 = expected["recommended"]
    assert page.locator("#assist-recommended").inner_text().startswith(f"row {r2}, column {c2}")
    page.locator('#assist-board .vf-tile[data-tile="0"]').hover()
    save_screenshot(page, "voltorb-page.png")


# ---------------------------------------------------------------- issue 24, Voltorb Flip items

LOST_ROWS = ["2,4", "6,1", "5,0", "5,1", "6,1"]
LOST_COLS = ["6,1", "5,1", "3,2", "7,1", "3,2"]
LOST_FLIPS = [(6, "1"), (5, "2"), (8, "2"), (20, "1"), (21, "2"), (23, "2"), (0, "0")]


def _flip_by_keyboard(page, tile, key):
    before = page.locator("#assist-board .vf-tile.revealed").count()
    page.locator(f'#assist-board .vf-tile[data-tile="{tile}"]').focus()
    page.keyboard.press(key)
    page.wait_for_function(
        f"document.querySelectorAll('#assist-board .vf-tile.revealed').length > {before}"
    )


def test_voltorb_3_after_a_voltorb_the_round_is_lost_with_a_post_mortem(page, gamelab_cli):
    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    _type_clues(page, LOST_ROWS, LOST_COLS)
    page.wait_for_function("document.querySelector('#assist-count').textContent !== '—'")
    for tile, key in LOST_FLIPS:
        _flip_by_keyboard(page, tile, key)
    page.locator("#assist-postmortem").wait_for(state="visible")
    assert "this round is lost" in page.locator("#assist-status").inner_text()
    assert page.locator("#assist-pwin").inner_text() == "—"
    assert page.locator("#assist-recommended").inner_text() == "—"
    assert page.locator("#assist-safe").inner_text() == "—"
    assert page.locator("#assist-board .vf-tile.recommended").count() == 0
    assert page.locator("#assist-board .vf-tile.safe").count() == 0
    revealed = ["2,2=1", "2,1=2", "2,4=2", "5,1=1", "5,2=2", "5,4=2", "1,1=0"]
    args = ["voltorb", "solve", "--rows", " ".join(LOST_ROWS), "--cols", " ".join(LOST_COLS)]
    args += ["--level", "2"] + [x for r in revealed for x in ("--revealed", r)]
    doc = json.loads(gamelab_cli(*args, "--json").stdout)
    assert doc["outcome"] == "lost" and doc["win_probability"] is None
    assert doc["recommended"] is None
    pm = doc["post_mortem"]
    shown = page.locator("#assist-postmortem").inner_text()
    assert f"r1c1 was a Voltorb with P = {100 * pm['p_voltorb']:.1f}%" in shown
    assert f"{100 * pm['p_win_before']:.2f}% with optimal play" in shown
    text = gamelab_cli(*args).stdout
    assert "the round is lost" in text and "P(win) with optimal play from here" not in text
    assert "recommended flip" not in text


def _won_position(page):
    """A level-1 practice board and its 2s and 3s (tiles from 0), from the live server."""
    deal = page.request.post("/api/voltorb/practice/new", data={"level": 1, "seed": 7}).json()
    board = page.request.post(
        "/api/voltorb/practice/play", data={"level": 1, "seed": 7, "quit": True}
    ).json()["board"]
    cells = [v for row in board for v in row]
    return deal, cells, [t for t, v in enumerate(cells) if v >= 2]


def test_voltorb_4_after_a_win_no_advice_is_left(page):
    deal, cells, multipliers = _won_position(page)
    page.goto("/voltorb")
    page.select_option("#assist-level", "1")
    _type_clues(page, deal["rows"].split(), deal["cols"].split())
    page.wait_for_function("document.querySelector('#assist-count').textContent !== '—'")
    for t in multipliers:
        _flip_by_keyboard(page, t, str(cells[t]))
    status = page.locator("#assist-status")
    status.wait_for(state="visible")
    assert "the round is won" in status.inner_text()
    assert page.locator("#assist-recommended").inner_text() == "—"
    assert page.locator("#assist-safe").inner_text() == "—"
    assert page.locator("#assist-board .vf-tile.recommended").count() == 0
    assert page.locator("#assist-board .vf-tile.safe").count() == 0


def test_voltorb_6_the_tile_info_follows_a_reveal(page):
    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    _type_clues(page)
    page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
    page.locator('#assist-board .vf-tile[data-tile="5"]').hover()
    assert "P(Voltorb)" in page.locator("#assist-tileinfo").inner_text()
    _flip_by_keyboard(page, 5, "1")
    page.wait_for_function("document.querySelector('#assist-count').textContent === '138'")
    assert page.locator("#assist-tileinfo").inner_text() == "row 2, column 1: revealed 1"


def test_voltorb_5_level_hint_field_errors_and_full_width_digits(page):
    page.goto("/voltorb")
    assert page.locator("#assist-level").input_value() == "1"  # the game's first level, not 8
    page.select_option("#assist-level", "8")
    _type_clues(page)  # the README's example, a level-2 deal
    error = page.locator("#assist-clue-error")
    error.wait_for(state="visible")
    assert "these clues are possible at level 2" in error.inner_text()
    assert page.locator("#assist-level").get_attribute("aria-invalid") == "true"
    page.select_option("#assist-level", "2")
    page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
    # a typo names the box in the page's words, no CLI flag
    row3 = page.locator('#assist-board input[data-kind="row"][data-index="2"]')
    row3.fill("4,l")
    row3.press("Tab")
    error.wait_for(state="visible")
    assert error.inner_text().startswith("row 3 clue:") and "--" not in error.inner_text()
    assert row3.get_attribute("aria-invalid") == "true"
    row3.fill("４，２")  # full-width digits, as a Japanese keyboard types them
    row3.press("Tab")
    # the count still shows the last good answer's 198 while the typo's error is up (a bad
    # input never wipes what the person sees), so wait for the error to go, not for the count:
    # under load the test used to look before the new answer had come (it needed its rerun)
    error.wait_for(state="hidden")
    assert page.locator("#assist-count").inner_text() == "198"
    assert row3.get_attribute("aria-invalid") != "true"


def test_voltorb_5_one_board_is_singular(page):
    r = page.request.post(
        "/api/voltorb/solve",
        data={"rows": "15,0 " * 4 + "15,0", "cols": "15,0 " * 4 + "15,0", "level": 1},
    )
    assert r.status == 422
    assert "1 board fits the lines" in r.json()["detail"], r.json()  # all 3s: no level deals it
    assert "no level of the hgss generator deals them" in r.json()["detail"]


def test_voltorb_everywhere_the_board_survives_a_reload(page):
    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    _type_clues(page)
    page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
    _flip_by_keyboard(page, 5, "1")
    page.wait_for_function("document.querySelector('#assist-count').textContent === '138'")
    page.reload()
    page.wait_for_function("document.querySelector('#assist-count').textContent === '138'")
    assert page.locator("#assist-level").input_value() == "2"
    assert page.locator('#assist-board .vf-tile[data-tile="5"] .vf-value').inner_text() == "1"


def test_everywhere_api_docs_work_offline_and_an_unknown_page_is_a_page(page, live_server):
    outside: list[str] = []

    def only_local(route):
        if route.request.url.startswith(live_server) or route.request.url.startswith("data:"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_local)
    page.goto("/api/docs")
    # Swagger UI (1.5 MB of script, from the installed package) renders the API's operations
    page.locator(".swagger-ui .opblock-tag", has_text="voltorb").first.wait_for(timeout=30_000)
    assert page.locator(".swagger-ui .info").inner_text().startswith("gamelab")
    assert page.locator(".swagger-ui .opblock-summary-path", has_text="/api/voltorb/solve").count()
    assert outside == []
    response = page.goto("/no-such-page")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "Page not found"
    page.get_by_role("link", name="Voltorb Flip").last.click()
    page.wait_for_url("**/voltorb")
    assert page.request.get("/api/no-such-endpoint").json() == {"detail": "Not Found"}


def _phone(browser, live_server):
    """A phone-sized context (390 x 844, touch), as the issue's phone checks."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=1,
        base_url=live_server,
    )
    context.set_default_timeout(15_000)
    return context


def test_voltorb_7_phone_advice_above_the_board_readable_odds_no_sideways_scroll_screenshot(
    browser, live_server
):
    from conftest import save_screenshot

    context = _phone(browser, live_server)
    try:
        page = context.new_page()
        page.goto("/voltorb")
        page.select_option("#assist-level", "2")
        _type_clues(page)
        page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
        board = page.locator("#assist-board").bounding_box()
        advice = page.locator("#assist-recommended").bounding_box()
        assert advice["y"] + advice["height"] <= board["y"]  # the advice is above the board
        assert page.locator("#assist-pwin").bounding_box()["y"] < board["y"]
        odds = page.locator('#assist-board .vf-tile[data-tile="0"] .vf-pm')
        assert odds.inner_text().startswith("2+ ")  # not "2/3", which reads as a fraction
        size = page.evaluate(
            "el => parseFloat(getComputedStyle(el).fontSize)", odds.element_handle()
        )
        assert size >= 11
        save_screenshot(page, "voltorb-phone.png")
        _flip_by_keyboard(page, 5, "1")
        page.click("#assist-review")
        page.locator("#review-table tbody tr").first.wait_for()
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways: {width} px in 390"
    finally:
        context.close()


#: the widest text of each empty clue field (its placeholder, in its own font) against the
#: room inside the field
CLUE_FIT_JS = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('#assist-board input.vf-clue')].map((el) => {
    const ph = getComputedStyle(el, '::placeholder'), st = getComputedStyle(el);
    ctx.font = `${ph.fontWeight} ${ph.fontSize} ${ph.fontFamily}`;
    const room = el.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
    return [ctx.measureText(el.placeholder).width, room];
  });
}"""


def test_voltorb_10_every_empty_clue_shows_its_whole_hint_on_a_phone(browser, live_server):
    """The empty clue fields say "sum,V"; on a 390 px phone they showed "sum" cut off (the
    phone's smaller clue font lost to a more specific rule; session 10's look at the page)."""
    context = _phone(browser, live_server)
    try:
        page = context.new_page()
        page.goto("/voltorb")
        fits = page.evaluate(CLUE_FIT_JS)
        assert len(fits) == 10
        for text, room in fits:
            assert text <= room, f"the hint needs {text:.1f} px in a field of {room:.1f} px"
    finally:
        context.close()


def test_a_question_asked_while_the_game_warms_up_is_answered_when_it_is_warm(page):
    """Issue 23, seen on a cold `gamelab serve`: a question asked while Voltorb's solvers were
    still warming up showed "not ready: still warming up" and kept showing it after they were
    warm, beside a header that no longer listed Voltorb. The server now names the game in its
    503 (`warming`) and the page says so, waits for /api/health to stop listing the game, and
    asks again by itself. (The warm-up is simulated: the first answer is such a 503 and
    /api/health lists Voltorb for its next three answers.)"""
    import json

    refused = {"solve": 0, "health": 0}

    def solve(route):
        if refused["solve"] == 0:
            refused["solve"] += 1
            body = {"detail": "the computation is not ready", "warming": "Voltorb Flip"}
            route.fulfill(status=503, content_type="application/json", body=json.dumps(body))
        else:
            route.fallback()

    def health(route):
        if refused["solve"] == 1 and refused["health"] < 3:
            refused["health"] += 1
            body = {"status": "ok", "version": "x", "ready": False, "warming": ["Voltorb Flip"]}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
        else:
            route.fallback()

    page.route("**/api/voltorb/solve", solve)
    page.route("**/api/health", health)
    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    _type_clues(page)
    page.locator("#warming", has_text="Voltorb Flip is still warming up").wait_for()
    page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
    assert page.locator("#warming").is_hidden()  # the message went with the wait
    assert refused == {"solve": 1, "health": 3}


def test_voltorb_9_keyboard_starts_at_the_first_clue_and_arrows_move_in_the_grid(page):
    page.goto("/voltorb")
    first = page.locator('#assist-board input[data-kind="row"][data-index="0"]')
    page.wait_for_function(
        "document.activeElement && document.activeElement.dataset.kind === 'row'"
    )
    assert first.evaluate("el => el === document.activeElement")
    page.select_option("#assist-level", "2")
    _type_clues(page)
    page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
    page.locator('#assist-board input[data-kind="col"][data-index="4"]').focus()
    page.keyboard.press("Tab")  # one Tab from the last clue into the grid
    active = "document.activeElement.dataset.tile"
    assert page.evaluate(active) == "0"
    for key, tile in (
        ("ArrowRight", "1"),
        ("ArrowDown", "6"),
        ("ArrowLeft", "5"),
        ("ArrowUp", "0"),
    ):
        page.keyboard.press(key)
        assert page.evaluate(active) == tile
    page.keyboard.press("ArrowDown")
    page.keyboard.press("1")  # row 2, column 1 showed a 1
    page.wait_for_function("document.querySelector('#assist-count').textContent === '138'")


def test_voltorb_8_practice_level_review_of_a_quit_round_and_no_minus_zero(page):
    page.goto("/voltorb")
    _start_practice(page, "1", "12345")
    deal = page.request.post("/api/voltorb/practice/new", data={"level": 1, "seed": 12345}).json()
    first = page.request.post(
        "/api/voltorb/solve", data={"rows": deal["rows"], "cols": deal["cols"], "level": 1}
    ).json()
    safe = first["safe_tiles"][0] if first["safe_tiles"] else first["recommended"]
    page.locator(f'#practice-board .vf-tile[data-tile="{(safe[0] - 1) * 5 + safe[1] - 1}"]').click()
    page.wait_for_function(
        "document.querySelectorAll('#practice-board .vf-tile.revealed').length === 1"
    )
    page.click("#practice-quit")  # a safe first flip leaves the round going: quit it
    page.locator("#practice-status").wait_for(state="visible")
    outcome = page.locator("#practice-status").inner_text()
    assert outcome.startswith("You quit")
    earned = outcome.rsplit("level ", 1)[1].rstrip(".")
    assert page.locator("#practice-level").input_value() == earned  # the level the round earned
    page.click("#practice-review")
    page.locator("#review-body").wait_for(state="visible")
    summary = page.locator("#review-summary").inner_text()
    assert "Result: quit with the coins" in summary and "not finished" not in summary
    cells = page.locator("#review-table tbody td").all_inner_texts()
    assert "−0.0" not in cells and "+0.0" not in cells and "−0.0" not in summary
    # a reload keeps the Review tab, and now its review too (it said "Finish a practice round
    # ... and choose Review" though the round was finished and kept)
    page.reload()
    page.locator("#review-body").wait_for(state="visible")
    assert page.locator("#review-summary").inner_text() == summary
    assert page.locator("#review-table tbody td").all_inner_texts() == cells


def _as_budget_fallback(route):
    """The server's answer turned into what the time budget's fallback sends (MinRisk, no
    P(win), the label in `note`), so the test need not find a position that overruns it."""
    doc = route.fetch().json()
    doc.update(
        win_probability=None,
        policy="minrisk",
        note="exact optimal search timed out after 2 s; showing MinRisk",
    )
    route.fulfill(json=doc)


_WATCH_PROGRESS = """() => {
  window.progressSeen = [];
  for (const el of document.querySelectorAll('.vf-thinking')) {
    new MutationObserver(() => { if (!el.hidden) window.progressSeen.push(el.textContent.trim()); })
      .observe(el, { attributes: true, childList: true, subtree: true, characterData: true });
  }
}"""


def test_issue_47_item_5_the_exact_answer_replaces_the_quick_one_by_itself(page):
    """The server's quick answer (its fallback) is followed by the exact one without a click,
    in the assistant and in practice, with the search's progress shown meanwhile."""
    page.route("**/api/voltorb/solve", _as_budget_fallback)
    page.goto("/voltorb")
    page.evaluate(_WATCH_PROGRESS)
    page.select_option("#assist-level", "2")
    _type_clues(page)
    page.wait_for_function("document.querySelector('#assist-pwin').textContent !== '—'")
    expected = _solve(page, [])
    assert page.locator("#assist-pwin").inner_text() == f"{100 * expected['win_probability']:.2f}%"
    assert (
        page.locator("#assist-recommended")
        .inner_text()
        .startswith("row 2, column 1 (best chance to clear)")
    )
    assert page.locator("#assist-note").is_hidden() and page.locator("#assist-think").is_hidden()
    assert any(t.startswith("Working out the exact answer") for t in page.evaluate("progressSeen"))
    # a job is cancelled by its id; asking again for the same call finds the same job
    body = {"rows": " ".join(ROWS), "cols": " ".join(COLS), "level": 2}
    job = page.request.post("/api/voltorb/solve/exact", data=body).json()
    assert (
        job["state"] == "done" and job["result"]["win_probability"] == expected["win_probability"]
    )
    assert page.request.get(f"/api/jobs/{job['job']}").json()["state"] == "done"
    assert page.request.get("/api/jobs/nosuchjob").status == 404
    # practice: the overlay's quick answer is replaced the same way
    _start_practice(page, "2", "4")
    page.check("#practice-overlay")
    page.wait_for_function("document.querySelector('#practice-pwin').textContent !== '—'")
    deal = page.request.post("/api/voltorb/practice/new", data={"level": 2, "seed": 4}).json()
    exact = page.request.post(
        "/api/voltorb/solve/exact", data={"rows": deal["rows"], "cols": deal["cols"], "level": 2}
    ).json()["result"]
    assert page.locator("#practice-pwin").inner_text() == f"{100 * exact['win_probability']:.2f}%"
    assert page.locator("#practice-note").is_hidden()


def _as_quick_review(route):
    """The exact review turned into the quick one the budget's fallback sends (every row
    labelled not exact), so that the page must complete it in the background."""
    doc = route.fetch().json()
    for m in doc["moves"]:
        m.update(p_before=None, p_choice=None, loss=None, luck=None, p_after=None, exact=False)
    doc.update(p_start=None, total_loss=None, total_luck=None, exact=False)
    doc["note"] = "exact review timed out after 2 s; showing the quick review"
    route.fulfill(json=doc)


def test_voltorb_2_a_review_always_comes_back_and_is_completed_in_the_background(page):
    page.route("**/api/voltorb/review", _as_quick_review)
    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    _type_clues(page)
    page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
    _flip_by_keyboard(page, 5, "1")
    page.wait_for_function("document.querySelector('#assist-count').textContent === '138'")
    seen_quick: list[bool] = []
    page.on(
        "response",
        lambda r: seen_quick.append(True) if r.url.endswith("/api/voltorb/review") else None,
    )
    page.evaluate(
        """() => new MutationObserver(() => {
            const row = document.querySelector('#review-table tbody tr.inexact');
            if (row) window.quickRow = row.innerText;
        }).observe(document.querySelector('#review-table tbody'), {childList: true})"""
    )
    page.click("#assist-review")
    page.wait_for_function(
        "document.querySelectorAll('#review-table tbody tr').length === 1"
        " && !document.querySelector('#review-table tbody tr').classList.contains('inexact')"
    )
    assert seen_quick  # the quick review came first, its row labelled...
    assert "not exact yet" in page.evaluate("window.quickRow")
    body = {"rows": " ".join(ROWS), "cols": " ".join(COLS), "flips": ["2,1=1"], "level": 2}
    exact = page.request.post("/api/voltorb/review/exact", data=body).json()["result"]
    cells = page.locator("#review-table tbody tr").first.locator("td").all_inner_texts()
    assert cells[4] == f"{100 * exact['moves'][0]['p_before']:.1f}%"  # ...then the exact one
    assert "Luck of the deal" in page.locator("#review-summary").inner_text()
    assert page.locator("#review-progress").is_hidden()


def _partly_exact_practice_review(route):
    """The server's practice review under a budget of 150 states instead of its 30 s: the
    library's own plan (``budget.practice_review_plan``) solves from the last flip back, so the
    first flips of this round stay labelled (the real partly exact document, not a mock-up).
    Any budget from 60 to 250 states leaves the last two rows exact; 300 made a third exact
    once the search's memo found mirror images (fewer states per row)."""
    from gamelab.voltorb.budget import STATES_PER_SECOND, practice_review_plan
    from gamelab.web.api.voltorb import PracticeReviewRequest
    from gamelab.web.common import to_json

    question = PracticeReviewRequest(**route.request.post_data_json).question()  # as the route
    plan = practice_review_plan(*question, 150 / STATES_PER_SECOND)
    route.fulfill(body=to_json(plan.fn(*plan.args)), content_type="application/json")


def test_voltorb_2_a_partly_exact_review_says_which_rows_are_exact_and_completes_the_rest(page):
    """Issue 24 V2: a review whose last flips were solved within the budget shows them exact,
    marks the others "not exact yet", says which is which, and completes them in the
    background (the job is held until the partial review has been read)."""
    from conftest import save_screenshot

    page.route("**/api/voltorb/practice/review", _partly_exact_practice_review)
    held: list = []
    page.route("**/api/voltorb/practice/review/exact", lambda route: held.append(route))
    page.goto("/voltorb")
    _start_practice(page, "6", "2")
    flips = [[1, 4], [1, 1], [3, 4], [4, 1], [3, 1], [5, 4]]
    for n, (r, c) in enumerate(flips, 1):
        page.locator(f'#practice-board .vf-tile[data-tile="{(r - 1) * 5 + c - 1}"]').click()
        page.wait_for_function(
            f"document.querySelectorAll('#practice-board .vf-tile.revealed').length === {n}"
        )
    page.click("#practice-quit")  # a player reviews a round that is over
    page.locator("#practice-status").wait_for(state="visible")
    page.click("#practice-review")
    rows = page.locator("#review-table tbody tr")
    page.wait_for_function("document.querySelectorAll('#review-table tbody tr').length === 6")
    page.wait_for_function("document.querySelector('#review-progress').hidden === false")
    exact = page.request.post(
        "/api/voltorb/practice/review/exact",
        data={"level": 6, "seed": 2, "generator": "hgss", "flips": flips, "quit": True},
    ).json()
    while exact["state"] != "done":  # the test's own request, not the page's (held)
        page.wait_for_timeout(200)
        exact = page.request.get(f"/api/jobs/{exact['job']}").json()
    full = exact["result"]["moves"]
    labelled = [rows.nth(i).get_attribute("class") == "inexact" for i in range(6)]
    # How many of the last flips the budget settles depends on what this process's memo of
    # solved states already holds (earlier tests in the same worker fill it): exact from the
    # last flip back, at least one row each way with this budget.
    inexact = labelled.count(True)
    assert 1 <= inexact <= 5 and labelled == [True] * inexact + [False] * (6 - inexact)
    for i in range(inexact):
        assert rows.nth(i).locator("td").nth(4).inner_text() == "not exact yet"
    for i in range(inexact, 6):  # the exact rows already show the exact review's figures
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[4] == f"{100 * full[i]['p_before']:.1f}%"
        assert cells[5] == f"{100 * full[i]['p_choice']:.1f}%"
    summary = page.locator("#review-summary").inner_text()
    first = inexact + 1
    reviewed = f"Flip {first} is" if first == 6 else f"Flips {first}–6 are"
    assert f"{reviewed} reviewed exactly" in summary
    marked = "flip marked" if inexact == 1 else f"{inexact} flips marked"
    assert f"the {marked} “not exact yet” follow" in summary
    note = page.locator("#review-note").text_content()
    assert f"{6 - inexact} of 6 rows exact" in note  # under "details"
    assert "being computed" in page.locator("#review-progress").inner_text()
    save_screenshot(page, "voltorb-review-partly-exact.png")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    save_screenshot(page, "voltorb-review-partly-exact-phone.png")
    assert held  # the page asked for the exact review in the background: let it through
    page.unroute("**/api/voltorb/practice/review/exact")
    for route in held:
        route.continue_()
    page.wait_for_function(
        "document.querySelectorAll('#review-table tbody tr.inexact').length === 0"
    )
    for i in range(6):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[4] == f"{100 * full[i]['p_before']:.1f}%"
    summary = page.locator("#review-summary").inner_text()
    assert "not exact" not in summary and "Result: quit with the coins" in summary
    assert page.locator("#review-progress").is_hidden()


def test_issue_26_item_2_the_assistant_offers_the_round_goals_in_words(page):
    """The Goal menu: the best play for a round objective (here: keep my level), in words,
    the library's advice (assistant.advise_objective through /api/voltorb/objective)."""
    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    _type_clues(page)
    page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
    box = page.locator("#assist-objective-advice")
    assert box.is_hidden()  # no goal chosen: only the win-maximising advice
    page.select_option("#assist-objective", "survive")
    page.wait_for_function(
        "document.querySelector('#assist-objective-advice').textContent.startsWith('Flip')"
    )
    body = {"rows": " ".join(ROWS), "cols": " ".join(COLS), "level": 2, "objective": "survive"}
    expected = page.request.post("/api/voltorb/objective", data=body).json()
    assert expected["answer"] == "optimal"
    text = box.inner_text()
    assert text == expected["advice"][0].upper() + expected["advice"][1:] + "."
    assert "level 2" in text and ("Flip row" in text or "Quit now" in text)
    for jargon in ("objective", "optimal", "MinRisk"):  # issue 47, item 12: the game's words
        assert jargon not in text, jargon
    from conftest import save_screenshot

    save_screenshot(page, "voltorb-goal.png")  # only with $GAMELAB_SCREENSHOTS (a look by eye)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    save_screenshot(page, "voltorb-goal-phone.png")


def test_issue_26_item_4_the_page_shows_the_levels_optimal_win_rate(page):
    """The chosen level's line is the library's shipped table (through /api/voltorb/levels),
    in the assistant and in practice, and follows the level selects."""
    from gamelab.voltorb.optimal_table import level_win_rates

    texts = {r.level: r.text for r in level_win_rates()}
    page.goto("/voltorb")
    line = page.locator("#assist-level-rate")
    page.wait_for_function("document.querySelector('#assist-level-rate').textContent !== ''")
    assert line.inner_text() == texts[1]  # level 1 is the assistant's default
    page.select_option("#assist-level", "8")
    assert line.inner_text() == texts[8]
    assert "optimal play clears" in texts[8] and "%" in texts[8]
    page.locator("#tab-practice").click()
    page.select_option("#practice-level", "5")
    assert page.locator("#practice-level-rate").inner_text() == texts[5]


def _lose_a_practice_round(page, level=1, seed=12345):
    """Start practice round (level, seed) and flip one of its Voltorbs (the board comes from
    the server's own answer for the round quit at once)."""
    _start_practice(page, str(level), str(seed))
    ended = page.request.post(
        "/api/voltorb/practice/play", data={"level": level, "seed": seed, "quit": True}
    ).json()
    voltorb = next(r * 5 + c for r in range(5) for c in range(5) if ended["board"][r][c] == 0)
    page.locator(f'#practice-board .vf-tile[data-tile="{voltorb}"]').click()
    page.locator("#practice-status").wait_for(state="visible")
    return voltorb


def test_issue_47_item_7_practice_rounds_are_kept_with_the_review_s_verdict(page):
    page.goto("/voltorb")
    _lose_a_practice_round(page)
    page.click("#tab-history")
    panel = page.locator("#history-panel")
    assert (
        "1 game · 0 wins (0 %) · current streak 0" in panel.locator(".history-stats").inner_text()
    )
    row = panel.locator("tbody tr")
    assert row.count() == 1
    assert "level 1, seed 12345" in row.inner_text() and "Voltorb" in row.inner_text()
    # not reviewed yet: its Review button reviews it and keeps the verdict in words
    row.locator(".history-review").click()
    page.locator("#review-body").wait_for(state="visible")
    page.click("#tab-history")
    page.wait_for_function("!document.querySelector('#history-panel .history-review')")
    skill = panel.locator("td.history-skill").inner_text()
    luck = panel.locator("td.history-luck").inner_text()
    assert skill == "every flip optimal" or skill.startswith("gave away ")
    assert luck.startswith(("lucky", "unlucky", "even"))
    # kept over a reload; cleared on request (after a question)
    page.reload()
    page.click("#tab-history")
    assert panel.locator("tbody tr").count() == 1
    page.once("dialog", lambda dialog: dialog.accept())
    panel.locator(".history-clear").click()
    panel.locator(".history-empty").wait_for()
    page.reload()
    page.click("#tab-history")
    assert panel.locator(".history-empty").count() == 1


def test_issue_47_items_6_15_back_returns_to_the_tab_before_and_arrows_switch_tabs(page):
    page.goto("/")
    page.goto("/voltorb")
    page.click("#tab-practice")
    page.click("#tab-review")
    page.go_back()
    page.locator("#practice").wait_for(state="visible")
    assert page.locator("#tab-practice").get_attribute("aria-selected") == "true"
    page.go_back()
    page.locator("#assist").wait_for(state="visible")
    assert page.url.endswith("/voltorb")
    page.go_forward()
    page.locator("#practice").wait_for(state="visible")
    page.reload()  # a reload keeps the tab
    page.locator("#practice").wait_for(state="visible")
    # the arrow keys move between the tabs (WAI-ARIA tabs)
    page.locator("#tab-practice").focus()
    page.keyboard.press("ArrowRight")
    page.locator("#review").wait_for(state="visible")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.locator("#assist").wait_for(state="visible")
    assert page.evaluate("document.activeElement.id") == "tab-assist"
    page.keyboard.press("End")
    page.locator("#history").wait_for(state="visible")


def test_issue_47_unreadable_storage_does_not_break_the_page(page):
    page.goto("/voltorb")
    page.evaluate(
        """() => { for (const k of ['gamelab.voltorb.history', 'gamelab.voltorb.practice',
                                    'gamelab.voltorb.assist']) localStorage.setItem(k, '{not json'); }"""
    )
    page.reload()
    page.click("#tab-history")
    page.locator("#history-panel .history-empty").wait_for()


def test_issue_47_item_6_a_practice_round_survives_a_reload(page):
    """Board, seed, flips, memo marks and the switches come back after a reload, on the tab
    the player was on."""
    page.goto("/voltorb")
    _start_practice(page, "3", "12345")
    board = page.request.post(
        "/api/voltorb/practice/play", data={"level": 3, "seed": 12345, "quit": True}
    ).json()["board"]
    one = next(t for t in range(1, 25) if board[t // 5][t % 5] == 1)  # a safe flip
    page.locator(f'#practice-board .vf-tile[data-tile="{one}"]').click()
    page.wait_for_function("document.querySelectorAll('#practice-board .vf-tile.revealed').length")
    page.check("#practice-memo")
    page.locator('#practice-board .vf-tile[data-tile="0"]').click()
    page.locator("#memo-chooser button[data-memo='0']").click()
    page.locator("#memo-chooser button[data-memo='2']").click()
    clues = page.locator("#practice-board .vf-clue-shown").all_inner_texts()
    page.reload()
    page.locator("#practice").wait_for(state="visible")
    page.wait_for_function("document.querySelectorAll('#practice-board .vf-tile.revealed').length")
    assert page.locator("#practice-board .vf-clue-shown").all_inner_texts() == clues
    assert page.locator(f'#practice-board .vf-tile[data-tile="{one}"]').inner_text() == "1"
    assert page.locator('#practice-board .vf-tile[data-tile="0"] .vf-memo').inner_text() == "V2"
    assert page.locator("#practice-seed").input_value() == "12345"
    assert page.locator("#practice-memo").is_checked()
    assert page.locator("#practice-shown-level").inner_text() == "3"


def test_issue_47_item_9_no_stale_review_no_wrong_red_clue_and_a_long_error_keeps_the_layout(
    page,
):
    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    _type_clues(page)
    page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
    # a flip that contradicts the clues: the flip is wrong, not the (accepted) row clue
    page.locator('#assist-board .vf-tile[data-tile="0"]').focus()
    page.keyboard.press("3")
    error = page.locator("#assist-clue-error")
    error.wait_for(state="visible")
    assert error.inner_text().startswith("row 1, column 1 cannot show a 3 with these clues")
    assert page.locator("#assist-board input.vf-clue[aria-invalid=true]").count() == 0
    assert page.locator('#assist-board .vf-tile[data-tile="0"]').get_attribute("aria-invalid")
    # a long message wraps under the board: the advice stays beside it at 1280 px
    layout = page.evaluate(
        """() => { const b = document.querySelector('#assist-board').getBoundingClientRect();
                   const s = document.querySelector('#assist .vf-side').getBoundingClientRect();
                   return [s.left >= b.right, s.top < b.bottom]; }"""
    )
    assert layout == [True, True]
    # a review: while the next one is computed, the previous one's table is not on show
    _flip_by_keyboard(page, 5, "1")
    page.wait_for_function("document.querySelector('#assist-count').textContent === '138'")
    page.click("#assist-review")
    page.wait_for_function("document.querySelectorAll('#review-table tbody tr').length === 1")
    held = []
    page.route("**/api/voltorb/review", lambda route: held.append(route))
    page.click("#tab-assist")
    _flip_by_keyboard(page, 7, "2")
    page.wait_for_function(
        "document.querySelector('#assist-board .vf-tile[data-tile=\"7\"]').classList.contains('revealed')"
    )
    with page.expect_request("**/api/voltorb/review"):
        page.click("#assist-review")
    page.locator("#review-waiting").wait_for(state="visible")
    assert page.locator("#review-body").is_hidden()
    assert page.locator("#review-table tbody tr").count() == 0
    for _ in range(200):  # each call lets Playwright hand the held request to the handler
        if held:
            break
        page.evaluate("1")
    assert held
    held[0].continue_()
    page.unroute("**/api/voltorb/review")
    page.wait_for_function("document.querySelectorAll('#review-table tbody tr').length === 2")
    assert (
        page.locator("#review-waiting").is_hidden() and page.locator("#review-progress").is_hidden()
    )


#: the page's visible words (closed <details>, e.g. the glossary and a note's details, are
#: not rendered, so not in innerText)
VISIBLE_TEXT = "() => document.querySelector('main').innerText"

#: the lowest bottom of the elements named, in page coordinates: at most the screen's height
#: means the player sees them all on the page's first screen, without scrolling
SPAN_JS = """(selectors) => Math.max(...selectors.map(
  (s) => document.querySelector(s).getBoundingClientRect().bottom + window.scrollY))"""


def test_issue_47_item_12_the_page_speaks_the_game_s_words(page):
    page.route("**/api/voltorb/solve", _as_budget_fallback)
    held = []  # the exact search never answers here: the quick answer stays on show
    page.route("**/api/voltorb/solve/exact", lambda route: held.append(route))
    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    _type_clues(page)
    page.locator("#assist-note").wait_for(state="visible")
    page.locator('#assist-board .vf-tile[data-tile="0"]').hover()
    text = page.evaluate(VISIBLE_TEXT)
    for jargon in ("MinRisk", "states", "figure of merit", "hgss", "may hold", "V123", "blog"):
        assert jargon not in text, jargon
    assert "could be a Voltorb, 1 or 2" in page.locator("#assist-tileinfo").inner_text()
    assert "safest flip" in page.locator("#assist-note").inner_text()
    # the technical names stay at hand: the note's details and the glossary
    page.locator("#assist-note summary").click()
    assert "showing MinRisk" in page.locator("#assist-note").inner_text()
    page.locator("#glossary summary").click()
    assert "MinRisk" in page.locator("#glossary").inner_text()


def test_issue_47_item_13_on_a_phone_the_board_and_the_advice_fit_one_screen(browser, live_server):
    context = _phone(browser, live_server)
    try:
        page = context.new_page()
        page.goto("/voltorb")
        page.select_option("#assist-level", "2")
        _type_clues(page)
        page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
        span = page.evaluate(SPAN_JS, ["#assist-board", "#assist-recommended", "#assist-pwin"])
        assert span <= 844, f"board and advice end at {span} px"
        page.click("#tab-practice")
        page.fill("#practice-seed", "12345")
        page.press("#practice-seed", "Enter")
        page.wait_for_function("document.querySelector('#practice-coins').textContent === '0'")
        page.check("#practice-overlay")
        page.wait_for_function("document.querySelector('#practice-pwin').textContent !== '—'")
        span = page.evaluate(SPAN_JS, ["#practice-board", "#practice-pwin", "#practice-coins"])
        assert span <= 844, f"board and advice end at {span} px"
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    finally:
        context.close()


def test_a_practice_seed_in_full_width_digits_deals_its_round(page):
    """Digits as a Japanese keyboard types them are read in the seed box as in the clue boxes
    (issue 50); a superscript is still refused in the page's words."""
    page.goto("/voltorb")
    _start_practice(page, "3", "１２３４５")
    clues = [page.locator("#practice-board .vf-clue-shown").nth(i).inner_text() for i in range(10)]
    expected = page.request.post(
        "/api/voltorb/practice/new", data={"level": 3, "seed": 12345}
    ).json()
    assert " ".join(clues[:5]) == expected["rows"] and " ".join(clues[5:]) == expected["cols"]
    page.fill("#practice-seed", "1²")
    page.press("#practice-seed", "Enter")
    error = page.locator("#practice .field-error", has_text="a seed is a whole number")
    error.wait_for(state="visible")
    assert page.locator("#practice-seed").get_attribute("aria-invalid") == "true"


def test_a_superscript_in_a_clue_is_refused_not_read_as_a_digit(page):
    """The page sends '4,²' as typed, so the server says what is wrong (it read it as 4,2)."""
    page.goto("/voltorb")
    page.select_option("#assist-level", "2")
    _type_clues(page)
    page.wait_for_function("document.querySelector('#assist-count').textContent === '198'")
    row3 = page.locator('#assist-board input[data-kind="row"][data-index="2"]')
    row3.fill("4,²")
    row3.press("Tab")
    error = page.locator("#assist-clue-error")
    error.wait_for(state="visible")
    assert "'²' is not a digit" in error.inner_text()
    assert row3.get_attribute("aria-invalid") == "true"


def test_voltorb_on_a_phone_the_review_shows_every_figure_of_a_flip(browser, live_server):
    """At 390 px the review's table scrolled sideways with nothing to say so: each flip's
    P(win) after and luck were off the screen. On a phone each flip is now a block of wrapped
    lines, every figure named by its column."""
    from conftest import phone_page

    with phone_page(browser, live_server, 390, 844) as page:
        page.goto("/voltorb")
        _start_practice(page, "1", "12345")
        page.locator('#practice-board .vf-tile[data-tile="0"]').click()
        page.wait_for_function(
            "document.querySelectorAll('#practice-board .vf-tile.revealed').length === 1"
        )
        page.click("#practice-review")
        page.locator("#review-table tbody tr").first.wait_for()
        cells = page.evaluate(
            """() => [...document.querySelectorAll('#review-table tbody tr:first-child td')]
                 .map((td) => { const r = td.getBoundingClientRect();
                   return {label: td.dataset.label || '', left: r.left, right: r.right,
                           width: r.width}; })"""
        )
        assert all(c["width"] > 0 and 0 <= c["left"] and c["right"] <= 390 for c in cells), cells
        labels = [c["label"] for c in cells]  # (a row not exact yet spans loss to luck)
        assert any("loss" in x for x in labels) and any("luck" in x for x in labels), labels
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
