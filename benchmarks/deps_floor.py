"""The floor check: gamelab at the oldest versions of its dependencies that pyproject.toml allows.

``pyproject.toml`` states ranges (``numpy>=2.0``, ...). This script reads every lower bound of
``[project].dependencies`` (and of the extras named with ``--extras``), makes a scratch venv,
installs gamelab from this checkout with each of those dependencies pinned to exactly its lower
bound (a pip constraints file; what they need in turn is the newest release that fits), and runs a
smoke subset of the test suite against that install (every README example of the five games, the
core value types, the rules of each game). It prints the versions installed and the pytest
summary, and exits with pytest's code. The result is recorded in docs/install.md.

A bound that fails here is raised in pyproject.toml (and the docs say why); the lock file
(``requirements-ci.txt``) is untouched. The run compiles every kernel from scratch with the old
numba (its numba cache is the scratch venv's own): about ten minutes on 2 cores, so run it niced:

    nice -n 10 python benchmarks/deps_floor.py                 # runtime dependencies
    nice -n 10 python benchmarks/deps_floor.py --extras envs   # and the envs extra's floors
    python benchmarks/deps_floor.py --print                    # only list the floors
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: The smoke subset: every README example (all five games through the CLI), the shared value
#: types, and each game's rules.
SMOKE_TESTS = [
    "tests/core/test_readme_smoke.py",
    "tests/core/test_stats.py",
    "tests/core/test_serialise.py",
    "tests/voltorb/test_voltorb_rules.py",
    "tests/wordle/test_wordle_rules.py",
    "tests/lattice/test_lattice_rules.py",
    "tests/oware/test_oware_rules.py",
    "tests/yatzy/test_yatzy_rules.py",
]

#: What the smoke tests themselves need (any version: they are not gamelab's dependencies).
TEST_TOOLS = ["pytest", "pytest-timeout", "hypothesis", "pexpect"]

_FLOOR = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*>=\s*([^,;\s]+)")


def floors(extras: list[str]) -> dict[str, str]:
    """{distribution: lowest allowed version} for the runtime dependencies and ``extras``."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    optional = project.get("optional-dependencies", {})
    unknown = [name for name in extras if name not in optional]
    if unknown:
        raise ValueError(
            f"no extra named {', '.join(unknown)} in pyproject.toml "
            f"(there are: {', '.join(sorted(optional))})"
        )
    requirements = list(project["dependencies"])
    for name in extras:
        requirements += optional[name]
    found: dict[str, str] = {}
    for requirement in requirements:
        match = _FLOOR.match(requirement)
        if match is None:
            raise ValueError(f"{requirement!r} in pyproject.toml has no lower bound (>=)")
        found[match.group(1).lower()] = match.group(2)
    return found


def run(extras: list[str], keep: Path | None) -> int:
    pins = floors(extras)
    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="gamelab-floor-"))
    work.mkdir(parents=True, exist_ok=True)
    venv = work / "venv"
    python = venv / "bin" / "python"
    constraints = work / "floors.txt"
    constraints.write_text("".join(f"{name}=={version}\n" for name, version in pins.items()))
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.pop("NUMBA_CACHE_DIR", None)  # kernels cache inside the scratch venv's own copy
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    target = f"{REPO}[{','.join(extras)}]" if extras else str(REPO)
    print(f"+ pip install -c {constraints.name} {target} + {' '.join(TEST_TOOLS)}", flush=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "-c", str(constraints), target, *TEST_TOOLS],
        check=True,
        env=env,
    )
    installed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=freeze"],
        check=True,
        env=env,
        capture_output=True,
        text=True,
    ).stdout.lower()
    versions = dict(line.split("==", 1) for line in installed.splitlines() if "==" in line)
    print("floors installed:")
    for name, version in pins.items():
        got = versions.get(name, versions.get(name.replace("-", "_"), "missing"))
        print(f"  {name:24} {version:12} installed {got}")
    # Run from a folder outside the checkout so the installed wheel, not src/, is imported;
    # the tests' conftest keeps caches in the checkout's .test-cache as usual.
    command = [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command += ["--rootdir", str(REPO), "-c", str(REPO / "pyproject.toml")]
    command += [str(REPO / test) for test in SMOKE_TESTS]
    print("+ pytest (smoke subset) " + " ".join(SMOKE_TESTS), flush=True)
    done = subprocess.run(command, cwd=work, env=env)
    print(f"scratch venv: {venv}" if keep else "", end="\n" if keep else "")
    return done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extras", default="", help="comma-separated extras whose floors to add")
    parser.add_argument("--keep", type=Path, help="make (or reuse) the scratch venv in this folder")
    parser.add_argument("--print", action="store_true", help="only list the floors")
    args = parser.parse_args(argv)
    extras = [name for name in args.extras.split(",") if name]
    try:
        if args.print:
            for name, version in floors(extras).items():
                print(f"{name}>={version}")
            return 0
        return run(extras, args.keep)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
