"""`gamelab yatzy ...`: solve, advise, simulate, distribution, comeback, risk, review, play, target,
winplay."""

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

    sol = solve(_rules(rules))
    if json_out:
        print_json(sol)
        return
    console.print(
        f"{sol.rules.name}: expected score {sol.expected_score:.7f}, SD {sol.std_dev:.4f} "
        f"({sol.widgets} widgets; {sol.timing()})"
    )


@app.command("advise")
def advise_command(
    dice: Annotated[str, typer.Option("--dice", help="The five dice, e.g. 11114.")],
    rolls_left: Annotated[
        int,
        typer.Option("--rolls-left", help="Rerolls left: 2, 1 or 0."),
    ] = 2,
    card: Annotated[str, typer.Option("--card", help=CARD_HELP)] = "-",
    rules: Rules = "yatzy",
    top: Annotated[int, typer.Option("--top", min=1, help="Show at most this many options.")] = 40,
    json_out: Json = False,
) -> None:
    """Every keep (or box, with no rolls left) with its expected final score, best first."""
    from gamelab.yatzy.coach import coach

    advice = coach(_rules(rules), card, dice, rolls_left, top=top)
    if json_out:
        print_json(advice)
        return
    kind = "box" if rolls_left == 0 else "keep"
    rerolls = f"{rolls_left} reroll{'' if rolls_left == 1 else 's'} left"
    table = Table(title=f"{advice.rules}: dice {advice.dice}, {rerolls}, card {advice.card}")
    table.add_column(kind)
    if kind == "box":
        table.add_column("points", justify="right")
    table.add_column("expected final score", justify="right")
    table.add_column("loss", justify="right")
    for o in advice.options:
        row = [o.label] + ([str(o.points)] if kind == "box" else [])
        table.add_row(*row, f"{o.expected_score:.3f}", f"{o.loss:.3f}")
    console.print(table)


