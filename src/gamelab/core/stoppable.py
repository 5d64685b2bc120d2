"""Long kernels that a command can still stop: Ctrl-C and SIGTERM within a fraction of a second.

Python runs signal handlers in the main thread, between bytecodes: while a numba kernel runs in
the main thread holding the GIL, a Ctrl-C waits for the kernel to return (``oware perft --depth
14`` ignored it for minutes). :func:`run_stoppable` runs the kernel in a helper thread instead,
the main thread waiting in short sleeps; a kernel compiled with ``nogil=True`` runs there without
the GIL, so the handlers run at once and their exception (``KeyboardInterrupt``, the CLI's
``Terminated``) ends the wait. The kernel is then abandoned in its daemon thread and the command
exits with its code (130, 143). Knows no game.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: how often the waiting main thread wakes, so a signal's handler runs (seconds)
POLL_SECONDS = 0.05
#: how long an interrupted kernel is given to notice `stop` and return (seconds)
STOP_SECONDS = 0.5


def run_stoppable(fn: Callable[..., T], *args: Any, stop: Callable[[], None] | None = None) -> T:
    """``fn(*args)``, stoppable by a signal while it runs (see the module doc); `fn` should be
    a ``nogil=True`` kernel (one holding the GIL would still block the handlers). `stop`, when
    given, asks the kernel to return early (a search's node limit set to 0): it is called on an
    interruption, so a program that goes on after a Ctrl-C (an interactive session) does not
    share its tables with a kernel still running. Outside the main thread (a web server's
    worker thread, say) `fn` is simply called."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below
            box["error"] = exc

    worker = threading.Thread(target=target, name="gamelab-kernel", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(POLL_SECONDS)  # a signal's exception is raised here, in the main thread
    except BaseException:
        if stop is not None:
            stop()
            worker.join(STOP_SECONDS)
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]
