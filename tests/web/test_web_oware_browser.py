"""The Owaré page in a real Chromium: a whole game against a fast engine by clicking, take back,
hint, the record downloaded and loaded again, the review; illegal clicks; a pasted position in
the analysis view; the sowing animation skipped."""

from conftest import save_screenshot

from gamelab.oware.play import parse_record

IDLE = "document.querySelector('#board').dataset.state === 'idle'"
MY_TURN = (
    f"{IDLE} && (document.querySelector('#board .ow-house.playable') !== null"
    " || document.querySelector('#board').dataset.over === 'true')"
)


def _moves(page) -> list[str]:
    return page.locator("#board").get_attribute("data-moves").split()


def _ready(page, opponent="engine:depth=2", animate=False):
    page.goto("/oware")
    page.locator("#board .ow-house.playable").first.wait_for()
    if not animate:
        page.uncheck("#animate")
    page.select_option("#opponent", opponent)
    page.click("#new-game")
    page.wait_for_function(MY_TURN)


def _play(page, house=None):
    """Click a house (default: the first playable one) and wait for the opponent's reply."""
    n = len(_moves(page))
    target = (
        page.locator(f'#board .ow-house[data-house="{house}"]')
        if house
        else page.locator("#board .ow-house.playable").first
    )
    target.click()
    page.wait_for_function(
        f"document.querySelector('#board').dataset.moves.split(' ').filter(Boolean).length >= {n + 1}"
        f" && ({MY_TURN})"
    )


def test_a_whole_game_by_clicking_with_take_back_hint_record_and_review(page, tmp_path):
    _ready(page)
    _play(page)
    _play(page)
    assert len(_moves(page)) == 4
    page.click("#takeback")
    page.wait_for_function("document.querySelector('#board').dataset.moves.split(' ').length === 2")
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').textContent.startsWith('Hint: ')")
    hinted = page.locator("#board .ow-house.hinted").get_attribute("data-house")
    hint = page.request.post(
        "/api/oware/analyse", data={"position": "start", "moves": _moves(page), "time": 0.2}
    ).json()
    assert hinted in "ABCDEF" and hint["analysis"]["best_move_text"] in "ABCDEF"
    assert not page.locator("#eval").is_hidden()
    page.check("#show-pv")
    assert page.locator("#pv-text").inner_text().split(": ")[1].split()[0] == hinted
    for _ in range(200):  # click houses until the game ends
        if page.locator("#board").get_attribute("data-over") == "true":
            break
        _play(page)
    status = page.locator("#status").inner_text()
    moves = _moves(page)
    # the page's final score is the one the rules give for its record
    with page.expect_download() as info:
        page.click("#download")
    text = tmp_path / "game.txt"
    info.value.save_as(text)
    start, offsets, headers = parse_record(text.read_text())
    p = start
    for off in offsets:
        p = p.play(off)
    assert (
        len(offsets) == len(moves)
        and headers["north"] == "engine:depth=2"
        and headers["south"] == "human"
    )
    assert "Game over: " in status and f"Final score {p.result()[0]}-{p.result()[1]}." in status
    # the record loads again into a fresh game
    page.click("#new-game")
    page.wait_for_function(MY_TURN + " && document.querySelector('#board').dataset.moves === ''")
    page.locator("#load-box summary").click()
    page.fill("#record-in", text.read_text())
    page.click("#load-record")
    page.wait_for_function("document.querySelector('#board').dataset.over === 'true'")
    assert _moves(page) == moves
    page.click("#to-review")
    page.wait_for_function(
        f"document.querySelectorAll('#review-table tbody tr').length === {len(moves)}"
        " && !document.querySelector('#review-progress')",
        timeout=120_000,
    )
    rows = page.locator("#review-table tbody tr")
    assert rows.count() == len(moves)
    assert 1 <= page.locator("#review-table tbody tr.worst").count() <= 3
    assert (
        page.locator("#review-table tbody tr").nth(0).locator("td").nth(2).inner_text() == moves[0]
    )


