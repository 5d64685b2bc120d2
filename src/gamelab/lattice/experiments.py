"""The paper's GA experiment repeated (25 trials, Figure 3) next to random sampling at the same
evaluation budget, and MAP-Elites coverage over time.

The success target is the objective's true maximum over all 2^L sequences when the exhaustive
landscape is affordable (L <= 16, cached), else the best value any run found (marked as such).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from gamelab.core import ahead
from gamelab.core.evolve import GAConfig, MapElitesResult
from gamelab.core.limits import check_memory
from gamelab.core.parallel import Backend, run_tasks, shared_workers
from gamelab.core.results import ResultStore
from gamelab.core.stats import Estimate, mean_interval, wilson_interval
from gamelab.lattice._kernels import hh_rows_from_codes, histograms_kernel
from gamelab.lattice.enumeration import contact_sets
from gamelab.lattice.generate import PuzzleFitness, ga_budget, ga_trial, random_trial
from gamelab.lattice.landscape import landscape_histograms
from gamelab.lattice.objectives import objective_values
from gamelab.lattice.rules import Lattice

if TYPE_CHECKING:  # the drawing's imports (matplotlib) only when a figure is drawn
    from matplotlib.figure import Figure

EXHAUSTIVE_TARGET_MAX_LENGTH = 16


def objective_maximum(
    length: int, objective: str, lattice: Lattice = Lattice.SQUARE
) -> float | None:
    """The objective's maximum over all sequences of `length`, if the landscape is affordable."""
    if lattice != "square" or length > EXHAUSTIVE_TARGET_MAX_LENGTH:
        return None
    return float(objective_values(objective, landscape_histograms(length, lattice)).max())


@dataclass(frozen=True)
class GAComparison:
    """The paper's GA experiment next to random sampling at the same budget (Figure 3)."""

    length: int
    objective: str
    trials: int
    budget: int
    target: float
    target_source: str
    ga_success: Estimate
    random_success: Estimate
    ga_best: Estimate
    random_best: Estimate
    ga_hits_at_target_final: Estimate
    first_generation_at_target: list[int | None]
    mean_max_per_generation: list[float]
    mean_median_per_generation: list[float]
    mean_at_target_per_generation: list[float]
    random_mean_best_per_batch: list[float]
    seconds_per_generation: float
    best_sequences: list[str]


#: The fitness's histogram kernels (also the landscape's), compiled in a second process while
#: :func:`prepare_fitness` enumerates (:mod:`gamelab.core.ahead`)
FITNESS_AHEAD = "gamelab.lattice.enumeration:warm_serial_histograms"


def prepare_fitness(length: int, lattice: Lattice) -> None:
    """Before the trials start: the contact sets of `length` enumerated once (onto the disk
    cache) and the fitness's kernels compiled once (in a second process meanwhile), so that the
    trials' threads (or each worker process) load them instead of doing both again."""
    ahead.start(FITNESS_AHEAD, (histograms_kernel, hh_rows_from_codes))
    contact_sets(length, lattice)
    ahead.wait(FITNESS_AHEAD)
    PuzzleFitness(length, "best-score", lattice)  # its first call: the kernels loaded


#: Memory one trial of :func:`compare_ga_random` holds (its task and two result documents).
TRIAL_BYTES = 1024


