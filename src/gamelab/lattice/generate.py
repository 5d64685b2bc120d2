"""Puzzle generation: the seed paper's GA, random sampling at the same budget, and MAP-Elites,
all scoring sequences against the cached contact sets (:mod:`.enumeration`) instead of
re-enumerating every conformation per sequence as the paper's C tool did.

* :class:`PuzzleFitness` - a batch fitness for :mod:`gamelab.core.evolve`: histogram of each
  sequence, then a named objective (:mod:`.objectives`). One GA generation at L=16 costs about
  a millisecond of scoring (30 sequences x 31,940 contact sets).
* :func:`ga_trial` / :func:`random_trial` - one seeded run, for :func:`gamelab.core.parallel.run_tasks`.
* :func:`evolve_once` - one seeded GA run with its per-generation statistics.
* :func:`qd_search` - MAP-Elites over (number of H, top-band rarity), the paper's future work;
  :func:`qd_study` puts it beside the perfect archive (:func:`qd_optimum`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gamelab.core.evolve import (
    GAConfig,
    GenerationStats,
    MapElitesResult,
    genetic_algorithm,
    map_elites,
    random_search,
)
from gamelab.core.limits import check_memory
from gamelab.core.serialise import attributes
from gamelab.lattice.enumeration import check_length, contact_sets
from gamelab.lattice.objectives import check_objective, objective_values, top_rarity
from gamelab.lattice.rules import Lattice

ALPHABET = "HP"


class PuzzleFitness:
    """Batch fitness: the named objective of each HP sequence's exact score histogram.

    Remembers every sequence it scored (``seen``: sequence -> value), so a level pack can be
    drawn from everything a search looked at.
    """

    def __init__(
        self, length: int, objective: str = "distinct-scores", lattice: Lattice = Lattice.SQUARE
    ):
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
    fitness = PuzzleFitness(
        item["length"], item.get("objective", "distinct-scores"), item.get("lattice", "square")
    )
    config = GAConfig(
        **{
            k: item[k]
            for k in ("population", "generations", "mutation_rate", "elites", "selection")
            if k in item
        }
    )
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


@dataclass(frozen=True)
class GARun:
    """One seeded GA run (`gamelab lattice evolve`): the best sequence and per-generation stats."""

    length: int
    objective: str
    lattice: Lattice
    seed: int
    best: str
    best_fitness: float
    evaluations: int
    seconds: float
    seconds_per_generation: float
    history: list[GenerationStats]


def evolve_once(
    length: int,
    seed: int = 0,
    objective: str = "distinct-scores",
    lattice: Lattice = Lattice.SQUARE,
    config: GAConfig | None = None,
) -> GARun:
    """One GA run of the paper's algorithm with `config` (default: the paper's settings)."""
    config = config or GAConfig()
    fitness = PuzzleFitness(length, objective, lattice)
    started = time.perf_counter()
    result = genetic_algorithm(
        fitness, length, ALPHABET, rng=np.random.default_rng(seed), config=config
    )
    return GARun(
        length,
        objective,
        lattice,
        seed,
        result.best,
        result.best_fitness,
        result.evaluations,
        time.perf_counter() - started,
        result.seconds_per_generation,
        list(result.history),
    )


def random_trial(item: dict, rng: np.random.Generator) -> dict:
    """Random sampling with the GA's evaluation budget (item["budget"])."""
    fitness = PuzzleFitness(
        item["length"], item.get("objective", "distinct-scores"), item.get("lattice", "square")
    )
    trace = random_search(
        fitness, item["length"], ALPHABET, item["budget"], rng=rng, batch=item.get("population", 30)
    )
    return {
        "best": trace.best,
        "best_fitness": trace.best_fitness,
        "hits": trace.hits,
        "evaluations": trace.evaluations,
        "best_so_far": trace.best_so_far,
    }


