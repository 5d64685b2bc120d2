"""Run many independent seeded tasks and gather their results in order.

``run_tasks(fn, items, seed=S)`` calls ``fn(item, rng)`` for every item, where ``rng`` is a
``numpy.random.Generator`` seeded from ``(S, index)`` only (``SeedSequence(S).spawn`` order), so the
result list is identical whatever runs it:

* one worker: in this process, in order (easiest to debug and profile);
* ``workers=N``: N local worker processes (the default is the number of cores);
* tasks whose work is in kernels that release the GIL (``run_tasks(..., threads=True)``), when
  no number of workers is given: threads of this process, one per core;
* ``cluster="tcp://host:8786"`` (or ``$GAMELAB_CLUSTER``): an existing Dask distributed scheduler;
* ``cluster="local:N"``: an in-process Dask ``LocalCluster`` with N single-threaded worker processes.

Several lists of tasks run one after the other inside ``with shared_workers():`` share one pool
of local worker processes (started once, stopped at the end of the block) instead of starting
one each.

Results are placed by task index, so a task that is re-run after its worker died is neither lost
nor counted twice: Dask reschedules the tasks of a lost worker, and the local pool is rebuilt and
the unfinished tasks resubmitted. With a :class:`~gamelab.core.results.ResultStore`, each result is
saved as it arrives and a later run with the same experiment and parameters only computes what is
missing; results then come back as JSON values (tuples become lists) on every run, resumed or not.

``fn`` and the items must be picklable (``fn`` a module-level function). Cost: about a millisecond
of overhead per task on Dask and less locally, so give each task a chunk of work (see
:func:`chunk_sizes`).
"""

from __future__ import annotations

import importlib.util
import logging
import multiprocessing
import multiprocessing.context
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, ThreadPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from gamelab.core.watchdog import CHECK_SECONDS, process_identity, start_watchdog

if TYPE_CHECKING:
    from gamelab.core.results import ResultStore

T = TypeVar("T")
R = TypeVar("R")

#: How often the local pool is rebuilt after a worker process died before the run gives up
#: (a task that kills its worker every time would otherwise loop for ever).
MAX_POOL_RESTARTS = 3

#: Most tasks one run may have: their items and results are held in memory (about a kilobyte
#: each), so a size beyond this is refused before any work starts.
MAX_TASKS = 1_000_000

_LOCAL_CLUSTER = re.compile(r"^local:(\d+)$")


#: Seconds a remote scheduler has to accept a connection before a run is refused.
SCHEDULER_TIMEOUT = 3.0


def check_scheduler(address: str, timeout: float = SCHEDULER_TIMEOUT) -> None:
    """A ValueError naming `address` unless something accepts a TCP connection there within
    `timeout` seconds (a ``tcp://`` or ``tls://`` address; other protocols are left to Dask).

    Dask's own client waits its whole timeout (30 s) before it says the scheduler is missing;
    a report of five sections waited that five times and then failed.
    """
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address)
    if parts.scheme not in ("tcp", "tls"):
        return
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or port is None:
        raise ValueError(f"cluster {address}: give the scheduler as tcp://host:port")
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise ValueError(
            f"no Dask scheduler answers at {address} ({reason} within {timeout:g} s); start "
            "one there (`dask scheduler`), or run without --cluster (and $GAMELAB_CLUSTER) on local processes"
        ) from None


