"""gamelab's patches of numba's internals keep every numba that pyproject.toml allows working
(the floor check, benchmarks/deps_floor.py, runs the README examples at the oldest)."""

from __future__ import annotations

import llvmlite.ir as ir
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import cpu_target

import gamelab  # noqa: F401  (installs the patches)


def _library(name: str, function: str):
    module = ir.Module(name=name)
    fn = ir.Function(module, ir.FunctionType(ir.IntType(64), []), name=function)
    ir.IRBuilder(fn.append_basic_block()).ret(ir.Constant(ir.IntType(64), 7))
    library = cpu_target.target_context.codegen().create_library(name)
    library.add_ir_module(module)
    return library


def test_a_library_links_on_a_numba_without_reload_init():
    """numba 0.62's code libraries have no ``_reload_init`` (newer ones record there what a
    cached kernel must run again on load); linking a callee must not need it."""
    with global_compiler_lock:
        callee, caller = _library("callee", "seven"), _library("caller", "eight")
        for library in (callee, caller):
            if hasattr(library, "_reload_init"):
                del library._reload_init  # as numba 0.62 builds them
        caller.add_linking_library(callee)
        caller.finalize()
        assert caller.get_pointer_to_function("eight") != 0
