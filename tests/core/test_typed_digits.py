"""Digits are read the same in every game's text input and the command line's numbers (issue
50): full-width digits, as a Japanese keyboard types them, are read as ASCII (as ``int`` reads
them in a Voltorb clue, an Owaré position or a Yatzy card), and superscript or circled signs
are refused as not digits, with the input quoted."""

from __future__ import annotations

import pytest

from gamelab.oware.rules import Position, parse_move
from gamelab.wordle.rules import parse_pattern
from gamelab.yatzy.rules import parse_dice, parse_keep


def test_full_width_digits_read_as_ascii_in_every_game():
    assert parse_dice("１１１４５").tolist() == parse_dice("11145").tolist()
    assert parse_dice("１，１，１，４，５").tolist() == parse_dice("11145").tolist()
    dice = parse_dice("11145")
    assert parse_keep("１１１", dice).tolist() == parse_keep("111", dice).tolist()
    assert parse_pattern("００１２０", 5) == parse_pattern("00120", 5)
    assert parse_move("３", Position.initial()) == parse_move("3", Position.initial()) == 2
    assert parse_move("Ｃ", Position.initial()) == 2  # a full-width house letter too


@pytest.mark.parametrize("sign", ["²", "②", "½"])
def test_digit_like_signs_are_refused_as_not_digits(sign):
    for parse in (
        lambda: parse_dice(f"1114{sign}"),
        lambda: parse_keep(f"11{sign}", parse_dice("11145")),
        lambda: parse_pattern(f"0012{sign}", 5),
        lambda: parse_move(sign, Position.initial()),
    ):
        with pytest.raises(ValueError, match=f"'{sign}' is not a digit"):
            parse()


def test_a_number_option_reads_full_width_digits(gamelab_cli):
    r = gamelab_cli("oware", "perft", "--depth", "３")
    assert r.returncode == 0, r.stderr
    assert "perft(3) = 190" in r.stdout


def test_a_number_option_refuses_digit_like_signs(gamelab_cli):
    r = gamelab_cli("oware", "perft", "--depth", "³")
    assert r.returncode == 2 and "'³' is not a digit" in r.stderr, r.stderr
