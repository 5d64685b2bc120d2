"""/api/lattice: levels, the daily level, typed levels, fold scoring, the best fold; bad input is 422."""

import json

import pytest

from gamelab.lattice.rules import hh_score


def test_levels_and_daily(api):
    res = api.post("/api/lattice/levels", json={})
    assert res.status_code == 200
    levels = res.json()["levels"]
    assert levels[0]["number"] == 1 and 10 <= levels[0]["length"] <= 20
    assert "best_conformation" not in levels[0]  # no spoiler in the level list
    day = api.post("/api/lattice/daily", json={"date": "2026-12-01"}).json()
    assert day["sequence"] in {lv["sequence"] for lv in levels}


def test_typed_level_matches_the_cli(api, gamelab_cli):
    res = api.post("/api/lattice/level", json={"sequence": "HPHHHHHHPHHPHHPH"})
    assert res.status_code == 200, res.text
    level = res.json()
    assert level["best"] == 9 and level["thresholds"] == [4, 7, 9]  # the game's graded banding
    cli = gamelab_cli("lattice", "histogram", "--sequence", "HPHHHHHHPHHPHHPH", "--json")
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["stars"]["graded"]["thresholds"] == level["thresholds"]


def test_tutorial_and_expert_pack(api):
    from gamelab.core.serialise import to_plain
    from gamelab.lattice.expert import load_expert_pack

    tut = api.post("/api/lattice/tutorial", json={}).json()
    assert tut["source"] == "tutorial" and tut["thresholds"] == [1, 2, 3]
    expert = api.post("/api/lattice/expert", json={}).json()
    assert expert == to_plain(load_expert_pack())
    assert [lv["name"] for lv in expert["levels"]] == [f"S1-{k}" for k in range(1, 12)]
    assert "solutions" not in expert  # spoilers stay on the server
    s5 = expert["levels"][4]
    assert (s5["best_known"], s5["proven_by"], s5["thresholds"]) == (23, "bound", [11, 22, 23])
    # an expert level's fold is scored at its 100 residues, and its shipped fold is the best
    s10 = expert["levels"][9]["sequence"]
    res = api.post("/api/lattice/score", json={"sequence": s10, "moves": "R" * 99})
    assert res.status_code == 200 and res.json()["complete"], res.text
    best = api.post("/api/lattice/best", json={"sequence": expert["levels"][5]["sequence"]})
    assert best.json()["score"] == 21 and best.json()["count"] is None


def test_score_of_the_first_level_equals_the_cli_score(api, gamelab_cli):
    # acceptance: the score the page shows for a fold of level 1 is `gamelab lattice score`'s
    first = api.post("/api/lattice/levels", json={}).json()["levels"][0]
    best = api.post("/api/lattice/best", json={"sequence": first["sequence"]}).json()
    body = {"sequence": first["sequence"], "moves": best["conformation"]}
    page = api.post("/api/lattice/score", json={**body, "thresholds": first["thresholds"]}).json()
    cli = gamelab_cli("lattice", "score", first["sequence"], best["conformation"], "--json")
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout) == page and page["stars"] == 3
    assert page["score"] == first["best"]


def test_generated_level_is_seeded(api):
    body = {"length": 12, "seed": 3}
    a = api.post("/api/lattice/generate", json=body)
    assert a.status_code == 200, a.text
    level = a.json()
    assert level["length"] == 12 and level["source"].startswith("generated (seed 3, ")
    assert api.post("/api/lattice/generate", json=body).json() == level
    typed = api.post("/api/lattice/level", json={"sequence": level["sequence"]}).json()
    assert typed["counts"] == level["counts"] and typed["thresholds"] == level["thresholds"]


def test_score_is_the_library_score(api):
    best = api.post("/api/lattice/best", json={"sequence": "HPHHHHHHPHHPHHPH"}).json()
    res = api.post(
        "/api/lattice/score",
        json={
            "sequence": "HPHHHHHHPHHPHHPH",
            "moves": best["conformation"],
            "thresholds": [4, 8, 9],
        },
    ).json()
    assert (
        res["complete"] and res["score"] == hh_score("HPHHHHHHPHHPHHPH", best["conformation"]) == 9
    )
    assert res["stars"] == 3


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("/api/lattice/score", {"sequence": "HPHH", "moves": "RULD"}, "not self-avoiding"),
        ("/api/lattice/score", {"sequence": "HPHH", "moves": "RURR"}, "has only 3"),
        ("/api/lattice/score", {"sequence": "HPXH", "moves": "R"}, "only H and P"),
        ("/api/lattice/score", {"sequence": "HPHH", "moves": "RQ"}, "not a square lattice move"),
        ("/api/lattice/level", {"sequence": "HPPQ"}, "only H and P"),
        ("/api/lattice/level", {"sequence": "H" * 30}, "4 to 20 residues"),
        ("/api/lattice/daily", {"date": "tomorrow"}, "not a date"),
        ("/api/lattice/generate", {"length": 30, "seed": 1}, "10 to 18 residues"),
        ("/api/lattice/generate", {"length": 12, "seed": -1}, "seed must be"),
        ("/api/lattice/best", {"sequence": "H" * 22}, "4 to 20 residues"),
        (
            "/api/lattice/score",
            {"sequence": "HPHH", "moves": "R", "thresholds": [3, 2, 1]},
            "three increasing",
        ),
        ("/api/lattice/level", {"sequence": "HPHH", "path": "/etc/passwd"}, "path"),
    ],
)
def test_bad_input_is_422_with_the_message(api, path, body, message):
    res = api.post(path, json=body)
    assert res.status_code == 422, res.text
    assert message in res.json()["detail"]


def test_folds3d_are_the_shipped_3d_folds(api):
    """Issue 27.4: the 3D view's data: the shipped Harvard 48-mer folds with sites and contacts."""
    from gamelab.core.serialise import to_plain
    from gamelab.lattice.folds3d import load_folds3d

    doc = api.post("/api/lattice/folds3d", json={}).json()
    assert doc == to_plain(load_folds3d())
    assert [f["name"] for f in doc["folds"]] == [f"H48-{k}" for k in range(1, 11)]
    for f in doc["folds"]:
        assert hh_score(f["sequence"], f["conformation"], "cubic") == f["contacts"]
        assert len(f["pairs"]) == f["contacts"] and len(f["sites"]) == 48
