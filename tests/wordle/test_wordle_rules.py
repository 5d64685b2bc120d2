"""Word lists and the two feedback rules (facts: /work/shared/research/wordle.md)."""

import numpy as np
import pytest

from gamelab.wordle import _kernels
from gamelab.wordle.rules import (
    WordList,
    consistent,
    feedback,
    load_word_list,
    named_settings,
    parse_names,
    parse_pattern,
    pattern_code,
    pattern_colours,
    pattern_text,
)
from gamelab.wordle.table import Game, build_table


def test_gen1_4_sizes():
    # research note: dex 1-493 -> 493 guesses, 285 names of exactly 5 characters
    words = load_word_list(parse_names("gen1-4"))
    assert (len(words.guesses), len(words.answers)) == (493, 285)
    assert words.guesses[404] == "レントラー"  # dex 405
    assert {len(g) for g in words.guesses} == {2, 3, 4, 5}


def test_generation_ranges_and_all():
    assert len(load_word_list(parse_names("gen1")).guesses) == 151
    gen5 = load_word_list(parse_names("gen5"))
    assert all(494 <= d <= 649 for d in gen5.dex)
    all_words = load_word_list(parse_names("all"))
    # every species of at most 5 characters (longer names cannot be entered)
    assert max(all_words.dex) == 1025 and all(len(g) <= 5 for g in all_words.guesses)
    assert set(load_word_list(parse_names("gen1-4")).answers) < set(all_words.answers)


@pytest.mark.parametrize("spec", ["gen0", "gen1-10", "gen5-3", "pokemon", ""])
def test_bad_list_names(spec):
    with pytest.raises(ValueError, match="gen"):
        load_word_list(parse_names(spec))


def test_custom_files(tmp_path):
    (tmp_path / "a.txt").write_text("crane\nslate\n# comment\n\ntrace\n", encoding="utf-8")
    (tmp_path / "g.txt").write_text("salet\nab\n", encoding="utf-8")
    words = load_word_list(guesses_file=tmp_path / "g.txt", answers_file=tmp_path / "a.txt")
    assert words.answers == ("crane", "slate", "trace")
    assert words.guesses == ("salet", "ab", "crane", "slate", "trace")  # answers added
    game = Game(words, "standard")
    assert game.table.shape == (5, 3)
    (tmp_path / "bad.txt").write_text("crane\ncranes\n", encoding="utf-8")
    with pytest.raises(ValueError, match="one length"):
        load_word_list(answers_file=tmp_path / "bad.txt")
    with pytest.raises(ValueError, match="cannot read"):
        load_word_list(answers_file=tmp_path / "missing.txt")


def test_word_list_validation():
    with pytest.raises(ValueError, match="longer"):
        WordList("x", ("abcdef", "abcde"), ("abcde",))
    with pytest.raises(ValueError, match="not an allowed guess"):
        WordList("x", ("abcde",), ("bcdea",))
    with pytest.raises(ValueError, match="repeats"):
        WordList("x", ("abcde", "abcde"), ("abcde",))


def test_feedback_examples():
    # the post's rule text: answer チコリータ, guess キノココ -> only the 3rd character yellow
    assert feedback("キノココ", "チコリータ", "standard") == (0, 0, 1, 0)
    assert feedback("キノココ", "チコリータ", "blog") == (0, 0, 1, 0)
    # the rules differ when an answer character matched green meets a second copy in the guess
    assert feedback("ココ", "コイキング", "standard") == (2, 0)
    assert feedback("ココ", "コイキング", "blog") == (2, 1)
    # English Wordle
    assert feedback("speed", "abide", "standard") == (0, 0, 1, 0, 1)
    assert feedback("crane", "crane", "standard") == (2, 2, 2, 2, 2)
    with pytest.raises(ValueError, match="unknown feedback rule"):
        feedback("a", "a", "hard")


def test_pattern_round_trip():
    for code in range(243):
        colours = pattern_colours(code, 5)
        assert pattern_code(colours) == code
        assert parse_pattern(pattern_text(code, 5, "squares"), 5) == code
        assert parse_pattern(pattern_text(code, 5, "kanji"), 5) == code
    assert parse_pattern("00120", 5) == pattern_code((0, 0, 1, 2, 0))
    with pytest.raises(ValueError, match="colours"):
        parse_pattern("0012", 5)
    with pytest.raises(ValueError, match="bad colour"):
        parse_pattern("0012z", 5)


