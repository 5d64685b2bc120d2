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
    assert level["best"] == 9 and level["thresholds"] == [4, 8, 9]
    cli = gamelab_cli("lattice", "histogram", "--sequence", "HPHHHHHHPHHPHHPH", "--json")
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["stars"]["paper"]["thresholds"] == level["thresholds"]


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
        ("/api/lattice/level", {"sequence": "H" * 30}, "4 to 18 residues"),
        ("/api/lattice/daily", {"date": "tomorrow"}, "not a date"),
        ("/api/lattice/level", {"sequence": "HPHH", "path": "/etc/passwd"}, "path"),
    ],
)
def test_bad_input_is_422_with_the_message(api, path, body, message):
    res = api.post(path, json=body)
    assert res.status_code == 422, res.text
    assert message in res.json()["detail"]
