"""Issue 29 item 14: a long Owaré kernel stops at a signal. `oware perft --depth 14` ignored
Ctrl-C for minutes and `oware match --a blog:depth=50 --b random --games 2` ignored SIGTERM: the
kernel held the GIL in the main thread. Now each runs in a helper thread without the GIL
(``gamelab.core.stoppable``) and the command exits 130 / 143 at once. Through real processes."""

import os
import resource
import signal
import subprocess
import sys
import time


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a background suite hands children an ignored one


def _cpu_seconds(pid: int) -> float:
    """CPU seconds of `pid` and of its live descendants (a match plays in worker processes)."""
    stats: dict[int, tuple[int, int]] = {}  # pid -> (parent, clock ticks)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    tree, ticks, grew = {pid}, 0, True
    while grew:
        grew = False
        for p, (parent, _) in stats.items():
            if parent in tree and p not in tree:
                tree.add(p)
                grew = True
    ticks = sum(stats[p][1] for p in tree if p in stats)
    return ticks / os.sysconf("SC_CLK_TCK")


def _children_cpu() -> float:
    """CPU seconds of this process's children that have ended and been waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _stop_inside_the_kernel(args: list[str], sig: int) -> tuple[subprocess.CompletedProcess, float]:
    """Start `gamelab ARGS`, send `sig` once it has spent 4 CPU-seconds (well inside a kernel
    that runs for minutes), and return the finished process and the CPU seconds it spent after
    the signal: what it did, not how fast (a loaded machine stretches the wall time of a quick
    exit, never its CPU time past minutes of work)."""
    # numba compiles (or loads) the kernels first, holding the GIL: done beforehand, so the
    # signal below arrives inside the running kernel, not inside the compiler
    warm = ["oware", "perft", "--depth", "2"] if args[1] == "perft" else [*args[:2], "--help"]
    subprocess.run([sys.executable, "-m", "gamelab.cli", *warm], capture_output=True, check=True)
    if args[1] == "match":
        subprocess.run(
            [
                sys.executable,
                "-m",
                "gamelab.cli",
                "oware",
                "match",
                "--a",
                "blog:depth=2",
                "--b",
                "random",
                "--games",
                "2",
                "--no-store",
            ],
            capture_output=True,
            check=True,
        )
    before = _children_cpu()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gamelab.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
    )
    try:
        deadline = time.monotonic() + 120
        while _cpu_seconds(proc.pid) < 4.0:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the command never got going"
            time.sleep(0.1)
        at_signal = _cpu_seconds(proc.pid)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=600)  # a hang guard
        after = _children_cpu() - before - at_signal
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(args, proc.returncode, out, err), after


def test_14_perft_depth_14_stops_at_ctrl_c():
    done, after = _stop_inside_the_kernel(["oware", "perft", "--depth", "14"], signal.SIGINT)
    assert done.returncode == 130 and "error: interrupted" in done.stderr, done.stderr
    assert done.stdout == "" and after < 5, after  # was: CPU-minutes, until the count finished


def test_14_a_match_of_deep_blog_searches_stops_at_sigterm():
    # enough games that the match cannot end before the signal (2 games ended within 4 CPU-s
    # once the first run's imports got cheaper)
    args = [
        "oware",
        "match",
        "--a",
        "blog:depth=12",
        "--b",
        "random",
        "--games",
        "200",
        "--workers",
        "1",
        "--no-store",
    ]
    done, after = _stop_inside_the_kernel(args, signal.SIGTERM)
    assert done.returncode == 143 and "error: terminated" in done.stderr, done.stderr
    assert done.stdout == "" and after < 5, after
