"""The small starts solved from the tables (`gamelab oware solve`)."""

import json
from pathlib import Path

import platformdirs
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


def _user_cache() -> Path:
    # the tests' own cache (tests/conftest.py) holds no database: the one a user built lives
    # in the per-user cache, where `gamelab oware tablebase --seeds 24` writes it
    return Path(platformdirs.user_cache_dir("gamelab"))


@pytest.mark.slow
def test_two_seed_game_is_a_draw_kept_by_a_e_and_f(monkeypatch):
    # our own figure (docs/oware.md, "Small starts solved": `gamelab oware solve
    # --seeds-per-house 2 --json` on the 24-seed endgame database, 1.25 GB, 1.3 CPU-hours)
    from gamelab.oware.tablebase_disk import database_reach

    if database_reach(_user_cache()) < 24:
        pytest.skip(
            "the endgame database to 24 seeds is not built on this machine "
            "(gamelab oware tablebase --seeds 24: 1.25 GB, about 1.3 CPU-hours)"
        )
    monkeypatch.setenv("GAMELAB_CACHE", str(_user_cache()))
    r = solve_start(2)
    assert (r.board_seeds, r.value, r.south, r.north) == (24, 0, 12, 12)
    assert r.best_moves == ["A", "E", "F"] and r.verdict == "a draw, 12-12"
    assert [(m.move, m.captured, m.value) for m in r.moves] == [
        ("A", 0, 0),
        ("B", 0, -3),
        ("C", 0, -6),
        ("D", 0, -2),
        ("E", 3, 0),
        ("F", 6, 0),
    ]
    assert len(r.principal_variation) == 124 and r.principal_variation[:4] == ["A", "a", "E", "a"]
    assert r.line_end.startswith("South cannot move")
