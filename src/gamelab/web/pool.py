"""Heavy calls outside the event loop: a pool of solver processes with a time budget.

An exact search can take longer than a person wants to wait, and a Python function cannot be
interrupted from outside. So heavy library calls run in separate processes (one
``ProcessPoolExecutor(max_workers=1)`` per *slot*, started with ``forkserver``, never ``fork``:
numba and OpenMP threads do not survive a fork). A call that overruns its budget is answered by
its fallback at the deadline; its process may finish the call within a grace (its answer is then
memoised), and is killed and replaced past it; the pool keeps serving.

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
        fallback=partial(minrisk, *request_args),  # cheap; called with the note, picklable
        what="exact optimal search", fallback_name="MinRisk",
    )
    answer.value      # the result (the exact one, or the fallback's)
    answer.note       # None, or "exact optimal search timed out after 2 s; showing MinRisk"

The fallback runs in a process too (``fallback_workers`` of them, never the server's own
threads: a numba kernel there would hold the GIL and stall the event loop, so under load the
server would answer even a trivial request late). With :func:`to_document` as the function, the
worker also turns the result into its JSON document (:class:`Document`), so the server process
only does HTTP.

A ``ValueError`` raised by the function travels back unchanged (the app turns it into HTTP 422).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import importlib
import multiprocessing
import os
import signal
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from gamelab.core.limits import OutOfBudget

T = TypeVar("T")

__all__ = [
    "Budgeted",
    "BudgetExceeded",
    "Document",
    "JobStatus",
    "SolverPool",
    "WorkerDied",
    "format_seconds",
    "to_document",
]


class WorkerDied(RuntimeError):
    """The process running a pooled call died (it has been replaced)."""


class BudgetExceeded(OutOfBudget):
    """A pooled call did not finish within its budget (its process has been replaced)."""

    def __init__(self, message: str, *, started: bool) -> None:
        super().__init__(message)
        self.started = started


class StillWarming(BudgetExceeded):
    """A heavy call for a game whose solvers are still warming up (``gamelab serve`` just
    started): answered 503 with the game (`title`), and the page asks again once it is warm."""

    def __init__(self, title: str) -> None:
        super().__init__(
            f"is not ready: {title} is still warming up (once, after the server starts); "
            "the answer follows when it is ready",
            started=False,
        )
        self.title = title


@dataclass
class JobStatus:
    """A background call (:meth:`SolverPool.background`): ``running`` (for `elapsed` seconds of
    at most `limit`), ``done`` (its answer in `result`), ``failed`` (why, in `detail`: a
    ``ValueError``'s message or the time limit) or ``cancelled``."""

    job: str
    state: str
    elapsed: float
    limit: float
    result: Any = None
    detail: str | None = None


class _Job:
    def __init__(self, job: str, limit: float) -> None:
        self.job, self.limit, self.start = job, limit, time.monotonic()
        self.state, self.result = "running", None
        self.detail: str | None = None
        self.task: asyncio.Future | None = None
        self.end: float | None = None

    def settle(self, task: asyncio.Future) -> None:
        if self.state == "cancelled":
            return
        self.end = time.monotonic()
        if task.cancelled():
            self.state = "cancelled"
        elif task.exception() is not None:
            exc = task.exception()
            self.state, self.detail = "failed", str(exc)
            if isinstance(exc, BudgetExceeded):
                self.detail = f"the computation {exc}"
        else:
            self.state, self.result = "done", task.result()

    def status(self) -> JobStatus:
        end = self.end if self.end is not None else time.monotonic()
        return JobStatus(
            self.job, self.state, round(end - self.start, 1), self.limit, self.result, self.detail
        )


@dataclass(frozen=True)
class Budgeted(Generic[T]):
    """The answer of :meth:`SolverPool.budgeted`: the value, and whether it is the fallback's."""

    value: T
    fell_back: bool
    note: str | None  # the label to show beside the answer when it fell back
    seconds: float


@dataclass(frozen=True)
class Document:
    """A result already turned into its JSON document, in the process that computed it."""

    json: str


def to_document(
    fn: Callable[..., Any], args: tuple = (), note_field: str | None = None, note: str | None = None
) -> Document:
    """``fn(*args)`` as its JSON document (:mod:`gamelab.core.serialise`); with a `note`, the
    result's field `note_field` (when it is a dataclass with one) says so first."""
    from gamelab.core.serialise import to_json

    value = fn(*args)
    if (
        note
        and note_field
        and dataclasses.is_dataclass(value)
        and not isinstance(value, type)
        and any(f.name == note_field for f in dataclasses.fields(value))
    ):
        value = dataclasses.replace(value, **{note_field: note})
    return Document(to_json(value))


def _memo_key(fn: Callable[..., Any], args: tuple) -> str | None:
    """The memo key of ``fn(*args)``: :func:`gamelab.core.results.call_key` (the full
    arguments; ``repr`` abbreviated a large array, so two different tables could share a key);
    None (not memoised) for an argument with no faithful text."""
    from gamelab.core.results import call_key

    try:
        return call_key(fn, args)
    except TypeError:
        return None


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

#: fallback processes run at the server's priority: under load most answers are theirs, and
#: a queue of fallbacks behind a starved process made the slowest answers several seconds late
FALLBACK_NICENESS = 0


def _warm(modules: Sequence[str], warmers: Sequence[str], niceness: int = WORKER_NICENESS) -> int:
    """First task of every worker: import the heavy modules and run the warm-up calls (numba
    loads its compiled kernels on first use), lower the priority for the real work (the warm-up
    itself runs at full priority: a replacement is needed quickly), report the process id."""
    for name in modules:
        importlib.import_module(name)
    for spec in warmers:
        call_by_name(spec)
    try:
        os.nice(niceness)
    except OSError:  # not allowed on this system: run at the same priority
        pass
    return os.getpid()


def _call_all(warmers: Sequence[str]) -> None:
    for spec in warmers:
        call_by_name(spec)


class _Slot:
    """One worker process (a one-process executor) that can be killed and replaced."""

    def __init__(
        self,
        context: Any,
        preload: Sequence[str],
        warmers: Sequence[str],
        niceness: int = WORKER_NICENESS,
    ) -> None:
        self._context = context
        self._preload = tuple(preload)
        self._warmers = tuple(warmers)
        self.executor = concurrent.futures.ProcessPoolExecutor(1, mp_context=self._context)
        self._pid_future = self.executor.submit(_warm, self._preload, self._warmers, niceness)

    def wait_ready(self, timeout: float) -> None:
        self._pid_future.result(timeout=timeout)

    def on_ready(self, callback: Callable[[Any], object]) -> None:
        """Call `callback` (in a pool thread) once the current process has warmed up or failed."""
        self._pid_future.add_done_callback(callback)

    def submit(self, fn: Callable[..., Any], args: tuple) -> concurrent.futures.Future:
        return self.executor.submit(fn, *args)

    def close(self, wait: bool = False) -> None:
        """Kill the process; with `wait`, also let the executor release its queues (their
        semaphores), as the server does when it stops."""
        self._kill(self.executor, self._pid_future, wait)

    @staticmethod
    def _kill(
        executor: concurrent.futures.ProcessPoolExecutor, pid_future: Any, wait: bool = False
    ) -> None:
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
        executor.shutdown(wait=wait, cancel_futures=True)


class SolverPool:
    """`workers` solver processes; calls wait for a free one and run under a deadline.

    `preload` names modules every worker imports when it starts (the forkserver imports them once
    for all workers) and `warmers` names functions (``"module:function"``) each worker calls
    before its first task, so that no request pays for numba loading its kernels.
    `prefork_warmers` run once in the forkserver instead (and again, instantly, in each worker),
    so that every process forked from it starts warm: only for calls that start no threads (no
    numba ``parallel=True`` kernels). `spares` warm processes stand by to replace a killed one.
    `fallback_workers` processes run the fallbacks (at the server's priority, above the
    solvers: under load most answers are theirs). A call past its deadline is answered by the fallback
    and may finish within `overrun_grace` seconds (default: its budget) before its process is
    killed and replaced.
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
        fallback_workers: int = 2,
        overrun_grace: float | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError(f"the solver pool needs at least 1 worker, got {workers}")
        method = (
            "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        )
        self._context = multiprocessing.get_context(method)
        if method == "forkserver":
            # the forkserver starts once per server process, with the first pool's settings
            os.environ[PREFORK_ENV] = ",".join(prefork_warmers)
            self._context.set_forkserver_preload(
                [*preload, "gamelab.web.pool", "gamelab.web._prefork"]
            )
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
        self._fallback_slots = [self._new_slot(FALLBACK_NICENESS) for _ in range(fallback_workers)]
        self._idle: asyncio.Queue[_Slot] | None = None
        self._fallback_idle: asyncio.Queue[_Slot] | None = None
        self.recycled = 0  # processes replaced because a call overran or died (for tests and logs)
        #: seconds an overrunning call may go on (its caller already has the fallback) before its
        #: process is killed; None: as long as its budget
        self.overrun_grace = overrun_grace
        self._finishing: set[asyncio.Future] = set()
        self.cache_size = cache_size
        self._answers: OrderedDict[str, Any] = OrderedDict()  # call_key(fn, args) -> answer
        self._jobs: OrderedDict[str, _Job] = OrderedDict()  # background calls, by job id
        self._overran: OrderedDict[str, float] = OrderedDict()  # (fn, args) -> budget it overran

    def _new_slot(self, niceness: int = WORKER_NICENESS) -> _Slot:
        return _Slot(self._context, self._preload, self._warmers, niceness)

    def wait_ready(self, timeout: float = 120.0) -> None:
        """Block until every worker (and spare) has started and warmed up (raises if one failed)."""
        for slot in [*self._slots, *self._spare_slots, *self._fallback_slots]:
            slot.wait_ready(timeout)

    def add_warmers(self, warmers: Sequence[str], timeout: float = 600.0) -> None:
        """Warm every process for `warmers` as well, and every process started from now on: for
        a game whose kernels were compiled after the pool started (``gamelab serve`` warms the
        games one by one and serves each as soon as it is warm). Returns once every process has
        run them; each runs them before any call submitted to it afterwards. A process killed
        meanwhile is replaced by one that runs them when it starts."""
        new = tuple(w for w in warmers if w not in self._warmers)
        if not new:
            return
        self._warmers = (*self._warmers, *new)
        futures = []
        for slot in [*self._slots, *self._spare_slots, *self._fallback_slots]:
            try:
                futures.append(slot.submit(_call_all, (new,)))
            except RuntimeError:  # its executor was shut down: the slot is being replaced
                continue
        for future in futures:
            try:
                future.result(timeout=timeout)
            except (
                concurrent.futures.process.BrokenProcessPool,
                concurrent.futures.CancelledError,
            ):
                continue  # killed meanwhile (an overrunning call): its replacement warms itself

    def _queue(self) -> asyncio.Queue[_Slot]:
        # created lazily inside the running event loop
        if self._idle is None:
            self._idle = asyncio.Queue()
            for slot in self._slots:
                self._idle.put_nowait(slot)
        return self._idle

    def _fallback_queue(self) -> asyncio.Queue[_Slot]:
        if self._fallback_idle is None:
            self._fallback_idle = asyncio.Queue()
            for slot in self._fallback_slots:
                self._fallback_idle.put_nowait(slot)
        return self._fallback_idle

    def background(self, fn: Callable[..., Any], args: tuple = (), *, limit: float) -> JobStatus:
        """Start ``fn(*args)`` (a pure function of its arguments) in a solver process with up to
        `limit` seconds, without waiting: the job id is a digest of the call, so asking again
        for the same call finds the same job (a page polls by asking again). A finished job's
        answer is memoised like :meth:`run`'s; a cancelled or failed job is started anew when
        asked again (a call that overran `limit` fails at once)."""
        key = _memo_key(fn, args)
        job_id = key[:16] if key is not None else uuid.uuid4().hex[:16]
        job = self._jobs.get(job_id)
        if job is None or job.state in ("cancelled", "failed"):
            job = _Job(job_id, limit)
            task = asyncio.ensure_future(self.run(fn, args, timeout=limit, kill_on_cancel=True))
            task.add_done_callback(job.settle)
            job.task = task
            self._jobs[job_id] = job
            while len(self._jobs) > 64:
                old = self._jobs.pop(next(iter(self._jobs)))
                if old.task is not None and not old.task.done():
                    old.task.cancel()
        self._jobs.move_to_end(job_id)
        return job.status()

    def job(self, job_id: str) -> JobStatus | None:
        """The status of a background job (None: no such job, or forgotten)."""
        job = self._jobs.get(job_id)
        return None if job is None else job.status()

    def cancel(self, job_id: str) -> JobStatus | None:
        """Stop a background job: its process is killed and replaced (a spare takes over)."""
        job = self._jobs.get(job_id)
        if job is None:
            return None
        if job.state == "running" and job.task is not None:
            job.task.cancel()
            job.state, job.end = "cancelled", time.monotonic()
        return job.status()

    async def run(
        self,
        fn: Callable[..., T],
        args: tuple = (),
        *,
        timeout: float,
        cache: bool = True,
        kill_on_cancel: bool = False,
    ) -> T:
        """``fn(*args)`` in a worker; :class:`BudgetExceeded` if it is not done in `timeout` s.

        With `cache` (the default; `fn` must then be a pure function of `args`, as library
        calls with a seed are), answers are memoised by (function, arguments), and a call that
        overran its budget before fails at once instead of occupying a process again.
        """
        key = _memo_key(fn, args) if cache else None
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
            n = self.max_waiting
            raise BudgetExceeded(
                f"{n} other request{'s' if n != 1 else ''} already waiting for a solver",
                started=False,
            )
        self._waiting += 1
        try:
            slot = await asyncio.wait_for(idle.get(), timeout)
        except TimeoutError:
            raise BudgetExceeded(
                f"no solver process was free within {format_seconds(timeout)}", started=False
            ) from None
        finally:
            self._waiting -= 1
        waiter: asyncio.Future | None = None
        outcome = "free"  # the slot afterwards: free, recycle (kill), or overran (let it finish)
        try:
            waiter = asyncio.wrap_future(slot.submit(fn, args))
            remaining = max(deadline - loop.time(), 0.0)
            done, _ = await asyncio.wait({waiter}, timeout=remaining)
            if not done:
                outcome = "overran"
                if key is not None:
                    self._remember(self._overran, key, timeout)
                raise BudgetExceeded(f"timed out after {format_seconds(timeout)}", started=True)
            value = waiter.result()
        except BrokenProcessPool:
            outcome = "recycle"
            raise WorkerDied("a solver process died; it has been restarted") from None
        except asyncio.CancelledError:  # the client went away: the search need not go on
            if waiter is not None and not waiter.done():
                outcome = "recycle" if kill_on_cancel else "overran"
            raise
        finally:
            if outcome == "free":
                idle.put_nowait(slot)
            elif outcome == "recycle" or waiter is None:
                self._recycle(slot)
            else:
                self._finish_or_kill(slot, waiter, key, timeout)
        if key is not None:
            self._remember(self._answers, key, value)
        return value

    def _finish_or_kill(
        self, slot: _Slot, waiter: asyncio.Future, key: str | None, timeout: float
    ) -> None:
        """A call that overran its deadline (its caller got the fallback): let it finish within
        the grace (a search with a state limit stops by itself; its answer is memoised), then
        kill its process. Killing at once would cost a process start per overrun, which under
        load is more CPU than the searches themselves."""
        grace = timeout if self.overrun_grace is None else self.overrun_grace
        if grace <= 0:
            self._recycle(slot)
            return

        async def finish() -> None:
            done, _ = await asyncio.wait({waiter}, timeout=grace)
            if not done or isinstance(waiter.exception(), BrokenProcessPool):
                self._recycle(slot)
                return
            if key is not None and waiter.exception() is None:
                self._remember(self._answers, key, waiter.result())
            self._queue().put_nowait(slot)

        task = asyncio.ensure_future(finish())
        self._finishing.add(task)
        task.add_done_callback(self._finishing.discard)

    def _remember(self, table: OrderedDict, key: str, value: Any) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > self.cache_size:
            table.popitem(last=False)

    def _recycle(self, slot: _Slot) -> None:
        """Kill the slot's process and put a warm one in its place: a spare if one is ready
        (no downtime), else a new process that serves once warmed up (so no request's budget is
        spent on a warm-up, and no warm-up is killed). A new spare starts warming. New
        processes are started from a thread: starting one waits for the forkserver, which
        must not stall the event loop."""
        self.recycled += 1
        slot.close()
        self._slots.remove(slot)
        idle = self._queue()
        loop = asyncio.get_running_loop()

        def serve_when_ready(fresh: _Slot) -> None:
            fresh.on_ready(lambda _future: loop.call_soon_threadsafe(idle.put_nowait, fresh))

        spare = self._spare_slots.pop(0) if self._spare_slots else None
        if spare is not None:
            self._slots.append(spare)
            serve_when_ready(spare)

        def start_processes() -> None:
            if spare is None:
                fresh = self._new_slot()
                loop.call_soon_threadsafe(self._slots.append, fresh)
                serve_when_ready(fresh)
            if self.spares:
                new_spare = self._new_slot()
                loop.call_soon_threadsafe(self._spare_slots.append, new_spare)

        loop.run_in_executor(None, start_processes)

    async def _fallback(self, fallback: Callable[[str], T], note: str) -> T:
        """``fallback(note)`` in a fallback process (a dead one is replaced)."""
        idle = self._fallback_queue()
        slot = await idle.get()
        healthy = True
        try:
            return await asyncio.wrap_future(slot.submit(fallback, (note,)))
        except BrokenProcessPool:
            healthy = False
            raise WorkerDied("a fallback process died; it has been restarted") from None
        finally:
            if healthy:
                idle.put_nowait(slot)
            else:
                slot.close()
                self._fallback_slots.remove(slot)
                fresh = await asyncio.get_running_loop().run_in_executor(
                    None, self._new_slot, FALLBACK_NICENESS
                )
                self._fallback_slots.append(fresh)
                idle.put_nowait(fresh)  # its calls queue behind its warm-up

    async def budgeted(
        self,
        fn: Callable[..., T],
        args: tuple = (),
        *,
        budget: float,
        fallback: Callable[[str], T],
        what: str,
        fallback_name: str,
        cache: bool = True,
    ) -> Budgeted[T]:
        """``fn(*args)`` within `budget` seconds, else ``fallback(note)`` (in a fallback
        process, so it must be picklable: a ``functools.partial`` of a module-level function),
        labelled.

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
        call = _memo_key(fn, args) if cache else None
        key = f"{call} fallback {note}" if call is not None else None
        remembered = self._answers.get(key) if key is not None else None
        if remembered is None:
            answer: T = await self._fallback(fallback, note)
            if key is not None:
                self._remember(self._answers, key, answer)
        else:
            answer = remembered
        return Budgeted(answer, True, note, time.perf_counter() - start)

    def close(self, grace: float = 2.0) -> None:
        """Stop every worker process (on a server's stop). Idle workers are asked to exit and
        given `grace` seconds: a process that exits by itself releases its semaphores (numba's
        threading layer makes one in each), whereas a killed one left them to the resource
        tracker, which warned of "leaked semaphore objects" at exit. Busy ones are killed."""
        slots = [*self._slots, *self._spare_slots, *self._fallback_slots]
        processes = [
            process
            for slot in slots
            for process in list((getattr(slot.executor, "_processes", None) or {}).values())
        ]  # (shutdown forgets them)
        for slot in slots:
            slot.executor.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + grace
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for slot in slots:
            slot.close(wait=True)
