"""`gamelab oware ...`: perft, analyse, hint, review, tablebase, solve, book, match,
play."""

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
    err_console,
    print_json,
    to_json,
)
from gamelab.oware.rules import TABLEBASE_SEEDS

app = typer.Typer(
    help="Oware Abapa: rules, engine, tablebases, matches, play.", no_args_is_help=True
)

GrandSlam = Annotated[
    str,
    typer.Option(
        "--grand-slam",
        help="Grand-slam rule: no-capture (Abapa), forbidden (Awari) or capture-all.",
    ),
]
Cycle = Annotated[
    str,
    typer.Option(
        "--cycle", help="Cycle rule: own-row (Abapa: first repeat, each keeps its row) or split."
    ),
]
PositionText = Annotated[
    str,
    typer.Option(
        "--position",
        "-p",
        help="'start' or h0-...-h11-s0-s1-S|N (e.g. 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S).",
    ),
]


def _rules(grand_slam: str, cycle: str):
    from gamelab.oware.rules import Rules

    return Rules(grand_slam=grand_slam, cycle=cycle)


@app.command()
def perft(
    depth: Annotated[int, typer.Option("--depth", "-d", min=0, max=14, help="Plies.")] = 6,
    position: PositionText = "start",
    grand_slam: GrandSlam = "no-capture",
    cycle: Cycle = "own-row",
    json_out: Json = False,
) -> None:
    """Count move sequences of a given length (numba kernel, repetition rule included)."""
    from gamelab.oware.perft import timed_perft
    from gamelab.oware.rules import Position

    result = timed_perft(Position.from_text(position, _rules(grand_slam, cycle)), depth)
    if json_out:
        print_json(result)
    else:
        console.print(f"perft({depth}) = {result.nodes:,}  ({result.seconds:.2f} s)")


FixedDepth = Annotated[
    int | None, typer.Option("--depth", "-d", min=1, max=20, help="A fixed depth instead.")
]
Moves = Annotated[
    list[str] | None,
    typer.Option("--move", "-m", help="A move of the game (A-F, a-f), in order."),
]
SearchSeconds = Annotated[
    float,
    typer.Option("--time", "-t", metavar="SECONDS", help="Seconds of search (at most 10)."),
]


@app.command()
def analyse(
    position: PositionText = "start",
    move: Moves = None,
    time_limit: SearchSeconds = 2.0,
    depth: FixedDepth = None,
    evaluation: Annotated[
        str,
        typer.Option(
            "--eval",
            help="The evaluation: auale (Aalina's weights for the stores and for big, "
            "vulnerable and empty houses) or blog (the seed blog's: the stores and the "
            "houses holding 1 or 2 seeds).",
        ),
    ] = "auale",
    tablebase: Annotated[
        int | None,
        typer.Option(
            "--tablebase",
            min=-1,
            max=48,
            help="Tablebase seeds (-1: none; past 16: the database built by `tablebase`). "
            "Default: the best this machine has verified, as the page's engine.",
            show_default=False,
        ),
    ] = None,
    grand_slam: GrandSlam = "no-capture",
    cycle: Cycle = "own-row",
    json_out: Json = False,
) -> None:
    """Best move, score (with its unit), the whole principal variation, depth, nodes and speed,
    with the evaluation bar's verdict (exact inside the tablebase): the page's analysis."""
    from gamelab.oware.analysis import format_analysis
    from gamelab.oware.game import analyse_position
    from gamelab.oware.rules import Position

    res = analyse_position(
        position,
        _rules(grand_slam, cycle),
        time_limit,
        list(move or []),
        depth,
        evaluation,
        tablebase,
    )
    if json_out:
        print_json(res)
        return
    board = Position.from_text(res.analysis.position, _rules(grand_slam, cycle))
    console.print(board.draw(), markup=False, highlight=False)
    console.print(format_analysis(res.analysis), markup=False, highlight=False, soft_wrap=True)
    console.print(f"verdict: {res.evaluation.text}", markup=False, highlight=False)


