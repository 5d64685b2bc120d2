"""First contact (issue 23): a newcomer's first minutes, measured on a fresh clone.

For each checkout named (default: this repository's HEAD, and ``main`` side by side), the
script clones it into a temporary folder, makes its own venv and installs it (``pip install
-q .``: pip's local cache serves the wheels), then measures, each against its goal:

1. the README's first command: install + ``gamelab report --quick`` (goal: <= 60 s), with an
   empty numba cache and an empty gamelab cache (``--skip-report`` leaves it out: minutes);
   also when the report's first section could be read (``report/index.html`` appears: the
   report publishes each section as it finishes when there is no report yet);
2. warm start: ``gamelab --help`` (goal <= 0.3 s) and each README example that is not a long
   computation (goal <= 1.0 s wall when warm; each run twice, the second timed);
3. ``gamelab serve``: seconds from start until ``/api/health`` answers (goal <= 3 s, on the
   cold install), until each game's first exact answer to a question its page asks
   (:data:`SERVE_PROBES`; goal <= 60 s on the cold install) and until it says ``ready`` (every
   solver warm).

Times are wall seconds (and CPU seconds of the child where it matters); the machine's load
(``os.getloadavg``) is printed beside them, since a shared machine stretches wall times.

    python benchmarks/first_run.py                    # HEAD and main, everything
    python benchmarks/first_run.py --skip-report --refs HEAD

``--examples`` measures instead each README example on an empty numba cache (issue 50 item 6,
goal: <= 10 s), side by side with a baseline tree, without cloning or installing: both trees run
under this interpreter (``PYTHONPATH=<tree>/src``; the baseline is a ``git worktree`` of
``--baseline``, default ``main``, made in a temporary folder and removed at the end). For each
example and tree: a cold run (fresh, empty ``NUMBA_CACHE_DIR``, ``GAMELAB_CACHE`` and
``GAMELAB_RESULTS``, the working folder a new temporary one), then a warm run (the same caches, a
fresh results store, so a long command computes again rather than reading its stored tasks).
With ``NUMBA_CACHE_DIR`` set, numba's first cache locator puts and looks for every kernel there
(never in the tree's ``__pycache__``), so a cold run compiles everything it calls whatever the
tree's own ``__pycache__`` holds; the script counts the specialisations saved there
(``*.nbc``: what the command compiled). CPU seconds (of the command and its children) are the
main figure: the machine may be shared, and the load average is printed beside every row.

    python benchmarks/first_run.py --examples --baseline 68a8290       # the five first questions
    python benchmarks/first_run.py --examples --baseline 68a8290 --ref main   # main, not the tree
    python benchmarks/first_run.py --examples --all                    # every README example
    python benchmarks/first_run.py --examples --only wordle,oware      # a game's examples
    python benchmarks/first_run.py --examples --all --work             # + each computation alone
    python benchmarks/first_run.py --examples --all --baseline none --ref d38d817   # one tree
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from web_server import free_port, stop

REPO = Path(__file__).resolve().parents[1]

#: README examples that are not long computations (goal 2), as argv after ``gamelab``
QUICK_COMMANDS = [
    ["--help"],
    ["voltorb", "solve", "--rows", "4,2 8,0 4,2 4,2 5,1", "--cols", "6,1 5,0 5,2 4,3 5,1",
     "--level", "2"],
    ["wordle", "next", "--history", "レントラー:00000", "--json"],
    ["yatzy", "advise", "--rules", "yahtzee", "--card", "ones=3,yahtzee=50", "--dice", "11114",
     "--rolls-left", "2"],
    ["lattice", "histogram", "--sequence", "HPHHHHHHPHHPHHPH"],
    ["oware", "perft", "--depth", "6"],
]  # fmt: skip


#: run as ``python -c REAPER command...``: runs the command as a child subreaper (Linux), so that
#: the processes it leaves behind (a fork server and its workers, watchdogs: orphans once the
#: command has exited) become this process's children instead of init's; it waits for every one
#: of them (killing any still alive after ``REAP_WAIT`` s) and writes the CPU seconds of the
#: whole tree and the command's own wall seconds (until it exited, not its orphans) to the file
#: named by ``GAMELAB_REAPER_OUT``, then exits with the command's code. Without
#: it the parent's ``RUSAGE_CHILDREN`` misses the CPU of every worker not reaped by its own
#: parent (a worker of a fork server that outlives the command).
REAPER = r"""
import ctypes, os, resource, signal, subprocess, sys, time
try:
    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
