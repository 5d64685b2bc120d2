"""Warm start of the README's quick commands (issue 23, goal 2): CPU seconds per command with
and without gamelab's two deferrals of numba's start-up work, alternating runs side by side.

Each command runs as the ``gamelab`` program would (``gamelab.cli.main`` in a fresh
interpreter) once to fill the caches, then ``--repeats`` times in each mode, alternating:
``none`` drops both hooks that ``import gamelab`` registers (numba as it is on its own),
``scipy`` keeps only the ``numba.np.linalg`` one (no scipy.linalg import for numba's BLAS
probe: an earlier run), ``both`` also keeps the ``numba.core.caching`` one (a cached kernel loads
without numba's typing and lowering registries: an earlier run). These three end through the
interpreter's own teardown; ``exit`` is ``both`` ending as the ``gamelab`` program does since
An earlier run (``cli._exit_now``: at once, after the exit handlers and a flush). CPU seconds (user +
system of the child) are what to compare on a shared machine; the load average is printed
beside them, and the wall seconds of ``both`` and ``exit``.

    python benchmarks/warm_start.py --repeats 3
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from first_run import QUICK_COMMANDS  # noqa: E402

RUNNER = (
    "import sys\n"
    "import gamelab, gamelab.numba_hook as hook\n"
    "if sys.argv[1] == 'none':\n"
    "    hook._pending.pop('numba.np.linalg', None)\n"
    "if sys.argv[1] in ('none', 'scipy'):\n"
    "    hook._pending.pop('numba.core.caching', None)\n"
    "import gamelab.cli as cli\n"
    "if sys.argv[1] != 'exit':\n"
    "    cli._exit_now = lambda code: None\n"
    "from gamelab.cli import main\n"
    "sys.argv = ['gamelab', *sys.argv[2:]]\n"
    "main()\n"
)


def _cpu(mode: str, argv: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", RUNNER, mode, *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    modes = ("none", "scipy", "both", "exit")
    print(
        f"{'command':22s} "
        + " ".join(f"{m + ' CPU-s':>11s}" for m in modes)
        + "  both wall s  exit wall s"
    )
    for argv in QUICK_COMMANDS:
        _cpu("both", argv)  # fill the caches
        runs: dict[str, list[tuple[float, float]]] = {m: [] for m in modes}
        for _ in range(args.repeats):
            for mode in modes:
                runs[mode].append(_cpu(mode, argv))
        cpu = " ".join(f"{statistics.mean(c for c, _ in runs[m]):11.2f}" for m in modes)
        wall = " ".join(f"{statistics.mean(w for _, w in runs[m]):12.2f}" for m in ("both", "exit"))
        print(f"{' '.join(argv[:2]):22s} {cpu} {wall}")
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
