"""core.parallel: same seeded results on every backend, survival of dying workers, resumption."""

from __future__ import annotations

import logging
import os
import signal
import sys
from pathlib import Path

import cloudpickle
import numpy as np
import pytest

from gamelab.core.parallel import (
    Backend,
    chunk_sizes,
    run_tasks,
    shared_workers,
    task_rng,
    task_seed,
)
from gamelab.core.results import ResultStore

# Dask workers cannot import the test modules, so ship this module's functions by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

CALLS: list[int] = []


def draw(item: int, rng: np.random.Generator) -> list[float]:
    """A seeded task: a few draws whose count depends on the item."""
    return [float(x) for x in rng.random(item % 5 + 1)] + [item]


def draw_and_die_once(item: tuple[int, str], rng: np.random.Generator) -> list[float]:
    """Kills its own worker process the first time item 7 runs (a marker file says whether it has)."""
    index, marker = item
    if index == 7 and not Path(marker).exists():
        Path(marker).write_text("died once")
        os.kill(os.getpid(), signal.SIGKILL)
    return draw(index, rng)


def draw_or_fail(item: tuple[int, str], rng: np.random.Generator) -> list[float]:
    """Fails on item 5 while the marker file exists (an interrupted run)."""
    index, marker = item
    CALLS.append(index)
    if index == 5 and Path(marker).exists():
        raise RuntimeError("interrupted")
    return draw(index, rng)


def expected(n: int, seed: int) -> list[list[float]]:
    return [draw(i, task_rng(seed, i)) for i in range(n)]


def test_task_seed_matches_seedsequence_spawn():
    children = np.random.SeedSequence(42).spawn(5)
    for i, child in enumerate(children):
        assert task_seed(42, i).generate_state(4).tolist() == child.generate_state(4).tolist()


def test_chunk_sizes():
    assert chunk_sizes(10, 3) == [3, 3, 3, 1]
    assert chunk_sizes(9, 3) == [3, 3, 3]
    assert chunk_sizes(0, 3) == []
    with pytest.raises(ValueError, match="chunk"):
        chunk_sizes(5, 0)


@pytest.mark.parametrize("workers", [1, 2])
def test_local_backends_agree(workers):
    prepared: list[int] = []
    backend = Backend(workers=workers, quiet=True)
    got = run_tasks(draw, range(23), seed=7, backend=backend, prepare=lambda: prepared.append(1))
    assert got == expected(23, 7)
    assert prepared == [1]  # once, in this process, before the tasks (say, to compile kernels)
    one: list[int] = []
    assert run_tasks(draw, [4], seed=7, backend=backend, prepare=lambda: one.append(1)) == [
        draw(4, task_rng(7, 0))
    ]
    assert one == []  # not for a single task


RAN: list[tuple[int, int]] = []


def draw_on_a_thread(item: int, rng: np.random.Generator) -> list[float]:
    """:func:`draw`, noting the thread and process that ran it."""
    import threading

    RAN.append((threading.get_ident(), os.getpid()))
    return draw(item, rng)


def test_tasks_that_release_the_gil_run_on_threads_of_this_process():
    import threading

    RAN.clear()
    prepared: list[int] = []
    backend = Backend(quiet=True)  # no number of workers given: threads, one per core
    got = run_tasks(
        draw_on_a_thread,
        range(23),
        seed=7,
        backend=backend,
        threads=True,
        prepare=lambda: prepared.append(1),
    )
    assert got == expected(23, 7)  # the same numbers as on processes or in order
    assert prepared == [1]
    ran = set(RAN)
    assert {pid for _, pid in ran} == {os.getpid()}
    if backend.worker_count() > 1:
        assert threading.get_ident() not in {ident for ident, _ in ran}
    RAN.clear()  # a number of workers given: processes as before, whatever `threads` says
    again = run_tasks(
        draw_on_a_thread, range(5), seed=7, backend=Backend(workers=2, quiet=True), threads=True
    )
    assert again == expected(5, 7) and RAN == []


def draw_and_pid(item: int, rng: np.random.Generator) -> tuple[list[float], int]:
    """:func:`draw`, and the process that ran it."""
    return draw(item, rng), os.getpid()


def test_task_lists_in_a_shared_workers_block_share_one_pool():
    backend = Backend(workers=2, quiet=True)
    with shared_workers():
        first = run_tasks(draw_and_pid, range(9), seed=7, backend=backend)
        second = run_tasks(draw_and_pid, range(6), seed=8, backend=backend)
    assert [r for r, _ in first] == expected(9, 7) and [r for r, _ in second] == expected(6, 8)
    first_pids, second_pids = {p for _, p in first}, {p for _, p in second}
    assert os.getpid() not in first_pids and second_pids <= first_pids  # the same workers
    apart = run_tasks(draw_and_pid, range(4), seed=8, backend=backend)  # after the block: new ones
    assert [r for r, _ in apart] == expected(4, 8) and not {p for _, p in apart} & first_pids


