"""Issue 29 item 7: a player spec's numbers are bounded (no OverflowError, no MemoryError), in
the CLI as in the web API; generated from the table of limits, so a new option is covered."""

import pytest

from gamelab.oware.match import LIMITS, parse_player

ABSURD = ["1e20", "inf", "-inf", "nan", "1000000000", "-5", "0"]


@pytest.mark.parametrize("kind,key", sorted(LIMITS))
def test_7_absurd_player_options_are_refused(kind, key):
    low, high = LIMITS[kind, key]
    for value in ABSURD:
        try:
            number = float(value)
        except ValueError:
            continue
        if low <= number <= high:
            continue
        with pytest.raises(
            ValueError, match=f"option {key} of player {kind} is {low} to {high}|must be a"
        ):
            parse_player(f"{kind}:{key}={value}")
    assert parse_player(f"{kind}:{key}={high}").options[key] == high  # the bound itself is fine


@pytest.mark.parametrize("spec", ["engine:time=1e20", "engine:time=inf", "blog:depth=1000000000"])
def test_7_match_refuses_absurd_players_before_playing(spec, gamelab_cli):
    r = gamelab_cli("oware", "match", "--a", spec, "--b", "random", "--games", "2")
    assert r.returncode == 2 and r.stdout == "", r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: option "), r.stderr
