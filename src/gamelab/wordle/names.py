"""Pokémon names typed without a Japanese keyboard: katakana, hiragana, romaji or English.

The word lists hold full-width katakana (``レントラー``). A player may type

* katakana or half-width katakana (``ﾚﾝﾄﾗｰ``) or hiragana (``れんとらー``), normalised with
  `jaconv` (:func:`gamelab.wordle.assistant.normalise_kana`);
* romaji (``rentoraa``, ``rentora-``, ``jiiransu``): converted with ``jaconv.alphabet2kata``,
  which writes a doubled vowel as two kana (``レントラア``). Katakana names write most long
  vowels with ``ー`` but some with a vowel kana (ピカチュウ), so names are compared with every
  ``ー`` *folded* into the vowel kana it lengthens (レントラー -> レントラア, ピカチュウ stays): the
  romaji matches whichever spelling the name uses, without a hand-written table;
* the English name (``Lucario``; case, spaces and punctuation ignored), from the names shipped
  with the package (:func:`gamelab.wordle.rules.pokemon_names`).

:func:`resolve_name` turns one typed name into the list's spelling (or says why it cannot);
:func:`suggest` is the autocomplete: the names of a list that start with what was typed, in
both scripts, with their dex numbers.

    >>> from gamelab.wordle.rules import parse_names
    >>> words = pokemon_word_list(parse_names("gen1-4"))
    >>> resolve_name(words, "rentoraa"), resolve_name(words, "Lucario"), resolve_name(words, "じーらんす")
    ('レントラー', 'ルカリオ', 'ジーランス')
    >>> [m.name for m in suggest(words, "jii").matches]
    ['ジーランス']
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from gamelab.wordle.rules import WordList, pokemon_names, pokemon_word_list  # noqa: F401 (doctest)

__all__ = [
    "NameMatch",
    "Suggestions",
    "UnknownName",
    "fold_long_vowels",
    "lookup_name",
    "read_romaji",
    "resolve_name",
    "suggest",
]

SUGGEST_LIMIT = 12
_VOWEL_KANA = {"a": "ア", "i": "イ", "u": "ウ", "e": "エ", "o": "オ"}
_ASCII = re.compile(r"[a-z]")
_ENGLISH_DROP = re.compile(r"[\s.'’\-:]")


class UnknownName(ValueError):
    """A typed name that is not a guess of the chosen list; ``field`` names the input."""

    def __init__(self, message: str, field: str = "guess") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class NameMatch:
    """One name of the list: its katakana spelling, English name and national dex number."""

    name: str
    english: str
    dex: int
    matched_by: str  # "kana", "romaji" or "english"


@dataclass(frozen=True)
class Suggestions:
    """The autocomplete for `query` in list `names`: `reading` is the katakana the query was
    read as (None when it was taken as English only)."""

    query: str
    names: str
    reading: str | None
    matches: list[NameMatch] = field(default_factory=list)


def _kana_of(char: str) -> str | None:
    """The romaji of one katakana character, via jaconv (None if it has none)."""
    import jaconv

    roman = jaconv.kata2alphabet(char)
    return None if roman == char else roman


def fold_long_vowels(kana: str) -> str:
    """Every ``ー`` replaced by the vowel kana it lengthens.

    >>> fold_long_vowels("レントラー"), fold_long_vowels("キュー"), fold_long_vowels("ピカチュウ")
    ('レントラア', 'キュウ', 'ピカチュウ')
    """
    out: list[str] = []
    for ch in kana:
        if ch == "ー" and out:
            roman = _kana_of(out[-1])
            vowel = roman[-1] if roman else ""
            out.append(_VOWEL_KANA.get(vowel, ch))
        else:
            out.append(ch)
    return "".join(out)


def read_romaji(text: str, prefix: bool = False) -> str:
    """Romaji as katakana (``jiiransu`` -> ``ジイランス``; ``-`` is ``ー``).

    With `prefix` (the start of a name being typed), trailing consonants that do not yet make a
    kana are dropped instead of being read as a small ッ (``rent`` -> ``レン``).

    >>> read_romaji("jiiransu"), read_romaji("rentora-"), read_romaji("rent", prefix=True)
    ('ジイランス', 'レントラー', 'レン')
    """
    import jaconv

    roman = unicodedata.normalize("NFKC", text).strip().lower()
    if prefix:
        tail = re.search(r"[bcdfghjklmnpqrstvwxyz]+$", roman)
        if tail:  # an unfinished syllable; a leading n is already ン
            roman = roman[: tail.start()] + ("n" if tail.group().startswith("n") else "")
    return jaconv.alphabet2kata(roman)


def _is_kana(text: str) -> bool:
    return all("\u30a0" <= c <= "\u30ff" for c in text)


def _english_key(text: str) -> str:
    return _ENGLISH_DROP.sub("", unicodedata.normalize("NFKC", text).lower())


@dataclass(frozen=True)
class _Index:
    rows: tuple[NameMatch, ...]  # in the list's order (dex)
    by_name: dict[str, NameMatch]
    by_folded: dict[str, list[NameMatch]]
    by_english: dict[str, NameMatch]


@lru_cache(maxsize=16)
def _index(words: WordList) -> _Index:
    english = {ja: en for _, ja, en, _ in pokemon_names()}
    dex = dict(zip(words.guesses, words.dex, strict=False)) if words.dex else {}
    return _build_index(
        tuple(NameMatch(w, english.get(w, ""), dex.get(w, 0), "kana") for w in words.guesses)
    )


def _build_index(rows: tuple[NameMatch, ...]) -> _Index:
    folded: dict[str, list[NameMatch]] = {}
    for r in rows:
        folded.setdefault(fold_long_vowels(r.name), []).append(r)
    english: dict[str, NameMatch] = {}
    for r in rows:
        if r.english:
            for key in _english_keys(r.english):
                english.setdefault(key, r)
    return _Index(rows, {r.name: r for r in rows}, folded, english)


#: How players type the sex symbols of Nidoran♀ and Nidoran♂ ("nidoran f", "Nidoran-M").
_SEX_SPELLINGS = {"♀": ("f", "female"), "♂": ("m", "male")}


def _english_keys(english: str) -> list[str]:
    """The keys an English name is found by: itself, and with ♀/♂ typed as f/female, m/male."""
    key = _english_key(english)
    keys = [key]
    for symbol, spellings in _SEX_SPELLINGS.items():
        if key.endswith(symbol):
            keys += [key[: -len(symbol)] + s for s in spellings]
    return keys


def _has_kana(text: str) -> bool:
    return any("\u3040" <= c <= "\u30ff" or "\uff66" <= c <= "\uff9f" for c in text)


def _normalise(text: str) -> str:
    """Kana as the lists write it: katakana, full-width (ポリゴン2 -> ポリゴン２)."""
    import jaconv

    from gamelab.wordle.assistant import normalise_kana

    return jaconv.h2z(normalise_kana(text.strip()), kana=True, ascii=True, digit=True).upper()


def _describe(words: WordList) -> str:
    if words.dex:
        return (
            f"word list {words.name!r} (names of at most {words.length} characters, dex "
            f"{min(words.dex)}-{max(words.dex)})"
        )
    return f"word list {words.name!r}"


#: The longest text read as a name (the longest English or romaji spelling is under 20).
MAX_TYPED = 40


def resolve_name(words: WordList, text: str, field: str = "guess") -> str:
    """The list's spelling of a name typed in katakana, hiragana, romaji or English.

    Raises :class:`UnknownName` (a ValueError naming `field`) when no name of the list fits,
    or when a romaji spelling fits two names, listing them.
    """
    typed = text.strip()
    if not typed:
        raise UnknownName("type a Pokémon name (katakana, hiragana, romaji or English)", field)
    if len(typed) > MAX_TYPED:  # (the suggestions' edit distances would take minutes)
        raise UnknownName(
            f"{typed[:12]!r}… ({len(typed):,} characters) is not a Pokémon name: a name is at "
            f"most {MAX_TYPED} characters in any spelling",
            field,
        )
    index = _index(words)
    kana = _normalise(typed) if _has_kana(typed) else typed
    if kana in index.by_name:
        return kana
    if not _has_kana(typed):
        hit = index.by_english.get(_english_key(typed))
        if hit is not None:
            return hit.name
        kana = read_romaji(typed)
        if kana in index.by_name:
            return kana
    found = index.by_folded.get(fold_long_vowels(kana), [])
    if len(found) == 1:
        return found[0].name
    if len(found) > 1:
        raise UnknownName(
            f"{typed!r} (read as {kana!r}) fits several names: "
            + ", ".join(m.name for m in found)
            + "; type the katakana",
            field,
        )
    every = _index_all()
    other = every.by_folded.get(fold_long_vowels(kana)) or (
        [every.by_english[_english_key(typed)]] if _english_key(typed) in every.by_english else []
    )
    readable = kana != typed and _is_kana(kana) and not kana.endswith("ッ")
    shown = f"{typed!r} (read as {kana!r})" if readable else repr(typed)
    if other:
        m = other[0]
        raise UnknownName(
            f"{m.name} ({m.english}, dex {m.dex}) cannot be guessed in {_describe(words)}", field
        )
    near = suggest(words, typed, limit=3).matches
    hint = (
        ("; did you mean " + ", ".join(f"{m.name} ({m.english})" for m in near) + "?")
        if near
        else ("; type katakana, hiragana, romaji (e.g. rentoraa) or the English name")
    )
    raise UnknownName(f"{shown} is not a Pokémon name in {_describe(words)}{hint}", field)


@lru_cache(maxsize=1)
def _index_all() -> _Index:
    """Every species (any length), to tell 'not in this list' from 'no such Pokémon'."""
    return _build_index(tuple(NameMatch(ja, en, dex, "kana") for dex, ja, en, _ in pokemon_names()))


def lookup_name(words: WordList, text: str, field: str = "text") -> NameMatch:
    """:func:`resolve_name` with the name's English name and dex number."""
    name = resolve_name(words, text, field)
    found = _index(words).by_name[name]
    how = (
        "kana"
        if _has_kana(text) or name == text.strip()
        else ("english" if _english_key(text) in _english_keys(found.english) else "romaji")
    )
    return NameMatch(found.name, found.english, found.dex, how)


