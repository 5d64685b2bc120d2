"""The lattice game's warm-up: one small call of each library entry point, so that numba
compiles (once, into its cache) or loads every kernel the commands and the web page use."""

from __future__ import annotations

from gamelab.core.warm import PageWarmup

#: What the page needs warm (``gamelab serve``): its kernels, and once per machine every playable
#: length enumerated (the first level of a length then loads its table instead of computing it).
PAGE_WARMUP = PageWarmup(
    pool=("gamelab.lattice.warmup:warm_page",),
    build=("gamelab.lattice.puzzle:build_page_tables",),
    seconds=4.9,  # benchmarks/page_warm.py (load 4-6: CPU-s on empty caches)
)


def warm_up() -> None:
    """Enumerate length 10, score a level, run two GA generations, both folding searches and
    one pull move of the replica exchange's move kernel (which the tests call directly) and its
    kick kernel (the default settings make no kicks)."""
    import numpy as np

    from gamelab.core.evolve import GAConfig
    from gamelab.lattice._move_kernels import apply_move_kernel
    from gamelab.lattice._replica_kernels import kick_kernel
    from gamelab.lattice.completion import best_completion
    from gamelab.lattice.enumeration import enumerate_timed
    from gamelab.lattice.enumeration import warm_up as warm_histograms
    from gamelab.lattice.fold import METHODS, fold
    from gamelab.lattice.generate import evolve_once
    from gamelab.lattice.pack import analyse_level
    from gamelab.lattice.replica import new_state
    from gamelab.lattice.rules import Chain

    enumerate_timed(10)
    analyse_level(Chain("HPHHPPHHPH"))
    evolve_once(10, 0, config=GAConfig(population=10, generations=2))
    for method in METHODS:
        fold(Chain("HPHPPHHPHPPHPHHPPHPH"), seconds=1.0, method=method)
    warm_histograms()
    straight = np.array([[i, 0, 0] for i in range(4)], dtype=np.int64)
    apply_move_kernel(straight, 2, 0)
    pos, grid = new_state(4, 2, 1)  # no kick due (restart[1] = 0): compiles only
    one = np.zeros(1, np.int64)
    replicas = (np.ones(4, np.bool_), 2, np.ones(1), pos, grid, one, one, np.ones(1, np.uint64))
    kick_kernel(replicas, pos[0].copy(), np.zeros(1, np.int64), np.zeros(5, np.int64))
    best_completion(Chain("HPPHPH"), "RU")  # the environment's oracle (its completion kernel)


def warm_page() -> None:
    """Load (or compile) the enumeration's kernels the page's exact levels use."""
    from gamelab.lattice.enumeration import warm_up as warm_histograms

    warm_histograms()


#: The replica exchange's largest helper, compiled in a second process while a cold
#: :func:`gamelab.lattice.replica.replica_fold` compiles ``remc_kernel`` (:mod:`gamelab.core.ahead`)
REPLICA_AHEAD = "gamelab.lattice.warmup:compile_replica_helpers"


def replica_helpers() -> dict:
    """{helper: its signature} of the kernel that ``remc_kernel`` calls and that costs most to
    compile on its own, the fragment regrowth, with the argument types ``remc_kernel`` gives it
    (a test checks that it asks for no other). numba types it early in ``remc_kernel``'s
    compile (whatever the order of the source), so the second process takes no more than what
    it can compile by then."""
    from numba import types

    from gamelab.lattice._replica_kernels import _regrow

    i64, f64 = types.int64, types.float64
    sites = types.Array(types.int64, 2, "C")  # a replica's sites (n x 3), or scratch of that shape
    grid = types.Array(types.int32, 1, "C")
    return {
        _regrow: (
            types.Array(types.boolean, 1, "C"), sites, grid, i64, f64, f64,
            types.Array(types.uint64, 1, "C"), i64, i64, i64, sites,
            types.Array(types.float64, 1, "C"), sites,
        ),
    }  # fmt: skip


def compile_replica_helpers() -> None:
    """Compile (or load) :func:`replica_helpers` (the second process's work)."""
    for kernel, signature in replica_helpers().items():
        kernel.compile(signature)
