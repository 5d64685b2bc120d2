"""`yatzy play`: the session with injected I/O, and a scripted game in a pseudo-terminal."""

import sys

import pexpect
import pytest

from gamelab.core.interactive import run_scripted
from gamelab.yatzy.card import Card
from gamelab.yatzy.play import PlaySession, format_card
from gamelab.yatzy.rules import RULES, get_rules, parse_dice

play = run_scripted  # the session driven by scripted lines, what it showed as text


def test_instructions_help_and_quit():
    s = PlaySession(RULES["yatzy"], seed=3)
    text = play(s, ["help", "q"])
    assert text.count("How to play") == 2  # at the start and on help
    assert "yatzy" in text and "yahtzee" not in text  # Yatzy's own box name
    assert s.finished and "game left at turn 1" in text


def test_enter_at_keep_asks_before_ending_the_rolls():
    s = PlaySession(RULES["yatzy"], seed=3, opponent=False)
    first = s.dice.copy()
    text = play(s, ["", "n", "", "y"])
    assert text.count("stop rolling and score these dice? (y/n)") == 2
    assert "rolling on" in text
    assert s.rolls_left == 0 and (s.dice == first).all()  # no die was rerolled
    assert "would score" in text and "box? " in text  # the card with these dice's points


def test_bad_input_keeps_the_game_and_box_names_follow_the_rules():
    s = PlaySession(RULES["yatzy"], seed=3)
    text = play(s, ["77", "66666", "all", "banana", "yahtzee", "q"])
    assert "error: keep '77' not understood: give the dice to keep as up to five digits" in text
    assert "error: cannot keep 66666" in text
    assert (
        "error: unknown box 'banana' for rules yatzy" in text and "yatzy" in text.split("banana")[1]
    )
    # 'yahtzee' is still understood as an alias, and the score line says "yatzy"
    assert "in yatzy" in text and s.you.entries[-1] is not None and s.turn == 2


def test_filled_box_is_refused():
    s = PlaySession(RULES["yahtzee-no-bonus"], seed=1, opponent=False)
    text = play(s, ["all", "chance", "all", "chance", "q"])
    assert "error: box chance is already filled" in text and s.turn == 2


def test_following_the_coach_finishes_the_game():
    s = PlaySession(RULES["yahtzee-no-bonus"], seed=3)
    text = play(s, ["h"] + ["best"] * 60)
    assert s.finished and text.strip().splitlines()[-1].startswith("final: you ")
    assert s.you.done and s.bot.done
    assert "expected final score" in text


def test_card_shows_both_players_and_the_upper_bonus():
    r = get_rules("yatzy")
    you = Card.parse(r, "ones=3,sixes=24,yahtzee=50")
    text = format_card(r, you, Card.empty(r), parse_dice("66612"))
    assert "sixes" in text and "upper (50 at 63)" in text and "yatzy" in text
    row = next(line for line in text.splitlines() if line.startswith("fives"))
    assert row.split()[-1] == "0"  # 66612 would score 0 in fives
    assert text.splitlines()[-1].split()[1] == "77"  # total


@pytest.mark.parametrize("quit_word", ["q", "quit", "ctrl-c"])
def test_play_in_a_pseudo_terminal(quit_word, pty_spawn):
    child = pty_spawn(
        sys.executable,
        ["-m", "gamelab.cli", "yatzy", "play", "--rules", "yatzy", "--seed", "3"],
        encoding="utf-8",
        timeout=240,
    )
    child.expect("How to play")
    child.expect("keep\\? ")
    child.sendline("help")
    child.expect("How to play")
    child.expect("keep\\? ")
    child.sendline("")  # Enter: asked, not ended
    child.expect("stop rolling and score these dice\\? \\(y/n\\) ")
    child.sendline("n")
    child.expect("keep\\? ")
    child.sendline("9")
    child.expect("error: keep")
    child.sendline("all")
    child.expect("would score")
    child.expect("box\\? ")
    child.sendline("yatzy")
    child.expect("you score \\d+ in yatzy")
    child.expect("bot: rolls")
    child.expect("keep\\? ")
    if quit_word == "ctrl-c":  # at a prompt Ctrl-C leaves like quit (issue 11), with a goodbye
        child.sendintr()
        child.expect("game left at turn 2: you \\d+, bot \\d+")
        child.expect("bye")
    else:
        child.sendline(quit_word)
    child.expect(pexpect.EOF)
    assert "error" not in child.before
    child.close()
    assert child.exitstatus == 0


