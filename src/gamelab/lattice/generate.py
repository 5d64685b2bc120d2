"""Puzzle generation: the seed paper's GA, random sampling at the same budget, and MAP-Elites,
all scoring sequences against the cached contact sets (:mod:`.enumeration`) instead of
re-enumerating every conformation per sequence as the paper's C tool did.

* :class:`PuzzleFitness` - a batch fitness for :mod:`gamelab.core.evolve`: histogram of each
  sequence, then a named objective (:mod:`.objectives`). One GA generation at L=16 costs about
  a millisecond of scoring (30 sequences x 31,940 contact sets).
* :func:`ga_trial` / :func:`random_trial` - one seeded run, for :func:`gamelab.core.parallel.run_tasks`.
* :func:`qd_search` - MAP-Elites over (number of H, top-band rarity), the paper's future work.
"""

from __future__ import annotations

import time

import numpy as np

from gamelab.core.evolve import GAConfig, genetic_algorithm, map_elites, random_search
from gamelab.lattice.enumeration import check_length, contact_sets
from gamelab.lattice.objectives import check_objective, objective_values, top_rarity

ALPHABET = "HP"


class PuzzleFitness:
    """Batch fitness: the named objective of each HP sequence's exact score histogram.

    Remembers every sequence it scored (``seen``: sequence -> value), so a level pack can be
    drawn from everything a search looked at.
    """

    def __init__(self, length: int, objective: str = "distinct-scores", lattice: str = "square"):
        check_length(length, lattice)
        self.objective = check_objective(objective)
        self.length, self.lattice = length, lattice
        self.sets = contact_sets(length, lattice)
        self.seen: dict[str, float] = {}
        self.calls = 0
        self(["H" * length])  # load the compiled kernels now, not inside the first generation
        self.seen.clear()
        self.calls = 0

    def histograms(self, sequences: list[str]) -> np.ndarray:
        return self.sets.histograms(list(sequences))

    def __call__(self, sequences: list[str]) -> np.ndarray:
        values = objective_values(self.objective, self.histograms(sequences))
        self.calls += len(sequences)
        for s, v in zip(sequences, values.tolist(), strict=True):
            self.seen[s] = v
        return values


def ga_trial(item: dict, rng: np.random.Generator) -> dict:
    """One GA run (item: length, objective, lattice, and GAConfig fields). JSON-able result."""
    fitness = PuzzleFitness(item["length"], item.get("objective", "distinct-scores"),
                            item.get("lattice", "square"))
    config = GAConfig(**{k: item[k] for k in ("population", "generations", "mutation_rate",
                                              "elites", "selection") if k in item})
    started = time.perf_counter()
    result = genetic_algorithm(fitness, item["length"], ALPHABET, rng=rng, config=config)
    seconds = time.perf_counter() - started
    return {
        "best": result.best,
        "best_fitness": result.best_fitness,
        "evaluations": result.evaluations,
        "seconds": seconds,
        "seconds_per_generation": result.seconds_per_generation,
        "history": [g.as_dict() for g in result.history],
        "fitnesses": [list(g.fitnesses) for g in result.history],
    }


def random_trial(item: dict, rng: np.random.Generator) -> dict:
    """Random sampling with the GA's evaluation budget (item["budget"])."""
    fitness = PuzzleFitness(item["length"], item.get("objective", "distinct-scores"),
                            item.get("lattice", "square"))
    trace = random_search(fitness, item["length"], ALPHABET, item["budget"], rng=rng,
                          batch=item.get("population", 30))
    return {"best": trace.best, "best_fitness": trace.best_fitness, "hits": trace.hits,
            "evaluations": trace.evaluations, "best_so_far": trace.best_so_far}


def ga_budget(config: GAConfig) -> int:
    """Fitness evaluations of one GA run (elites are not re-evaluated)."""
    return config.population + (config.generations - 1) * (config.population - config.elites)


def qd_bins(length: int, rarity_max: float = 8.0, rarity_step: float = 0.5) -> list[np.ndarray]:
    """Cell edges: one cell per number of H (0..L), rarity in steps of `rarity_step`."""
    return [np.arange(0, length + 2) - 0.5, np.arange(0.0, rarity_max + 1e-9, rarity_step)]


def qd_optimum(
    length: int,
    objective: str = "best-score",
    rarity_max: float = 8.0,
    rarity_step: float = 0.5,
) -> dict:
    """The best possible MAP-Elites archive, from the exhaustive landscape (L <= 18): how many
    cells any sequence can reach and the QD-score of the perfect archive."""
    from gamelab.lattice.landscape import landscape_histograms

    hists = landscape_histograms(length)
    codes = np.arange(hists.shape[0], dtype=np.int64)
    h_count = np.array([int(c).bit_count() for c in codes])
    rarity = top_rarity(hists)
    values = objective_values(objective, hists)
    edges = qd_bins(length, rarity_max, rarity_step)[1]
    r_cell = np.clip(np.searchsorted(edges, rarity, side="right") - 1, 0, edges.size - 2)
    cell = h_count * (edges.size - 1) + r_cell
    best = {}
    for c, v in zip(cell.tolist(), values.tolist(), strict=True):
        if v > best.get(c, -np.inf):
            best[c] = v
    return {"cells": len(best), "qd_score": float(sum(best.values()))}


def qd_search(
    length: int,
    *,
    seed: int | np.random.Generator = 0,
    objective: str = "best-score",
    lattice: str = "square",
    iterations: int = 100,
    batch: int = 30,
    rarity_max: float = 8.0,
    rarity_step: float = 0.5,
):
    """MAP-Elites over descriptors (number of H, log10 rarity of the top band); each cell keeps
    the sequence with the highest `objective`. Returns a :class:`gamelab.core.evolve.MapElitesResult`.
    """
    fitness = PuzzleFitness(length, objective, lattice)

    def evaluate(sequences: list[str]):
        hists = fitness.histograms(sequences)
        values = objective_values(objective, hists)
        h_count = np.array([s.count("H") for s in sequences], dtype=np.float64)
        return values, np.column_stack([h_count, top_rarity(hists)])

    bins = qd_bins(length, rarity_max, rarity_step)
    return map_elites(evaluate, length, ALPHABET, bins, rng=seed, iterations=iterations,
                      batch=batch)
