"""The guess x answer feedback table that drives every search.

``Game(words, rule)`` holds the word list, the rule and ``table[g, a]`` = pattern code of guess
g against answer a (uint8 up to five characters, else uint16; see :mod:`gamelab.wordle.rules`). Built by a numba kernel in a few
milliseconds for 493 x 285 and kept in the gamelab cache.

    >>> from gamelab.wordle.rules import parse_names
    >>> game = Game(load_word_list(parse_names("gen1-4")), "blog")
    >>> game.table.shape
    (493, 285)
"""

from __future__ import annotations

from functools import cached_property, lru_cache

import numpy as np

from gamelab.core.cache import cached_arrays
from gamelab.wordle import _kernels
from gamelab.wordle.rules import (  # noqa: F401 (load_word_list: doctest)
    FeedbackRule,
    Setting,
    WordList,
    load_word_list,
    pattern_colours,
)

TABLE_VERSION = 2  # 2: uint8 when the patterns fit


def rule_id(rule: FeedbackRule) -> int:
    """The kernels' number for a feedback rule."""
    return _kernels.RULE_STANDARD if rule == FeedbackRule.STANDARD else _kernels.RULE_BLOG


def build_table(
    words: WordList, rule: FeedbackRule, targets: tuple[str, ...] | None = None
) -> np.ndarray:
    """Pattern codes of every guess against every target (default: the answers), under a
    :class:`Game`'s rule."""
    gcodes, glens = words.encode(words.guesses)
    acodes, alens = words.encode(words.answers if targets is None else targets)
    table = _kernels.feedback_table_kernel(gcodes, glens, acodes, alens, rule_id(rule))
    # one byte per pattern when they fit (five characters: 243 patterns): half the memory
    return table.astype(np.uint8) if 3**words.length <= 256 else table


