"""The kernels ``solve-optimal`` compiles ahead in a second process (:mod:`gamelab.core.ahead`)
while its exact search compiles: which child to run and which kernels it compiles (the child is
:func:`gamelab.wordle.warmup.warm_depth_limits`, or
:func:`gamelab.wordle.warmup.warm_search_helpers_and_bounds` when a shipped proof settles the
depth limits: :func:`gamelab.wordle.solver.summary.start_ahead`)."""

from __future__ import annotations

#: what ``solve-optimal`` compiles in a second process beside its exact search
#: (:mod:`gamelab.core.ahead`): :func:`warm_depth_limits`
AHEAD = "gamelab.wordle.warmup:warm_depth_limits"
#: the same when a shipped proof settles the depth limits of the word lists and rule (no
#: feasibility search to compile): the search's late helpers first, then the bounds' kernels
HELPERS_AHEAD = "gamelab.wordle.warmup:warm_search_helpers_and_bounds"


def ahead_kernels(feasibility: bool = True) -> tuple[object, ...]:
    """The kernels :func:`warm_depth_limits` compiles (its child runs unless all are cached);
    `feasibility` False: those of :func:`warm_search_helpers_and_bounds`, which compiles no
    feasibility search (besides the search's late helpers)."""
    from gamelab.wordle import _kernels
    from gamelab.wordle.solver import _bound_kernels, _feasible_kernels

    kernels = (
        _bound_kernels.class_bounds_kernel,
        _kernels.entropy_kernel,
        _kernels.partition_kernel,
        _kernels.split_stats_kernel,
    )
    if not feasibility:
        return kernels
    return (*kernels, _feasible_kernels.pair_bits_kernel, _feasible_kernels.feasible_kernel)
