"""The game: word lists, feedback rules, pattern codes (the table: :mod:`gamelab.wordle.table`).

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
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from gamelab.core.choices import NamedChoice
from gamelab.wordle.patterns import parse_pattern as parse_pattern
from gamelab.wordle.patterns import pattern_code as pattern_code
from gamelab.wordle.patterns import pattern_colours as pattern_colours
from gamelab.wordle.patterns import pattern_text as pattern_text

RULES = ("standard", "blog")
HARD_MODES = ("game", "strict")
HARD_MODE_TEXT = {
    None: "normal mode",
    "game": "hard mode (the game's rule: greens stay in place, yellows are reused)",
    "strict": "strict hard mode (every later guess could still be the answer)",
}
POKEMON_GUESS_LIMIT = 10  # Pokémon Wordle (seed post): 10 guesses
WORDLE_GUESS_LIMIT = 6  # English Wordle, and the default for custom word lists
MAX_GUESS_LIMIT = 20  # the largest guess limit a setting takes
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


def _hard_mode_error(hard: object) -> str:
    return (
        f"unknown hard mode {hard!r}; allowed: {', '.join(HARD_MODES)} "
        "(game: greens stay in place and yellows are reused; strict: every "
        "later guess could still be the answer)"
    )


class FeedbackRule(NamedChoice, noun="feedback rule"):
    """A feedback rule by its name (:data:`RULES`; :class:`~gamelab.core.choices.NamedChoice`):
    ``FeedbackRule("blog")`` is the parse; a member is its name in JSON, keys and comparisons."""

    STANDARD = "standard"
    BLOG = "blog"


def check_hard_mode(hard: str | bool | None) -> str | None:
    """None (normal), "game" or "strict"; True means the game's rule, False normal mode."""
    if hard is None or hard is False:
        return None
    if hard is True:
        return "game"
    if hard not in HARD_MODES:
        raise ValueError(_hard_mode_error(hard))
    return hard


def hard_mode_allows(
    guess: str, colours: Sequence[int], word: str, hard: str | None, rule: FeedbackRule
) -> bool:
    """May `word` be guessed after `guess` showed `colours`, in hard mode `hard`?

    * ``game`` (the game's own hard mode): every green letter stays in its place and every
      revealed letter is used again: `word` has at least as many copies of each letter as
      `guess` showed green or yellow; grey letters may be reused.
    * ``strict``: `word` would itself have shown exactly these colours (it could be the answer).

    Hard mode allows full-length words only.

        >>> hard_mode_allows("salet", (2, 0, 1, 0, 0), "solid", "game", FeedbackRule.STANDARD)
        True
        >>> hard_mode_allows("salet", (2, 0, 1, 0, 0), "sheep", "strict", FeedbackRule.STANDARD)
        False
    """
    mode = hard  # a Setting's hard mode: None, "game" or "strict"
    if mode is None:
        return True
    if mode not in HARD_MODES:
        raise ValueError(_hard_mode_error(mode))
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


def feedback(guess: str, answer: str, rule: str = FeedbackRule.STANDARD) -> tuple[int, ...]:
    """The colours (0 grey, 1 yellow, 2 green) shown for `guess` when the answer is `answer`,
    under `rule` (a :class:`FeedbackRule`, or its name: a member is its name)."""
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
    elif rule == "blog":
        for a in answer:
            for j, ch in enumerate(guess):
                if colours[j] == GREY and ch == a:
                    colours[j] = YELLOW
                    break
    else:
        raise ValueError(f"unknown feedback rule {rule!r}; allowed: {', '.join(RULES)}")
    return tuple(colours)


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
    #: the name of the list's content, for caches (a Pokémon setting's canonical spec:
    #: ``upto-gen9`` is ``all``); default `name`
    key: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", self.name)
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
_UPTO = re.compile(r"^upto-gen(\d)$")
ALL_DEX = (1, 1025)
DEX_2022 = 898  # the live game's guess list when the seed post was written (Sword/Shield)


def _gen_range(spec: str) -> tuple[int, int] | None:
    m = _GEN.match(spec)
    if spec == "all":
        return ALL_DEX
    if not m:
        return None
    a, b = int(m.group(1)), int(m.group(2) or m.group(1))
    if not (1 <= a <= b <= 9):
        raise ValueError(f"bad generation range {spec!r}; generations are 1..9, e.g. gen1-4")
    return GENERATION_DEX[a][0], GENERATION_DEX[b][1]


