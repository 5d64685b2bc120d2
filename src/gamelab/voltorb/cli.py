"""`gamelab voltorb ...`: simulate, solve (assistant), evaluate, assist (interactive), campaign.

Each command parses its options once into the library's values (a :class:`VoltorbSetting`, a
:class:`Position`, a :class:`~gamelab.voltorb.assistant.Policy`) and passes them on."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

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
from gamelab.voltorb.rules import GENERATORS, BoardGenerator, Position, VoltorbSetting

app = typer.Typer(
    help="Voltorb Flip (HGSS): exact posterior, strategies, simulation, the optimal policy.",
    no_args_is_help=True,
)

Generator = Annotated[
    str, typer.Option("--generator", help=f"Board generator: {', '.join(GENERATORS)}.")
]
Level = Annotated[int, typer.Option("--level", min=1, max=8, help="Game level 1-8.")]
StrategyOpt = Annotated[
    str,
    typer.Option(
        "--strategy",
        help="random, minrisk, scorefirst, cutoff:N, fom, fom-r, fom-meaningless, optimal, "
        "optimal-coins, greedy-coins.",
    ),
]
ObjectiveOpt = Annotated[
    str | None,
    typer.Option(
        "--objective",
        help="Round objective for an extra exact best action: win, survive (not dropping a "
        "level), eight (win, or 8 cards and no Voltorb), coins (expected coins) or coins>=X.",
    ),
]
Rows = Annotated[
    str, typer.Option("--rows", help='Row clues top to bottom: "S,V S,V S,V S,V S,V".')
]
Cols = Annotated[str, typer.Option("--cols", help='Column clues left to right: "S,V ...".')]
Revealed = Annotated[
    list[str] | None,
    typer.Option(
        "--revealed", help="A flipped tile as row,col=value (rows/cols 1-5, 0 = Voltorb)."
    ),
]


@app.command()
def simulate(
    generator: Generator = "hgss",
    level: Level = 8,
    strategy: StrategyOpt = "minrisk",
    games: Annotated[int, typer.Option("--games", min=1, help="Rounds to play.")] = 1000,
    compare: Annotated[
        str | None,
        typer.Option(
            "--compare",
            help="Also play this strategy on the same boards; report the paired difference.",
        ),
    ] = None,
    store: Store = True,
    seed: Seed = 0,
    workers: Workers = None,
    cluster: Cluster = None,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Play GAMES rounds of STRATEGY; the boards depend only on generator, level and seed."""
    from gamelab.core.stats import format_difference, format_estimate
    from gamelab.voltorb.simulate import simulate_study

    setting = VoltorbSetting(level, generator)
    study = simulate_study(
        setting,
        strategy,
        games,
        seed,
        backend(workers, cluster, quiet or json_out),
        result_store(store),
        compare_with=compare,
    )
    if json_out:
        print_json(study)
        return
    sim, other = study.simulation, study.other
    table = Table(title=f"Voltorb Flip: {strategy} on {generator} level {level}")
    for col in ("strategy", "games", "wins", "win rate [95% CI]", "mean flips"):
        table.add_column(col)
    table.add_row(
        strategy,
        str(sim.games),
        str(sim.rounds_won),
        format_estimate(sim.win_rate, ".4f"),
        f"{sim.mean_flips:.2f}",
    )
    if other is not None:
        table.add_row(
            other.strategy,
            str(other.games),
            str(other.rounds_won),
            format_estimate(other.win_rate, ".4f"),
            f"{other.mean_flips:.2f}",
        )
    console.print(table)
    exact = sim.exact_win_rate
    if exact is not None:
        console.print(
            "exact P(win) from the clues, averaged over the same boards: "
            + format_estimate(exact, ".4f")
        )
    if study.difference is not None:
        console.print(
            f"paired difference {strategy} - {compare}: " + format_difference(study.difference)
        )


