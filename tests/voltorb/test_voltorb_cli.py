"""The voltorb command line: JSON formats of the acceptance interface and error lines."""

import json
import subprocess
import sys

import pytest

from gamelab.voltorb.rules import BoardGenerator, VoltorbSetting

ROWS, COLS = "4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"


def _run(*args):
    return subprocess.run(
        [sys.executable, "-m", "gamelab.cli", "voltorb", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_simulate_json():
    r = _run(
        "simulate",
        "--generator",
        "hgss",
        "--level",
        "2",
        "--strategy",
        "minrisk",
        "--games",
        "40",
        "--seed",
        "1",
        "--json",
        "--workers",
        "1",
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["games"] == 40 and 0 <= out["wins"] <= 40
    assert out["ci95"][0] <= out["win_rate"] <= out["ci95"][1]
    assert out["mean_flips"] > 0


def test_solve_and_evaluate_json():
    r = _run("solve", "--rows", ROWS, "--cols", COLS, "--level", "2", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert len(out["p_voltorb"]) == 5 and len(out["p_two_or_three"][0]) == 5
    assert out["consistent_boards"] == 198
    r0, c0 = out["recommended"]
    assert 1 <= r0 <= 5 and 1 <= c0 <= 5
    assert out["p_voltorb"][r0 - 1][c0 - 1] == 0.0  # a safe useful tile exists here
    e = _run(
        "evaluate",
        "--rows",
        ROWS,
        "--cols",
        COLS,
        "--level",
        "2",
        "--strategy",
        "optimal",
        "--json",
    )
    assert e.returncode == 0, e.stderr
    assert abs(json.loads(e.stdout)["win_probability"] - out["win_probability"]) < 1e-12


def test_inconsistent_clues_error_line():
    r = _run(
        "solve",
        "--rows",
        "4,2 8,0 4,2 4,2 5,1",
        "--cols",
        COLS,
        "--revealed",
        "2,1=0",
        "--level",
        "2",
    )
    assert r.returncode == 2
    assert "no board is consistent with these clues" in r.stderr and "row 2" in r.stderr
    bad = _run("solve", "--rows", "4,2 8,0", "--cols", COLS)
    assert bad.returncode == 2 and bad.stderr.startswith("error:")


def test_assist_session_and_campaign():
    r = subprocess.run(
        [sys.executable, "-m", "gamelab.cli", "voltorb", "assist", "--level", "2"],
        input=f"{ROWS}\n{COLS}\n2,1=1\nq\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("recommended flip") == 2 and "consistent boards: 138" in r.stdout
    c = _run(
        "campaign",
        "--strategy",
        "fom",
        "--rounds",
        "5",
        "--campaigns",
        "4",
        "--seed",
        "1",
        "--json",
        "--no-store",
        "--workers",
        "1",
    )
    assert c.returncode == 0, c.stderr
    out = json.loads(c.stdout)
    assert abs(sum(out["level_distribution"].values()) - 1) < 1e-9
    assert out["level_distribution"]["1"] >= 0.2  # every campaign starts at level 1


def test_simulation_study_and_campaign_are_typed():
    from gamelab.core.serialise import to_plain
    from gamelab.voltorb.simulate import campaign, simulate_study

    study = simulate_study(VoltorbSetting(2), "minrisk", 40, seed=3, compare_with="random")
    doc = to_plain(study)
    assert doc["compare"]["strategy"] == "random"
    assert doc["compare"]["difference"] == study.difference.value
    assert study.difference.n == 40 and doc["games"] == 40
    camp = campaign(BoardGenerator("hgss"), "minrisk", 3, 4, seed=1)
    assert sum(camp.level_distribution.values()) == pytest.approx(1.0)
    assert to_plain(camp)["coins_per_round"] == camp.coins.value


def test_no_optimal_alone_recommends_minrisk_without_the_search(gamelab_cli):
    """--no-optimal without --policy is MinRisk without P(win), as its help says (the policy
    is one parsed value, not a name and a flag checked against each other later)."""
    from gamelab.core.serialise import to_plain
    from gamelab.voltorb.assistant import Policy, solve_position
    from gamelab.voltorb.rules import Position

    args = ("--rows", ROWS, "--cols", COLS, "--level", "2", "--json")
    r = gamelab_cli("voltorb", "solve", *args, "--no-optimal")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["policy"] == "minrisk" and doc["win_probability"] is None
    cheap = Policy("minrisk", search=False)
    assert doc == to_plain(solve_position(Position.parse(ROWS, COLS), VoltorbSetting(2), cheap))
    both = gamelab_cli("voltorb", "solve", *args, "--no-optimal", "--policy", "optimal")
    assert both.returncode == 2 and "the optimal policy needs its search" in both.stderr
