"""core.results: the SQLite store behind resumable runs."""

from __future__ import annotations

import numpy as np

from gamelab.core.results import ResultStore


def test_values_round_trip_as_json(tmp_path):
    with ResultStore(tmp_path / "r.sqlite") as store:
        back = store.put(
            "exp", {"level": 8, "gen": "hgss"}, 0, {"wins": np.int64(7), "hist": np.arange(3)}
        )
        assert back == {"wins": 7, "hist": [0, 1, 2]}
        store.put(
            "exp", {"gen": "hgss", "level": 8}, 1, [1.5, 2]
        )  # parameter order does not matter
        assert store.finished("exp", {"level": 8, "gen": "hgss"}) == {0: back, 1: [1.5, 2]}
        assert store.finished("exp", {"level": 8, "gen": "hgss"}, n_tasks=1) == {0: back}
    with ResultStore(tmp_path / "r.sqlite") as reopened:  # survives the process
        assert len(reopened.finished("exp", {"level": 8, "gen": "hgss"})) == 2
        assert reopened.forget("exp") == 2
        assert reopened.finished("exp", {"level": 8, "gen": "hgss"}) == {}
