"""The same battery over every command of every game (issue 11, "Checks that keep it so").

Generated from the command tree itself, so a new command or option is covered the day it is
added: `--help` works, and a malformed value for any option or argument (empty, negative, huge,
not a number, unicode, a 100 KB string; random junk from hypothesis) gives exit code 2 and one
`error:` line on stderr, no traceback, nothing on stdout and nothing written to disk. Every
other option keeps its default, or a valid value where it is required.
"""

from __future__ import annotations

import os
import re
import sqlite3
import types
import typing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelab.cli import root_command

#: Valid values for the required options and arguments, so that only the value under test is bad.
REQUIRED = {
    "rows": "4,2 8,0 4,2 4,2 5,1",
    "cols": "6,1 5,0 5,2 4,3 5,1",
    "sequence": "HPHHHHHHPHHPHHPH",
    "conformation": "RRUL",
    "dice": "11114",
    "a": "random",
    "b": "random",
    "history": "レントラー:00000",
}

README = Path(__file__).resolve().parents[2] / "README.md"
HUGE_INT = "9" * 30
BIG_STRING = "x" * 100_000
MALFORMED = {
    int: ["", "-7", HUGE_INT, "abc", "1.5", "ﾃｽﾄ", BIG_STRING],
    float: ["", "-7", "1e300", "1e999", "nan", "inf", "abc", "ﾃｽﾄ", BIG_STRING],
    str: ["¿?", "ﾃｽﾄ\u3000!", "\u202e", BIG_STRING],
}
MALFORMED[Path] = MALFORMED[str]


