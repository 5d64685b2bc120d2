"""SIGTERM while the `gamelab` program is still importing its modules prints one line."""

from __future__ import annotations

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
