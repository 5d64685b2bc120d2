"""The game: word lists, the two feedback rules and the pattern codes (the guess x answer
feedback table is built in :mod:`gamelab.wordle.table`).

Feedback colours are 0 = grey, 1 = yellow, 2 = green, one per guess character. A pattern is
stored as the base-3 number whose most significant digit is the first character, so sorting
codes sorts patterns the way the blog lists them (灰灰灰灰灰, 灰灰灰灰黄, ...). A guess shorter
than the answers is compared position-wise with the first ``len(guess)`` answer characters.

Rules (see docs/wordle.md):

* ``standard`` -- real Wordle: greens first, then each remaining guess character (left to right)
  is yellow while an unmatched copy of it is left in the answer.
* ``blog`` -- the code of the post "ポケモンwordleで最強のポケモンは誰か" (Qiita, 2023): greens
  first, then for each answer position i the first still-grey guess position holding
  ``answer[i]`` turns yellow, even if answer[i] was already matched green.

    >>> feedback("キノココ", "チコリータ", rule="standard")
    (0, 0, 1, 0)
    >>> feedback("ココ", "コイキング", rule="blog")   # answer's green コ makes the second コ yellow
    (2, 1)
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path

import numpy as np

RULES = ("standard", "blog")
HARD_MODES = ("game", "strict")
HARD_MODE_TEXT = {
    None: "normal mode",
    "game": "hard mode (the game's rule: greens stay in place, yellows are reused)",
    "strict": "strict hard mode (every later guess could still be the answer)",
}
POKEMON_GUESS_LIMIT = 10  # Pokémon Wordle (seed post): 10 guesses
WORDLE_GUESS_LIMIT = 6  # English Wordle, and the default for custom word lists
GREY, YELLOW, GREEN = 0, 1, 2
MAX_LENGTH = 10  # 3**10 patterns still fit in uint16
GENERATION_DEX = {
    1: (1, 151),
    2: (152, 251),
    3: (252, 386),
    4: (387, 493),
    5: (494, 649),
    6: (650, 721),
    7: (722, 809),
    8: (810, 905),
    9: (906, 1025),
}
POKEMON_ANSWER_LENGTH = 5

_COLOUR_CHARS = {
    "0": 0,
    "1": 1,
    "2": 2,
    "⬛": 0,
    "⬜": 0,
    "🟨": 1,
    "🟩": 2,
    "灰": 0,
    "黄": 1,
    "緑": 2,
    "b": 0,
    "y": 1,
    "g": 2,
    "B": 0,
    "Y": 1,
    "G": 2,
    "x": 0,
    "-": 0,
    ".": 0,
}


def check_rule(rule: str) -> str:
    if rule not in RULES:
        raise ValueError(f"unknown feedback rule {rule!r}; allowed: {', '.join(RULES)}")
    return rule


def check_hard_mode(hard: str | bool | None) -> str | None:
    """None (normal), "game" or "strict"; True means the game's rule, False normal mode."""
    if hard is None or hard is False:
        return None
    if hard is True:
        return "game"
    if hard not in HARD_MODES:
        raise ValueError(
            f"unknown hard mode {hard!r}; allowed: {', '.join(HARD_MODES)} "
            "(game: greens stay in place and yellows are reused; strict: every "
            "later guess could still be the answer)"
        )
    return hard


def hard_mode_allows(guess: str, colours: Sequence[int], word: str, hard: str, rule: str) -> bool:
    """May `word` be guessed after `guess` showed `colours`, in hard mode `hard`?

    * ``game`` (the game's own hard mode): every green letter stays in its place and every
      revealed letter is used again: `word` has at least as many copies of each letter as
      `guess` showed green or yellow; grey letters may be reused.
    * ``strict``: `word` would itself have shown exactly these colours (it could be the answer).

    Hard mode allows full-length words only.

        >>> hard_mode_allows("salet", (2, 0, 1, 0, 0), "solid", "game", "standard")
        True
        >>> hard_mode_allows("salet", (2, 0, 1, 0, 0), "sheep", "strict", "standard")
        False
    """
    mode = check_hard_mode(hard)
    if mode is None:
        return True
    if len(word) < len(guess):
        return False
    if mode == "strict":
        return feedback(guess, word, rule) == tuple(colours)
    for j, c in enumerate(colours):
        if c == GREEN and word[j] != guess[j]:
            return False
    need: dict[str, int] = {}
    for ch, c in zip(guess, colours, strict=True):
        if c != GREY:
            need[ch] = need.get(ch, 0) + 1
    return all(word.count(ch) >= k for ch, k in need.items())


