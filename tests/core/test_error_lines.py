"""One error line: a long file path is shown whole, a pasted blob is shortened (issue 11)."""

from gamelab.cli import _one_line


def test_a_long_path_is_kept_whole():
    path = (
        "/tmp/pytest-of-root/pytest-164/popen-gw1/test_cli_names_the_damaged_sto0/"
        + "x" * 60
        + ".sqlite"
    )
    line = _one_line(f"the results store {path} cannot be opened")
    assert path in line and "\n" not in line


def test_a_pasted_blob_is_shortened_to_its_ends_and_length():
    blob = "ab" * 50_000
    line = _one_line(f"not a history:  {blob}\n\n(see --help)")
    assert len(line) < 200 and "100,000 characters" in line
    assert line.startswith("not a history: abab") and line.endswith("(see --help)")
