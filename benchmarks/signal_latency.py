"""How long a long command takes to exit after Ctrl-C or SIGTERM (issue 29 items 1, 10 and 14).

Each case starts a real ``gamelab`` process, waits until it has spent some CPU seconds (so the
signal lands inside the long kernel, after numba has loaded), sends the signal and measures the
wall seconds until the process has exited, with its exit code (130 for SIGINT, 143 for SIGTERM)
and its last stderr line. The goal is "within a second"; the tests assert the codes and a loose
bound that holds on a loaded machine, this script measures the latency, with the load average
beside it.

    python benchmarks/signal_latency.py                # every case, 3 repeats
    python benchmarks/signal_latency.py --only lattice-perm --repeats 5
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time

_CHAIN40 = "HPHPPHHPHPPHPHHPPHPHHPHPPHHPHPPHPHHPPHPH"
CASES: dict[str, tuple[list[str], list[str], int]] = {
    # name: (warm-up command, command, signal)
    "lattice-perm": (
        ["lattice", "fold", _CHAIN40, "--method", "perm", "--seconds", "1", "--workers", "1"],
        ["lattice", "fold", _CHAIN40, "--method", "perm", "--seconds", "60", "--workers", "1"],
        signal.SIGINT,
    ),
    "lattice-remc": (
        ["lattice", "fold", "S1-9", "--seconds", "1", "--workers", "1"],
        ["lattice", "fold", "S1-9", "--seconds", "60", "--workers", "1"],
        signal.SIGTERM,
    ),
    "oware-perft": (
        ["oware", "perft", "--depth", "2"],
        ["oware", "perft", "--depth", "14"],
        signal.SIGINT,
    ),
    "oware-match": (
        ["oware", "match", "--a", "blog:depth=2", "--b", "random", "--games", "2", "--no-store"],
        ["oware", "match", "--a", "blog:depth=12", "--b", "random", "--games", "2", "--no-store"],
        signal.SIGTERM,
    ),
    "yatzy-simulate": (
        ["yatzy", "simulate", "--games", "100", "--no-store", "--workers", "1"],
        ["yatzy", "simulate", "--games", "4000000", "--no-store", "--json", "--workers", "1"],
        signal.SIGINT,
    ),
}
EXPECTED = {signal.SIGINT: 130, signal.SIGTERM: 143}


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _gamelab(args: list[str]) -> list[str]:
    return [sys.executable, "-m", "gamelab.cli", *args]


def measure(name: str, after_cpu: float) -> tuple[float, int, str]:
    """(seconds from the signal to the exit, exit code, last stderr line) for one run."""
    warm, args, sig = CASES[name]
    subprocess.run(_gamelab(warm), capture_output=True, check=True)
    proc = subprocess.Popen(
        _gamelab(args),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 300
        while _cpu_seconds(proc.pid) < after_cpu:
            if proc.poll() is not None:
                raise SystemExit(f"{name}: the command ended before the signal")
            if time.monotonic() > deadline:
                raise SystemExit(f"{name}: the command never got going")
            time.sleep(0.02)
        sent = time.monotonic()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    last = (err.strip().splitlines() or [""])[-1]
    return took, proc.returncode, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(CASES), help="comma-separated case names")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--after-cpu", type=float, default=3.0, help="CPU seconds before the signal"
    )
    opts = parser.parse_args()
    names = [n for n in opts.only.split(",") if n]
    unknown = [n for n in names if n not in CASES]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r}; cases: {', '.join(CASES)}")
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'case':<16}{'signal':<9}{'exit codes':<14}{'median s':>9}{'max s':>8}  last line")
    bad = False
    for name in names:
        runs = [measure(name, opts.after_cpu) for _ in range(opts.repeats)]
        took = [t for t, _, _ in runs]
        codes = sorted({c for _, c, _ in runs})
        sig = CASES[name][2]
        bad |= codes != [EXPECTED[sig]]
        print(
            f"{name:<16}{signal.Signals(sig).name:<9}{','.join(map(str, codes)):<14}"
            f"{statistics.median(took):>9.2f}{max(took):>8.2f}  {runs[-1][2]}"
        )
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    if bad:
        raise SystemExit("error: a command exited with the wrong code")


if __name__ == "__main__":
    main()