def _gen_spec(dex: tuple[int, int]) -> str:
    """The shortest spec of a dex range on generation boundaries (``all``, ``gen5``, ``gen1-4``)."""
    if dex == ALL_DEX:
        return "all"
    first = next(g for g, (lo, _) in GENERATION_DEX.items() if lo == dex[0])
    last = next(g for g, (_, hi) in GENERATION_DEX.items() if hi == dex[1])
    return f"gen{first}" if first == last else f"gen{first}-{last}"


@dataclass(frozen=True)
class NameSetting:
    """Which species may be the answer and which may be guessed: two national-dex ranges.

    The answers are the five-character names of `answers_dex`; the guesses every name of at most
    five characters of `guesses_dex` (longer names cannot be entered), in dex order (the
    tie-break order of every search). Built once at the edge by :func:`parse_names` from a spec
    (``daily``, ``upto-gen5``, ``gen1-4``, ``gen1-4/all`` ...) and passed down as this frozen,
    hashable value; the constructor checks the ranges.

        >>> parse_names("daily").answers_dex, parse_names("daily").guesses_dex
        ((1, 493), (1, 1025))
        >>> parse_names("upto-gen9").canonical, parse_names("gen1-4/all").canonical
        ('all', 'daily')
    """

    answers_dex: tuple[int, int]
    guesses_dex: tuple[int, int]
    name: str = ""  # what the player chose (default: the canonical spec)

    def __post_init__(self) -> None:
        for kind, (lo, hi) in (("answer", self.answers_dex), ("guess", self.guesses_dex)):
            if not (ALL_DEX[0] <= lo <= hi <= ALL_DEX[1]):
                raise ValueError(
                    f"bad {kind} range dex {lo}-{hi}; the national dex runs {ALL_DEX[0]}-{ALL_DEX[1]}"
                )
        (alo, ahi), (glo, ghi) = self.answers_dex, self.guesses_dex
        if not (glo <= alo and ahi <= ghi):
            raise ValueError(
                f"answers dex {alo}-{ahi} must lie within the guesses dex {glo}-{ghi} "
                "(every answer can be guessed)"
            )
        if not self.name:
            object.__setattr__(self, "name", self.canonical)

    @property
    def canonical(self) -> str:
        """One spec per content: ``upto-gen9`` is ``all``, ``upto-gen4`` is ``daily`` (the key
        of cached and shipped strategies, so equal lists share them)."""
        if self.answers_dex == self.guesses_dex:
            return _gen_spec(self.answers_dex)
        for spec, *_ in _NAMED:
            if spec in _LIVE_RANGES and _LIVE_RANGES[spec] == (self.answers_dex, self.guesses_dex):
                return spec
        return f"{_gen_spec(self.answers_dex)}/{_gen_spec(self.guesses_dex)}"

    def with_guesses(self, guesses: NameSetting) -> NameSetting:
        """These answers, the guesses of `guesses` (``--answers-names A --guesses-names G``)."""
        return NameSetting(self.answers_dex, guesses.guesses_dex, f"{self.name}/{guesses.name}")


def _live_ranges() -> dict[str, tuple[tuple[int, int], tuple[int, int]]]:
    post = _gen_range("gen1-4")
    assert post is not None
    out = {"daily": (post, ALL_DEX), "daily-2022": (post, (1, DEX_2022))}
    for n in GENERATION_DEX:
        out[f"upto-gen{n}"] = ((1, GENERATION_DEX[n][1]), ALL_DEX)
    return out


_LIVE_RANGES = _live_ranges()

#: the named settings a player chooses from (spec, player-facing label, short label for a narrow
#: screen), the live game first
_NAMED: tuple[tuple[str, str, str], ...] = (
    (
        "daily",
        "Today's answer: generations 1-4 answers, any species may be guessed",
        "Today's answer",
    ),
    *(
        (
            f"upto-gen{n}",
            f"Endless, answers up to generation {n}"
            + (" (Kanto)" if n == 1 else f" (dex 1-{GENERATION_DEX[n][1]})")
            + ", any species may be guessed",
            f"Endless, up to gen {n}",
        )
        for n in GENERATION_DEX
    ),
    (
        "daily-2022",
        "Today's answer as in 2022: generations 1-4 answers, guesses up to dex 898",
        "Today's answer (2022)",
    ),
    (
        "gen1-4",
        "The blog post's setting: answers and guesses generations 1-4 only",
        "The post's setting",
    ),
)


