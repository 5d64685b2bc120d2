"""The small starts solved from the tables (`gamelab oware solve`)."""

import json

import pytest

from gamelab.oware.solve import solve_start


def test_one_seed_game_is_a_draw_won_only_by_the_capture():
    # our own figure (docs/oware.md, `gamelab oware solve --seeds-per-house 1 --json`): the
    # 12-seed table; every first move but F (which captures 2 at once) loses
    r = solve_start(1)
    assert (r.board_seeds, r.value, r.south, r.north) == (12, 0, 6, 6)
    assert r.best_moves == ["F"] and r.verdict == "a draw, 6-6"
    assert [(m.move, m.captured, m.value) for m in r.moves] == [
        ("A", 0, -1),
        ("B", 0, -8),
        ("C", 0, -2),
        ("D", 0, -2),
        ("E", 0, -2),
        ("F", 2, 0),
    ]
    assert r.principal_variation[:2] == ["F", "f"] and r.line_end


def test_bad_seed_counts_are_refused(gamelab_cli):
    with pytest.raises(ValueError, match="1 to 4"):
        solve_start(0)
    r = gamelab_cli("oware", "solve", "--seeds-per-house", "9")
    assert r.returncode == 2 and "error:" in r.stderr


def test_cli_solve_json(gamelab_cli):
    r = gamelab_cli("oware", "solve", "--seeds-per-house", "1", "--json")
    doc = json.loads(r.stdout)
    assert r.returncode == 0 and doc["value"] == 0 and doc["best_moves"] == ["F"]