def test_advise_and_card_text_use_the_rule_sets_box_names(gamelab_cli):
    import json

    r = gamelab_cli(
        "yatzy",
        "advise",
        "--rules",
        "yatzy",
        "--dice",
        "66666",
        "--rolls-left",
        "0",
        "--card",
        "sixes=18",
        "--json",
    )
    out = json.loads(r.stdout)
    assert out["options"][0]["box"] == "yatzy" and out["options"][0]["points"] == 50
    assert Card.parse(RULES["yatzy"], "yatzy=50,ones=3").text() == "ones=3,yatzy=50"
    assert Card.parse(RULES["yahtzee"], "y=50").text() == "yahtzee=50"


def test_29_20_undo_and_a_stray_y_at_the_box_prompt_never_scores_0_unasked():
    """Issue 29 item 20: `yatzy play` had no undo, and `y` at the box prompt (the yatzy alias)
    scored 0 in yatzy without asking."""
    s = PlaySession(RULES["yatzy"], seed=3)
    first = s.dice.copy()
    play(s, ["-"])
    rerolled = s.dice.copy()
    text = play(s, ["undo"])
    assert "undone" in text and s.rolls_left == 2 and (s.dice == first).all()
    play(s, ["-"])
    # issue 47, item 1: a decision made again meets fresh dice, not the ones it saw
    assert not (s.dice == rerolled).all() and s.takebacks == 1
    play(s, ["all"])  # stop rolling: the box prompt
    assert s.rolls_left == 0 and s.prompt.endswith("box? ")
    points = {n: p + b for n, p, b in s.rules.placements(s.dice, s.you)}
    assert points["yahtzee"] == 0 and any(points.values())  # these dice are no yatzy
    bot_before = list(s.bot.entries)
    text = play(s, ["y"])
    assert "score 0 in yatzy" in text and s.you.filled_count == 0
    assert s.prompt.endswith("score 0 in yatzy? (y/n) ")
    text = play(s, ["n"])
    assert "not scored" in text and s.you.filled_count == 0 and s.prompt.endswith("box? ")
    play(s, ["y", "y"])  # asked, and confirmed
    yb = s.rules.box_index("yatzy")
    assert s.you.entries[yb] == 0 and s.turn == 2 and s.bot.filled_count == 1
    text = play(s, ["undo"])  # the box and the bot's turn it led to are taken back
    assert s.you.entries[yb] is None and list(s.bot.entries) == bot_before and s.turn == 1
    assert s.rolls_left == 0 and "box? " in s.prompt
    with pytest.raises(ValueError, match="no decision to undo"):
        PlaySession(RULES["yatzy"], seed=3).handle("undo")


def test_48_the_terminal_game_is_the_state_protocols_game():
    """Issue 48 item 3: `yatzy play` plays through the state protocol (the bot's choices are
    the page bot's, :func:`gamelab.yatzy.game.table_action`): the same seed and typed lines give
    the same dice and turns as before the move (pinned from that tree), wrong input gets one
    error line, the end of the game is the state's, Ctrl-C ends quietly with the score so far."""
    from gamelab.core.interactive import run_session
    from gamelab.yatzy.state import YatzyState

    s = PlaySession(RULES["yatzy"], seed=3)
    text = play(s, ["-", "all", "chance"])
    assert isinstance(s.state, YatzyState)
    for line in (
        "turn 1/15 | dice 12225 | 2 rolls left | keep? ",
        "turn 1/15 | dice 11456 | 1 roll left | keep? ",
        "you score 17 in chance",
        "bot: rolls 22334 -> 13355 -> 11355; ones for 2",
        "turn 2/15 | dice 33346 | 2 rolls left | keep? ",
    ):
        assert line in text.splitlines()
    lines = ["zz", "", "n", "7777", "box", "h", "best", "undo", "best"] + ["best"] * 60
    rules = RULES["yahtzee"]
    first = PlaySession(rules, seed=5)
    text = play(first, lines)
    again = PlaySession(rules, seed=5, E=first.E)
    assert play(again, lines) == text  # same seed, same inputs: the same game
    assert "Traceback" not in text and "error: keep 'zz' not understood" in text
    you, bot = first.state.scores()
    assert first.finished and first.state.is_terminal()
    assert text.splitlines()[-1].startswith(f"final: you {you}, bot {bot}: ")
    shown = []
    script = iter(["1", "banana"])

    def read_line(prompt):
        try:
            return next(script)
        except StopIteration:
            raise KeyboardInterrupt from None

    run_session(PlaySession(rules, seed=5, E=first.E), read_line, shown.append)
    assert shown[-2:] == ["game left at turn 1: you 0, bot 0", "bye"]
