"""Kernels a command needs later, compiled in a second process while the first compiles its own.

numba compiles in one thread of one process, so a command that needs two independent groups of
kernels on an empty cache (``wordle solve-optimal``: the exact search, then the feasibility
search of its depth limits) compiles them one after the other, on one core. :func:`start` runs a
warm-up function ("module:function", no arguments: small calls that compile the later group into
numba's on-disk cache) in a child interpreter at once; the command carries on with its first
group, and :func:`wait` before the later group's first call lets the child finish, so that call
loads from the cache instead of compiling. On a 2-core machine the two groups compile side by
side.

Nothing is started when it cannot help: when every kernel named already has a cache index (a
warm run pays nothing), when numba's cache folder of one of them is not writable (the child's
work could not be kept), when ``GAMELAB_COMPILE_AHEAD=0``, or when the child is already running.
Whatever the child does, the command's own results are the same: if the child fails, is slow
past :func:`wait`'s limit or was never started, the kernels compile in the command's process as
before. The child prints nothing (``GAMELAB_DEBUG=1`` lets its errors through), ignores Ctrl-C
(its own session: the command handles the terminal's signals) and is killed with the command
(:mod:`gamelab.core.watchdog`: also when the command is killed with SIGKILL), so no process
outlives the command by more than the watchdog's check. numba writes its cache files through a
temporary name and a rename, so a child killed mid-write leaves no broken entry.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: the child processes running, by target
_running: dict[str, subprocess.Popen[bytes]] = {}
#: the kernels a running child compiles: id(dispatcher) -> its target (:func:`wait_for`)
_owned: dict[int, str] = {}
#: the kernels a running child compiles first, one by one: id(dispatcher) -> (its target, it)
_in_turn: dict[int, tuple[str, Any]] = {}
#: how long a caller waits at most for one kernel of ``in_turn`` to reach the cache (seconds)
IN_TURN_WAIT = 60.0

#: the child's program: the parent's gamelab first on the path, a watchdog, then the target
_CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
from gamelab.core.ahead import run_child
run_child(sys.argv[2], int(sys.argv[3]), sys.argv[4])
"""


def _cache_state(kernels: Iterable[Any]) -> tuple[bool, bool]:
    """(every kernel has an index in numba's cache, every cache folder can be written)."""
    cached, writable = True, True
    for kernel in kernels:
        cache: Any = getattr(kernel, "_cache", None)
        cache_file = getattr(cache, "_cache_file", None)
        if cache is None or cache_file is None:  # not a cached dispatcher: nothing to keep
            return False, False
        cached = cached and os.path.exists(cache_file._index_path)
        folder = Path(cache._cache_path)
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        writable = writable and os.access(folder, os.W_OK)
    return cached, writable


def in_cache(kernels: Iterable[Any]) -> bool:
    """Whether every one of `kernels` (numba dispatchers) has an index in numba's cache (a call
    loads it rather than compiling it)."""
    return _cache_state(kernels)[0]


