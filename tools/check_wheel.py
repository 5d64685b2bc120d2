"""The wheel and the sdist stand alone: build them, check them, install the wheel and use it.

CI runs this after the test suite (``.ci/run``); run it by hand the same way:

    .venv/bin/python tools/check_wheel.py            # build, check, install, run (a few minutes)
    .venv/bin/python tools/check_wheel.py --keep DIR # keep the built files and the venv in DIR

Steps, each printed as it starts; the first that fails ends the run with exit 1:

1. ``python -m build`` makes the sdist, then the wheel from the sdist; ``twine check`` passes;
2. the wheel holds every file of ``src/gamelab`` that git tracks (tables, templates, static
   assets, the py.typed marker...), and its version is the one in pyproject.toml;
3. a new venv outside the checkout installs the wheel, its dependencies at the versions of
   ``requirements-ci.txt`` (pip's cache serves them), and from a folder outside the checkout
   runs ``gamelab --version``, ``gamelab report --quick``, ``gamelab serve`` (started, asked
   for ``/api/health``, a page and a static file, stopped with Ctrl-C) and one command of each
   game (:data:`GAME_COMMANDS`), each with its expected output.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: One cheap command per game (argv after ``gamelab``) and a text its output must contain.
GAME_COMMANDS: list[tuple[list[str], str]] = [
    (["voltorb", "campaign", "--strategy", "greedy-coins", "--rounds", "1", "--campaigns", "2",
      "--seed", "1", "--json"], '"campaigns": 2'),
    (["wordle", "rank", "--names", "gen1-4", "--rule", "blog", "--top", "3"], "4.15443"),
    (["lattice", "score", "HPPHHP", "RDLDR"], "1 HH contact"),
    (["oware", "perft", "--depth", "3"], "190"),
    (["yatzy", "simulate", "--rules", "yatzy", "--strategy", "greedy", "--games", "20",
      "--seed", "1", "--json"], '"games": 20'),
]  # fmt: skip


class CheckFailed(Exception):
    """One step of the check failed; the message says which and why."""


def step(text: str) -> None:
    print(f"+ {text}", flush=True)


def run(argv: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: float = 900,
        stdin: str | None = None) -> str:  # fmt: skip
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, input=stdin
    )
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise CheckFailed(f"{' '.join(argv)} exited {done.returncode}:\n{tail}")
    return done.stdout


def build(out: Path) -> tuple[Path, Path]:
    step("python -m build (sdist, then the wheel from it)")
    run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)], cwd=REPO)
    wheels, sdists = sorted(out.glob("*.whl")), sorted(out.glob("*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        raise CheckFailed(f"expected one wheel and one sdist in {out}, found {wheels + sdists}")
    step("twine check")
    run([sys.executable, "-m", "twine", "check", "--strict", str(wheels[0]), str(sdists[0])],
        cwd=REPO)  # fmt: skip
    return wheels[0], sdists[0]


def check_contents(wheel: Path) -> str:
    """The version in the wheel's name; raises when a tracked runtime file is missing."""
    version = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    expected = version.get("version") or _version_attr()
    name_version = wheel.name.split("-")[1]
    if name_version != expected:
        raise CheckFailed(f"the wheel is version {name_version}, pyproject.toml says {expected}")
    step(f"the wheel holds every tracked file of src/gamelab ({wheel.name})")
    tracked = subprocess.run(
        ["git", "ls-files", "src/gamelab"], cwd=REPO, capture_output=True, text=True
    )
    if tracked.returncode != 0:
        print("  (not a git checkout: contents not compared)")
        return expected
    held = set(zipfile.ZipFile(wheel).namelist())
    if not any(path.endswith(".dist-info/licenses/LICENSE") for path in held):
        raise CheckFailed("the wheel lacks the LICENSE file")
    missing = [path for path in tracked.stdout.split() if path.removeprefix("src/") not in held]
    if missing:
        raise CheckFailed(f"the wheel lacks {len(missing)} tracked files: {missing[:10]}")
    return expected


