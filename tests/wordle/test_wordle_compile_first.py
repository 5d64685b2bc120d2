"""A first exact search compiles the search kernel before the feedback table exists
(``kernel_search.compile_search_first``): for the types of the real call, so the real call then
runs that machine code instead of compiling again."""

from __future__ import annotations

import numpy as np
import pytest

from gamelab.wordle.rules import Setting, parse_names
from gamelab.wordle.solver import _search_kernels as sk
from gamelab.wordle.solver.kernel_search import KernelSearch, compile_search_first
from gamelab.wordle.table import Game


def _stand_in_types(game: Game, hard: str | None) -> tuple[object, ...]:
    seen: list[tuple[object, ...]] = []
    real_compile = sk.search_kernel.compile
    try:
        sk.search_kernel.compile = seen.append  # type: ignore[method-assign]
        compile_search_first.__wrapped__(game.words, game.rule, hard)
    finally:
        sk.search_kernel.compile = real_compile  # type: ignore[method-assign]
    return seen[0] if seen else ()


@pytest.mark.parametrize(("names", "rule", "hard"), [("gen1-4", "standard", None),
                                                     ("gen1", "blog", "strict")])  # fmt: skip
def test_stand_in_types_are_the_real_call_types(monkeypatch, names, rule, hard):
    setting = Setting(parse_names(names), rule, hard)
    game = Game.of(setting)
    # compile_search_first returns early when the kernel is there: make it look absent
    monkeypatch.setattr("gamelab.wordle.solver.kernel_search.has_machine_code", lambda k, a: False)
    monkeypatch.setattr("gamelab.wordle.solver.kernel_search.ahead.start", lambda *a, **k: False)
    expected = _stand_in_types(game, hard)
    search = KernelSearch(game, hard)
    green, need = search._demands(())
    cands = game.all_answers()[:3]
    args = search.kernel_args(cands, None, green, need, 9, 10**6, -1, 1000)
    assert tuple(sk.search_kernel.typeof_pyval(a) for a in args) == expected
    assert np.asarray(args[0]).flags.writeable  # (a read-only table would be another type)


@pytest.mark.slow
def test_second_process_compiles_the_helpers_the_search_calls(tmp_path):
    """The helpers compiled in the second process (``kernel_search.helper_calls``) have the
    types the search's own compile gives them, so the search loads them instead of compiling
    them again, and ``kernel_search.late_helpers`` lists them in the order the search's compile
    types its calls to them (what the second process compiles first, one by one; compiles the
    search on an empty cache: about 10 s)."""
    import os
    import subprocess
    import sys

    script = """
from gamelab.wordle.rules import POST_SETTING, Setting
from gamelab.wordle.solver import kernel_search as ks
from gamelab.wordle.table import Game
from numba.core import event
game = Game.of(Setting(POST_SETTING))
order = []
class Compiles(event.Listener):
    def on_start(self, ev):
        order.append(ev.data["dispatcher"])
    def on_end(self, ev):
        pass
with event.install_listener("numba:compile", Compiles()):
    assert ks.compile_search_first(game.words, game.rule, None)
late = ks.late_helpers()
assert [k for k in order if k in late] == list(late), order
calls = ks.helper_calls(ks.stand_in_args(ks.stand_in_search(game.words, game.rule, None)))
assert [kernel for kernel, _ in calls] == list(late)
for kernel, example in calls:
    types = tuple(kernel.typeof_pyval(a) for a in example)
    assert types in kernel.signatures, (kernel, types, kernel.signatures)
print(len(calls))
"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), GAMELAB_COMPILE_AHEAD="0")
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["5"]


def test_feasibility_stand_in_types_are_the_real_call_types(monkeypatch):
    """A first feasibility proof compiles its kernel before the table exists
    (``feasible.compile_feasible_first``): for the types of the workers' real calls."""
    from gamelab.wordle.solver import _feasible_kernels as fk
    from gamelab.wordle.solver import feasible

    setting = Setting(parse_names("gen1-4"), "blog", None, 4)
    game = Game.of(setting)
    seen: list[tuple[object, ...]] = []
    monkeypatch.setattr(feasible, "has_machine_code", lambda k, a: False)
    monkeypatch.setattr(feasible.ahead, "start", lambda *a: False)
    monkeypatch.setattr(fk.feasible_kernel, "compile", seen.append)
    assert feasible.compile_feasible_first(game.words, game.rule)
    search = feasible.FeasibleSearch(game)
    part = game.partition(0, game.all_answers())
    cands = max(part.values(), key=len)
    args = feasible._kernel_args(search, cands, 3, search.guesses, (None,) * 4)
    assert seen == [tuple(fk.feasible_kernel.typeof_pyval(a) for a in args)]
