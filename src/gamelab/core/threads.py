"""A kernel's independent pieces of work run side by side on a few Python threads.

numba compiles a ``parallel=True`` loop (``prange``) at about twice the cost of the same loop
serial (Yatzy's layer of widgets: 2.55 -> 1.16 CPU-s on a first call, issue 50), which every
command that reaches it pays on an empty cache. Where the loop's body is already a call, a
serial kernel compiled with ``nogil=True`` run on pieces of the work from Python threads goes
as fast: each call releases the GIL for its whole piece. :func:`run_pieces` runs the pieces (a
thread takes the next piece when it finishes one, so uneven pieces balance) and returns their
results in order; an exception or Ctrl-C starts no further piece.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

R = TypeVar("R")


def thread_count() -> int:
    """The threads numba's parallel loops would use (``NUMBA_NUM_THREADS``, else the cores)."""
    from numba import config

    return max(1, int(config.NUMBA_NUM_THREADS))


def run_pieces(
    call: Callable[..., R], pieces: Sequence[tuple[Any, ...]], threads: int | None = None
) -> list[R]:
    """``[call(*piece) for piece in pieces]``, on `threads` threads (default
    :func:`thread_count`); in this thread alone when one thread or one piece."""
    threads = thread_count() if threads is None else threads
    if threads <= 1 or len(pieces) <= 1:
        return [call(*piece) for piece in pieces]
    pool = ThreadPoolExecutor(max_workers=min(threads, len(pieces)), thread_name_prefix="gamelab")
    try:
        futures = [pool.submit(call, *piece) for piece in pieces]
        return [f.result() for f in futures]
    finally:  # an interrupted or failed run starts no further piece
        pool.shutdown(wait=True, cancel_futures=True)