@dataclass(frozen=True)
class Backend:
    """Where tasks run. ``workers=None`` means one per core; ``cluster`` overrides ``workers``.

    ``cluster=None`` falls back to the environment variable ``GAMELAB_CLUSTER``.
    """

    workers: int | None = None
    cluster: str | None = None
    quiet: bool = False

    def __post_init__(self) -> None:
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")
        cluster = self.resolved_cluster()
        if cluster is not None and not (
            _LOCAL_CLUSTER.match(cluster) or re.match(r"^(tcp|tls|inproc|ucx)://", cluster)
        ):
            raise ValueError(
                f"cluster must be a scheduler address like tcp://host:8786 or local:N, got {cluster!r}"
            )
        m = _LOCAL_CLUSTER.match(cluster or "")
        if m and int(m.group(1)) < 1:
            raise ValueError("cluster local:N needs N of at least 1")

    def check_reachable(self, timeout: float = SCHEDULER_TIMEOUT) -> None:
        """Refuse (ValueError) a remote cluster whose scheduler does not answer within
        `timeout` seconds, before any work is started (see :func:`check_scheduler`)."""
        cluster = self.resolved_cluster()
        if cluster is not None:
            check_dask_installed(cluster)
        if cluster is not None and not _LOCAL_CLUSTER.match(cluster):
            check_scheduler(cluster, timeout)

    def resolved_cluster(self) -> str | None:
        cluster = self.cluster if self.cluster is not None else os.environ.get("GAMELAB_CLUSTER")
        return cluster or None

    def worker_count(self) -> int:
        return self.workers if self.workers is not None else (os.cpu_count() or 1)

    def describe(self) -> str:
        cluster = self.resolved_cluster()
        if cluster:
            return f"dask {cluster}"
        n = self.worker_count()
        return "in-process" if n == 1 else f"{n} local processes"


def task_seed(seed: int, index: int) -> np.random.SeedSequence:
    """The seed of task `index` in a run seeded with `seed` (same as ``SeedSequence(seed).spawn``)."""
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return np.random.SeedSequence(entropy=seed, spawn_key=(index,))


def task_rng(seed: int, index: int) -> np.random.Generator:
    """The generator handed to task `index` of a run seeded with `seed`."""
    return np.random.default_rng(task_seed(seed, index))


