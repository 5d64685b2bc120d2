"""Heavy calls outside the event loop: a pool of solver processes with a time budget.

An exact search can take longer than a person wants to wait, and a Python function cannot be
interrupted from outside. So heavy library calls run in separate processes (one
``ProcessPoolExecutor(max_workers=1)`` per *slot*, started with ``forkserver``, never ``fork``:
numba and OpenMP threads do not survive a fork), and a call that overruns its budget has its
process killed and replaced; the pool keeps serving.

The budget is a deadline from the moment the request asks: time spent waiting for a free slot
counts, so a loaded server answers as quickly as an idle one, just more often with the fallback.
A replaced process serves again only once it has warmed up. When more than `max_waiting` calls
already wait for a process, a new one gets its fallback at once (load shedding) rather than
after waiting out its budget. Answers are memoised by (function,
arguments), and a call that overran once goes straight to its fallback next time (so a hard
position cannot tie up the processes again and again).

    answer = await pool.budgeted(
        solve, request_args,                     # module-level function, picklable arguments
        budget=2.0,
        fallback=lambda: solve(*request_args, policy="minrisk"),   # cheap, runs in a thread
        what="exact optimal search", fallback_name="MinRisk",
    )
    answer.value      # the result (the exact one, or the fallback's)
    answer.note       # None, or "exact optimal search timed out after 2 s; showing MinRisk"

A ``ValueError`` raised by the function travels back unchanged (the app turns it into HTTP 422).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import multiprocessing
import os
import signal
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import anyio.to_thread

T = TypeVar("T")

__all__ = ["Budgeted", "BudgetExceeded", "SolverPool", "WorkerDied", "format_seconds"]


class WorkerDied(RuntimeError):
    """The process running a pooled call died (it has been replaced)."""


class BudgetExceeded(RuntimeError):
    """A pooled call did not finish within its budget (its process has been replaced)."""

    def __init__(self, message: str, *, started: bool) -> None:
        super().__init__(message)
        self.started = started


@dataclass(frozen=True)
class Budgeted(Generic[T]):
    """The answer of :meth:`SolverPool.budgeted`: the value, and whether it is the fallback's."""

    value: T
    fell_back: bool
    note: str | None  # the label to show beside the answer when it fell back
    seconds: float


def format_seconds(seconds: float) -> str:
    """``2`` -> ``"2 s"``, ``0.5`` -> ``"0.5 s"``."""
    return f"{seconds:g} s"


def call_by_name(spec: str) -> None:
    """Call the function named ``"package.module:function"`` with no arguments."""
    module, _, name = spec.partition(":")
    fn = getattr(importlib.import_module(module), name) if name else None
    if fn is not None:
        fn()


#: names the warm-up calls the forkserver runs before forking solver processes (see _prefork)
PREFORK_ENV = "GAMELAB_WEB_PREFORK"

#: solver processes run this much nicer than the server, so that the server stays responsive
#: (trivial requests, fallbacks) while every solver is busy
WORKER_NICENESS = 5


def _warm(modules: Sequence[str], warmers: Sequence[str]) -> int:
    """First task of every worker: import the heavy modules and run the warm-up calls (numba
    loads its compiled kernels on first use), lower the priority for the real work (the warm-up
    itself runs at full priority: a replacement is needed quickly), report the process id."""
    for name in modules:
        importlib.import_module(name)
    for spec in warmers:
        call_by_name(spec)
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # not allowed on this system: run at the same priority
        pass
    return os.getpid()


