"""`voltorb assist`: the session with injected I/O, and a scripted session in a pseudo-terminal."""

import sys
import time

import pexpect
import pytest

from gamelab.core.interactive import run_scripted
from gamelab.voltorb.assistant import AssistSession, analyse_position, position_posterior
from gamelab.voltorb.rules import Position, VoltorbSetting

# A level-2 board of the CLI tests: 198 consistent boards before any flip, 138 after 2,1=1.
ROWS, COLS = "4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"
# Clues of the level-1 board the hgss generator deals with seed 23; no other board fits them:
#   1 0 2 3 1 / 1 1 0 1 1 / 1 0 2 1 1 / 1 1 1 1 1 / 0 0 0 2 1
# Flipping its 2s and 3s (1,3 1,4 3,3 5,4) clears it.
EASY_ROWS, EASY_COLS = "7,1 4,1 5,1 5,0 3,3", "4,1 2,3 5,2 8,0 5,0"


play = run_scripted  # the session driven by scripted lines, what it showed as text


def test_rows_are_checked_as_typed_and_blank_lines_do_not_quit():
    s = AssistSession(VoltorbSetting(2), search=False)
    text = play(s, ["4,2 8,0 4,2 4,2", "", "4,2 8,0 4,2 4,2 16,4", ROWS, "help", COLS])
    assert "error: the row clues need 5 entries" in text  # reported before the columns are asked
    assert "row 5 has sum 16 with 4 Voltorbs" in text
    assert "type the row clues" in text  # the blank line asks again
    assert "S = sum of the row's cards, V = its Voltorbs" in text  # the prompt explains S,V
    assert "0 = Voltorb" in text and "undo" in text  # help
    assert "consistent boards: 198" in text and not s.finished  # input ended: no crash


def test_flips_undo_spaces_and_refusals():
    s = AssistSession(VoltorbSetting(2), search=False)
    text = play(s, [ROWS, COLS, "2, 1 = 1", "2,1=3", "undo", "2,1 =1", "7,1=1", "2,2=x", "quit"])
    assert text.count("consistent boards: 138") == 2  # after the first flip and after the retype
    assert "error: row 2, column 1 is already revealed (1); type undo" in text
    assert "took back row 2, column 1 = 1" in text and "consistent boards: 198" in text
    assert "rows and columns are 1-5" in text and "a flip looks like row,col=value" in text
    assert s.finished and s.outcome is None and s.revealed == {5: 1}


def test_impossible_flip_is_refused_and_the_game_kept():
    s = AssistSession(VoltorbSetting(2), search=False)
    text = play(s, [ROWS, COLS, "2,1=0", "q"])  # row 2 holds no Voltorb
    assert "error: no board is consistent" in text and s.revealed == {}


def test_winning_flip_is_a_win_and_a_voltorb_a_loss():
    s = AssistSession(VoltorbSetting(1), search=False)
    text = play(s, [EASY_ROWS, EASY_COLS, "1,3=2", "1,4=3", "3,3=2", "5,4=2", "1,1=1"])
    assert "Board cleared" in text and "error: the round is over (won); type undo" in text
    assert s.outcome == "won" and not s.finished  # the session waits for undo or quit
    s = AssistSession(VoltorbSetting(1), search=False)
    play(s, [EASY_ROWS, EASY_COLS, "1,2=0"])
    assert s.outcome == "lost" and not s.finished


