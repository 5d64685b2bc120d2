"""Computed tables (numpy arrays) on disk, keyed by name + parameters + a format version.

``cached_arrays("yatzy-values", {"rules": "yatzy"}, version=1, compute=solve)`` returns the
arrays from disk if a valid copy exists, else calls ``compute()`` (which returns a dict of
arrays), stores the result and returns it.

Files live under ``$GAMELAB_CACHE`` (default: ``platformdirs.user_cache_dir("gamelab")``), one
folder per table name. A file is an 8-byte magic, the SHA-256 of the payload, then the payload:
since ``GLCACHE3`` a JSON header (names, dtypes, shapes, offsets) and the arrays' raw bytes, each
64-byte aligned, which load with a single read and no copy (a 30 MB table in a few
milliseconds; ``GLCACHE1`` files, an uncompressed ``.npz``, still load). It is written to a temporary file in the same folder and renamed into
place, so a reader never sees half a file; on load the checksum is verified, and a corrupt or
truncated file is deleted and recomputed, never used. Bump `version` whenever the meaning or
layout of a table changes.
"""

from __future__ import annotations

import contextlib
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

MAGIC = b"GLCACHE3"  # raw arrays behind a JSON header (GLCACHE2 lost 0-d shapes: not read)
MAGIC_NPZ = b"GLCACHE1"  # the first format (an .npz payload): still read
_DIGEST = 32
_ALIGN = 64


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
    entries: list[dict[str, Any]] = []
    blobs: list[np.ndarray] = []
    offsets: list[int] = []
    offset = 0
    for name, value in arrays.items():
        a = np.asarray(value)
        if not a.flags.c_contiguous:  # (not ascontiguousarray: it turns a 0-d array into 1-d)
            a = a.copy(order="C")
        if a.dtype.hasobject:
            raise ValueError(f"array {name!r} holds Python objects, which the cache cannot store")
        entries.append(
            {"name": name, "dtype": a.dtype.str, "shape": list(a.shape), "offset": offset}
        )
        blobs.append(a)
        offsets.append(offset)
        offset += -(-a.nbytes // _ALIGN) * _ALIGN
    header = json.dumps({"arrays": entries, "meta": dict(meta or {})}, default=str).encode()
    head_size = -(-(8 + len(header)) // _ALIGN) * _ALIGN
    payload = bytearray(head_size + offset)
    payload[:8] = len(header).to_bytes(8, "little")
    payload[8 : 8 + len(header)] = header
    for at, a in zip(offsets, blobs, strict=True):
        start = head_size + at
        payload[start : start + a.nbytes] = a.reshape(-1).view(np.uint8).data
    write_bytes_atomic(path, MAGIC + hashlib.sha256(payload).digest() + bytes(payload))


def load_arrays(path: Path) -> dict[str, np.ndarray] | None:
    """The arrays in `path`, or None if it is missing, truncated or fails its checksum."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            data = bytearray(size)  # writable: the arrays are views of it, not copies
            if f.readinto(data) != size:
                return None
    except OSError:  # missing, or a folder that cannot be read: computed again
        return None
    start = len(MAGIC) + _DIGEST
    if size < start or data[: len(MAGIC)] not in (MAGIC, MAGIC_NPZ):
        return None
    view = memoryview(data)
    if hashlib.sha256(view[start:]).digest() != bytes(view[len(MAGIC) : start]):
        return None
    try:
        if data[: len(MAGIC)] == MAGIC_NPZ:
            stream = io.BytesIO(data)
            stream.seek(start)
            with np.load(stream, allow_pickle=False) as npz:
                return {k: npz[k] for k in npz.files if k != "__meta__"}
        n = int.from_bytes(view[start : start + 8], "little")
        header = json.loads(bytes(view[start + 8 : start + 8 + n]))
        base = start + -(-(8 + n) // _ALIGN) * _ALIGN
        out = {}
        for entry in header["arrays"]:
            dtype = np.dtype(entry["dtype"])
            if dtype.hasobject:
                return None
            shape = tuple(int(x) for x in entry["shape"])
            count = int(np.prod(shape, dtype=np.int64))
            a = np.frombuffer(data, dtype=dtype, count=count, offset=base + int(entry["offset"]))
            out[str(entry["name"])] = a.reshape(shape)
        return out
    except (ValueError, OSError, EOFError, KeyError, TypeError):
        return None


def _is_npz_format(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(MAGIC_NPZ)) == MAGIC_NPZ
    except OSError:
        return False


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
        if _is_npz_format(path):  # the first format loads slowly: rewritten once in the new one
            with contextlib.suppress(OSError):
                save_arrays(
                    path, arrays, meta={"name": name, "params": dict(params), "version": version}
                )
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
