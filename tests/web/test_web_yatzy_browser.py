"""The Yatzy page in a real Chromium: the coach against the CLI, a game played by clicking dice
to the end and its review, the assistant's errors. Games start near their end (three boxes
open) so each test takes a few seconds; all use the yatzy tables (in the test cache)."""

import json

from gamelab.yatzy.game import turn_faces

NEAR_END = {
    "ones": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "one_pair": 12,
    "two_pairs": 22,
    "three_kind": 15,
    "four_kind": 20,
    "small_straight": 15,
    "large_straight": 20,
}
CARD_TEXT = ",".join(f"{k}={v}" for k, v in NEAR_END.items())


def _ready(page):
    page.goto("/yatzy")
    page.locator("#dice .die").first.wait_for()


def _coach_rows(page):
    rows = page.locator("#coach tr.option")
    return [
        (rows.nth(i).get_attribute("data-option"), rows.nth(i).locator("td.value").inner_text())
        for i in range(rows.count())
    ]


def _seed_with_first_roll(dice):
    return next(
        s for s in range(100_000) if "".join(map(str, sorted(turn_faces(s, 0, 0)[0]))) == dice
    )


def test_coach_at_the_start_of_a_yatzy_game_equals_the_cli(page, gamelab_cli):
    # the acceptance: a yatzy game whose first roll is 11114, two rerolls left
    seed = _seed_with_first_roll("11114")
    _ready(page)
    page.fill("#seed", str(seed))
    page.click("#new-game")
    page.wait_for_function(
        "[...document.querySelectorAll('#dice .die')].map((d) => d.dataset.face).sort().join('')"
        " === '11114'"
    )
    page.check("#coach-on")
    page.locator("#coach tr.option.best").wait_for()
    cli = json.loads(
        gamelab_cli(
            "yatzy", "advise", "--rules", "yatzy", "--dice", "11114", "--rolls-left", "2", "--json"
        ).stdout
    )
    shown = _coach_rows(page)
    assert shown[0][0] == "1111" == cli["options"][0]["keep"]
    assert (
        shown == [(o["keep"], f"{o['expected_score']:.3f}") for o in cli["options"]][: len(shown)]
    )


def test_play_a_game_to_the_end_by_clicking_dice_and_review_it(page, gamelab_cli):
    _ready(page)
    page.click("#tab-assist")
    for box, points in NEAR_END.items():
        page.fill(f'#assist-card input[data-box="{box}"]', str(points))
    page.click("#assist-play")
    page.wait_for_function(
        "document.querySelector('#turn-line').textContent.startsWith('Turn 13 of 15')"
    )
    page.check("#coach-on")
    page.locator("#coach tr.option.best").wait_for()
    # the coach's best option for this state equals `gamelab yatzy advise --json`
    dice = "".join(
        sorted(page.locator("#dice .die").nth(i).get_attribute("data-face") for i in range(5))
    )
    cli = json.loads(
        gamelab_cli(
            "yatzy",
            "advise",
            "--rules",
            "yatzy",
            "--card",
            CARD_TEXT,
            "--dice",
            dice,
            "--rolls-left",
            "2",
            "--json",
        ).stdout
    )
    assert _coach_rows(page)[0] == (
        cli["options"][0]["keep"],
        f"{cli['options'][0]['expected_score']:.3f}",
    )
    state_js = (
        "() => document.querySelector('#turn-line').textContent + [...document.querySelectorAll('#dice .die')]"
        ".map((d) => d.dataset.face).join('')"
    )
    for _ in range(
        12
    ):  # always take the coach's advice: hold its dice by clicking them, or score its box
        if page.locator("#result").is_visible():
            break
        best = page.locator("#coach tr.option.best").get_attribute("data-option")
        if (
            page.locator("#reroll").is_enabled()
            and not page.locator("#coach-what").inner_text() == "boxes"
        ):
            faces = [page.locator("#dice .die").nth(i).get_attribute("data-face") for i in range(5)]
            wanted = list("" if best == "-" else best)
            for i, face in enumerate(faces):
                if face in wanted:
                    wanted.remove(face)
                    page.locator("#dice .die").nth(i).click()
            assert page.locator("#dice .die.held").count() == (0 if best == "-" else len(best))
            before = page.evaluate(state_js)
            page.click("#reroll")
        else:
            before = page.evaluate(state_js)
            page.click(f'#card button.score-btn[data-box="{best}"]')
        page.wait_for_function(
            f"(b) => ({state_js})() !== b || !document.querySelector('#result').hidden", arg=before
        )
    page.locator("#result").wait_for()
    total = page.locator("#total-you").inner_text()
    page.click("#open-review")
    page.locator("#review-loss").wait_for()
    assert page.locator("#review-loss").inner_text() == "0.000 expected points"
    assert page.locator("#review-final").inner_text() == total
    assert page.locator("#review-plot svg line.your-score").count() == 1
    assert page.locator("#review-decisions tbody tr").count() >= 3


def test_assistant_errors_show_the_library_message_and_the_bot_plays(page):
    _ready(page)
    page.click("#tab-assist")
    for face in "1111":
        page.click(f'#assist-faces button[data-face="{face}"]')
    page.click("#assist-go")
    error = page.locator("#assist-dice + .field-error")
    error.wait_for(state="visible")
    assert "dice must be five digits 1-6 like 11114, got '1111'" in error.inner_text()
    page.fill("#assist-dice", "11117")
    page.press("#assist-dice", "Enter")
    page.wait_for_function(
        "document.querySelector('#assist-dice + .field-error').textContent.includes(\"'11117'\")"
    )
    page.fill("#assist-dice", "11114")
    page.fill('#assist-card input[data-box="fours"]', "5")
    page.click("#assist-go")
    card_error = page.locator("#assist-card-error")
    card_error.wait_for(state="visible")
    assert "fours=5 is impossible" in card_error.inner_text()
    assert page.locator("#assist-options tr").count() == 0
    page.fill('#assist-card input[data-box="fours"]', "")
    page.click("#assist-go")
    page.locator("#assist-options tr.option.best").wait_for()
    assert page.locator("#assist-options tr.option.best").get_attribute("data-option") == "1111"
    # against the optimal bot from a near-end card: one box scored, the bot's turn is shown
    page.click("#tab-play")
    page.select_option("#opponent", "optimal")
    page.click("#tab-assist")
    for box, points in NEAR_END.items():
        page.fill(f'#assist-card input[data-box="{box}"]', str(points))
    page.click("#assist-play")
    page.wait_for_function(
        "document.querySelector('#turn-line').textContent.startsWith('Turn 13 of 15')"
    )
    page.click('#card button.score-btn[data-box="chance"]')
    page.locator("#bot-log li").wait_for()
    assert "plays for the expected score" in page.locator("#bot-log li").inner_text()
    assert "expected final" in page.locator("#bot-log li").inner_text()
