"""Kernels compiled ahead in a second process (gamelab.core.ahead, issue 50 item 6)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

from gamelab.core import ahead
from gamelab.core.watchdog import process_identity

MODULE = """
import time
from numba import njit

@njit(cache=True)
def twice(x):
    return 2 * x

@njit(cache=True)
def caller(x):
    return twice(x) + 1

def warm():
    twice(1)

def sleep_long():
    time.sleep(60)

def warm_then_sleep():
    twice(1)
    time.sleep(60)
"""


def _run(tmp_path: Path, script: str) -> dict:
    (tmp_path / "aheadmod.py").write_text(MODULE)
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
    }
    env.pop("GAMELAB_COMPILE_AHEAD", None)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_child_compiles_into_the_cache_the_caller_loads_and_a_warm_run_starts_none(tmp_path):
    out = _run(
        tmp_path,
        """
        import json
        from gamelab.core import ahead
        import aheadmod
        started = ahead.start("aheadmod:warm", [aheadmod.twice])
        ahead.wait("aheadmod:warm")
        value = aheadmod.twice(21)
        hits = sum(aheadmod.twice.stats.cache_hits.values())
        misses = sum(aheadmod.twice.stats.cache_misses.values())
        again = ahead.start("aheadmod:warm", [aheadmod.twice])
        print(json.dumps([started, value, hits, misses, again]))
        """,
    )
    started, value, hits, misses, again = out
    assert started is True
    assert value == 42
    assert (hits, misses) == (1, 0)  # loaded what the child compiled: nothing compiled here
    assert again is False  # cached now: no second process


def test_a_kernel_calling_the_childs_kernel_waits_for_it_and_loads_it(tmp_path):
    # no ahead.wait: numba's typing of caller's call waits for the child (numba_hook)
    out = _run(
        tmp_path,
        """
        import json
        from gamelab.core import ahead
        import aheadmod
        started = ahead.start("aheadmod:warm", [aheadmod.twice])
        value = aheadmod.caller(20)
        hits = sum(aheadmod.twice.stats.cache_hits.values())
        misses = sum(aheadmod.twice.stats.cache_misses.values())
        print(json.dumps([started, value, hits, misses, "aheadmod:warm" in ahead._running]))
        """,
    )
    started, value, hits, misses, running = out
    assert started is True
    assert value == 41
    assert (hits, misses) == (1, 0)  # twice loaded from the child's compile
    assert running is False  # the child was waited for


def test_a_kernel_calling_an_in_turn_kernel_waits_only_until_it_is_cached(tmp_path):
    # the child compiles twice, then goes on (sleeps): the caller loads twice without waiting
    # for the child to finish
    out = _run(
        tmp_path,
        """
        import json
        from gamelab.core import ahead
        import aheadmod
        target = "aheadmod:warm_then_sleep"
        started = ahead.start(target, [aheadmod.caller], in_turn=[aheadmod.twice])
        value = aheadmod.caller(20)
        hits = sum(aheadmod.twice.stats.cache_hits.values())
        misses = sum(aheadmod.twice.stats.cache_misses.values())
        running = ahead._running[target].poll() is None
        ahead._running.pop(target).kill()
        print(json.dumps([started, value, hits, misses, running]))
        """,
    )
    started, value, hits, misses, running = out
    assert started is True
    assert value == 41
    assert (hits, misses) == (1, 0)  # twice loaded from the child's compile
    assert running is True  # the child was not waited for


def test_a_caller_may_take_the_childs_first_kernels_while_it_goes_on(tmp_path):
    out = _run(
        tmp_path,
        """
        import json
        from gamelab.core import ahead
        import aheadmod
        ahead.start("aheadmod:warm_then_sleep", [aheadmod.twice])
        ahead.wait_until_cached("aheadmod:warm_then_sleep", [aheadmod.twice])
        value = aheadmod.twice(21)
        hits = sum(aheadmod.twice.stats.cache_hits.values())
        running = ahead._running["aheadmod:warm_then_sleep"].poll() is None
        print(json.dumps([value, hits, running]))
        """,
    )
    value, hits, running = out
    assert value == 42
    assert hits == 1  # loaded from the child's compile
    assert running is True  # the child was not waited for (it dies with the caller)


def test_the_child_dies_with_its_caller_even_by_sigkill(tmp_path):
    (tmp_path / "pid").unlink(missing_ok=True)
    script = f"""
        import json, os, signal
        from gamelab.core import ahead
        import aheadmod
        assert ahead.start("aheadmod:sleep_long", [aheadmod.twice])
        with open({str(tmp_path / "pid")!r}, "w") as f:
            f.write(str(ahead._running["aheadmod:sleep_long"].pid))
        os.kill(os.getpid(), signal.SIGKILL)
        """
    (tmp_path / "aheadmod.py").write_text(MODULE)
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
    }
    caller = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)], env=env, capture_output=True, timeout=60
    )
    assert caller.returncode == -9, caller.stderr
    child = int((tmp_path / "pid").read_text())
    deadline = time.monotonic() + 30
    while process_identity(child) is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert process_identity(child) is None, "the child outlived its caller"


def _fake_kernel(folder: Path, indexed: bool) -> SimpleNamespace:
    index = folder / "k.nbi"
    if indexed:
        index.write_bytes(b"")
    cache_file = SimpleNamespace(_index_path=str(index))
    return SimpleNamespace(_cache=SimpleNamespace(_cache_path=str(folder), _cache_file=cache_file))


def test_nothing_starts_when_it_cannot_help(tmp_path, monkeypatch):
    cold = _fake_kernel(tmp_path, indexed=False)
    warm_folder = tmp_path / "warm"
    warm_folder.mkdir()
    warm = _fake_kernel(warm_folder, indexed=True)
    assert ahead.start("gamelab.nothing:here", [warm]) is False  # every kernel cached
    assert ahead.start("gamelab.nothing:here", [lambda: None]) is False  # not a cached kernel
    monkeypatch.setenv("GAMELAB_COMPILE_AHEAD", "0")
    assert ahead.start("gamelab.nothing:here", [cold]) is False  # turned off
    monkeypatch.delenv("GAMELAB_COMPILE_AHEAD")
    real_access = os.access
    monkeypatch.setattr(
        ahead.os, "access", lambda p, m: False if Path(p) == tmp_path else real_access(p, m)
    )
    assert ahead.start("gamelab.nothing:here", [cold]) is False  # a read-only cache folder
    assert ahead._running == {}
    ahead.wait("gamelab.nothing:here")  # nothing to wait for: returns at once