except (AttributeError, OSError):
    pass
start = time.perf_counter()
code = subprocess.call(sys.argv[1:])
wall = time.perf_counter() - start
deadline = time.monotonic() + float(os.environ.get("REAP_WAIT", "30"))
while True:
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        break
    if pid == 0:
        if time.monotonic() > deadline:
            for task in os.listdir("/proc/self/task"):
                with open(f"/proc/self/task/{task}/children") as f:
                    for child in f.read().split():
                        os.kill(int(child), signal.SIGKILL)
        time.sleep(0.05)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(os.environ["GAMELAB_REAPER_OUT"], "w") as f:
    f.write(f"{usage.ru_utime + usage.ru_stime!r} {wall!r}")
sys.exit(code)
"""


def _timed(
    argv: list[str], env: dict, cwd: Path, timeout: float = 3600
) -> tuple[float, float, int]:
    """(wall s until the command exited, CPU s of the command and every process it started, exit
    code): the command runs under :data:`REAPER`, so the workers it leaves to exit after it are
    counted too."""
    with tempfile.NamedTemporaryFile(prefix="gamelab-cpu-", delete=False) as out:
        path = Path(out.name)
    try:
        done = subprocess.run(
            [sys.executable, "-c", REAPER, *argv],
            env={**env, "GAMELAB_REAPER_OUT": str(path)},
            cwd=cwd,
            capture_output=True,
            timeout=timeout,
        )
        text = path.read_text().split()
        cpu, wall = (float(text[0]), float(text[1])) if text else (float("nan"), float("nan"))
    finally:
        path.unlink(missing_ok=True)
    return wall, cpu, done.returncode


def _timed_report(
    gamelab: str, env: dict, cwd: Path, timeout: float = 3600
) -> tuple[float, float, int, float | None]:
    """(wall s, CPU s, exit code, s until report/index.html first appeared) of the quick report
    (CPU and wall as :func:`_timed` counts them)."""
    index = cwd / "report" / "index.html"
    with tempfile.NamedTemporaryFile(prefix="gamelab-cpu-", delete=False) as out:
        path = Path(out.name)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", REAPER, gamelab, "report", "--quick"],
        env={**env, "GAMELAB_REAPER_OUT": str(path)},
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    first = None
    while proc.poll() is None and time.perf_counter() - start < timeout:
        if first is None and index.exists():
            first = time.perf_counter() - start
        time.sleep(0.1)
    if proc.poll() is None:
        proc.kill()
    code = proc.wait()
    text = path.read_text().split()
    path.unlink(missing_ok=True)
    cpu, wall = (float(text[0]), float(text[1])) if text else (float("nan"), float("nan"))
    return wall, cpu, code, first if first is not None else (wall if index.exists() else None)


#: one question per game page, as its page asks it, and whether an answer is the exact one (not a
#: labelled fallback, not "still warming up"): goal 3's first exact answer of each game
SERVE_PROBES = {
    "voltorb": (
        "/api/voltorb/solve",
        {"rows": "4,2 8,0 4,2 4,2 5,1", "cols": "6,1 5,0 5,2 4,3 5,1", "level": 2},
        lambda doc: doc.get("answer") == "optimal",
    ),
    "wordle": (
        "/api/wordle/advice",
        {"rule": "blog", "history": []},
        lambda doc: not doc.get("note"),
    ),
    "yatzy": (
        "/api/yatzy/advise",
        {"rules": "yatzy", "dice": "11114", "rolls_left": 2},
        lambda doc: True,
    ),
    "lattice": ("/api/lattice/best", {"sequence": "HPHPPHHPHPPHPHHPPHPH"}, lambda doc: True),
    "oware": (
        "/api/oware/analyse",
        {"position": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "depth": 4},
        lambda doc: True,
    ),
}


def _exact(port: int, game: str) -> bool:
    path, body, exact = SERVE_PROBES[game]
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status == 200 and bool(exact(json.loads(r.read())))
    except OSError:  # 503 while warming (HTTPError is an OSError), or not listening yet
        return False


def _serve(gamelab: str, env: dict, cwd: Path, limit: float) -> dict[str, float | None]:
    """Seconds from start until /api/health answers (``health``), until the first exact answer
    of each game's probe (the game's name), and until /api/health says ready (``ready``);
    None: not within `limit`."""
    port = free_port()
    start = time.perf_counter()
    proc = subprocess.Popen(
        [gamelab, "serve", "--port", str(port)],
        env=env,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    seen: dict[str, float | None] = {"health": None, **dict.fromkeys(SERVE_PROBES), "ready": None}
    last_probe = 0.0
    try:
        while time.perf_counter() - start < limit and None in seen.values():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2) as r:
                    body = r.read().decode()
                now = time.perf_counter() - start
                seen["health"] = now if seen["health"] is None else seen["health"]
                if seen["ready"] is None and (
                    '"ready":true' in body.replace(" ", "") or '"ready"' not in body
                ):
                    seen["ready"] = now
            except OSError:
                pass
            if seen["health"] is not None and time.perf_counter() - last_probe >= 1.0:
                last_probe = time.perf_counter()
                for game in SERVE_PROBES:
                    if seen[game] is None and _exact(port, game):
                        seen[game] = time.perf_counter() - start
            time.sleep(0.2)
    finally:
        stop(proc, 20)
    return seen


class _Results(dict):
    """The measures of one ref, each also printed on stderr as it is taken (a run stopped
    early still says what it measured)."""

    def __setitem__(self, key: str, value: object) -> None:
        super().__setitem__(key, value)
        if key != "ref":
            print(f"{self['ref']}: {key} = {_fmt(value)}", file=sys.stderr, flush=True)


def measure(ref: str, skip_report: bool, serve_limit: float) -> dict[str, object]:
    out: dict[str, object] = _Results(ref=ref)
    with tempfile.TemporaryDirectory(prefix="gamelab-first-run-") as tmp:
        root = Path(tmp)
        clone = root / "gamelab"
        start = time.perf_counter()  # from git clone
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", ref], check=True)
        env = {
            **os.environ,
            "GAMELAB_CACHE": str(root / "cache"),
            "GAMELAB_RESULTS": str(root / "results.sqlite"),
            "NUMBA_CACHE_DIR": str(root / "numba"),
        }
        env.pop("GAMELAB_CLUSTER", None)
        venv = clone / ".venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(venv / "bin/pip"), "install", "-q", "."], cwd=clone, env=env, check=True
        )
        out["install_s"] = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out["install_cpu_s"] = (after.ru_utime - before.ru_utime) + (
            after.ru_stime - before.ru_stime
        )
        gamelab = str(venv / "bin/gamelab")
        if not skip_report:  # the README's first command comes first: every cache is empty
            wall, cpu, code, first = _timed_report(gamelab, env, clone)
            out["report_quick_s"], out["report_quick_cpu_s"], out["report_code"] = wall, cpu, code
            out["report_first_section_s"] = first
            out["clone_to_first_section_s"] = None if first is None else out["install_s"] + first
            out["clone_to_report_s"] = out["install_s"] + wall
            out["clone_to_report_cpu_s"] = out["install_cpu_s"] + cpu
        cold = {**env, "NUMBA_CACHE_DIR": str(root / "numba-serve")}
        cold["GAMELAB_CACHE"] = str(root / "cache-serve")  # serve on a cold install, too
        for key, seconds in _serve(gamelab, cold, clone, serve_limit).items():
            out[f"serve_{key}_cold_s"] = seconds
        for argv in QUICK_COMMANDS:
            _timed([gamelab, *argv], env, clone)  # compile / fill the caches
            wall, cpu, code = _timed([gamelab, *argv], env, clone)
            out[" ".join(argv[:2])] = (wall, cpu, code)
        for key, seconds in _serve(gamelab, env, clone, serve_limit).items():
            out[f"serve_{key}_warm_s"] = seconds
    return out


def _fmt(x: object) -> str:
    if x is None:
        return "-"
    if isinstance(x, tuple):
        return f"{x[0]:.2f} s ({x[1]:.2f} CPU-s)" + ("" if x[2] == 0 else f" exit {x[2]}")
    if isinstance(x, float):
        return f"{x:.1f} s"
    return str(x)


#: the first question of each game that the issue measured (issue 50 item 6), as README
#: prefixes; ``--examples`` without ``--all`` runs these
FIRST_QUESTIONS = (
    "voltorb solve",
    "wordle next",
    "yatzy advise",
    "lattice fold",
    "oware analyse",
)

#: README examples that wait for a person (their cold start is the same as a command's)
INTERACTIVE = {"assist", "play"}


def readme_examples(readme: str) -> list[tuple[list[str], bool]]:
    """(gamelab's arguments, stated as long) of every command in the README's "A taste of each
    game" block, interactive programs left out; a command whose comment calls it long (``long:``,
    ``about N min``) is marked so."""
    block = readme.split("## A taste of each game", 1)[1].split("```bash", 1)[1].split("```")[0]
    found = []
    for line in block.splitlines():
        if not line.startswith("gamelab "):
            continue
        argv = shlex.split(line, comments=True)[1:]
        if argv[1] in INTERACTIVE:
            continue
        comment = line[line.index("#") :] if "#" in line else ""
        long = re.search(r"\blong:|\babout \d+ min", comment) is not None
        found.append((argv, long))
    return found


def _cold_and_warm(
    src: Path, argv: list[str], scratch: Path, work: bool = False
) -> dict[str, object]:
    """One example in one tree: a cold run (empty caches) then a warm one; with `work`, a third
    run with the warm numba cache but an empty gamelab cache (and results store): the command's
    own computation, every kernel compiled (a table it solves, a result it caches, computed
    again)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(src),
        "NUMBA_CACHE_DIR": str(scratch / "numba"),
        "GAMELAB_CACHE": str(scratch / "cache"),
        "GAMELAB_RESULTS": str(scratch / "results-cold.sqlite"),
    }
    env.pop("GAMELAB_CLUSTER", None)
    folder = scratch / "work"
    folder.mkdir()
    command = [sys.executable, "-m", "gamelab.cli", *argv]
    cold = _timed(command, env, folder)
    compiled = sum(1 for _ in (scratch / "numba").rglob("*.nbc"))
    warm = _timed(command, {**env, "GAMELAB_RESULTS": str(scratch / "results-warm.sqlite")}, folder)
    out: dict[str, object] = {"cold": cold, "warm": warm, "compiled": compiled}
    if work:
        out["work"] = _timed(
            command,
            {
                **env,
                "GAMELAB_CACHE": str(scratch / "cache-work"),
                "GAMELAB_RESULTS": str(scratch / "results-work.sqlite"),
            },
            folder,
        )
    return out