def suggest(words: WordList, text: str, limit: int = SUGGEST_LIMIT) -> Suggestions:
    """Names of `words` starting with what was typed (katakana, hiragana, romaji or English):
    exact spellings first, then by dex."""
    if not 1 <= limit <= 100:
        raise ValueError(f"limit must be 1..100, got {limit}")
    typed = text.strip()
    index = _index(words)
    if not typed:
        return Suggestions(text, words.name, None, [])
    found: dict[str, tuple[int, NameMatch]] = {}

    def add(match: NameMatch, rank: int, how: str) -> None:
        if match.name not in found or found[match.name][0] > rank:
            found[match.name] = (rank, NameMatch(match.name, match.english, match.dex, how))

    reading: str | None = None
    if _has_kana(typed) or not _ASCII.search(typed.lower()):
        kana = _normalise(typed)
        reading = kana
        folded = fold_long_vowels(kana)
        for r in index.rows:
            if r.name.startswith(kana):
                add(r, 0 if r.name == kana else 1, "kana")
            elif fold_long_vowels(r.name).startswith(folded):
                add(r, 2, "kana")
    else:
        key = _english_key(typed)
        for r in index.rows:
            if key and _english_key(r.english).startswith(key):
                add(r, 0 if _english_key(r.english) == key else 1, "english")
        # the whole reading, then the start of a syllable being typed (rent -> レン, ran -> ラ)
        readings = [read_romaji(typed), read_romaji(typed, prefix=True)]
        if typed.lower().endswith("n"):
            readings.append(read_romaji(typed[:-1], prefix=True))
        readings = [r for r in readings if r and _is_kana(r)]
        if readings:
            reading = read_romaji(typed, prefix=True) or None
            for r in index.rows:
                f = fold_long_vowels(r.name)
                for k, read in enumerate(readings):
                    if f == fold_long_vowels(read):
                        add(r, 0, "romaji")
                    elif f.startswith(fold_long_vowels(read)):
                        add(r, 2 + k, "romaji")
    order = sorted(found.values(), key=lambda x: (x[0], x[1].dex, x[1].name))
    return Suggestions(text, words.name, reading, [m for _, m in order[:limit]])
