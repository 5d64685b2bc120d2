"""Evolutionary search over fixed-length strings: a genetic algorithm, random sampling at the same
budget, and MAP-Elites (quality-diversity). Knows no game: a genome is a string over an
alphabet, and the caller supplies a *batch* fitness (list of strings -> numbers), so a game can
score a whole population in one vectorised call.

:func:`genetic_algorithm` defaults to the setting of Kwon et al., "Generating Three-Star System
Puzzles using Solution Enumeration Fitness for a Lattice Protein Folding Game" (EXAG @ AIIDE
2025, CEUR-WS Vol-4090): population 30, 50 generations, fitness-proportional (roulette) parent
selection, one-point crossover with the cut in 1..L-2, per-element mutation with probability 0.1
that *redraws* the element from the alphabet (so with two letters a real change happens with
probability 0.05), 1 elite carried over unchanged, children made in pairs.

:func:`map_elites` is the grid MAP-Elites of Mouret & Clune ("Illuminating search spaces by
mapping elites", 2015): an archive keeps the fittest genome per cell of a descriptor grid;
offspring are mutated (and optionally crossed) copies of random elites. Coverage (share of
cells filled) and QD-score (sum over filled cells of fitness - offset) are recorded over time.

Cost: one fitness call per generation / batch plus O(population x length) Python work.

>>> result = genetic_algorithm(lambda xs: [x.count("1") for x in xs], 12, "01",
...                            rng=1, config=GAConfig(generations=30))
>>> result.best_fitness >= 10
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gamelab.core.limits import check_memory
from gamelab.core.serialise import attributes

BatchFitness = Callable[[list[str]], Sequence[float] | np.ndarray]
BatchEvaluation = Callable[[list[str]], tuple[Sequence[float], np.ndarray]]
SELECTIONS = ("proportional", "tournament")


def _rng(rng: np.random.Generator | int | None) -> np.random.Generator:
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


def _check_alphabet(alphabet: str, length: int) -> None:
    if len(alphabet) < 2 or len(set(alphabet)) != len(alphabet):
        raise ValueError(f"alphabet must have at least 2 distinct symbols, got {alphabet!r}")
    if length < 1:
        raise ValueError(f"genome length must be at least 1, got {length}")


@dataclass(frozen=True)
class GAConfig:
    """Genetic-algorithm settings (defaults: the seed paper's)."""

    population: int = 30
    generations: int = 50
    mutation_rate: float = 0.1
    elites: int = 1
    selection: str = "proportional"
    tournament_size: int = 2

    def __post_init__(self) -> None:
        if self.population < 2:
            raise ValueError(f"population must be at least 2, got {self.population}")
        if self.generations < 1:
            raise ValueError(f"generations must be at least 1, got {self.generations}")
        if not 0.0 <= self.mutation_rate <= 1.0:
            raise ValueError(f"mutation_rate must be in [0, 1], got {self.mutation_rate}")
        if not 0 <= self.elites < self.population:
            raise ValueError(
                f"elites must be in 0..population-1 ({self.population - 1}), got {self.elites}"
            )
        if self.selection not in SELECTIONS:
            raise ValueError(
                f"unknown selection {self.selection!r}; allowed: {', '.join(SELECTIONS)}"
            )
        if self.tournament_size < 1:
            raise ValueError(f"tournament_size must be at least 1, got {self.tournament_size}")


@dataclass(frozen=True)
class GenerationStats:
    """One generation's population fitness (all values kept for Figure-3-style plots)."""

    generation: int
    fitnesses: tuple[float, ...]
    evaluations: int  # cumulative fitness evaluations so far
    seconds: float  # wall time of this generation (breeding + evaluation)

    @property
    def max(self) -> float:
        return max(self.fitnesses)

    @property
    def mean(self) -> float:
        return float(np.mean(self.fitnesses))

    @property
    def median(self) -> float:
        return float(np.median(self.fitnesses))

    @property
    def at_max(self) -> int:
        """Individuals whose fitness equals this generation's maximum."""
        return sum(1 for f in self.fitnesses if f == self.max)

    def count_at_least(self, value: float) -> int:
        return sum(1 for f in self.fitnesses if f >= value)

    def __json__(self) -> dict[str, Any]:
        return self.as_dict()

    def as_dict(self) -> dict[str, Any]:
        names = ("generation", "max", "mean", "median", "at_max", "evaluations", "seconds")
        return attributes(self, *names)


@dataclass
class GAResult:
    best: str
    best_fitness: float
    population: list[str]
    fitnesses: list[float]
    history: list[GenerationStats] = field(default_factory=list)

    @property
    def evaluations(self) -> int:
        return self.history[-1].evaluations if self.history else 0

    @property
    def seconds_per_generation(self) -> float:
        return float(np.mean([g.seconds for g in self.history])) if self.history else 0.0


def random_genomes(n: int, length: int, alphabet: str, rng: np.random.Generator) -> list[str]:
    letters = np.array(list(alphabet))
    return ["".join(row) for row in letters[rng.integers(0, len(alphabet), size=(n, length))]]


def mutate(genome: str, alphabet: str, rate: float, rng: np.random.Generator) -> str:
    """Each element is redrawn uniformly from the alphabet with probability `rate` (it may draw
    the same letter again, as in the paper's code)."""
    hit = rng.random(len(genome)) < rate
    if not hit.any():
        return genome
    draws = rng.integers(0, len(alphabet), size=len(genome))
    return "".join(alphabet[draws[i]] if hit[i] else c for i, c in enumerate(genome))


def one_point_crossover(a: str, b: str, rng: np.random.Generator) -> tuple[str, str]:
    """Swap the tails after a cut drawn uniformly from 1..L-2 (no cut for L < 3)."""
    if len(a) != len(b):
        raise ValueError(f"parents differ in length: {len(a)} and {len(b)}")
    if len(a) < 3:
        return a, b
    cut = int(rng.integers(1, len(a) - 1))
    return a[:cut] + b[cut:], b[:cut] + a[cut:]


def breed(
    population: list[str],
    parents: np.ndarray,
    alphabet: str,
    mutation_rate: float,
    rng: np.random.Generator,
) -> list[str]:
    """Two children per parent pair: one-point crossover (cut uniform in 1..L-2) then
    per-element redraw mutation - :func:`one_point_crossover` and :func:`mutate`, vectorised
    over the whole brood (the GA's Python overhead is then a few hundred microseconds)."""
    lookup = np.full(256, -1, dtype=np.int64)
    for k, c in enumerate(alphabet):
        lookup[ord(c)] = k
    genomes = lookup[np.frombuffer("".join(population).encode("latin-1"), dtype=np.uint8)]
    length = len(population[0])
    genomes = genomes.reshape(len(population), length)
    a, b = genomes[parents[:, 0]], genomes[parents[:, 1]]
    if length >= 3:
        cuts = rng.integers(1, length - 1, size=len(parents))
        head = np.arange(length)[None, :] < cuts[:, None]
        a, b = np.where(head, a, b), np.where(head, b, a)
    kids = np.empty((2 * len(parents), length), dtype=np.int64)
    kids[0::2], kids[1::2] = a, b
    hit = rng.random(kids.shape) < mutation_rate
    kids = np.where(hit, rng.integers(0, len(alphabet), size=kids.shape), kids)
    letters = np.frombuffer(alphabet.encode("latin-1"), dtype=np.uint8)
    text = letters[kids].tobytes().decode("latin-1")
    return [text[i : i + length] for i in range(0, len(text), length)]


def proportional_choice(fitnesses: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Indices drawn with probability f / sum f (uniform when all are 0). Negative fitnesses are
    shifted up by the minimum first, since roulette weights must be non-negative."""
    f = np.asarray(fitnesses, dtype=np.float64)
    if f.min() < 0:
        f = f - f.min()
    total = f.sum()
    if total <= 0:
        return rng.integers(0, len(f), size=k)
    return rng.choice(len(f), size=k, p=f / total)


def _select(fit: np.ndarray, k: int, config: GAConfig, rng: np.random.Generator) -> np.ndarray:
    if config.selection == "proportional":
        return proportional_choice(fit, k, rng)
    entrants = rng.integers(0, len(fit), size=(k, config.tournament_size))
    return entrants[np.arange(k), np.argmax(fit[entrants], axis=1)]


def _evaluate(fitness: BatchFitness, genomes: list[str]) -> np.ndarray:
    values = np.asarray(fitness(genomes), dtype=np.float64)
    if values.shape != (len(genomes),):
        raise ValueError(
            f"fitness returned shape {values.shape} for {len(genomes)} genomes; need one number each"
        )
    if not np.isfinite(values).all():
        raise ValueError("fitness returned a NaN or infinite value")
    return values


def genetic_algorithm(
    fitness: BatchFitness,
    length: int,
    alphabet: str,
    *,
    rng: np.random.Generator | int | None = None,
    config: GAConfig | None = None,
    initial: list[str] | None = None,
) -> GAResult:
    """Evolve strings of `length` over `alphabet` to maximise `fitness` (see module docstring)."""
    config = config or GAConfig()
    _check_alphabet(alphabet, length)
    # held at once: the population (a string and a fitness each, twice while breeding) and
    # every generation's fitness values
    each = 2 * (length + 80) + 8 * config.generations
    check_memory(
        config.population * each,
        f"a population of {config.population:,} over {config.generations:,} generations",
        config.population,
        each,
        "genomes",
    )
    rng = _rng(rng)
    started = time.perf_counter()
    if initial is None:
        population = random_genomes(config.population, length, alphabet, rng)
    else:
        population = list(initial)
        if len(population) != config.population or any(
            len(g) != length or set(g) - set(alphabet) for g in population
        ):
            raise ValueError(
                f"initial population must be {config.population} strings of length {length} "
                f"over {alphabet!r}"
            )
    fit = _evaluate(fitness, population)
    evaluations = len(population)
    history = [GenerationStats(0, tuple(fit.tolist()), evaluations, time.perf_counter() - started)]
    for generation in range(1, config.generations):
        started = time.perf_counter()
        order = np.argsort(-fit, kind="stable")
        elite = [population[i] for i in order[: config.elites]]
        elite_fit = [fit[i] for i in order[: config.elites]]
        n_children = config.population - config.elites
        parents = _select(fit, 2 * ((n_children + 1) // 2), config, rng).reshape(-1, 2)
        children = breed(population, parents, alphabet, config.mutation_rate, rng)[:n_children]
        child_fit = _evaluate(fitness, children)
        evaluations += len(children)
        population = elite + children
        fit = np.concatenate([np.asarray(elite_fit, dtype=np.float64), child_fit])
        history.append(
            GenerationStats(
                generation, tuple(fit.tolist()), evaluations, time.perf_counter() - started
            )
        )
    best = int(np.argmax(fit))
    return GAResult(population[best], float(fit[best]), population, fit.tolist(), history)


@dataclass
class SearchTrace:
    """Best fitness found after each batch of evaluations (random search)."""

    best: str
    best_fitness: float
    evaluations: list[int]
    best_so_far: list[float]
    hits: int  # evaluations that reached the final best value


def random_search(
    fitness: BatchFitness,
    length: int,
    alphabet: str,
    budget: int,
    *,
    rng: np.random.Generator | int | None = None,
    batch: int = 30,
) -> SearchTrace:
    """Uniform random strings, `budget` evaluations in batches: the baseline a GA must beat."""
    _check_alphabet(alphabet, length)
    if budget < 1 or batch < 1:
        raise ValueError(f"budget and batch must be at least 1, got {budget} and {batch}")
    rng = _rng(rng)
    best, best_fit = "", -np.inf
    evals, trace, all_fit = [], [], []
    done = 0
    while done < budget:
        genomes = random_genomes(min(batch, budget - done), length, alphabet, rng)
        fit = _evaluate(fitness, genomes)
        all_fit.extend(fit.tolist())
        k = int(np.argmax(fit))
        if fit[k] > best_fit:
            best, best_fit = genomes[k], float(fit[k])
        done += len(genomes)
        evals.append(done)
        trace.append(best_fit)
    return SearchTrace(best, best_fit, evals, trace, sum(1 for f in all_fit if f == best_fit))


@dataclass
class Elite:
    genome: str
    fitness: float
    descriptors: tuple[float, ...]


@dataclass
class MapElitesResult:
    archive: dict[tuple[int, ...], Elite]
    shape: tuple[int, ...]
    evaluations: list[int]
    coverage: list[float]
    qd_score: list[float]
    max_fitness: list[float]

    def grid(self) -> np.ndarray:
        """Fitness per cell (NaN where empty)."""
        g = np.full(self.shape, np.nan)
        for cell, elite in self.archive.items():
            g[cell] = elite.fitness
        return g


def map_elites(
    evaluate: BatchEvaluation,
    length: int,
    alphabet: str,
    bins: Sequence[Sequence[float] | np.ndarray],
    *,
    rng: np.random.Generator | int | None = None,
    iterations: int = 50,
    batch: int = 30,
    initial: int | None = None,
    mutation_rate: float = 0.1,
    crossover: bool = True,
    qd_offset: float = 0.0,
) -> MapElitesResult:
    """Grid MAP-Elites. `evaluate(genomes) -> (fitnesses, descriptors (n, d))`; `bins[k]` are
    the increasing cell edges of descriptor k (values outside go to the first / last cell).
    `iterations` batches of `batch` offspring follow `initial` (default `batch`) random genomes.
    """
    _check_alphabet(alphabet, length)
    if iterations < 0 or batch < 1:
        raise ValueError(f"need iterations >= 0 and batch >= 1, got {iterations} and {batch}")
    each = 4 * (length + 80)
    check_memory(batch * each, f"a batch of {batch:,} genomes", batch, each, "genomes")
    edges = [np.asarray(b, dtype=np.float64) for b in bins]
    if not edges or any(e.ndim != 1 or e.size < 2 or np.any(np.diff(e) <= 0) for e in edges):
        raise ValueError("bins must be one increasing sequence of at least 2 edges per descriptor")
    shape = tuple(e.size - 1 for e in edges)
    rng = _rng(rng)
    archive: dict[tuple[int, ...], Elite] = {}
    result = MapElitesResult(archive, shape, [], [], [], [])
    done = 0

    def insert(genomes: list[str]) -> None:
        nonlocal done
        raw_fit, raw_desc = evaluate(genomes)
        fit = np.asarray(raw_fit, dtype=np.float64)
        desc = np.asarray(raw_desc, dtype=np.float64).reshape(len(genomes), len(edges))
        for g, f, d in zip(genomes, fit, desc, strict=True):
            cell = tuple(
                int(np.clip(np.searchsorted(e, v, side="right") - 1, 0, e.size - 2))
                for e, v in zip(edges, d, strict=True)
            )
            old = archive.get(cell)
            if old is None or f > old.fitness:
                archive[cell] = Elite(g, float(f), tuple(float(x) for x in d))
        done += len(genomes)
        result.evaluations.append(done)
        result.coverage.append(len(archive) / int(np.prod(shape)))
        result.qd_score.append(sum(e.fitness - qd_offset for e in archive.values()))
        result.max_fitness.append(max(e.fitness for e in archive.values()))

    insert(random_genomes(initial or batch, length, alphabet, rng))
    for _ in range(iterations):
        elites = list(archive.values())
        picks = rng.integers(0, len(elites), size=batch)
        children = []
        for k in range(batch):
            child = elites[picks[k]].genome
            if crossover and len(elites) > 1 and rng.random() < 0.5:
                mate = elites[int(rng.integers(0, len(elites)))].genome
                child = one_point_crossover(child, mate, rng)[0]
            children.append(mutate(child, alphabet, mutation_rate, rng))
        insert(children)
    return result
