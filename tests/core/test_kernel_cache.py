"""A cached numba kernel recompiles when a file it depends on changes (gamelab.kernel_cache).

numba alone checks only the kernel's own file: a caller kept the machine code of the callee it
was compiled with (session 7: ``win_search`` kept running the old ``small_solve``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import gamelab
from gamelab import kernel_cache

CALLEE = """
from numba import njit

FACTOR = {factor}


@njit(cache=True)
def f(x):
    return x * FACTOR
"""

CALLER = """
from numba import njit

from kc.game.callee import f


@njit(cache=True)
def g(x):
    return f(x) + 1
"""

RUN = """
import json, sys
from pathlib import Path
sys.path.insert(0, {tmp!r})
import gamelab
from gamelab import kernel_cache
kernel_cache.ROOTS.append(Path({tmp!r}) / "kc")
from kc.game.caller import g
value = g(10)
print(json.dumps({{"value": int(value), "hits": sum(g.stats.cache_hits.values())}}))
"""


def _write_package(tmp: Path, factor: int) -> None:
    game = tmp / "kc" / "game"
    game.mkdir(parents=True, exist_ok=True)
    (tmp / "kc" / "__init__.py").write_text("")
    (game / "__init__.py").write_text("")
    (game / "callee.py").write_text(CALLEE.format(factor=factor))
    (game / "caller.py").write_text(CALLER)


def _run(tmp: Path) -> dict[str, int]:
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(RUN.format(tmp=str(tmp)))],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_changed_callee_recompiles_its_cached_caller(tmp_path: Path) -> None:
    _write_package(tmp_path, factor=2)
    first = _run(tmp_path)
    assert first == {"value": 21, "hits": 0}
    again = _run(tmp_path)
    assert again == {"value": 21, "hits": 1}, "an unchanged package loads from the cache"
    _write_package(tmp_path, factor=3)  # only the callee's file changes
    changed = _run(tmp_path)
    assert changed["value"] == 31, "the caller must not keep the old callee's machine code"
    assert changed["hits"] == 0


def test_the_stamp_covers_kernel_files_and_the_modules_they_import(tmp_path: Path) -> None:
    root = tmp_path / "kc"
    game = root / "game"
    game.mkdir(parents=True)
    (game / "rules.py").write_text("SIZE = 5\n")
    (game / "cli.py").write_text("import kc.game.rules\n")
    (game / "_kernels.py").write_text("from kc.game.rules import SIZE\n# cache=True\n")
    kernel_cache.ROOTS.append(root)
    try:
        found = kernel_cache.package_of(game / "_kernels.py")
        assert found == (root, game)
        names = [p.name for p in kernel_cache.kernel_sources(root, game)]
        assert names == ["_kernels.py", "rules.py"], "cli.py is no kernel's dependency"
    finally:
        kernel_cache.ROOTS.remove(root)


def test_gamelab_kernels_call_kernels_of_their_own_package_only() -> None:
    """The stamp is per package: a kernel file may import another gamelab package only where
    that package defines no cached kernel (gamelab.core, say)."""
    root = Path(gamelab.__file__).resolve().parent
    with_kernels = {
        p.relative_to(root).parts[0]
        for p in root.rglob("*.py")
        if "cache=True" in p.read_text(encoding="utf-8")
    }
    crossing = []
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "cache=True" not in text:
            continue
        own = path.relative_to(root).parts[0]
        for other in re.findall(r"^\s*(?:from|import) gamelab\.(\w+)", text, re.MULTILINE):
            if other != own and other in with_kernels:
                crossing.append(f"{path.relative_to(root)} imports gamelab.{other}")
    assert with_kernels >= {"voltorb", "wordle", "lattice", "oware", "yatzy"}
    assert crossing == []


def test_gamelab_installs_its_locators_when_numba_loads() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import gamelab, numba.core.caching as c; "
            "print(c.CacheImpl._locator_classes[0].__name__)",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert out.stdout.strip() == "GamelabUserProvidedCacheLocator"