def feedback(guess: str, answer: str, rule: str = "standard") -> tuple[int, ...]:
    """The colours (0 grey, 1 yellow, 2 green) shown for `guess` when the answer is `answer`."""
    check_rule(rule)
    if len(guess) > len(answer):
        raise ValueError(f"guess {guess!r} is longer than the answer {answer!r}")
    colours = [GREEN if g == a else GREY for g, a in zip(guess, answer, strict=False)]
    if rule == "standard":
        used = [i < len(guess) and guess[i] == answer[i] for i in range(len(answer))]
        for j, ch in enumerate(guess):
            if colours[j] == GREEN:
                continue
            for i, a in enumerate(answer):
                if not used[i] and a == ch:
                    used[i] = True
                    colours[j] = YELLOW
                    break
    else:
        for a in answer:
            for j, ch in enumerate(guess):
                if colours[j] == GREY and ch == a:
                    colours[j] = YELLOW
                    break
    return tuple(colours)


def pattern_code(colours: Sequence[int]) -> int:
    """Base-3 code of a colour tuple, first character most significant."""
    code = 0
    for c in colours:
        code = code * 3 + int(c)
    return code


def pattern_colours(code: int, length: int) -> tuple[int, ...]:
    out = []
    for _ in range(length):
        out.append(code % 3)
        code //= 3
    return tuple(reversed(out))


def pattern_text(code: int, length: int, style: str = "digits") -> str:
    """A pattern as digits ("00120"), squares (⬛🟨🟩) or the blog's kanji (灰黄緑)."""
    symbols = {"digits": "012", "squares": "⬛🟨🟩", "kanji": "灰黄緑"}[style]
    return "".join(symbols[c] for c in pattern_colours(code, length))


def parse_pattern(text: str, length: int) -> int:
    """Parse colours typed by a user (digits 0/1/2, ⬛🟨🟩, 灰黄緑 or b/y/g) into a code."""
    chars = [c for c in text.strip() if not c.isspace() and c != "\ufe0f"]
    try:
        colours = [_COLOUR_CHARS[c] for c in chars]
    except KeyError as exc:
        raise ValueError(
            f"bad colour {exc.args[0]!r} in {text!r}; use 0/1/2, ⬛🟨🟩, 灰黄緑 or b/y/g"
        ) from None
    if len(colours) != length:
        raise ValueError(
            f"feedback {text!r} has {len(colours)} colours; the guess has {length} characters"
        )
    return pattern_code(colours)