def start(target: str, kernels: Iterable[Any], in_turn: Iterable[Any] = ()) -> bool:
    """Compile `kernels` ahead: run `target` ("module:function", called with no arguments) in a
    child process, unless each of `kernels` (numba dispatchers) is in numba's cache already, a
    cache folder is read-only, ``GAMELAB_COMPILE_AHEAD=0`` or the same target runs already.
    Returns whether a child was started. A kernel of this process that calls one of `kernels`
    waits for the child when numba compiles it (:func:`wait_for`), so it loads that callee from
    the cache. `in_turn`: callees that `target` compiles first, one after the other, in the
    order a kernel of this process types its calls to them: that kernel waits for each only
    until it is in the cache, not for the whole child (its other callees compile here
    meanwhile)."""
    kernels = list(kernels)
    if os.environ.get("GAMELAB_COMPILE_AHEAD", "1") == "0" or not sys.executable:
        return False
    running = _running.get(target)
    if running is not None and running.poll() is None:
        return False
    cached, writable = _cache_state(kernels)
    if cached or not writable:
        return False
    from gamelab.core.watchdog import process_identity

    root = str(Path(__file__).resolve().parents[2])  # the folder holding this gamelab
    debug = os.environ.get("GAMELAB_DEBUG") == "1"
    try:
        _running[target] = subprocess.Popen(
            [sys.executable, "-c", _CHILD, root, target, str(os.getpid())]
            + [process_identity(os.getpid()) or "gone"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=None if debug else subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C at the terminal is the command's to handle
        )
    except OSError:  # no process to spare: the command compiles the kernels itself
        return False
    for kernel in kernels:
        _owned[id(kernel)] = target
    for kernel in in_turn:
        _in_turn[id(kernel)] = (target, kernel)
    return True


def wait(target: str, timeout: float = 120.0) -> None:
    """Let `target`'s child (if one runs) finish before its kernels are called: at most
    `timeout` seconds, then it is stopped and the caller compiles what is missing itself."""
    for key in [k for k, owner in _owned.items() if owner == target]:
        del _owned[key]
    for key in [k for k, (owner, _) in _in_turn.items() if owner == target]:
        del _in_turn[key]
    child = _running.pop(target, None)
    if child is None:
        return
    try:
        child.wait(timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def wait_until_cached(target: str, kernels: Iterable[Any], timeout: float = 120.0) -> None:
    """Let `target`'s child (if one runs) go on, but return as soon as each of `kernels` is in
    numba's cache (numba writes a kernel's index after its code, so a call then loads it), or
    when the child has ended or `timeout` seconds have passed (the caller then compiles what is
    missing itself). A command compiles kernels that call the child's first kernels while the
    child compiles its others (Yatzy's ``winplay``: the switch positions' kernel calls the
    vector widget, the first thing the child compiles, for the solver)."""
    child = _running.get(target)
    kernels = list(kernels)
    deadline = time.monotonic() + timeout
    while child is not None and child.poll() is None and time.monotonic() < deadline:
        if in_cache(kernels):
            return
        time.sleep(0.02)


def wait_for(kernel: Any) -> None:
    """Before numba compiles `kernel` in this process: if a child started by :func:`start`
    compiles it, let that child finish (:func:`wait`), so that `kernel` loads from the cache.
    Called by numba's typing of a call from one kernel to another
    (:func:`gamelab.numba_hook.wait_for_kernels_compiled_ahead`): a kernel that calls the
    child's kernels then compiles its own code while the child compiles those."""
    if _owned:
        target = _owned.get(id(kernel))
        if target is not None:
            wait(target)
    if _in_turn:
        turn = _in_turn.pop(id(kernel), None)
        if turn is not None:
            _wait_cached(turn[0], turn[1])


def _wait_cached(target: str, kernel: Any) -> None:
    """Wait until `kernel` (one of `target`'s ``in_turn``) is in numba's cache, at most until
    the child has gone or :data:`IN_TURN_WAIT` seconds: numba then loads it (or, if the child
    compiled other types, compiles it here)."""
    child = _running.get(target)
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    if child is None or cache_file is None:
        return
    deadline = time.monotonic() + IN_TURN_WAIT
    while not _saved(cache_file) and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)


def _saved(cache_file: Any) -> bool:
    """Whether numba's cache file of a kernel has an index whose every entry's data is written
    (numba writes a new entry's index before its data)."""
    if not os.path.exists(cache_file._index_path):
        return False
    try:
        names = list(cache_file._load_index().values())
    except Exception:  # (another numba's format: numba decides when it loads)
        return True
    folder = cache_file._cache_path
    return bool(names) and all(os.path.exists(os.path.join(folder, name)) for name in names)


def run_child(target: str, parent: int, parent_identity: str) -> None:
    """The child's work: die with `parent`, then call `target` (module:function)."""
    import importlib
    import signal
    import threading

    from gamelab.core.watchdog import start_watchdog

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        start_watchdog(parent, None if parent_identity == "gone" else parent_identity)
    except OSError:
        return  # no watchdog, no child: it could outlive the command

    def leave_with_parent() -> None:  # sooner than the watchdog: numba's compiler lets it run
        while os.getppid() == parent:
            time.sleep(0.1)
        os._exit(0)

    threading.Thread(target=leave_with_parent, name="gamelab-ahead-parent", daemon=True).start()
    module, _, function = target.partition(":")
    started = time.process_time()
    getattr(importlib.import_module(module), function)()
    if os.environ.get("GAMELAB_DEBUG") == "1":
        print(
            f"compiled ahead: {target} in {time.process_time() - started:.1f} CPU-s",
            file=sys.stderr,
        )