def test_illegal_clicks_say_why_and_change_nothing(page):
    _ready(page, opponent="random")
    page.locator('#board .ow-house[data-house="a"]').click()  # North's house on South's move
    page.wait_for_function(
        "document.querySelector('#move-error').textContent.includes(\"it is South's move\")"
    )
    assert _moves(page) == []
    # the feeding rule: North has no seeds, and South's A cannot reach North's row
    page.click("#tab-analysis")
    page.fill("#an-position", "1-0-0-0-0-1-0-0-0-0-0-0-23-23-S")
    page.click("#an-play")
    page.wait_for_function(
        f"{IDLE} && document.querySelector('#board .ow-house[data-house=\"F\"].playable') !== null"
    )
    page.locator('#board .ow-house[data-house="A"]').click()
    page.wait_for_function(
        "document.querySelector('#move-error').textContent.includes('feeding rule')"
    )
    assert (
        _moves(page) == []
        and page.locator('#board .ow-house[data-house="A"]').get_attribute("data-seeds") == "1"
    )
    page.locator('#board .ow-house[data-house="B"]').click()
    page.wait_for_function(
        "document.querySelector('#move-error').textContent.includes('house B is empty')"
    )
    assert not page.locator("#exact").is_hidden()  # two seeds on the board: the tablebase's verdict


def test_a_pasted_position_is_analysed_and_a_bad_one_explained(page):
    page.goto("/oware")
    page.click("#tab-analysis")
    page.fill("#an-position", "4-4-4")
    page.click("#an-go")
    page.wait_for_function(
        "document.querySelector('#an-position + .field-error')?.textContent.includes('12 houses')"
    )
    page.fill("#an-position", "4-4-4-4-4-4-4-4-4-4-4-4-1-0-S")
    page.click("#an-go")
    page.wait_for_function(
        "document.querySelector('#an-position + .field-error')?.textContent.includes('48 seeds')"
    )
    position = "0-2-0-1-0-0-1-0-0-0-0-1-21-22-N"
    page.fill("#an-position", position)
    page.fill("#an-time", "0.2")
    page.click("#an-go")
    page.locator("#an-result td[data-key='principal variation']").wait_for()
    api = page.request.post("/api/oware/analyse", data={"position": position, "time": 0.2}).json()
    assert (
        page.locator("#an-result td[data-key='best move']").inner_text()
        == api["analysis"]["best_move_text"]
    )
    assert page.locator("#an-result td[data-key='exact']").inner_text() == api["exact"]["text"]
    assert (
        page.locator('#an-board input[aria-label="house B"]').input_value() == "2"
    )  # the editor shows it
    assert page.locator("#an-side").input_value() == "N"
    # editing a house rewrites the text form
    page.fill('#an-board input[aria-label="house B"]', "1")
    page.fill('#an-board input[aria-label="South store S"]', "22")
    assert page.locator("#an-position").input_value() == "0-1-0-1-0-0-1-0-0-0-0-1-22-22-N"


def test_the_sowing_animation_can_be_skipped_and_screenshot(page):
    _ready(page, opponent="engine:depth=2", animate=True)
    page.locator('#board .ow-house[data-house="F"]').click()
    page.wait_for_function("document.querySelector('#board').dataset.state === 'animating'")
    assert not page.locator("#skip").is_hidden()
    page.click("#skip")
    page.wait_for_function(
        f"{MY_TURN} && document.querySelector('#board').dataset.moves.split(' ').length === 2"
    )
    view = page.request.post("/api/oware/state", data={"moves": _moves(page)}).json()
    shown = [
        int(page.locator(f'#board .ow-house[data-house="{c}"]').get_attribute("data-seeds"))
        for c in "ABCDEFabcdef"
    ]
    assert shown == view["houses"]
    page.uncheck("#animate")
    letter = page.locator("#board .ow-house.playable").first.get_attribute("data-house")
    page.locator("body").press(letter)  # the keyboard plays too
    page.wait_for_function(
        f"document.querySelector('#board').dataset.moves.split(' ').length === 4 && ({MY_TURN})"
    )
    assert _moves(page)[2] == letter
    _play(page)
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').textContent.startsWith('Hint: ')")
    page.check("#show-pv")
    assert page.locator("#board .ow-house.hinted").count() == 1
    save_screenshot(page, "oware-page.png")