def chunk_sizes(total: int, chunk: int) -> list[int]:
    """Split `total` units of work into tasks of at most `chunk` units (the last may be smaller).

    The split depends only on `total` and `chunk`, never on the backend, so seeded results agree.
    """
    if total < 0 or chunk < 1:
        raise ValueError(f"need total >= 0 and chunk >= 1, got total={total}, chunk={chunk}")
    tasks = -(-total // chunk)
    if tasks > MAX_TASKS:
        raise ValueError(
            f"{total:,} in chunks of {chunk:,} would make {tasks:,} tasks; a run holds at most "
            f"{MAX_TASKS:,} tasks (at most {MAX_TASKS * chunk:,} in one run)"
        )
    full, rest = divmod(total, chunk)
    return [chunk] * full + ([rest] if rest else [])


def _call(fn: Callable[[Any, np.random.Generator], Any], item: Any, seed: int, index: int) -> Any:
    return fn(item, task_rng(seed, index))


def run_tasks(
    fn: Callable[[T, np.random.Generator], R],
    items: Sequence[T],
    *,
    seed: int = 0,
    backend: Backend | None = None,
    label: str = "tasks",
    store: ResultStore | None = None,
    experiment: str | None = None,
    params: Mapping[str, Any] | None = None,
    prepare: Callable[[], None] | None = None,
    threads: bool = False,
) -> list[R]:
    """``[fn(item, rng_i) for i, item in enumerate(items)]``, run on `backend`, in order.

    With `store`, `experiment` and `params` (a JSON-able mapping that, with the experiment name,
    identifies the run; the seed is added to it if absent), finished tasks are saved as they
    complete and skipped when the same run is started again; without a store, `experiment` and
    `params` are not used (a caller names its run whether or not it stores it).

    `prepare` is called once in this process before the tasks start, when more than one is
    pending and they run on this machine (in this process, local workers or a ``local:N``
    cluster): the place to compile the kernels the tasks call on an empty numba cache, once,
    rather than in every worker (they load them from the cache), and at once rather than
    after a task has run them as Python for a while (:class:`gamelab.core.tiers.Tiered`).
    It must not change any result.

    `threads=True` says that `fn` spends its time in kernels that release the GIL (numba
    ``nogil=True``) and that tasks share nothing but data they only read: then, when the tasks
    run on this machine and no number of workers was given (``Backend().workers`` is None), they
    run on threads of this process, one per core, instead of worker processes, which would each
    start an interpreter, import the tasks' modules and load (on an empty numba cache, compile)
    their kernels. A number of workers given (``--workers N``) or a cluster still runs processes.
    Each task's generator depends only on `seed` and its index, so the results are the same.
    """
    backend = backend or Backend()
    items = list(items)
    if store is not None and experiment is None:
        raise ValueError("a result store needs an experiment name")
    experiment_name = experiment or ""
    # The seed is part of a stored run's identity: results of another seed are never reused.
    params = dict(params or {})
    if params.setdefault("seed", seed) != seed:
        raise ValueError(f"params say seed {params['seed']} but the run's seed is {seed}")
    results: list[Any] = [None] * len(items)
    done: dict[int, Any] = {}
    if store is not None:
        done = store.finished(experiment_name, params, len(items))
        for index, value in done.items():
            results[index] = value
    pending = [i for i in range(len(items)) if i not in done]

    def record(index: int, value: Any) -> None:
        if store is not None:
            value = store.put(experiment_name, params, index, value)
        results[index] = value

    with _Progress(label, total=len(items), completed=len(done), quiet=backend.quiet) as progress:
        try:
            _run_pending(fn, items, pending, seed, backend, record, progress, prepare, threads)
        except KeyboardInterrupt:
            if store is not None:
                print(
                    f"{label}: stopped with {progress.completed} of {len(items)} tasks saved in "
                    f"{store.path}; run the same command again to resume",
                    file=sys.stderr,
                )
            raise
    return results


def _run_pending(
    fn, items, pending, seed, backend, record, progress, prepare=None, threads=False
) -> None:
    if not pending:
        return
    prepare = prepare if len(pending) > 1 else None
    cluster = backend.resolved_cluster()
    if cluster is not None:
        if prepare is not None and _LOCAL_CLUSTER.match(cluster):
            prepare()
        _run_dask(fn, items, pending, seed, cluster, record, progress)
    elif backend.worker_count() == 1 or len(pending) == 1:
        if prepare is not None:
            prepare()
        for index in pending:
            record(index, _call(fn, items[index], seed, index))
            progress.advance()
    elif threads and backend.workers is None:
        if prepare is not None:
            prepare()
        _run_threads(fn, items, pending, seed, backend.worker_count(), record, progress)
    else:
        context = _pool_context()
        if prepare is not None:
            _start_fork_server(context)  # its imports run beside the preparation
            prepare()
        _run_local(fn, items, pending, seed, backend.worker_count(), record, progress)


def _pool_context() -> multiprocessing.context.BaseContext:
    """How local workers start: a fork server (or spawn where there is none), never plain fork.

    A parent that already ran a numba ``parallel=True`` kernel holds a GNU OpenMP thread pool,
    and fork() from such a process aborts the child ("fork() called from a process already using
    GNU OpenMP"). The fork server is a fresh interpreter started before any kernel runs in it; it
    imports numpy, numba and gamelab once and forks each worker from that clean state
    (``benchmarks/core_pool_start.py`` measures what this costs against fork).
    """
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(_PRELOAD))
        return ctx
    return multiprocessing.get_context("spawn")


def _start_fork_server(context: multiprocessing.context.BaseContext) -> None:
    """Start the fork server now, if workers start from one (it imports :data:`_PRELOAD`)."""
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


#: Imported once by the fork server, so forked workers start with them loaded.
_PRELOAD = ("numpy", "numba", "gamelab.core.parallel", "gamelab.core.cache", "gamelab.core.results")


