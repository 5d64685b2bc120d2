"""``/api/wordle/...``: the library's documents and messages, for every way of typing a name."""

import json

import pytest

from gamelab.core.serialise import to_plain
from gamelab.wordle.advice import advise
from gamelab.wordle.practice import answer_of_seed
from gamelab.wordle.rules import feedback, parse_names, parse_setting, pokemon_word_list


def grey(name):
    return {"guess": name, "colours": "00000"}


@pytest.mark.parametrize("typed", ["rentoraa", "レントラー", "れんとらー", "Luxray", "ﾚﾝﾄﾗｰ"])
def test_advice_reads_every_script(api, typed):
    r = api.post("/api/wordle/advice", json={"rule": "blog", "history": [grey(typed)]})
    assert r.status_code == 200, r.text
    doc = r.json()
    # acceptance: 67 candidates and ゴルダック (the post's chart, pinned by the CLI's tests)
    assert doc["candidates"] == 67 and doc["next"]["name"] == "ゴルダック"
    assert doc["history"] == ["レントラー:00000"] and doc["note"] is None
    assert doc == json.loads(
        json.dumps(
            to_plain(advise(parse_setting("gen1-4", "blog", None), [("レントラー", "00000")]))
        )
    )


def test_the_cli_and_the_api_answer_with_the_same_document(api, gamelab_cli):
    """One assistant serves both shells (issue 22): ``gamelab wordle next --json`` and
    ``/api/wordle/advice`` give the same document, and ``review --json`` the review's."""
    history = "レントラー:00000,ゴルダック:00000"
    body = [grey("rentoraa"), grey("ゴルダック")]
    for args, request in (
        (("--rule", "standard"), {"rule": "standard"}),
        (("--names", "daily", "--hard"), {"names": "daily", "hard": "game"}),
        (("--names", "upto-gen5", "--rule", "blog"), {"names": "upto-gen5", "rule": "blog"}),
    ):
        for k in (0, 1, 2):
            cli = gamelab_cli(
                "wordle", "next", *args, "--history", ",".join(history.split(",")[:k]), "--json"
            )
            r = api.post("/api/wordle/advice", json={**request, "history": body[:k]})
            assert r.status_code == 200 and cli.returncode == 0, (r.text, cli.stderr)
            assert json.loads(cli.stdout) == r.json()
        cli = gamelab_cli("wordle", "review", *args, "--history", history, "--json")
        r = api.post("/api/wordle/review", json={**request, "history": body})
        assert r.status_code == 200 and cli.returncode == 0, (r.text, cli.stderr)
        assert json.loads(cli.stdout) == r.json()


def test_names_autocomplete_and_resolve(api):
    r = api.post("/api/wordle/names", json={"text": "rent"})
    assert r.status_code == 200
    assert r.json()["matches"] == [
        {"name": "レントラー", "english": "Luxray", "dex": 405, "matched_by": "romaji"}
    ]
    r = api.post("/api/wordle/resolve", json={"text": "jiiransu"})
    assert r.status_code == 200 and r.json()["name"] == "ジーランス"
    r = api.post("/api/wordle/resolve", json={"text": "Ribombee"})
    assert r.status_code == 422
    assert r.json() == {
        "detail": "アブリボン (Ribombee, dex 743) cannot be guessed in word list 'gen1-4' "
        "(names of at most 5 characters, dex 1-493)",
        "field": "text",
    }
    r = api.post("/api/wordle/resolve", json={"names": "all", "text": "Ribombee"})
    assert r.status_code == 200 and r.json()["dex"] == 743


@pytest.mark.parametrize(
    "body, message",
    [
        ({"history": [grey("qqq")]}, "'qqq' is not a Pokémon name in word list 'gen1-4'"),
        ({"history": [{"guess": "rentoraa", "colours": "0012"}]}, "feedback '0012' has 4 colours"),
        ({"history": [{"guess": "rentoraa", "colours": "0z000"}]}, "bad colour 'z'"),
        (
            {"history": [grey("rentoraa"), {"guess": "ゴルダック", "colours": "00120"}]},
            "guess 2 (ゴルダック 00120) is the first that contradicts it",
        ),
        ({"names": "gen0"}, "bad generation range 'gen0'"),
        ({"names": "kanto"}, "unknown word list 'kanto'"),
        (
            {"rule": "blog", "hard": "game"},
            "the game's hard mode is defined for the standard feedback rule",
        ),
        ({"hard": "easy"}, "unknown hard mode 'easy'"),
        ({"history": [grey("rentoraa")] * 11}, "history: List should have at most 10 items"),
    ],
)
def test_bad_input_is_422_with_the_message(api, body, message):
    r = api.post("/api/wordle/advice", json=body)
    assert r.status_code == 422, r.text
    assert message in r.json()["detail"]


def test_play_and_review_a_seeded_game(api):
    answer = answer_of_seed(pokemon_word_list(parse_names("gen1-4")), 11)
    r = api.post("/api/wordle/play", json={"seed": 11, "guesses": ["rentoraa"]})
    assert r.status_code == 200 and r.json()["answer"] is None
    r = api.post("/api/wordle/play", json={"seed": 11, "guesses": ["rentoraa", answer]})
    game = r.json()
    assert game["finished"] and game["won"] and game["answer"] == answer
    assert game["rows"][0]["colours"] == "".join(
        map(str, feedback("レントラー", answer, "standard"))
    )
    history = [{"guess": g, "colours": c} for g, c in game["history"]]
    r = api.post("/api/wordle/review", json={"history": history})
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["solved"] and doc["answer"] == answer and len(doc["steps"]) == 2
    assert doc["steps"][0]["optimal_guess"] == "ジーランス" and doc["steps"][0]["guesses_lost"] > 0
    r = api.post("/api/wordle/play", json={"seed": 11, "guesses": [answer, "rentoraa"]})
    assert r.status_code == 422 and "comes after the answer was found" in r.json()["detail"]
    r = api.post("/api/wordle/play", json={"seed": -1})
    assert r.status_code == 422 and r.json()["field"] == "seed"


def test_strategy_status(api):
    r = api.post("/api/wordle/strategy", json={"names": "gen1-4", "rule": "blog"})
    assert r.status_code == 200 and r.json()["cached"] is True


def test_review_is_the_cli_document(api, gamelab_cli):
    history = [grey("rentoraa"), {"guess": "ゴルダック", "colours": "00000"}]
    r = api.post("/api/wordle/review", json={"rule": "blog", "history": history})
    cli = gamelab_cli(
        "wordle",
        "review",
        "--rule",
        "blog",
        "--history",
        "rentoraa:00000,ゴルダック:00000",
        "--json",
    )
    assert r.status_code == 200 and cli.returncode == 0, cli.stderr
    assert r.json() == json.loads(cli.stdout)
    bad = api.post("/api/wordle/review", json={"history": [grey("zzz")]})
    cli = gamelab_cli("wordle", "review", "--history", "zzz:00000")
    assert bad.status_code == 422 and cli.returncode == 2
    assert cli.stderr.strip() == f"error: {bad.json()['detail']}"
