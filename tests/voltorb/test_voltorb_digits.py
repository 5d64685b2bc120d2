"""Digits in clues are read as everywhere else: full-width ones (what ``int`` reads) are
accepted, superscript or circled signs are refused with a message (issue 50)."""

from __future__ import annotations

import pytest

from gamelab.voltorb.rules import ClueError, parse_lines, parse_revealed


def test_full_width_digits_read_as_ascii():
    assert parse_lines("４，２ 8,0 4,2 4,2 5,1", "rows") == ([4, 8, 4, 4, 5], [2, 0, 2, 2, 1])
    assert int("４") == 4  # as every other number gamelab reads


@pytest.mark.parametrize("sign", ["²", "②", "½"])
def test_digit_like_signs_are_refused(sign):
    with pytest.raises(ClueError, match="is not a digit"):
        parse_lines(f"4,{sign} 8,0 4,2 4,2 5,1", "rows")
    with pytest.raises(ValueError, match="is not a digit"):
        parse_revealed([f"1,1={sign}"])


def test_a_digit_like_sign_names_its_line():
    with pytest.raises(ClueError, match=r"^row 2 clue: '²' is not a digit") as caught:
        parse_lines("4,2 8,² 4,2 4,2 5,1", "rows")
    assert caught.value.field == "rows.2"