@app.command("simulate")
def simulate_command(
    rules: Rules = "yatzy",
    strategy: Annotated[
        str, typer.Option("--strategy", help="optimal, greedy or random.")
    ] = "optimal",
    games: Annotated[
        int, typer.Option("--games", min=2, help="Number of games (a mean's interval needs two).")
    ] = 10_000,
    seed: Seed = 0,
    workers: Workers = None,
    cluster: Cluster = None,
    store: Store = True,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Play whole games with a strategy; mean score with a 95% CI."""
    from gamelab.yatzy.simulate import simulate, strategy_code

    r = _rules(rules)
    strategy_code(strategy)
    be = backend(workers, cluster, quiet or json_out)
    res = simulate(r, strategy, games, seed, be, result_store(store))
    if json_out:
        print_json(res)
        return
    console.print(
        f"{r.name} {strategy}: mean {res.mean} over {games} games, SD {res.std_dev:.3f}, "
        f"{res.seconds:.1f} s ({games / res.seconds:.0f} games/s)"
    )
    if res.dp_value is not None:
        z = "-" if res.z is None else f"{res.z:.2f}"
        console.print(f"DP value {res.dp_value:.4f}; z = {z}")


@app.command("distribution")
def distribution_command(
    rules: Rules = "yatzy",
    plot: Annotated[
        str | None, typer.Option("--plot", help="Write the plot to this file (.png, .svg or .pdf).")
    ] = None,
    json_out: Json = False,
) -> None:
    """The exact final-score distribution of the optimal strategy (forward propagation)."""
    from pathlib import Path

    from gamelab.core.files import FIGURE_SUFFIXES, check_output_path
    from gamelab.core.report import save_figure
    from gamelab.yatzy.distribution import (
        QUANTILES,
        SCORE_TARGETS,
        plot_distributions,
        score_distribution,
    )

    r = _rules(rules)
    if plot is not None:
        check_output_path(plot, FIGURE_SUFFIXES, "--plot")
    d = score_distribution(r)
    if plot:
        save_figure(plot_distributions([d]), Path(plot))
    if json_out:
        print_json(d)
        return
    console.print(
        f"{r.name}: mean {d.mean:.7f}, SD {d.std_dev:.4f}, P(> {d.cap}) = {d.tail_probability:.3g}"
    )
    console.print(d.timing())
    console.print("quantiles: " + ", ".join(f"{q}: {d.quantile(q)}" for q in QUANTILES))
    console.print(
        "P(score >= T): "
        + ", ".join(f"{t}: {d.at_least(t):.4f}" for t in SCORE_TARGETS if t <= d.cap)
    )


@app.command("comeback")
def comeback_command(rules: Rules = "yahtzee", json_out: Json = False) -> None:
    """Exact P(win) of an optimal player behind by >= X after Y rounds vs an optimal player."""
    from gamelab.yatzy.comeback import comeback_study

    table = comeback_study(_rules(rules))
    if json_out:
        print_json(table)
        return
    # percentages with one decimal: eleven columns fit 80 (the JSON has the full probabilities)
    t = Table(
        title=f"{table.rules}: P(trailing optimal player wins) in %, behind by at least X "
        "points after Y rounds",
        padding=(0, 1),
        pad_edge=False,
    )
    t.add_column("Y\\X", justify="right")
    for x in table.deficits:
        t.add_column(str(x), justify="right")
    for i, y in enumerate(table.rounds):
        t.add_row(str(y), *["-" if np.isnan(v) else f"{100 * v:.1f}" for v in table.p_win[i]])
    console.print(t)
    console.print(table.timing())


@app.command("risk")
def risk_command(
    rules: Rules = "yahtzee",
    valence: Annotated[
        int,
        typer.Option(
            "--valence", min=1, max=5, help="Dice the risky target must share with the roll."
        ),
    ] = 2,
    games: Annotated[
        int,
        typer.Option("--games", min=2, help="Games per (Y, X) cell; a trailing pair needs two."),
    ] = 100_000,
    rounds: Annotated[
        str, typer.Option("--rounds", help="Rounds Y, comma-separated.")
    ] = "7,8,9,10,11,12",
    seed: Seed = 0,
    workers: Workers = None,
    cluster: Cluster = None,
    store: Store = True,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """The thesis' risk-taker vs the optimal player: trailing player's win rate per (Y, X)."""
    from gamelab.core.stats import format_difference
    from gamelab.yatzy.risk import parse_rounds, risk_study

    r = _rules(rules)
    study = risk_study(
        r,
        parse_rounds(rounds, r),
        valence,
        games,
        seed=seed,
        backend=backend(workers, cluster, quiet or json_out),
        store=result_store(store),
    )
    if json_out:
        print_json(study)
        return
    t = Table(
        title=f"{r.name}: trailing player's win rate, optimal vs risk-taker (valence {valence})"
    )
    for c in ("Y", "X", "games", "optimal", "risk-taker", "difference"):
        t.add_column(c, justify="right")
    for row in study.rows:
        t.add_row(
            str(row.rounds),
            str(row.deficit),
            str(row.games),
            "-" if row.opt is None else f"{row.opt.value:.4f}",
            "-" if row.risk is None else f"{row.risk.value:.4f}",
            format_difference(row.win_difference),
        )
    console.print(t)
    if study.empty_cells:
        cells = ", ".join(f"Y={y} X={x}" for y, x in study.empty_cells)
        console.print(
            f"no game had the trailing player behind by X after Y rounds in {cells}: too few "
            "games for these cells (raise --games)"
        )


@app.command("review")
def review_command(
    move: Annotated[
        list[str] | None,
        typer.Option(
            "--move",
            help="Your decisions in order, one per --move: 'keep 1114', 'keep -', 'box fours'.",
        ),
    ] = None,
    start: Annotated[
        str, typer.Option("--start", help="The card both players start from. " + CARD_HELP)
    ] = "-",
    opponent: Annotated[
        str, typer.Option("--opponent", metavar="WHO", help="none, optimal or win.")
    ] = "none",
    bot_turn: Annotated[
        list[str] | None,
        typer.Option(
            "--bot-turn",
            metavar="MOVES",
            help="The bot's turns in order, one per --bot-turn, moves separated by ';' "
            "('keep 66;keep 666;box sixes').",
        ),
    ] = None,
    undone: Annotated[
        list[int] | None,
        typer.Option("--undone", help="A decision (1-based) taken back and made again."),
    ] = None,
    draws: Annotated[
        str,
        typer.Option(
            "--draws",
            metavar="COUNTS",
            help="For each move, the take-backs made before it, comma-separated ('0,0,1'); "
            "moves beyond the list count --takebacks.",
        ),
    ] = "",
    takebacks: Annotated[
        int, typer.Option("--takebacks", help="Moves taken back in the game.")
    ] = 0,
    rules: Rules = "yatzy",
    seed: Seed = 0,
    json_out: Json = False,
) -> None:
    """Every decision of a seeded game (its dice come from --seed) with its loss; luck and percentile once the card is full
    (the page's Review: the same document)."""
    from gamelab.yatzy.review import review_game

    bots = [[m.strip() for m in t.split(";") if m.strip()] for t in bot_turn or []]
    counts = [c.strip() for c in draws.split(",") if c.strip()]
    if any(not c.isdigit() for c in counts):
        raise ValueError(f"--draws must be counts separated by commas, e.g. 0,0,1; got {draws!r}")
    rev = review_game(
        _rules(rules),
        seed,
        list(move or []),
        start,
        opponent,
        bots,
        list(undone or []),
        draws=[int(c) for c in counts],
        takebacks=takebacks,
    )
    if json_out:
        print_json(rev)
        return
    t = Table(title=f"{rev.rules}, seed {rev.seed}: your decisions and what they cost")
    for col in ("#", "turn", "dice", "you", "best", "loss"):
        t.add_column(col, justify="right" if col in ("#", "turn", "loss") else "left")
    for i, d in enumerate(rev.decisions, 1):
        mark = " (again)" if i in rev.undone else ""
        t.add_row(str(i), str(d.turn), d.dice, f"{d.kind} {d.label}{mark}", d.best, f"{d.loss:.2f}")
    console.print(t)
    console.print(f"total loss {rev.total_loss:.2f} expected points")
    if rev.takebacks_note:
        console.print(rev.takebacks_note)
    if rev.finished and rev.luck is not None:
        console.print(
            f"final score {rev.final_score}; luck {rev.luck:+.2f}; percentile "
            f"{rev.percentile:.1f} among optimal play's scores"
        )


@app.command("play")
def play_command(
    rules: Rules = "yatzy",
    seed: Seed = 0,
    opponent: Annotated[
        bool, typer.Option("--bot/--solo", help="Play against the optimal bot.")
    ] = True,
) -> None:
    """Play in the terminal: instructions at the start and on 'help'; h for the coach, q quits."""
    from gamelab.core.interactive import run_in_terminal
    from gamelab.yatzy.play import PlaySession

    run_in_terminal(PlaySession(_rules(rules), seed, opponent))


@app.command("target")
def target_command(
    rules: Rules = "yahtzee-no-bonus",
    targets: Annotated[
        str,
        typer.Option(
            "--targets",
            help="Comma-separated target scores; the cost grows with the largest (350: minutes).",
        ),
    ] = "200,250,300,350",
    json_out: Json = False,
) -> None:
    """Max P(final score >= T) for each target T vs the expected-score strategy."""
    from gamelab.yatzy.target import parse_targets, target_table

    chosen = parse_targets(targets)
    table = target_table(_rules(rules), chosen)
    if json_out:
        print_json(table)
        return
    t = Table(title=f"{table.rules}: reaching a target score")
    for c in ("T", "max P(score >= T)", "expected-score play"):
        t.add_column(c, justify="right")
    for row in table.targets:
        t.add_row(
            str(row.target), f"{row.max_probability:.6f}", f"{row.expected_score_strategy:.6f}"
        )
    console.print(t)
    console.print(table.timing())


@app.command("winplay")
def winplay_command(
    rules: Rules = "yahtzee-no-bonus",
    turns_left: Annotated[
        int,
        typer.Option(
            "--turns-left", min=1, help="A switches to win play with this many turns left (K)."
        ),
    ] = 5,
    games: Annotated[
        int, typer.Option("--games", min=2, help="Sampled switch positions (games).")
    ] = 1000,
    a_first: Annotated[
        bool,
        typer.Option(
            "--a-first/--a-second", help="Whether the win player moves first in each round."
        ),
    ] = True,
    chunk: Annotated[int, typer.Option("--chunk", min=1, help="Games per task.")] = 20,
    simulate: Annotated[
        bool,
        typer.Option(
            "--simulate/--exact-only",
            help="Also simulate the endgames (re-targeting); --exact-only records the exact values only.",
        ),
    ] = True,
    seed: Seed = 0,
    workers: Workers = None,
    cluster: Cluster = None,
    store: Store = True,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Win play in the last K turns vs the expected-score player: exact and simulated win rates.

    With --turns-left equal to the number of boxes A plays for the win from the empty card:
    one exact solve, nothing sampled.
    """
    from gamelab.core.stats import Difference, format_difference, format_estimate
    from gamelab.yatzy.winplay_study import win_from_start, winplay_study

    r = _rules(rules)
    if turns_left == r.n_boxes:
        start = win_from_start(r)
        if json_out:
            print_json(start)
        else:
            console.print(
                f"{r.name}, win play from the start vs the expected-score player: "
                f"P(A wins) + half P(tie) = {start.single:.6f} (expectation play "
                f"{start.expectation:.6f}); {start.seconds:.0f} s over "
                f"{start.states:.0f} states"
            )
        return
    res = winplay_study(
        r,
        turns_left,
        games,
        seed,
        a_first,
        chunk,
        backend(workers, cluster, quiet or json_out),
        result_store(store),
        simulate,
    )
    if json_out:
        print_json(res)
        return
    t = Table(
        title=f"{r.name}: A plays for the win in its last {turns_left} turns "
        f"({res.games} games, A {'first' if a_first else 'second'}; ties count half)"
    )
    t.add_column("quantity")
    t.add_column("mean [95% CI]", justify="right")
    for key, label in (
        ("expectation_exact", "P(A wins) + half P(tie), expectation play (exact per game)"),
        ("single_exact", "P(A wins) + half P(tie), one win-play solve (exact per game)"),
        ("single_minus_expectation", "difference (paired)"),
        ("retarget_simulated", "re-targeting win play (simulated)"),
        ("retarget_minus_single", "re-targeting minus single solve (paired dice)"),
        ("expectation_simulated", "expectation play (simulated, check)"),
    ):
        e = getattr(res, key)
        if e is not None:
            t.add_row(
                label,
                format_difference(e) if isinstance(e, Difference) else format_estimate(e, ".4f"),
            )
    console.print(t)
    console.print(
        f"{res.seconds_per_single_solve:.2f} s per solve (max "
        f"{res.max_seconds_single_solve:.2f}), {res.mean_states_per_solve:.0f} "
        f"states x {res.mean_vector_length:.0f} scores on average"
    )
