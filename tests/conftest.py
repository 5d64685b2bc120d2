"""Test-session settings shared by every game's tests."""

import os
import signal
from pathlib import Path

import pytest

# Computed tables go to a cache of the test suite's own (shared by xdist workers; writes are
# atomic), never to the user's cache; experiment results go to a throw-away store.
_ROOT = Path(__file__).resolve().parent.parent / ".test-cache"
os.environ["GAMELAB_CACHE"] = str(_ROOT / "cache")
os.environ["GAMELAB_RESULTS"] = str(_ROOT / f"results-{os.getpid()}.sqlite")
os.environ.pop("GAMELAB_CLUSTER", None)

# A sixth game registered for the whole run (tests/toy_nim.py): the batteries that read the
# registry check it like the package's five.
import toy_nim  # noqa: E402,F401


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


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def pty_spawn():
    """``pexpect.spawn`` whose child takes Ctrl-C: a shell that starts a job in the background
    without job control makes it ignore SIGINT, every process below inherits that, and Python
    then installs no KeyboardInterrupt handler (the Ctrl-C tests hung when the suite itself was
    started that way)."""
    import pexpect

    def spawn(*args, **kwargs):
        return pexpect.spawn(*args, preexec_fn=_default_sigint, **kwargs)

    return spawn
