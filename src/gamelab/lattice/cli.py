"""`gamelab lattice ...`: HP lattice folding puzzles (thin shell over the library; the
``--lattice`` option is parsed into a :class:`~gamelab.lattice.rules.Lattice` here, once)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gamelab.cli_common import (
    Cluster,
    Json,
    Quiet,
    Seed,
    Store,
    Workers,
    backend,
    console,
    print_json,
    result_store,
)
from gamelab.core.files import FIGURE_SUFFIXES, check_output_path
from gamelab.lattice import CERTIFY_SECONDS
from gamelab.lattice.rules import Lattice, parse_sequence

app = typer.Typer(
    help="HP lattice protein folding puzzles: exact enumeration, puzzle objectives, GA / MAP-Elites "
    "generation, star thresholds, level packs and a folding optimiser.",
    no_args_is_help=True,
)

Length = Annotated[
    int,
    typer.Option("--length", "-L", min=2, help="Chain length (number of residues)."),
]
LatticeName = Annotated[str, typer.Option("--lattice", help="square (2D) or cubic (3D).")]
Objective = Annotated[
    str,
    typer.Option(
        "--objective",
        help="distinct-scores (the paper's), best-score, top-rarity, unique-optimum, star-bands, "
        "gaps, best-then-rarity.",
    ),
]


def _table(title: str, columns: list[str], rows: list[list]) -> None:
    from rich.table import Table

    table = Table(title=title)
    for c in columns:
        table.add_column(c)
    for r in rows:
        table.add_row(*[str(x) for x in r])
    console.print(table)


@app.command("enumerate")
def enumerate_command(
    length: Length = 16,
    lattice: LatticeName = "square",
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Recompute even if cached.")] = False,
    json_out: Json = False,
) -> None:
    """Enumerate all symmetry-distinct conformations once; count distinct contact sets."""
    from gamelab.lattice.enumeration import enumerate_timed

    out = enumerate_timed(length, Lattice(lattice), use_cache=not no_cache)
    if json_out:
        print_json(out)
        return
    console.print(
        f"L={length} {lattice}: {out.conformations:,} symmetry-distinct conformations, "
        f"{out.contact_sets:,} distinct contact sets, at most {out.max_contacts} contacts "
        f"({out.seconds:.3f} s{', from cache' if out.from_cache else ''})"
    )


@app.command("histogram")
def histogram_command(
    sequence: Annotated[str, typer.Option("--sequence", "-s", help="HP sequence, e.g. HPHHPPH.")],
    lattice: LatticeName = "square",
    json_out: Json = False,
) -> None:
    """Exact number of conformations per HH score, star thresholds and objective values."""
    from gamelab.lattice.pack import analyse_level

    kind = Lattice(lattice)
    level = analyse_level(parse_sequence(sequence, min_length=2), kind)
    if json_out:
        print_json(level)
        return
    _table(
        f"{level.sequence} ({lattice}): {level.total:,} conformations, best {level.best}",
        ["score", "conformations", "share"],
        [[s, f"{n:,}", f"{n / level.total:.3g}"] for s, n in enumerate(level.counts)],
    )
    for b, v in level.stars.items():
        console.print(
            f"{b} stars: thresholds {list(v.thresholds)}, shares "
            + ", ".join(f"{x:.3g}" for x in v.shares)
        )
    console.print("objectives: " + ", ".join(f"{k}={v:.4g}" for k, v in level.objectives.items()))
    console.print(f"a best fold: {level.best_conformation}")


@app.command("landscape")
def landscape_command(
    length: Length = 16,
    quiet: Quiet = False,
    json_out: Json = False,
) -> None:
    """Score all 2^L sequences exactly (L <= 18) and summarise every objective."""
    from gamelab.lattice.landscape import landscape_study

    summary = landscape_study(length)
    if json_out:
        print_json(summary)
        return
    console.print(
        f"all {summary.sequences:,} sequences of length {length} ({summary.seconds:.1f} s)"
    )
    _table(
        "objectives over the whole landscape",
        ["objective", "min", "median", "max", "sequences at max", "corr. with best score"],
        [
            [
                k,
                f"{v.min:.3g}",
                f"{v.median:.3g}",
                f"{v.max:.3g}",
                v.argmax_count,
                "-" if v.correlation_with_best is None else f"{v.correlation_with_best:.3f}",
            ]
            for k, v in summary.objectives.items()
        ],
    )
    console.print(
        f"distinct-scores == best score for {summary.distinct_equals_best:,} of "
        f"{summary.sequences:,}; sequences with a gap: {summary.sequences_with_gaps}"
    )


@app.command("evolve")
def evolve_command(
    length: Length = 16,
    seed: Seed = 0,
    objective: Objective = "distinct-scores",
    lattice: LatticeName = "square",
    population: Annotated[int, typer.Option(min=2, help="Population size (paper: 30).")] = 30,
    generations: Annotated[int, typer.Option(min=1, help="Generations (paper: 50).")] = 50,
    mutation_rate: Annotated[
        float, typer.Option(help="Per-element redraw probability (paper: 0.1).")
    ] = 0.1,
    elites: Annotated[int, typer.Option(help="Elites carried over (paper: 1).")] = 1,
    json_out: Json = False,
) -> None:
    """One run of the paper's GA (fitness-proportional, one-point crossover, 1 elite)."""
    from gamelab.core.evolve import GAConfig
    from gamelab.lattice.generate import evolve_once

    config = GAConfig(
        population=population, generations=generations, mutation_rate=mutation_rate, elites=elites
    )
    run = evolve_once(length, seed, objective, Lattice(lattice), config)
    if json_out:
        print_json(run)
        return
    _table(
        f"GA, L={length}, objective {objective}, seed {seed}",
        ["gen", "max", "mean", "median", "# at max"],
        [
            [g.generation, f"{g.max:.4g}", f"{g.mean:.3g}", f"{g.median:.3g}", g.at_max]
            for g in run.history
            if g.generation % 5 == 0 or g.generation == generations - 1
        ],
    )
    console.print(
        f"best {run.best} fitness {run.best_fitness:.4g}; "
        f"{run.seconds_per_generation * 1000:.2f} ms per generation"
    )


