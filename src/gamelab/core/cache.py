"""Computed tables (numpy arrays) on disk, keyed by name + parameters + a format version.

``cached_arrays("yatzy-values", {"rules": "yatzy"}, version=1, compute=solve)`` returns the
arrays from disk if a valid copy exists, else calls ``compute()`` (which returns a dict of
arrays), stores the result and returns it.

Files live under ``$GAMELAB_CACHE`` (default: ``platformdirs.user_cache_dir("gamelab")``), one
folder per table name. A file is an 8-byte magic, the SHA-256 of the payload, then the payload
(an uncompressed ``.npz``). It is written to a temporary file in the same folder and renamed into
place, so a reader never sees half a file; on load the checksum is verified, and a corrupt or
truncated file is deleted and recomputed, never used. Bump `version` whenever the meaning or
layout of a table changes.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import platformdirs

from gamelab.core.files import write_bytes_atomic

MAGIC = b"GLCACHE1"
_DIGEST = 32


def cache_dir() -> Path:
    """The cache root: ``$GAMELAB_CACHE`` or the per-user cache directory."""
    env = os.environ.get("GAMELAB_CACHE")
    return Path(env) if env else Path(platformdirs.user_cache_dir("gamelab"))


def cache_key(name: str, params: Mapping[str, Any], version: int) -> str:
    text = json.dumps(
        {"name": name, "params": dict(params), "version": version}, sort_keys=True, default=str
    )
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def cache_path(name: str, params: Mapping[str, Any], version: int) -> Path:
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"cache table name must be a plain non-empty name, got {name!r}")
    return cache_dir() / name / f"{cache_key(name, params, version)}.npz"


def save_arrays(
    path: Path, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any] | None = None
) -> None:
    """Write arrays atomically with a checksum (temporary file + rename)."""
    buffer = io.BytesIO()
    payload_arrays = {k: np.asarray(v) for k, v in arrays.items()}
    if meta is not None:
        payload_arrays["__meta__"] = np.frombuffer(
            json.dumps(dict(meta), default=str).encode(), dtype=np.uint8
        )
    np.savez(buffer, **payload_arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle
    payload = buffer.getvalue()
    write_bytes_atomic(path, MAGIC + hashlib.sha256(payload).digest() + payload)


def load_arrays(path: Path) -> dict[str, np.ndarray] | None:
    """The arrays in `path`, or None if it is missing, truncated or fails its checksum."""
    try:
        data = path.read_bytes()
    except OSError:  # missing, or a folder that cannot be read: computed again
        return None
    if len(data) < len(MAGIC) + _DIGEST or not data.startswith(MAGIC):
        return None
    digest = data[len(MAGIC) : len(MAGIC) + _DIGEST]
    payload = data[len(MAGIC) + _DIGEST :]
    if hashlib.sha256(payload).digest() != digest:
        return None
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as npz:
            return {k: npz[k] for k in npz.files if k != "__meta__"}
    except (ValueError, OSError, EOFError):
        return None


def cached_arrays(
    name: str,
    params: Mapping[str, Any],
    version: int,
    compute: Callable[[], Mapping[str, np.ndarray]],
) -> dict[str, np.ndarray]:
    """The arrays for (name, params, version): from disk when valid, else computed and stored."""
    path = cache_path(name, params, version)
    arrays = load_arrays(path)
    if arrays is not None:
        return arrays
    arrays = {k: np.asarray(v) for k, v in compute().items()}
    try:
        if path.exists():
            path.unlink(missing_ok=True)  # corrupt or truncated: never used
        save_arrays(path, arrays, meta={"name": name, "params": dict(params), "version": version})
    except OSError as exc:  # a read-only or full cache folder: keep the result, say so once
        _warn_not_cached(path, exc)
    return arrays


_warned_folders: set[Path] = set()


def _warn_not_cached(path: Path, exc: OSError) -> None:
    root = cache_dir()
    if root in _warned_folders:
        return
    _warned_folders.add(root)
    reason = exc.strerror or str(exc)
    print(
        f"warning: computed tables cannot be cached in {root} ({reason}); results are correct "
        "but will be recomputed next time (set GAMELAB_CACHE to a writable folder)",
        file=sys.stderr,
    )


def cached_array(
    name: str, params: Mapping[str, Any], version: int, compute: Callable[[], np.ndarray]
) -> np.ndarray:
    """Like :func:`cached_arrays` for a single array."""
    return cached_arrays(name, params, version, lambda: {"array": compute()})["array"]


def is_cached(name: str, params: Mapping[str, Any], version: int) -> bool:
    """Whether a valid copy of the table is on disk (verifies the checksum)."""
    return load_arrays(cache_path(name, params, version)) is not None
