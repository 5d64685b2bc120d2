"""The `gamelab yatzy` command line (acceptance interface of issue 3)."""

import io
import json
import subprocess
import sys

import pytest


@pytest.fixture
def run(gamelab_cli):
    """Run `gamelab yatzy ...` in this process."""
    return lambda *args: gamelab_cli("yatzy", *args)


def test_solve_json(run):
    p = run("solve", "--rules", "yahtzee-no-bonus", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["rules"] == "yahtzee-no-bonus"
    assert out["expected_score"] == pytest.approx(245.8707745, abs=1e-6)  # research notes 1
    assert out["std_dev"] == pytest.approx(39.8208, abs=5e-5)
    assert out["seconds"] >= 0


def test_advise_json(run):
    p = run(
        "advise",
        "--rules",
        "yahtzee",
        "--card",
        "-",
        "--dice",
        "11114",
        "--rolls-left",
        "2",
        "--json",
    )
    assert p.returncode == 0, p.stderr
    opts = json.loads(p.stdout)["options"]
    assert opts[0]["keep"] == "1111"
    values = [o["expected_score"] for o in opts]
    assert values == sorted(values, reverse=True) and len(opts) == 10


def test_simulate_json(run):
    p = run(
        "simulate",
        "--rules",
        "yahtzee-no-bonus",
        "--strategy",
        "random",
        "--games",
        "300",
        "--seed",
        "4",
        "--workers",
        "1",
        "--json",
    )
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["games"] == 300 and out["ci95"][0] < out["mean"] < out["ci95"][1]


def test_winplay_json(run):
    p = run(
        "winplay",
        "--rules",
        "yahtzee-no-bonus",
        "--turns-left",
        "2",
        "--games",
        "3",
        "--seed",
        "1",
        "--workers",
        "1",
        "--no-store",
        "--json",
    )
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["games"] == 3 and out["turns_left"] == 2
    assert out["single_minus_expectation"]["value"] >= -1e-12


@pytest.mark.parametrize(
    "args, message",
    [
        (["advise", "--rules", "yahtzee", "--dice", "1111"], "five digits"),
        (["advise", "--rules", "yahtzee", "--dice", "11114", "--card", "fours=5"], "impossible"),
        (["advise", "--rules", "yahtzee", "--dice", "11114", "--card", "sevens=7"], "unknown box"),
        (["solve", "--rules", "kniffel"], "unknown rules"),
        (["simulate", "--rules", "yatzy", "--strategy", "clever"], "unknown strategy"),
        (["simulate", "--rules", "yatzy", "--games", "1", "--no-store"], "'--games'"),
        (["winplay", "--rules", "yatzy", "--turns-left", "16", "--games", "2"], "turns left"),
        # one position per round makes no trailing pair: no cell could be measured
        (["risk", "--games", "1", "--rounds", "7", "--no-store"], "1 is not allowed: at least 2"),
        # the rounds and the valence are the library's to check, in its words
        (["risk", "--rounds", "7,13", "--no-store"], "rounds Y must be between 0 and 12"),
        (["risk", "--rounds", "7,x", "--no-store"], "rounds Y must be whole numbers"),
        (["risk", "--rounds", "9,9", "--no-store"], "round 9 is listed twice"),
        (["risk", "--valence", "0", "--no-store"], "allowed: 1–5"),
    ],
)
def test_bad_input_is_one_error_line(run, args, message):
    p = run(*args)
    assert p.returncode == 2
    assert p.stderr.startswith("error:") and message in p.stderr and p.stdout == ""


def test_rolls_left_is_refused_before_any_computation(run, monkeypatch):
    """A bad --rolls-left is refused before the coach's table is loaded (on a fresh install
    its first load compiles and solves for a minute), in the library's words: the web page
    says the same."""
    import gamelab.yatzy.tables

    def computed(*args, **kwargs):
        raise AssertionError("the table was loaded")

    monkeypatch.setattr(gamelab.yatzy.tables, "optimal_values", computed)
    p = run("advise", "--rules", "yatzy", "--dice", "11114", "--rolls-left", "3")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip() == "error: rolls left must be 0, 1 or 2, got 3"


def test_module_entry_point():
    p = subprocess.run(
        [sys.executable, "-m", "gamelab.cli", "yatzy", "solve", "--rules", "nope"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 2 and p.stderr.startswith("error: unknown rules")


def test_quick_report_section(tmp_path):
    from gamelab.core.parallel import Backend
    from gamelab.core.report import Report, ReportContext
    from gamelab.yatzy import report

    rep = Report(tmp_path)
    sec = rep.section("yatzy", report.TITLE)
    report.build(
        sec, ReportContext(quick=True, seed=0, backend=Backend(workers=1, quiet=True), store=None)
    )
    rows = sec.data["tables"]["one_turn"]["rows"]
    assert len(rows) == 13 and rows[-2][0] == "yahtzee"
    assert abs(float(rows[-2][1]) - 50 * 2783176 / 6**10) < 1e-4  # P(Yahtzee in a turn)
    upper = sec.data["tables"]["upper_section"]["rows"]
    assert float(upper[0][1]) > float(upper[1][1]) > 0  # the bonus is worth playing for
    assert "P(Yahtzee in one turn) 0.04603" in sec.headline


def test_play_following_the_coach_finishes_a_game(run, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("h\n" + "best\n" * 60))
    p = run("play", "--rules", "yahtzee-no-bonus", "--seed", "3")
    assert p.returncode == 0, p.stderr
    last = p.stdout.strip().splitlines()[-1]
    assert last.startswith("final: you ") and ", bot " in last
    assert "expected" in p.stdout  # the hint table


def test_risk_json_small(run):
    p = run(
        "risk",
        "--rules",
        "yahtzee-no-bonus",
        "--rounds",
        "12",
        "--games",
        "200",
        "--no-store",
        "--workers",
        "1",
        "--json",
    )
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)["rows"]
    assert [r["deficit"] for r in rows] == list(range(10, 101, 10))[: len(rows)]
    assert all(r["games"] == 200 for r in rows)


def test_29_18_comeback_is_readable_at_80_columns(monkeypatch):
    """Issue 29 item 18: every cell of `yatzy comeback` read "0.2…" at 80 columns."""
    import numpy as np
    from typer.testing import CliRunner

    from gamelab.yatzy import comeback
    from gamelab.yatzy.cli import app

    rounds, deficits = list(comeback.ROUNDS), list(comeback.DEFICITS)
    rng = np.random.default_rng(1)
    p = rng.random((len(rounds), len(deficits))) * 0.5
    p[-1, -1] = np.nan  # a condition that never holds
    table = comeback.ComebackTable("yahtzee", rounds, deficits, p, p, 1.0)
    monkeypatch.setattr(comeback, "comeback_study", lambda rules: table)
    monkeypatch.setenv("COLUMNS", "80")
    out = CliRunner().invoke(app, ["comeback"], env={"COLUMNS": "80"}).output
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80 and "…" not in out, out
    row = next(line for line in lines if line.lstrip("│ ").startswith("7 "))
    assert f"{100 * p[0, 0]:.1f}" in row and f"{100 * p[0, -1]:.1f}" in row


def test_risk_says_which_cells_had_too_few_games(run):
    """Two games per cell: the deficits no pair reached are named (JSON and table), and the win
    difference's interval stays within its range, -1 to +1."""
    args = ("risk", "--rules", "yahtzee-no-bonus", "--rounds", "7", "--games", "2")
    p = run(*args, "--no-store", "--workers", "1", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    found = {(r["rounds"], r["deficit"]) for r in out["rows"]}
    empty = {tuple(cell) for cell in out["empty_cells"]}
    assert empty and not found & empty
    assert found | empty == {(7, x) for x in range(10, 101, 10)}
    for r in out["rows"]:
        d = r["win_difference"]
        assert -1 <= d["lo"] <= d["value"] <= d["hi"] <= 1
        # two pairs say little: however alike their outcomes, the interval stays wide (a t
        # interval collapsed to a point when both pairs ended alike)
        assert d["hi"] - d["lo"] > 0.5, d
    table = run(*args, "--no-store", "--workers", "1").stdout
    y, x = min(empty)
    assert f"Y={y} X={x}" in table and "too few games" in table


@pytest.mark.parametrize("rolls_left,words", [(2, "2 rerolls left"), (1, "1 reroll left")])
def test_advise_counts_its_rerolls_in_words(run, rolls_left, words):
    p = run("advise", "--rules", "yatzy", "--dice", "11114", "--rolls-left", str(rolls_left))
    assert p.returncode == 0, p.stderr
    assert f"dice 11114, {words}, card" in " ".join(p.stdout.split())
