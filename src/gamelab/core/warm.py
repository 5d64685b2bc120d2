"""What a game's web page needs warm before it answers, declared once in the game's
``warmup.py`` beside its ``warm_up()`` (``gamelab warmup``): one value the server reads.

Functions are named ``"module:function"`` (no arguments): strings, so that reading the
declaration imports nothing heavy. ``gamelab serve`` starts serving at once and runs them in
the background (``web.app``), cheapest game first (:attr:`PageWarmup.first_answer_seconds`).

>>> PageWarmup(pool=("m:f",), seconds=9.0).first_answer_seconds
9.0
>>> PageWarmup(server=("m:g",), pool=("m:f",), seconds=9.0, serve_seconds=4.0).first_answer_seconds
4.0
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageWarmup:
    """A page's warm-up: what each process calls, and what it costs (CPU seconds on empty numba
    and gamelab caches, measured by ``benchmarks/page_warm.py``)."""

    #: called once by the server and by every solver process at start (numba kernels loaded,
    #: tables read), so no request waits for them
    pool: tuple[str, ...] = ()
    #: called once in the solver pool's forkserver instead, so every solver process (and every
    #: replacement of a killed one) starts warm; they must start no threads (no numba
    #: ``parallel=True`` kernel may run in them)
    prefork: tuple[str, ...] = ()
    #: called by ``gamelab serve``'s warm-up process alone, after the others: they fill the
    #: gamelab cache on disk with tables the server then only loads
    build: tuple[str, ...] = ()
    #: what the calls answered in the server's own process need, when that is less than `pool`:
    #: the warm-up process calls these and `build` first, and those calls are answered from then
    #: on while it goes on with `pool` (Yatzy: the coach first, the win-play bot after)
    server: tuple[str, ...] = ()
    #: with `server`: what is still warming after its first part, in the page's words
    rest: str = ""
    #: CPU seconds of `prefork` + `pool` + `build`: orders the server's warm-up
    seconds: float = 0.0
    #: with `server`: the CPU seconds of its first part alone (`server` + `build`)
    serve_seconds: float | None = None

    @property
    def first_answer_seconds(self) -> float:
        """CPU seconds until the page's first exact answers (`serve_seconds` when its in-server
        calls come first, else all of `seconds`)."""
        if self.server and self.serve_seconds is not None:
            return min(self.serve_seconds, self.seconds)
        return self.seconds
