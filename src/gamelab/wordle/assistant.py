"""What a history of guesses and colours leaves, and the parsing and line handling the
assistant (:mod:`gamelab.wordle.advice`: the page, ``next`` and ``assist``) is built on.

* :class:`HistoryChecker` -- the candidates (and, in hard mode, the guesses still allowed) after
  a history, and the first guess that contradicts it (:class:`ContradictionError`);
* :func:`parse_entry` / :func:`parse_history` -- typed guesses and colours (katakana, hiragana,
  half-width katakana; a custom list's words in either case);
* :func:`greedy_play` -- the max-entropy play from a node (the fallback's guarantee);
* :class:`GuessSession` -- the terminal assistant's line handling (quit, help, undo, reset).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

import numpy as np

from gamelab.core.interactive import Session
from gamelab.wordle.rules import HARD_MODE_TEXT, Setting, parse_pattern, pattern_text
from gamelab.wordle.table import Game


class ContradictionError(ValueError):
    """No answer fits the history; the message names the first guess that contradicts."""


def normalise_kana(word: str) -> str:
    """Hiragana and half-width katakana as full-width katakana (the word lists' form).

    >>> normalise_kana("らんたーん"), normalise_kana("ﾋﾟｶﾁｭｳ"), normalise_kana("crane")
    ('ランターン', 'ピカチュウ', 'crane')
    """
    import jaconv

    text = unicodedata.normalize("NFC", word)
    return jaconv.hira2kata(jaconv.h2z(text, kana=True, ascii=False, digit=False))


def parse_guess(game: Game, word: str) -> int:
    """The guess index of `word`, typed in katakana, hiragana or half-width katakana (or, for a
    custom Latin-alphabet list, in either case)."""
    kana = normalise_kana(word)
    for form in (word, kana, word.lower(), word.upper()):  # a custom list may be in either case
        if form in game.words.guess_index:
            return game.words.guess_index[form]
    shown = repr(word) if kana == word else f"{word!r} (read as {kana!r})"
    raise ValueError(f"{shown} is not an allowed guess in word list {game.words.name!r}")


def parse_entry(game: Game, text: str) -> tuple[int, int]:
    """'レントラー:00120' or 'レントラー 00120' (or with ⬛🟨🟩) -> (guess index, pattern code).

    The guess may be typed in hiragana or half-width katakana (see :func:`normalise_kana`).
    """
    parts = [p for p in re.split(r"[:\s]+", text.strip()) if p]
    if len(parts) < 2:
        raise ValueError(
            f"history entry {text!r} needs a guess and its colours, e.g. レントラー:00120"
        )
    word, colours = parts[0], "".join(parts[1:])
    g = parse_guess(game, word)
    return g, parse_pattern(colours, len(game.words.guesses[g]))


def parse_history(game: Game, text: str | Sequence[str]) -> list[tuple[int, int]]:
    entries = text.split(",") if isinstance(text, str) else list(text)
    return [parse_entry(game, e) for e in entries if e.strip()]


class HistoryChecker:
    """A history checked against one :class:`~gamelab.wordle.rules.Setting` (its word list,
    rule and hard mode: None, "game" or "strict", see
    :func:`gamelab.wordle.rules.hard_mode_allows`)."""

    def __init__(self, setting: Setting) -> None:
        self.setting = setting
        self.game = Game.of(setting)
        self.hard = setting.hard

    def candidates(
        self, history: Sequence[tuple[int, int]]
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Remaining answers (and, in hard mode, the words still allowed as guesses: positions
        in ``game.full_length_guesses``)."""
        game = self.game
        cands = game.all_answers()
        pool = game.full_pool() if self.hard else None
        for step, (g, code) in enumerate(history, 1):
            left = game.filter(cands, g, code)
            if len(left) == 0:
                word = game.words.guesses[g]
                shown = f"{word} {pattern_text(code, len(word))}"
                why = (
                    "no answer shows these colours"
                    if step == 1
                    else f"none of the {len(cands)} answers left by the earlier guesses shows these colours"
                )
                hint = (
                    ""
                    if game.rule == "standard"
                    else ("; the real game colours by the standard rule (--rule standard)")
                )
                raise ContradictionError(
                    f"no answer fits the history under rule {game.rule}: guess {step} ({shown}) "
                    f"is the first that contradicts it: {why}{hint}"
                )
            if (
                pool is not None
                and step < len(history)
                and history[step][0]
                not in set(
                    game.full_length_index[game.hard_pool(g, code, pool, self.hard)].tolist()
                )
            ):
                nxt = game.words.guesses[history[step][0]]
                raise ValueError(
                    f"guess {step + 1} ({nxt}) is not allowed in {HARD_MODE_TEXT[self.hard]} "
                    f"after the colours seen so far"
                )
            cands = left
            if pool is not None:
                pool = game.hard_pool(g, code, pool, self.hard)
        return cands, pool


def greedy_play(
    game: Game, cands: np.ndarray, pool: np.ndarray | None, hard: str | None, guess: int
) -> tuple[int, int]:
    """(total guesses, most guesses for one answer) when `guess` is played at this node and
    then always the max-entropy allowed guess (ties to the lowest index)."""
    total, worst = 0, 0
    stack = [(cands, pool, guess, 1)]
    while stack:
        c, p, g, depth = stack.pop()
        total += len(c)
        for code, part in game.partition(g, c).items():
            if len(part) == 1 and game.is_answer(g, part[0]):
                worst = max(worst, depth)
                continue
            child_pool = None if p is None else game.hard_pool(g, code, p, hard)
            if len(part) == 1:
                total += 1
                worst = max(worst, depth + 1)
                continue
            nxt = _entropy_choice(game, part, child_pool)
            if nxt < 0:
                return total, 10**9  # hard mode left no usable guess
            stack.append((part, child_pool, nxt, depth + 1))
    return total, worst


def _entropy_choice(game: Game, cands: np.ndarray, pool: np.ndarray | None) -> int:
    """The max-entropy allowed guess (ties to the lowest index); a candidate when no allowed
    guess splits `cands`; -1 when hard mode allows nothing useful."""
    ent = game.entropies(cands)
    options = range(game.n_guesses) if pool is None else game.full_length_index[pool].tolist()
    best = max(options, key=lambda g: (ent[g], -g), default=-1)
    if best >= 0 and ent[best] > 0:
        return best
    allowed = set(options)
    for a in cands.tolist():
        g = int(game.guess_of_answer[a])
        if g in allowed:
            return g
    return -1


RULE_TEXT = {
    "standard": "colours as the real game shows them",
    "blog": "colours as the post's code computes them",
}


class GuessSession(Session):
    """The terminal assistant's line handling (:class:`gamelab.wordle.advice.AdviceSession`):
    quit, help, undo, reset, or a guess and its colours. A guess joins the history only once its advice is computed (:meth:`advise`
    raises and the history is kept on a typo, a contradiction or an interrupted search)."""

    help_text = ""
    example = "レントラー 00120"
    history: list[Any]
    finished: bool

    def entry(self, text: str) -> Any:
        """One typed guess and its colours as a history entry."""
        raise NotImplementedError

    def advise(self, history: list[Any]) -> tuple[str, bool]:
        """(the advice as text, whether the game is solved) for `history`; sets the history."""
        raise NotImplementedError

    def handle(self, line: str) -> str:
        text = line.strip()
        word = text.lower()
        known = self.leave_or_help(word, self.help_text)
        if known is not None:
            return known
        if not text:
            return f"type a guess and its colours, e.g. {self.example} ('help' explains, 'quit' leaves)"
        if word in ("undo", "reset"):
            if not self.history:
                return "nothing to undo: no guess yet"
            history = self.history[:-1] if word == "undo" else []
        else:
            history = [*self.history, self.entry(text)]
        shown, solved = self.advise(history)
        if solved:
            self.finished = True
        return shown
