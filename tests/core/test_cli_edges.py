"""The command line at the edges of a terminal: no width, a tiny width, a reader that leaves.

Each case runs the real `gamelab` program (what a shell does), so it checks the process's exit
status and both streams as a person sees them.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

GAMELAB = [sys.executable, "-m", "gamelab.cli"]


def _run(args: list[str], columns: str | None, **kwargs) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns is not None:
        env["COLUMNS"] = columns
    return subprocess.run(
        [*GAMELAB, *args], env=env, capture_output=True, text=True, timeout=300, **kwargs
    )


@pytest.mark.parametrize("columns", ["0"])
def test_an_unreadable_width_still_prints_the_whole_result(columns):
    done = _run(["oware", "perft", "--depth", "3"], columns)
    assert done.returncode == 0, done.stderr
    assert "perft(3) = 190" in done.stdout


def test_a_narrow_terminal_wraps_table_cells_instead_of_cutting_them():
    done = _run(["wordle", "rank", "--names", "gen1-4", "--rule", "blog", "--top", "3"], "45")
    assert done.returncode == 0, done.stderr
    assert "…" not in done.stdout
    cells = "".join(done.stdout.split())  # a cell may wrap: its characters stay in order
    for value in ("4.15443", "4.08785", "4.06737"):
        assert value in cells
    assert "レントラ" in cells


@pytest.mark.parametrize(
    "args",
    [["wordle", "chart", "--first", "レントラー", "--rule", "blog"], ["yatzy", "--help"]],
    ids=["output", "help"],
)
def test_a_closed_pipe_ends_quietly_with_exit_0(args):
    """`gamelab ... | head -1`: the reader leaves after one line."""
    proc = subprocess.Popen(
        [*GAMELAB, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 0, err
    assert first.endswith(b"\n")  # a whole line came before the reader left
    assert "Traceback" not in err and "error" not in err.lower()
