"""The "compiling fast kernels" notice: said once, only when numba really compiles something.

numba compiles a kernel on its first call and keeps the machine code in its on-disk cache
(``cache=True``); loading from the cache is silent and fires no compile event. So a command
whose kernels are all cached prints nothing, and a first run says, once, which game's kernels
are compiling and about how long that takes (:data:`COMPILE_SECONDS`).

The listener is registered when numba is first imported (an import hook), so a command that
never needs numba (``gamelab --help``) does not pay for importing it.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from gamelab import numba_hook

#: CPU seconds to compile every kernel of a game from an empty numba cache, measured with
#: ``NUMBA_CACHE_DIR=<empty> gamelab warmup GAME`` (CPU of that process) on the shared 2-core
#: machine under load 20-27 (session 5): voltorb 50.0 + 20.2 (the coin search, added to its
#: warm-up afterwards), lattice 31.1, oware 30.7; wordle and yatzy are estimates (the README's
#: 205 CPU-s for all five, less those). A command compiles only the kernels it calls, so this
#: is an upper bound for one command.
COMPILE_SECONDS: dict[str, float] = {
    "voltorb": 70.0,
    "wordle": 30.0,
    "lattice": 31.0,
    "oware": 31.0,
    "yatzy": 45.0,
}


def notice_text(module: str) -> str:
    """What is said when a kernel of `module` (a dotted module name) starts compiling."""
    parts = module.split(".")
    game = parts[1] if len(parts) > 1 and parts[0] == "gamelab" else None
    if game in COMPILE_SECONDS:
        return (
            f"compiling {game}'s fast kernels, once: up to about {COMPILE_SECONDS[game]:.0f} s "
            f"of CPU (later runs load them at once; 'gamelab warmup' compiles every game ahead)"
        )
    return "compiling fast kernels, once: a few seconds (later runs load them at once)"


class _Notice:
    """A numba event listener saying :func:`notice_text` on the first compilation."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.said = False
        self.compiled = 0  # compilations seen (tests, and callers that report them)

    def listener(self) -> Any:
        from numba.core import event

        notice = self

        class Listener(event.Listener):
            def on_start(self, ev: Any) -> None:
                notice.compiled += 1
                if notice.said:
                    return
                notice.said = True
                dispatcher = ev.data.get("dispatcher")
                module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
                stream = notice.stream if notice.stream is not None else sys.stderr
                print(notice_text(module), file=stream, flush=True)

            def on_end(self, ev: Any) -> None:
                pass

        return Listener()

    def register(self) -> None:
        from numba.core import event

        event.register("numba:compile", self.listener())


_installed: _Notice | None = None


def install(stream: TextIO | None = None) -> _Notice:
    """Say the notice (on `stream`, default stderr) when numba first compiles, once per process;
    returns the notice (its `compiled` counts the compilations). numba is not imported here."""
    global _installed
    if _installed is not None:
        return _installed
    notice = _installed = _Notice(stream)
    numba_hook.when_imported(notice.register)
    return notice
