"""`gamelab wordle ...`: thin shell over the library (parse, call, print)."""

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
    Seed,
    Store,
    Workers,
    backend,
    console,
    err_console,
    print_json,
    result_store,
)
from gamelab.wordle import entropy as entropy_mod
from gamelab.wordle.rules import (
    NameSetting,
    Setting,
    load_word_list,
    parse_names,
    parse_setting,
    pattern_text,
)
from gamelab.wordle.table import Game

app = typer.Typer(
    help="Pokémon Wordle (or any word list): rank, chart, search, solve, assist.",
    no_args_is_help=True,
)

Names = Annotated[
    str,
    typer.Option(
        "--names",
        help="Word lists: daily (the live game: answers gen 1-4, any species guessed), "
        "daily-2022, upto-gen1..upto-gen9, gen1-4 (the post), genN, genN-M, all, or A/G.",
    ),
]
AnswersNames = Annotated[
    str | None,
    typer.Option(
        "--answers-names", help="The answers of this list (e.g. gen1-4); overrides --names'."
    ),
]
GuessesNames = Annotated[
    str | None,
    typer.Option(
        "--guesses-names", help="The guesses of this list (e.g. all); overrides --names'."
    ),
]
GuessFile = Annotated[
    Path | None, typer.Option("--guesses", help="Custom guess list, one word per line.")
]
AnswerFile = Annotated[
    Path | None, typer.Option("--answers", help="Custom answer list, one word per line.")
]
Rule = Annotated[
    str, typer.Option("--rule", help="standard (real Wordle) or blog (the post's code).")
]

Hard = Annotated[
    bool,
    typer.Option(
        "--hard",
        help="Hard mode, the game's rule: greens stay in place, yellows are reused (greys may be reused).",
    ),
]
HardRule = Annotated[
    str | None,
    typer.Option(
        "--hard-rule",
        help="Hard mode by name: game (as --hard) or strict (every later guess could still be the answer); implies --hard.",
    ),
]

#: the exact search's time limit of the one-shot and interactive assistants (`next`, `assist`)
AdviceTimeLimit = Annotated[
    float, typer.Option("--time-limit", min=0.1, help="Seconds for the exact search.")
]


def hard_mode(hard: bool, hard_rule: str | None) -> str | None:
    """--hard / --hard-rule NAME -> None, "game" or "strict"."""
    from gamelab.wordle.rules import check_hard_mode

    return check_hard_mode(hard_rule) if hard_rule is not None else ("game" if hard else None)


def name_setting(names: str, answers_names: str | None, guesses_names: str | None) -> NameSetting:
    """--names, --answers-names, --guesses-names -> one NameSetting (parsed here, once)."""
    base = parse_names(names)
    if answers_names is None and guesses_names is None:
        return base
    answers = parse_names(answers_names) if answers_names is not None else base
    return answers.with_guesses(parse_names(guesses_names) if guesses_names is not None else base)


def game_setting(
    names: str,
    answers_names: str | None,
    guesses_names: str | None,
    rule: str,
    hard: bool,
    hard_rule: str | None,
) -> Setting:
    """The options of a Pokémon setting as the library's one typed value (parsed here, once)."""
    return parse_setting(
        name_setting(names, answers_names, guesses_names), rule, hard_mode(hard, hard_rule)
    )


def make_game(names: NameSetting, guesses: Path | None, answers: Path | None, rule: str) -> Game:
    return Game(load_word_list(names, guesses, answers), rule)