def _kind(annotation) -> type:
    """int, float, str or Path for an option's annotation (Optional stripped)."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    return annotation if annotation in MALFORMED else str


def _commands():
    root = root_command(load_games=True)  # each game's real group (``gamelab --help`` loads none)
    stack = [((), root)]
    while stack:
        path, command = stack.pop()
        if hasattr(command, "commands"):
            stack.extend((path + (name,), sub) for name, sub in command.commands.items())
        else:
            yield path, command


#: Commands that run until stopped (a server) are tested by their own suites, not here: a
#: value they accept would start them.
NOT_HERE = {("serve",)}
COMMANDS = sorted((pc for pc in _commands() if pc[0] not in NOT_HERE), key=lambda pc: pc[0])
#: Options naming a folder: any short name is a valid folder, so only impossible ones are bad.
FOLDERS = {(("report",), "out")}
PARAMS = [
    (path, param.name, _kind(param.type_descriptor.annotation))
    for path, command in COMMANDS
    for param in command.params
    if not getattr(param, "is_flag", False) and param.name not in ("help",)
]


def _argv(path: tuple[str, ...], name: str | None, value: str | None) -> list[str]:
    """`gamelab PATH ...` with `value` for the parameter `name` and valid required values."""
    command = dict(COMMANDS)[path]
    args = list(path)
    for param in command.params:
        is_target = param.name == name
        if not (is_target or param.required):
            continue
        v = value if is_target else REQUIRED[param.name]
        if param.param_type_name == "argument":
            args.append(v)
        else:
            args += [param.opts[0], v]
    return args


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """An empty working folder and a results store of its own, checked to stay untouched."""
    work = tmp_path / "work"
    work.mkdir()
    store = tmp_path / "results.sqlite"
    monkeypatch.chdir(work)
    monkeypatch.setenv("GAMELAB_RESULTS", str(store))

    def untouched() -> bool:
        if any(work.iterdir()):
            return False
        if store.exists():
            with sqlite3.connect(store) as db:
                tables = db.execute("SELECT name FROM sqlite_master").fetchall()
                if tables and db.execute("SELECT COUNT(*) FROM results").fetchone()[0]:
                    return False
        return True

    return untouched


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=" ".join)
def test_help(path, gamelab_cli):
    r = gamelab_cli(*path, "--help")
    assert r.returncode == 0, r.stderr
    assert "Usage" in r.stdout and r.stderr == ""
    # issue 29 item 15: metavars a person understands, no Python type tags or internal ranges
    for tag in (
        "<str>",
        "<bool>",
        "<int",
        "<float",
        "<list",
        "<path",
        "<file",
        "9223372036854775807",
    ):
        assert tag not in r.stdout, f"{' '.join(path)} --help shows {tag!r}"
    # issue 50: no type tag where the name says it all, no internal names, no markup leaks
    for leak in (" TEXT ", " INTEGER", " FLOAT", "``", "gamelab.", "{", "…"):
        assert leak not in r.stdout, f"{' '.join(path)} --help shows {leak!r}"
    assert not re.search(r"`[a-z]+_[a-z_]+`", r.stdout), f"{' '.join(path)}: a Python name"
    # a count's option says what it counts by its name: no "N" beside it
    tagged = re.search(r"^│ (-\S+(, -\S+)*) +N( |$)", r.stdout, re.MULTILINE)
    assert tagged is None, f"{' '.join(path)} --help: {tagged.group(0) if tagged else ''}"


def test_root_help_is_drawn_like_the_groups(gamelab_cli):
    r = gamelab_cli("--help")
    assert r.returncode == 0
    for panel in ("╭─ Options", "╭─ Commands"):
        assert panel in r.stdout
    assert " TEXT" not in r.stdout and "report" in r.stdout and "yatzy" in r.stdout


@pytest.mark.parametrize(
    "path,name", [(p, n) for p, n, k in PARAMS if k in (int, float)], ids=lambda v: str(v)
)
def test_16_a_range_error_quotes_the_bound_crossed(path, name, gamelab_cli, sandbox):
    """-7 for any number: the message names the real lower bound, not an internal 0..10^9."""
    r = gamelab_cli(*_argv(path, name, "-7"))
    assert r.returncode == 2
    assert "1,000,000,000" not in r.stderr and "1e+09" not in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def _check_refused(gamelab_cli, argv: list[str], untouched) -> None:
    r = gamelab_cli(*argv)
    shown = [a if len(a) < 40 else a[:20] + f"...({len(a)} chars)" for a in argv]
    assert r.returncode == 2, f"{shown}: exit {r.returncode}, stderr {r.stderr[-500:]!r}"
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), f"{shown}: {r.stderr[-1000:]!r}"
    assert len(lines[0]) < 600, f"{shown}: error line of {len(lines[0])} characters"
    assert "Traceback" not in r.stderr and r.stdout == "", shown
    assert untouched(), f"{shown}: something was written"


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "path,name,kind", PARAMS, ids=[" ".join(p) + f" --{n}" for p, n, _ in PARAMS]
)
def test_malformed_values_are_refused(path, name, kind, gamelab_cli, sandbox):
    values = MALFORMED[kind]
    if (path, name) in FOLDERS:
        values = [BIG_STRING, str(README / "report")]  # too long; under a file
    for value in values:
        _check_refused(gamelab_cli, _argv(path, name, value), sandbox)


# Random junk that no option accepts: a leading character no value may start with, then text.
JUNK = st.text(max_size=30).map(lambda s: "¿" + s)
NUMBER_JUNK = st.one_of(
    st.integers(min_value=10**20).map(str),
    st.integers(max_value=-1).map(str),
    JUNK,
)


@pytest.mark.timeout(300)
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_junk_is_refused(data, gamelab_cli, sandbox):
    path, name, kind = data.draw(
        st.sampled_from([p for p in PARAMS if (p[0], p[1]) not in FOLDERS]), label="option"
    )
    value = data.draw(NUMBER_JUNK if kind in (int, float) else JUNK, label="value")
    if os.environ.get("GAMELAB_BATTERY_VERBOSE"):
        print(path, name, value[:40])
    _check_refused(gamelab_cli, _argv(path, name, value), sandbox)


def test_the_word_lists_pair_is_explained_in_the_help(gamelab_cli):
    """Every alias is explained: the pair of two word lists, not a bare 'A/G'."""
    r = gamelab_cli("wordle", "rank", "--help")
    text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", r.stdout).split())
    assert "A/G" not in text
    assert "ANSWERS/GUESSES (the answers of one list, the guesses of another" in text, text


def _words(text: str) -> str:
    """Help text as words: the panels' borders gone, every run of spaces one space."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


ALL_LEAVES = sorted(_commands(), key=lambda pc: pc[0])


@pytest.mark.parametrize("path,command", ALL_LEAVES, ids=[" ".join(p) for p, _ in ALL_LEAVES])
def test_every_options_help_is_shown_whole(path, command, gamelab_cli, monkeypatch):
    """No text of an option's help is lost in the drawing (square brackets in a help were
    read as markup and vanished), and no value label repeats the option's name (--level LEVEL)."""
    monkeypatch.setenv("COLUMNS", "250")
    r = gamelab_cli(*path, "--help")
    shown = _words(r.stdout)
    for param in command.params:
        if param.param_type_name != "option" or not getattr(param, "help", None):
            continue
        assert _words(param.help) in shown, f"{' '.join(path)} --{param.name}: {param.help!r}"
        names = [o.lstrip("-").upper() for o in param.opts if o.startswith("--")]
        for name in names:
            label = re.search(
                rf"--{re.escape(name.lower())}(, -\w)? +{re.escape(name)}( |$)", shown
            )
            assert label is None, f"{' '.join(path)}: {label.group(0) if label else ''}"


def test_the_oware_evaluations_are_explained_in_the_help(gamelab_cli):
    """Every name a person chooses among is explained: auale and blog say what they weigh."""
    text = _words(gamelab_cli("oware", "analyse", "--help").stdout)
    assert "auale (Aalina's weights" in text and "blog (the seed blog's" in text, text
