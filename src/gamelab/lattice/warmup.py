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


def compile_replica_helpers() -> None:
    """Compile (or load) :func:`gamelab.lattice.replica.replica_helpers` (the second process's
    work while a cold fold compiles ``remc_kernel``)."""
    from gamelab.lattice.replica import replica_helpers

    for kernel, signature in replica_helpers().items():
        kernel.compile(signature)
