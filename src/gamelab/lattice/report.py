"""Report section: enumeration counts and timings, the exhaustive landscape per objective, GA vs
random sampling vs MAP-Elites, a sample level pack, and folds of the standard benchmarks."""

from __future__ import annotations

import time

import numpy as np

from gamelab.core.evolve import GAConfig
from gamelab.core.report import Section, new_figure
from gamelab.core.stats import format_estimate
from gamelab.lattice.array_landscape import enumerate_by_arrays, landscape_by_arrays
from gamelab.lattice.draw import draw_fold, draw_histogram
from gamelab.lattice.enumeration import enumerate_timed
from gamelab.lattice.experiments import GAComparison, compare_ga_random, figure3, qd_figure
from gamelab.lattice.fold import fold
from gamelab.lattice.generate import qd_optimum, qd_search
from gamelab.lattice.instances import parse_chain
from gamelab.lattice.landscape import (
    LandscapeSummary,
    landscape_histograms,
    landscape_study,
    landscape_summary,
)
from gamelab.lattice.objectives import OBJECTIVES, objective_values
from gamelab.lattice.pack import choose_levels
from gamelab.lattice.rules import Chain, Fold, Lattice

TITLE = "Lattice protein folding puzzles (HP model)"


def _enumeration_table(
    section: Section, lengths: dict[str, range], enumerate_fn, timing: str, caption: str
) -> dict:
    """The enumeration table over `lengths` per lattice, each chain enumerated by
    `enumerate_fn(length, lattice)`; returns the square rows by length."""
    rows = []
    for lattice, lattice_lengths in lengths.items():
        for length in lattice_lengths:
            e = enumerate_fn(length, lattice)
            rows.append(
                [
                    lattice,
                    length,
                    e.conformations,
                    e.contact_sets,
                    round(e.conformations / e.contact_sets, 1),
                    e.max_contacts,
                    "cache" if e.from_cache else f"{e.seconds:.3f}",
                ]
            )
    section.table(
        "enumeration",
        [
            "lattice",
            "L",
            "conformations",
            "contact sets",
            "walks per set",
            "max contacts",
            timing,
        ],
        rows,
        caption="Symmetry-distinct conformations (square: OEIS A046171) and distinct contact sets, "
        + caption,
    )
    return {r[1]: r for r in rows if r[0] == "square"}


def _enumeration(section: Section) -> dict:
    return _enumeration_table(
        section,
        {"square": range(8, 21), "cubic": range(6, 14)},
        enumerate_timed,
        "enumerate + dedup (s)",
        "enumerated once with dedup during the walk. 'cache' = loaded from the disk cache.",
    )


def _landscape(section: Section, length: int, quick: bool = False) -> LandscapeSummary:
    if quick:  # numpy over the Python enumeration: nothing to compile
        started = time.perf_counter()
        hists = landscape_by_arrays(length)
        summary = landscape_summary(hists, time.perf_counter() - started)
    else:
        summary = landscape_study(length)
        hists = landscape_histograms(length)
    rows = [
        [
            name,
            v.min,
            v.median,
            v.max,
            v.argmax_count,
            "-" if v.correlation_with_best is None else round(v.correlation_with_best, 3),
        ]
        for name, v in summary.objectives.items()
    ]
    section.table(
        f"landscape_{length}",
        ["objective", "min", "median", "max", "sequences at max", "correlation with best score"],
        rows,
        caption=f"All {2**length:,} sequences of length {length} scored exactly "
        f"({summary.seconds:.1f} s incl. cache). distinct-scores equals the best score for "
        f"{summary.distinct_equals_best:,} of them; {summary.sequences_with_gaps} have a "
        "gap in their achievable scores.",
    )
    fig, axes = new_figure(10, 3.2)
    fig.clf()
    axes = fig.subplots(1, 3)
    for ax, name in zip(axes, ("distinct-scores", "top-rarity", "unique-optimum"), strict=True):
        values = objective_values(name, hists)
        if name == "unique-optimum":
            values = -np.log10(values)
            name = "log10 # optimal conformations"
        ax.hist(values, bins=40 if values.max() > 12 else np.arange(values.max() + 2) - 0.5)
        ax.set_xlabel(name)
        ax.set_yscale("log")
    axes[0].set_ylabel("sequences")
    section.figure(
        f"landscape_{length}",
        fig,
        caption=f"Distribution of three objectives over all sequences of length {length}.",
    )
    section.data[f"landscape_{length}"] = summary
    return summary