@app.command("rank")
def rank_command(
    names: Names = "gen1-4",
    answers_names: AnswersNames = None,
    guesses_names: GuessesNames = None,
    guesses: GuessFile = None,
    answers: AnswerFile = None,
    rule: Rule = "standard",
    top: Annotated[int, typer.Option("--top", min=1, help="How many guesses to list.")] = 15,
    json_out: Json = False,
) -> None:
    """First guesses by the entropy of their feedback (other rule's value shown beside)."""
    game = make_game(name_setting(names, answers_names, guesses_names), guesses, answers, rule)
    ranked = entropy_mod.ranking(game, top)
    if json_out:
        print_json(ranked)
        return
    t = Table(title=f"Entropy of first guesses ({game.words.name}, rule {rule})")
    for col in ("rank", "guess", f"entropy ({rule})", f"entropy ({ranked.other_rule})"):
        t.add_column(col, justify="right" if col != "guess" else "left")
    for k, r in enumerate(ranked.rows, 1):
        t.add_row(str(k), r.guess, f"{r.entropy:.5f}", f"{r.other_entropy:.5f}")
    console.print(t)


@app.command("chart")
def chart_command(
    first: Annotated[
        str | None,
        typer.Option(
            "--first", help="The first guess (default: the max-entropy one, レントラー for gen1-4)."
        ),
    ] = None,
    names: Names = "gen1-4",
    answers_names: AnswersNames = None,
    guesses_names: GuessesNames = None,
    guesses: GuessFile = None,
    answers: AnswerFile = None,
    rule: Rule = "standard",
    style: Annotated[str, typer.Option("--style", help="digits, squares or kanji.")] = "kanji",
    tree: Annotated[
        Path | None,
        typer.Option(
            "--tree", help="Print a decision tree written by solve-optimal --tree instead."
        ),
    ] = None,
    json_out: Json = False,
) -> None:
    """Every feedback pattern of a first guess, what it leaves and the greedy next guess."""
    if style not in ("digits", "squares", "kanji"):
        raise ValueError(f"unknown --style {style!r}; use digits, squares or kanji")
    if tree is not None:
        setting = name_setting(names, answers_names, guesses_names)
        _print_tree(tree, make_game(setting, guesses, answers, rule), style, json_out)
        return
    from gamelab.wordle.chart import chart

    data = chart(
        make_game(name_setting(names, answers_names, guesses_names), guesses, answers, rule), first
    )
    if json_out:
        print_json(data)
        return
    t = Table(
        title=f"{data.first}: {data.n_patterns} feedback patterns ({data.names}, rule {rule})"
    )
    for col in ("pattern", "remaining", "next guess (max entropy)"):
        t.add_column(col)
    for p in data.patterns:
        t.add_row(
            pattern_text(int(p.pattern, 3), len(data.first), style),
            str(p.remaining),
            p.next or "solved",
        )
    console.print(t)
    for key, label in (
        ("normal", "counted normally"),
        ("post_counting", "with the post's counting (entropy guess that hits costs +1)"),
    ):
        d = data.greedy[key]
        dist = " ".join(f"{k}:{v}" for k, v in d.distribution.items())
        console.print(
            f"greedy total {label}: {d.total} (average {d.average:.3f}; {dist}; "
            f"worst {d.worst}: {' '.join(d.worst_answers)})"
        )
    if data.note:
        console.print(f"note: {data.note}")


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
    """The post's pruned search: top-`width` entropy guesses per node, depth <= `max_depth`."""
    from gamelab.wordle.pruned import PrunedTotal, pruned_totals

    def show(row: PrunedTotal) -> None:
        if not quiet and not json_out:
            err_console.print(
                f"{row.first}: {row.total if row.total is not None else 'infeasible'}"
            )

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
    from gamelab.wordle.optimal_summary import solve_summary

    if tree is not None:
        check_output_path(tree, (".json",), "--tree")
    game = make_game(name_setting(names, answers_names, guesses_names), guesses, answers, rule)
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
            game,
            hard=hard_mode(hard, hard_rule),
            max_guesses="game" if max_guesses is None else max_guesses,
            time_limit=time_limit,
            depth_limits=depth_limits,
            store=result_store(store),
            progress=progress,
            first=first,
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
        value = row.total if row.total is not None else "infeasible"
        console.print(
            f"  at most {row.max_guesses} guesses: {value}{'' if row.proven else ' (not proven)'}"
        )
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
    from gamelab.wordle.feasible import depth_feasibility

    game = make_game(name_setting(names, answers_names, guesses_names), guesses, answers, rule)
    data = depth_feasibility(
        game,
        max_guesses,
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
    from gamelab.wordle.opening import prove_opening

    game = make_game(name_setting(names, answers_names, guesses_names), guesses, answers, rule)
    show = None if quiet or json_out else (lambda m: err_console.print(m, highlight=False))
    data = prove_opening(
        game,
        hard_mode(hard, hard_rule),
        "game" if max_guesses is None else max_guesses,
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


@app.command("next")
def next_command(
    history: Annotated[
        str,
        typer.Option(
            "--history",
            help="e.g. 'レントラー:00120,ゴルダック:00000' (0 grey, 1 yellow, 2 green); hiragana and half-width katakana are accepted.",
        ),
    ] = "",
    names: Names = "gen1-4",
    answers_names: AnswersNames = None,
    guesses_names: GuessesNames = None,
    guesses: GuessFile = None,
    answers: AnswerFile = None,
    rule: Rule = "standard",
    hard: Hard = False,
    hard_rule: HardRule = None,
    time_limit: AdviceTimeLimit = 20.0,
    json_out: Json = False,
) -> None:
    """Candidates left by a history and the best next guess (one shot). On a Pokémon list this
    is the web page's assistant: ``--json`` prints the document ``/api/wordle/advice`` returns."""
    if guesses is None and answers is None:
        from gamelab.wordle.advice import advise, format_advice, split_history

        setting = game_setting(names, answers_names, guesses_names, rule, hard, hard_rule)
        answer = advise(setting, split_history(history), time_limit=time_limit)
        if json_out:
            print_json(answer)
            return
        console.print(format_advice(answer), markup=False, highlight=False, soft_wrap=True)
        return
    from gamelab.wordle.assistant import Assistant, parse_history
    from gamelab.wordle.assistant import format_advice as format_next

    game = make_game(name_setting(names, answers_names, guesses_names), guesses, answers, rule)
    advice = Assistant(
        game, hard=hard_mode(hard, hard_rule), time_limit=time_limit, store=result_store(True)
    ).advice(parse_history(game, history))
    if json_out:
        print_json(advice)
        return
    console.print(format_next(advice), markup=False, highlight=False, soft_wrap=True)


@app.command("assist")
def assist_command(
    names: Names = "gen1-4",
    answers_names: AnswersNames = None,
    guesses_names: GuessesNames = None,
    guesses: GuessFile = None,
    answers: AnswerFile = None,
    rule: Rule = "standard",
    hard: Hard = False,
    hard_rule: HardRule = None,
    time_limit: AdviceTimeLimit = 20.0,
) -> None:
    """Interactive: type a guess and its colours (rentoraa 00120 or ⬛⬛🟨🟩⬛); undo, reset, help, quit."""
    from gamelab.core.interactive import run_in_terminal

    if guesses is None and answers is None:
        from gamelab.wordle.advice import AdviceSession

        setting = game_setting(names, answers_names, guesses_names, rule, hard, hard_rule)
        run_in_terminal(AdviceSession(setting, time_limit))
        return
    from gamelab.wordle.assistant import Assistant, AssistSession

    game = make_game(name_setting(names, answers_names, guesses_names), guesses, answers, rule)
    assistant = Assistant(
        game, hard=hard_mode(hard, hard_rule), time_limit=time_limit, store=result_store(True)
    )
    run_in_terminal(AssistSession(assistant))


@app.command("strategy")
def strategy_command(
    names: Names = "gen1-4",
    answers_names: AnswersNames = None,
    guesses_names: GuessesNames = None,
    rule: Rule = "standard",
    hard: Hard = False,
    hard_rule: HardRule = None,
    json_out: Json = False,
) -> None:
    """Compute (once) and cache the optimal strategy the web page's assistant looks up."""
    from gamelab.wordle.strategy import strategy_summary

    s = strategy_summary(game_setting(names, answers_names, guesses_names, rule, hard, hard_rule))
    if json_out:
        print_json(s)
        return
    how = "from the cache" if s.was_cached else f"computed in {s.seconds:.1f} s and cached"
    console.print(
        f"{s.names}, rule {s.rule}, {s.mode}, at most {s.guess_limit} guesses: first guess "
        f"{s.first_guess}, total {s.total} (average {s.average:.4f}), worst {s.worst}; "
        f"{s.nodes} decision nodes ({how})",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )


@app.command("review")
def review_command(
    history: Annotated[
        str,
        typer.Option(
            "--history",
            help="The game: 'レントラー:00120,ゴルダック:22222' (names in katakana, hiragana, romaji or English).",
        ),
    ],
    names: Names = "gen1-4",
    answers_names: AnswersNames = None,
    guesses_names: GuessesNames = None,
    rule: Rule = "standard",
    hard: Hard = False,
    hard_rule: HardRule = None,
    json_out: Json = False,
) -> None:
    """Each guess of a game against the proven optimum: expected guesses lost, luck."""
    from gamelab.wordle.advice import split_history
    from gamelab.wordle.review import review

    setting = game_setting(names, answers_names, guesses_names, rule, hard, hard_rule)
    r = review(setting, split_history(history))
    if json_out:
        print_json(r)
        return
    t = Table(title=f"Review ({r.names}, rule {r.rule}, {r.mode})")
    for col in ("#", "guess", "colours", "left", "optimal", "exp. you/opt", "lost", "luck"):
        t.add_column(col)
    for s in r.steps:
        exp = "-" if s.expected_guesses is None else f"{s.expected_guesses:.3f}"
        t.add_row(
            str(s.number),
            s.guess,
            s.colours,
            f"{s.candidates_before}->{s.candidates_after}",
            "(this)" if s.is_optimal else s.optimal_guess,
            f"{exp}/{s.optimal_expected_guesses:.3f}",
            "-" if s.guesses_lost is None else f"{s.guesses_lost:.3f}",
            "-" if s.luck is None else f"{s.luck:+.3f}",
        )
    console.print(t)
    console.print(r.summary, markup=False, highlight=False)


@app.command("hill-climb")
def hill_climb_command(
    names: Names = "gen1-4",
    answers_names: AnswersNames = None,
    guesses_names: GuessesNames = None,
    guesses: GuessFile = None,
    answers: AnswerFile = None,
    rule: Rule = "blog",
    seed: Seed = 0,
    restarts: Annotated[int, typer.Option("--restarts", min=1, help="Random restarts.")] = 100,
    total: Annotated[
        bool,
        typer.Option(
            "--total/--no-total", help="Also the pruned-search total with it as first guess."
        ),
    ] = True,
    json_out: Json = False,
) -> None:
    """The highest-entropy made-up first guess (any string of the alphabet), by hill climbing."""
    from gamelab.wordle.hillclimb import made_up_first_guess

    res = made_up_first_guess(
        make_game(name_setting(names, answers_names, guesses_names), guesses, answers, rule),
        seed,
        restarts,
        total,
    )
    if json_out:
        print_json(res)
        return
    console.print(
        f"{res.word}: entropy {res.entropy:.5f} (rule {rule}), {res.patterns} patterns"
        + (f", pruned-search total {res.pruned_total}" if total else "")
    )


def _print_tree(path: Path, game: Game, style: str, json_out: bool) -> None:
    from gamelab.wordle.chart import tree_chart

    tc = tree_chart(path, game)
    if json_out:
        print_json(tc)
        return
    t = Table(title=f"Decision tree from {path.name}: first guess {tc.first}")
    for col in ("pattern", "remaining", "next guess"):
        t.add_column(col)
    for r in tc.patterns:
        t.add_row(pattern_text(int(r.pattern, 3), len(r.pattern), style), str(r.remaining), r.next)
    console.print(t)
    console.print(
        f"total {tc.total} guesses over {tc.answers} answers; distribution "
        + " ".join(f"{k}:{v}" for k, v in tc.distribution.items())
    )
