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


class ResultStoreError(ValueError):
    """The results store cannot be opened, read or written; the message names the file."""


class ResultStore:
    """Results of seeded tasks on disk. Safe to share between threads of one process.

    A file that is not a readable SQLite results store (random bytes, a truncated copy, a path
    that cannot be opened) raises :class:`ResultStoreError` naming the file and what to do; such
    a file is never written to, so nothing in it is lost.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_results_path()
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.is_dir():
                raise sqlite3.OperationalError("it is a directory")
            # Read first: a damaged file fails here, before anything could write to it.
            db = sqlite3.connect(self.path, check_same_thread=False, timeout=60)
            self._db = db
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check[0] if check else '?'}")
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "results" not in tables:
                raise sqlite3.DatabaseError(
                    "it is an SQLite file of something else (no results table)"
                )
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)
            db.commit()
        except (sqlite3.Error, OSError) as exc:
            if self._db is not None:
                self._db.close()
            raise self._error("cannot be opened", exc) from None

    def _error(self, what: str, exc: BaseException) -> ResultStoreError:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return ResultStoreError(
            f"the results store {self.path} {what} ({reason}); move the file aside or set "
            "GAMELAB_RESULTS to another file, or run with --no-store"
        )

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise ResultStoreError(f"the results store {self.path} is closed")
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def put(self, experiment: str, params: Mapping[str, Any], task: int, value: Any) -> Any:
        """Save one task's value (committed at once) and return it as it will be read back."""
        text = canonical_json(value)
        with self._lock:
            try:
                self._connection().execute(
                    "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?)",
                    (experiment, canonical_json(dict(params)), int(task), text, time.time()),
                )
                self._connection().commit()
            except sqlite3.Error as exc:
                raise self._error("cannot be written", exc) from None
        return json.loads(text)

    def finished(
        self, experiment: str, params: Mapping[str, Any], n_tasks: int | None = None
    ) -> dict[int, Any]:
        """Values already stored for this run, by task index (only indices below `n_tasks`)."""
        with self._lock:
            try:
                rows = (
                    self._connection()
                    .execute(
                        "SELECT task, value FROM results WHERE experiment = ? AND params = ?",
                        (experiment, canonical_json(dict(params))),
                    )
                    .fetchall()
                )
            except sqlite3.Error as exc:
                raise self._error("cannot be read", exc) from None
        return {
            task: json.loads(value) for task, value in rows if n_tasks is None or task < n_tasks
        }

    def experiments(self) -> list[tuple[str, str, int]]:
        """(experiment, params JSON, number of stored tasks) for every run in the store."""
        with self._lock:
            return (
                self._connection()
                .execute(
                    "SELECT experiment, params, COUNT(*) FROM results GROUP BY experiment, params "
                    "ORDER BY experiment, params"
                )
                .fetchall()
            )

    def forget(self, experiment: str, params: Mapping[str, Any] | None = None) -> int:
        """Delete a run's stored results (all parameter sets if `params` is None); returns rows."""
        with self._lock:
            if params is None:
                cur = self._connection().execute(
                    "DELETE FROM results WHERE experiment = ?", (experiment,)
                )
            else:
                cur = self._connection().execute(
                    "DELETE FROM results WHERE experiment = ? AND params = ?",
                    (experiment, canonical_json(dict(params))),
                )
            self._connection().commit()
            return cur.rowcount