@app.command()
def solve(
    rows: Rows,
    cols: Cols,
    revealed: Revealed = None,
    level: Level = 8,
    generator: Generator = "hgss",
    policy: Annotated[
        str | None,
        typer.Option(
            "--policy",
            help="Whose flip to recommend: optimal, minrisk or fom (default: optimal; "
            "minrisk with --no-optimal).",
        ),
    ] = None,
    no_optimal: Annotated[
        bool,
        typer.Option(
            "--no-optimal", help="Skip the optimal search (no P(win); recommend minrisk)."
        ),
    ] = False,
    objective: ObjectiveOpt = None,
    json_out: Json = False,
) -> None:
    """Probability grid, safe tiles, the recommended flip and P(win) of optimal play from here
    (with --objective, also the exact best action for that round objective)."""
    from dataclasses import asdict

    from gamelab.voltorb.assistant import (
        Policy,
        advise_objective,
        format_analysis,
        solve_position,
    )
    from gamelab.voltorb.objectives import Objective

    position = Position.parse(rows, cols, revealed)
    setting = VoltorbSetting(level, generator)
    chosen = Policy.parse(policy, search=not no_optimal)
    goal = Objective.parse(objective) if objective is not None else None
    out = solve_position(position, setting, chosen)
    advice = advise_objective(position, setting, goal) if goal else None
    shown = position.shown
    if json_out:
        print_json(out if advice is None else {**asdict(out), "objective": asdict(advice)})
    else:
        console.print(format_analysis(out, shown), markup=False, highlight=False, soft_wrap=True)
        if advice is not None:
            console.print(advice.sentence(), markup=False, highlight=False, soft_wrap=True)


@app.command()
def evaluate(
    rows: Rows,
    cols: Cols,
    revealed: Revealed = None,
    level: Level = 8,
    generator: Generator = "hgss",
    strategy: StrategyOpt = "optimal",
    json_out: Json = False,
) -> None:
    """Exact probability that STRATEGY clears the board from these clues (no sampling)."""
    from gamelab.voltorb.evaluate import evaluate_position

    position, setting = Position.parse(rows, cols, revealed), VoltorbSetting(level, generator)
    ev = evaluate_position(position, setting, strategy)
    if json_out:
        print_json(ev)
    else:
        console.print(
            f"P(win) of {strategy}: {ev.win_probability:.6f} "
            f"({ev.consistent_boards} consistent boards)"
        )


@app.command()
def campaign(
    generator: Generator = "hgss",
    strategy: StrategyOpt = "greedy-coins",
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds per campaign.")] = 20,
    campaigns: Annotated[
        int, typer.Option("--campaigns", min=1, help="Independent campaigns.")
    ] = 100,
    store: Store = True,
    seed: Seed = 0,
    workers: Workers = None,
    cluster: Cluster = None,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Consecutive rounds from level 1 under the game's level progression: coins per round."""
    from gamelab.core.stats import format_estimate
    from gamelab.voltorb.simulate import campaign as run

    out = run(
        BoardGenerator(generator),
        strategy,
        rounds,
        campaigns,
        seed,
        backend(workers, cluster, quiet or json_out),
        result_store(store),
    )
    if json_out:
        print_json(out)
        return
    console.print(
        f"{strategy} on {generator}: {format_estimate(out.coins, '.1f')} coins per round "
        f"over {campaigns} x {rounds} rounds; rounds won {out.win_rate:.3f}"
    )
    table = Table(title="share of rounds played at each level")
    for lv in out.level_distribution:
        table.add_column(f"L{lv}")
    table.add_row(*(f"{p:.3f}" for p in out.level_distribution.values()))
    console.print(table)


@app.command()
def assist(
    level: Level = 8,
    generator: Generator = "hgss",
    no_optimal: Annotated[
        bool, typer.Option("--no-optimal", help="Skip the optimal search (recommend minrisk).")
    ] = False,
) -> None:
    """Interactive assistant: type the row and column clues, then what each flip showed."""
    from gamelab.core.interactive import run_in_terminal
    from gamelab.voltorb.assistant import AssistSession

    setting = VoltorbSetting(level, generator)
    run_in_terminal(AssistSession(setting, search=not no_optimal))
