"""`wordle assist` / `wordle next`: the session with injected I/O, the rule defaults, kana
normalisation, and a scripted session in a pseudo-terminal."""

import json
import sys

import pexpect
import pytest
import typer

from gamelab.core.interactive import run_scripted
from gamelab.wordle.advice import AdviceSession
from gamelab.wordle.assistant import normalise_kana, parse_entry
from gamelab.wordle.rules import load_word_list, parse_names, parse_setting
from gamelab.wordle.table import Game


@pytest.fixture(scope="module")
def standard():
    return Game(load_word_list(parse_names("gen1-4")), "standard")


play = run_scripted  # the session driven by scripted lines, what it showed as text


def test_session_keeps_the_history_on_every_failed_line():
    s = AdviceSession(parse_setting("gen1-4", "standard"))
    text = play(
        s,
        [
            "undo",
            "",
            "help",
            "asdfgh 00000",
            "レントラー 0012",
            "レントラー 00000",
            "ゴルダック 00120",
            "undo",
            "quit",
        ],
    )
    assert "nothing to undo" in text and "type a guess and its colours" in text
    assert text.count("0 grey, 1 yellow, 2 green") == 2  # at the start and on help
    assert "error: " in text and "not a Pokémon name" in text
    assert "feedback '0012' has 4 colours" in text
    assert "67 candidate(s) left (rule standard" in text
    assert (
        "error: no answer fits the history under rule standard: guess 2 (ゴルダック 00120)" in text
    )
    assert s.history == [] and s.finished  # the undo took back レントラー


def test_every_advice_states_the_rule():
    s = AdviceSession(parse_setting("gen1-4", "standard"))
    intro = s.intro()
    assert "rule standard: colours as the real game shows them" in intro
    out = s.handle("レントラー 00000")
    assert out.splitlines()[0].startswith("67 candidate(s) left (rule standard:")
    blog = AdviceSession(parse_setting("gen1-4", "blog"))
    assert "rule blog: colours as the post's code computes them" in blog.intro()


def test_hiragana_and_half_width_katakana_are_normalised(standard):
    assert normalise_kana("らんたーん") == "ランターン"
    assert normalise_kana("ﾋﾟｶﾁｭｳ") == "ピカチュウ"  # the voiced marks join their letters
    assert normalise_kana("crane") == "crane"
    expected = parse_entry(standard, "ランターン 10012")
    assert parse_entry(standard, "らんたーん 10012") == expected
    assert parse_entry(standard, "ﾗﾝﾀｰﾝ:10012") == expected
    with pytest.raises(
        ValueError, match=r"'ぴかちゅー' \(read as 'ピカチュー'\) is not an allowed guess"
    ):
        parse_entry(standard, "ぴかちゅー 00000")


def test_solved_ends_the_session():
    s = AdviceSession(parse_setting("gen1-4", "standard"))
    text = play(s, ["レントラー 22222", "never read"])
    assert s.finished and text.rstrip().endswith("solved")


def test_next_defaults_to_the_real_games_colouring(gamelab_cli):
    r = gamelab_cli("wordle", "next", "--history", "ランターン:10012", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["rule"] == "standard"
    assert [c["name"] for c in out["remaining"]] == ["グラードン", "ヒードラン"]
    r = gamelab_cli("wordle", "next", "--history", "らんたーん:10012")
    assert r.returncode == 0 and "2 candidate(s) left (rule standard" in r.stdout
    blog = gamelab_cli("wordle", "next", "--history", "ランターン:10012", "--rule", "blog")
    assert blog.returncode == 2 and "under rule blog" in blog.stderr
    assert "--rule standard" in blog.stderr


def test_rule_defaults_per_command():
    from gamelab.wordle.cli import app

    group = typer.main.get_command(app)
    defaults = {
        name: next(p.default for p in cmd.params if p.name == "rule")
        for name, cmd in group.commands.items()
        if any(p.name == "rule" for p in cmd.params)
    }
    # the ranking, the chart and the assistant share the game's colouring (issue 29 item 20);
    # the commands that reproduce the post's searches keep its colouring
    assert defaults["rank"] == defaults["chart"] == defaults["next"] == defaults["assist"]
    assert defaults["next"] == "standard" and defaults["prune-search"] == "blog"


def test_rank_json_names_its_rule(gamelab_cli):
    r = gamelab_cli("wordle", "rank", "--top", "2", "--json")
    rows = json.loads(r.stdout)
    assert [row["rule"] for row in rows] == ["standard", "standard"] and "entropy_blog" in rows[0]


def test_assist_in_a_pseudo_terminal():
    child = pexpect.spawn(
        sys.executable, ["-m", "gamelab.cli", "wordle", "assist"], encoding="utf-8", timeout=240
    )
    child.expect("rule standard")
    child.expect("or quit> ")
    child.sendline("")
    child.expect("type a guess and its colours")
    child.sendline("ﾗﾝﾀｰﾝ 1OO12")  # a letter O for a zero
    child.expect("error: .*bad colour 'O'")
    child.sendline("らんたーん 10012")
    child.expect(r"2 candidate\(s\) left \(rule standard")
    child.expect("next guess: ")
    child.sendline("undo")
    child.expect(r"candidate\(s\) left")
    child.sendline("help")
    child.expect("hiragana")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_custom_list_guesses_in_either_case(tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text("crane\nslate\nbrick\n")
    game = Game(load_word_list(parse_names("gen1-4"), answers, answers), "standard")
    assert parse_entry(game, "CRANE 00000") == parse_entry(game, "crane 00000")
    with pytest.raises(ValueError, match="'plumb' is not an allowed guess"):
        parse_entry(game, "plumb 00000")


def test_assist_reads_romaji_as_review_and_the_page_do():
    """Issue 29 item 20: `gamelab wordle assist` is the page's assistant on a Pokémon list, so
    it takes the names `review` and the page take (romaji, English) and says the same."""
    from gamelab.wordle.advice import AdviceSession, advise
    from gamelab.wordle.rules import parse_setting

    setting = parse_setting("gen1-4")
    session = AdviceSession(setting)
    text = run_scripted(session, ["rentoraa 00000", "Golduck 00000", "undo", "q"])
    page = advise(setting, [("rentoraa", "00000")])
    assert f"{page.candidates} candidate(s) left" in text
    assert f"next guess: {page.next.name}" in text
    assert session.history == [("レントラー", "00000")]  # undo took back Golduck
    with pytest.raises(ValueError, match="not a Pokémon name"):
        session.handle("asdfgh 00000")
    assert session.history == [("レントラー", "00000")]