@dataclass(frozen=True)
class NamedSetting:
    """One named word-list setting for a page's chooser: the spec `parse_names` takes, the
    parsed setting, a label for players and a short one (a few words, for a phone's chooser)."""

    spec: str
    label: str
    setting: NameSetting
    answers: int  # how many answers
    guesses: int  # how many guesses
    short_label: str


def named_settings() -> tuple[NamedSetting, ...]:
    """The named settings (the live game's ``daily`` and ``upto-gen1..9``, ``daily-2022`` and
    the post's ``gen1-4``), each with a player-facing label and its list sizes."""
    out = []
    for spec, label, short in _NAMED:
        setting = parse_names(spec)
        words = pokemon_word_list(setting)
        out.append(
            NamedSetting(spec, label, setting, len(words.answers), len(words.guesses), short)
        )
    return tuple(out)


NAMES_HELP = "daily, daily-2022, upto-gen1..upto-gen9, gen1-4 (the post), genN, genN-M or all"


def parse_names(spec: str) -> NameSetting:
    """A word-list spec as a :class:`NameSetting`: a named live setting (``daily``,
    ``daily-2022``, ``upto-genN``), ``all``, ``genN`` or ``genN-M`` (answers and guesses the
    same generations, as the post's ``gen1-4``), or ``ANSWERS/GUESSES`` (the answers of one
    spec, the guesses of another: ``gen1-4/all`` is ``daily``). Raises ValueError."""
    text = spec.strip()
    if "/" in text:
        a, _, g = text.partition("/")
        return NameSetting(parse_names(a).answers_dex, parse_names(g).guesses_dex, text)
    if text in _LIVE_RANGES:
        answers, guesses = _LIVE_RANGES[text]
        return NameSetting(answers, guesses, text)
    if _UPTO.match(text):
        raise ValueError(f"bad generation {text!r}; generations are 1..9, e.g. upto-gen5")
    dex = _gen_range(text)
    if dex is None:
        raise ValueError(f"unknown word list {spec!r}; use {NAMES_HELP}")
    return NameSetting(dex, dex, text)


POST_SETTING = NameSetting((1, 493), (1, 493), "gen1-4")  # the seed post's lists


@lru_cache(maxsize=64)
def pokemon_word_list(setting: NameSetting) -> WordList:
    """The word list of a setting (the post's ``gen1-4``: guesses dex 1-493, answers its 285
    five-character names). Names longer than 5 characters cannot be guessed."""
    if not isinstance(setting, NameSetting):
        raise TypeError(f"a NameSetting is needed (parse_names), not {type(setting).__name__}")
    (alo, ahi), (glo, ghi) = setting.answers_dex, setting.guesses_dex
    rows = [r for r in pokemon_names() if glo <= r[0] <= ghi and len(r[1]) <= POKEMON_ANSWER_LENGTH]
    guesses = tuple(r[1] for r in rows)
    answers = tuple(r[1] for r in rows if alo <= r[0] <= ahi and len(r[1]) == POKEMON_ANSWER_LENGTH)
    return WordList(
        setting.name,
        guesses,
        answers,
        dex=tuple(r[0] for r in rows),
        guess_limit=POKEMON_GUESS_LIMIT,
        key=setting.canonical,
    )


GAME_HARD_NEEDS_STANDARD = (
    "the game's hard mode is defined for the standard feedback rule; with "
    "the blog rule use the strict hard mode"
)


