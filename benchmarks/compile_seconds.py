"""CPU seconds to compile every kernel of each game from empty caches (the compile notice's figure).

For each game, ``gamelab warmup GAME`` runs in a fresh process with an empty ``NUMBA_CACHE_DIR``,
``GAMELAB_CACHE`` and ``GAMELAB_RESULTS``; the CPU seconds of that process and its children are
the figure that ``gamelab/games.py`` records as the game's ``compile_seconds`` (the notice says it
on a first run: a command compiles only the kernels it calls, so it is an upper bound for one
command). The machine's load is printed beside each figure: CPU seconds grow a little on a
shared machine.

    python benchmarks/compile_seconds.py                 # every game with kernels
    python benchmarks/compile_seconds.py voltorb oware   # some of them
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def measure(game: str) -> tuple[float, float, int]:
    """(CPU s, wall s, exit code) of a cold ``gamelab warmup game``."""
    folder = tempfile.mkdtemp(prefix="gamelab-compile-")
    env = dict(os.environ)
    for name, sub in (
        ("NUMBA_CACHE_DIR", "numba"),
        ("GAMELAB_CACHE", "cache"),
        ("GAMELAB_RESULTS", "results"),
    ):
        env[name] = os.path.join(folder, sub)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "gamelab.cli", "warmup", game, "--json"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(folder, ignore_errors=True)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.returncode


def main() -> None:
    from gamelab.core.state import registered_games

    known = [info.name for info in registered_games() if info.kernels]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"games (default: {' '.join(known)})")
    games = parser.parse_args().games or known
    for game in games:
        if game not in known:
            parser.error(f"no game with kernels named {game!r}: {', '.join(known)}")
    print(f"machine: {os.cpu_count()} cores; CPU s (wall s) of a cold 'gamelab warmup GAME'")
    for game in games:
        cpu, wall, code = measure(game)
        load = os.getloadavg()[0]
        print(f"{game:8s} {cpu:6.1f} ({wall:6.1f})  exit {code}  load {load:.1f}", flush=True)


if __name__ == "__main__":
    main()
