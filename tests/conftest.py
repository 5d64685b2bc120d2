"""Test-session settings shared by every game's tests."""

import os
from pathlib import Path

import pytest

# Computed tables go to a cache of the test suite's own (shared by xdist workers; writes are
# atomic), never to the user's cache; experiment results go to a throw-away store.
_ROOT = Path(__file__).resolve().parent.parent / ".test-cache"
os.environ["GAMELAB_CACHE"] = str(_ROOT / "cache")
os.environ["GAMELAB_RESULTS"] = str(_ROOT / f"results-{os.getpid()}.sqlite")
os.environ.pop("GAMELAB_CLUSTER", None)


@pytest.fixture
def gamelab_cli(capsys):
    """Run `gamelab ARGS...` in this process; returns an object with returncode, stdout, stderr."""
    from types import SimpleNamespace

    from gamelab.cli import main

    def call(*args: str) -> SimpleNamespace:
        code = 0
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code or 0
        out = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out.out, stderr=out.err)

    return call


@pytest.fixture
def interrupt_at_prompt():
    """Send Ctrl-C to a pexpect child sitting at a prompt until `pattern` shows.

    A SIGINT that lands after the prompt is printed but before input() waits on the terminal is
    only acted on at the next keypress (CPython's readline loop checks signals when its select()
    is interrupted), so on a loaded machine one Ctrl-C sent right after the prompt can be lost in
    that window; a person pressing it later never is. Each retry waits five seconds."""
    import pexpect

    def send(child, pattern: str, tries: int = 10) -> None:
        for _ in range(tries):
            child.sendintr()
            if child.expect([pattern, pexpect.TIMEOUT], timeout=5) == 0:
                return
        raise AssertionError(f"no {pattern!r} after {tries} Ctrl-C")

    return send
