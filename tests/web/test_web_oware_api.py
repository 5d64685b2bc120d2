"""/api/oware: moves checked with their reason, the opponent's reply, analysis, review, records,
and two games at once."""

import json
import threading
import time
import urllib.request

import pytest

from gamelab.oware.game import engine_reply, game_record
from gamelab.oware.game_review import review_game
from gamelab.oware.match import parse_player
from gamelab.oware.play import parse_record
from gamelab.oware.rules import Rules

START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"


def test_a_move_and_a_legal_engine_reply(api):
    view = api.post("/api/oware/move", json={"moves": [], "move": "C"}).json()
    assert view["houses"] == [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4] and view["to_move"] == "North"
    assert view["last"]["path"] == [3, 4, 5, 6]
    res = api.post("/api/oware/reply", json={"moves": ["C"], "opponent": "engine:depth=4"})
    assert res.status_code == 200, res.text
    reply = res.json()
    assert (
        reply["move"] in view["legal"] and reply["analysis"]["depth"] >= 4 and reply["note"] is None
    )
    assert reply["view"]["moves"] == ["C", reply["move"]]
    # the document is the library's
    lib = engine_reply(START, Rules(), ["C"], parse_player("engine:depth=4"))
    assert reply["move"] == lib.move and reply["analysis"]["score"] == lib.analysis.score


def test_a_whole_game_replays_through_the_rules(api):
    moves: list[str] = []
    for _ in range(400):
        r = api.post(
            "/api/oware/reply", json={"moves": moves, "opponent": "greedy", "seed": 3}
        ).json()
        moves = r["view"]["moves"]
        if r["view"]["over"]:
            break
    view = r["view"]
    assert view["over"] and view["end_reason"] in ("score", "repetition", "no moves")
    record = api.post(
        "/api/oware/record", json={"moves": moves, "south": "greedy", "north": "greedy"}
    ).json()
    start, offsets, _ = parse_record(record["text"])
    p = start
    for off in offsets:
        p = p.play(off)
    assert list(p.result()) == view["result"]  # the page's final score is the rules' score
    again = api.post("/api/oware/load", json={"text": record["text"]}).json()
    assert again["moves"] == moves and again["result"] == view["result"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"moves": [], "move": "a"}, "it is South's move"),
        ({"moves": ["C"], "move": "C"}, "it is North's move"),
        ({"moves": [], "move": "Z"}, "is not a house"),
        ({"moves": ["C", "c"], "move": "C"}, "house C is empty"),
        (
            {"start": "1-0-0-0-0-1-0-0-0-0-0-0-23-23-S", "moves": [], "move": "A"},
            "the feeding rule",
        ),
        (
            {"start": "1-0-0-0-0-2-1-1-0-0-0-0-22-21-S", "grand_slam": "forbidden", "move": "F"},
            "grand slam",
        ),
        (
            {"start": "0-0-0-0-0-1-0-0-0-0-0-0-24-23-N", "moves": [], "move": "a"},
            "the game is over",
        ),
        ({"start": "4-4-4-4-4-4-4-4-4-4-4-4-1-0-S", "moves": [], "move": "A"}, "48 seeds"),
        ({"start": "4-4-4", "move": "A"}, "12 houses"),
        ({"grand_slam": "sometimes", "move": "A"}, "grand slam rule must be one of"),
    ],
)
def test_illegal_moves_and_positions_get_the_reason(api, body, message):
    res = api.post("/api/oware/move", json=body)
    assert res.status_code == 422, res.text
    assert message in res.json()["detail"]
    before = api.post("/api/oware/state", json={k: v for k, v in body.items() if k != "move"})
    assert before.status_code in (200, 422)  # the state request is independent of the bad move


def test_take_back_hint_and_analysis(api):
    back = api.post("/api/oware/takeback", json={"moves": ["C", "f", "A"], "side": "South"}).json()
    assert back["moves"] == ["C", "f"]
    assert api.post("/api/oware/takeback", json={"moves": [], "side": "South"}).status_code == 422
    hint = api.post(
        "/api/oware/analyse", json={"position": START, "moves": ["C", "f"], "time": 0.2}
    ).json()
    assert (
        hint["analysis"]["best_move_text"] in "ABCDEF"
        and hint["analysis"]["pv_text"][0] == hint["analysis"]["best_move_text"]
    )
    exact = api.post(
        "/api/oware/analyse", json={"position": "1-0-0-0-0-1-0-0-0-0-2-0-22-22-S", "time": 0.2}
    ).json()
    assert exact["exact"]["outcome"] == "win" and exact["exact"]["final"] == [26, 22]
    # the answer names the table its search probed: the best at hand (no database here)
    assert exact["analysis"]["tablebase_seeds"] == 12 == hint["analysis"]["tablebase_seeds"]
    assert exact["exact_scope"] == "exact endgames from 12 seeds down"
    bad = api.post("/api/oware/analyse", json={"position": "4-4-4", "time": 0.2})
    assert bad.status_code == 422 and "12 houses" in bad.json()["detail"]
    assert api.post("/api/oware/analyse", json={"position": START, "time": 99}).status_code == 422


