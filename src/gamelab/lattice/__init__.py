"""HP lattice protein folding puzzles (the seed paper's "Foldit Lattice").

Enumerate every symmetry-distinct conformation of a chain once, keep the distinct contact sets
(:mod:`gamelab.lattice.enumeration`), then score any HP sequence exactly in microseconds; puzzle
objectives, star thresholds, GA / MAP-Elites generation, level packs and a PERM folder for
longer chains build on that. Start with :func:`gamelab.lattice.enumeration.histogram`.
"""
