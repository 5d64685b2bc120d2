"""The endgame database's verification stamp (``verified.json`` beside it): what identifies the
verified bytes, and the record later processes read to trust them without reading 1.25 GB again
(:mod:`gamelab.oware.tablebase_verify` says when it is trusted and runs the check).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

from gamelab.core.files import write_text_atomic

STAMP_VERSION = 1

#: The record of a verification beside the database: later processes trust it (without reading
#: 1.25 GB again) while the file is the one verified (the same size, modification and change
#: times, inode) and the index lists the same levels and checksums.
STAMP = "verified.json"


def file_key(folder: Path) -> dict[str, Any] | None:
    """What identifies the verified bytes: the values file's size, inode, modification and
    change times (any write changes the change time, which no program can set back) and the
    SHA-256 of the index (its levels and their checksums); None without a database."""
    path, index = folder / "values.i8", folder / "index.json"
    try:
        st = path.stat()
        index_bytes = index.read_bytes()
    except OSError:
        return None
    return {
        "size": st.st_size,
        "inode": st.st_ino,
        "mtime_ns": st.st_mtime_ns,
        "ctime_ns": st.st_ctime_ns,
        "index_sha256": hashlib.sha256(index_bytes).hexdigest(),
    }


def write_stamp(folder: Path, key: dict[str, Any], good: int, damaged: list[int]) -> None:
    doc = {"version": STAMP_VERSION, "file": key, "levels": good, "damaged": damaged}
    with contextlib.suppress(OSError):  # a read-only cache: every process verifies again
        write_text_atomic(folder / STAMP, json.dumps(doc, indent=1) + "\n")


def read_stamp(folder: Path, key: dict[str, Any]) -> tuple[int, list[int]] | None:
    """(levels verified, the damaged level if any) from a stamp made for these bytes, or None."""
    try:
        doc = json.loads((folder / STAMP).read_text())
        if doc["version"] != STAMP_VERSION or doc["file"] != key:
            return None
        return int(doc["levels"]), [int(n) for n in doc["damaged"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None
