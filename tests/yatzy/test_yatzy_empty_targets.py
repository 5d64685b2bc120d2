"""Issue 29 item 13: an empty --targets is an error, not the 6-minute default study."""

import pytest

from gamelab.yatzy.target import parse_targets


@pytest.mark.parametrize("text", ["", ",,,", " , "])
def test_13_empty_targets_are_an_error(text, gamelab_cli):
    with pytest.raises(ValueError, match="no target score given"):
        parse_targets(text)
    r = gamelab_cli("yatzy", "target", "--targets", text)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: no target score given"), r.stderr
