"""The assistant (`advise`, its history checker), `next`, and the hill climbing of made-up
first guesses."""

import io
import json
import sys

import numpy as np
import pytest

from gamelab.cli import main
from gamelab.wordle import _kernels
from gamelab.wordle.advice import advise, split_history
from gamelab.wordle.assistant import ContradictionError, HistoryChecker, parse_history
from gamelab.wordle.hillclimb import climb, entropy_of_row, feedback_row, made_up_first_total
from gamelab.wordle.rules import (
    POST_SETTING,
    Setting,
    feedback,
    load_word_list,
    parse_names,
    pattern_code,
)
from gamelab.wordle.table import Game


@pytest.fixture(scope="module")
def blog():
    return Game(load_word_list(parse_names("gen1-4")), "blog")


def test_history_filters_like_the_rules(blog):
    answer = "ピカチュウ"
    history = [(w, pattern_code(feedback(w, answer, "blog"))) for w in ("レントラー", "ゴルダック")]
    text = ",".join(f"{w}:{''.join(map(str, feedback(w, answer, 'blog')))}" for w, _ in history)
    checker = HistoryChecker(Setting(blog.words, "blog"))
    cands, _ = checker.candidates(parse_history(blog, text))
    assert answer in [blog.words.answers[a] for a in cands]
    assert len(cands) == 28  # chart: 67 all grey -> 28 all grey again
    advice = advise(Setting(POST_SETTING, "blog"), split_history(text), time_limit=20.0)
    assert advice.candidates == 28 and advice.next.name == "オニスズメ"
    assert advice.method in ("strategy", "solved here") and advice.within_limit


def test_contradiction_names_first_bad_guess(blog):
    checker = HistoryChecker(Setting(blog.words, "blog"))
    with pytest.raises(ContradictionError, match=r"guess 2 \(ゴルダック 00120\)"):
        checker.candidates(
            parse_history(blog, "レントラー:00000,ゴルダック:00120,ピカチュウ:22222")
        )
    with pytest.raises(ValueError, match="not an allowed guess"):
        parse_history(blog, "ピカチュー:00000")
    with pytest.raises(ValueError, match="colours"):
        parse_history(blog, "レントラー:0012")


def test_solved_and_hard_mode(blog):
    advice = advise(Setting(POST_SETTING, "blog"), [("レントラー", "22222")])
    assert advice.solved and advice.next is None and advice.method is None
    strict = Setting(blog.words, "blog", "strict")
    cands, pool = HistoryChecker(strict).candidates(parse_history(blog, "レントラー:00002"))
    advice = advise(
        Setting(POST_SETTING, "blog", "strict"), [("レントラー", "00002")], time_limit=20.0
    )
    # gen1-4: every 5-character guess is an answer, so strict hard mode guesses from the candidates
    assert advice.next.name in [blog.words.answers[a] for a in cands] and advice.next.is_candidate
    assert len(pool) == len(cands) and advice.hard_mode == "strict" and advice.within_limit
    # the game's rule (--hard): only the green ー must stay, so more words are allowed
    standard = Game(blog.words, "standard")
    game = HistoryChecker(Setting(standard.words, "standard", "game"))
    cands, game_pool = game.candidates(parse_history(standard, "レントラー:00002"))
    words = [standard.full_length_guesses[p] for p in game_pool]
    assert set(cands.tolist()) <= {standard.words.answer_index[w] for w in words} and len(
        words
    ) > len(cands)
    assert all(w[-1] == "ー" for w in words)
    game_advice = advise(Setting(POST_SETTING, "standard", "game"), [("レントラー", "00002")])
    assert game_advice.hard_mode == "game" and game_advice.next.name in words
    with pytest.raises(ValueError, match="standard feedback rule"):
        Setting(blog.words, "blog", "game")


