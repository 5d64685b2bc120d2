"""CPU seconds of each game page's warm-up (``PageWarmup.prefork`` + ``pool`` + ``build``), each on an
empty numba cache and an empty gamelab cache (its tables: a fresh install) in a process of its
own, as ``gamelab serve`` runs them; then the same again on the now warm caches.
``PageWarmup.seconds`` (which orders the server's warm-up) comes from here, and for a page
with ``server`` also ``PageWarmup.serve_seconds``: the CPU of its first part
(``server`` + ``build``, run first), after which its in-server calls are answered.

    python benchmarks/page_warm.py            # every page
    python benchmarks/page_warm.py --only voltorb,yatzy
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

MARK = "--mark"
CODE = f"""import sys, time
from gamelab.web.pool import call_by_name
for s in sys.argv[1:]:
    if s == {MARK!r}:
        print(time.process_time(), flush=True)
    else:
        call_by_name(s)
"""


def _run(specs: list[str], env: dict) -> tuple[float, float, float | None]:
    """(CPU s, wall s, CPU s at the mark or None) of one process calling `specs`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CODE, *specs], env=env, check=True, capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    marks = [float(line) for line in done.stdout.split() if line.replace(".", "", 1).isdigit()]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, (marks[0] if marks else None)


def main() -> None:
    from gamelab.web.app import discover_games

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated games")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    load = os.getloadavg()
    print(
        f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    print(
        f"{'page':10s} {'cold CPU s':>11s} {'cold wall s':>12s} {'warm CPU s':>11s} {'shipped':>8s}"
        f" {'served CPU s':>13s} {'shipped':>8s}"
    )
    for page, _ in discover_games():
        if only and page.game not in only:
            continue
        w = page.warmup  # the game's declaration (its warmup.py's PAGE_WARMUP)
        if w.server:  # as the server runs it: its first part, then the pool's
            specs = [*w.server, *w.build, MARK, *w.prefork, *w.pool]
        else:
            specs = [*w.prefork, *w.pool, *w.build]
        with tempfile.TemporaryDirectory(prefix="gamelab-page-warm-") as cache:
            env = {
                **os.environ,
                "NUMBA_CACHE_DIR": os.path.join(cache, "numba"),
                "GAMELAB_CACHE": os.path.join(cache, "gamelab"),
            }
            cold, wall, served = _run(specs, env)
            warm, _, _ = _run(specs, env)
        print(
            f"{page.game:10s} {cold:11.1f} {wall:12.1f} {warm:11.2f} {w.seconds:8.1f}"
            f" {'-' if served is None else f'{served:.1f}':>13s}"
            f" {'-' if w.serve_seconds is None else f'{w.serve_seconds:.1f}':>8s}"
        )
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
