"""Issue 29 item 17: no Python wording leaks into an error; each example the issue names reads
as a sentence about the user's input (the file named, the value that is wrong)."""

import re

import pytest

#: what a message must never contain: Python's own wording, or the internal names of a field
PYTHON_WORDING = re.compile(
    r"Traceback|Errno|codec can't|list indices|KeyError|TypeError|NoneType|row_sums|"
    r"row_voltorbs|col_sums|'candidates'$|\b1 boards\b|clues needs"
)

ROWS, COLS = "4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"


def _one_error(r) -> str:
    assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stdout)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert not PYTHON_WORDING.search(lines[0]), lines[0]
    return lines[0]


def test_17_a_file_that_is_not_utf8_is_named_with_the_byte(tmp_path, gamelab_cli):
    bad = tmp_path / "guesses.txt"
    bad.write_bytes(b"\xab\xcd\n")
    answers = tmp_path / "answers.txt"
    answers.write_text("ピカチュウ\n", encoding="utf-8")
    line = _one_error(
        gamelab_cli("wordle", "rank", "--guesses", str(bad), "--answers", str(answers))
    )
    assert str(bad) in line and "not UTF-8" in line and "0xab" in line


@pytest.mark.parametrize(
    "text, says",
    [
        ('{"a": 1}', "is not a decision tree"),  # was 'candidates' (a KeyError's text)
        ("[1, 2]", "is not a decision tree"),  # was "list indices must be integers ..."
    ],
)
def test_17_a_tree_of_the_wrong_shape_says_so(text, says, tmp_path, gamelab_cli):
    tree = tmp_path / "tree.json"
    tree.write_text(text)
    line = _one_error(gamelab_cli("wordle", "chart", "--tree", str(tree)))
    assert str(tree) in line and says in line


def test_17_a_missing_tree_is_named_without_errno(tmp_path, gamelab_cli):
    missing = tmp_path / "nope.json"
    line = _one_error(gamelab_cli("wordle", "chart", "--tree", str(missing)))
    assert str(missing) in line and "No such file" in line


def test_17_voltorb_clues_in_words(gamelab_cli):
    line = _one_error(gamelab_cli("voltorb", "solve", "--rows", "1,1 1,1", "--cols", COLS))
    assert "the row clues need 5 entries" in line
    line = _one_error(
        gamelab_cli("voltorb", "solve", "--rows", "5,0 " * 5, "--cols", "5,0 " * 5, "--level", "1")
    )
    assert "1 board fits the lines" in line


def test_17_voltorb_clue_arrays_are_named_in_words():
    from gamelab.voltorb.rules import Clues

    with pytest.raises(ValueError, match="^the row sums need 5 numbers, got 2$"):
        Clues([1, 2], [0] * 5, [1] * 5, [0] * 5)


def test_17_an_unknown_benchmark_is_named_as_one(gamelab_cli):
    line = _one_error(gamelab_cli("lattice", "fold", "S9-99"))
    assert "unknown benchmark 'S9-99'" in line and "S1-10" in line


@pytest.mark.parametrize(
    "argv,says",
    [
        (["voltorb", "simulate", "--games", "0"], "0 is not allowed: at least 1"),
        (["wordle", "solve-optimal", "--cpu-limit", "0.01"], "0.01 is not allowed: at least 0.1"),
        (["voltorb", "solve", "--rows", ROWS, "--cols", COLS, "--level", "9"], "allowed: 1–8"),
        # a seed's upper end (2^63 - 1) is no bound a person meets: the help leaves it out too
        (["voltorb", "simulate", "--seed", "-7"], "-7 is not allowed: at least 0"),
    ],
)
def test_a_declared_bound_is_said_as_every_other_bound(argv, says, gamelab_cli):
    """The value and the bound it crossed in the house's words (as for an undeclared bound:
    '-1 is not allowed: at least 0'), not the option parser's 'Input should be ...'."""
    line = _one_error(gamelab_cli(*argv))
    assert says in line and "Input should" not in line, line


@pytest.mark.parametrize(
    "argv,says",
    [
        (["lattice", "evolve", "--population", "-7"], "at least 2"),
        (["lattice", "evolve", "--generations", "-7"], "at least 1"),
        (["lattice", "trials", "--trials", "-7"], "at least 1"),
        (["yatzy", "risk", "--valence", "-7", "--no-store"], "allowed: 1–5"),
        (["yatzy", "risk", "--games", "-7", "--no-store"], "at least 2"),
    ],
)
def test_the_bound_a_refusal_states_is_the_true_one(argv, says, gamelab_cli):
    """An option refused below a bound names the value the command really accepts (it said
    'at least 0', and 0 was then refused by the library)."""
    line = _one_error(gamelab_cli(*argv))
    assert says in line, line
