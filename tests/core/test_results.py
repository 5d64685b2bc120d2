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


def test_call_key_is_the_full_canonical_text_of_a_call():
    """One keying convention (issue 22 item 7): plain data keys as the store's canonical JSON;
    arrays in full with dtype and shape, dataclasses with their type, functions by name."""
    import dataclasses

    import numpy as np

    from gamelab.core.results import call_key, canonical_json, canonical_key

    assert canonical_key({"b": [1, 2], "a": "x"}) == canonical_json({"b": [1, 2], "a": "x"})
    big = np.zeros(5000)
    other = big.copy()
    other[2500] = 1
    assert call_key(np.sum, (big,)) != call_key(np.sum, (other,))
    assert call_key(np.sum, (big,)) == call_key(np.sum, (big.copy(),))
    assert canonical_key(np.arange(3, dtype=np.int8)) != canonical_key(np.arange(3))

    @dataclasses.dataclass(frozen=True)
    class Setting:
        name: str
        size: int

    assert call_key(len, (Setting("a", 1),)) != call_key(len, (Setting("a", 2),))
    assert call_key(len, (1,)) != call_key(abs, (1,))
    with pytest.raises(TypeError):
        canonical_key(object())
