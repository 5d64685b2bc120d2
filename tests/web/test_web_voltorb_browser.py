"""The Voltorb Flip page in a real Chromium: type clues, read the odds, record flips, errors."""

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


def test_practice_round_to_the_end_and_its_review(page):
    page.goto("/voltorb")
    page.click("#tab-practice")
    page.select_option("#practice-level", "3")
    page.fill("#practice-seed", "12345")
    page.press("#practice-seed", "Enter")
    page.wait_for_function("document.querySelector('#practice-coins').textContent === '0'")
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
