"""Pieces of a kernel's work on Python threads (gamelab.core.threads)."""

from __future__ import annotations

import threading
import time

import pytest

from gamelab.core.threads import run_pieces, thread_count


def test_pieces_run_on_threads_and_come_back_in_order():
    seen: set[int] = set()

    def piece(i: int) -> int:
        seen.add(threading.get_ident())
        return i * i

    pieces = [(i,) for i in range(40)]
    assert run_pieces(piece, pieces, threads=3) == [i * i for i in range(40)]
    assert run_pieces(piece, pieces, threads=1) == [i * i for i in range(40)]
    assert threading.get_ident() in seen  # one thread: the caller's own
    assert thread_count() >= 1


def test_a_failing_piece_stops_the_rest():
    started: list[int] = []

    def piece(i: int) -> int:
        started.append(i)
        if i == 0:
            raise ValueError("bad piece")
        time.sleep(0.05)  # 2000 pieces: 50 s on two threads, far longer than a cancel, even loaded
        return i

    with pytest.raises(ValueError, match="bad piece"):
        run_pieces(piece, [(i,) for i in range(200)], threads=1)
    assert started == [0]
    started.clear()
    with pytest.raises(ValueError, match="bad piece"):
        run_pieces(piece, [(i,) for i in range(2000)], threads=2)
    assert len(started) < 2000  # the pieces not yet started were cancelled
