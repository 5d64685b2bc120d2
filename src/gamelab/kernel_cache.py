"""numba's on-disk kernel cache, made to notice a change in any file a kernel depends on.

numba keys a cached kernel by a hash of the kernel's *own* source file only. A kernel that
calls a kernel of another file (``win_search`` calling ``_small_kernels.small_solve``), or that
reads a module constant baked in at compile time (``from gamelab.yatzy.rules import N_BOXES``),
keeps running its old machine code after that other file changes: a developer sees stale
results, and so does a user who upgrades gamelab over an existing cache.

Here every cached kernel of a gamelab package (``gamelab/voltorb``, ``gamelab/wordle``, …) is
stamped with a digest of that package's *kernel sources* as well as its own file: every file of
the package that defines a cached kernel (``cache=True``), and every module of the same package
that one of those files imports. Change any of them and each kernel of that package recompiles
on its next call; the other games' caches stay valid. Kernels call kernels only within their
own package (checked by ``tests/core/test_kernel_cache.py``).

The stamp is installed as numba cache *locators* (the objects that decide where a kernel is
cached and how fresh it is), ahead of numba's own, for gamelab's files only; caches still live
where numba puts them (``__pycache__``, ``NUMBA_CACHE_DIR`` or the user cache directory).
:func:`install` runs when numba is imported (:mod:`gamelab.numba_hook`), before any kernel is
decorated.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

#: Directories whose first-level subpackages get the stamp: gamelab's own tree. (A test adds a
#: temporary tree.)
ROOTS: list[Path] = [Path(__file__).resolve().parent]

_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.MULTILINE)
_digests: dict[Path, bytes] = {}


def package_of(py_file: str | os.PathLike[str]) -> tuple[Path, Path] | None:
    """(root, package directory) of a source file under one of :data:`ROOTS`, or None. The
    package is the root's first-level directory holding the file (``gamelab/voltorb`` for
    ``gamelab/voltorb/_search_kernels.py``); a file directly in the root is its own package."""
    path = Path(py_file).resolve()
    for root in ROOTS:
        try:
            relative = path.relative_to(root)
        except ValueError:
            continue
        if len(relative.parts) == 1:
            return root, path
        return root, root / relative.parts[0]
    return None


def _module_file(root: Path, dotted: str) -> Path | None:
    """The source file of `dotted` (``gamelab.yatzy.rules``) under `root` (``…/gamelab``)."""
    parts = dotted.split(".")
    if parts[0] != root.name:
        return None
    base = root.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def kernel_sources(root: Path, package: Path) -> list[Path]:
    """The files whose change must recompile `package`'s kernels: each file of the package
    defining a cached kernel, and each module of the same package that such a file imports."""
    files = [package] if package.is_file() else sorted(package.rglob("*.py"))
    texts = {f: f.read_text(encoding="utf-8") for f in files}
    kernels = [f for f in files if "cache=True" in texts[f]]
    found = set(kernels)
    for kernel in kernels:
        for match in _IMPORT.finditer(texts[kernel]):
            dotted = match.group(1) or match.group(2)
            target = _module_file(root, dotted)
            if target is not None and (target == package or package in target.parents):
                found.add(target)
    return sorted(found)


def package_digest(root: Path, package: Path) -> bytes:
    """A digest of :func:`kernel_sources` (their paths within the package and their bytes),
    computed once per process and package."""
    digest = _digests.get(package)
    if digest is None:
        h = hashlib.sha256()
        for source in kernel_sources(root, package):
            h.update(str(source.relative_to(root)).encode())
            h.update(b"\0")
            h.update(hashlib.sha256(source.read_bytes()).digest())
        digest = _digests[package] = h.digest()
    return digest


def _stamped(base: Any) -> Any:
    """A subclass of numba's locator `base` that serves gamelab's files only and adds the
    package digest to the source stamp."""

    class Stamped(base):
        def get_source_stamp(self) -> Any:
            found = package_of(self._py_file)
            own = super().get_source_stamp()
            if found is None:
                return own
            return (own, package_digest(*found))

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if package_of(py_file) is None:
                return None
            return super().from_function(py_func, py_file)

    Stamped.__name__ = Stamped.__qualname__ = f"Gamelab{base.__name__}"
    return Stamped


_installed = False


def install() -> None:
    """Put the stamped locators ahead of numba's own (once; imports numba's caching module)."""
    global _installed
    if _installed:
        return
    from numba.core import caching

    ours = [
        _stamped(caching.UserProvidedCacheLocator),
        _stamped(caching.InTreeCacheLocator),
        _stamped(caching.UserWideCacheLocator),
    ]
    caching.CacheImpl._locator_classes[:0] = ours
    _installed = True
