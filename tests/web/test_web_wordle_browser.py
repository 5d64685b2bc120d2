"""The Pokémon Wordle page in a real Chromium: romaji + autocomplete, tiles, play, review."""

from gamelab.wordle.practice import answer_of_seed
from gamelab.wordle.rules import parse_names, pokemon_word_list


def _advice(page, rule, history):
    r = page.request.post("/api/wordle/advice", data={"rule": rule, "history": history})
    assert r.ok, r.text()
    return r.json()


def test_assistant_romaji_autocomplete_and_clicked_colours(page):
    page.goto("/wordle")
    page.select_option("#pw-rule", "blog")
    page.locator("#assist-name").click()
    page.keyboard.type("rentoraa")
    option = page.locator("#assist-name-list li", has_text="レントラー")
    option.wait_for()
    assert "Luxray" in option.inner_text() and "#405" in option.inner_text()  # both scripts, dex
    option.click()
    assert page.locator("#assist-name").input_value() == "レントラー"
    page.locator("#assist-add").click()
    # acceptance: all grey leaves 67 and the optimal next guess is ゴルダック (blog rule)
    page.wait_for_function("document.querySelector('#assist-count').textContent === '67'")
    assert page.locator("#assist-next").inner_text().startswith("ゴルダック")
    expected = _advice(page, "blog", [{"guess": "レントラー", "colours": "00000"}])
    assert (
        page.locator("#assist-expected")
        .inner_text()
        .startswith(f"{expected['expected_guesses']:.3f}")
    )
    assert page.locator("#assist-entropy tbody tr").count() == len(expected["entropy_top"])
    # click the last tile (ー) once: grey -> yellow; the count and next guess follow the API
    page.locator('#assist-rows [data-row="0"] .pw-tile[data-index="4"]').click()
    after = _advice(page, "blog", [{"guess": "レントラー", "colours": "00001"}])
    page.wait_for_function(
        f"document.querySelector('#assist-count').textContent === '{after['candidates']}'"
    )
    assert page.locator("#assist-next").inner_text().startswith(after["next"]["name"])
    assert page.locator('#assist-rows [data-row="0"] .pw-digits').input_value() == "00001"
    # the standard rule shows the standard rule's figures for the same history
    page.select_option("#pw-rule", "standard")
    std = _advice(page, "standard", [{"guess": "レントラー", "colours": "00001"}])
    page.wait_for_function(
        "document.querySelector('#assist-method').textContent.includes('rule standard')"
    )
    assert page.locator("#assist-count").inner_text() == str(std["candidates"])
    # the on-screen keyboard types katakana with dakuten by mouse/touch
    page.locator("#assist-name").fill("")
    for key in ("ホ", "゛"):
        page.locator(f"#kana-keyboard .pw-key:text-is('{key}')").click()
    assert page.locator("#assist-name").input_value() == "ボ"


def test_unknown_name_shows_the_message_and_keeps_the_history(page):
    page.goto("/wordle")
    page.locator("#assist-name").fill("Ribombee")
    page.locator("#assist-add").click()
    error = page.locator("#assist .field-error").first
    error.wait_for(state="visible")
    assert "アブリボン (Ribombee, dex 743) cannot be guessed" in error.inner_text()
    assert page.locator("#assist-rows .pw-row").count() == 0


def test_play_a_seeded_game_and_review_it(page):
    answer = answer_of_seed(pokemon_word_list(parse_names("gen1-4")), 11)
    page.goto("/wordle?tab=play&seed=11")
    page.locator("#play-board .pw-row").first.wait_for()
    assert page.locator("#play-board .pw-row").count() == 10  # the game's own limit
    for k, guess in enumerate(("jiiransu", answer)):
        page.locator("#play-name").fill(guess)
        page.locator("#play-guess").click()
        page.locator(f'#play-board [data-row="{k}"] .pw-en').wait_for()  # the row is filled
    assert (
        page.locator('#play-board [data-row="0"] .pw-tiles').inner_text().replace("\n", "")
        == "ジーランス"
    )
    page.locator("#play-status").wait_for(state="visible")
    assert answer in page.locator("#play-status").inner_text()
    share = page.locator("#play-share").input_value()
    assert share.startswith("Pokémon Wordle 2/10 (gamelab gen1-4, seed 11)") and share.endswith(
        "🟩🟩🟩🟩🟩"
    )
    page.locator("#play-review").click()
    page.locator("#review-table tbody tr").nth(1).wait_for()
    first = page.locator("#review-table tbody tr").first
    assert (
        "optimal" in first.inner_text() and "0.000" in first.inner_text()
    )  # ジーランス is optimal
    assert "solved in 2 guesses" in page.locator("#review-summary").inner_text()