def test_review_record_and_bad_players(api):
    r = api.post("/api/oware/review", json={"moves": ["C", "f", "A"], "depth": 3}).json()
    assert [m["move"] for m in r["moves"]] == ["C", "f", "A"] and r["note"] is None
    assert r == api.post("/api/oware/review", json={"moves": ["C", "f", "A"], "depth": 3}).json()
    lib = review_game(START, Rules(), ["C", "f", "A"], 3)
    assert [m["loss"] for m in r["moves"]] == [m.loss for m in lib.moves]
    assert api.post("/api/oware/reply", json={"moves": [], "opponent": "wizard"}).status_code == 422
    assert (
        api.post("/api/oware/reply", json={"moves": [], "opponent": "mcts:sims=10"}).status_code
        == 422
    )
    rec = api.post("/api/oware/record", json={"moves": ["C"], "south": "me"}).json()
    assert rec["text"] == game_record(START, Rules(), ["C"], "me", "?").text
    bad = api.post("/api/oware/load", json={"text": rec["text"].replace("moves: C", "moves: a")})
    assert bad.status_code == 422 and "record move 1" in bad.json()["detail"]
    not_a_record = api.post("/api/oware/load", json={"text": "moves: a"})
    assert not_a_record.status_code == 422
    assert "not a game record" in not_a_record.json()["detail"]


def _post(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def test_two_games_at_once_neither_blocks_the_other(live_server):
    """Game A waits for a 1.5 s engine move while game B is played (greedy replies and moves):
    B's requests are answered meanwhile, and A still gets a legal move."""
    result: dict = {}

    def game_a():
        t0 = time.perf_counter()
        result["a"] = _post(
            live_server, "/api/oware/reply", {"moves": ["C"], "opponent": "engine:time=1.5"}
        )
        result["a_done"] = time.perf_counter()
        result["a_seconds"] = result["a_done"] - t0

    thread = threading.Thread(target=game_a)
    thread.start()
    time.sleep(0.2)  # let A's request reach the solver first
    view = _post(live_server, "/api/oware/state", {})
    b_done = []
    for _ in range(5):
        mine = _post(
            live_server, "/api/oware/move", {"moves": view["moves"], "move": view["legal"][0]}
        )
        view = _post(
            live_server, "/api/oware/reply", {"moves": mine["moves"], "opponent": "greedy"}
        )["view"]
        b_done.append(time.perf_counter())
    thread.join()
    # B played while A's engine thought: B's first turns were answered before A's move (all
    # five within A's 1.5 s is a timing bound a cold, loaded machine can miss by milliseconds)
    assert len(view["moves"]) == 10 and b_done[0] < result["a_done"]
    assert result["a_seconds"] >= 0.5 and result["a"]["move"] in "abcdef"
    assert result["a"]["view"]["moves"] == ["C", result["a"]["move"]]


def test_hint_and_review_are_the_cli_documents(api, gamelab_cli):
    # issue 22: one document per question: `gamelab oware hint/review --json` are the page's
    moves = ["C", "f", "A"]
    hint = api.post("/api/oware/analyse", json={"position": START, "moves": moves, "depth": 6})
    assert hint.status_code == 200, hint.text
    args = [a for m in moves for a in ("--move", m)]
    cli = gamelab_cli("oware", "hint", *args, "--depth", "6", "--json")
    assert cli.returncode == 0, cli.stderr
    doc, page = json.loads(cli.stdout), hint.json()
    for d in (doc, page):  # the search's speed is this run's, not part of the answer
        assert d["analysis"].pop("nps") > 0 and d["analysis"].pop("seconds") >= 0
    assert doc == page and doc["analysis"]["depth"] == 6
    # the page's hint takes the opening book's move where it has one (issue 49): the same
    book = {"position": START, "moves": moves[:2], "depth": 6, "book": True}
    page = api.post("/api/oware/analyse", json=book).json()
    cli = gamelab_cli(
        "oware", "hint", "--move", "C", "--move", "f", "--depth", "6", "--book", "--json"
    )
    assert json.loads(cli.stdout) == page and page["book"] and page["analysis"]["nodes"] == 0
    review = api.post("/api/oware/review", json={"moves": moves, "depth": 3})
    assert review.status_code == 200, review.text
    cli = gamelab_cli("oware", "review", *args, "--depth", "3", "--json")
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout) == review.json()


def test_analyse_is_the_cli_document(api, gamelab_cli):
    # issue 22: `gamelab oware analyse --json` kept a document of its own (the bare Analysis);
    # it is now the page's analysis, with the same options (eval, tablebase) on both sides
    moves = ["C", "f"]
    for options in ({"depth": 5}, {"depth": 4, "eval": "blog", "tablebase": -1}):
        page = api.post("/api/oware/analyse", json={"position": START, "moves": moves, **options})
        assert page.status_code == 200, page.text
        args = [a for m in moves for a in ("--move", m)]
        args += [a for k, v in options.items() for a in (f"--{k}", str(v))]
        cli = gamelab_cli("oware", "analyse", *args, "--json")
        assert cli.returncode == 0, cli.stderr
        doc, web = json.loads(cli.stdout), page.json()
        for d in (doc, web):  # the search's speed is this run's, not part of the answer
            assert d["analysis"].pop("nps") > 0 and d["analysis"].pop("seconds") >= 0
        assert doc == web and doc["analysis"]["depth"] == options["depth"]
    blog = json.loads(cli.stdout)
    assert blog["analysis"]["score_unit"].startswith("blog")
    bad = api.post("/api/oware/analyse", json={"position": START, "eval": "chess", "depth": 2})
    assert bad.status_code == 422 and "evaluation must be one of blog, auale" in bad.text
    cli = gamelab_cli("oware", "analyse", "--eval", "chess", "--depth", "2")
    assert cli.returncode == 2 and "evaluation must be one of blog, auale" in cli.stderr
