"""What a command compiles on empty caches, kernel by kernel (issue 50 item 6).

Runs one ``gamelab`` command in this process with an empty numba cache and gamelab cache (both
in a temporary folder, removed at the end) and records every compilation through numba's event
API (``numba.core.event``: ``numba:compile`` per specialisation, ``numba:llvm_lock`` for LLVM's
part). Prints, per kernel, the CPU seconds of its own compilation (without the callees it made
numba compile: those have their own rows), how much of it was LLVM (optimising and emitting
machine code), and how many specialisations it got; then the totals. Worker processes the
command starts are not profiled (``benchmarks/first_run.py --examples`` counts their CPU).

    python benchmarks/compile_profile.py voltorb solve --rows "4,2 8,0 4,2 4,2 5,1" \\
        --cols "6,1 5,0 5,2 4,3 5,1" --level 2
    python benchmarks/compile_profile.py --top 10 wordle next --history "レントラー:00000"

``--gamelab-cache DIR`` keeps that gamelab cache instead of an empty one (for instance one that
holds Yatzy's tables: then only the command's own kernels compile, not the solver's)::

    GAMELAB_CACHE=tables gamelab yatzy solve --rules yahtzee-no-bonus
    python benchmarks/compile_profile.py --gamelab-cache tables yatzy winplay \
        --rules yahtzee-no-bonus --turns-left 4 --games 200 --exact-only --json
"""

from __future__ import annotations

import os
import sys
import tempfile
import time


def main() -> None:
    args = sys.argv[1:]
    top = 30
    gamelab_cache = None
    while args[:1] in (["--top"], ["--gamelab-cache"]):
        if args[0] == "--top":
            top = int(args[1])
        else:
            gamelab_cache = os.path.abspath(args[1])
        args = args[2:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return
    scratch = tempfile.mkdtemp(prefix="gamelab-compile-profile-")
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(scratch, "numba")
    os.environ["GAMELAB_CACHE"] = gamelab_cache or os.path.join(scratch, "cache")
    os.environ["GAMELAB_RESULTS"] = os.path.join(scratch, "results.sqlite")
    os.environ.pop("GAMELAB_CLUSTER", None)

    from numba.core import event

    clock = time.process_time
    compiling: list[list[float]] = []  # per compilation under way: [start, callees' CPU, LLVM]
    llvm_started: list[float] = []
    rows: dict[str, list[float]] = {}  # kernel -> [specialisations, own CPU, LLVM CPU]

    class Compiles(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            compiling.append([clock(), 0.0, 0.0])

        def on_end(self, ev: event.Event) -> None:
            start, callees, llvm = compiling.pop()
            spent = clock() - start
            if compiling:
                compiling[-1][1] += spent
            func = ev.data["dispatcher"].py_func
            row = rows.setdefault(f"{func.__module__}.{func.__qualname__}", [0, 0.0, 0.0])
            row[0] += 1
            row[1] += spent - callees
            row[2] += llvm

    class Llvm(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            llvm_started.append(clock())

        def on_end(self, ev: event.Event) -> None:
            spent = clock() - llvm_started.pop()
            if compiling and not llvm_started:
                compiling[-1][2] += spent

    event.register("numba:compile", Compiles())
    event.register("numba:llvm_lock", Llvm())

    def report() -> None:
        own = sum(r[1] for r in rows.values())
        llvm = sum(r[2] for r in rows.values())
        count = int(sum(r[0] for r in rows.values()))
        print(f"{'own CPU s':>9s} {'LLVM s':>7s} {'specs':>5s}  kernel", file=sys.stderr)
        for name, (n, cpu, ll) in sorted(rows.items(), key=lambda kv: -kv[1][1])[:top]:
            print(f"{cpu:9.2f} {ll:7.2f} {int(n):5d}  {name}", file=sys.stderr)
        print(
            f"compiling: {own:.1f} CPU-s in {count} specialisations of {len(rows)} functions "
            f"(LLVM {llvm:.1f}); the whole process {clock():.1f} CPU-s",
            file=sys.stderr,
        )
        sys.stderr.flush()
        import shutil

        shutil.rmtree(scratch, ignore_errors=True)

    real_exit = os._exit

    def exit_after_report(code: int) -> None:  # gamelab's CLI ends by os._exit
        report()
        real_exit(code)

    os._exit = exit_after_report  # type: ignore[assignment]
    from gamelab.cli import main as gamelab_main

    sys.argv = ["gamelab", *args]
    try:
        gamelab_main()
    finally:
        os._exit = real_exit  # type: ignore[assignment]
    report()


if __name__ == "__main__":
    main()
