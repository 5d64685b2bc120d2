"""`oware play` and `oware analyse` as a person uses them: failed commands keep the game, the
score's unit, the whole principal variation in house letters; a pseudo-terminal session."""

import json
import sys

import pexpect

from gamelab.core.interactive import run_scripted, run_session
from gamelab.oware.analysis import analyse, describe_score, pv_letters
from gamelab.oware.match import parse_player
from gamelab.oware.play import PlaySession, parse_record
from gamelab.oware.rules import Position

play = run_scripted  # the session driven by scripted lines, what it showed as text


def test_failed_save_and_load_keep_the_game(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    folder = tmp_path / "folder"
    folder.mkdir()
    garbage = tmp_path / "garbage.txt"
    garbage.write_bytes(b"\xff\xfe not a record")
    good = tmp_path / "game.txt"
    s = PlaySession(parse_player("random"), seed=1, tablebase_seeds=6, analysis_time=0.05)
    text = play(
        s,
        [
            "C",
            f"save {blocker}/game.txt",
            f"save {folder}",
            "save",
            f"load {garbage}",
            f"load {tmp_path}/missing.txt",
            "",
            "Z",
            f"save {good}",
            "quit",
        ],
    )
    assert (
        f"error: cannot save the game to {blocker}/game.txt: {blocker} is a file, not a folder"
        in text
    )
    assert f"error: cannot save the game to {folder}: it is a folder" in text
    assert "error: save needs a file name" in text
    assert f"error: cannot read game record {garbage}" in text
    assert "No such file or directory" in text
    assert "type a house letter" in text  # a blank line asks, it does not quit
    assert "error: a move is a house letter" in text
    assert len(s.moves) == 2 and s.moves[0] == 2  # C and the reply survived every failure
    assert not list(tmp_path.glob("**/.*.tmp"))  # nothing half-written
    _, saved, headers = parse_record(good.read_text())
    assert saved == s.moves and headers["south"] == "human" and headers["north"] == "random"


def test_load_continues_and_undo_takes_back_a_pair(tmp_path):
    first = PlaySession(parse_player("random"), seed=2, tablebase_seeds=6)
    play(first, ["A", "B", f"save {tmp_path / 'g.txt'}", "q"])
    s = PlaySession(parse_player("random"), seed=5, tablebase_seeds=6)
    text = play(s, [f"load {tmp_path / 'g.txt'}", "undo", "undo", "undo", "q"])
    assert "loaded" in text and "nothing to undo" in text and s.moves == []


def test_48_undo_never_hands_you_the_opponents_side():
    """Playing North, `undo` before your first move used to go back to the start with South to
    move, so your next move sowed South's houses and the opponent stopped replying."""
    s = PlaySession(parse_player("greedy"), human_side=1, seed=0, tablebase_seeds=6)
    text = play(s, ["undo", "a", "q"])
    assert "nothing to undo" in text and len(s.moves) == 3 and s.position.to_move == 1
    assert "greedy plays " in text.split("nothing to undo")[1]  # it still replies


def test_hint_and_eval_use_letters_and_units():
    s = PlaySession(parse_player("random"), seed=1, tablebase_seeds=6, analysis_time=0.05)
    text = play(s, ["hint", "eval", "q"])
    hint = next(line for line in text.splitlines() if line.startswith("hint: "))
    assert hint[6] in "ABCDEF" and "25 = one seed" in hint
    pv = next(line for line in text.splitlines() if line.startswith("principal variation: "))
    letters = pv.split(": ")[1].split()
    assert (
        letters
        and all(m in "ABCDEF" for m in letters[::2])
        and all(m in "abcdef" for m in letters[1::2])
    )


def test_playing_north_the_engine_opens():
    s = PlaySession(parse_player("greedy"), human_side=1, seed=0, tablebase_seeds=6)
    text = play(s, ["q"])
    assert "greedy plays " in text and s.position.to_move == 1 and len(s.moves) == 1


def test_analysis_whole_pv_in_the_best_moves_notation():
    a = analyse(Position.initial(), depth=6, tablebase_seeds=-1)
    assert len(a.pv) == len(a.pv_text) == 6
    assert a.pv_text[0] == a.best_move_text == "ABCDEF"[a.best_move]
    assert a.pv_text == pv_letters(Position.initial(), a.pv)
    assert "25 per seed" in a.score_unit and "seeds for the side to move" in a.score_text
    timed = analyse(Position.initial(), time_limit=0.3, tablebase_seeds=6)
    # the whole line the engine searched (the table alone often gives only its first few plies)
    assert timed.depth >= 6 and len(timed.pv_text) == timed.depth
    assert describe_score(-10000 + 12 - 50, "auale").startswith("-10038 (a lost game")
    assert "2 = one seed" in describe_score(4, "blog")


def test_analyse_cli_text_and_json(gamelab_cli):
    r = gamelab_cli("oware", "analyse", "--depth", "5", "--tablebase", "-1")
    assert r.returncode == 0, r.stderr
    assert "auale evaluation units, 25 = one seed" in r.stdout
    line = next(x for x in r.stdout.splitlines() if x.startswith("principal variation (5 plies): "))
    best = next(x for x in r.stdout.splitlines() if x.startswith("best move "))
    assert line.split(": ")[1].split()[0] == best.split()[2]  # the PV starts with the best move
    assert "verdict: " in r.stdout
    j = gamelab_cli("oware", "analyse", "--depth", "5", "--tablebase", "-1", "--json")
    data = json.loads(j.stdout)["analysis"]  # the page's document (issue 22)
    assert data["pv_text"][0] == data["best_move_text"] and len(data["pv_text"]) == 5
    assert set(data) >= {"best_move", "score", "score_unit", "pv", "depth", "nodes", "nps"}


def test_play_in_a_pseudo_terminal(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gamelab.cli", "oware", "play", "--engine", "random", "--seed", "1"],
        encoding="utf-8",
        timeout=240,
    )
    child.expect("Type 'help' for commands")
    child.expect(r"your move \(A-F, or help\)> ")
    child.sendline("help")
    child.expect("save FILE")
    child.sendline("Z")
    child.expect("error: a move is a house letter")
    child.sendline("C")
    child.expect("random plays [a-f]")
    child.sendline(f"save {blocker}/game.txt")  # a parent that is a file
    child.expect(f"error: cannot save the game to {blocker}/game.txt")
    child.expect(r"your move \(A-F, or help\)> ")  # the program and the game go on
    child.sendline(f"save {tmp_path}/game.txt")
    child.expect("saved ")
    child.sendline("undo")
    child.expect("to move: South")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    _, moves, _ = parse_record((tmp_path / "game.txt").read_text())
    assert len(moves) == 2 and moves[0] == 2


def _script_until_interrupted(lines):
    """A read_line that gives `lines`, then Ctrl-C at the prompt."""
    script = iter(lines)

    def read_line(prompt):
        try:
            return next(script)
        except StopIteration:
            raise KeyboardInterrupt from None

    return read_line


def test_48_the_terminal_game_is_the_state_protocols_game():
    """Issue 48 item 3: `oware play` plays through the state protocol, as the page does: the
    same seed and typed lines give the same game (pinned from the tree before the move), wrong
    input gets one error line, the end of a game is the state's, Ctrl-C ends quietly."""
    from gamelab.oware.game import load_record
    from gamelab.oware.rules import format_record
    from gamelab.oware.state import OwareState

    # pinned from `oware play` before it moved onto the protocol: seed 1, C then 2
    s = PlaySession(parse_player("random"), seed=1, tablebase_seeds=6)
    text = play(s, ["C", "2", "q"])
    assert isinstance(s.state, OwareState) and s.moves == [2, 2, 1, 3]
    assert "random plays c" in text and "random plays d" in text
    tokens = ["A", "b", "3", "Z", "", "F", "7", "c", "D", "board", "E", "1", "B", "6"]
    lines = ["undo", *tokens * 60]
    first = PlaySession(parse_player("random"), seed=4, tablebase_seeds=6)
    text = play(first, lines)
    again = PlaySession(parse_player("random"), seed=4, tablebase_seeds=6)
    assert play(again, lines) == text and again.moves == first.moves  # same seed, same game
    assert "Traceback" not in text and "error: a move is a house letter" in text
    view = load_record(format_record(first.start, first.moves, "human", "random"))  # the page's
    a, b = view.result
    verdict = {"South": "you win", "North": "you lose", None: "draw"}[view.winner]
    assert first.finished and text.splitlines()[-1] == f"game over {a}-{b}: {verdict}"
    shown = []
    s = PlaySession(parse_player("random"), seed=4, tablebase_seeds=6)
    run_session(s, _script_until_interrupted(["A", "Z"]), shown.append)
    assert shown[-2:] == [
        "error: a move is a house letter (A-F for South, a-f for North) or 1-6 "
        "(your houses); 'Z' is not a house",
        "bye",
    ]
    assert len(s.moves) == 2  # the game is kept