class _Slot:
    """One worker process (a one-process executor) that can be killed and replaced."""

    def __init__(self, context: Any, preload: Sequence[str], warmers: Sequence[str]) -> None:
        self._context = context
        self._preload = tuple(preload)
        self._warmers = tuple(warmers)
        self._start()

    def _start(self) -> None:
        self.executor = concurrent.futures.ProcessPoolExecutor(1, mp_context=self._context)
        self._pid_future = self.executor.submit(_warm, self._preload, self._warmers)

    def wait_ready(self, timeout: float) -> None:
        self._pid_future.result(timeout=timeout)

    def on_ready(self, callback: Callable[[Any], object]) -> None:
        """Call `callback` (in a pool thread) once the current process has warmed up or failed."""
        self._pid_future.add_done_callback(callback)

    def submit(self, fn: Callable[..., Any], args: tuple) -> concurrent.futures.Future:
        return self.executor.submit(fn, *args)

    def close(self) -> None:
        self._kill(self.executor, self._pid_future)

    @staticmethod
    def _kill(executor: concurrent.futures.ProcessPoolExecutor, pid_future: Any) -> None:
        pids: list[int] = []
        if pid_future.done() and not pid_future.cancelled() and pid_future.exception() is None:
            pids.append(pid_future.result())
        else:  # still warming up: the executor's own record of its process
            pids.extend(getattr(executor, "_processes", None) or {})
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        executor.shutdown(wait=False, cancel_futures=True)