@app.command("trials")
def trials_command(
    length: Length = 16,
    trials: Annotated[
        int, typer.Option(min=1, help="GA and random-sampling trials (paper: 25).")
    ] = 25,
    seed: Seed = 0,
    objective: Objective = "distinct-scores",
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the Figure-3-style plot here (PNG).")
    ] = None,
    workers: Workers = None,
    cluster: Cluster = None,
    store: Store = True,
    quiet: Quiet = False,
    json_out: Json = False,
) -> None:
    """The paper's experiment: GA trials (Figure 3) vs random sampling at the same budget.

    Without --workers the trials run on threads of this process, one per core; the numbers
    are the same with --workers or --cluster.
    """
    from gamelab.core.report import save_figure
    from gamelab.core.stats import format_estimate
    from gamelab.lattice.experiments import compare_ga_random, figure3
    from gamelab.lattice.objectives import check_objective

    check_objective(objective)
    if out is not None:
        check_output_path(out, FIGURE_SUFFIXES)
    results = result_store(store)
    try:
        summary = compare_ga_random(
            length,
            trials=trials,
            seed=seed,
            objective=objective,
            backend=backend(workers, cluster, quiet or json_out),
            store=results,
        )
    finally:
        if results is not None:
            results.close()
    if out is not None:
        save_figure(figure3(summary), out)
    if json_out:
        print_json(summary)
        return
    s = summary
    console.print(
        f"target {s.target:g} ({s.target_source}); budget {s.budget} evaluations per trial"
    )
    console.print(
        f"GA reaches it in {format_estimate(s.ga_success, '.0%')} of trials; random "
        f"sampling in {format_estimate(s.random_success, '.0%')}"
    )
    console.print(f"{s.seconds_per_generation * 1000:.2f} ms per GA generation")


