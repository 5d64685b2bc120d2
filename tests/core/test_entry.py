"""SIGTERM while the `gamelab` program is still importing its modules prints one line."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

# The child sends itself SIGTERM at the moment the command line starts importing typer: before
# gamelab.cli.main could install its own handler.
CHILD = textwrap.dedent(
    """
    import builtins, os, signal, sys
    sys.argv = ["gamelab", "--version"]
    real_import = builtins.__import__

    def importing(name, *args, **kwargs):
        if name == "typer":
            os.kill(os.getpid(), signal.SIGTERM)
        return real_import(name, *args, **kwargs)

    builtins.__import__ = importing
    from gamelab.entry import main
    main()
    print("not stopped")
    """
)


@pytest.mark.timeout(60)
def test_sigterm_during_the_imports_prints_one_line_and_exits_143():
    child = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=50
    )
    assert child.returncode == 143, (child.returncode, child.stderr)
    assert child.stderr == "error: terminated\n"
    assert child.stdout == ""


def test_the_console_script_starts_at_the_entry_module():
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["gamelab"] == "gamelab.entry:main"


# The child signals itself while the command line parses its arguments (typer converts an
# option's value, importing its converters on first use): outside any command's run, where
# typer turns an interrupt into a returned 130 that nobody read, so the program said nothing
# and exited 0.
PARSING = textwrap.dedent(
    """
    import os, signal, sys
    from gamelab import cli

    parse_args = cli._Gamelab.parse_args
    signum = getattr(signal, sys.argv[1])

    def interrupted_while_parsing(self, ctx, args):
        os.kill(os.getpid(), signum)
        return parse_args(self, ctx, args)

    cli._Gamelab.parse_args = interrupted_while_parsing
    sys.argv = ["gamelab", "oware", "perft", "--depth", "1"]
    cli.main()
    print("not stopped")
    """
)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "name,code,line", [("SIGTERM", 143, "error: terminated"), ("SIGINT", 130, "error: interrupted")]
)
def test_a_signal_while_the_arguments_are_parsed_prints_one_line(name, code, line):
    child = subprocess.run(
        [sys.executable, "-c", PARSING, name],
        capture_output=True,
        text=True,
        timeout=50,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert (child.returncode, child.stderr.strip().splitlines()) == (code, [line])
    assert child.stdout == ""