class SolverPool:
    """`workers` solver processes; calls wait for a free one and run under a deadline.

    `preload` names modules every worker imports when it starts (the forkserver imports them once
    for all workers) and `warmers` names functions (``"module:function"``) each worker calls
    before its first task, so that no request pays for numba loading its kernels.
    `prefork_warmers` run once in the forkserver instead (and again, instantly, in each worker),
    so that every process forked from it starts warm: only for calls that start no threads (no
    numba ``parallel=True`` kernels). `spares` warm processes stand by to replace a killed one.
    """

    def __init__(
        self,
        workers: int = 2,
        preload: Sequence[str] = (),
        warmers: Sequence[str] = (),
        cache_size: int = 2048,
        spares: int = 1,
        prefork_warmers: Sequence[str] = (),
        max_waiting: int | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError(f"the solver pool needs at least 1 worker, got {workers}")
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        self._context = multiprocessing.get_context(method)
        if method == "forkserver":
            # the forkserver starts once per server process, with the first pool's settings
            os.environ[PREFORK_ENV] = ",".join(prefork_warmers)
            self._context.set_forkserver_preload([*preload, "gamelab.web._prefork"])
        warmers = [*prefork_warmers, *warmers]
        self.workers = workers
        self.spares = spares
        #: callers that may wait for a free process; beyond that a call gets its fallback at once
        self.max_waiting = 4 * workers if max_waiting is None else max_waiting
        self._waiting = 0
        self._preload, self._warmers = tuple(preload), tuple(warmers)
        self._slots = [self._new_slot() for _ in range(workers)]
        # warm processes standing by to replace a killed one at once
        self._spare_slots = [self._new_slot() for _ in range(spares)]
        self._idle: asyncio.Queue[_Slot] | None = None
        self.recycled = 0  # processes replaced because a call overran or died (for tests and logs)
        self.cache_size = cache_size
        self._answers: OrderedDict[tuple, Any] = OrderedDict()  # (fn, args) -> answer
        self._overran: OrderedDict[tuple, float] = OrderedDict()  # (fn, args) -> budget it overran

    def _new_slot(self) -> _Slot:
        return _Slot(self._context, self._preload, self._warmers)

    def wait_ready(self, timeout: float = 120.0) -> None:
        """Block until every worker (and spare) has started and warmed up (raises if one failed)."""
        for slot in [*self._slots, *self._spare_slots]:
            slot.wait_ready(timeout)

    def _queue(self) -> asyncio.Queue[_Slot]:
        # created lazily inside the running event loop
        if self._idle is None:
            self._idle = asyncio.Queue()
            for slot in self._slots:
                self._idle.put_nowait(slot)
        return self._idle

    async def run(
        self, fn: Callable[..., T], args: tuple = (), *, timeout: float, cache: bool = True
    ) -> T:
        """``fn(*args)`` in a worker; :class:`BudgetExceeded` if it is not done in `timeout` s.

        With `cache` (the default; `fn` must then be a pure function of `args`, as library
        calls with a seed are), answers are memoised by (function, arguments), and a call that
        overran its budget before fails at once instead of occupying a process again.
        """
        key = (fn.__module__, fn.__qualname__, repr(args)) if cache else None
        if key is not None:
            hit = self._answers.get(key)
            if hit is not None:
                self._answers.move_to_end(key)
                return hit
            overran = self._overran.get(key)
            if overran is not None and overran >= timeout:
                raise BudgetExceeded(f"timed out after {format_seconds(overran)}", started=True)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        idle = self._queue()
        if idle.empty() and self._waiting >= self.max_waiting:
            # shed load: this many callers already wait for a process; answer cheaply at once
            raise BudgetExceeded(f"{self._waiting} already waiting for a solver", started=False)
        self._waiting += 1
        try:
            slot = await asyncio.wait_for(idle.get(), timeout)
        except TimeoutError:
            raise BudgetExceeded(
                f"no solver process was free within {format_seconds(timeout)}", started=False
            ) from None
        finally:
            self._waiting -= 1
        future = None
        healthy = True
        try:
            future = slot.submit(fn, args)
            remaining = max(deadline - loop.time(), 0.0)
            value = await asyncio.wait_for(asyncio.wrap_future(future), remaining)
        except TimeoutError:
            healthy = False
            if key is not None:
                self._remember(self._overran, key, timeout)
            raise BudgetExceeded(f"timed out after {format_seconds(timeout)}", started=True) from None
        except BrokenProcessPool:
            healthy = False
            raise WorkerDied("a solver process died; it has been restarted") from None
        except asyncio.CancelledError:  # the client went away: do not leave the search running
            healthy = future is None or future.done()
            raise
        finally:
            if healthy:
                idle.put_nowait(slot)
            else:
                self._recycle(slot)
        if key is not None:
            self._remember(self._answers, key, value)
        return value

    def _remember(self, table: OrderedDict, key: tuple, value: Any) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > self.cache_size:
            table.popitem(last=False)

    def _recycle(self, slot: _Slot) -> None:
        """Kill the slot's process and put a warm one in its place: a spare if one is ready
        (no downtime), else a new process that serves once warmed up (so no request's budget is
        spent on a warm-up, and no warm-up is killed). A new spare starts warming."""
        self.recycled += 1
        slot.close()
        self._slots.remove(slot)
        fresh = self._spare_slots.pop(0) if self._spare_slots else self._new_slot()
        self._slots.append(fresh)
        if self.spares:
            self._spare_slots.append(self._new_slot())
        idle = self._queue()
        loop = asyncio.get_running_loop()
        fresh.on_ready(lambda _future: loop.call_soon_threadsafe(idle.put_nowait, fresh))

    async def budgeted(
        self,
        fn: Callable[..., T],
        args: tuple = (),
        *,
        budget: float,
        fallback: Callable[[], T],
        what: str,
        fallback_name: str,
        cache: bool = True,
    ) -> Budgeted[T]:
        """``fn(*args)`` within `budget` seconds, else ``fallback()`` (run in a thread), labelled.

        `what` names the heavy call and `fallback_name` the cheaper answer, for the note:
        ``"exact optimal search timed out after 2 s; showing MinRisk"``.
        """
        start = time.perf_counter()
        try:
            value = await self.run(fn, args, timeout=budget, cache=cache)
            return Budgeted(value, False, None, time.perf_counter() - start)
        except BudgetExceeded as exc:
            if exc.started:
                note = f"{what} timed out after {format_seconds(budget)}; showing {fallback_name}"
            else:
                note = f"server busy: {what} not started ({exc}); showing {fallback_name}"
        except WorkerDied:
            note = f"{what} failed (its process died); showing {fallback_name}"
        key = (fn.__module__, fn.__qualname__, repr(args), "fallback") if cache else None
        remembered = self._answers.get(key) if key is not None else None
        if remembered is None:
            answer: T = await anyio.to_thread.run_sync(fallback)
            if key is not None:
                self._remember(self._answers, key, answer)
        else:
            answer = remembered
        return Budgeted(answer, True, note, time.perf_counter() - start)

    def close(self) -> None:
        for slot in [*self._slots, *self._spare_slots]:
            slot.close()
