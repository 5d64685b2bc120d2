"""The "compiling fast kernels" notice: said once, only when numba really compiles something.

numba compiles a kernel on its first call and keeps the machine code in its on-disk cache
(``cache=True``); loading from the cache is silent and fires no compile event. So a command
whose kernels are all cached prints nothing, and a first run says, once, which game's kernels
are compiling and about how long that takes (:func:`compile_seconds`, from the game's record).

The listener is registered when numba is first imported (an import hook), so a command that
never needs numba (``gamelab --help``) does not pay for importing it.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from gamelab import numba_hook


def compile_seconds(game: str) -> float:
    """CPU seconds to compile every kernel of `game` from an empty numba cache (its record's
    :attr:`~gamelab.core.state.GameInfo.compile_seconds`; 0 for an unknown name)."""
    from gamelab.core.state import registered_games

    return next((i.compile_seconds for i in registered_games() if i.name == game), 0.0)


def notice_text(module: str) -> str:
    """What is said when a kernel of `module` (a dotted module name) starts compiling."""
    parts = module.split(".")
    game = parts[1] if len(parts) > 1 and parts[0] == "gamelab" else ""
    seconds = compile_seconds(game)
    if seconds:
        return (
            f"compiling {game}'s fast kernels, once: only those this command calls (all of "
            f"{game}'s take about {seconds:.0f} s of CPU); later runs load them at once, and "
            "'gamelab warmup' compiles every game's ahead"
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