@dataclass(frozen=True)
class Setting:
    """One Pokémon Wordle setting, the value every shell builds once and the library takes:
    the word lists (:class:`NameSetting`: answers and guesses), the colour rule, the hard mode
    in one spelling (None normal, ``"game"`` or ``"strict"``) and the guess limit (None: no
    limit, for the analysis API: ``solve_summary``, ``OptimalSolver``, ``prove_opening``). The
    constructor validates (one message for every shell); shells build it with
    :func:`parse_setting` from their text.

        >>> Setting(POST_SETTING, "blog", "strict").hard_mode
        'strict'
        >>> Setting(POST_SETTING, "blog", "game")
        Traceback (most recent call last):
        ...
        ValueError: the game's hard mode is defined for the standard feedback rule; with the blog rule use the strict hard mode
    """

    names: NameSetting | WordList  # a Pokémon setting, or a custom list (read from files)
    rule: FeedbackRule = FeedbackRule.STANDARD  # (a rule's name becomes its member here)
    hard: str | None = None
    max_guesses: int | None = POKEMON_GUESS_LIMIT  # None: no limit

    def __post_init__(self) -> None:
        if not isinstance(self.names, NameSetting | WordList):
            raise TypeError(
                "a NameSetting (parse_names) or a custom WordList (load_word_list) is needed, "
                f"not {type(self.names).__name__}"
            )
        object.__setattr__(self, "rule", FeedbackRule(self.rule))
        if self.hard is not None and self.hard not in HARD_MODES:
            raise ValueError(_hard_mode_error(self.hard))
        if self.hard == "game" and self.rule != "standard":
            raise ValueError(GAME_HARD_NEEDS_STANDARD)
        if self.max_guesses is not None and not 1 <= self.max_guesses <= MAX_GUESS_LIMIT:
            raise ValueError(
                f"the guess limit must be 1..{MAX_GUESS_LIMIT} (or none), got {self.max_guesses}"
            )

    @property
    def hard_mode(self) -> str:
        """``off``, ``game`` or ``strict`` (how documents and requests spell it)."""
        return self.hard or "off"

    @property
    def mode(self) -> str:
        """The hard mode in words (``normal mode`` ...)."""
        return HARD_MODE_TEXT[self.hard]

    @property
    def pokemon(self) -> bool:
        """A Pokémon setting (names in any script, English names and dex numbers), not a
        custom word list."""
        return isinstance(self.names, NameSetting)

    @property
    def words(self) -> WordList:
        """The setting's word list, with its guess limit (no limit: the list's own, which
        the analysis does not use)."""
        words = self.names if isinstance(self.names, WordList) else pokemon_word_list(self.names)
        if self.max_guesses is None or words.guess_limit == self.max_guesses:
            return words
        return _limited(words, self.max_guesses)

    @property
    def limit_text(self) -> str:
        """``at most 10 guesses`` or ``no guess limit``."""
        return (
            "no guess limit" if self.max_guesses is None else f"at most {self.max_guesses} guesses"
        )

    def with_limit(self, max_guesses: int | None) -> Setting:
        """This setting under another guess limit (None: no limit)."""
        return replace(self, max_guesses=max_guesses)


@lru_cache(maxsize=16)
def _limited(words: WordList, limit: int) -> WordList:
    return replace(words, guess_limit=limit)


def parse_setting(
    names: str | NameSetting | WordList = POST_SETTING,
    rule: str = "standard",
    hard: str | bool | None = None,
    max_guesses: int | None = None,
) -> Setting:
    """A shell's text as a :class:`Setting`: `names` a spec for :func:`parse_names` (or parsed,
    or a custom list from :func:`load_word_list`), `hard` ``off``/``normal``/``""``/False
    (normal), True or ``game``, or ``strict``; `max_guesses` None: the list's own limit
    (Pokémon Wordle 10, a custom list 6), 0 no limit."""
    setting = parse_names(names) if isinstance(names, str) else names
    feedback_rule = FeedbackRule(rule)
    if hard in (None, False, "", "off", "normal"):
        mode = None
    elif hard is True:
        mode = "game"
    else:
        mode = str(hard)
    if max_guesses is None:
        max_guesses = setting.guess_limit if isinstance(setting, WordList) else POKEMON_GUESS_LIMIT
    return Setting(setting, feedback_rule, mode, max_guesses or None)


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
    names: NameSetting = POST_SETTING,
    guesses_file: Path | None = None,
    answers_file: Path | None = None,
) -> WordList:
    """A Pokémon list by setting, or a custom list from files (answers are added to the guesses)."""
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