@app.command()
def hint(
    position: PositionText = "start",
    move: Moves = None,
    time_limit: SearchSeconds = 1.0,
    depth: FixedDepth = None,
    grand_slam: GrandSlam = "no-capture",
    cycle: Cycle = "own-row",
    book: Annotated[
        bool,
        typer.Option(
            "--book/--no-book",
            help="The opening book's move where it has one, as the page's hint gives it.",
        ),
    ] = False,
    json_out: Json = False,
) -> None:
    """The page's hint and analysis: the engine's move, its line and the evaluation bar's
    verdict (exact inside the tablebase) for the position after the moves."""
    from gamelab.oware.game import analyse_position

    rules = _rules(grand_slam, cycle)
    res = analyse_position(position, rules, time_limit, list(move or []), depth, book=book)
    if json_out:
        print_json(res)
        return
    a = res.analysis
    source = "book move, searched to depth" if res.book else "depth"
    console.print(f"play {a.best_move_text} ({source} {a.depth}): {res.evaluation.text}")
    console.print(f"line: {' '.join(a.pv_text)}", soft_wrap=True)


@app.command()
def review(
    move: Moves = None,
    start: PositionText = "start",
    opponent: Annotated[
        str,
        typer.Option(
            "--opponent",
            metavar="PLAYER",
            help="The opponent faced: the review searches at least as strongly.",
        ),
    ] = "engine:time=0.5",
    depth: FixedDepth = None,
    grand_slam: GrandSlam = "no-capture",
    cycle: Cycle = "own-row",
    json_out: Json = False,
) -> None:
    """Every move of a game against the engine's best, as strong as the engine the player
    faced (the page's Review: the same document, in one piece)."""
    from gamelab.oware.budget import review_limits, review_piece
    from gamelab.oware.match import parse_player

    moves = list(move or [])
    limits = review_limits(parse_player(opponent), len(moves), depth, max(1, len(moves)))
    res = review_piece(start, _rules(grand_slam, cycle), moves, limits)
    if json_out:
        print_json(res)
        return
    console.print(f"searched {res.strength} (depth {res.least_depth}-{res.depth})")
    for m in res.moves:
        mark = "  (costliest)" if m.worst else ""
        console.print(f"{m.ply:>3} {m.side:<5} {m.move}  best {m.best}  {m.loss_text or '-'}{mark}")
    console.print(f"lost: {', '.join(f'{s} {v:g} seeds' for s, v in res.total_loss_seeds.items())}")


