"""An SQLite store of experiment results, keyed by (experiment, parameters, task index).

Long Monte Carlo runs save each finished task here (see :func:`gamelab.core.parallel.run_tasks`),
so a run that was interrupted resumes where it stopped and ends with exactly the numbers of one
uninterrupted run. Values are JSON (numpy numbers and arrays are converted); what comes back is
the decoded JSON, both when a value was just stored and when it is read later.

The default file is ``$GAMELAB_RESULTS`` if set, else ``results.sqlite`` in the per-user data
directory (``platformdirs.user_data_dir("gamelab")``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
from collections import Counter
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
    checksum TEXT,
    PRIMARY KEY (experiment, params, task)
);
"""


def row_checksum(experiment: str, params: str, task: int, value: str) -> str:
    """The checksum stored with a row: of its whole key and value, so an edited value, a row
    copied to another run and a damaged text all fail it."""
    import hashlib

    text = json.dumps([experiment, params, int(task), value], separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def shape_of(value: Any) -> str:
    """The kind of a JSON value: "object", "list", "number", "string", "bool" or "null".

    The tasks of one run return one kind; a row of another kind (left by another version of the
    code) would fail where the results are combined. Only the kind is compared: a task may
    legitimately leave out a key or return lists of different lengths.
    """
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "list"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return "string" if isinstance(value, str) else "null"


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


def _key_part(obj: Any) -> Any:
    """JSON for the values a call may take, in full (never abbreviated, unlike ``repr`` of a
    large array): arrays with dtype and shape, dataclasses with their type, functions and
    partials by name, paths and enums as text."""
    import dataclasses
    import enum
    import functools

    if isinstance(obj, np.ndarray):
        return {"array": obj.dtype.str, "shape": list(obj.shape), "data": obj.tolist()}
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (set, frozenset)):
        return {"set": sorted(canonical_key(x) for x in obj)}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        fields = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
        return {"type": f"{type(obj).__module__}.{type(obj).__qualname__}", "fields": fields}
    if isinstance(obj, functools.partial):
        return {"partial": obj.func, "args": obj.args, "keywords": obj.keywords}
    if isinstance(obj, enum.Enum):
        return f"{type(obj).__qualname__}.{obj.name}"
    if isinstance(obj, Path):
        return str(obj)
    if callable(obj) and hasattr(obj, "__qualname__") and hasattr(obj, "__module__"):
        return {"callable": f"{obj.__module__}:{obj.__qualname__}"}
    raise TypeError(f"{type(obj).__name__} cannot be part of a key")


def canonical_key(value: Any) -> str:
    """Deterministic JSON text of any call's parameters (the one keying convention: the
    results store's params, the web pool's memo and job ids). Plain JSON data gives the same
    text as :func:`canonical_json`; TypeError for a value with no faithful text."""
    return json.dumps(
        value, default=_key_part, sort_keys=True, separators=(",", ":"), allow_nan=True
    )


def call_key(fn: Any, args: tuple) -> str:
    """A digest of the call ``fn(*args)`` (:func:`canonical_key` of the function's name and
    the arguments); TypeError when an argument has no faithful text."""
    text = canonical_key([f"{fn.__module__}:{fn.__qualname__}", list(args)])
    return hashlib.sha256(text.encode()).hexdigest()


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
            columns = {r[1] for r in db.execute("PRAGMA table_info(results)")}
            if "checksum" not in columns:  # a store written before rows had checksums
                db.execute("ALTER TABLE results ADD COLUMN checksum TEXT")
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
        key = canonical_json(dict(params))
        with self._lock:
            try:
                self._connection().execute(
                    "INSERT OR REPLACE INTO results (experiment, params, task, value, saved_at, "
                    "checksum) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        experiment,
                        key,
                        int(task),
                        text,
                        time.time(),
                        row_checksum(experiment, key, task, text),
                    ),
                )
                self._connection().commit()
            except sqlite3.Error as exc:
                raise self._error("cannot be written", exc) from None
        return json.loads(text)

    def finished(
        self, experiment: str, params: Mapping[str, Any], n_tasks: int | None = None
    ) -> dict[int, Any]:
        """Values already stored for this run, by task index (only indices below `n_tasks`).

        Each row is checked: its checksum (an edited, damaged or copied row fails it, and so
        does a row of a store written before rows had checksums) and its shape (the structure
        the kind most of the run's rows have, see :func:`shape_of`). A row that fails is left out, so
        its task is computed again, and one line on stderr says how many and why.
        """
        key = canonical_json(dict(params))
        with self._lock:
            try:
                rows = (
                    self._connection()
                    .execute(
                        "SELECT task, value, checksum FROM results "
                        "WHERE experiment = ? AND params = ?",
                        (experiment, key),
                    )
                    .fetchall()
                )
            except sqlite3.Error as exc:
                raise self._error("cannot be read", exc) from None
        values: dict[int, Any] = {}
        failed = {"checksum": 0, "shape": 0}
        for task, text, checksum in rows:
            if n_tasks is not None and not 0 <= task < n_tasks:
                continue
            if checksum != row_checksum(experiment, key, task, text):
                failed["checksum"] += 1
                continue
            try:
                values[task] = json.loads(text)
            except ValueError:
                failed["checksum"] += 1
        if values:
            shapes = Counter(shape_of(v) for v in values.values())
            usual = shapes.most_common(1)[0][0]
            for task in [t for t, v in values.items() if shape_of(v) != usual]:
                del values[task]
                failed["shape"] += 1
        if any(failed.values()):
            why = " and ".join(f"{n} their {what}" for what, n in failed.items() if n)
            print(
                f"results store {self.path}: {sum(failed.values())} stored results of "
                f"{experiment} failed a check ({why}); computing them again",
                file=sys.stderr,
            )
        return values

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
