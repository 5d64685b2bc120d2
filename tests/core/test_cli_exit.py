"""The `gamelab` program ends at once when its command is done (issue 23 goal 2): the
interpreter's teardown of numba and its modules (0.15-0.2 s of a warm command) is skipped,
but nothing a command wrote is lost and nothing still running is cut off."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

DRIVER = textwrap.dedent(
    """
    import atexit, os, sys, threading, time
    from gamelab import cli

    # run by the interpreter's own shutdown only (threading's exit hooks), never by
    # os._exit: the probe that tells which exit was taken
    threading._register_atexit(lambda: os.write(2, b"interpreter teardown ran\\n"))
    atexit.register(lambda: os.write(2, b"exit handlers ran\\n"))

    @cli.app.command("big-output")
    def big_output() -> None:
        for i in range(20_000):
            print(f"line {i:05d} " + "x" * 40)

    @cli.app.command("late-writer")
    def late_writer(path: str) -> None:
        def write() -> None:
            time.sleep(0.3)
            with open(path, "w") as f:
                f.write("written after the command returned")
        threading.Thread(target=write).start()

    @cli.app.command("message-exit")
    def message_exit() -> None:
        sys.exit("a message for the user")

    cli.main()
    """
)


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    return subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=120
    )


def test_a_finished_command_keeps_its_whole_output_and_skips_the_teardown(tmp_path):
    done = _run(tmp_path, "big-output")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 20_000 and lines[-1].startswith("line 19999 ")
    assert "exit handlers ran" in done.stderr
    assert "interpreter teardown ran" not in done.stderr


def test_a_thread_still_working_is_waited_for(tmp_path):
    target = tmp_path / "late.txt"
    done = _run(tmp_path, "late-writer", str(target))
    assert done.returncode == 0, done.stderr
    assert target.read_text() == "written after the command returned"
    assert "interpreter teardown ran" in done.stderr  # the normal exit, which joins the thread


def test_exit_codes_are_the_interpreters(tmp_path):
    bad = _run(tmp_path, "big-output", "--no-such-flag")
    assert bad.returncode == 2 and bad.stderr.startswith("error: ")
    assert "interpreter teardown ran" not in bad.stderr
    message = _run(tmp_path, "message-exit")
    assert message.returncode == 1
    assert "a message for the user" in message.stderr
