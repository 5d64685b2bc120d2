"""Names typed without a Japanese keyboard: romaji, hiragana, half-width katakana, English."""

import pytest

from gamelab.wordle.names import (
    UnknownName,
    fold_long_vowels,
    lookup_name,
    read_romaji,
    resolve_name,
    suggest,
)
from gamelab.wordle.rules import parse_names, pokemon_word_list


@pytest.fixture(scope="module")
def gen14():
    return pokemon_word_list(parse_names("gen1-4"))


@pytest.mark.parametrize(
    "typed, name",
    [
        ("rentoraa", "レントラー"),
        ("rentora-", "レントラー"),
        ("RENTORAA", "レントラー"),
        ("jiiransu", "ジーランス"),
        ("chikoriita", "チコリータ"),  # doubled vowel -> ー
        ("pikachuu", "ピカチュウ"),
        ("kyuukon", "キュウコン"),  # the name itself writes ウ
        ("れんとらー", "レントラー"),
        ("ﾚﾝﾄﾗｰ", "レントラー"),
        ("レントラー", "レントラー"),
        ("Lucario", "ルカリオ"),
        ("lucario", "ルカリオ"),
        ("Mr. Mime", "バリヤード"),
        ("ho-oh", "ホウオウ"),
        ("Porygon-Z", "ポリゴンＺ"),
        ("ポリゴン2", "ポリゴン２"),
        ("  gorudakku ", "ゴルダック"),
        ("nidoran f", "ニドラン♀"),  # issue 47: the sex symbols as players type them
        ("Nidoran-M", "ニドラン♂"),
        ("nidoran female", "ニドラン♀"),
    ],
)
def test_every_script_reads_as_the_list_spelling(gen14, typed, name):
    assert resolve_name(gen14, typed) == name


def test_long_vowel_folding_uses_the_vowel_of_the_kana_before():
    assert fold_long_vowels("ジーランス") == "ジイランス"
    assert fold_long_vowels("キュー") == "キュウ"
    assert fold_long_vowels("ンー") == "ンー"  # ン lengthens nothing
    assert read_romaji("jiiransu") == "ジイランス"
    assert read_romaji("rent", prefix=True) == "レン"  # no stray small ッ while typing


def test_unknown_and_unguessable_names_say_why(gen14):
    with pytest.raises(
        UnknownName, match="not a Pokémon name in word list 'gen1-4'.*dex 1-493"
    ) as err:
        resolve_name(gen14, "zzz")
    assert err.value.field == "guess"
    # a real Pokémon outside the list (gen 7) or too long to be guessed
    with pytest.raises(ValueError, match=r"アブリボン \(Ribombee, dex 743\) cannot be guessed"):
        resolve_name(gen14, "Ribombee")
    with pytest.raises(ValueError, match="マフォクシー .*cannot be guessed"):
        resolve_name(gen14, "マフォクシー")
    with pytest.raises(ValueError, match=r"did you mean ニドラン♀ \(Nidoran♀\), ニドラン♂"):
        resolve_name(gen14, "nidoran")
    with pytest.raises(ValueError, match="type a Pokémon name"):
        resolve_name(gen14, " ")


def test_suggestions_show_both_scripts_and_only_the_chosen_list(gen14):
    s = suggest(gen14, "rent")
    assert [(m.name, m.english, m.dex) for m in s.matches] == [("レントラー", "Luxray", 405)]
    assert s.reading == "レン"
    assert [m.name for m in suggest(gen14, "jii").matches] == ["ジーランス"]
    # English prefixes too, exact matches first
    names = [m.name for m in suggest(gen14, "mew").matches]
    assert names[:2] == ["ミュウ", "ミュウツー"]
    # only the chosen list: Ribombee (gen 7) is offered for "all" but not for gen1-4
    assert suggest(gen14, "ribo").matches == [] or all(
        m.dex <= 493 for m in suggest(gen14, "ribo").matches
    )
    assert "アブリボン" in [
        m.name for m in suggest(pokemon_word_list(parse_names("all")), "Ribombee").matches
    ]
    assert all(m.dex <= 151 for m in suggest(pokemon_word_list(parse_names("gen1")), "ra").matches)
    assert suggest(gen14, "").matches == []
    with pytest.raises(ValueError, match="limit must be 1..100"):
        suggest(gen14, "ra", limit=0)


def test_lookup_says_how_the_name_was_read(gen14):
    assert lookup_name(gen14, "rentoraa").matched_by == "romaji"
    assert lookup_name(gen14, "Luxray").matched_by == "english"
    assert lookup_name(gen14, "れんとらー").matched_by == "kana"
    assert lookup_name(gen14, "Luxray").dex == 405


def test_a_huge_name_is_refused_at_once(gen14, monkeypatch):
    """Issue 29 (found by benchmarks/bad_inputs.py): `wordle review --history` with a 100 KB
    name ran 69 s (15 CPU-s of edit distances for the suggestions) before refusing it; a text
    longer than any spelling of any name is refused before any search."""
    import gamelab.wordle.names as names

    def no_search(*args, **kwargs):
        raise AssertionError("searched for suggestions")

    monkeypatch.setattr(names, "suggest", no_search)
    monkeypatch.setattr(names, "read_romaji", no_search)
    with pytest.raises(UnknownName, match="100,000 characters.*at most 40 characters"):
        resolve_name(gen14, "x" * 100_000)
    monkeypatch.undo()
    # the longest real spellings still resolve
    assert resolve_name(gen14, "Feraligatr") == "オーダイル"
    with pytest.raises(UnknownName, match="not a Pokémon name in"):  # 40: searched as usual
        resolve_name(gen14, "x" * 40)