def _quick(section: Section) -> None:
    """The quick report's section (the README's first command): enumeration and the exhaustive
    landscape of short chains in plain Python and numpy (:mod:`gamelab.lattice.array_landscape`),
    since the full section's kernels take numba tens of CPU-seconds to compile."""
    enum = _enumeration_table(
        section,
        {"square": range(8, 14), "cubic": range(6, 10)},
        enumerate_by_arrays,
        "enumerate in Python (s)",
        "enumerated once by the plain-Python walk (the full report goes to L=20 square and 13 "
        "cubic with the numba kernel).",
    )
    length = 12
    land = _landscape(section, length, quick=True)
    section.text(
        "Objectives (a sequence's fitness from its exact score histogram): distinct-scores = "
        "the paper's, the number of distinct positive scores; best-then-rarity = the best score "
        "plus a term below 1 that grows as the share of conformations reaching it shrinks. The "
        "full report (`gamelab report`) scores all 65,536 16-mers (the paper's length), runs the "
        "paper's genetic algorithm against random sampling, MAP-Elites, a level pack and folds "
        "of the standard benchmarks."
    )
    row = enum[length]
    section.set_headline(
        f"L={length}: {row[2]:,} conformations -> {row[3]:,} contact sets; paper fitness = "
        f"best score for {land.distinct_equals_best:,} of all {land.sequences:,} {length}-mers"
    )


def _folds3d(section: Section) -> None:
    """One 3D figure per 3D benchmark: the shipped best folds (gamelab.lattice.folds3d), made by
    tools/make_3d_folds.py with the library's replica exchange; nothing is folded here."""
    from gamelab.lattice.folds3d import load_folds3d

    shipped = load_folds3d()
    for f in shipped.folds:
        proof = (
            f"proven optimal here ({f.proven_by})"
            if f.proven_by and f.contacts == f.best_known
            else f"upper bound {f.upper_bound}"
        )
        section.figure(
            f"fold3d_{f.name}",
            draw_fold(
                Fold(Chain(f.sequence), f.conformation, Lattice.CUBIC),
                title=f"{f.name}: {f.contacts} HH contacts (best known {f.best_known})",
            ),
            caption=f"The Harvard 48-mer {f.name} (Yue et al. 1995) on the cubic lattice: the "
            f"shipped best fold, {f.contacts} HH contacts (dotted; best known {f.best_known}, "
            f"{proof}), found by replica exchange in {f.cpu_seconds:.1f} CPU s (seed {f.seed}; "
            f"{shipped.command}). H orange, P blue.",
        )