def ga_budget(config: GAConfig) -> int:
    """Fitness evaluations of one GA run (elites are not re-evaluated)."""
    return config.population + (config.generations - 1) * (config.population - config.elites)


def qd_bins(length: int, rarity_max: float = 8.0, rarity_step: float = 0.5) -> list[np.ndarray]:
    """Cell edges: one cell per number of H (0..L), rarity in steps of `rarity_step`."""
    return [np.arange(0, length + 2) - 0.5, np.arange(0.0, rarity_max + 1e-9, rarity_step)]


@dataclass(frozen=True)
class QDOptimum:
    """The perfect MAP-Elites archive: cells any sequence can reach and its QD-score."""

    cells: int
    qd_score: float


def qd_optimum(
    length: int,
    objective: str = "best-score",
    rarity_max: float = 8.0,
    rarity_step: float = 0.5,
) -> QDOptimum:
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
    best: dict[int, float] = {}
    for c, v in zip(cell.tolist(), values.tolist(), strict=True):
        if v > best.get(c, -np.inf):
            best[c] = v
    return QDOptimum(len(best), float(sum(best.values())))


#: Memory one MAP-Elites iteration leaves in the result (four curve points).
QD_ITERATION_BYTES = 4 * 32


def qd_search(
    length: int,
    *,
    seed: int | np.random.Generator = 0,
    objective: str = "best-score",
    lattice: Lattice = Lattice.SQUARE,
    iterations: int = 100,
    batch: int = 30,
    rarity_max: float = 8.0,
    rarity_step: float = 0.5,
) -> MapElitesResult:
    """MAP-Elites over descriptors (number of H, log10 rarity of the top band); each cell keeps
    the sequence with the highest `objective`. Returns a :class:`gamelab.core.evolve.MapElitesResult`.
    """
    if iterations < 0:
        raise ValueError(f"iterations must be at least 0, got {iterations}")
    # the result keeps four curve points (Python floats in lists) per iteration
    check_memory(
        iterations * QD_ITERATION_BYTES,
        f"{iterations:,} MAP-Elites iterations",
        iterations,
        QD_ITERATION_BYTES,
        "iterations",
    )
    fitness = PuzzleFitness(length, objective, lattice)

    def evaluate(sequences: list[str]):
        hists = fitness.histograms(sequences)
        values = objective_values(objective, hists)
        h_count = np.array([s.count("H") for s in sequences], dtype=np.float64)
        return values, np.column_stack([h_count, top_rarity(hists)])

    bins = qd_bins(length, rarity_max, rarity_step)
    return map_elites(
        evaluate, length, ALPHABET, bins, rng=seed, iterations=iterations, batch=batch
    )


@dataclass(frozen=True)
class QDStudy:
    """A MAP-Elites run next to the perfect archive of the exhaustive landscape (L <= 16)."""

    length: int
    objective: str
    seed: int
    result: MapElitesResult = field(metadata={"json": False})
    optimum: QDOptimum | None

    def __json__(self) -> dict[str, Any]:
        r = self.result
        return {
            **attributes(self, "length", "objective", "seed"),
            "shape": list(r.shape),
            "evaluations": r.evaluations,
            "coverage": r.coverage,
            "qd_score": r.qd_score,
            "max_fitness": r.max_fitness,
            "optimum": self.optimum,
            "elites": [
                {
                    "cell": list(c),
                    "sequence": e.genome,
                    "fitness": e.fitness,
                    "descriptors": list(e.descriptors),
                }
                for c, e in sorted(r.archive.items())
            ],
        }


def qd_study(
    length: int, *, seed: int = 0, objective: str = "best-score", iterations: int = 100
) -> QDStudy:
    """:func:`qd_search`, with :func:`qd_optimum` beside it when the landscape is affordable."""
    result = qd_search(length, seed=seed, objective=objective, iterations=iterations)
    optimum = qd_optimum(length, objective) if length <= 16 else None
    return QDStudy(length, objective, seed, result, optimum)
