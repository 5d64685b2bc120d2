"""Warm start of the README's quick commands (issue 23, goal 2): CPU seconds per command, with
and without gamelab's deferral of numba's scipy.linalg probe, alternating runs side by side.

Each command runs as the ``gamelab`` program would (``gamelab.cli.main`` in a fresh
interpreter) once to fill the caches, then ``--repeats`` times in each mode, alternating
(``off`` drops the ``numba.np.linalg`` hook that ``import gamelab`` registers, so numba imports
scipy.linalg as it does on its own). CPU seconds (user + system of the child) are what to
compare on a shared machine; the load average is printed beside them.

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
    "if sys.argv[1] == 'off':\n"
    "    hook._pending.pop('numba.np.linalg', None)\n"
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
    print(f"{'command':22s} {'off CPU-s':>10s} {'on CPU-s':>10s} {'on wall s':>10s}")
    for argv in QUICK_COMMANDS:
        _cpu("on", argv)  # fill the caches
        runs: dict[str, list[tuple[float, float]]] = {"off": [], "on": []}
        for _ in range(args.repeats):
            for mode in ("off", "on"):
                runs[mode].append(_cpu(mode, argv))
        off = statistics.mean(c for c, _ in runs["off"])
        on = statistics.mean(c for c, _ in runs["on"])
        wall = statistics.mean(w for _, w in runs["on"])
        print(f"{' '.join(argv[:2]):22s} {off:10.2f} {on:10.2f} {wall:10.2f}")
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