def _worker_init(environ: dict[str, str], parent: int, parent_identity: str | None) -> None:
    """Start of every local worker: the parent's environment, and exit when the parent goes.

    The fork server was started once, so the environment it gives its children may be older
    than the parent's (a test or a caller may have changed ``GAMELAB_CACHE`` since): copy it.
    Ctrl-C reaches the whole process group; the parent alone handles it and stops the workers.
    A worker whose parent died (even by SIGKILL, where no cleanup runs) is killed by its
    watchdog process (:mod:`gamelab.core.watchdog`; a thread of the worker could not run while
    a kernel holds the GIL, and the death signal of ``prctl`` would not fire: the worker's own
    parent is the fork server, which lives as long as its workers do).
    """
    os.environ.clear()
    os.environ.update(environ)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _watch_parent(parent, parent_identity)


def _watch_parent(parent: int, parent_identity: str | None) -> None:
    """Have this worker process killed when `parent` is gone (a watchdog process, else a thread)."""
    try:
        start_watchdog(parent, parent_identity)
    except OSError:  # no process to spare: a thread still covers a worker between kernels

        def watch() -> None:
            while process_identity(parent) == parent_identity:
                time.sleep(CHECK_SECONDS)
            os._exit(1)

        threading.Thread(target=watch, name="gamelab-parent-watch", daemon=True).start()


def _call_watched(
    parent: int,
    parent_identity: str | None,
    fn: Callable[[Any, np.random.Generator], Any],
    item: Any,
    seed: int,
    index: int,
) -> Any:
    """A task on a worker of our own ``local:N`` Dask cluster: the worker dies with the parent.

    Distributed's workers already exit when their nanny's process dies, but from a thread that
    needs the GIL; a task in a numba kernel would keep its worker running for as long as the
    kernel takes. The first task on each worker process starts its watchdog (a restarted worker
    gets its own with its first task).
    """
    _watch_parent(parent, parent_identity)
    return _call(fn, item, seed, index)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: pending tasks cancelled, running ones killed (their work is lost,
    finished tasks are already recorded)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()


def _submit_up_to(pool, futures: dict, window: int, queue, fn, items, seed) -> None:
    while len(futures) < window:
        index = next(queue, None)
        if index is None:
            return
        futures[pool.submit(_call, fn, items[index], seed, index)] = index


def _run_threads(fn, items, pending, seed, threads, record, progress) -> None:
    """The pending tasks on `threads` threads of this process; their results recorded (and
    stored) by this thread, as they finish. Ctrl-C or a failing task starts no further task and
    lets the running ones end (tasks that release the GIL are short kernel calls)."""
    pool = ThreadPoolExecutor(
        max_workers=min(threads, len(pending)), thread_name_prefix="gamelab-task"
    )
    try:
        queue = iter(pending)
        futures: dict = {}
        _submit_up_to(pool, futures, 4 * threads, queue, fn, items, seed)
        while futures:
            completed, _ = wait(futures, return_when=FIRST_COMPLETED)
            for future in completed:
                index = futures.pop(future)
                record(index, future.result())
                progress.advance()
            _submit_up_to(pool, futures, 4 * threads, queue, fn, items, seed)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


#: The pools kept by :func:`shared_workers` (by number of workers), when inside its block.
_shared_pools: dict[int, ProcessPoolExecutor] | None = None


@contextmanager
def shared_workers() -> Iterator[None]:
    """Within this block, the :func:`run_tasks` calls that run on local worker processes share
    their pool: started by the first, kept for the next (a list of GA trials, then one of random
    sampling: the workers start and import once), stopped at the end of the block. A pool whose
    worker died is replaced as outside the block. Results are the same (each task's generator
    depends only on its run's seed and its index); nested blocks share the outer one's pools."""
    global _shared_pools
    if _shared_pools is not None:
        yield
        return
    _shared_pools = {}
    try:
        yield
    finally:
        pools, _shared_pools = _shared_pools, None
        for pool in pools.values():
            pool.shutdown(wait=True, cancel_futures=True)


def _new_pool(workers: int, context: multiprocessing.context.BaseContext) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_worker_init,
        initargs=(dict(os.environ), os.getpid(), process_identity(os.getpid())),
    )


