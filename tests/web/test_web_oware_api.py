"""/api/oware: moves checked with their reason, the opponent's reply, analysis, review, records."""

import pytest

from gamelab.oware.play import parse_record
from gamelab.oware.rules import Position

START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"


def test_state_move_and_a_legal_reply(api):
    view = api.post("/api/oware/move", json={"moves": [], "move": "C"}).json()
    assert view["houses"] == [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4] and view["to_move"] == "North"
    res = api.post("/api/oware/reply", json={"moves": ["C"], "opponent": "engine:depth=4"})
    assert res.status_code == 200, res.text
    reply = res.json()
    assert reply["move"] in view["legal"] and reply["analysis"]["depth"] >= 4
    assert reply["view"]["moves"] == ["C", reply["move"]]


def test_a_whole_game_replays_through_the_rules(api):
    moves: list[str] = []
    for _ in range(400):
        r = api.post("/api/oware/reply", json={"moves": moves, "opponent": "random", "seed": 3}).json()
        moves = r["view"]["moves"]
        if r["view"]["over"]:
            break
    view = r["view"]
    assert view["over"]
    start, offsets, _ = parse_record(view["record"])
    p = start
    for off in offsets:
        p = p.play(off)
    assert list(p.result()) == view["result"]  # the page's final score is the rules' score
    again = api.post("/api/oware/load", json={"text": view["record"]}).json()
    assert again["moves"] == moves and again["result"] == view["result"]


@pytest.mark.parametrize(("body", "message"), [
    ({"moves": [], "move": "a"}, "it is South's move"),
    ({"moves": ["C"], "move": "C"}, "it is North's move"),
    ({"moves": [], "move": "Z"}, "is not a house"),
    ({"moves": ["C", "c"], "move": "C"}, "house C is empty"),
    ({"start": "0-0-0-0-0-1-0-0-0-0-0-0-24-23-N", "moves": [], "move": "a"}, "house a is empty"),
    ({"start": "4-4-4-4-4-4-4-4-4-4-4-4-1-0-S", "moves": [], "move": "A"}, "48 seeds"),
])
def test_illegal_moves_and_positions_get_the_reason(api, body, message):
    res = api.post("/api/oware/move", json=body)
    assert res.status_code == 422, res.text
    assert message in res.json()["detail"]


def test_feeding_rule_is_explained(api):
    # North has no seeds; South's house A (1 seed) cannot reach North's row, F can
    start = "1-0-0-0-0-1-0-0-0-0-0-0-23-23-S"
    Position.from_text(start)
    res = api.post("/api/oware/move", json={"start": start, "moves": [], "move": "A"})
    assert res.status_code == 422 and "feeding rule" in res.json()["detail"]
    assert api.post("/api/oware/move", json={"start": start, "moves": [], "move": "F"}).status_code == 200


def test_analyse_and_review(api):
    a = api.post("/api/oware/analyse", json={"position": START, "time": 0.3}).json()
    assert a["best_move_text"] in "ABCDEF" and a["pv_text"][0] == a["best_move_text"]
    bad = api.post("/api/oware/analyse", json={"position": "4-4-4", "time": 0.3})
    assert bad.status_code == 422 and "12 houses" in bad.json()["detail"]
    r = api.post("/api/oware/review", json={"moves": ["C", "f", "A"], "depth": 4}).json()
    assert [m["move"] for m in r["moves"]] == ["C", "f", "A"]
    assert all(m["loss"] >= 0 and m["score_best"] >= m["score_played"] for m in r["moves"])
    assert api.post("/api/oware/reply", json={"moves": [], "opponent": "wizard"}).status_code == 422
