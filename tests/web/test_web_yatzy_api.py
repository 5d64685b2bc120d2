"""``/api/yatzy/...``: the CLI's documents, the library's messages as 422, games and reviews."""

import json

import pytest

# a Yatzy card with three boxes open (chance, full house, yatzy): short games
NEAR_END = (
    "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=12,two_pairs=22,"
    "three_kind=15,four_kind=20,small_straight=15,large_straight=20"
)


def test_advise_returns_the_cli_document(api, gamelab_cli):
    # the acceptance: the start of a yatzy game, roll 11114, two rerolls left
    r = api.post("/api/yatzy/advise", json={"rules": "yatzy", "dice": "11114", "rolls_left": 2})
    assert r.status_code == 200, r.text
    cli = gamelab_cli(
        "yatzy", "advise", "--rules", "yatzy", "--dice", "11114", "--rolls-left", "2", "--json"
    )
    assert cli.returncode == 0, cli.stderr
    assert r.json() == json.loads(cli.stdout)
    assert r.json()["options"][0]["keep"] == "1111" and r.json()["options"][0]["loss"] == 0


@pytest.mark.parametrize(
    "body, message",
    [
        ({"dice": "11117"}, "dice must be five digits 1-6 like 11114, got '11117'"),
        ({"dice": "1111"}, "dice must be five digits 1-6 like 11114, got '1111'"),
        ({"dice": "11114", "card": "sevens=7"}, "unknown box 'sevens' for rules yatzy"),
        ({"dice": "11114", "card": "fours=5"}, "fours=5 is impossible"),
        ({"dice": "11114", "card": "ones=3,ones=2"}, "box ones is given twice"),
        ({"dice": "11114", "rolls_left": 3}, "rolls left must be 0, 1 or 2"),
        ({"dice": "11114", "rules": "kniffel"}, "unknown rules 'kniffel'"),
        (
            {"dice": "11114", "rules": "yahtzee-no-bonus", "card": "bonus=1"},
            "have no Yahtzee bonus",
        ),
    ],
)
def test_bad_input_gives_422_with_the_library_message(api, gamelab_cli, body, message):
    r = api.post("/api/yatzy/advise", json={"rules": "yatzy", **body})
    assert r.status_code == 422 and message in r.json()["detail"], r.text
    args = [
        "--rules",
        body.get("rules", "yatzy"),
        "--dice",
        body["dice"],
        "--card",
        body.get("card", "-"),
        "--rolls-left",
        str(body.get("rolls_left", 2)),
    ]
    cli = gamelab_cli("yatzy", "advise", *args)
    assert cli.returncode == 2 and cli.stderr.strip() == f"error: {r.json()['detail']}"


def test_game_moves_and_their_errors(api):
    body = {"rules": "yatzy", "seed": 3, "start": NEAR_END, "coach": True}
    r = api.post("/api/yatzy/game", json=body)
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["turn"] == 13 and v["rolls_left"] == 2 and len(v["dice"]) == 5
    assert v["coach"]["options"][0]["loss"] == 0 and v["you"]["upper_bonus_earned"]
    for moves, message in (
        (["box banana"], "unknown box 'banana'"),
        (["keep 7"], "digits 1-6"),
        (["box ones"], "box ones is already filled"),
        (["jump"], "not understood"),
    ):
        bad = api.post("/api/yatzy/game", json={**body, "moves": moves})
        assert bad.status_code == 422 and message in bad.json()["detail"], bad.text
    r = api.post("/api/yatzy/game", json={**body, "opponent": "optimal", "moves": ["box chance"]})
    assert r.status_code == 200 and r.json()["bot_turn"]["policy"] == "expected score"
    assert len(r.json()["bot_moves"]) == 1
    r = api.post("/api/yatzy/game", json={**body, "opponent": "friend"})
    assert r.status_code == 422 and "unknown opponent 'friend'" in r.json()["detail"]
    r = api.post("/api/yatzy/game", json={**body, "moves": "box chance"})
    assert r.status_code == 422 and r.json()["field"] == "moves"


def test_win_play_bot_runs_in_the_pool_and_plays_for_the_win_near_the_end(api):
    body = {
        "rules": "yatzy",
        "seed": 3,
        "start": NEAR_END,
        "opponent": "win",
        "moves": ["box chance"],
    }
    r = api.post("/api/yatzy/game", json=body)
    assert r.status_code == 200, r.text
    turn = r.json()["bot_turn"]
    assert turn["policy"] == "win play" and 0 <= turn["win_probability"] <= 1
    assert r.json()["note"] is None


def test_review_and_status(api):
    s = api.post("/api/yatzy/prepare", json={"rules": "yatzy"})
    assert s.status_code == 200 and s.json()["loaded"] and "yatzy" in s.json()["labels"]
    # the page's way (issue 25 Yatzy 7): start in the background, answer at once
    b = api.post("/api/yatzy/start-preparing", json={"rules": "yatzy"})
    assert b.status_code == 200 and b.json()["loaded"] and not b.json()["building"]
    bad = api.post("/api/yatzy/start-preparing", json={"rules": "yatzee"})
    assert bad.status_code == 422 and bad.json()["field"] == "rules"
    r = api.post(
        "/api/yatzy/review",
        json={"rules": "yatzy", "seed": 3, "start": NEAR_END, "moves": ["keep -", "box chance"]},
    )
    assert r.status_code == 200, r.text
    rev = r.json()
    assert not rev["finished"] and len(rev["decisions"]) == 2 and rev["total_loss"] >= 0
    assert rev["decisions"][0]["kind"] == "keep" and rev["decisions"][1]["kind"] == "box"


def test_review_returns_the_cli_document(api, gamelab_cli):
    # issue 22: one document per question: `gamelab yatzy review --json` is the page's review
    moves = ["keep -", "box chance", "box full_house", "box yatzy"]
    body = {"rules": "yatzy", "seed": 3, "start": NEAR_END, "moves": moves, "undone": [2]}
    r = api.post("/api/yatzy/review", json=body)
    assert r.status_code == 200, r.text
    args = ["yatzy", "review", "--rules", "yatzy", "--seed", "3", "--start", NEAR_END]
    args += [a for m in moves for a in ("--move", m)] + ["--undone", "2", "--json"]
    cli = gamelab_cli(*args)
    assert cli.returncode == 0, cli.stderr
    assert r.json() == json.loads(cli.stdout)
    assert r.json()["finished"] and r.json()["undone"] == [2] and len(r.json()["decisions"]) == 4


def test_review_chart_width_is_the_pages_and_bounded(api):
    # issue 25 Yatzy 4: the page asks for a chart as wide as its box (labels keep their size)
    moves = ["box chance", "box full_house", "box yatzy"]
    body = {"rules": "yatzy", "seed": 3, "start": NEAR_END, "moves": moves}
    narrow = api.post("/api/yatzy/review", json={**body, "chart_width": 350})
    assert narrow.status_code == 200, narrow.text
    assert 'viewBox="0 0 350 240"' in narrow.json()["svg"]
    bad = api.post("/api/yatzy/review", json={**body, "chart_width": 20})
    assert bad.status_code == 422
    assert bad.json()["detail"] == "chart width must be 280..1200 pixels, got 20"
