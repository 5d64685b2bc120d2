"""The Owaré page in a real Chromium: a whole game by clicking, take back, hint, analysis, review."""


def _click_a_legal_house(page):
    page.wait_for_function("!document.querySelector('#status').textContent.includes('thinking')")
    houses = page.locator("#board .ow-house.playable")
    houses.first.click()


def test_play_a_whole_game_by_clicking_then_review(page):
    page.goto("/oware")
    page.select_option("#opponent", "random")
    page.locator("#new-game").click()
    page.wait_for_selector("#board .ow-house.playable")
    _click_a_legal_house(page)
    page.wait_for_function("document.querySelector('#board').dataset.moves.split(' ').length === 2")
    page.locator("#takeback").click()
    page.wait_for_function("document.querySelector('#board').dataset.moves === ''")
    page.locator("#hint").click()
    page.wait_for_function("document.querySelector('#hint-text').textContent.startsWith('Hint: ')")
    for _ in range(300):
        if page.locator("#board").get_attribute("data-over") == "true":
            break
        page.wait_for_function("document.querySelector('#board .ow-house.playable') || "
                               "document.querySelector('#board').dataset.over === 'true'")
        if page.locator("#board").get_attribute("data-over") == "true":
            break
        _click_a_legal_house(page)
    assert page.locator("#status").inner_text().startswith("Game over")
    moves = page.locator("#board").get_attribute("data-moves").split()
    view = page.request.post("/api/oware/state", data={"moves": moves}).json()
    assert view["over"] and f"{view['result'][0]}-{view['result'][1]}" in page.locator("#status").inner_text()
    page.locator("#to-review").click()
    page.wait_for_selector("#review-table")
    assert page.locator("#review-table tr").count() == len(moves) + 1


def test_an_illegal_click_and_a_pasted_position(page):
    page.goto("/oware")
    page.wait_for_selector("#board .ow-house.playable")
    page.locator('#board .ow-house[data-house="a"]').click()  # North's house: nothing happens
    assert page.locator("#board").get_attribute("data-moves") == ""
    page.locator("#tab-analysis").click()
    page.locator("#an-position").fill("4-4-4")
    page.locator("#an-go").click()
    page.wait_for_function("document.querySelector('#an-position + .field-error')?.textContent.includes('12 houses')")
    page.locator("#an-position").fill("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S")
    page.locator("#an-time").fill("0.3")
    page.locator("#an-go").click()
    page.wait_for_selector("#an-result td[data-key='principal variation']")
    assert page.locator("#an-result td[data-key='best move']").inner_text() in "ABCDEF"