@dataclass(frozen=True)
class WordList:
    """Allowed guesses and possible answers (answers are all guessable and of one length).

    `guesses` keeps the given order (dex order for Pokémon), which is the tie-break order of
    every search ("ties to the lowest dex").
    """

    name: str
    guesses: tuple[str, ...]
    answers: tuple[str, ...]
    dex: tuple[int, ...] = field(default=(), compare=False)
    guess_limit: int = field(default=WORDLE_GUESS_LIMIT, compare=False)  # the game's limit

    def __post_init__(self) -> None:
        if not self.answers:
            raise ValueError(f"word list {self.name!r} has no answers")
        if not self.guesses:
            raise ValueError(f"word list {self.name!r} has no guesses")
        for kind, words in (("guess", self.guesses), ("answer", self.answers)):
            if len(set(words)) != len(words):
                dup = next(w for w in words if words.count(w) > 1)
                raise ValueError(
                    f"{kind} list of {self.name!r} repeats {dup!r}; words must be unique"
                )
            if any(not w for w in words):
                raise ValueError(f"{kind} list of {self.name!r} has an empty word")
        length = len(self.answers[0])
        bad = [a for a in self.answers if len(a) != length]
        if bad:
            raise ValueError(f"answers must all have one length; {bad[0]!r} is not {length} long")
        if self.guess_limit < 1:
            raise ValueError(f"guess limit must be at least 1, got {self.guess_limit}")
        if length > MAX_LENGTH:
            raise ValueError(f"answers of {length} characters; at most {MAX_LENGTH} are supported")
        long = [g for g in self.guesses if len(g) > length]
        if long:
            raise ValueError(f"guess {long[0]!r} is longer than the answers ({length}); drop it")
        missing = [a for a in self.answers if a not in self.guess_index]
        if missing:
            raise ValueError(
                f"answer {missing[0]!r} is not an allowed guess; add it to the guesses"
            )

    @property
    def length(self) -> int:
        return len(self.answers[0])

    @cached_property
    def guess_index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.guesses)}

    @cached_property
    def answer_index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.answers)}

    @cached_property
    def answer_of_guess(self) -> np.ndarray:
        """For each guess, the index of the same word among the answers, or -1."""
        return np.array([self.answer_index.get(g, -1) for g in self.guesses], dtype=np.int32)

    @cached_property
    def guess_of_answer(self) -> np.ndarray:
        return np.array([self.guess_index[a] for a in self.answers], dtype=np.int32)

    @cached_property
    def alphabet(self) -> tuple[str, ...]:
        return tuple(sorted(set("".join(self.guesses)) | set("".join(self.answers))))

    def encode(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Words as an int32 matrix of alphabet indices (padded with -1) and their lengths."""
        index = {c: i for i, c in enumerate(self.alphabet)}
        lengths = np.fromiter(map(len, words), dtype=np.int32, count=len(words))
        for w in words:
            if len(w) > self.length:
                raise ValueError(f"{w!r} is longer than the answers ({self.length})")
        try:
            flat = [index[c] for w in words for c in w]
        except KeyError as exc:
            bad = next(w for w in words if exc.args[0] in w)
            raise ValueError(f"{bad!r} uses {exc.args[0]!r}, which is in no listed word") from None
        codes = np.full((len(words), self.length), -1, dtype=np.int32)
        codes[np.arange(self.length) < lengths[:, None]] = flat  # row by row, left to right
        return codes, lengths

    def fingerprint(self) -> str:
        text = "\n".join(self.guesses) + "\n\n" + "\n".join(self.answers)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def check_guess(self, word: str) -> int:
        if word not in self.guess_index:
            raise ValueError(f"{word!r} is not an allowed guess in word list {self.name!r}")
        return self.guess_index[word]


def pokemon_names() -> list[tuple[int, str, str, int]]:
    """(dex, Japanese name, English name, generation) for every species, from the package data."""
    with (
        resources.files("gamelab.wordle")
        .joinpath("data/pokemon_names.csv")
        .open(encoding="utf-8") as f
    ):
        return [
            (int(r["dex"]), r["name_ja"], r["name_en"], int(r["generation"]))
            for r in csv.DictReader(f)
        ]


_GEN = re.compile(r"^gen(\d)(?:-(\d))?$")


def pokemon_word_list(spec: str) -> WordList:
    """`gen1-4` (the blog: guesses dex 1-493, answers the 285 five-character names), `genN`,
    `genN-M` or `all` (dex 1-1025). Names longer than 5 characters cannot be guessed."""
    m = _GEN.match(spec)
    if spec == "all":
        lo, hi = 1, 1025
    elif m:
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if not (1 <= a <= b <= 9):
            raise ValueError(f"bad generation range {spec!r}; generations are 1..9, e.g. gen1-4")
        lo, hi = GENERATION_DEX[a][0], GENERATION_DEX[b][1]
    else:
        raise ValueError(
            f"unknown word list {spec!r}; use gen1-4, genN, genN-M, all or --guesses/--answers FILE"
        )
    rows = [r for r in pokemon_names() if lo <= r[0] <= hi and len(r[1]) <= POKEMON_ANSWER_LENGTH]
    guesses = tuple(r[1] for r in rows)
    answers = tuple(g for g in guesses if len(g) == POKEMON_ANSWER_LENGTH)
    return WordList(
        spec, guesses, answers, dex=tuple(r[0] for r in rows), guess_limit=POKEMON_GUESS_LIMIT
    )


#: Largest word file read: a million words of a few characters.
MAX_WORD_FILE_BYTES = 16 * 1024 * 1024


def read_words(path: Path) -> list[str]:
    """One word per line; blank lines and lines starting with # are skipped."""
    from gamelab.core.files import read_text_file

    text = read_text_file(path, "word file", MAX_WORD_FILE_BYTES)
    words = [w.strip() for w in text.splitlines()]
    words = [w for w in words if w and not w.startswith("#")]
    if not words:
        raise ValueError(f"word file {path} has no words")
    return list(dict.fromkeys(words))


def load_word_list(
    names: str = "gen1-4", guesses_file: Path | None = None, answers_file: Path | None = None
) -> WordList:
    """A Pokémon list by name, or a custom list from files (answers are added to the guesses)."""
    if guesses_file is None and answers_file is None:
        return pokemon_word_list(names)
    if answers_file is None:
        raise ValueError("--guesses needs --answers too (the possible answers, one per line)")
    answers = tuple(read_words(answers_file))
    guesses = read_words(guesses_file) if guesses_file is not None else []
    known = set(guesses)
    extra = [a for a in answers if a not in known]
    return WordList(f"custom:{Path(answers_file).name}", tuple(guesses + extra), answers)


def consistent(words: WordList, history: Sequence[tuple[str, int]], rule: str) -> list[int]:
    """Indices of the answers that fit every (guess, pattern code) in `history`."""
    out = []
    for i, a in enumerate(words.answers):
        if all(pattern_code(feedback(g, a, rule)) == code for g, code in history):
            out.append(i)
    return out
