"""core.parallel under faults: a killed parent leaves no worker behind (issue 11, item 6)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

# The parent runs 2 workers (local processes, or a local:2 Dask cluster) on tasks that sleep, or
# that hold the GIL in one long C call as a numba kernel does; tasks 0 and 1 finish at once. Each
# long task writes its worker's pid and the worker's parent's pid before it starts.
SCRIPT = textwrap.dedent(
    """
    import os, signal, sys, time
    from pathlib import Path

    from gamelab.cli import _raise_terminated
    from gamelab.core.parallel import Backend, run_tasks
    from gamelab.core.results import ResultStore

    folder, backend, kind = Path(sys.argv[1]), sys.argv[2], sys.argv[3]

    def task(item, rng):
        if item >= 2:
            (folder / f"pid-{os.getpid()}").write_text(str(os.getppid()))
            if kind == "busy":
                sum(range(10**12))  # minutes in C with the GIL held: no thread of the worker runs
            else:
                time.sleep(120)
        return item

    if __name__ == "__main__":
        signal.signal(signal.SIGTERM, _raise_terminated)
        store = ResultStore(folder / "store.sqlite")
        where = Backend(cluster=backend, quiet=True) if backend.startswith("local:") else Backend(
            workers=2, quiet=True)
        try:
            run_tasks(task, range(6), seed=0, backend=where, store=store, experiment="sleepers",
                      params={})
        except KeyboardInterrupt:
            sys.exit(130)
    """
)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _descendants(pid: int) -> set[int]:
    """Every live process below `pid` (children, their children, ...), read from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return {p for p in found if _alive(p)}


def _start(
    tmp_path: Path, backend: str = "local", kind: str = "sleep"
) -> tuple[subprocess.Popen, set[int]]:
    script = tmp_path / "sleepers.py"
    script.write_text(SCRIPT)
    parent = subprocess.Popen(
        [sys.executable, str(script), str(tmp_path), backend, kind],
        stderr=subprocess.PIPE,
        # SIGINT as a terminal would deliver it, even when the suite runs as a background job
        # (which ignores SIGINT, and a child would inherit that)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 180  # a Dask cluster starts in ~10 s, far longer under load
    pids: set[int] = set()
    store = tmp_path / "store.sqlite"
    while time.monotonic() < deadline:
        pids = {int(p.name[4:]) for p in tmp_path.glob("pid-*")}
        if len(pids) >= 2 and (kind == "busy" or (store.exists() and _saved(store) >= 2)):
            break
        if parent.poll() is not None:
            break
        time.sleep(0.2)
    else:
        parent.kill()
        pytest.fail(f"workers did not start: {parent.stderr.read().decode()[-2000:]}")
    if parent.poll() is not None:
        pytest.fail(f"the run ended early: {parent.stderr.read().decode()[-2000:]}")
    time.sleep(0.5)  # both workers are now inside a long task
    servers = {int((tmp_path / f"pid-{p}").read_text()) for p in pids}
    return parent, (pids | servers | _descendants(parent.pid)) - {parent.pid}


def _assert_all_gone(children: set[int], how: object, within: float) -> None:
    """Every process in `children` ends: `within` seconds is a hang guard, far longer than a
    watchdog takes on a loaded machine and far shorter than the minutes a survivor lived."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and any(_alive(p) for p in children):
        time.sleep(0.1)
    survivors = [p for p in children if _alive(p)]
    for p in survivors:
        os.kill(p, signal.SIGKILL)
    assert not survivors, f"processes outlived their parent ({how!r}) by {within:g} s"


def _saved(store: Path) -> int:
    import sqlite3

    try:
        with sqlite3.connect(store) as db:
            return db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_no_worker_outlives_a_killed_parent(tmp_path, how):
    parent, children = _start(tmp_path)
    os.kill(parent.pid, how)
    parent.wait(timeout=120)
    _assert_all_gone(children, how, within=60)
    # finished tasks are kept; a clean shutdown says how to resume
    assert _saved(tmp_path / "store.sqlite") == 2
    if how != signal.SIGKILL:
        assert parent.returncode == 130
        assert "run the same command again to resume" in parent.stderr.read().decode()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("backend", ["local", "local:2"])
def test_no_worker_outlives_a_parent_killed_while_workers_hold_the_gil(tmp_path, backend):
    # A watching thread in the worker cannot run while a kernel holds the GIL: before the
    # watchdog processes, both kinds of workers (and the fork server) lived on for minutes.
    parent, children = _start(tmp_path, backend, "busy")
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(timeout=120)
    _assert_all_gone(children, "SIGKILL", within=60)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_no_dask_worker_outlives_a_killed_parent(tmp_path, how):
    parent, children = _start(tmp_path, "local:2", "sleep")
    os.kill(parent.pid, how)
    parent.wait(timeout=120)
    _assert_all_gone(children, how, within=60)
    assert _saved(tmp_path / "store.sqlite") == 2
    if how != signal.SIGKILL:
        assert parent.returncode == 130
        assert "run the same command again to resume" in parent.stderr.read().decode()


OPENMP_PARENT = textwrap.dedent(
    """
    import numba
    import numpy as np
    from gamelab.core.parallel import Backend, run_tasks

    @numba.njit(parallel=True)
    def total(x):
        s = 0.0
        for i in numba.prange(x.size):
            s += x[i]
        return s

    def task(item, rng):
        return int(total(np.full(1000, float(item)))) // 500  # a parallel kernel in the worker

    if __name__ == "__main__":
        assert total(np.ones(100_000)) == 100_000.0  # the parent now holds its threading layer
        print(numba.threading_layer())
        print(run_tasks(task, range(6), seed=0, backend=Backend(workers=2, quiet=True)))
    """
)


def test_workers_start_after_a_parallel_kernel_ran_in_the_parent(tmp_path):
    # Issue 11 item 1: with fork, every worker that ran a numba parallel=True kernel died ("fork()
    # called from a process already using GNU OpenMP") once the parent had run one.
    script = tmp_path / "openmp_parent.py"
    script.write_text(OPENMP_PARENT)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1] == "[0, 2, 4, 6, 8, 10]"
    assert "fork() called" not in done.stderr