def _random_words(rng, n, alphabet, lo, hi):
    return ["".join(rng.choice(list(alphabet), size=rng.integers(lo, hi + 1))) for _ in range(n)]


@pytest.mark.parametrize("rule", [0, 1])
def test_table_kernel_matches_python_twin(rule):
    rng = np.random.default_rng(5)
    for trial in range(4):
        alphabet = "abc" if trial % 2 else "abcdefg"
        length = int(rng.integers(3, 7))
        answers = list(dict.fromkeys(_random_words(rng, 40, alphabet, length, length)))
        guesses = list(dict.fromkeys(_random_words(rng, 30, alphabet, 1, length) + answers))
        words = WordList("rand", tuple(guesses), tuple(answers))
        gc, gl = words.encode(words.guesses)
        ac, al = words.encode(words.answers)
        fast = _kernels.feedback_table_kernel(gc, gl, ac, al, rule)
        slow = _kernels.feedback_table_python(gc, gl, ac, al, rule)
        assert np.array_equal(fast, slow)
        name = "standard" if rule == 0 else "blog"
        for r in range(0, len(guesses), 7):
            for c in range(0, len(answers), 5):
                assert fast[r, c] == pattern_code(feedback(guesses[r], answers[c], name))


def test_entropy_and_split_kernels_match_twins():
    rng = np.random.default_rng(11)
    game = Game(load_word_list(parse_names("gen1-4")), "blog")
    for size in (1, 2, 7, 60, 285):
        subset = np.sort(rng.choice(285, size=size, replace=False)).astype(np.int32)
        fast = game.entropies(subset)
        slow = _kernels.entropy_python(game.table, subset)
        assert np.allclose(fast, slow, atol=1e-12, rtol=0)
        guesses = rng.choice(493, size=50, replace=False).astype(np.int32)
        fast = _kernels.split_stats_kernel(
            game.table, subset, guesses, game.green, game.n_codes, game.answer_of_guess
        )
        slow = _kernels.split_stats_python(
            game.table, subset, guesses, game.green, game.answer_of_guess
        )
        for x, y in zip(fast, slow, strict=True):
            assert np.array_equal(x, y)


def test_table_matches_feedback_function():
    words = load_word_list(parse_names("gen1-4"))
    table = build_table(words, "blog")
    rng = np.random.default_rng(1)
    for g, a in zip(rng.integers(0, 493, 300), rng.integers(0, 285, 300), strict=True):
        assert table[g, a] == pattern_code(feedback(words.guesses[g], words.answers[a], "blog"))


def test_consistent():
    words = load_word_list(parse_names("gen1-4"))
    code = pattern_code(feedback("レントラー", "ゴルダック", "blog"))
    left = consistent(words, [("レントラー", code)], "blog")
    assert len(left) == 67  # post: all grey after レントラー leaves 67


def test_partition_kernel_matches_twin():
    rng = np.random.default_rng(2)
    game = Game(load_word_list(parse_names("gen1-4")), "standard")
    for size in (1, 5, 40, 285):
        subset = np.sort(rng.choice(285, size=size, replace=False)).astype(np.int32)
        for g in rng.integers(0, 493, 10):
            fast = _kernels.partition_kernel(game.table, int(g), subset, game.n_codes)
            slow = _kernels.partition_python(game.table, int(g), subset)
            for x, y in zip(fast, slow, strict=True):
                assert np.array_equal(x, y)


def test_min_bound_kernel_matches_twin():
    rng = np.random.default_rng(4)
    game = Game(load_word_list(parse_names("gen1-4")), "blog")
    for size in (3, 12, 80):
        for rem in (-1, 0, 1, 2):
            subset = np.sort(rng.choice(285, size=size, replace=False)).astype(np.int32)
            guesses = rng.choice(493, size=120, replace=False).astype(np.int32)
            fast = _kernels.min_bound_kernel(
                game.table, subset, guesses, game.n_codes, game.answer_of_guess, rem
            )
            slow = _kernels.min_bound_python(game.table, subset, guesses, game.answer_of_guess, rem)
            # the kernel may stop early, but only at the floor 2n - 1, which is then the minimum
            assert fast == slow