@app.command("qd")
def qd_command(
    length: Length = 16,
    seed: Seed = 0,
    objective: Objective = "best-score",
    iterations: Annotated[int, typer.Option(help="Batches of 30 offspring.")] = 100,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write archive + curves plot (PNG).")
    ] = None,
    json_out: Json = False,
) -> None:
    """MAP-Elites over (number of H, rarity of the top band): coverage and QD-score."""
    from gamelab.core.report import save_figure
    from gamelab.lattice.experiments import qd_figure
    from gamelab.lattice.generate import qd_study

    if out is not None:
        check_output_path(out, FIGURE_SUFFIXES)
    study = qd_study(length, seed=seed, objective=objective, iterations=iterations)
    result, optimum = study.result, study.optimum
    if out is not None:
        save_figure(qd_figure(result, length), out)
    if json_out:
        print_json(study)
        return
    filled = len(result.archive)
    console.print(
        f"{filled} cells filled of {result.shape[0] * result.shape[1]} "
        f"(coverage {result.coverage[-1]:.1%}), QD-score {result.qd_score[-1]:.1f}, "
        f"after {result.evaluations[-1]} evaluations"
    )
    if optimum is not None:
        console.print(
            f"exhaustive landscape: {optimum.cells} cells reachable, perfect "
            f"QD-score {optimum.qd_score:.1f} -> {filled / optimum.cells:.1%} "
            f"of reachable cells, {result.qd_score[-1] / optimum.qd_score:.1%} of the "
            "perfect QD-score"
        )


@app.command("pack")
def pack_command(
    length: Length = 16,
    count: Annotated[int, typer.Option(min=1, help="Number of levels.")] = 30,
    objective: Objective = "best-then-rarity",
    out: Annotated[Path, typer.Option("--out", help="SQLite file to write.")] = Path("levels.db"),
    seed: Seed = 0,
    lattice: LatticeName = "square",
    runs: Annotated[
        int, typer.Option(min=1, max=1000, help="GA runs that supply candidates (each ≤ ~1 CPU-s).")
    ] = 4,
    json_out: Json = False,
) -> None:
    """Generate a level pack: GA runs supply candidates, the best by the objective are kept."""
    from gamelab.lattice.pack import make_pack

    check_output_path(out, (".db", ".sqlite"))
    pack = make_pack(out, length, count, objective, seed, Lattice(lattice), runs)
    if json_out:
        print_json(pack)
        return
    _table(
        f"{len(pack.levels)} levels -> {out}",
        ["sequence", "best", objective, "3-star share"],
        [
            [lv.sequence, lv.best, f"{lv.objective:.3g}", f"{lv.stars['paper'].shares[3]:.2g}"]
            for lv in pack.levels[:15]
        ],
    )


@app.command("show")
def show_command(
    sequence: Annotated[str, typer.Argument(help="HP sequence.")],
    conformation: Annotated[
        str | None,
        typer.Option("--conformation", "-c", help="Moves (RULD[FB]); default: a best fold."),
    ] = None,
    lattice: LatticeName = "square",
    out: Annotated[Path, typer.Option("--out", help="PNG file to write.")] = Path("fold.png"),
    histogram: Annotated[
        Path | None, typer.Option("--histogram", help="Also write the score histogram (PNG).")
    ] = None,
    json_out: Json = False,
) -> None:
    """Draw a fold like the paper's Figure 2 (H orange, P blue, dotted HH contacts)."""
    from gamelab.core.report import save_figure
    from gamelab.lattice.draw import draw_fold, draw_histogram
    from gamelab.lattice.enumeration import histogram as score_histogram
    from gamelab.lattice.enumeration import resolve_fold

    check_output_path(out, FIGURE_SUFFIXES)
    if histogram is not None:
        check_output_path(histogram, FIGURE_SUFFIXES, "--histogram")
    kind = Lattice(lattice)
    fold = resolve_fold(parse_sequence(sequence, min_length=2), conformation, kind)
    save_figure(draw_fold(fold), out)
    if histogram is not None:
        save_figure(
            draw_histogram(score_histogram(fold.sequence, fold.lattice), fold.sequence), histogram
        )
    if json_out:
        print_json(
            {
                "sequence": fold.sequence,
                "conformation": fold.conformation,
                "score": fold.score,
                "out": str(out),
            }
        )
        return
    console.print(f"{fold} -> {out}")


