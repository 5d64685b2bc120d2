"""The options and helpers every `gamelab wordle` command shares (one spelling of each), and
the command group itself."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gamelab.wordle.rules import (
    FeedbackRule,
    NameSetting,
    Setting,
    load_word_list,
    parse_names,
    parse_setting,
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
        "daily-2022, upto-gen1..upto-gen9, gen1-4 (the post), genN, genN-M, all, or "
        "ANSWERS/GUESSES (the answers of one list, the guesses of another: gen1-4/all is daily).",
    ),
]
AnswersNames = Annotated[
    str | None,
    typer.Option(
        "--answers-names",
        help="The answers of this list (e.g. gen1-4); overrides the answers of --names.",
    ),
]
GuessesNames = Annotated[
    str | None,
    typer.Option(
        "--guesses-names",
        help="The guesses of this list (e.g. all); overrides the guesses of --names.",
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
    max_guesses: int | None = None,
) -> Setting:
    """The options of a Pokémon setting as the library's one typed value (parsed here, once);
    `max_guesses` None: the game's limit, 0: no limit."""
    return parse_setting(
        name_setting(names, answers_names, guesses_names),
        rule,
        hard_mode(hard, hard_rule),
        max_guesses,
    )


def list_setting(
    names: str,
    answers_names: str | None,
    guesses_names: str | None,
    guesses: Path | None,
    answers: Path | None,
    rule: str,
    hard: bool,
    hard_rule: str | None,
    max_guesses: int | None = None,
) -> Setting:
    """:func:`game_setting`, or with --guesses/--answers the custom list's setting (its guess
    limit: 6): the one typed value the assistant (`next`, `assist`, the page) and the analysis
    (`solve-optimal`, `feasible`, `prove-opening`) take. `max_guesses` None: the game's limit,
    0: no limit."""
    if guesses is None and answers is None:
        return game_setting(names, answers_names, guesses_names, rule, hard, hard_rule, max_guesses)
    words = load_word_list(name_setting(names, answers_names, guesses_names), guesses, answers)
    return parse_setting(words, rule, hard_mode(hard, hard_rule), max_guesses)


def make_game(names: NameSetting, guesses: Path | None, answers: Path | None, rule: str) -> Game:
    return Game(load_word_list(names, guesses, answers), FeedbackRule(rule))
