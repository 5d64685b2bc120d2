"""`gamelab wordle` solver commands: the post's pruned search, the proven optimum, depth
feasibility and the proof of the best opening."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from gamelab.cli_common import (
    Cluster,
    Json,
    Quiet,
    Store,
    Workers,
    backend,
    console,
    err_console,
    print_json,
    result_store,
)
from gamelab.wordle.cli.options import (
    AnswerFile,
    AnswersNames,
    GuessesNames,
    GuessFile,
    Hard,
    HardRule,
    Names,
    Rule,
    app,
    list_setting,
    make_game,
    name_setting,
)


@app.command("prune-search")
def prune_search_command(
    first: Annotated[
        list[str] | None,
        typer.Option("--first", help="First guess(es); default: the top-10 by entropy."),
    ] = None,
    names: Names = "gen1-4",
    answers_names: AnswersNames = None,
    guesses_names: GuessesNames = None,
    guesses: GuessFile = None,
    answers: AnswerFile = None,
    rule: Rule = "blog",
    width: Annotated[
        int, typer.Option("--width", min=1, help="Guesses tried per node (by entropy).")
    ] = 10,
    max_depth: Annotated[
        int, typer.Option("--max-depth", min=1, help="Most guesses any answer may need.")
    ] = 6,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """The post's pruned search: the --width best guesses by entropy at each node, at most
    --max-depth guesses per answer."""
    from gamelab.wordle.pruned import pruned_totals

    def show(line: str) -> None:
        if not quiet and not json_out:
            err_console.print(line)

    game = make_game(name_setting(names, answers_names, guesses_names), guesses, answers, rule)
    results = pruned_totals(game, first, width, max_depth, progress=show)
    if json_out:
        print_json(results[0] if len(results) == 1 else results)
        return
    t = Table(
        title=f"Pruned search totals ({game.words.name}, rule {rule}, width {width}, depth {max_depth})"
    )
    for col in ("first guess", "total", "average"):
        t.add_column(col)
    for r in sorted(results, key=lambda r: (r.total is None, r.total or 0)):
        t.add_row(r.first, str(r.total), f"{r.average:.4f}" if r.average is not None else "-")
    console.print(t)


@app.command("solve-optimal")
def solve_optimal_command(
    names: Names = "gen1-4",
    answers_names: AnswersNames = None,
    guesses_names: GuessesNames = None,
    guesses: GuessFile = None,
    answers: AnswerFile = None,
    rule: Rule = "blog",
    first: Annotated[
        str | None,
        typer.Option(
            "--first", help="Evaluate only this first guess exactly (its total and tree)."
        ),
    ] = None,
    hard: Hard = False,
    hard_rule: HardRule = None,
    max_guesses: Annotated[
        int | None,
        typer.Option(
            "--max-guesses",
            min=0,
            help="No answer may need more guesses (default: the game's limit, Pokémon Wordle 10, custom lists 6; 0: no limit).",
        ),
    ] = None,
    depth_limits: Annotated[
        bool,
        typer.Option(
            "--depth-limits/--no-depth-limits", help="Also solve under each tighter depth limit."
        ),
    ] = True,
    time_limit: Annotated[
        float, typer.Option("--time-limit", min=1, help="Seconds; then proven bounds are reported.")
    ] = 600.0,
    cpu_limit: Annotated[
        float | None,
        typer.Option(
            "--cpu-limit",
            min=0.1,
            metavar="SECONDS",
            help="CPU seconds of this process, whatever the machine's load; then proven bounds are reported.",
        ),
    ] = None,
    tree: Annotated[
        Path | None, typer.Option("--tree", help="Write the optimal decision tree (JSON) here.")
    ] = None,
    store: Store = True,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """The proven optimum: fewest total guesses over all answers (lower bound == total)."""
    from gamelab.cli_common import to_json
    from gamelab.core.files import check_output_path
    from gamelab.core.report import write_text_atomic
    from gamelab.wordle.solver.summary import solve_summary

    if tree is not None:
        check_output_path(tree, (".json",), "--tree")
    setting = list_setting(
        names, answers_names, guesses_names, guesses, answers, rule, hard, hard_rule, max_guesses
    )
    # One live status line on a terminal; a plain log line per step when stderr is a file.
    with contextlib.ExitStack() as stack:
        progress: Callable[[str], None] | None
        if quiet:
            progress = None
        elif err_console.is_terminal:
            status = stack.enter_context(err_console.status("searching ...", spinner="dots"))
            progress = status.update
        else:
            progress = lambda m: err_console.print(m, highlight=False)  # noqa: E731
        data = solve_summary(
            setting,
            time_limit=time_limit,
            depth_limits=depth_limits,
            store=result_store(store),
            progress=progress,
            first=first,
            cpu_limit=cpu_limit,
        )
    if tree is not None:
        if data.tree is None:
            raise ValueError("no complete strategy was found, so there is no tree to write")
        write_text_atomic(tree, to_json(data.tree) + "\n")
    if json_out:
        print_json(data)
        return
    console.print(f"{data.statement} (rule {rule})")
    if data.total is not None:
        dist = " ".join(f"{k}:{v}" for k, v in data.distribution.items())
        firsts = " ".join(data.first_guesses) or f"{data.best_known_first_guess} (best found)"
        console.print(
            f"total {data.total} (average {data.average:.4f}); first guess(es): "
            f"{firsts}; distribution {dist or '-'}; worst {data.worst}"
        )
    if not data.proven and data.total is not None:
        console.print(f"{data.root_guesses_settled} of {data.root_guesses} first guesses settled")
    for row in data.depth_limited or []:
        console.print(f"  {row.statement}", highlight=False)
    console.print(
        f"searched {data.nodes} nodes in {data.seconds:.1f} s ({data.cpu_seconds:.2f} s CPU, "
        f"and {data.startup_cpu_seconds:.2f} s loading the compiled kernels)"
        + (" in an earlier run, kept in the results store" if data.from_store else "")
    )


@app.command("feasible")
def feasible_command(
    max_guesses: Annotated[
        int, typer.Option("--max-guesses", min=1, max=20, help="The guess limit to test.")
    ] = 5,
    names: Names = "gen1-4",
    answers_names: AnswersNames = None,
    guesses_names: GuessesNames = None,
    guesses: GuessFile = None,
    answers: AnswerFile = None,
    rule: Rule = "blog",
    workers: Workers = None,
    cluster: Cluster = None,
    store: Store = True,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Settle whether ANY strategy finds every answer within --max-guesses (normal mode): each
    first guess is checked exactly, in parallel and resumable (much faster than the optimum)."""
    from gamelab.wordle.solver.feasible import prove_feasible

    setting = list_setting(
        names, answers_names, guesses_names, guesses, answers, rule, False, None, max_guesses
    )
    data = prove_feasible(
        setting,
        backend=backend(workers, cluster, quiet or json_out),
        store=result_store(store),
    )
    if json_out:
        print_json(data)
        return
    console.print(data.statement)
    if data.feasible:
        shown = " ".join(data.feasible_first_guesses[:20])
        more = len(data.feasible_first_guesses) - 20
        console.print(f"first guesses within the limit: {shown}{f' (+{more})' if more > 0 else ''}")
    elif data.smallest_refuting_class:
        console.print(
            f"smallest class left by a first guess that cannot be finished in time: "
            f"{len(data.smallest_refuting_class)} answers"
        )
    console.print(f"{data.openings_checked} first guesses checked in {data.seconds:.1f} s")