def examples(baseline: str, ref: str | None, chosen: list[list[str]], work: bool = False) -> None:
    """Each chosen example cold and warm in the baseline tree and this one (or `ref`'s), side by
    side; with `work`, also its computation alone (:func:`_cold_and_warm`)."""
    with tempfile.TemporaryDirectory(prefix="gamelab-cold-") as tmp:
        made = []
        for name, commit in (("baseline", baseline), ("this", ref)):
            if commit is not None:
                folder = Path(tmp) / name
                subprocess.run(
                    ["git", "-C", str(REPO), "worktree", "add", "-q", "--detach", str(folder)]
                    + [commit],
                    check=True,
                )
                made.append(folder)
        trees = {"baseline": made[0] / "src", "this": made[1] / "src" if ref else REPO / "src"}
        load = os.getloadavg()
        print(
            f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} "
            f"{load[2]:.1f}; baseline {baseline}, this: {ref or 'the working tree'}"
        )
        print("cold: empty numba and gamelab caches; CPU s (wall s); kernels = specialisations")
        print(
            f"{'example':58s} {'cold CPU s':>17s} {'cold wall s':>17s} {'kernels':>9s} "
            f"{'warm CPU s':>13s} {'ratio':>6s} {'load':>5s}"
            + (f" {'work CPU s (wall s)':>27s}" if work else "")
        )
        print(
            f"{'':58s} {'base':>8s} {'this':>8s} {'base':>8s} {'this':>8s} {'base':>4s} "
            f"{'this':>4s} {'base':>6s} {'this':>6s} {'cold':>6s}"
        )
        try:
            for i, argv in enumerate(chosen):
                row: dict[str, dict[str, object]] = {}
                order = ("baseline", "this") if i % 2 == 0 else ("this", "baseline")
                for side in order:
                    scratch = Path(tmp) / f"{side}-{i}"
                    scratch.mkdir()
                    row[side] = _cold_and_warm(trees[side], argv, scratch, work)
                    shutil.rmtree(scratch, ignore_errors=True)
                b, t = row["baseline"], row["this"]
                bc, tc = b["cold"], t["cold"]
                assert isinstance(bc, tuple) and isinstance(tc, tuple)
                bw, tw = b["warm"], t["warm"]
                assert isinstance(bw, tuple) and isinstance(tw, tuple)
                failed = [s for s, r in row.items() for k in ("cold", "warm") if r[k][2] != 0]  # type: ignore[index]
                text = " ".join(shlex.quote(a) for a in argv)
                print(
                    f"{text[:58]:58s} {bc[1]:8.1f} {tc[1]:8.1f} {bc[0]:8.1f} {tc[0]:8.1f} "
                    f"{b['compiled']:4d} {t['compiled']:4d} {bw[1]:6.2f} {tw[1]:6.2f} "
                    f"{tc[1] / bc[1]:6.2f} {os.getloadavg()[0]:5.1f}"
                    + (
                        " " + " ".join(f"{r['work'][1]:6.1f} ({r['work'][0]:5.1f})" for r in (b, t))  # type: ignore[index]
                        if work
                        else ""
                    )
                    + (f"  FAILED: {', '.join(failed)}" if failed else ""),
                    flush=True,
                )
        finally:
            for folder in made:
                subprocess.run(
                    ["git", "-C", str(REPO), "worktree", "remove", "--force", str(folder)],
                    check=False,
                )


