"""HP lattice protein folding puzzles (the seed paper's "Foldit Lattice").

Enumerate every symmetry-distinct conformation of a chain once, keep the distinct contact sets
(:mod:`gamelab.lattice.enumeration`), then score any HP sequence exactly in microseconds; puzzle
objectives, star thresholds, GA / MAP-Elites generation, level packs and a replica-exchange
(pull-move) folder for longer chains, with upper bounds that certify its results, build on that. Start with :func:`gamelab.lattice.enumeration.histogram`.

Rules: :class:`gamelab.lattice.rules.Fold` (an HP sequence folded along a move string on the
``square`` or ``cubic`` lattice).

Entry points (what the command line, the report and the web app call; each returns a dataclass):

* :func:`gamelab.lattice.enumeration.enumerate_timed` - conformations and contact sets of a length
* :func:`gamelab.lattice.pack.analyse_level` - one puzzle: histogram, stars, objectives, a best fold
* :func:`gamelab.lattice.landscape.landscape_study` - every objective over all 2^L sequences
* :func:`gamelab.lattice.generate.evolve_once` - one run of the paper's GA
* :func:`gamelab.lattice.experiments.compare_ga_random` - GA trials against random sampling
* :func:`gamelab.lattice.generate.qd_study` - MAP-Elites beside the perfect archive
* :func:`gamelab.lattice.pack.make_pack` - a level pack written to SQLite
* :func:`gamelab.lattice.enumeration.resolve_fold` - a given or a best fold of a sequence
* :func:`gamelab.lattice.fold.fold` - folding a long chain or a named benchmark, proven or its gap
* :func:`gamelab.lattice.bounds.contact_bounds` - upper bounds on a sequence's HH contacts
* :func:`gamelab.lattice.expert.load_expert_pack` - the 2D benchmarks as expert levels
* :func:`gamelab.lattice.puzzle.load_pack` - the game's levels (the shipped pack or a pack file)
* :func:`gamelab.lattice.puzzle.level_from_sequence` - a typed sequence as a playable level
* :func:`gamelab.lattice.puzzle.generate_level` - a new level dealt by a seed (consecutive seeds differ)
* :func:`gamelab.lattice.puzzle.score_fold` - a player's fold checked, scored and starred
* :func:`gamelab.lattice.puzzle.score_level_fold` - a fold starred by its level's exact thresholds
* :func:`gamelab.lattice.puzzle.best_fold` - a best fold (the game's spoiler)
"""

#: CPU seconds :func:`gamelab.lattice.fold.fold` gives the H-core certificate by default (here,
#: not in fold.py, so that the command line's help can say it without importing numba).
CERTIFY_SECONDS = 60.0
