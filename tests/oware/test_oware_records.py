"""Issue 29 item 3 (and 11, 12 for records): a game record parses as a record (header, known
lines, legal moves) or is refused naming the wrong line; the current game is kept; a device or
a FIFO given as a record is refused at once."""

from __future__ import annotations

import dataclasses
import os

import pytest

from gamelab.core.interactive import run_scripted
from gamelab.oware.match import parse_player
from gamelab.oware.play import PlaySession
from gamelab.oware.rules import (
    HEADER,
    MAX_RECORD_CHARS,
    Position,
    Rules,
    format_record,
    parse_record,
)

PASSWD = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"


def test_3_a_file_with_colons_is_not_a_record():
    with pytest.raises(ValueError, match="not a game record: line 1 is 'root:x:0:0"):
        parse_record(PASSWD)
    with pytest.raises(ValueError, match="record line 2 is 'root:x:0:0"):
        parse_record(HEADER + "\n" + PASSWD)
    with pytest.raises(ValueError, match="no 'moves:' line"):
        parse_record(HEADER + "\nsouth: me\n")
    with pytest.raises(ValueError, match="record line 3: a second 'moves:' line"):
        parse_record(HEADER + "\nmoves: C\nmoves: C\n")
    with pytest.raises(ValueError, match=r"record line 2, record move 2 \('C'\): C is a South"):
        parse_record(HEADER + "\nmoves: C C\n")
    with pytest.raises(ValueError, match="record line 2: a position is 12 houses"):
        parse_record(HEADER + "\nstart: 1-2-3\nmoves:\n")
    with pytest.raises(ValueError, match="at most 50,000 characters"):
        parse_record(HEADER + "\nmoves:" + " C" * MAX_RECORD_CHARS)
    text = format_record(Position.initial(), [2, 3], "human", "random")
    assert parse_record(text)[1] == [2, 3]  # a saved record still loads


def test_3_loading_a_non_record_keeps_the_current_game(tmp_path):
    passwd = tmp_path / "passwd"
    passwd.write_text(PASSWD)
    s = PlaySession(parse_player("random"), seed=1, tablebase_seeds=6)
    text = run_scripted(s, ["C", f"load {passwd}", f"load {os.devnull}", "quit"])
    assert f"error: {passwd}: not a game record: line 1 is 'root:x:0:0" in text
    assert f"cannot read game record {os.devnull}: not a regular file" in text
    assert len(s.moves) == 2 and s.moves[0] == 2  # the game before the failed loads


def test_3_play_load_refuses_a_non_record(tmp_path, gamelab_cli):
    passwd = tmp_path / "passwd"
    passwd.write_text(PASSWD)
    r = gamelab_cli("oware", "play", "--load", str(passwd))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"error: {passwd}: not a game record: line 1"), r.stderr


@pytest.mark.timeout(30)
def test_11_a_device_or_a_fifo_as_a_record_is_refused_at_once(tmp_path, gamelab_cli):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        r = gamelab_cli("oware", "play", "--load", path)
        assert r.returncode == 2, r.stderr
        assert r.stderr == f"error: cannot read game record {path}: not a regular file\n"
    big = tmp_path / "big.txt"
    big.write_text(HEADER + "\n" + "#" * (MAX_RECORD_CHARS + 1))
    s = PlaySession(parse_player("random"), seed=1, tablebase_seeds=6)
    text = run_scripted(s, [f"load {big}", "quit"])
    assert f"error: game record {big} is {big.stat().st_size:,} bytes; at most 50,000" in text


def test_3_the_web_api_refuses_a_non_record_as_the_cli_does():
    from fastapi.testclient import TestClient

    from gamelab.web.app import create_app

    client = TestClient(create_app(), raise_server_exceptions=False)  # no pool: a cheap call
    r = client.post("/api/oware/load", json={"text": PASSWD})
    assert r.status_code == 422
    assert r.json()["detail"].startswith("not a game record: line 1 is 'root:x:0:0")


def test_22_the_record_format_is_the_rules_own(tmp_path):
    """Issue 22: the record format lived in notation.py, a grab-bag beside the rules. It is
    defined with the rules now (one parser and one formatter for each notation there); only
    reading and writing the file is the terminal game's (`play.load_record`)."""
    import importlib.util
    import inspect

    from gamelab.oware import play, rules
    from gamelab.oware.rules import Rules, random_positions

    assert importlib.util.find_spec("gamelab.oware.notation") is None
    source = inspect.getsource(rules)
    assert "import pathlib" not in source and "read_text_file" not in source  # no I/O
    variant = Rules(grand_slam="forbidden", cycle="split")
    start = random_positions(1, seed=4, max_plies=12)[0]
    start = rules.Position.from_text(start.to_text(), variant)
    p, moves = start, []
    while not p.is_over():  # play the game out by the first legal move
        moves.append(p.legal_moves()[0])
        p = p.play(moves[-1])
    text = rules.format_record(start, moves, "human", "engine:time=1")
    assert "rules: grand-slam=forbidden cycle=split" in text and "result: " in text
    again, parsed, headers = rules.parse_record(text)
    assert again == start and parsed == moves and headers["north"] == "engine:time=1"
    path = tmp_path / "game.txt"
    path.write_text(text)
    assert play.load_record(path)[1] == moves
    letter = rules.move_letter(start.to_move, moves[0])
    assert rules.parse_move(letter, start, digits=False) == moves[0]


# a record as `gamelab oware play`'s `save` and the page's "Save record" have written it since the
# format's first version (v1): a rule variant, a start of its own, North to move first, a game
# in progress; the position after its moves, worked out when it was saved
OLD_RECORD = """# gamelab oware record v1
rules: grand-slam=forbidden cycle=split
start: 0-5-5-5-5-4-4-4-4-4-4-4-0-0-N
south: human
north: engine:time=1
moves: e A a C b F f D a A c C e D b B e E a A d C f D b C e D a E
"""
OLD_RECORD_POSITION = "1-5-1-0-0-13-1-2-9-0-0-2-6-8-N"


def test_an_old_record_opens_through_the_state_protocol_at_the_same_position(monkeypatch, tmp_path):
    """The page's record loader (`game.load_record`) rebuilt the game by hand beside the
    protocol's own road (`state.record_trail`, as the terminal game's `load` takes it): a saved
    record opens through that one road, in the terminal game and on the page alike, at the
    position it was saved at."""
    from gamelab.oware import game, play, state

    roads = []
    real = state.record_trail

    def road(start, moves):
        roads.append(len(moves))
        return real(start, moves)

    monkeypatch.setattr(game, "record_trail", road)
    view = game.load_record(OLD_RECORD)
    assert roads == [30]
    assert view.position == OLD_RECORD_POSITION and view.players == ["human", "engine:time=1"]
    assert len(view.moves) == 30 and view.moves[0] == "e" and not view.over
    # the page continues from it as from the same game sent move by move
    again = game.game_view(view.start, Rules(grand_slam="forbidden", cycle="split"), view.moves)
    assert again == dataclasses.replace(view, players=again.players)
    # the terminal game's `load` opens it at the same position
    path = tmp_path / "old.txt"
    path.write_text(OLD_RECORD)
    assert play.record_state(*play.load_record(path)[:2]).position.to_text() == OLD_RECORD_POSITION
    session = PlaySession(parse_player("random"), load=path, seed=1, tablebase_seeds=6)
    assert session.state.position.to_text() == OLD_RECORD_POSITION