@app.command("score")
def score_command(
    sequence: Annotated[str, typer.Argument(help="HP sequence.")],
    conformation: Annotated[
        str, typer.Argument(help="The fold as moves R L U D (may be partial).")
    ],
    json_out: Json = False,
) -> None:
    """Check and score a fold like the web game: HH contacts, and stars from the level's exact
    thresholds."""
    from gamelab.lattice.puzzle import score_level_fold

    result = score_level_fold(parse_sequence(sequence, min_length=2), conformation)
    if json_out:
        print_json(result)
        return
    pairs = " ".join(f"{i}-{j}" for i, j in result.contacts) or "none"
    if result.thresholds is None:
        stars = "no stars (too long to know the best score)"
    elif result.stars is None:
        stars = f"unfinished ({len(result.conformation)} of {len(result.sequence) - 1} moves)"
    else:
        stars = "★" * result.stars + "☆" * (3 - result.stars)
    limits = (
        ""
        if result.thresholds is None
        else f" (stars at {' / '.join(map(str, result.thresholds))})"
    )
    console.print(
        f"{result.sequence} {result.conformation or '-'}: {result.score} HH "
        f"contact{'' if result.score == 1 else 's'}, "
        f"{stars}{limits}\ncontacts: {pairs}"
    )


@app.command("fold")
def fold_command(
    sequence: Annotated[
        str,
        typer.Argument(
            help="HP sequence (any length), or a benchmark name: S1-1 ... S1-11 (2D, also by "
            "length: S1-36, S1-100a), H48-1 ... H48-10 (3D)."
        ),
    ],
    lattice: Annotated[
        str | None, typer.Option("--lattice", help="square (2D) or cubic (3D); default square.")
    ] = None,
    dim: Annotated[
        int | None, typer.Option("--dim", min=2, max=3, help="2 (square) or 3 (cubic).")
    ] = None,
    seed: Seed = 0,
    seconds: Annotated[
        float, typer.Option(help="CPU-time budget of each replica set (PERM: wall time).")
    ] = 30.0,
    steps: Annotated[
        int | None,
        typer.Option(
            "--steps",
            min=1,
            help="Monte Carlo steps per replica instead of a time budget (reproducible).",
        ),
    ] = None,
    sets: Annotated[
        int, typer.Option("--sets", min=1, max=1000, help="Independent replica sets.")
    ] = 1,
    method: Annotated[
        str, typer.Option("--method", help="remc (replica exchange, pull moves) or perm.")
    ] = "remc",
    certify: Annotated[
        bool,
        typer.Option(
            "--certify/--no-certify",
            help="Where the bounds leave a gap, try the H-core certificate (up to "
            f"{CERTIFY_SECONDS:g} CPU s).",
        ),
    ] = True,
    out: Annotated[Path | None, typer.Option("--out", help="Also draw the fold (PNG).")] = None,
    settings: Annotated[
        str | None,
        typer.Option(
            "--settings",
            help="Replica exchange with R,T_MIN,T_MAX,PHI,PATIENCE[,KICK[,END[,FLAT[,REBRIDGE"
            "[,EPOCH[,REGROW[,REGROW_MAX[,REGROW_BIAS]]]]]]]] instead of the chain's defaults "
            "(docs/lattice.md explains each).",
        ),
    ] = None,
    workers: Workers = None,
    cluster: Cluster = None,
    quiet: Quiet = False,
    json_out: Json = False,
) -> None:
    """Fold a long chain (replica-exchange Monte Carlo with pull moves, or PERM); print the
    contacts, the upper bounds and whether the result is proven optimal or how far it may be."""
    from gamelab.lattice.fold import fold, lattice_option
    from gamelab.lattice.instances import parse_chain
    from gamelab.lattice.replica import ReplicaSettings

    if out is not None:
        check_output_path(out, FIGURE_SUFFIXES)
    chosen = None
    if settings is not None:
        try:
            chosen = ReplicaSettings.parse(settings)
        except ValueError as exc:
            raise ValueError(f"--settings {ReplicaSettings.FIELDS}: {exc}") from None
    on = lattice_option(lattice, dim)
    result = fold(
        parse_chain(sequence),
        on,
        seed=seed,
        seconds=None if steps is not None else seconds,
        max_steps=steps,
        sets=sets,
        method=method,
        backend=backend(workers, cluster, quiet or json_out),
        certify=certify,
        settings=chosen,
    )
    if out is not None:  # (the drawing's imports only when a drawing is asked for)
        from gamelab.core.report import save_figure
        from gamelab.lattice.draw import draw_fold
        from gamelab.lattice.rules import Fold

        save_figure(draw_fold(Fold(result.sequence, result.conformation, result.lattice)), out)
    if json_out:
        print_json(result)
        return
    console.print(result.summary(), soft_wrap=True)
