"""`gamelab wordle ...`: thin shell over the library (parse, call, print). The player's commands
are here; the solver's (prune-search, solve-optimal, feasible, prove-opening) in
:mod:`gamelab.wordle.cli.solver`; the options they share in :mod:`gamelab.wordle.cli.options`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from gamelab.cli_common import Json, Seed, console, print_json
from gamelab.wordle import entropy as entropy_mod
from gamelab.wordle.cli.options import (
    AdviceTimeLimit,
    AnswerFile,
    AnswersNames,
    GuessesNames,
    GuessFile,
    Hard,
    HardRule,
    Names,
    Rule,
    app,
    game_setting,
    list_setting,
    make_game,
    name_setting,
)
from gamelab.wordle.rules import pattern_text
from gamelab.wordle.table import Game

__all__ = ["app"]


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
    """Candidates left by a history and the best next guess (one shot): the web page's
    assistant (--json prints the document the page's API, /api/wordle/advice, returns), on a Pokémon
    list or a custom one (--guesses/--answers)."""
    from gamelab.wordle.advice import advise, format_advice, split_history

    setting = list_setting(
        names, answers_names, guesses_names, guesses, answers, rule, hard, hard_rule
    )
    answer = advise(setting, split_history(history), time_limit=time_limit)
    if json_out:
        print_json(answer)
        return
    console.print(format_advice(answer), markup=False, highlight=False, soft_wrap=True)


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
    from gamelab.wordle.advice import AdviceSession

    setting = list_setting(
        names, answers_names, guesses_names, guesses, answers, rule, hard, hard_rule
    )
    run_in_terminal(AdviceSession(setting, time_limit))


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
    from gamelab.wordle.solver.strategy import strategy_summary

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


from gamelab.wordle.cli import solver as _solver  # noqa: E402,F401  (registers its commands)
