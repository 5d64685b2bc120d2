"""Players, paired matches, the terminal game and game records."""

import json
import subprocess
import sys

import numpy as np
import pytest

from gamelab.core.serialise import to_json, to_plain
from gamelab.oware.match import parse_player, play_pair, run_match, summarise
from gamelab.oware.play import format_record, parse_record, run_terminal_game
from gamelab.oware.rules import Position


def test_parse_player_validates():
    assert str(parse_player("engine:depth=4,tb=-1")) == "engine:depth=4,tb=-1"
    assert parse_player("blog").options == {"depth": 6}
    for bad in (
        "alphazero",
        "blog:depth=x",
        "engine:time=1,depth=2",
        "random:depth=3",
        "mcts:sims=0",
    ):
        with pytest.raises(ValueError):
            parse_player(bad)


def test_pair_plays_each_opening_with_both_colours():
    games = play_pair((parse_player("greedy"), parse_player("random"), 2), np.random.default_rng(0))
    assert [g["a_side"] for g in games] == [0, 1]
    assert games[0]["moves"][:2] == games[1]["moves"][:2]  # same opening
    for g in games:
        assert sum(g["result"]) == 48 and g["a_points"] in (0.0, 0.5, 1.0)


def test_match_summary_is_consistent(tmp_path):
    from gamelab.core.parallel import Backend

    summary = run_match(
        parse_player("greedy"),
        parse_player("random"),
        games=6,
        seed=3,
        backend=Backend(workers=1, quiet=True),
        use_store=False,
    )
    assert summary.wins + summary.draws + summary.losses == 6
    assert summary.score.lo <= summary.score.value <= summary.score.hi
    again = run_match(
        parse_player("greedy"),
        parse_player("random"),
        games=6,
        seed=3,
        backend=Backend(workers=1, quiet=True),
        use_store=False,
    )
    timing = ("a_seconds_per_move", "b_seconds_per_move")
    same = {k: v for k, v in to_plain(again).items() if k not in timing}
    assert same == {k: v for k, v in to_plain(summary).items() if k not in timing}  # same seed
    with pytest.raises(ValueError, match="even"):
        run_match(parse_player("greedy"), parse_player("random"), games=5)


def test_summary_counts_draws_as_half():
    records = [
        {"a_points": p, "result": [24, 24] if p == 0.5 else [30, 18], "a_side": 0, "plies": 10}
        for p in (1.0, 0.5, 0.5, 1.0)
    ]
    s = summarise(records)
    assert s.wins == 2 and s.draws == 2 and s.score.value == 0.75


def test_all_won_match_formats_the_same_in_cli_and_report():
    """A sweep has an infinite Elo: the CLI and the report print it through one formatter."""
    from gamelab.core.stats import format_elo
    from gamelab.oware.report import _match_row

    records = [{"a_points": 1.0, "result": [30, 18], "a_side": 0, "plies": 10}] * 4
    s = summarise(records, "greedy", "random", 0, 2)
    assert s.elo.sweep == "all-won"
    row = _match_row(s)
    assert row[3] == "4-0-0" and row[5] == format_elo(s.elo) and row[5].endswith("(all won)")
    plain = to_plain(s)
    assert plain["elo"] is None and plain["elo_sweep"] == "all-won"
    assert json.loads(to_json(s)) == plain


def test_cli_match_json():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamelab.cli",
            "oware",
            "match",
            "--a",
            "blog:depth=2",
            "--b",
            "random",
            "--games",
            "4",
            "--workers",
            "1",
            "--no-store",
            "--json",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert set(data) >= {"a_score_rate", "ci95", "wins", "draws", "losses"}
    assert data["wins"] + data["draws"] + data["losses"] == 4


def test_record_round_trip_and_errors():
    p, moves = Position.initial(), []
    rng = np.random.default_rng(2)
    while not p.is_over():
        m = int(rng.choice(p.legal_moves()))
        moves.append(m)
        p = p.play(m)
    text = format_record(Position.initial(), moves, "human", "engine:time=1")
    start, parsed, headers = parse_record(text)
    assert start == Position.initial() and parsed == moves
    assert headers["result"] == "{}-{}".format(*p.result())
    with pytest.raises(ValueError, match="does not match"):
        parse_record(text.replace(headers["result"], "48-0"))
    with pytest.raises(ValueError, match="record move 1"):
        parse_record("# gamelab oware record v1\nstart: start\nmoves: a\n")


def test_terminal_game_commands(tmp_path):
    record = tmp_path / "game.txt"
    script = iter(["help", "hint", "eval", "Z", "C", "undo", "D", f"save {record}", "quit"])
    out = []
    moves = run_terminal_game(
        parse_player("random"),
        human_side=0,
        seed=1,
        input_fn=lambda _: next(script),
        print_fn=out.append,
        analysis_time=0.05,
        tablebase_seeds=6,
    )
    text = "\n".join(out)
    assert "hint:" in text and "evaluation" in text and "error:" in text
    assert moves[0] == 3 and len(moves) == 2  # C was undone, D and the reply remain
    start, loaded, _ = parse_record(record.read_text())
    assert loaded == moves


def test_all_lost_match_in_text_mode(gamelab_cli):
    # Issue 11 item 2, the issue's own command: text mode crashed formatting an Elo of None.
    r = gamelab_cli(
        "oware",
        "match",
        "--a",
        "random",
        "--b",
        "blog:depth=4",
        "--games",
        "2",
        "--seed",
        "1",
        "--no-store",
        "--workers",
        "1",
        "--quiet",
    )
    assert r.returncode == 0, r.stderr
    assert "0-0-2" in r.stdout and "(all lost)" in r.stdout
