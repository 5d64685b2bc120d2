"""Every time the README states, measured by running its command (issue 29 item 22).

    .venv/bin/python benchmarks/readme_times.py            # the claims of a minute or less
    .venv/bin/python benchmarks/readme_times.py --long     # also the long ones (about an hour)

Each claim below is a piece of README.md (the test ``tests/core/test_readme_times.py`` fails if
the README states a time that no claim covers, or a claim's text is no longer in the README),
the command that the README's sentence is about, and the time it states, in CPU seconds (the
figure a loaded machine does not change) or wall seconds. The script runs each command as a
user would (a fresh cache directory where the claim is about computing, not loading), measures
the wall time and the CPU time of the command's processes, and prints both beside the claim.
A claim holds if the measured figure is within a factor of 1.5 of the stated one.
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMELAB = [sys.executable, "-m", "gamelab.cli"]
TOLERANCE = 1.5


@dataclass(frozen=True)
class Claim:
    readme: str  # the README's words (a substring of one line)
    command: tuple[str, ...]  # gamelab's arguments
    cpu: float | None = None  # stated CPU seconds
    wall: float | None = None  # stated wall seconds (on an idle 2-core machine)
    long: bool = False  # run only with --long
    fresh_numba: bool = False  # an empty numba cache (the claim is about compiling)
    benchmark: str = ""  # measured by this benchmark instead (not a gamelab command): listed only


CLAIMS = [
    Claim(
        "comes within 5 s:",
        (),
        wall=5.0,
        benchmark="benchmarks/web_first_answers.py --fresh-install",
    ),
    Claim(
        "the slowest was 2.4 s",
        (),
        wall=2.4,
        benchmark="benchmarks/web_first_answers.py --fresh-install",
    ),
    Claim(
        "proven optimum 964 in about 6 s of CPU",
        ("wordle", "solve-optimal", "--names", "gen1-4", "--rule", "blog", "--no-store"),
        cpu=6.0,
    ),
    Claim(
        "about 8 s of CPU to build",
        ("oware", "tablebase", "--seeds", "12"),
        cpu=8.0,
    ),
    Claim(
        "long: 3635 CPU-s",
        (
            "voltorb",
            "simulate",
            "--level",
            "8",
            "--strategy",
            "optimal",
            "--compare",
            "minrisk",
            "--games",
            "1000",
            "--seed",
            "0",
            "--no-store",
        ),
        cpu=3635.0,
        long=True,
    ),
    Claim(
        "paired, Wilson CIs; about 26 s on 2 cores",
        (
            "voltorb",
            "simulate",
            "--generator",
            "hgss",
            "--level",
            "8",
            "--strategy",
            "minrisk",
            "--compare",
            "fom",
            "--games",
            "20000",
            "--json",
            "--no-store",
        ),
        wall=26.0,  # first_run.py --examples --only "voltorb simulate --generator hgss": 26.4
        long=True,
        fresh_numba=True,
    ),
    Claim(
        "CI, Elo; about 3 min of thinking",
        (
            "oware",
            "match",
            "--a",
            "engine:time=0.5",
            "--b",
            "blog:depth=6",
            "--games",
            "100",
            "--seed",
            "1",
            "--json",
            "--no-store",
        ),
        wall=190.0,
        long=True,
    ),
    Claim(
        "about 35 s the first time: it solves the game",
        ("yatzy", "comeback", "--rules", "yahtzee"),
        wall=35.0,
        long=True,
        fresh_numba=True,
    ),
    Claim(
        "about 6 min (330 core-s",
        ("yatzy", "target", "--rules", "yahtzee"),
        cpu=330.0,
        long=True,
    ),
    Claim(
        "about 110 s of CPU",
        ("warmup",),
        cpu=110.0,
        long=True,
        fresh_numba=True,
    ),
]


def measure(claim: Claim) -> tuple[float, float, int]:
    """(wall s, CPU s of the command's processes, exit code), in a fresh cache directory."""
    scratch = Path(tempfile.mkdtemp(prefix="gamelab-readme-"))
    env = {**os.environ, "GAMELAB_CACHE": str(scratch / "cache")}
    env["GAMELAB_RESULTS"] = str(scratch / "results.sqlite")
    if claim.fresh_numba:
        env["NUMBA_CACHE_DIR"] = str(scratch / "numba")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [*GAMELAB, *claim.command],
        env=env,
        cwd=scratch,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    shutil.rmtree(scratch, ignore_errors=True)
    if done.returncode != 0:
        print(done.stderr.strip().splitlines()[-1:], file=sys.stderr)
    return wall, cpu, done.returncode


def holds(stated: float, measured: float) -> bool:
    return stated / TOLERANCE <= measured <= stated * TOLERANCE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long", action="store_true", help="also the claims of many minutes")
    args = parser.parse_args()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores")
    print(f"{'README says':<42} {'stated':>9} {'wall s':>8} {'CPU s':>8}  holds")
    failed = 0
    for claim in CLAIMS:
        if claim.readme not in readme:
            print(f"{claim.readme!r}: no longer in README.md")
            failed += 1
            continue
        if claim.benchmark:
            print(f"{claim.readme:<42} (measured by {claim.benchmark})")
            continue
        if claim.long and not args.long:
            print(f"{claim.readme:<42} {'(long: run with --long)':>28}")
            continue
        wall, cpu, code = measure(claim)
        stated, measured = (claim.cpu, cpu) if claim.cpu is not None else (claim.wall, wall)
        assert stated is not None
        ok = code == 0 and holds(stated, measured)
        failed += not ok
        unit = "CPU s" if claim.cpu is not None else "wall s"
        print(
            f"{claim.readme:<42} {stated:>6.0f} {unit:<6} {wall:>6.1f} {cpu:>8.1f}  "
            f"{'yes' if ok else 'NO'}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