def test_issue_29_item_20_a_mistyped_voltorb_can_be_undone_in_the_real_command():
    """`gamelab voltorb assist` as a real process on a pipe: a typo 1,2=0 does not end the
    session; undo takes it back and the round goes on."""
    import subprocess
    from pathlib import Path

    lines = [EASY_ROWS, EASY_COLS, "1,2=0", "undo", "1,3=2", "quit"]
    exe = Path(sys.executable).with_name("gamelab")
    run = subprocess.run(
        [str(exe), "voltorb", "assist", "--level", "1", "--no-optimal"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "mistyped? type undo" in out and "took back row 1, column 2 = 0" in out
    # after the undo the flip 1,3=2 is analysed: the session did not end at the Voltorb
    assert out.index("took back row 1, column 2 = 0") < out.rindex("consistent boards")


def test_inconsistent_columns_are_refused_then_undo_goes_back():
    s = AssistSession(VoltorbSetting(2), search=False)
    text = play(s, [ROWS, "6,1 5,0 5,2 4,3 5,2", "undo", "undo", ROWS, COLS, "q"])
    assert "error: no board is consistent with these clues: the rows hold 7 Voltorbs" in text
    assert "took back the row clues" in text and "consistent boards: 198" in text


def test_analysis_matches_the_solve_command(gamelab_cli):
    import json

    position = Position.parse(ROWS, COLS, ["2,1=1"])
    clues, shown, post = (
        position.clues,
        position.shown,
        position_posterior(position, VoltorbSetting(2)),
    )
    analysis = analyse_position(clues, shown, post)
    r = gamelab_cli(
        "voltorb",
        "solve",
        "--rows",
        ROWS,
        "--cols",
        COLS,
        "--revealed",
        "2,1=1",
        "--level",
        "2",
        "--json",
    )
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert out["consistent_boards"] == analysis.consistent_boards == 138
    assert out["recommended"] == analysis.recommended
    assert out["win_probability"] == pytest.approx(analysis.win_probability)


def test_assist_in_a_pseudo_terminal():
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gamelab.cli", "voltorb", "assist", "--level", "1"],
        encoding="utf-8",
        timeout=240,
    )
    child.expect(r"V = its Voltorbs\)> ")
    child.sendline("7,1 4,1 5,1 5,0 3,0")  # typo: the last row's Voltorbs
    child.expect("error: no board is consistent with these clues: row 5")
    child.expect(r"V = its Voltorbs\)> ")  # asked again at once, before any column
    child.sendline("")
    child.expect("type the row clues")
    child.sendline(EASY_ROWS)
    child.expect(r"column clues, left to right")
    child.sendline(EASY_COLS)
    child.expect("recommended flip")
    child.expect("undo, help or quit> ")
    child.sendline("help")
    child.expect("0 = Voltorb")
    child.sendline("1,3 = 2")
    child.expect("consistent boards")
    child.sendline("1,3=2")
    child.expect("already revealed")
    child.sendline("undo")
    child.expect("took back row 1, column 3")
    child.sendline("1,3=2; 1,4=3")
    child.expect("recommended flip")
    child.sendline("3,3=2")
    child.expect("recommended flip")
    child.sendline("5, 4=2")
    child.expect("Board cleared")
    child.expect("undo, help or quit> ")  # the session waits: the last flip may be a typo
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("leave", ["quit", "ctrl-c", "ctrl-d"])
def test_quit_in_a_pseudo_terminal(leave, pty_spawn):
    # Ctrl-C or Ctrl-D at a prompt leave like quit: exit 0 and a goodbye (issue 11)
    child = pty_spawn(
        sys.executable,
        ["-m", "gamelab.cli", "voltorb", "assist", "--level", "2"],
        encoding="utf-8",
        timeout=240,
    )
    child.expect(r"\)> ")
    child.sendline("4,2 8,0 4,2 4,2 5,1")
    child.expect(r"\)> ")
    if leave == "quit":
        child.sendline("quit")
    elif leave == "ctrl-c":
        # as a person would, a moment after the prompt is drawn: readline draws it before it
        # starts waiting for a key, and a Ctrl-C in between is seen only at the next key
        time.sleep(0.5)
        child.sendintr()
        child.expect("bye")
    else:
        child.sendeof()
        child.expect("bye")
    child.expect(pexpect.EOF)
    rest = child.before
    child.close()
    assert child.exitstatus == 0, (leave, child.exitstatus, child.signalstatus)
    assert "error" not in rest and "Traceback" not in rest
