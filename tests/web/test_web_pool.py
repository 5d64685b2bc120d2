"""The solver pool: a call over its budget is killed and answered by the labelled fallback, and
the pool keeps serving (a fresh process), errors travel back, a dead worker is replaced."""

import asyncio
import os
import time

import pytest

from gamelab.web.pool import BudgetExceeded, SolverPool, WorkerDied


def _run(coro):
    """asyncio.run in a thread of its own: a session-scoped Playwright (sync API) keeps an event
    loop running in the main thread once a browser test has run in this process."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as ex:
        return ex.submit(asyncio.run, coro).result()


def _sleep(seconds):
    time.sleep(seconds)
    return seconds


def _pid():
    return os.getpid()


def _count_call(path):
    """Add a line to the file `path`; the number of lines so far (the calls that ran)."""
    with open(path, "a") as f:
        f.write("called\n")
    with open(path) as f:
        return len(f.readlines())


def _cheap(note):
    return "cheap"


def _pid_and_note(note):
    return os.getpid(), note


def _fail(message):
    raise ValueError(message)


def _die():
    os._exit(3)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a killed child stays a zombie until reaped: look at its state
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.fixture
def pool():
    p = SolverPool(1, overrun_grace=0)  # an overrunning call is killed at its deadline
    p.wait_ready(60)
    yield p
    p.close()


def test_timeout_falls_back_with_a_label_and_the_pool_survives(pool, tmp_path):
    async def scenario():
        first = await pool.run(_pid, timeout=30, cache=False)
        start = time.monotonic()
        answer = await pool.budgeted(
            _sleep,
            (60,),
            budget=0.5,
            fallback=_cheap,
            what="exact optimal search",
            fallback_name="MinRisk",
        )
        took = time.monotonic() - start
        assert answer.fell_back and answer.value == "cheap"
        assert answer.note == "exact optimal search timed out after 0.5 s; showing MinRisk"
        assert took < 60  # the fallback did not wait for the call (however loaded the machine)
        second = await pool.run(_pid, timeout=60, cache=False)
        assert second != first
        return first

    first = _run(scenario())
    time.sleep(0.2)
    assert not _alive(first), "the overrunning worker was not killed"
    assert pool.recycled == 1

    async def after():
        ok = await pool.budgeted(
            _sleep, (0.01,), budget=30, fallback=_cheap, what="x", fallback_name="y"
        )
        assert not ok.fell_back and ok.value == 0.01 and ok.note is None
        # the call that overran is not tried again within the same budget: straight to the fallback
        again = await pool.budgeted(
            _sleep,
            (60,),
            budget=0.5,
            fallback=_cheap,
            what="exact optimal search",
            fallback_name="MinRisk",
        )
        assert again.fell_back and again.note.startswith(
            "exact optimal search timed out after 0.5 s"
        )
        assert pool.recycled == 1  # (tried again, it would have overrun and been killed: 2)
        # answers are memoised by (function, arguments): a memo hit never reaches a solver
        calls = str(tmp_path / "calls")
        assert await pool.run(_count_call, (calls,), timeout=30) == 1
        assert await pool.run(_count_call, (calls,), timeout=30) == 1
        assert await pool.run(_count_call, (calls,), timeout=30, cache=False) == 2

    _run(after())


def test_fallbacks_run_in_a_process_of_their_own(pool):
    # not in the server's threads: a numba kernel there would hold the GIL and stall the loop
    async def scenario():
        solver = await pool.run(_pid, timeout=30, cache=False)
        answer = await pool.budgeted(
            _sleep,
            (60,),
            budget=0.3,
            fallback=_pid_and_note,
            what="exact optimal search",
            fallback_name="MinRisk",
        )
        where, note = answer.value
        assert where not in (os.getpid(), solver)
        assert note == answer.note == "exact optimal search timed out after 0.3 s; showing MinRisk"

    _run(scenario())


def test_documents_are_serialised_where_they_are_computed(pool):
    import json

    from gamelab.voltorb.assistant import solve_position
    from gamelab.voltorb.rules import Position, VoltorbSetting
    from gamelab.web.pool import Document, to_document

    position = Position.parse("4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1")
    args = (solve_position, (position, VoltorbSetting(2)))

    async def scenario():
        answer = await pool.budgeted(
            to_document, args, budget=60, fallback=_cheap, what="x", fallback_name="y"
        )
        return answer.value

    doc = _run(scenario())
    assert isinstance(doc, Document) and doc == to_document(*args)
    assert json.loads(doc.json)["note"] is None and json.loads(doc.json)["consistent_boards"] == 198
    assert json.loads(to_document(*args, "note", "cut short").json)["note"] == "cut short"


def test_an_overrun_within_the_grace_finishes_and_is_memoised():
    pool = SolverPool(1, spares=0, overrun_grace=30)
    pool.wait_ready(60)

    async def scenario():
        first = await pool.run(_pid, timeout=30, cache=False)
        answer = await pool.budgeted(
            _sleep,
            (1.0,),
            budget=0.3,
            fallback=_cheap,
            what="exact optimal search",
            fallback_name="MinRisk",
        )
        assert answer.fell_back and answer.value == "cheap"
        # the process finishes the call instead of being killed, and serves again
        assert await pool.run(_pid, timeout=30, cache=False) == first
        assert await pool.run(_sleep, (1.0,), timeout=0.3) == 1.0  # the late answer, memoised
        return first

    try:
        first = _run(scenario())
        assert _alive(first) and pool.recycled == 0
    finally:
        pool.close()


def test_busy_pool_falls_back_without_starting(pool):
    async def scenario():
        busy = asyncio.create_task(pool.run(_sleep, (2.0,), timeout=30))
        await asyncio.sleep(0.2)
        answer = await pool.budgeted(
            _sleep,
            (0.01,),
            budget=0.3,
            fallback=_cheap,
            what="exact optimal search",
            fallback_name="MinRisk",
        )
        assert answer.fell_back
        assert answer.note == (
            "server busy: exact optimal search not started (no solver process was "
            "free within 0.3 s); showing MinRisk"
        )
        assert await busy == 2.0

    _run(scenario())
    assert pool.recycled == 0


def test_load_is_shed_beyond_the_waiting_limit():
    pool = SolverPool(1, max_waiting=1, spares=0)
    pool.wait_ready(60)

    async def scenario():
        await pool._fallback(_cheap, "")  # the fallback process imports this module once
        busy = asyncio.create_task(pool.run(_sleep, (2.0,), timeout=30, cache=False))
        await asyncio.sleep(0.2)
        waiting = asyncio.create_task(pool.run(_sleep, (0.01,), timeout=30, cache=False))
        await asyncio.sleep(0.05)
        shed = await pool.budgeted(
            _sleep,
            (0.02,),
            budget=30,
            fallback=_cheap,
            what="exact optimal search",
            fallback_name="MinRisk",
            cache=False,
        )
        # shed at once: answered while the solver is still busy (not after waiting for it;
        # not a timing bound, which a loaded CI machine could miss)
        assert not busy.done() and shed.value == "cheap"
        assert shed.note == (
            "server busy: exact optimal search not started (1 other request already waiting for a solver); "
            "showing MinRisk"
        )
        assert await busy == 2.0 and await waiting == 0.01

    try:
        _run(scenario())
    finally:
        pool.close()


def test_errors_travel_back_and_dead_workers_are_replaced(pool):
    async def scenario():
        with pytest.raises(ValueError, match="bad clue"):
            await pool.run(_fail, ("bad clue",), timeout=30)
        with pytest.raises(WorkerDied):
            await pool.run(_die, timeout=30)
        assert await pool.run(_sleep, (0.01,), timeout=60) == 0.01
        with pytest.raises(BudgetExceeded):
            await pool.run(_sleep, (30,), timeout=0.2)

    _run(scenario())


def test_pool_needs_a_worker():
    with pytest.raises(ValueError, match="at least 1 worker"):
        SolverPool(0)


def test_background_job_is_found_again_finishes_and_a_cancel_kills_its_process(pool):
    async def scenario():
        started = pool.background(_sleep, (0.2,), limit=30)
        assert started.state == "running" and started.limit == 30
        assert pool.background(_sleep, (0.2,), limit=30).job == started.job  # the same call
        while pool.job(started.job).state == "running":
            await asyncio.sleep(0.05)
        done = pool.job(started.job)
        assert done.state == "done" and done.result == 0.2
        slow = pool.background(_sleep, (60,), limit=120)
        await asyncio.sleep(0.3)  # let the job reach its process
        cancelled = pool.cancel(slow.job)
        assert cancelled.state == "cancelled"
        await asyncio.sleep(0.1)
        assert pool.job("nosuchjob") is None

    _run(scenario())
    assert pool.recycled == 1  # the cancelled job's process was replaced, not left running


def test_21_a_stopped_pool_leaks_no_semaphores():
    """Issue 29 item 21: `gamelab serve` stopped by SIGTERM warned "There appear to be 5 leaked
    semaphore objects": numba's threading layer makes a lock in each worker that runs a
    threaded kernel (the lattice warm-up does), and the pool killed its idle workers. Now idle
    workers exit by themselves and release it."""
    import subprocess
    import sys

    code = (
        "from gamelab.web.pool import SolverPool\n"
        "if __name__ == '__main__':\n"
        "    pool = SolverPool(1, spares=0, fallback_workers=1,\n"
        "                      warmers=['gamelab.lattice.enumeration:warm_up'])\n"
        "    pool.wait_ready(600)\n"
        "    pool.close()\n"
        "    print('closed')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "closed"
    assert "leaked" not in done.stderr, done.stderr


def test_21_web_load_says_which_install_it_needs(tmp_path):
    """Issue 29 item 21: after the Quick start's plain install, benchmarks/web_load.py failed
    with a traceback (its HTTP client is in the test extra); now it says which install."""
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "httpx2.py").write_text("raise ImportError('not installed')\n")
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "web_load.py"
    done = subprocess.run(
        [sys.executable, str(script), "--seconds", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)},
    )
    assert done.returncode != 0
    assert done.stderr.strip().startswith("error: benchmarks/web_load.py needs the test extra")
    assert "Traceback" not in done.stderr


def _total(values):
    return float(values.sum())


def test_the_memo_tells_apart_large_arguments_that_repr_abbreviates(pool):
    """Issue 22 item 7 (one keying convention): the pool memoised answers by ``repr(args)``,
    which abbreviates a large array ("[0. 0. 0. ... 0. 0. 0.]"), so a second table differing
    in the middle got the first table's answer. The key is now the full canonical call key."""
    import numpy as np

    first = np.zeros(5000)
    second = first.copy()
    second[2500] = 1.0
    assert repr(first) == repr(second)  # what the old key saw

    async def scenario():
        a = await pool.run(_total, (first,), timeout=60)
        b = await pool.run(_total, (second,), timeout=60)
        again = await pool.run(_total, (second.copy(),), timeout=60)  # equal: memoised
        return a, b, again

    assert _run(scenario()) == (0.0, 1.0, 1.0)
