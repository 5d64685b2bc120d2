"""core.results: the SQLite store behind resumable runs."""

from __future__ import annotations

import numpy as np
import pytest

from gamelab.core.results import ResultStore


def test_values_round_trip_as_json(tmp_path):
    with ResultStore(tmp_path / "r.sqlite") as store:
        back = store.put(
            "exp", {"level": 8, "gen": "hgss"}, 0, {"wins": np.int64(7), "hist": np.arange(3)}
        )
        assert back == {"wins": 7, "hist": [0, 1, 2]}
        store.put(
            "exp", {"gen": "hgss", "level": 8}, 1, {"hist": [1.5, 2]}
        )  # parameter order does not matter
        assert store.finished("exp", {"level": 8, "gen": "hgss"}) == {
            0: back,
            1: {"hist": [1.5, 2]},
        }
        assert store.finished("exp", {"level": 8, "gen": "hgss"}, n_tasks=1) == {0: back}
    with ResultStore(tmp_path / "r.sqlite") as reopened:  # survives the process
        assert len(reopened.finished("exp", {"level": 8, "gen": "hgss"})) == 2
        assert reopened.forget("exp") == 2
        assert reopened.finished("exp", {"level": 8, "gen": "hgss"}) == {}


def _count(item, rng):  # a task of test_4: a dict of a fixed shape
    return {"games": int(item), "total": int(item) * 3}


@pytest.mark.parametrize(
    "damage,why",
    [
        ('UPDATE results SET value = \'{"games":12000,"total":3}\' WHERE task = 1', "checksum"),
        ("UPDATE results SET value = '{\"games\":' WHERE task = 1", "checksum"),
        ("UPDATE results SET value = '[1, 2]' WHERE task = 1", "checksum"),
        ("UPDATE results SET checksum = NULL WHERE task = 1", "checksum"),  # an older store
    ],
)
def test_4_stored_results_are_checked_and_recomputed(tmp_path, capsys, damage, why):
    import sqlite3

    from gamelab.core.parallel import Backend, run_tasks

    path = tmp_path / "r.sqlite"
    run = dict(seed=3, backend=Backend(workers=1, quiet=True), experiment="count", params={})
    with ResultStore(path) as store:
        fresh = run_tasks(_count, [10, 20, 30], store=store, **run)
    with sqlite3.connect(path) as db:
        db.execute(damage)
    with ResultStore(path) as store:
        again = run_tasks(_count, [10, 20, 30], store=store, **run)
        assert again == fresh
        err = capsys.readouterr().err
        assert (
            f"results store {path}: 1 stored results of count failed a check (1 their {why})" in err
        )
        assert run_tasks(_count, [10, 20, 30], store=store, **run) == fresh  # repaired
        assert capsys.readouterr().err == ""


def test_4_a_row_of_another_shape_is_recomputed(tmp_path, capsys):
    import sqlite3

    from gamelab.core.results import canonical_json, row_checksum

    path = tmp_path / "r.sqlite"
    with ResultStore(path) as store:
        for task in range(3):
            store.put("exp", {"x": 1}, task, {"games": task})
    with sqlite3.connect(path) as db:  # a well-formed row of another shape (another version)
        text, key = "[1,2]", canonical_json({"x": 1})
        db.execute(
            "UPDATE results SET value = ?, checksum = ? WHERE task = 2",
            (text, row_checksum("exp", key, 2, text)),
        )
    with ResultStore(path) as store:
        assert store.finished("exp", {"x": 1}) == {0: {"games": 0}, 1: {"games": 1}}
    assert "1 their shape" in capsys.readouterr().err
