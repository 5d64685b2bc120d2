"""The lattice game's warm-up: one small call of each library entry point, so that numba
compiles (once, into its cache) or loads every kernel the commands and the web page use."""

from __future__ import annotations


def warm_up() -> None:
    """Enumerate length 10, score a level, run two GA generations and both folding searches."""
    from gamelab.core.evolve import GAConfig
    from gamelab.lattice.enumeration import enumerate_timed
    from gamelab.lattice.enumeration import warm_up as warm_histograms
    from gamelab.lattice.fold import METHODS, fold
    from gamelab.lattice.generate import evolve_once
    from gamelab.lattice.pack import analyse_level

    enumerate_timed(10)
    analyse_level("HPHHPPHHPH")
    evolve_once(10, 0, config=GAConfig(population=10, generations=2))
    for method in METHODS:
        fold("HPHPPHHPHPPHPHHPPHPH", seconds=1.0, method=method)
    warm_histograms()