def one_tree(ref: str | None, chosen: list[list[str]], work: bool = False) -> None:
    """Each chosen example cold and warm (and its computation alone, with `work`) in one tree:
    `ref`'s, or the working tree (``--baseline none``)."""
    with tempfile.TemporaryDirectory(prefix="gamelab-cold-") as tmp:
        folder = Path(tmp) / "this"
        if ref is not None:
            subprocess.run(
                ["git", "-C", str(REPO), "worktree", "add", "-q", "--detach", str(folder), ref],
                check=True,
            )
        src = folder / "src" if ref is not None else REPO / "src"
        load = os.getloadavg()
        print(
            f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} "
            f"{load[2]:.1f}; tree: {ref or 'the working tree'}; CPU s (wall s)"
        )
        try:
            for i, argv in enumerate(chosen):
                scratch = Path(tmp) / f"run-{i}"
                scratch.mkdir()
                r = _cold_and_warm(src, argv, scratch, work)
                shutil.rmtree(scratch, ignore_errors=True)
                cells = [
                    f"{r[k][1]:6.1f} ({r[k][0]:6.1f})" for k in ("cold", "warm", "work") if k in r
                ]  # type: ignore[index]
                codes = ",".join(str(r[k][2]) for k in ("cold", "warm", "work") if k in r)  # type: ignore[index]
                text = " ".join(shlex.quote(a) for a in argv)
                print(
                    f"{text[:90]:90s} cold {cells[0]}  warm {cells[1]}"
                    + (f"  work {cells[2]}" if work else "")
                    + f"  kernels {r['compiled']:3d}  exit {codes}  load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
        finally:
            if ref is not None:
                subprocess.run(
                    ["git", "-C", str(REPO), "worktree", "remove", "--force", str(folder)],
                    check=False,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refs", nargs="+", default=["HEAD", "main"])
    parser.add_argument("--skip-report", action="store_true", help="leave out report --quick")
    parser.add_argument("--serve-limit", type=float, default=600.0, help="seconds to wait")
    parser.add_argument(
        "--examples", action="store_true", help="README examples cold and warm, side by side"
    )
    parser.add_argument(
        "--baseline",
        default="main",
        help="with --examples: the baseline ref ('none': measure one tree, no side by side)",
    )
    parser.add_argument(
        "--ref", default=None, help="with --examples: measure this ref, not the working tree"
    )
    parser.add_argument(
        "--all", action="store_true", help="with --examples: every README example, not the five"
    )
    parser.add_argument("--long", action="store_true", help="with --all: also the long ones")
    parser.add_argument(
        "--work",
        action="store_true",
        help="with --examples: also each command's computation alone (warm numba cache, empty "
        "gamelab cache)",
    )
    parser.add_argument(
        "--only", default="", help="with --examples: comma-separated words an example must hold"
    )
    parser.add_argument(
        "--skip", default="", help="with --examples: comma-separated words an example must not hold"
    )
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="COMMAND",
        help="with --examples: also this command line (gamelab's arguments; repeatable)",
    )
    args = parser.parse_args()
    if args.examples:
        found = readme_examples((REPO / "README.md").read_text(encoding="utf-8"))
        chosen = [
            argv
            for argv, long in found
            if (args.all and (args.long or not long))
            or (not args.all and " ".join(argv).startswith(FIRST_QUESTIONS))
        ]
        words = [w for w in args.only.split(",") if w]
        chosen = [a for a in chosen if not words or any(w in " ".join(a) for w in words)]
        skip = [w for w in args.skip.split(",") if w]
        chosen = [a for a in chosen if not any(w in " ".join(a) for w in skip)]
        chosen += [shlex.split(line) for line in args.also]
        if args.baseline == "none":
            one_tree(args.ref, chosen, args.work)
            return
        examples(args.baseline, args.ref, chosen, args.work)
        return
    load = os.getloadavg()
    print(
        f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    results = [measure(ref, args.skip_report, args.serve_limit) for ref in args.refs]
    goals = {
        "install_s": "(git clone + venv + pip install)",
        "install_cpu_s": "",
        "report_quick_s": "install + this <= 60 s",
        "report_quick_cpu_s": "",
        "report_first_section_s": "",
        "clone_to_first_section_s": "<= 60 s (first figures)",
        "clone_to_report_s": "<= 60 s",
        "clone_to_report_cpu_s": "",
        "serve_health_cold_s": "<= 3 s",
        "serve_ready_cold_s": "",
        "serve_health_warm_s": "<= 3 s",
        "serve_ready_warm_s": "",
        **{f"serve_{game}_cold_s": "<= 60 s (first exact)" for game in SERVE_PROBES},
        **{f"serve_{game}_warm_s": "" for game in SERVE_PROBES},
        "--help": "<= 0.3 s",
    }
    keys = [k for k in results[0] if k != "ref" and k != "report_code"]
    print(f"{'measure':34s} {'goal':24s} " + " ".join(f"{r['ref']:>26s}" for r in results))
    for key in keys:
        goal = goals.get(key, "<= 1.0 s warm" if key not in goals else "")
        cells = " ".join(f"{_fmt(r.get(key)):>26s}" for r in results)
        print(f"{key:34s} {goal:24s} {cells}")
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
