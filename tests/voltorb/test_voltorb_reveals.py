"""Issue 29 item 5: contradictory reveals of one tile are an error, not "the last one wins"."""

import pytest

from gamelab.voltorb.rules import parse_revealed

ROWS, COLS = "4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"


def test_5_contradictory_reveals_are_an_error(gamelab_cli):
    with pytest.raises(ValueError, match="tile 1,1 two values"):
        parse_revealed(["1,1=1", "1,1=2"])
    with pytest.raises(ValueError, match="tile 2,3 two values"):
        parse_revealed(["2,3=0 2,3=3"])
    assert parse_revealed(["1,1=1", "1,1=1"]) == {0: 1}  # the same value twice is no contradiction
    r = gamelab_cli(
        "voltorb",
        "solve",
        "--rows",
        ROWS,
        "--cols",
        COLS,
        "--revealed",
        "1,1=1",
        "--revealed",
        "1,1=2",
    )
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: --revealed gives tile 1,1 two values (1 and 2)"), r.stderr
