"""Run numba kernels as plain Python until their machine code is at hand (tiered execution).

A numba kernel costs seconds of compiling on its first call (tens of seconds for a large
search) and microseconds a step afterwards; run by the Python interpreter, the same source
costs about a thousand times more a step but nothing up front. So a short computation on an
empty numba cache is answered sooner interpreted, and the answer is the same: it is the same
source, run as numba itself runs it under ``NUMBA_DISABLE_JIT``, with numpy's fixed-width
scalars doing the arithmetic (int64 products wrap in both; see the caller's test for the
comparison on many inputs).

* :func:`python_modules`: pure-Python copies of a closed set of kernel modules (every kernel a
  plain function calling the others' plain functions), made once per process without touching
  the modules everyone else imports;
* :func:`has_machine_code`: whether a kernel would run at once for these arguments (compiled in
  this process already, or in numba's cache for them), without compiling or loading anything;
* :func:`compiled_kernels` / :func:`interpreting`: a warm-up, which runs to leave every kernel
  compiled, says so, and a caller that could interpret then runs the kernels;
* :class:`Tiered`: one kernel called through its Python copy while that has cost less than a
  budget of CPU seconds in this process (about what compiling the kernel costs), then through
  the kernel, for a call whose length cannot be told beforehand;
* :func:`warm_in_background`: a warm-up in a daemon thread of this process (an interactive
  program compiles while a person types: no other process, nothing left running at exit).

What runs interpreted, for how long, and when a computation turns to the kernels instead is
the caller's decision (a budget of its own steps): see ``gamelab.voltorb.expectimax``.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import importlib
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any

_copies: dict[tuple[str, ...], dict[str, ModuleType]] = {}
_copies_lock = threading.Lock()
_compiled_only: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "gamelab_compiled_only", default=False
)


def python_modules(
    names: Sequence[str], stand_ins: Mapping[str, Callable[..., Any]] | None = None
) -> dict[str, ModuleType]:
    """Pure-Python copies of the kernel modules `names`, by name (made once per process).

    Every module of `names` is executed again with numba's JIT off, so its ``@njit`` functions
    are its plain Python functions; the copies import each other (a module of `names` that
    imports a kernel from another must list that one too), and the modules everyone else
    imports are left as they are. `stand_ins` replaces names that numba alone can run (an
    ``@intrinsic``) by Python functions in every copy that has them. ValueError if a copy still
    holds a numba kernel or an intrinsic (a module or a stand-in missing from the call)."""
    key = tuple(names)
    with _copies_lock:
        found = _copies.get(key)
        if found is None:
            found = _copies[key] = _copy(key, dict(stand_ins or {}))
    return found


def _copy(
    names: tuple[str, ...], stand_ins: dict[str, Callable[..., Any]]
) -> dict[str, ModuleType]:
    from numba.core import config
    from numba.core.dispatcher import Dispatcher
    from numba.core.extending import _Intrinsic

    originals = {name: importlib.import_module(name) for name in names}
    parents = {}
    for name in names:
        parent, _, child = name.rpartition(".")
        if parent:
            parents[name] = (sys.modules[parent], child)
    copies: dict[str, ModuleType] = {}
    lock = getattr(importlib.import_module("_imp"), "acquire_lock", None)
    if lock is not None:
        lock()  # no other thread imports one of `names` while the copies stand in for them
    jit_off = config.DISABLE_JIT
    try:
        config.DISABLE_JIT = True
        for name in names:
            del sys.modules[name]
        for name in names:
            copies[name] = importlib.import_module(name)
    finally:
        config.DISABLE_JIT = jit_off
        for name, module in originals.items():
            sys.modules[name] = module
            if name in parents:
                package, child = parents[name]
                setattr(package, child, module)
        if lock is not None:
            importlib.import_module("_imp").release_lock()
    for module in copies.values():
        for attr, stand_in in stand_ins.items():
            if attr in vars(module):
                setattr(module, attr, stand_in)
        for attr, obj in vars(module).items():
            if isinstance(obj, (Dispatcher, _Intrinsic)):
                raise ValueError(
                    f"{module.__name__}.{attr} is still numba's in the Python copy: copy its "
                    "module too, or give it a stand-in"
                )
    return copies


def has_machine_code(kernel: Any, args: Sequence[Any]) -> bool:
    """Whether calling the numba `kernel` with `args` runs machine code without compiling: it is
    compiled for their types in this process, or numba's cache holds it for them (fresh, for
    this source). Nothing is compiled or loaded; a question this cannot answer is answered yes
    (numba decides, as without this check)."""
    try:
        types = tuple(kernel.typeof_pyval(a) for a in args)
    except Exception:  # noqa: BLE001 (numba's own call reports a type it cannot take)
        return True
    if types in kernel.overloads:
        return True
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    load_index = getattr(cache_file, "_load_index", None)
    if load_index is None:
        return False  # not cached on disk: compiled in each process on its first call
    try:
        index = load_index()
    except Exception:  # noqa: BLE001 (an unreadable index: numba then compiles)
        return False
    code = hashlib.sha256(kernel.py_func.__code__.co_code).hexdigest()
    for entry in index:
        try:
            if entry[0] == types and entry[2][0] == code:
                return True
        except (TypeError, IndexError):
            return True  # another numba's index: let numba decide
    return False


@contextlib.contextmanager
def compiled_kernels() -> Iterator[None]:
    """Within: run the kernels, never their Python copies (a warm-up, whose point is to leave
    them compiled in numba's cache and loaded in this process)."""
    token = _compiled_only.set(True)
    try:
        yield
    finally:
        _compiled_only.reset(token)


def interpreting() -> bool:
    """Whether a caller may run a kernel's Python copy here (not inside :func:`compiled_kernels`)."""
    return not _compiled_only.get()


class Tiered:
    """Call the numba `kernel` through its Python copy (:func:`python_modules` of `modules`,
    which must hold the kernel's module) until its machine code is at hand or the copies have
    run `budget` CPU seconds in this process, then through the kernel (compiled then, once).

    A caller that knows a call's length beforehand can do better (Voltorb's win search counts
    states); this is for calls that are usually short, whose interpreted cost is then a small
    part of compiling, and at worst about as much (a 2-competitive rule: never more than twice
    the cost of compiling at once). Inside :func:`compiled_kernels` the kernel runs."""

    def __init__(
        self,
        kernel: Any,
        modules: Sequence[str],
        budget: float,
        stand_ins: Mapping[str, Callable[..., Any]] | None = None,
    ) -> None:
        self.kernel = kernel
        self.modules = tuple(modules)
        self.budget = float(budget)
        self.stand_ins = dict(stand_ins or {})
        self.spent = 0.0  # CPU seconds of interpreted calls in this process
        self.compiled = False  # the kernel's machine code was found at hand (it stays loaded)

    def __call__(self, *args: Any) -> Any:
        if self.compiled or self.spent >= self.budget or not interpreting():
            return self.kernel(*args)
        if has_machine_code(self.kernel, args):
            self.compiled = True
            return self.kernel(*args)
        import time

        import numpy as np

        name = self.kernel.py_func.__module__
        copy = getattr(python_modules(self.modules, self.stand_ins)[name], self.kernel.__name__)
        start = time.process_time()
        try:
            with np.errstate(over="ignore"):  # int64 products wrap, as in the kernels
                return copy(*args)
        finally:
            self.spent += time.process_time() - start


def block_stop_signals() -> None:
    """Keep Ctrl-C and SIGTERM away from the calling (background) thread. The kernel hands a
    process's signal to any thread that does not block it; one taken by a thread at work leaves
    the main thread asleep in ``input()`` or ``select()``, where Python never runs the handler
    (an interactive program ignored Ctrl-C while its warm-up compiled). Blocked here, the signal
    goes to the main thread, which wakes and stops. Where threads cannot block signals (Windows)
    this does nothing."""
    import signal

    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


def warm_in_background(spec: str) -> threading.Thread:
    """Run the warm-up `spec` (``"module:function"``) in a daemon thread, inside
    :func:`compiled_kernels`, and return the thread (started). A kernel the program then calls
    waits for the thread's compilation under way, if any (numba compiles one kernel at a time),
    and finds it done. A failure of the warm-up is the program's own first call's to report:
    here it is dropped (``GAMELAB_DEBUG`` prints it)."""

    def run() -> None:
        from gamelab.core.state import load

        block_stop_signals()
        try:
            with compiled_kernels():
                load(spec)()
        except BaseException:  # noqa: BLE001 (see the docstring)
            import os

            if os.environ.get("GAMELAB_DEBUG"):
                import traceback

                traceback.print_exc()

    thread = threading.Thread(target=run, name=f"warm {spec}", daemon=True)
    thread.start()
    return thread
