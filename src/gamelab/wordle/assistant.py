"""The assistant: what a history of guesses and colours leaves, and the best next guess.

Best next guess, in order of preference:

1. ``optimal`` -- the proven-optimal move for the remaining candidates (the solver of
   :mod:`gamelab.wordle.solver.optimal` on that node, within `time_limit`; at the very start the stored
   optimum from ``gamelab wordle solve-optimal`` is used when there is one);
2. ``pruned`` -- the post's pruned search (top-10 entropy guesses per node), if the exact
   search runs out of time;
3. ``entropy`` -- the max-entropy guess (also the first move when no optimum is stored, so the
   first answer is instant).

The returned ``expected_total`` is the total number of further guesses summed over the remaining
candidates (divide by ``candidates`` for the average).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamelab.core.interactive import QUIT_WORDS, Session
from gamelab.wordle.pruned import PrunedSearch
from gamelab.wordle.rules import HARD_MODE_TEXT, Setting, parse_pattern, pattern_text
from gamelab.wordle.solver.optimal import INF, OptimalSolver, SearchTimeout
from gamelab.wordle.solver.summary import stored_optimum
from gamelab.wordle.table import Game

LIST_LIMIT = 20


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


@dataclass
class NextGuess:
    """What :meth:`Assistant.advice` says about a history (``gamelab wordle next --json``)."""

    candidates: int
    history: list[str]  # the guesses and colours, as 'レントラー:00120'
    rule: str
    hard_mode: str  # off, game or strict
    mode: str  # the hard mode in words
    max_guesses: int  # the game's guess limit
    guesses_left: int
    remaining: list[str] | None  # the candidates, when at most LIST_LIMIT are left
    next: str | None  # None once solved
    method: str  # optimal, pruned, entropy or solved
    expected_total: int | None  # further guesses summed over the candidates (None: unknown)
    within_limit: bool  # the strategy behind `next` finishes within the guess limit


class Assistant:
    """Advice for one :class:`~gamelab.wordle.rules.Setting` (word list, rule, hard mode, guess
    limit); keeps the solver's memo between calls.

    The hard mode is None, "game" or "strict" (see
    :func:`gamelab.wordle.rules.hard_mode_allows`). Every recommendation comes with a strategy
    that finishes every remaining candidate within the setting's guess limit counting the
    guesses already made; when none is known, ``within_limit`` is False and the output says so.
    """

    def __init__(self, setting: Setting, time_limit: float = 20.0, store: Any = None) -> None:
        if setting.max_guesses is None:
            raise ValueError("the assistant plays a game with a guess limit")
        self.setting = setting
        self.game = game = Game.of(setting)
        self.hard = setting.hard
        self.max_guesses = setting.max_guesses
        self.time_limit = time_limit
        self.store = store
        # no limit of its own: each search is given the guesses left
        self._solver = OptimalSolver(setting.with_limit(None))
        self._pruned = PrunedSearch(game, max_depth=self.max_guesses)

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

    def advice(self, history: Sequence[tuple[int, int]]) -> NextGuess:
        game = self.game
        cands, pool = self.candidates(history)
        solved = (
            len(history) > 0
            and game.table[history[-1][0], cands[0]] == game.green
            and game.is_answer(history[-1][0], cands[0])
        )
        left = self.max_guesses - len(history)
        out = NextGuess(
            candidates=int(len(cands)),
            history=[
                f"{game.words.guesses[g]}:{pattern_text(c, len(game.words.guesses[g]))}"
                for g, c in history
            ],
            rule=game.rule,
            hard_mode=self.hard or "off",
            mode=HARD_MODE_TEXT[self.hard],
            max_guesses=self.max_guesses,
            guesses_left=max(left, 0),
            remaining=[game.words.answers[a] for a in cands] if len(cands) <= LIST_LIMIT else None,
            next=None,
            method="solved",
            expected_total=0,
            within_limit=True,
        )
        if solved:
            return out
        if left <= 0:
            raise ValueError(
                f"the history already uses all {self.max_guesses} guesses the game "
                f"allows without finding the answer"
            )
        guess, total, method, within = self._best(cands, pool, history, left)
        out.next, out.method = game.words.guesses[guess], method
        out.expected_total, out.within_limit = total, within
        return out

    def _best(
        self,
        cands: np.ndarray,
        pool: np.ndarray | None,
        history: Sequence[tuple[int, int]],
        left: int,
    ) -> tuple[int, int | None, str, bool]:
        """(guess, total guesses over the candidates, method, sure to finish within `left`)."""
        game = self.game
        first = not history
        known = stored_optimum(self.setting, self.store) if first else None
        if known is not None and known.proven and known.first_guesses:
            return game.words.check_guess(known.first_guesses[0]), known.total, "optimal", True
        if not first:
            import time

            self._solver._deadline = time.monotonic() + self.time_limit
            try:
                total, guess = self._solver.best_guess(cands, left, pool, list(history))
                if guess >= 0 and total < INF:
                    return guess, total, "optimal", True
                proven_infeasible = True
            except SearchTimeout:
                proven_infeasible = False
            if not self.hard and not proven_infeasible:
                total, guess = self._pruned.node_cost(cands, self.max_guesses - left + 1)
                if guess >= 0 and total < self._pruned_inf:
                    return guess, total, "pruned", True
        guess = _entropy_choice(game, cands, pool)
        if guess < 0:
            raise ValueError(f"no word is allowed as the next guess in {HARD_MODE_TEXT[self.hard]}")
        total, worst = greedy_play(game, cands, pool, self.hard, guess)
        return guess, total if worst <= left else None, "entropy", worst <= left

    @property
    def _pruned_inf(self) -> int:
        from gamelab.wordle.pruned import INF as PRUNED_INF

        return PRUNED_INF


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


def format_advice(advice: NextGuess) -> str:
    """The advice as text; the first line names the feedback rule and the mode in force."""
    lines = [
        f"{advice.candidates} candidate(s) left (rule {advice.rule}: "
        f"{RULE_TEXT.get(advice.rule, advice.rule)}; {advice.mode}; "
        f"{advice.guesses_left} guess(es) left)"
    ]
    if advice.remaining is not None:
        lines.append("  " + " ".join(advice.remaining))
    if advice.next is None:
        lines.append("solved")
        return "\n".join(lines)
    total = advice.expected_total
    extra = (
        ""
        if total is None
        else (
            f"; {total} more guesses in total over the candidates "
            f"(average {total / advice.candidates:.3f})"
        )
    )
    lines.append(f"next guess: {advice.next} ({advice.method}{extra})")
    if not advice.within_limit:
        lines.append(
            f"warning: no strategy found that is sure to finish within the "
            f"{advice.max_guesses}-guess limit from here"
        )
    return "\n".join(lines)


ASSIST_HELP = """Type each guess and the colours the game showed, e.g.
  レントラー 00120      0 grey, 1 yellow, 2 green (or ⬛🟨🟩, 灰黄緑, b/y/g); 'レントラー:00120' too
  the guess may be typed in katakana, hiragana or half-width katakana
  undo    take back the last guess
  reset   start again
  help    this text
  q, quit leave"""


class GuessSession(Session):
    """The line handling both terminal assistants share: quit, help, undo, reset, or a guess and
    its colours. A guess joins the history only once its advice is computed (:meth:`advise`
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
        if word in QUIT_WORDS:
            self.finished = True
            return ""
        if word in ("help", "h", "?"):
            return self.help_text
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


class AssistSession(GuessSession):
    """``gamelab wordle assist`` on a custom word list as a
    :class:`gamelab.core.interactive.Session` (injectable I/O)."""

    prompt = "guess and colours (e.g. レントラー 00120), undo, reset, help or quit> "
    help_text = ASSIST_HELP

    def __init__(self, assistant: Assistant) -> None:
        self.assistant = assistant
        self.history: list[tuple[int, int]] = []
        self.finished = False

    def intro(self) -> str:
        game = self.assistant.game
        head = (
            f"Wordle assistant: word list {game.words.name}, rule {game.rule} "
            f"({RULE_TEXT.get(game.rule, game.rule)}), {HARD_MODE_TEXT[self.assistant.hard]}, "
            f"at most {self.assistant.max_guesses} guesses."
        )
        return "\n".join([head, ASSIST_HELP, format_advice(self.assistant.advice(self.history))])

    def entry(self, text: str) -> tuple[int, int]:
        return parse_entry(self.assistant.game, text)

    def advise(self, history: list[Any]) -> tuple[str, bool]:
        advice = self.assistant.advice(history)  # raises (history kept) on a contradiction
        self.history = history
        return format_advice(advice), advice.next is None