def test_hard_modes_by_name_and_guess_limits():
    from gamelab.wordle.rules import check_hard_mode, hard_mode_allows, parse_names

    colours = (2, 0, 1, 0, 0)
    assert hard_mode_allows("salet", colours, "sloth", "game", "standard")
    assert hard_mode_allows("salet", colours, "sully", "game", "standard")
    assert not hard_mode_allows("salet", colours, "lousy", "game", "standard")  # S moved
    assert not hard_mode_allows("salet", colours, "shown", "game", "standard")  # no L
    # strict: the word must itself show these colours (no A, E, T; an L, but not third)
    assert hard_mode_allows("salet", colours, "sloop", "strict", "standard")
    assert not hard_mode_allows("salet", colours, "sloth", "strict", "standard")  # T is grey
    # two yellow copies must be reused twice
    assert hard_mode_allows("llama", (1, 1, 0, 0, 0), "ladle", "game", "standard")
    assert not hard_mode_allows("llama", (1, 1, 0, 0, 0), "lemon", "game", "standard")
    assert check_hard_mode(True) == "game" and check_hard_mode(False) is None
    with pytest.raises(ValueError, match="allowed: game, strict"):
        check_hard_mode("easy")
    assert (
        load_word_list(parse_names("gen1-4")).guess_limit == 10
    )  # Pokémon Wordle (seed post): 10 guesses


def test_live_settings_lists():
    # the seed post: the daily answers are generation 1-4 (285 five-character names) while any
    # species may be guessed (931 names of at most 5 characters); dex 1-898 was the live list
    # when the post was written
    sizes = {s.spec: (s.answers, s.guesses) for s in named_settings()}
    assert sizes["daily"] == (285, 931) and sizes["daily-2022"][0] == 285
    assert sizes["gen1-4"] == (285, 493)
    assert sizes["upto-gen9"] == (565, 931) and sizes["upto-gen1"][1] == 931
    assert [sizes[f"upto-gen{n}"][0] for n in range(1, 10)] == sorted(
        sizes[f"upto-gen{n}"][0] for n in range(1, 10)
    )
    daily = load_word_list(parse_names("daily"))
    assert daily.answers == load_word_list(parse_names("gen1-4")).answers
    assert "ゾロアーク" in daily.guess_index and "ゾロアーク" not in daily.answer_index
    assert max(load_word_list(parse_names("daily-2022")).dex) <= 898


def test_name_settings_are_values_parsed_once():
    from gamelab.wordle.rules import NameSetting

    daily = parse_names("daily")
    assert hash(daily) == hash(parse_names("daily")) and daily == parse_names(" daily ")
    with pytest.raises(AttributeError):
        daily.name = "x"  # type: ignore[misc]
    # separate answer and guess specs; one canonical name per content (the cache key)
    split = parse_names("gen1-4").with_guesses(parse_names("all"))
    assert (split.answers_dex, split.guesses_dex) == (daily.answers_dex, daily.guesses_dex)
    assert split.canonical == "daily" == parse_names("upto-gen4").canonical
    assert parse_names("upto-gen9").canonical == "all" and parse_names("gen1-4/all") == split
    assert load_word_list(split).key == "daily"
    with pytest.raises(ValueError, match="must lie within the guesses"):
        NameSetting((1, 1025), (1, 151))
    with pytest.raises(ValueError, match="national dex runs 1-1025"):
        NameSetting((1, 151), (0, 2000))
    with pytest.raises(ValueError, match="generations are 1..9"):
        parse_names("upto-gen0")
    with pytest.raises(TypeError, match="NameSetting"):
        load_word_list("gen1-4")  # type: ignore[arg-type]


def test_every_named_setting_has_a_distinct_short_label_for_a_phone():
    """A phone's closed game chooser shows the short label (the whole one was cut off)."""
    shorts = [s.short_label for s in named_settings()]
    assert len(set(shorts)) == len(shorts)
    assert all(0 < len(short) <= 22 for short in shorts), shorts
    assert shorts[0] == "Today's answer"