def test_oware_2_new_game_cancels_the_pending_reply(page):
    """Issue 25, Owaré 2: New game while the engine thinks used to stay "thinking…" and the old
    reply brought back its moves ("C d"); now the old reply is dropped."""
    _ready(page, opponent="engine:time=2")
    with page.expect_response("**/api/oware/reply", timeout=60_000) as old:
        page.locator('#board .ow-house[data-house="C"]').click()
        page.wait_for_function("document.querySelector('#board').dataset.state === 'thinking'")
        page.once("dialog", lambda dialog: dialog.accept())  # "discards the game in progress"
        page.click("#new-game")
        page.wait_for_function(
            MY_TURN + " && document.querySelector('#board').dataset.moves === ''"
        )
    assert old.value.ok  # the old game's reply came back after the new game started ...
    page.wait_for_function("!document.body.classList.contains('is-busy')")
    # ... and changed nothing: a fresh board, South to move, nobody thinking
    assert _moves(page) == []
    assert page.locator("#board").get_attribute("data-state") == "idle"
    assert "thinking" not in page.locator("#status").inner_text()
    assert page.locator('#board .ow-house[data-house="C"]').get_attribute("data-seeds") == "4"


def test_oware_1_review_is_as_strong_as_the_engine_and_never_blames_the_hint(page):
    """Issue 25, Owaré 1: the review searched 8 plies against a 14-ply engine and called the
    hinted move the costliest. Now it searches as long as the engine took (0.5 s a position),
    in pieces with progress, states its depth, and a hinted (or engine) move is no loss."""
    _ready(page, opponent="engine:time=0.5")
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').textContent.startsWith('Hint: ')")
    hinted = page.locator("#board .ow-house.hinted").get_attribute("data-house")
    _play(page, hinted)
    _play(page)
    moves = _moves(page)
    assert len(moves) == 4 and moves[0] == hinted
    page.click("#to-review")
    page.locator("#review-progress").wait_for()
    assert "of 4" in page.locator("#review-progress").inner_text()
    page.wait_for_function(
        "document.querySelectorAll('#review-table tbody tr').length === 4"
        " && !document.querySelector('#review-progress')"
    )
    summary = page.locator("#review-summary").inner_text()
    assert "Searched 0.5 s a position, as the engine you played (depth " in summary, summary
    rows = page.locator("#review-table tbody tr")
    for ply in (1, 2, 4):  # the hinted move and the engine's own replies
        lost = rows.nth(ply - 1).locator("td").nth(6)
        assert "lost" not in (lost.get_attribute("class") or ""), (ply, lost.inner_text())
        assert "costliest" not in lost.inner_text()
    depths = [int(rows.nth(i).locator("td").nth(7).inner_text()) for i in range(4)]
    assert all(d >= 1 for d in depths) and f"depth {min(depths)}" in summary, (depths, summary)


def test_oware_3_the_game_survives_a_reload_and_is_not_discarded_unasked(page):
    """Issue 25, Owaré 3: a reload lost the game, and loading an empty record box wiped it."""
    _ready(page)
    _play(page)
    moves = _moves(page)
    assert len(moves) == 2
    page.reload()
    page.wait_for_function(f"{MY_TURN} && document.querySelector('#board').dataset.moves !== ''")
    assert _moves(page) == moves and page.locator("#opponent").input_value() == "engine:depth=2"
    # an empty record box says so and keeps the game
    page.locator("#load-box summary").click()
    page.fill("#record-in", "  ")
    page.click("#load-record")
    page.wait_for_function(
        "document.querySelector('#record-in + .field-error')?.textContent.includes('empty')"
    )
    assert _moves(page) == moves
    # New game asks first; declining keeps the game, accepting starts afresh
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#new-game")
    page.wait_for_function(IDLE)
    assert asked and "discards the game in progress (2 moves)" in asked[0]
    assert _moves(page) == moves
    page.once("dialog", lambda d: d.accept())
    page.click("#new-game")
    page.wait_for_function(MY_TURN + " && document.querySelector('#board').dataset.moves === ''")


def test_oware_5_the_stores_and_apart_the_rule_that_assigns_the_rest(page):
    """Issue 25, Owaré 5: the final score counted the seeds left on the board without saying
    so (stores 26-6 shown as "Game over 13-35"). Now the stores, then the rule, then the score."""
    page.goto("/oware")
    page.locator("#board .ow-house.playable").first.wait_for()
    page.click("#tab-analysis")
    page.fill("#an-position", "0-0-0-0-0-1-0-0-0-0-0-0-23-24-N")  # North cannot move
    page.click("#an-play")
    page.wait_for_function("document.querySelector('#board').dataset.over === 'true'")
    status = page.locator("#status").inner_text()
    assert "Stores: South 23, North 24." in status, status
    assert "the 1 seed left on the board goes to the side whose row it is on (South +1)" in status
    assert status.index("Stores") < status.index("Final score 24-24.")
