"""Issue 29: every command is honest under interruption (a real subprocess, real signals).

Children start with SIGINT's default action (see ``tests/conftest.py``): a suite started as a
background job would otherwise hand them an ignored SIGINT and no KeyboardInterrupt at all.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

#: A `gamelab` program with one extra command: a resumable run of slow tasks through the real
#: entry point (`gamelab.cli.main`), so that the test pays for no kernel and no table.
DRIVER = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from gamelab import cli
    from gamelab.cli_common import Json
    from gamelab.core.parallel import Backend, run_tasks
    from gamelab.core.results import ResultStore

    def task(item, rng):
        Path(os.environ["GAMELAB_TEST_TASK_STARTED"]).touch()
        time.sleep(0.05)
        return item

    @cli.app.command("slow-run")
    def slow_run(json_out: Json = False, store: bool = True) -> None:
        print("started", file=sys.stderr, flush=True)
        done = run_tasks(task, list(range(100_000)), backend=Backend(workers=1, quiet=True),
                         store=ResultStore() if store else None, experiment="slow", params={})
        print(len(done))

    cli.main()
    """
)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(tmp_path: Path, *args: str) -> subprocess.Popen:
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    started = tmp_path / "task-started"
    env_store = {
        "GAMELAB_RESULTS": str(tmp_path / "results.sqlite"),
        "GAMELAB_TEST_TASK_STARTED": str(started),
    }
    import os

    child = subprocess.Popen(
        [sys.executable, str(script), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env_store},
        preexec_fn=_default_sigint,
    )
    assert child.stderr is not None
    line = child.stderr.readline()  # the command has started (its imports are done)
    assert line.strip() == "started", line
    # inside the run, however slowly a loaded machine got there: a task has started
    deadline = time.monotonic() + 60
    while not started.exists():
        assert child.poll() is None and time.monotonic() < deadline, "no task started"
        time.sleep(0.05)
    return child


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "how,code,message",
    [(signal.SIGINT, 130, "error: interrupted"), (signal.SIGTERM, 143, "error: terminated")],
)
def test_1_an_interrupted_command_exits_non_zero(tmp_path, how, code, message):
    child = _start(tmp_path, "slow-run", "--json")
    child.send_signal(how)
    out, err = child.communicate(timeout=30)
    assert child.returncode == code, (child.returncode, err)
    assert err.strip().splitlines()[-1] == message, err
    assert out == ""
    # the finished tasks were kept, and the run says so
    assert "tasks saved in" in err and "run the same command again to resume" in err