def _version_attr() -> str:
    namespace: dict[str, str] = {}
    text = (REPO / "src" / "gamelab" / "__init__.py").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("__version__"):
            exec(line, namespace)
    return namespace["__version__"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def check_serve(gamelab: Path, cwd: Path, env: dict[str, str]) -> None:
    port = free_port()
    step(f"gamelab serve --port {port}: /api/health, a page, a static file, then Ctrl-C")
    log = (cwd / "serve.log").open("w")
    proc = subprocess.Popen(
        [str(gamelab), "serve", "--port", str(port), "--workers", "1"],
        cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 600
        health: dict = {}
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise CheckFailed(f"gamelab serve exited {proc.returncode}: see {log.name}")
            try:
                status, body = fetch(base + "/api/health")
            except OSError:
                status, body = 0, b""
            if status == 200:
                health = json.loads(body)
                if "warming_now" in health:  # the real app (not the stand-in while it loads)
                    break
            time.sleep(0.5)
        else:
            raise CheckFailed("gamelab serve did not answer /api/health within 600 s")
        for path in ("/", "/oware", "/static/style.css"):
            status, body = fetch(base + path)
            if status != 200 or not body:
                raise CheckFailed(f"GET {path} answered {status}")
        print(f"  health: {json.dumps(health)[:200]}")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise CheckFailed("gamelab serve did not stop within 60 s of Ctrl-C") from None
        log.close()
    if code not in (0, 130):
        raise CheckFailed(f"gamelab serve ended with exit {code} after Ctrl-C")


#: What an analyst must not meet in the report: a machine's absolute path, Python's None or a
#: float's nan (a cell without a value shows a dash and a note says why).
REPORT_LEAKS = {
    "an absolute path": re.compile(r"(?<![\w.:/])/(?:home|root|tmp|work|usr|opt|var|srv)/"),
    "None": re.compile(r"\bNone\b"),
    "nan": re.compile(r"\bnan\b", re.IGNORECASE),
}


def check_report_text(page: str) -> None:
    visible = html.unescape(re.sub(r"<[^>]+>", " ", page))
    for what, pattern in REPORT_LEAKS.items():
        found = pattern.search(visible)
        if found:
            around = visible[max(found.start() - 60, 0) : found.end() + 60]
            raise CheckFailed(f"the quick report shows {what}: ...{' '.join(around.split())}...")


def check_installed(wheel: Path, version: str, work: Path) -> None:
    venv = work / "venv"
    step(f"a new venv outside the checkout installs {wheel.name}")
    if venv.exists():
        shutil.rmtree(venv)
    run([sys.executable, "-m", "venv", str(venv)], cwd=work)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    run([*pip, "-c", str(REPO / "requirements-ci.txt"), str(wheel)], cwd=work)
    gamelab = venv / "bin" / "gamelab"
    home = work / "home"
    home.mkdir(exist_ok=True)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GAMELAB_", "NUMBA_CACHE")) and key not in ("PYTHONPATH",)
    }
    env.update(
        GAMELAB_CACHE=str(home / "cache"),
        GAMELAB_RESULTS=str(home / "results.sqlite"),
        COLUMNS="100",
    )
    step("gamelab --version")
    shown = run([str(gamelab), "--version"], cwd=home, env=env).strip()
    if shown != f"gamelab {version}":
        raise CheckFailed(f"gamelab --version printed {shown!r}, expected 'gamelab {version}'")
    where = run(
        [str(venv / "bin" / "python"), "-c", "import gamelab; print(gamelab.__file__)"],
        cwd=home, env=env,
    ).strip()  # fmt: skip
    if not where.startswith(str(venv)):
        raise CheckFailed(f"gamelab was imported from {where}, not from the new venv")
    step("gamelab report --quick")
    run([str(gamelab), "report", "--quick", "--quiet", "--out", "report"], cwd=home, env=env)
    for name in ("index.html", "results.json"):
        if not (home / "report" / name).is_file():
            raise CheckFailed(f"gamelab report --quick wrote no report/{name}")
    check_report_text((home / "report" / "index.html").read_text(encoding="utf-8"))
    check_serve(gamelab, home, env)
    for argv, expected in GAME_COMMANDS:
        step("gamelab " + " ".join(argv))
        out = run([str(gamelab), *argv], cwd=home, env=env)
        if expected not in out:
            raise CheckFailed(f"gamelab {' '.join(argv)} printed no {expected!r}:\n{out[-800:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="build and install in this folder, and keep it")
    args = parser.parse_args(argv)
    work = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="gamelab-wheel-"))
    work.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    try:
        dist = work / "dist"
        if dist.exists():
            shutil.rmtree(dist)
        wheel, _ = build(dist)
        version = check_contents(wheel)
        check_installed(wheel, version, work)
    except (CheckFailed, subprocess.TimeoutExpired) as exc:
        print(f"error: wheel check failed: {exc}", file=sys.stderr)
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"wheel check: passed in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