def build(section: Section, ctx) -> None:
    if ctx.quick:
        _quick(section)
        return
    started = time.perf_counter()
    enum = _enumeration(section)
    land16 = _landscape(section, 16)
    _landscape(section, 18)

    section.text(
        "Objectives (a sequence's fitness from its exact score histogram): distinct-scores = "
        "the paper's, the number of distinct positive scores (for L <= 16 it equals the best "
        "score); best-then-rarity = the best score plus a term below 1 that grows as the share "
        "of conformations reaching it shrinks (the highest optimum first, then the hardest top "
        "band). GA = the paper's genetic algorithm; random = uniform random sequences with the "
        "same number of evaluations."
    )
    trials = 25
    ga_rows = []
    comparisons = {}
    for objective in ("distinct-scores", "best-then-rarity"):
        s = compare_ga_random(
            16,
            trials=trials,
            seed=ctx.seed,
            objective=objective,
            config=GAConfig(),
            backend=ctx.backend,
            store=ctx.store,
        )
        comparisons[objective] = s
        ga_rows.append(
            [
                objective,
                f"{s.target:.3g}",
                s.budget,
                format_estimate(s.ga_success, ".0%"),
                format_estimate(s.random_success, ".0%"),
                round(s.ga_best.value, 3),
                round(s.random_best.value, 3),
                round(s.seconds_per_generation * 1000, 2),
            ]
        )
        section.figure(
            f"figure3_{objective}",
            figure3(s),
            caption=f"The paper's Figure 3 over {trials} trials (objective {objective}); "
            "dashed: random sampling with the same number of evaluations.",
        )
    section.table(
        "ga_vs_random",
        [
            "objective",
            "target (true max)",
            "evaluations",
            "GA reaches target",
            "random reaches target",
            "GA mean best",
            "random mean best",
            "ms per GA generation",
        ],
        ga_rows,
        caption=f"The paper's GA (pop 30, 50 generations) vs uniform random sequences at the same "
        f"budget, {trials} seeded trials each, L=16, 95% Wilson intervals.",
    )
    section.data["ga_vs_random"] = comparisons

    qd = qd_search(16, seed=ctx.seed, iterations=400)
    perfect = qd_optimum(16)
    section.data["map_elites_optimum"] = perfect
    section.figure(
        "map_elites",
        qd_figure(qd, 16),
        caption="MAP-Elites over (number of H, -log10 share of optimal conformations), "
        "fitness = best score: archive and coverage / QD-score over evaluations.",
    )
    section.table(
        "map_elites",
        ["evaluations", "cells filled", "coverage", "QD-score", "best score"],
        [
            [e, round(c * np.prod(qd.shape)), round(c, 3), q, m]
            for e, c, q, m in zip(
                qd.evaluations, qd.coverage, qd.qd_score, qd.max_fitness, strict=True
            )
        ][::50],
        caption="MAP-Elites progress (every 10th/50th batch of 30 offspring). The exhaustive "
        f"landscape allows {perfect.cells} cells and a perfect QD-score of "
        f"{perfect.qd_score:.0f}.",
    )

    candidates = [e.genome for e in qd.archive.values()]
    candidates += comparisons["best-then-rarity"].best_sequences
    levels = choose_levels(candidates, "best-then-rarity", 10)
    section.table(
        "level_pack",
        [
            "sequence",
            "best",
            "best-then-rarity",
            "# optimal",
            "paper stars",
            "3-star share",
            "percentile stars",
            "best fold",
        ],
        [
            [
                lv.sequence,
                lv.best,
                round(lv.objective or 0.0, 2),
                lv.counts[-1],
                list(lv.stars["paper"].thresholds),
                f"{lv.stars['paper'].shares[3]:.2g}",
                list(lv.stars["percentile"].thresholds),
                lv.best_conformation,
            ]
            for lv in levels
        ],
        caption="A sample level pack (10 levels, objective best-then-rarity) from the MAP-Elites archive "
        "and GA winners: star thresholds by the paper's banding and by percentiles.",
    )
    if levels:
        lv = levels[0]
        section.figure(
            "level_histogram",
            draw_histogram(np.array(lv.counts), lv.sequence),
            caption="Score histogram of the first level (log scale, star bands shaded).",
        )
        section.figure(
            "level_fold",
            draw_fold(Fold(lv.sequence, lv.best_conformation)),
            caption="An optimal fold of the first level (the paper's Figure 2 style).",
        )

    names = ["S1-2", "S1-3", "S1-4", "S1-5", "S1-6", "H48-1"]
    fold_rows = []
    folded_3d = None
    for name in names:
        r = fold(parse_chain(name), seed=ctx.seed, seconds=60)
        if r.lattice == "cubic":
            folded_3d = r
        fold_rows.append(
            [
                name,
                "2D" if r.lattice == "square" else "3D",
                len(r.sequence),
                r.known_optimum,
                r.score,
                r.upper_bound,
                r.verdict,
                r.steps,
                round(r.seconds_to_best, 2),
            ]
        )
    section.table(
        "benchmarks",
        [
            "benchmark",
            "lattice",
            "L",
            "best known",
            "found",
            "upper bound",
            "verdict",
            "steps per replica",
            "CPU s to best",
        ],
        fold_rows,
        caption="Standard HP benchmarks folded by replica-exchange Monte Carlo with pull moves "
        "(Thachuk, Shmygelska & Hoos 2007); best known values from their Table 1 and Yue et al. "
        "1995; the upper bound is the best of the free-face, matching and core bounds "
        "(gamelab.lattice.bounds). The full table: python benchmarks/lattice_fold.py.",
    )
    if folded_3d is not None:
        section.figure(
            "fold_3d",
            draw_fold(Fold(folded_3d.sequence, folded_3d.conformation, Lattice.CUBIC)),
            caption=f"The best fold found for the Harvard 48-mer {folded_3d.name} on the cubic "
            f"lattice: {folded_3d.score} HH contacts (best known {folded_3d.known_optimum}).",
        )

    _folds3d(section)

    row16 = enum.get(16)
    paper, better = comparisons["distinct-scores"], comparisons["best-then-rarity"]

    def rates(c: GAComparison) -> str:
        return f"GA {c.ga_success.value:.0%} vs random {c.random_success.value:.0%}"

    headline = (
        f"L=16: {row16[2]:,} conformations -> {row16[3]:,} contact sets; " if row16 else ""
    ) + (
        f"paper fitness = best score for all {land16.sequences:,} 16-mers "
        f"(reaching its max: {rates(paper)}; best-then-rarity: {rates(better)}); "
        f"{paper.seconds_per_generation * 1000:.1f} ms per GA generation (paper: 7.8 s)"
    )
    section.set_headline(headline)
    section.data["seconds"] = time.perf_counter() - started
    section.data["objectives"] = list(OBJECTIVES)
