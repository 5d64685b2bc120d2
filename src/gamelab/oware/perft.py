"""Perft: the number of move sequences of a given length from a position.

Counted by the numba kernel :func:`gamelab.oware._move_kernels.perft_kernel`, which applies the
repetition rule by comparing each new board with those of the same side to move since the last
capture (the ``own-row`` cycle rule); the plain-Python twin is :func:`gamelab.oware.rules.perft`.
Reference counts from the start position (research notes §2, OpenSpiel and an independent
implementation agree): 6, 36, 190, 1014, 5219, 27332, 139157, 711414, 3592872, 18137964.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from gamelab.core.stoppable import run_stoppable
from gamelab.oware import _move_kernels as K
from gamelab.oware.rules import Position
from gamelab.oware.rules import perft as perft_python

#: Perft from the start position, depths 1-10 (research notes §2).
START_PERFT = (6, 36, 190, 1014, 5219, 27332, 139157, 711414, 3592872, 18137964)

__all__ = ["START_PERFT", "PerftResult", "perft_count", "perft_python", "timed_perft"]


@dataclass(frozen=True)
class PerftResult:
    """A perft count and the seconds it took (``seconds`` is not part of the JSON document)."""

    depth: int
    nodes: int
    seconds: float = field(default=0.0, metadata={"json": False})


def perft_count(position: Position, depth: int) -> int:
    """Move sequences of length `depth` from `position` (games ending earlier are not counted)."""
    if depth < 0:
        raise ValueError(f"perft depth must be non-negative, got {depth}")
    if position.rules.cycle != "own-row" and depth > 0:
        # the kernel implements the first-repetition rule; other cycle rules use the twin
        return perft_python(position, depth)
    if position.is_over():
        return 1 if depth == 0 else 0
    board = np.array([*position.houses, *position.stores], dtype=np.int64)
    # in a helper thread without the GIL: Ctrl-C and SIGTERM stop a deep count at once
    side, gs = position.to_move, position.rules.gs_code
    return int(run_stoppable(K.perft_kernel, board, side, depth, gs))


def timed_perft(position: Position, depth: int) -> PerftResult:
    """:func:`perft_count` with its wall time."""
    t0 = time.perf_counter()
    nodes = perft_count(position, depth)
    return PerftResult(depth, nodes, time.perf_counter() - t0)
