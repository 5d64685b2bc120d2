"""`gamelab voltorb ...`: simulate, solve (assistant), evaluate, assist (interactive), campaign."""

from __future__ import annotations

from typing import Annotated

import numpy as np
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
from gamelab.voltorb.rules import GENERATORS, SIZE, Clues, clues_from_text, parse_revealed

app = typer.Typer(
    help="Voltorb Flip (HGSS): exact posterior, strategies, simulation, the optimal policy.",
    no_args_is_help=True,
)

Generator = Annotated[
    str, typer.Option("--generator", help=f"Board generator: {', '.join(GENERATORS)}.")
]
Level = Annotated[int, typer.Option("--level", help="Game level 1-8.")]
StrategyOpt = Annotated[
    str,
    typer.Option(
        "--strategy",
        help="random, minrisk, scorefirst, cutoff:N, fom, fom-r, fom-meaningless, optimal, "
        "optimal-coins, greedy-coins.",
    ),
]
Rows = Annotated[str, typer.Option("--rows", help='Row clues top to bottom: "S,V S,V S,V S,V S,V".')]
Cols = Annotated[str, typer.Option("--cols", help='Column clues left to right: "S,V ...".')]
Revealed = Annotated[
    list[str] | None,
    typer.Option("--revealed", help="A flipped tile as row,col=value (rows/cols 1-5, 0 = Voltorb)."),
]


