"""A practice game: a seeded random answer, the colours of each guess, the keyboard, the share text.

Stateless: ``play_round(setting, seed, guesses)`` replays the whole game from its seed
and the guesses so far, so a page (or anything else) keeps no secret and a seed can be shared:
the same seed and list always give the same answer. The answer is revealed once the game is
over: found, or the game's guess limit (Pokémon Wordle: 10) used up. In hard mode a guess the
mode forbids is refused with the reason (:func:`gamelab.wordle.rules.hard_mode_allows`).

    >>> from gamelab.wordle.rules import POST_SETTING, Setting
    >>> r = play_round(Setting(POST_SETTING), 7, [])
    >>> r.finished, r.answer, r.guess_limit
    (False, None, 10)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from gamelab.wordle.names import resolve_name
from gamelab.wordle.rules import (
    HARD_MODE_TEXT,
    Setting,
    WordList,
    feedback,
    hard_mode_allows,
    pokemon_names,
)

__all__ = ["PlayRound", "PlayedGuess", "answer_of_seed", "play_round"]

MAX_SEED = 2**63 - 1
SQUARES = "⬛🟨🟩"


@dataclass(frozen=True)
class PlayedGuess:
    name: str
    english: str
    dex: int
    colours: str  # digits: 0 grey, 1 yellow, 2 green


@dataclass
class PlayRound:
    names: str
    rule: str
    hard_mode: str
    mode: str
    seed: int
    guess_limit: int
    length: int
    rows: list[PlayedGuess]
    keyboard: dict[str, int]  # kana -> best colour it has shown (0 grey, 1 yellow, 2 green)
    finished: bool
    won: bool
    answer: str | None  # revealed when finished
    answer_english: str | None
    share: str | None  # emoji grid, when finished
    history: list[tuple[str, str]] = field(
        default_factory=list
    )  # (name, colours) for advice/review


def answer_of_seed(words: WordList, seed: int) -> str:
    """The answer of a practice game: uniform over the list's answers, from `seed`."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be 0..{MAX_SEED}, got {seed}")
    rng = np.random.default_rng(seed)
    return words.answers[int(rng.integers(len(words.answers)))]


def play_round(setting: Setting, seed: int, guesses: Sequence[str]) -> PlayRound:
    """Replay a practice game from its seed and guesses (any script; see
    :func:`gamelab.wordle.names.resolve_name`)."""
    names, rule, hard = setting.names, setting.rule, setting.hard
    words = setting.words
    answer = answer_of_seed(words, seed)
    english = {ja: (en, dex) for dex, ja, en, _ in pokemon_names()}
    if len(guesses) > words.guess_limit:
        raise ValueError(f"the game allows {words.guess_limit} guesses, got {len(guesses)}")
    rows: list[PlayedGuess] = []
    keyboard: dict[str, int] = {}
    won = False
    for k, typed in enumerate(guesses, 1):
        if won:
            raise ValueError(f"guess {k} comes after the answer was found")
        name = resolve_name(words, typed, field="guess")
        if hard and len(name) != words.length:
            raise ValueError(
                f"{name} has {len(name)} characters; {HARD_MODE_TEXT[hard]} allows "
                f"{words.length}-character names only",
            )
        for prev in rows:
            colours = tuple(int(c) for c in prev.colours)
            if hard and not hard_mode_allows(prev.name, colours, name, hard, rule):
                raise ValueError(
                    f"{name} is not allowed in {HARD_MODE_TEXT[hard]} after "
                    f"{prev.name} {prev.colours}"
                )
        colours = feedback(name, answer, rule)
        for ch, c in zip(name, colours, strict=True):
            keyboard[ch] = max(keyboard.get(ch, 0), c)
        en, dex = english.get(name, ("", 0))
        rows.append(PlayedGuess(name, en, dex, "".join(map(str, colours))))
        won = name == answer
    finished = won or len(rows) == words.guess_limit
    share = None
    if finished:
        score = str(len(rows)) if won else "X"
        grid = "\n".join("".join(SQUARES[int(c)] for c in r.colours) for r in rows)
        share = (
            f"Pokémon Wordle {score}/{words.guess_limit} (gamelab {names.name}, seed {seed}"
            f"{', hard' if hard else ''})\n{grid}"
        )
    return PlayRound(
        names.name,
        rule,
        setting.hard_mode,
        setting.mode,
        seed,
        words.guess_limit,
        words.length,
        rows,
        keyboard,
        finished,
        won,
        answer if finished else None,
        english.get(answer, ("", 0))[0] if finished else None,
        share,
        [(r.name, r.colours) for r in rows],
    )
