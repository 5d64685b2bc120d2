"""Run code right after numba (or one of its modules) is first imported, without importing it.

Two things must happen before gamelab's first kernel is decorated, and neither may cost a
command that never needs numba (``gamelab --help``): the kernel cache's freshness stamps
(:mod:`gamelab.kernel_cache`) and, for the CLI, the "compiling fast kernels" notice
(:mod:`gamelab.compile_notice`). :func:`when_imported` runs a callback at once if numba is
already imported, else from an import hook when it is.

:func:`defer_scipy_linalg` uses the same hook on ``numba.np.linalg``, :func:`defer_registries` on
``numba.core.caching``, :func:`share_specialisations` on ``numba.core.dispatcher``,
:func:`link_large_callees_late` on ``numba.core.codegen``: see their docstrings.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from typing import Any

_pending: dict[str, list[Callable[[], None]]] = {}


class _AfterImport:
    """A meta path finder (plain: ``importlib.abc`` costs an import of importlib.resources) that
    runs the callbacks pending for a module right after that module has been imported (once)."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname not in _pending:
            return None
        callbacks = _pending.pop(fullname)
        sys.meta_path.remove(self)  # find the real spec (and stay out of the way when done)
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            if _pending:
                sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader

        class Loader:
            def create_module(self, spec: Any) -> Any:
                return loader.create_module(spec)

            def exec_module(self, module: Any) -> None:
                loader.exec_module(module)
                for callback in callbacks:
                    callback()

        spec.loader = Loader()  # type: ignore[assignment]  # a plain loader, see the class doc
        return spec


_hook = _AfterImport()


def when_imported(callback: Callable[[], None], module: str = "numba") -> None:
    """Call `callback` now if `module` is imported, else right after its import."""
    if module in sys.modules:
        callback()
        return
    _pending.setdefault(module, []).append(callback)
    if _hook not in sys.meta_path:
        sys.meta_path.insert(0, _hook)


def _cython_blas_installed() -> bool:
    """Whether scipy ships ``scipy.linalg.cython_blas``, found on disk without importing it."""
    spec = importlib.util.find_spec("scipy")
    if spec is None or not spec.submodule_search_locations:
        return False
    for folder in spec.submodule_search_locations:
        try:
            names = os.listdir(os.path.join(folder, "linalg"))
        except OSError:
            continue
        if any(n.startswith("cython_blas.") and not n.endswith((".pxd", ".pyx")) for n in names):
            return True
    return False


def defer_scipy_linalg() -> None:
    """Spare every process that loads a cached kernel the import of ``scipy.linalg``.

    Loading the first cached kernel makes numba import ``numba.np.arraymath``, which asks once,
    at import, whether BLAS is available by importing ``scipy.linalg.cython_blas``: that runs
    ``scipy.linalg/__init__`` (about 1 CPU-s, half of a warm ``gamelab voltorb solve``) although
    no gamelab kernel calls BLAS. Here that first question is answered from the file system
    (the same answer: is the module there); every later call (numba typing ``np.dot``, say) is
    numba's own full check, and numba's BLAS wrappers import scipy's functions on first use.
    """

    def patch() -> None:
        linalg = sys.modules["numba.np.linalg"]
        original = getattr(linalg, "ensure_blas", None)
        if original is None:  # another numba: leave it alone (the test above says so)
            return

        def ensure_blas() -> None:
            probe = sys._getframe(1).f_globals.get("__name__") == "numba.np.arraymath"
            if not probe or "scipy.linalg" in sys.modules:
                original()
            elif not _cython_blas_installed():
                raise ImportError("scipy 0.16+ is required for linear algebra")

        linalg.ensure_blas = ensure_blas  # type: ignore[attr-defined]

    when_imported(patch, "numba.np.linalg")


def defer_registries() -> None:
    """Load a cached kernel without first building numba's whole compiler.

    Numba's ``Cache.load_overload`` refreshes the target context before every load: on the
    first one that imports some forty modules of typing and lowering registries (numpy's
    functions, typed containers, random, datetime...) and installs thousands of templates,
    about 0.15 CPU-s of every warm command, although running object code that is already
    compiled needs none of it, only the runtime (NRT) whose symbols it links against. Here a
    load initialises the runtime alone; a real compilation (a cache miss) still refreshes both
    contexts first (``numba.core.compiler`` does so itself), and so does numba's lowering when
    it meets a function it does not know yet.
    """

    def patch() -> None:
        cache: Any = getattr(sys.modules["numba.core.caching"], "Cache", None)
        if not hasattr(cache, "load_overload") or not hasattr(cache, "_load_overload"):
            return  # another numba: leave it alone

        def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
            from numba.core.runtime import nrt  # (numba is still importing when this is set)

            nrt.rtsys.initialize(target_context)
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)

        cache.load_overload = load_overload

    when_imported(patch, "numba.core.caching")


