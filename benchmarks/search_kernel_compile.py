"""What Wordle's exact search kernel costs to compile, alone, in two source trees side by side.

A cold ``wordle next`` or ``wordle solve-optimal`` compiles ``search_kernel`` in the command's
process (its helpers come from the cache, or from a second process): this measures that piece
alone. For each tree, a temporary numba cache first gets everything compiled once (gen1-4, the
blog rule, normal mode: the README's examples); then each repetition removes only the search
kernel's own entries and compiles it again in a new process, alternating the trees. Printed per
tree: the median CPU seconds of that compile (loading its helpers from the cache included) and
the lines of the kernel's LLVM code as numba's lowering emits it (before LLVM optimises it) and
as compiled (the module with its wrappers and linked callees).

    python benchmarks/search_kernel_compile.py --before <baseline tree>/src --reps 5
"""

from __future__ import annotations

import argparse
import glob
import importlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child(cache: str, measure: bool) -> None:
    """In a new process: compile the search kernel into `cache` and print what it cost."""
    os.environ["NUMBA_CACHE_DIR"] = cache
    if measure:
        pattern = os.path.join(cache, "**", "_search_kernels.search_kernel-*")
        for path in glob.glob(pattern, recursive=True):
            os.remove(path)
    from gamelab.wordle.rules import parse_setting
    from gamelab.wordle.solver import _search_kernels as sk
    from gamelab.wordle.solver import kernel_search as ks
    from gamelab.wordle.table import Game

    # (imported after gamelab, which sets up numba's cache first)
    codegen = importlib.import_module("numba.core.codegen")

    lowered: list[int] = []
    add_ir_module = codegen.CPUCodeLibrary.add_ir_module

    def counting(library: object, module: object) -> object:
        text = str(module)
        for line in text.splitlines():
            if line.startswith("define"):
                if "search_kernel" in line and "cpython" not in line and "cfunc" not in line:
                    lowered.append(text.count("\n"))
                break
        return add_ir_module(library, module)

    codegen.CPUCodeLibrary.add_ir_module = counting  # type: ignore[method-assign]
    game = Game.of(parse_setting("gen1-4", "blog", None))
    args = ks.stand_in_args(ks.stand_in_search(game.words, game.rule, None))
    types = tuple(sk.search_kernel.typeof_pyval(a) for a in args)
    start = time.process_time()
    sk.search_kernel.compile(types)
    cpu = time.process_time() - start
    compiled = sk.search_kernel.inspect_llvm(types).count("\n") if measure else 0
    print(json.dumps({"cpu": cpu, "lowered": sum(lowered), "compiled": compiled}))


def run(src: str, cache: str, measure: bool) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=src)
    env.pop("NUMBA_CACHE_DIR", None)
    flag = ["--measure"] if measure else []
    out = subprocess.run(
        [sys.executable, __file__, "--child", cache, *flag],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="src folder of the baseline tree (required)")
    parser.add_argument("--after", default=os.path.join(ROOT, "src"), help="src of the new tree")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.child:
        child(opts.child, opts.measure)
        return
    if not opts.before:
        parser.error("--before is required")
    scratch = tempfile.mkdtemp(prefix="gamelab-search-compile-")
    try:
        trees = {"before": opts.before, "after": opts.after}
        caches = {name: os.path.join(scratch, name) for name in trees}
        for name, src in trees.items():
            run(src, caches[name], measure=False)
        rows: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
        for _ in range(opts.reps):
            for name, src in trees.items():
                rows[name].append(run(src, caches[name], measure=True))
        print(f"search_kernel alone (gen1-4, blog, normal mode), median of {opts.reps}")
        print(f"{'tree':8} {'compile CPU-s':>14} {'lowered lines':>14} {'compiled lines':>15}")
        for name, found in rows.items():
            cpu = statistics.median(r["cpu"] for r in found)
            print(
                f"{name:8} {cpu:14.2f} {int(found[0]['lowered']):14d} "
                f"{int(found[0]['compiled']):15d}"
            )
        print(f"(load average {os.getloadavg()[0]:.1f})")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
