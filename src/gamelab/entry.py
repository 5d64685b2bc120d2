"""The `gamelab` program's entry point: a SIGTERM handler first, then the command line.

Python's default action for SIGTERM ends the process without a word. The command line's own
handler (:func:`gamelab.cli.main`) is installed only once its modules are imported (typer,
the option types: a tenth of a second or more on a busy machine), so this one covers that
window and says what every other moment says: one line ``error: terminated``, exit 143.
Nothing has been computed or written yet, so there is nothing to keep.
"""

from __future__ import annotations

import os
import signal
import sys
import threading


def _terminated_while_starting(signum: int, frame: object) -> None:
    try:
        sys.stderr.write("error: terminated\n")
        sys.stderr.flush()
    finally:
        os._exit(143)


def main() -> None:
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated_while_starting)
    from gamelab.cli import main as cli_main  # replaces the handler with its own

    cli_main()
