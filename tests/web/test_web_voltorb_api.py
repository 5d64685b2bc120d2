"""``/api/voltorb/...``: the same documents and messages as ``gamelab voltorb ... --json``."""

import json

import pytest

ROWS, COLS = "4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"


@pytest.mark.parametrize(
    "extra_api, extra_cli",
    [
        ({}, []),
        ({"revealed": ["2,1=1", "2,3=2"]}, ["--revealed", "2,1=1", "--revealed", "2,3=2"]),
        ({"policy": "fom"}, ["--policy", "fom"]),
    ],
)
def test_solve_returns_the_cli_document(api, gamelab_cli, extra_api, extra_cli):
    # the acceptance: curl /api/voltorb/solve == gamelab voltorb solve --json
    r = api.post("/api/voltorb/solve", json={"rows": ROWS, "cols": COLS, "level": 2, **extra_api})
    assert r.status_code == 200, r.text
    cli = gamelab_cli("voltorb", "solve", "--rows", ROWS, "--cols", COLS, "--level", "2", "--json", *extra_cli)
    assert cli.returncode == 0, cli.stderr
    assert r.json() == json.loads(cli.stdout)
    assert r.json()["consistent_boards"] > 0 and r.json()["note"] is None


def test_wrong_sums_give_the_cli_message(api, gamelab_cli):
    bad_rows = "4,2 8,0 4,2 4,2 6,1"
    r = api.post("/api/voltorb/solve", json={"rows": bad_rows, "cols": COLS, "level": 2})
    cli = gamelab_cli("voltorb", "solve", "--rows", bad_rows, "--cols", COLS, "--level", "2", "--json")
    assert cli.returncode == 2 and r.status_code == 422
    assert cli.stderr.strip() == f"error: {r.json()['detail']}"
    assert "row sums add up to 26 but the column sums to 25" in r.json()["detail"]


def test_unknown_policy_and_contradicting_flip(api):
    r = api.post("/api/voltorb/solve", json={"rows": ROWS, "cols": COLS, "level": 2, "policy": "best"})
    assert r.status_code == 422 and "allowed: optimal, minrisk, fom" in r.json()["detail"]
    r = api.post("/api/voltorb/solve", json={"rows": ROWS, "cols": COLS, "level": 2, "revealed": ["2,1=0"]})
    assert r.status_code == 422 and "row 2" in r.json()["detail"]
