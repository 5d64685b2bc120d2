"""The endgame database's verification, recorded: its checksums are read once for given bytes
(seconds for 1.25 GB) and a stamp beside it (``verified.json``) lets later processes trust them
until the file or its index changes; a background process verifies it for a server that must not
wait (:func:`verify_in_background`, run as ``python -m gamelab.oware.tablebase_verify``).

The stamp is keyed by the values file's size, inode, modification and change times and the
SHA-256 of the index (its levels and their checksums). Any write to the file changes its change
time, which no program can set back, so a file changed in place is verified again and a damaged
level is found and never used (:func:`gamelab.oware.tablebase_disk.database_levels`). What the
stamp cannot see is a change below the file system (a disk's bit rot): the build, which reads
every level's checksum when it starts, and ``gamelab oware tablebase --seeds N`` find that.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
from pathlib import Path

from gamelab.oware.tablebase_disk import _cache_key, database_dir, database_reach, verified_reach

#: the state of the file (sizes, inodes, times) this process last started a verification for
_started_for: str | None = None


def verify_in_background(root: Path | None = None) -> bool:
    """Start verifying the database's checksums in a process of its own, unless a stamp covers
    the file as it is or this process already started one for it; True when a check was
    started now or before for this state of the file. The caller goes on with what it has: the
    stamp the check writes is seen by ``verified_reach`` in every process, and a second check
    finds the first one's lock taken and leaves. Detached (started by ``sh`` in the
    background, so it is nobody's child here): it starts no thread and leaves no child to reap,
    as the solver processes' forkserver requires."""
    global _started_for
    if verified_reach(root) is not None:
        return False
    state = _cache_key(database_dir(root))
    if _started_for == state:
        return True
    _started_for = state
    args = [sys.executable, "-m", "gamelab.oware.tablebase_verify", "--verify"]
    if root is not None:
        args.append(str(root))
    detach = 'exec "$0" "$@" </dev/null >/dev/null 2>&1 &'
    subprocess.run(["/bin/sh", "-c", detach, *args], check=False)
    return True


def _verify_once(root: Path | None) -> int:
    """Verify and stamp the database unless another process is doing it (its lock taken)."""
    folder = database_dir(root)
    if not folder.exists():
        return -1
    with open(folder / "verify.lock", "a+") as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return -1  # another process verifies it now
        with contextlib.suppress(OSError):
            os.nice(10)  # a background check yields to the answers being computed
        return database_reach(root)


if __name__ == "__main__":  # the background check of `verify_in_background`
    if sys.argv[1:2] == ["--verify"]:
        _verify_once(Path(sys.argv[2]) if len(sys.argv) > 2 else None)
