"""`gamelab yatzy ...`: solve, advise, simulate, distribution, comeback, play."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from gamelab.cli_common import Cluster, Json, Quiet, Seed, Workers, backend, console, print_json

app = typer.Typer(
    help="Optimal solitaire Yahtzee / Scandinavian Yatzy: solver, coach, simulation, studies.",
    no_args_is_help=True,
)

RULES_HELP = "Rule set: yahtzee, yahtzee-free-joker, yahtzee-no-bonus, yatzy, yatzy-ls2012."
Rules = Annotated[str, typer.Option("--rules", help=RULES_HELP)]
CARD_HELP = (
    "Filled boxes as box=points, comma-separated, e.g. 'ones=3,fours=16,yahtzee=50,bonus=1' "
    "(bonus = Yahtzee bonuses earned); '-' or empty for a fresh card."
)


def _rules(name: str):
    from gamelab.yatzy.rules import get_rules

    return get_rules(name)


@app.command("solve")
def solve_command(rules: Rules = "yatzy", json_out: Json = False) -> None:
    """Solve the rule set: optimal expected score and its standard deviation (cached)."""
    from gamelab.yatzy.solver import solve

    r = _rules(rules)
    sol = solve(r)
    out = {"rules": r.name, "expected_score": sol.expected_score, "std_dev": sol.std_dev,
           "seconds": sol.seconds, "widgets": sol.widgets}
    if json_out:
        print_json(out)
        return
    console.print(f"{r.name}: expected score {sol.expected_score:.7f}, SD {sol.std_dev:.4f} "
                  f"({sol.widgets} widgets, solved in {sol.seconds:.1f} s, cached)")


@app.command("advise")
def advise_command(
    dice: Annotated[str, typer.Option("--dice", help="The five dice, e.g. 11114.")],
    rolls_left: Annotated[int, typer.Option("--rolls-left", help="Rerolls left: 2, 1 or 0.")] = 2,
    card: Annotated[str, typer.Option("--card", help=CARD_HELP)] = "-",
    rules: Rules = "yatzy",
    top: Annotated[int, typer.Option("--top", min=1, help="Show at most this many options.")] = 40,
    json_out: Json = False,
) -> None:
    """Every keep (or box, with no rolls left) with its expected final score, best first."""
    from gamelab.yatzy.coach import advise
    from gamelab.yatzy.rules import Card

    r = _rules(rules)
    c = Card.parse(r, card)
    options = advise(r, c, dice, rolls_left)[:top]
    if json_out:
        print_json({"rules": r.name, "card": c.text(), "dice": dice, "rolls_left": rolls_left,
                    "options": options})
        return
    kind = "box" if rolls_left == 0 else "keep"
    table = Table(title=f"{r.name}: dice {dice}, {rolls_left} rolls left, card {c.text()}")
    table.add_column(kind)
    if kind == "box":
        table.add_column("points", justify="right")
    table.add_column("expected final score", justify="right")
    table.add_column("loss", justify="right")
    for o in options:
        row = [o[kind]] + ([str(o["points"])] if kind == "box" else [])
        table.add_row(*row, f"{o['expected_score']:.3f}", f"{o['loss']:.3f}")
    console.print(table)


@app.command("simulate")
def simulate_command(
    rules: Rules = "yatzy",
    strategy: Annotated[str, typer.Option("--strategy", help="optimal, greedy or random.")] = "optimal",
    games: Annotated[int, typer.Option("--games", min=1, help="Number of games.")] = 10_000,
    seed: Seed = 0,
    workers: Workers = None,
    cluster: Cluster = None,
    store: Annotated[bool, typer.Option("--store/--no-store", help="Save chunks in the results store (resumable).")] = False,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Play whole games with a strategy; mean score with a 95% CI."""
    from gamelab.core.results import ResultStore
    from gamelab.yatzy.simulate import simulate, strategy_code

    r = _rules(rules)
    strategy_code(strategy)
    be = backend(workers, cluster, quiet or json_out)
    res = simulate(r, strategy, games, seed, be, ResultStore() if store else None)
    out = res.as_dict()
    if strategy == "optimal":
        from gamelab.yatzy.solver import solve

        value = solve(r).expected_score
        out["dp_value"] = value
        out["z"] = (res.mean.value - value) / (res.std_dev / games**0.5) if games > 1 else None
    if json_out:
        print_json(out)
        return
    console.print(f"{r.name} {strategy}: mean {res.mean} over {games} games, SD {res.std_dev:.3f}, "
                  f"{res.seconds:.1f} s ({games / res.seconds:.0f} games/s)")
    if "dp_value" in out:
        console.print(f"DP value {out['dp_value']:.4f}; z = {out['z']:.2f}")


@app.command("distribution")
def distribution_command(
    rules: Rules = "yatzy",
    plot: Annotated[str | None, typer.Option("--plot", help="Write a PNG plot to this path.")] = None,
    json_out: Json = False,
) -> None:
    """The exact final-score distribution of the optimal strategy (forward propagation)."""
    from pathlib import Path

    from gamelab.core.report import save_figure
    from gamelab.yatzy.distribution import plot_distributions, score_distribution

    r = _rules(rules)
    d = score_distribution(r)
    if plot:
        save_figure(plot_distributions([d]), Path(plot))
    targets = {str(t): d.at_least(t) for t in (200, 250, 300, 350) if t <= d.cap}
    out = {"rules": r.name, "mean": d.mean, "std_dev": d.std_dev, "cap": d.cap,
           "tail_probability": d.tail_probability, "seconds": d.seconds,
           "quantiles": {str(q): d.quantile(q) for q in (0.01, 0.1, 0.5, 0.9, 0.99)},
           "p_at_least": targets, "probability": d.probability.tolist()}
    if json_out:
        print_json(out)
        return
    console.print(f"{r.name}: mean {d.mean:.7f}, SD {d.std_dev:.4f}, P(> {d.cap}) = "
                  f"{d.tail_probability:.3g}, computed in {d.seconds:.1f} s")
    console.print("quantiles: " + ", ".join(f"{q}: {v}" for q, v in out["quantiles"].items()))
    console.print("P(score >= T): " + ", ".join(f"{t}: {p:.4f}" for t, p in targets.items()))
