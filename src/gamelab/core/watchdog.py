"""A worker process that dies with the process that started the run, even mid-kernel.

A worker whose parent was killed (SIGKILL: no cleanup runs in the parent) must not live on,
holding its memory and a core. A thread in the worker cannot promise that: a numba kernel or a
long C call holds the GIL, and a watching thread gets no chance to run until it returns
(minutes, for a big task). So each worker starts a *watchdog*: a separate small interpreter
(this file run as a script, standard library only, ``python -I -S``: about 10 MB, no imports of
gamelab or numpy) that checks every ``CHECK_SECONDS`` that the run's parent is still the same
process, and kills the worker with SIGKILL the moment it is not. The watchdog exits as soon as
its worker is gone, so it never outlives it by more than a check.

"The same process" is its start time from ``/proc`` on Linux (a pid can be reused by a later
process; a zombie counts as gone), elsewhere whether a signal can reach it.

>>> process_identity(os.getpid()) is not None
True
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

#: How often a watchdog looks at the parent and at its worker (seconds).
CHECK_SECONDS = 0.5


def process_identity(pid: int) -> str | None:
    """Something that tells a live process `pid` from a dead one or a later one with its pid.

    On Linux, its start time from ``/proc`` (None once it exited, even as an unreaped zombie);
    elsewhere, whether a signal can reach it.
    """
    try:
        with open(f"/proc/{pid}/stat") as stat_file:
            stat = stat_file.read()
    except FileNotFoundError:
        return None
    except OSError:
        stat = ""
    if stat:
        fields = stat.rsplit(")", 1)[1].split()
        return None if fields[0] in ("Z", "X") else fields[19]
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass
    return "alive"


def start_watchdog(parent: int, parent_identity: str | None) -> None:
    """Start the watchdog of the calling process: SIGKILL it once `parent` is gone.

    `parent_identity` is ``process_identity(parent)`` taken in the parent itself, so a parent
    that died before this call (or whose pid was reused since) is noticed at the first check.
    Starting it twice in one process does nothing the second time.
    """
    global _started
    if _started is not None and _started.poll() is None:
        return
    _started = subprocess.Popen(
        [
            sys.executable,
            "-I",
            "-S",
            __file__,
            str(parent),
            parent_identity or "gone",
            str(os.getpid()),
            process_identity(os.getpid()) or "",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # Ctrl-C at the terminal is the parent's to handle, not its own
    )


_started: subprocess.Popen[bytes] | None = None


def watch(parent: int, parent_identity: str, worker: int, worker_identity: str) -> None:
    """The watchdog's loop: return when the worker is gone; kill it when the parent is."""
    while process_identity(worker) == worker_identity:
        if process_identity(parent) != parent_identity:
            os.kill(worker, signal.SIGKILL)
            return
        time.sleep(CHECK_SECONDS)


if __name__ == "__main__":
    parent_pid, parent_id, worker_pid, worker_id = sys.argv[1:5]
    try:
        watch(int(parent_pid), parent_id, int(worker_pid), worker_id)
    except (ProcessLookupError, KeyboardInterrupt):
        pass
