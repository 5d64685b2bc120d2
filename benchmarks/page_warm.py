"""CPU seconds of each game page's warm-up (``GamePage.prefork_warm`` + ``warm`` + ``build``), each on an
empty numba cache and an empty gamelab cache (its tables: a fresh install) in a process of its
own, as ``gamelab serve`` runs them; then the same again on the now warm caches. ``GamePage.warm_seconds`` (which orders the server's warm-up) comes
from here.

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

CODE = (
    "import sys\nfrom gamelab.web.pool import call_by_name\nfor s in sys.argv[1:]: call_by_name(s)"
)


def _run(specs: list[str], env: dict) -> tuple[float, float]:
    """(CPU s, wall s) of one process calling `specs`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", CODE, *specs], env=env, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


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
    )
    for page, _ in discover_games():
        if only and page.game not in only:
            continue
        specs = [*page.prefork_warm, *page.warm, *page.build]
        with tempfile.TemporaryDirectory(prefix="gamelab-page-warm-") as cache:
            env = {
                **os.environ,
                "NUMBA_CACHE_DIR": os.path.join(cache, "numba"),
                "GAMELAB_CACHE": os.path.join(cache, "gamelab"),
            }
            cold, wall = _run(specs, env)
            warm, _ = _run(specs, env)
        print(f"{page.game:10s} {cold:11.1f} {wall:12.1f} {warm:11.2f} {page.warm_seconds:8.1f}")
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