def _run_local(fn, items, pending, seed, workers, record, progress) -> None:
    remaining = list(pending)
    restarts = 0
    context = _pool_context()
    window = 4 * workers  # tasks in flight: memory stays flat however many tasks there are
    while remaining:
        finished: set[int] = set()
        shared = _shared_pools
        if shared is None:
            pool = _new_pool(min(workers, len(remaining)), context)
        elif (kept := shared.get(workers)) is not None:
            pool = kept
        else:
            pool = shared[workers] = _new_pool(workers, context)
        try:
            queue = iter(remaining)
            futures: dict = {}
            _submit_up_to(pool, futures, window, queue, fn, items, seed)
            while futures:
                completed, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in completed:
                    index = futures.pop(future)
                    record(index, future.result())
                    finished.add(index)
                    progress.advance()
                _submit_up_to(pool, futures, window, queue, fn, items, seed)
            if shared is None:
                pool.shutdown(wait=True)
        except BrokenProcessPool:
            if shared is not None:
                shared.pop(workers, None)
            _stop_workers(pool)
            restarts += 1
            if restarts > MAX_POOL_RESTARTS:
                raise RuntimeError(
                    f"local worker processes died {restarts} times; giving up "
                    f"with {len(remaining) - len(finished)} tasks unfinished"
                ) from None
        except BaseException:
            if shared is not None:
                shared.pop(workers, None)
            _stop_workers(pool)  # Ctrl-C, SIGTERM or a failing task: no worker is left behind
            raise
        remaining = [i for i in remaining if i not in finished]


def check_dask_installed(cluster: str) -> None:
    """Refuse (ValueError) a cluster when Dask is not installed: it is the optional extra
    ``gamelab[cluster]``, left out of the base install (issue 23)."""
    if importlib.util.find_spec("distributed") is None:
        raise ValueError(
            f"--cluster {cluster} needs Dask, which is not installed: "
            'pip install "gamelab[cluster]" (or run without --cluster and $GAMELAB_CLUSTER)'
        )


def _run_dask(fn, items, pending, seed, cluster, record, progress) -> None:
    check_dask_installed(cluster)
    from distributed import Client, LocalCluster, as_completed

    m = _LOCAL_CLUSTER.match(cluster)
    local = None
    try:
        if m:
            local = LocalCluster(
                n_workers=int(m.group(1)),
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            )
            client = Client(local)
        else:
            check_scheduler(cluster)
            client = Client(cluster, timeout="30s")
        with client:
            if local is not None:
                # our own cluster: its workers die with this process (see _call_watched)
                guard = (os.getpid(), process_identity(os.getpid()))
                futures = [
                    client.submit(
                        _call_watched,
                        *guard,
                        fn,
                        items[i],
                        seed,
                        i,
                        key=f"gamelab-{i}-{time.time_ns()}",
                        retries=2,
                    )
                    for i in pending
                ]
            else:
                futures = [
                    client.submit(
                        _call, fn, items[i], seed, i, key=f"gamelab-{i}-{time.time_ns()}", retries=2
                    )
                    for i in pending
                ]
            index_of = {f.key: i for f, i in zip(futures, pending, strict=True)}
            for future in as_completed(futures):
                record(index_of[future.key], future.result())
                progress.advance()
                future.release()
    finally:
        if local is not None:
            local.close()


class _Progress:
    """A Rich progress bar with ETA on stderr, shown only for runs that last over a second."""

    def __init__(self, label: str, total: int, completed: int, quiet: bool) -> None:
        self.label, self.total, self.completed, self.quiet = label, total, completed, quiet
        self._bar: Any = None  # a rich Progress once the run has lasted a second
        self._task = None
        self._start = time.monotonic()

    def __enter__(self) -> _Progress:
        return self

    def advance(self) -> None:
        self.completed += 1
        if self.quiet:
            return
        if self._bar is None and time.monotonic() - self._start > 1.0:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("eta"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=self.total, completed=self.completed)
        elif self._bar is not None:
            self._bar.update(self._task, completed=self.completed)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
