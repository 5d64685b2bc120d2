"""The assistant: what a history of guesses and colours leaves, and the best next guess.

Best next guess, in order of preference:

1. ``optimal`` -- the proven-optimal move for the remaining candidates (the solver of
   :mod:`gamelab.wordle.optimal` on that node, within `time_limit`; at the very start the stored
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
from collections.abc import Sequence
from typing import Any

import numpy as np

from gamelab.wordle.optimal import INF, OptimalSolver, SearchTimeout, summary_params
from gamelab.wordle.pruned import PrunedSearch
from gamelab.wordle.rules import parse_pattern, pattern_text
from gamelab.wordle.table import Game

LIST_LIMIT = 20


class ContradictionError(ValueError):
    """No answer fits the history; the message names the first guess that contradicts."""


def parse_entry(game: Game, text: str) -> tuple[int, int]:
    """'レントラー:00120' or 'レントラー 00120' (or with ⬛🟨🟩) -> (guess index, pattern code)."""
    parts = [p for p in re.split(r"[:\s]+", text.strip()) if p]
    if len(parts) < 2:
        raise ValueError(f"history entry {text!r} needs a guess and its colours, e.g. レントラー:00120")
    word, colours = parts[0], "".join(parts[1:])
    g = game.words.check_guess(word)
    return g, parse_pattern(colours, len(word))


def parse_history(game: Game, text: str | Sequence[str]) -> list[tuple[int, int]]:
    entries = text.split(",") if isinstance(text, str) else list(text)
    return [parse_entry(game, e) for e in entries if e.strip()]


class Assistant:
    """Advice for one word list, rule and mode; keeps the solver's memo between calls."""

    def __init__(self, game: Game, hard: bool = False, time_limit: float = 20.0, store: Any = None) -> None:
        self.game = game
        self.hard = hard
        self.time_limit = time_limit
        self.store = store
        self._solver = OptimalSolver(game, hard=hard)
        self._pruned = PrunedSearch(game)

    def candidates(self, history: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray | None]:
        """Remaining answers (and, in hard mode, the words still allowed as guesses)."""
        game = self.game
        cands = game.all_answers()
        pool = np.arange(len(game.full_length_guesses), dtype=np.int32) if self.hard else None
        for step, (g, code) in enumerate(history, 1):
            left = game.filter(cands, g, code)
            if len(left) == 0:
                word = game.words.guesses[g]
                shown = f"{word} {pattern_text(code, len(word))}"
                why = ("no answer shows these colours" if step == 1 else
                       f"none of the {len(cands)} answers left by the earlier guesses shows these colours")
                raise ContradictionError(
                    f"no answer fits the history: guess {step} ({shown}) is the first that "
                    f"contradicts it: {why}")
            cands = left
            if pool is not None:
                pool = pool[game.hard_table[g, pool] == code]
        return cands, pool

    def advice(self, history: Sequence[tuple[int, int]]) -> dict[str, Any]:
        game = self.game
        cands, pool = self.candidates(history)
        solved = len(history) > 0 and game.table[history[-1][0], cands[0]] == game.green \
            and game.is_answer(history[-1][0], cands[0])
        out: dict[str, Any] = {"candidates": int(len(cands)), "history": [
            f"{game.words.guesses[g]}:{pattern_text(c, len(game.words.guesses[g]))}" for g, c in history]}
        if len(cands) <= LIST_LIMIT:
            out["remaining"] = [game.words.answers[a] for a in cands]
        if solved:
            out.update(next=None, method="solved", expected_total=0)
            return out
        guess, total, method = self._best(cands, pool, first=not history)
        out.update(next=game.words.guesses[guess], method=method, expected_total=total)
        return out

    def _best(self, cands: np.ndarray, pool: np.ndarray | None, first: bool) -> tuple[int, int | None, str]:
        game = self.game
        if first and self.store is not None:
            done = self.store.finished("wordle-optimal", summary_params(game, self.hard, None))
            if 0 in done and done[0].get("proven"):
                return game.words.check_guess(done[0]["first_guesses"][0]), done[0]["total"], "optimal"
        if not first:
            import time

            self._solver._deadline = time.monotonic() + self.time_limit
            try:
                total, guess = self._solver.best_guess(cands, None, pool)
                if guess >= 0 and total < INF:
                    return guess, total, "optimal"
            except SearchTimeout:
                pass
        if not self.hard and not first:
            total, guess = self._pruned.node_cost(cands, 1)
            if guess >= 0 and total < INF:
                return guess, total, "pruned"
        ent = game.entropies(cands)
        if pool is not None:
            allowed = game.words.guess_index
            options = [allowed[game.full_length_guesses[p]] for p in pool]
            guess = max(options, key=lambda g: (ent[g], -g))
        else:
            guess = int(np.argmax(ent))
        return guess, None, "entropy"