@app.command()
def tablebase(
    seeds: Annotated[
        int,
        typer.Option(
            "--seeds",
            "-n",
            min=0,
            max=48,
            help="Largest seed count (past 16: the endgame database on disk, resumable).",
        ),
    ] = TABLEBASE_SEEDS,
    on_disk: Annotated[
        bool,
        typer.Option("--on-disk", help="Build the database on disk even for 16 seeds or fewer."),
    ] = False,
    workers: Workers = None,
    cluster: Cluster = None,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Build (or load from the cache) the endgame tablebase and print its size."""
    from gamelab.oware.tablebase import MAX_SUPPORTED, tablebase_summary

    runner = backend(workers, cluster, quiet)  # checked even where the table needs none
    if seeds > MAX_SUPPORTED or on_disk:
        from gamelab.oware.tablebase_disk import build_database

        say = None if quiet or json_out else (lambda line: err_console.print(line))
        db = build_database(seeds, backend=runner, progress=say)
        if json_out:
            print_json(db)
        else:
            console.print(
                f"endgame database to {db.reached} seeds: {db.boards:,} boards, "
                f"{db.bytes:,} bytes, {db.cpu_seconds / 3600:.2f} CPU-hours, in {db.path}"
            )
        return
    tb = tablebase_summary(seeds)
    if json_out:
        print_json(tb)
    else:
        console.print(
            f"tablebase to {seeds} seeds: {tb.boards:,} boards, {tb.bytes:,} bytes, "
            f"built in {tb.build_seconds:.1f} s (this call {tb.load_seconds:.1f} s)"
        )


@app.command()
def solve(
    seeds_per_house: Annotated[
        int,
        typer.Option(
            "--seeds-per-house", min=1, max=4, help="Seeds in each house at the start (1-4)."
        ),
    ] = 1,
    json_out: Json = False,
) -> None:
    """The exact value of the game started with N seeds in every house, from the tables:
    who wins, by how many seeds, the best first moves and a principal variation."""
    from gamelab.oware.solve import solve_start

    r = solve_start(seeds_per_house)
    if json_out:
        print_json(r)
        return
    console.print(f"{r.seeds_per_house} seeds per house ({r.board_seeds} seeds): {r.verdict}")
    console.print(
        "first moves (South's final difference): "
        + ", ".join(f"{m.move} {m.value:+d}" for m in r.moves)
    )
    console.print(f"best: {' '.join(r.best_moves)}")
    console.print(f"line: {' '.join(r.principal_variation)} ({r.line_end})")


@app.command()
def book(
    plies: Annotated[
        int, typer.Option("--plies", min=1, max=6, help="Book positions: fewer plies than this.")
    ] = 4,
    depth: Annotated[
        int, typer.Option("--depth", min=1, max=30, help="Search depth of each position.")
    ] = 18,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the book's JSON document here.")
    ] = None,
    workers: Workers = None,
    cluster: Cluster = None,
    store: Store = True,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Build the opening book: every position of the first plies searched to a fixed depth
    (resumable through the results store)."""
    from gamelab.cli_common import result_store
    from gamelab.core.files import check_output_path, write_text_atomic
    from gamelab.oware.book import book_document, build_book

    target = check_output_path(out, (".json",)) if out is not None else None
    result = build_book(
        plies, depth, backend=backend(workers, cluster, quiet), store=result_store(store)
    )
    if target is not None:
        write_text_atomic(target, to_json(book_document(result)) + "\n")
    if json_out:
        print_json(result)
        return
    console.print(
        f"opening book: {result.positions} positions (fewer than {plies} plies) at depth "
        f"{depth}, {result.cpu_seconds:.0f} CPU-s"
        + (f"; written to {target}" if target is not None else "")
    )


@app.command()
def match(
    a: Annotated[str, typer.Option("--a", help="Player A, e.g. engine:time=0.5, blog:depth=6.")],
    b: Annotated[
        str,
        typer.Option(
            "--b",
            help="Player B: random, greedy, blog:depth=D, engine:time=T|depth=D, mcts:sims=N.",
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", min=2, help="Games (even: paired colours).")
    ] = 20,
    opening_plies: Annotated[
        int,
        typer.Option("--opening-plies", min=0, max=10, help="Random plies that make each opening."),
    ] = 2,
    seed: Seed = 0,
    workers: Workers = None,
    cluster: Cluster = None,
    store: Store = True,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Paired-colour match between two players: score rate with 95% interval and Elo."""
    from gamelab.core.stats import format_elo, format_estimate
    from gamelab.oware.match import parse_player, run_match

    summary = run_match(
        parse_player(a),
        parse_player(b),
        games=games,
        seed=seed,
        opening_plies=opening_plies,
        backend=backend(workers, cluster, quiet),
        use_store=store,
    )
    if json_out:
        print_json(summary)
        return
    console.print(
        f"{summary.a} vs {summary.b}: {summary.record} (W-D-L) over {summary.games} games"
    )
    console.print(
        f"score rate {format_estimate(summary.score, '.3f')}, Elo {format_elo(summary.elo)}"
    )


@app.command()
def play(
    engine: Annotated[
        str, typer.Option("--engine", help="Opponent, e.g. engine:time=1.")
    ] = "engine:time=1",
    first: Annotated[bool, typer.Option("--first/--second", help="You move first (South).")] = True,
    load: Annotated[Path | None, typer.Option("--load", help="Game record to continue.")] = None,
    seed: Seed = 0,
) -> None:
    """Play against the engine in the terminal (type 'help' for commands)."""
    from gamelab.core.interactive import run_in_terminal
    from gamelab.oware.match import parse_player
    from gamelab.oware.play import PlaySession

    run_in_terminal(
        PlaySession(parse_player(engine), human_side=0 if first else 1, load=load, seed=seed)
    )