def share_specialisations(package: str = "gamelab.") -> None:
    """Compile a kernel once for a constant argument and a variable one, when a kernel calls it.

    numba types a constant passed by a kernel to another (``legal_mask(board, 0, 0)``,
    ``table_store(..., True, -1)``) as a literal (``Literal[int](0)``) and compiles the callee
    again for it, beside the specialisation that a variable argument gets: the same machine
    code twice (a few tenths of a CPU-s each, up to 2 CPU-s of a cold command). Here a call
    from one kernel to a kernel of `package` first asks for the callee with its arguments'
    plain types (``int64``, ``bool``), and only if that does not type or the callee asks for
    the constant (``numba.literally``) for the literal ones, as numba does. Small callees are still
    inlined by LLVM and their constants folded.
    """

    def wrap(original: Any) -> Any:
        from numba.core import errors, types

        unliteral = types.unliteral  # type: ignore[attr-defined]

        def get_call_template(self: Any, args: Any, kws: Any) -> Any:
            if self._can_compile and self.py_func.__module__.startswith(package):
                plain = tuple(unliteral(a) for a in args)
                plain_kws = {k: unliteral(v) for k, v in kws.items()}
                if plain != tuple(args) or plain_kws != kws:
                    try:
                        return original(self, plain, plain_kws)
                    except (errors.TypingError, errors.ForceLiteralArg):
                        pass
            return original(self, args, kws)

        return get_call_template

    _wrap_call_template(wrap)


def _wrap_call_template(wrap: Any) -> None:
    """Replace ``numba``'s ``Dispatcher.get_call_template`` (how a kernel's call to another kernel
    is typed) by ``wrap(the method before)`` once numba's dispatcher is imported; another numba
    without that method is left alone."""

    def patch() -> None:
        dispatcher = sys.modules["numba.core.dispatcher"]
        cls: Any = getattr(dispatcher, "Dispatcher", None)
        original = getattr(cls, "get_call_template", None)
        if original is not None:
            cls.get_call_template = wrap(original)

    when_imported(patch, "numba.core.dispatcher")


#: a callee whose machine-independent code (LLVM bitcode) is larger than this is linked into its
#: callers after their optimisation (:func:`link_large_callees_late`); the largest kernels LLVM
#: inlines are a few kilobytes, the search kernels that call each other 40-300 KB
LATE_LINK_BYTES = 40_000


def link_large_callees_late() -> None:
    """Optimise a kernel's own code, not its large callees' again.

    numba links the code of every kernel a kernel calls into the caller's module and optimises
    the whole module again (LLVM's full pipeline), so a callee already optimised on its own is
    optimised once more in each caller, and its callees in each of theirs: Voltorb's search
    (``win_search`` calls ``wide_solve``, which calls ``small_search``...) spent about 1.5 CPU-s
    of a cold ``voltorb solve`` optimising code that was optimised already. Here a callee larger
    than :data:`LATE_LINK_BYTES` (LLVM bitcode, read at each link) is linked in after the caller's optimisation: the machine
    code is the same for the callee, and the caller calls it instead of possibly inlining it,
    which LLVM does not do with functions that large anyway. Small callees are linked first as
    before, so LLVM still inlines and folds them.
    """

    def patch() -> None:
        codegen: Any = sys.modules["numba.core.codegen"]
        cls: Any = getattr(codegen, "CPUCodeLibrary", None)
        needed = ("finalize", "_optimize_final_module", "_finalize_final_module")
        if cls is None or not all(hasattr(cls, name) for name in needed):
            return  # another numba: leave it alone
        from numba.core.compiler_lock import require_global_compiler_lock

        def size(library: Any) -> int:
            found = getattr(library, "_gamelab_bitcode_bytes", None)
            if found is None:
                found = len(library._get_module_for_linking().as_bitcode())
                library._gamelab_bitcode_bytes = found
            return int(found)

        def finalize(self: Any) -> None:
            # numba's CPUCodeLibrary.finalize, with the large callees linked after optimising
            require_global_compiler_lock()
            self._codegen._check_llvm_bugs()
            self._raise_if_finalized()
            seen: set[Any] = set()
            late = []
            reload_init = getattr(self, "_reload_init", None)  # (numba 0.62 has none)
            for library in self._linking_libraries:
                if library in seen:
                    continue
                if reload_init is not None:
                    reload_init.update(library._reload_init)
                seen.add(library)
                if size(library) > LATE_LINK_BYTES:
                    late.append(library)
                else:
                    self._final_module.link_in(library._get_module_for_linking(), preserve=True)
            self._optimize_final_module()
            for library in late:
                self._final_module.link_in(library._get_module_for_linking(), preserve=True)
            self._final_module.verify()
            self._finalize_final_module()

        cls.finalize = finalize

    when_imported(patch, "numba.core.codegen")


def wait_for_kernels_compiled_ahead() -> None:
    """A kernel that calls a kernel which a second process is compiling
    (:func:`gamelab.core.ahead.start`) waits for that process when numba types the call, and
    then loads the callee from the cache instead of compiling it again
    (:func:`gamelab.core.ahead.wait_for`). So a command compiles a large kernel's own code while
    the second process compiles its large callees (the replica exchange's fragment regrowth)."""

    def wrap(original: Any) -> Any:
        from gamelab.core import ahead

        def get_call_template(self: Any, args: Any, kws: Any) -> Any:
            ahead.wait_for(self)
            return original(self, args, kws)

        return get_call_template

    _wrap_call_template(wrap)
