"""An SQLite store of experiment results, keyed by (experiment, parameters, task index).

Long Monte Carlo runs save each finished task here (see :func:`gamelab.core.parallel.run_tasks`),
so a run that was interrupted resumes where it stopped and ends with exactly the numbers of one
uninterrupted run. Values are JSON (numpy numbers and arrays are converted); what comes back is
the decoded JSON, both when a value was just stored and when it is read later.

The default file is ``$GAMELAB_RESULTS`` if set, else ``results.sqlite`` in the per-user data
directory (``platformdirs.user_data_dir("gamelab")``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import platformdirs

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    experiment TEXT NOT NULL,
    params TEXT NOT NULL,
    task INTEGER NOT NULL,
    value TEXT NOT NULL,
    saved_at REAL NOT NULL,
    PRIMARY KEY (experiment, params, task)
);
"""


def default_results_path() -> Path:
    env = os.environ.get("GAMELAB_RESULTS")
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("gamelab")) / "results.sqlite"


def _plain(obj: Any) -> Any:
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError(f"a result must be JSON data, got {type(obj).__name__}")


def canonical_json(value: Any) -> str:
    """Deterministic JSON text (sorted keys, no spaces) used for keys and stored values."""
    return json.dumps(value, default=_plain, sort_keys=True, separators=(",", ":"), allow_nan=True)


class ResultStore:
    """Results of seeded tasks on disk. Safe to share between threads of one process."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_results_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=60)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        self._db.commit()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def put(self, experiment: str, params: Mapping[str, Any], task: int, value: Any) -> Any:
        """Save one task's value (committed at once) and return it as it will be read back."""
        text = canonical_json(value)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?)",
                (experiment, canonical_json(dict(params)), int(task), text, time.time()),
            )
            self._db.commit()
        return json.loads(text)

    def finished(self, experiment: str, params: Mapping[str, Any], n_tasks: int | None = None) -> dict[int, Any]:
        """Values already stored for this run, by task index (only indices below `n_tasks`)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT task, value FROM results WHERE experiment = ? AND params = ?",
                (experiment, canonical_json(dict(params))),
            ).fetchall()
        return {
            task: json.loads(value) for task, value in rows if n_tasks is None or task < n_tasks
        }

    def experiments(self) -> list[tuple[str, str, int]]:
        """(experiment, params JSON, number of stored tasks) for every run in the store."""
        with self._lock:
            return self._db.execute(
                "SELECT experiment, params, COUNT(*) FROM results GROUP BY experiment, params "
                "ORDER BY experiment, params"
            ).fetchall()

    def forget(self, experiment: str, params: Mapping[str, Any] | None = None) -> int:
        """Delete a run's stored results (all parameter sets if `params` is None); returns rows."""
        with self._lock:
            if params is None:
                cur = self._db.execute("DELETE FROM results WHERE experiment = ?", (experiment,))
            else:
                cur = self._db.execute(
                    "DELETE FROM results WHERE experiment = ? AND params = ?",
                    (experiment, canonical_json(dict(params))),
                )
            self._db.commit()
            return cur.rowcount