class Game:
    """A word list under one feedback rule, with its feedback table."""

    def __init__(self, words: WordList, rule: FeedbackRule = FeedbackRule.STANDARD) -> None:
        self.words = words
        self.rule = FeedbackRule(rule)  # (a rule's name becomes its member here)
        self.rule_id = rule_id(self.rule)  # the kernels' number for it
        self.n_codes = 3**words.length
        self.green = self.n_codes - 1
        self.answer_of_guess = words.answer_of_guess
        self.guess_of_answer = words.guess_of_answer

    @staticmethod
    def of(setting: Setting) -> Game:
        """The setting's game (its word list and rule), one per process: the analysis API's
        way from a :class:`~gamelab.wordle.rules.Setting` to the table."""
        words = setting.words
        return _game(words, words.guess_limit, setting.rule)

    @cached_property
    def table(self) -> np.ndarray:
        params = {"words": self.words.fingerprint(), "rule": self.rule}
        arrays = cached_arrays(
            "wordle-feedback",
            params,
            TABLE_VERSION,
            lambda: {"table": build_table(self.words, self.rule)},
        )
        return arrays["table"]

    @cached_property
    def by_answer(self) -> np.ndarray:
        """The table transposed, answers x guesses, contiguous (the exact search reads one row
        per candidate); kept in the cache too, as transposing 30 MB costs more than reading it."""
        if self.n_codes > 256:
            return np.ascontiguousarray(self.table.T)
        params = {"words": self.words.fingerprint(), "rule": self.rule}
        arrays = cached_arrays(
            "wordle-feedback-by-answer",
            params,
            TABLE_VERSION,
            lambda: {"table": np.ascontiguousarray(self.table.T)},
        )
        return arrays["table"]

    @cached_property
    def guess_codes(self) -> tuple[np.ndarray, np.ndarray]:
        """The guesses as alphabet indices and lengths (:meth:`WordList.encode`)."""
        return self.words.encode(self.words.guesses)

    @cached_property
    def full_length_index(self) -> np.ndarray:
        """Guess indices of the full-length guesses (the words hard mode allows)."""
        return np.array(
            [self.words.guess_index[w] for w in self.full_length_guesses], dtype=np.int32
        )

    @cached_property
    def _full_length_codes(self) -> tuple[np.ndarray, np.ndarray]:
        return self.words.encode(self.full_length_guesses)

    def full_pool(self) -> np.ndarray:
        """Every full-length guess, as positions in :attr:`full_length_guesses` (a hard-mode pool)."""
        return np.arange(len(self.full_length_guesses), dtype=np.int32)

    def hard_demands(self, history) -> tuple[np.ndarray, np.ndarray]:
        """The game's hard-mode demands after `history` [(guess, code), ...]: the letter (alphabet
        index) each green position must hold (-1: none) and the least copies of each letter."""
        green = np.full(self.words.length, -1, dtype=np.int64)
        need = np.zeros(len(self.words.alphabet), dtype=np.int64)
        codes, lens = self.guess_codes
        for g, code in history:
            gcodes, glens = codes[g : g + 1], lens[g : g + 1]
            colours = pattern_colours(code, int(glens[0]))
            count: dict[int, int] = {}
            for j, c in enumerate(colours):
                letter = int(gcodes[0, j])
                if c == 2:
                    green[j] = letter
                if c != 0:
                    count[letter] = count.get(letter, 0) + 1
            for letter, k in count.items():
                need[letter] = max(need[letter], k)
        return green, need

    def hard_pool(self, guess: int, code: int, pool: np.ndarray, hard: str | None) -> np.ndarray:
        """The part of `pool` (positions in :attr:`full_length_guesses`) still allowed after
        `guess` showed pattern `code`, under hard mode `hard` (see
        :func:`gamelab.wordle.rules.hard_mode_allows`; None: normal mode, all of `pool`)."""
        wcodes, wlens = self._full_length_codes
        pool = np.asarray(pool, dtype=np.int32)
        if hard is None:
            return pool
        gcodes, glens = (
            self.guess_codes[0][guess : guess + 1],
            self.guess_codes[1][guess : guess + 1],
        )
        if hard == "strict":
            row = _kernels.feedback_table_kernel(
                gcodes, glens, wcodes[pool], wlens[pool], self.rule_id
            )[0]
            return pool[row == code]
        colours = pattern_colours(code, int(glens[0]))
        keep = np.ones(len(pool), dtype=bool)
        need: dict[int, int] = {}
        for j, c in enumerate(colours):
            letter = int(gcodes[0, j])
            if c == 2:
                keep &= wcodes[pool, j] == letter
            if c != 0:
                need[letter] = need.get(letter, 0) + 1
        counts = self._full_length_letter_counts
        for letter, k in need.items():
            keep &= counts[pool, letter] >= k
        return pool[keep]

    @cached_property
    def _full_length_letter_counts(self) -> np.ndarray:
        """[word, letter] -> copies of the letter in each full-length guess."""
        wcodes, _ = self._full_length_codes
        counts = np.zeros((len(wcodes), len(self.words.alphabet)), dtype=np.int8)
        rows = np.repeat(np.arange(len(wcodes)), wcodes.shape[1])
        flat = wcodes.reshape(-1)
        ok = flat >= 0
        np.add.at(counts, (rows[ok], flat[ok]), 1)
        return counts

    @cached_property
    def full_length_guesses(self) -> tuple[str, ...]:
        return tuple(g for g in self.words.guesses if len(g) == self.words.length)

    @property
    def n_guesses(self) -> int:
        return len(self.words.guesses)

    @property
    def n_answers(self) -> int:
        return len(self.words.answers)

    def all_answers(self) -> np.ndarray:
        return np.arange(self.n_answers, dtype=np.int32)

    def entropies(self, subset: np.ndarray | None = None) -> np.ndarray:
        """Entropy (bits) of every guess's feedback partition of `subset` (default: all)."""
        subset = self.all_answers() if subset is None else np.asarray(subset, dtype=np.int32)
        return _kernels.entropy_kernel(self.table, subset, self.n_codes)

    def best_entropy_guess(self, subset: np.ndarray) -> int:
        """Max-entropy guess over all guesses, ties to the lowest index (dex)."""
        return int(np.argmax(self.entropies(subset)))

    def partition(self, guess: int, subset: np.ndarray) -> dict[int, np.ndarray]:
        """Answers of `subset` by the pattern they show for `guess` (codes ascending)."""
        subset = np.asarray(subset, dtype=np.int32)
        codes, starts, members = _kernels.partition_kernel(self.table, guess, subset, self.n_codes)
        bounds = starts.tolist()
        return {c: members[bounds[j] : bounds[j + 1]] for j, c in enumerate(codes.tolist())}

    def is_answer(self, guess: int, answer: int) -> bool:
        return self._answer_of_guess_list[guess] == answer

    @cached_property
    def _answer_of_guess_list(self) -> list[int]:
        return self.answer_of_guess.tolist()

    def filter(self, subset: np.ndarray, guess: int, code: int) -> np.ndarray:
        subset = np.asarray(subset, dtype=np.int32)
        return subset[self.table[guess, subset] == code]


@lru_cache(maxsize=8)
def _game(words: WordList, guess_limit: int, rule: FeedbackRule) -> Game:
    """One game per list (and its guess limit, which word-list equality ignores) and rule."""
    return Game(words, rule)