def test_local_cluster_agrees_with_local_processes():
    prepared: list[int] = []
    backend = Backend(cluster="local:2", quiet=True)
    got = run_tasks(draw, range(23), seed=7, backend=backend, prepare=lambda: prepared.append(1))
    assert got == expected(23, 7)
    assert prepared == [1]


def test_different_seeds_differ():
    a = run_tasks(draw, range(5), seed=1, backend=Backend(workers=1, quiet=True))
    b = run_tasks(draw, range(5), seed=2, backend=Backend(workers=1, quiet=True))
    assert a != b


def test_local_worker_death_loses_and_duplicates_nothing(tmp_path):
    marker = str(tmp_path / "died")
    items = [(i, marker) for i in range(16)]
    got = run_tasks(draw_and_die_once, items, seed=3, backend=Backend(workers=2, quiet=True))
    assert Path(marker).exists(), "the worker was meant to die once"
    assert got == expected(16, 3)


def test_dask_worker_death_loses_and_duplicates_nothing(tmp_path):
    from distributed import LocalCluster

    marker = str(tmp_path / "died")
    items = [(i, marker) for i in range(16)]
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    ) as cluster:
        # through a scheduler address, as with --cluster tcp://host:8786
        got = run_tasks(
            draw_and_die_once,
            items,
            seed=3,
            backend=Backend(cluster=cluster.scheduler_address, quiet=True),
        )
    assert Path(marker).exists(), "the worker was meant to die once"
    assert got == expected(16, 3)


def test_interrupted_run_resumes_with_identical_numbers(tmp_path):
    marker = tmp_path / "fail"
    marker.write_text("")
    items = [(i, str(marker)) for i in range(12)]
    params = {"n": 12, "what": "draws"}
    backend = Backend(workers=1, quiet=True)
    with ResultStore(tmp_path / "a.sqlite") as store:
        with pytest.raises(RuntimeError, match="interrupted"):
            run_tasks(
                draw_or_fail,
                items,
                seed=9,
                backend=backend,
                store=store,
                experiment="e",
                params=params,
            )
        assert sorted(store.finished("e", {**params, "seed": 9})) == [0, 1, 2, 3, 4]
        marker.unlink()
        CALLS.clear()
        resumed = run_tasks(
            draw_or_fail, items, seed=9, backend=backend, store=store, experiment="e", params=params
        )
        assert CALLS == list(range(5, 12)), "finished tasks must not run again"
    with ResultStore(tmp_path / "b.sqlite") as fresh:
        uninterrupted = run_tasks(
            draw_or_fail, items, seed=9, backend=backend, store=fresh, experiment="e", params=params
        )
    assert resumed == uninterrupted == expected(12, 9)


def test_store_keys_runs_by_parameters(tmp_path):
    with ResultStore(tmp_path / "s.sqlite") as store:
        a = run_tasks(
            draw,
            range(4),
            seed=1,
            backend=Backend(workers=2, quiet=True),
            store=store,
            experiment="e",
            params={"n": 4},
        )
        # the seed belongs to the run's key even when the caller's params leave it out
        b = run_tasks(
            draw,
            range(4),
            seed=2,
            backend=Backend(workers=2, quiet=True),
            store=store,
            experiment="e",
            params={"n": 4},
        )
        assert a == expected(4, 1) and b == expected(4, 2)
        assert store.experiments() == [("e", '{"n":4,"seed":1}', 4), ("e", '{"n":4,"seed":2}', 4)]
        with pytest.raises(ValueError, match="seed"):
            run_tasks(draw, range(4), seed=3, store=store, experiment="e", params={"seed": 4})


def test_backend_rejects_bad_settings(monkeypatch):
    with pytest.raises(ValueError, match="workers"):
        Backend(workers=0)
    with pytest.raises(ValueError, match="scheduler address"):
        Backend(cluster="somewhere")
    monkeypatch.setenv("GAMELAB_CLUSTER", "local:3")
    assert Backend().resolved_cluster() == "local:3"
    assert Backend().describe() == "dask local:3"


def test_a_cluster_without_dask_installed_says_how_to_install_it(monkeypatch):
    # Dask is the optional extra gamelab[cluster] (issue 23): its absence is one clear error,
    # before any work, not an ImportError from inside a run
    import importlib.util

    from gamelab.core import parallel

    real = importlib.util.find_spec
    monkeypatch.setattr(
        parallel.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "distributed" else real(name, *a),
    )
    with pytest.raises(ValueError, match=r'pip install "gamelab\[cluster\]"'):
        Backend(cluster="local:2", quiet=True).check_reachable()
    with pytest.raises(ValueError, match="needs Dask"):
        run_tasks(draw, [1, 2], seed=0, backend=Backend(cluster="local:2", quiet=True))