@app.command()
def simulate(
    generator: Generator = "hgss",
    level: Level = 8,
    strategy: StrategyOpt = "minrisk",
    games: Annotated[int, typer.Option("--games", min=1, help="Rounds to play.")] = 1000,
    compare: Annotated[
        str | None,
        typer.Option("--compare", help="Also play this strategy on the same boards; report the paired difference."),
    ] = None,
    store: Store = True,
    seed: Seed = 0,
    workers: Workers = None,
    cluster: Cluster = None,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Play GAMES rounds of STRATEGY; the boards depend only on generator, level and seed."""
    from gamelab.voltorb.simulate import compare as paired
    from gamelab.voltorb.simulate import simulate as run

    be = backend(workers, cluster, quiet or json_out)
    store = result_store(store)
    sim = run(generator, level, strategy, games, seed, be, store)
    out = sim.summary()
    if compare:
        other = run(generator, level, compare, games, seed, be, store)
        diff = paired(sim, other)
        out["compare"] = {
            "strategy": compare,
            "win_rate": other.summary()["win_rate"],
            "ci95": other.summary()["ci95"],
            "difference": diff.value,
            "difference_ci95": [diff.lo, diff.hi],
        }
    if json_out:
        print_json(out)
        return
    table = Table(title=f"Voltorb Flip: {strategy} on {generator} level {level}")
    for col in ("strategy", "games", "wins", "win rate", "95% CI", "mean flips"):
        table.add_column(col)
    table.add_row(
        strategy,
        str(out["games"]),
        str(out["wins"]),
        f"{out['win_rate']:.4f}",
        f"[{out['ci95'][0]:.4f}, {out['ci95'][1]:.4f}]",
        f"{out['mean_flips']:.2f}",
    )
    if compare:
        c = out["compare"]
        table.add_row(compare, str(out["games"]), "", f"{c['win_rate']:.4f}",
                      f"[{c['ci95'][0]:.4f}, {c['ci95'][1]:.4f}]", "")
    console.print(table)
    if "exact_win_rate" in out:
        console.print(
            f"exact P(win) from the clues, averaged over the same boards: "
            f"{out['exact_win_rate']:.4f} [{out['exact_ci95'][0]:.4f}, {out['exact_ci95'][1]:.4f}]"
        )
    if compare:
        c = out["compare"]
        console.print(
            f"paired difference {strategy} - {compare}: {c['difference']:+.4f} "
            f"[{c['difference_ci95'][0]:+.4f}, {c['difference_ci95'][1]:+.4f}]"
        )


def _solve_state(rows: str, cols: str, revealed: list[str] | None, level: int, generator: str):
    from gamelab.voltorb.posterior import Posterior

    clues = clues_from_text(rows, cols)
    shown = parse_revealed(revealed)
    post = Posterior.from_clues(clues, generator, level, shown)
    if post.won_mask().all():
        raise ValueError("every 2 and 3 is already revealed on every consistent board: the round is won")
    return clues, shown, post.still_playing()


def solve_report(clues: Clues, revealed: dict[int, int], post, optimal: bool = True) -> dict:
    """The assistant's answer as a dict (the --json format)."""
    from gamelab.voltorb.deduction import label_board
    from gamelab.voltorb.expectimax import OptimalSolver
    from gamelab.voltorb.strategies import minrisk_tile

    probs = post.tile_probabilities()
    p_v = probs[:, 0].reshape(SIZE, SIZE)
    p_m = (probs[:, 2] + probs[:, 3]).reshape(SIZE, SIZE)
    hidden = [t for t in range(SIZE * SIZE) if t not in revealed]
    safe = [[t // SIZE + 1, t % SIZE + 1] for t in hidden if probs[t, 0] == 0]
    useful_safe = [
        [t // SIZE + 1, t % SIZE + 1] for t in hidden if probs[t, 0] == 0 and p_m.flat[t] > 0
    ]
    out = {
        "p_voltorb": np.round(p_v, 6).tolist(),
        "p_two_or_three": np.round(p_m, 6).tolist(),
        "consistent_boards": post.count,
        "safe_tiles": safe,
        "safe_useful_tiles": useful_safe,
        "labels": label_board(clues, revealed),
    }
    if optimal:
        tile, value = OptimalSolver(post).decide(revealed)
        out["win_probability"] = value
    else:
        tile = minrisk_tile(post)
        out["win_probability"] = None
    out["recommended"] = [tile // SIZE + 1, tile % SIZE + 1]
    return out


def _print_grid(title: str, grid, revealed: dict[int, int]) -> None:
    table = Table(title=title)
    table.add_column("")
    for c in range(SIZE):
        table.add_column(f"c{c + 1}")
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            t = r * SIZE + c
            cells.append(f"[{revealed[t]}]" if t in revealed else f"{grid[r][c]:.3f}")
        table.add_row(f"r{r + 1}", *cells)
    console.print(table)


def _print_solution(out: dict, revealed: dict[int, int]) -> None:
    _print_grid("P(Voltorb)", out["p_voltorb"], revealed)
    _print_grid("P(2 or 3)", out["p_two_or_three"], revealed)
    console.print(f"consistent boards: {out['consistent_boards']}")
    console.print(f"safe tiles worth flipping (row, col): {out['safe_useful_tiles'] or 'none'}")
    r, c = out["recommended"]
    msg = f"recommended flip: row {r}, column {c}"
    if out["win_probability"] is not None:
        msg += f"; P(win) with optimal play from here: {out['win_probability']:.4f}"
    console.print(msg)


@app.command()
def solve(
    rows: Rows,
    cols: Cols,
    revealed: Revealed = None,
    level: Level = 8,
    generator: Generator = "hgss",
    no_optimal: Annotated[
        bool, typer.Option("--no-optimal", help="Skip the optimal search (recommend minrisk).")
    ] = False,
    json_out: Json = False,
) -> None:
    """Probability grid, safe tiles, the recommended flip and P(win) of optimal play from here."""
    clues, shown, post = _solve_state(rows, cols, revealed, level, generator)
    out = solve_report(clues, shown, post, optimal=not no_optimal)
    if json_out:
        print_json(out)
    else:
        _print_solution(out, shown)


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
    from gamelab.voltorb.evaluate import exact_win_probability

    _, shown, post = _solve_state(rows, cols, revealed, level, generator)
    p = exact_win_probability(post, strategy)
    if json_out:
        print_json({"win_probability": p, "strategy": strategy, "consistent_boards": post.count})
    else:
        console.print(f"P(win) of {strategy}: {p:.6f} ({post.count} consistent boards)")


@app.command()
def campaign(
    generator: Generator = "hgss",
    strategy: StrategyOpt = "greedy-coins",
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds per campaign.")] = 20,
    campaigns: Annotated[int, typer.Option("--campaigns", min=1, help="Independent campaigns.")] = 100,
    store: Store = True,
    seed: Seed = 0,
    workers: Workers = None,
    cluster: Cluster = None,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Consecutive rounds from level 1 under the game's level progression: coins per round."""
    from gamelab.voltorb.simulate import campaign as run

    out = run(generator, strategy, rounds, campaigns, seed, backend(workers, cluster, quiet or json_out),
              result_store(store))
    if json_out:
        print_json(out)
        return
    console.print(
        f"{strategy} on {generator}: {out['coins_per_round']:.1f} coins per round "
        f"[{out['ci95'][0]:.1f}, {out['ci95'][1]:.1f}] over {campaigns} x {rounds} rounds; "
        f"rounds won {out['win_rate']:.3f}"
    )
    table = Table(title="share of rounds played at each level")
    for lv in out["level_distribution"]:
        table.add_column(f"L{lv}")
    table.add_row(*(f"{p:.3f}" for p in out["level_distribution"].values()))
    console.print(table)


@app.command()
def assist(
    level: Level = 8,
    generator: Generator = "hgss",
) -> None:
    """Interactive assistant: enter the clues, then what each flip showed."""
    rows = typer.prompt('row clues "S,V S,V S,V S,V S,V"')
    cols = typer.prompt('column clues "S,V S,V S,V S,V S,V"')
    shown: list[str] = []
    while True:
        try:
            clues, revealed, post = _solve_state(rows, cols, shown, level, generator)
        except ValueError as exc:
            if shown and "round is won" in str(exc):
                console.print("Every 2 and 3 is revealed: round won.")
                return
            raise
        out = solve_report(clues, revealed, post)
        _print_solution(out, revealed)
        answer = typer.prompt("flip result as row,col=value (blank or q to stop)", default="q")
        if answer.strip().lower() in ("", "q", "quit"):
            return
        try:
            parse_revealed([answer])
            _solve_state(rows, cols, shown + [answer], level, generator)
        except ValueError as exc:
            console.print(f"[red]{exc}[/red]")
            continue
        if answer.strip().endswith("=0"):
            console.print("A Voltorb: the round is lost.")
            return
        shown.append(answer)
