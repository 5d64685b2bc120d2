"""Run code right after numba is first imported, without importing it here.

Two things must happen before gamelab's first kernel is decorated, and neither may cost a
command that never needs numba (``gamelab --help``): the kernel cache's freshness stamps
(:mod:`gamelab.kernel_cache`) and, for the CLI, the "compiling fast kernels" notice
(:mod:`gamelab.compile_notice`). :func:`when_imported` runs a callback at once if numba is
already imported, else from an import hook when it is.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from typing import Any

_pending: list[Callable[[], None]] = []


class _AfterImport:
    """A meta path finder (plain: ``importlib.abc`` costs an import of importlib.resources) that
    runs the pending callbacks right after ``numba`` has been imported (once)."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != "numba":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader

        class Loader:
            def create_module(self, spec: Any) -> Any:
                return loader.create_module(spec)

            def exec_module(self, module: Any) -> None:
                loader.exec_module(module)
                _run_pending()

        spec.loader = Loader()  # type: ignore[assignment]  # a plain loader, see the class doc
        return spec


_hook = _AfterImport()


def _run_pending() -> None:
    while _pending:
        _pending.pop(0)()


def when_imported(callback: Callable[[], None]) -> None:
    """Call `callback` now if numba is imported, else right after its import."""
    if "numba" in sys.modules:
        callback()
        return
    _pending.append(callback)
    if _hook not in sys.meta_path:
        sys.meta_path.insert(0, _hook)