def test_next_cli_error_exit(capsys):
    with pytest.raises(SystemExit) as exc:
        main(
            [
                "wordle",
                "next",
                "--history",
                "レントラー:00000,ゴルダック:00120",
                "--rule",
                "blog",
                "--json",
            ]
        )
    assert exc.value.code == 2 and "guess 2 (ゴルダック 00120)" in capsys.readouterr().err
    main(["wordle", "next", "--history", "レントラー:00000", "--rule", "blog", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["candidates"] == 67 and data["next"]["name"] == "ゴルダック"  # post's chart row 1


def test_assist_interactive(capsys, monkeypatch):
    script = "レントラー 00000\nゴルダック ⬛⬛🟨🟩⬛\nゴルダック 00000\nquit\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    main(["wordle", "assist", "--rule", "blog"])
    out = capsys.readouterr()
    assert "67 candidate(s) left" in out.out and "28 candidate(s) left" in out.out
    assert "error: no answer fits" in out.out


def test_laruiin(blog):
    # post's bonus: ラルイーン, entropy 4.634, pruned total 925 (research note: 55 patterns;
    # 924 under the standard rule)
    row = feedback_row(blog, "ラルイーン")
    assert round(entropy_of_row(row), 5) == 4.63416 and len(np.unique(row)) == 55
    assert made_up_first_total(blog, "ラルイーン") == 925
    standard = Game(blog.words, "standard")
    assert made_up_first_total(standard, "ラルイーン") == 924


def test_climb_reaches_a_local_optimum_above_every_name(blog):
    res = climb(blog, seed=3, restarts=4)
    assert res.entropy > 4.15443  # better than レントラー, the best real name
    assert res.entropy == pytest.approx(entropy_of_row(feedback_row(blog, res.word)))
    # no single-character change improves it
    letters = sorted(set("".join(blog.words.answers)))
    for p in range(5):
        for c in letters[::7]:
            w = res.word[:p] + c + res.word[p + 1 :]
            assert entropy_of_row(feedback_row(blog, w)) <= res.entropy + 1e-12
    assert climb(blog, seed=3, restarts=4) == res  # seeded


@pytest.mark.slow
def test_climb_finds_laruiin(blog):
    # post: hill climbing finds ラルイーン (4.634); 100 restarts from seed 0 do
    res = climb(blog, seed=0, restarts=100)
    assert res.entropy >= 4.634155 - 1e-9


def test_row_kernel_consistent_with_table(blog):
    gc, gl = blog.words.encode(["ラルイーン"])
    ac, al = blog.words.encode(blog.words.answers)
    py = _kernels.feedback_table_python(gc, gl, ac, al, _kernels.RULE_BLOG)[0]
    assert np.array_equal(py, feedback_row(blog, "ラルイーン"))


def test_advice_respects_the_guess_limit(blog):
    setting = Setting(POST_SETTING, "blog")
    advice = advise(setting, [("レントラー", "00000")])
    assert (advice.guess_limit, advice.guesses_used) == (10, 1) and advice.within_limit
    # nine misses leave one guess: the advice must finish every candidate with it, or say it cannot
    answer = "ピカチュウ"
    misses = [w for w in blog.words.guesses if w != answer and len(w) == 5][:9]
    history = [(w, "".join(map(str, feedback(w, answer, "blog")))) for w in misses]
    advice = advise(setting, history, time_limit=20.0)
    assert advice.guess_limit - advice.guesses_used == 1
    assert advice.within_limit == (advice.candidates == 1)
    if not advice.within_limit:
        assert advice.warning


def test_next_and_assist_on_custom_lists_are_the_pages_assistant(tmp_path, capsys, monkeypatch):
    """On --guesses/--answers files `next --json` is advise()'s document (the one the page's
    /api/wordle/advice returns for a Pokémon list), checked against the feedback of each answer;
    `assist` is the same assistant in a terminal; bad words are one `error:` line."""
    from gamelab.core.serialise import to_json
    from gamelab.wordle.advice import advise
    from gamelab.wordle.rules import parse_setting

    answers = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval"]
    (tmp_path / "a.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "g.txt").write_text("salet\ncrane\n")
    files = ["--guesses", str(tmp_path / "g.txt"), "--answers", str(tmp_path / "a.txt")]
    shown = feedback("crane", "sissy")  # all grey: sissy, humph and blush fit
    colours = "".join(map(str, shown))
    main(["wordle", "next", *files, "--history", f"crane:{colours}", "--json"])
    doc = json.loads(capsys.readouterr().out)
    fits = [a for a in answers if feedback("crane", a) == shown]
    assert [c["name"] for c in doc["remaining"]] == fits and doc["candidates"] == len(fits) > 1
    assert doc["guess_limit"] == 6 and doc["method"] == "solved here" and doc["next"]["name"]
    words = load_word_list(guesses_file=tmp_path / "g.txt", answers_file=tmp_path / "a.txt")
    same = advise(parse_setting(words, "standard"), [("crane", colours)], time_limit=20.0)
    assert doc == json.loads(to_json(same))
    with pytest.raises(SystemExit) as exc:
        main(["wordle", "next", *files, "--history", "zzzzz:00000"])
    assert exc.value.code == 2 and "'zzzzz' is not an allowed guess" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO("salet 00000\nhumph 22222\n"))
    main(["wordle", "assist", *files])
    out = capsys.readouterr().out
    assert "1 candidate(s) left" in out and "humph" in out and out.rstrip().endswith("solved")
