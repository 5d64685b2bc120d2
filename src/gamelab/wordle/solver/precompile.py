"""The kernels ``solve-optimal`` compiles ahead in a second process (:mod:`gamelab.core.ahead`)
while its exact search compiles: which child to run and which kernels it compiles (the child is
:func:`gamelab.wordle.warmup.warm_depth_limits`)."""

from __future__ import annotations

#: what ``solve-optimal`` compiles in a second process beside its exact search
#: (:mod:`gamelab.core.ahead`): :func:`warm_depth_limits`
AHEAD = "gamelab.wordle.warmup:warm_depth_limits"


def ahead_kernels() -> tuple[object, ...]:
    """The kernels :func:`warm_depth_limits` compiles (its child runs unless all are cached)."""
    from gamelab.wordle import _kernels
    from gamelab.wordle.solver import _bound_kernels, _feasible_kernels

    return (
        _bound_kernels.class_bounds_kernel,
        _kernels.entropy_kernel,
        _kernels.partition_kernel,
        _kernels.split_stats_kernel,
        _feasible_kernels.pair_bits_kernel,
        _feasible_kernels.feasible_kernel,
    )