@app.command("prove-opening")
def prove_opening_command(
    names: Names = "gen1-4",
    answers_names: AnswersNames = None,
    guesses_names: GuessesNames = None,
    guesses: GuessFile = None,
    answers: AnswerFile = None,
    rule: Rule = "standard",
    hard: Hard = False,
    hard_rule: HardRule = None,
    max_guesses: Annotated[
        int | None,
        typer.Option(
            "--max-guesses",
            min=0,
            help="No answer may need more guesses (default: the game's limit; 0: no limit).",
        ),
    ] = None,
    margin: Annotated[
        int,
        typer.Option(
            "--margin", min=0, help="Also evaluate exactly every opening within this of the best."
        ),
    ] = 0,
    seed_words: Annotated[
        list[str] | None,
        typer.Option("--seed-word", help="Openings evaluated first to set the budget."),
    ] = None,
    chunk: Annotated[int, typer.Option("--chunk", min=1, help="First guesses per task.")] = 64,
    cpu_budget: Annotated[
        float | None,
        typer.Option(
            "--cpu-budget",
            min=1,
            help="Stop after about this many CPU seconds (finished chunks are kept; run again to resume).",
        ),
    ] = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Ranking rows to print.")] = 20,
    workers: Workers = None,
    cluster: Cluster = None,
    store: Store = True,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Prove the best first guess: every opening evaluated exactly or refuted by a lower bound
    above the best (parallel, resumable; the ranking with exact totals and bounds)."""
    from gamelab.wordle.solver.opening import prove_opening

    setting = list_setting(
        names, answers_names, guesses_names, guesses, answers, rule, hard, hard_rule, max_guesses
    )
    show = None if quiet or json_out else (lambda m: err_console.print(m, highlight=False))
    data = prove_opening(
        setting,
        margin=margin,
        seed=seed_words,
        chunk=chunk,
        backend=backend(workers, cluster, quiet or json_out),
        store=result_store(store),
        cpu_budget=cpu_budget,
        progress=show,
    )
    if json_out:
        print_json(data)
        return
    console.print(data.statement, markup=False, highlight=False, soft_wrap=True)
    t = Table(title=f"First guesses ({data.mode}); budget {data.budget}")
    for col in ("rank", "guess", "total", "settled by", "CPU s"):
        t.add_column(col, justify="left" if col in ("guess", "settled by") else "right")
    for k, r in enumerate(data.rows[:top], 1):
        value = "infeasible" if r.value is None else (f"{r.value}" if r.exact else f">= {r.value}")
        t.add_row(str(k), r.guess, value, r.settled_by, f"{r.cpu_seconds:.2f}")
    console.print(t)
    left = (
        ""
        if data.cpu_seconds_left is None
        else f"; about {data.cpu_seconds_left:.0f} s of CPU left at this rate"
    )
    console.print(
        f"{data.openings_done} of {data.guesses} openings settled ("
        + ", ".join(f"{v} by {k}" for k, v in data.settled.items())
        + f"); {data.cpu_seconds:.1f} s CPU{left}; {data.seconds:.1f} s wall this run",
        markup=False,
        highlight=False,
    )