def compare_ga_random(
    length: int = 16,
    *,
    trials: int = 25,
    seed: int = 0,
    objective: str = "distinct-scores",
    lattice: Lattice = Lattice.SQUARE,
    config: GAConfig | None = None,
    backend: Backend | None = None,
    store: ResultStore | None = None,
) -> GAComparison:
    """`trials` seeded GA runs and as many random-sampling runs with the same evaluation budget;
    how often each reaches the target (the objective's true maximum when affordable)."""
    if trials < 1:
        raise ValueError(f"trials must be at least 1, got {trials}")
    # each trial holds a task and two result documents (GA, random) of about half a KiB each
    check_memory(trials * TRIAL_BYTES, f"{trials:,} trials", trials, TRIAL_BYTES, "trials")
    config = config or GAConfig()
    item = {
        "length": length,
        "objective": objective,
        "lattice": lattice,
        "population": config.population,
        "generations": config.generations,
        "mutation_rate": config.mutation_rate,
        "elites": config.elites,
        "selection": config.selection,
    }
    budget = ga_budget(config)
    params = dict(item, trials=trials)
    with shared_workers():  # with --workers: one pool of workers for both lists
        ga = run_tasks(
            ga_trial,
            [item] * trials,
            seed=seed,
            backend=backend,
            prepare=functools.partial(prepare_fitness, length, lattice),
            label="GA trials",
            store=store,
            experiment="lattice-ga-trials",
            params=params,
            threads=True,
        )
        rnd = run_tasks(
            random_trial,
            [dict(item, budget=budget)] * trials,
            seed=seed + 1,
            backend=backend,
            label="random trials",
            store=store,
            experiment="lattice-random-trials",
            params=dict(params, budget=budget),
            threads=True,
        )
    exact = objective_maximum(length, objective, lattice)
    found = max([r["best_fitness"] for r in ga] + [r["best_fitness"] for r in rnd])
    target = exact if exact is not None else found
    fit = np.array([r["fitnesses"] for r in ga], dtype=np.float64)  # trials x gens x pop
    best_per_gen = fit.max(axis=2)
    at_target = (fit >= target).sum(axis=2)
    first_hit = [int(np.argmax(b >= target)) if (b >= target).any() else None for b in best_per_gen]
    ga_success = sum(1 for r in ga if r["best_fitness"] >= target)
    rnd_success = sum(1 for r in rnd if r["best_fitness"] >= target)
    return GAComparison(
        length=length,
        objective=objective,
        trials=trials,
        budget=budget,
        target=target,
        target_source="exhaustive landscape" if exact is not None else "best found",
        ga_success=wilson_interval(ga_success, trials),
        random_success=wilson_interval(rnd_success, trials),
        ga_best=mean_interval([r["best_fitness"] for r in ga]),
        random_best=mean_interval([r["best_fitness"] for r in rnd]),
        ga_hits_at_target_final=mean_interval(at_target[:, -1].tolist()),
        first_generation_at_target=first_hit,
        mean_max_per_generation=best_per_gen.mean(axis=0).tolist(),
        mean_median_per_generation=np.median(fit, axis=2).mean(axis=0).tolist(),
        mean_at_target_per_generation=at_target.mean(axis=0).tolist(),
        random_mean_best_per_batch=np.mean([r["best_so_far"] for r in rnd], axis=0).tolist(),
        seconds_per_generation=float(np.mean([r["seconds_per_generation"] for r in ga])),
        best_sequences=sorted({r["best"] for r in ga if r["best_fitness"] >= target}),
    )


def figure3(summary: GAComparison) -> Figure:
    """Left: mean best and median fitness per generation; right: individuals at the target."""
    from gamelab.core.report import new_figure

    fig = new_figure(10, 3.8)[0]
    fig.clf()
    left, right = fig.subplots(1, 2)
    gens = np.arange(len(summary.mean_max_per_generation))
    left.plot(gens, summary.mean_max_per_generation, label="GA: mean of best")
    left.plot(gens, summary.mean_median_per_generation, label="GA: mean of median")
    rnd = summary.random_mean_best_per_batch
    left.plot(np.arange(len(rnd)), rnd, ls="--", label="random sampling: mean of best so far")
    left.axhline(summary.target, color="k", lw=0.8, ls=":")
    left.set_xlabel("generation (random: batch of 30 evaluations)")
    left.set_ylabel(summary.objective)
    left.legend(fontsize=8)
    right.plot(gens, summary.mean_at_target_per_generation)
    right.set_xlabel("generation")
    right.set_ylabel(f"individuals with fitness >= {summary.target:g} (mean)")
    fig.suptitle(f"GA over {summary.trials} trials, L={summary.length}", fontsize=10)
    return fig


def qd_figure(result: MapElitesResult, length: int) -> Figure:
    """MAP-Elites archive (H count x top-band rarity) and coverage / QD-score over evaluations."""
    from gamelab.core.report import new_figure

    fig = new_figure(10, 3.8)[0]
    fig.clf()
    grid_ax, curve_ax = fig.subplots(1, 2)
    grid = result.grid()
    im = grid_ax.imshow(
        grid.T,
        origin="lower",
        aspect="auto",
        cmap="viridis",
        extent=(-0.5, length + 0.5, 0, grid.shape[1] * 0.5),
    )
    fig.colorbar(im, ax=grid_ax, label="best score")
    grid_ax.set_xlabel("number of H")
    grid_ax.set_ylabel("-log10 share of optimal conformations")
    curve_ax.plot(result.evaluations, result.coverage, label="coverage")
    twin = curve_ax.twinx()
    twin.plot(result.evaluations, result.qd_score, color="C1", label="QD-score")
    curve_ax.set_xlabel("evaluations")
    curve_ax.set_ylabel("coverage (blue)", color="C0")
    twin.set_ylabel("QD-score (orange)", color="C1")
    return fig
