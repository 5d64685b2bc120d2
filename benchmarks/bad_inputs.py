"""Bad input to every command, generated from the command tree, and how each outcome looks.

Issue 29 counted 332 kinds of malformed input. This script regenerates such a set from the
command tree itself (so a new command or option is covered the day it is added) and classifies
every outcome:

* **clean**: exit code 2, exactly one ``error: …`` line on stderr (under 600 characters, no
  Python wording such as ``Traceback``, ``Errno``, ``codec can't``), nothing on stdout, nothing
  written in the working folder or the results store, within the time limit;
* **unclean**: anything else (a traceback, exit 0 or 1, a hang, output on stdout, a file
  written), listed with what happened.

A *kind* of bad input is (command, parameter, class of value). The value classes are those of
``tests/core/test_cli_battery.py`` for numbers and text (empty, negative, huge, not a number,
``nan``/``inf``, unicode, 100 KB) and, for every parameter that names a file to read, files
that are not what was asked for: ``/dev/zero``, a FIFO, a folder, a missing file, a binary
file, ``/etc/passwd``-like text and 100,000 nested ``[``. ``gamelab serve`` is left out (a
value it accepted would start a server), as in the battery.

Every case runs in this process with `gamelab.cli.run_in_process` (a subprocess each would
cost seconds of imports). Run::

    nice -n 10 .venv/bin/python benchmarks/bad_inputs.py            # a table, unclean cases listed
    nice -n 10 .venv/bin/python benchmarks/bad_inputs.py --json     # the counts as JSON
    nice -n 19 .venv/bin/python benchmarks/bad_inputs.py --resume stores/bad-inputs/outcomes.jsonl

``--resume FILE`` appends each outcome to FILE as it is known (one JSON line) and skips the
cases FILE already holds, so a run stopped at any point continues where it was; the counts
cover every case in FILE that the command tree still generates.

A few minutes on 2 cores once the kernels are compiled.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import signal
import sqlite3
import sys
import tempfile
import time
import types
import typing
from dataclasses import asdict, dataclass
from pathlib import Path

HUGE_INT = "9" * 30
BIG_STRING = "x" * 100_000
NUMBER_VALUES = {
    int: {
        "empty": "",
        "negative": "-7",
        "huge": HUGE_INT,
        "not a number": "abc",
        "fraction": "1.5",
        "unicode": "ﾃｽﾄ",
        "100 KB": BIG_STRING,
    },
    float: {
        "empty": "",
        "negative": "-7",
        "huge": "1e300",
        "overflow": "1e999",
        "nan": "nan",
        "inf": "inf",
        "not a number": "abc",
        "unicode": "ﾃｽﾄ",
        "100 KB": BIG_STRING,
    },
}
TEXT_VALUES = {
    "punctuation": "¿?",
    "unicode": "ﾃｽﾄ\u3000!",
    "bidi control": "\u202e",
    "100 KB": BIG_STRING,
}
#: Valid values for required parameters, so only the value under test is bad (as the battery).
REQUIRED = {
    "rows": "4,2 8,0 4,2 4,2 5,1",
    "cols": "6,1 5,0 5,2 4,3 5,1",
    "sequence": "HPHHHHHHPHHPHHPH",
    "conformation": "RRUL",
    "dice": "11114",
    "a": "random",
    "b": "random",
    "history": "レントラー:00000",
}
#: Options that name a file the command reads (the rest of the Path options are outputs).
READ_FILES = {"load", "guesses", "answers", "tree", "pack"}
#: ... except where the same name is an output (`wordle solve-optimal --tree` writes the tree)
WRITTEN_HERE = {(("wordle", "solve-optimal"), "tree")}
NOT_HERE = {("serve",)}
PYTHON_WORDING = re.compile(
    r"Traceback|Errno|codec can't|list indices|object has no attribute|unexpected keyword|"
    r"NoneType|KeyError|TypeError|RecursionError|MemoryError|<class "
)
TIME_LIMIT = 60


class Hang(BaseException):
    """Raised by the alarm: the case ran past TIME_LIMIT."""


@dataclass
class Outcome:
    command: str
    parameter: str
    kind: str
    clean: bool
    why: str
    seconds: float


def _kind(annotation: object) -> type:
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    return annotation if annotation in (int, float, Path) else str  # type: ignore[return-value]


def _commands():
    from gamelab.cli import root_command

    root = root_command(load_games=True)  # the games' real groups, not their lazy stand-ins
    stack = [((), root)]
    while stack:
        path, command = stack.pop()
        if hasattr(command, "commands"):
            stack.extend((path + (name,), sub) for name, sub in command.commands.items())
        elif path not in NOT_HERE:
            yield path, command


def _file_values(folder: Path) -> dict[str, str]:
    fifo = folder / "fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    (folder / "a-folder").mkdir(exist_ok=True)
    binary = folder / "binary.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    passwd = folder / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/bin/false\n")
    deep = folder / "deep.json"
    deep.write_text("[" * 100_000)
    return {
        "/dev/zero": "/dev/zero",
        "FIFO": str(fifo),
        "folder": str(folder / "a-folder"),
        "missing file": str(folder / "missing.txt"),
        "binary file": str(binary),
        "passwd-like text": str(passwd),
        "100,000 nested [": str(deep),
    }


def cases(folder: Path):
    """(command path, argv, parameter, kind) for every kind of bad input."""
    files = _file_values(folder)
    for path, command in sorted(_commands(), key=lambda pc: pc[0]):
        for param in command.params:
            if getattr(param, "is_flag", False) or param.name == "help":
                continue
            kind = _kind(param.type_descriptor.annotation)
            if kind in NUMBER_VALUES:
                values = NUMBER_VALUES[kind]
            elif (
                kind is Path and param.name in READ_FILES and (path, param.name) not in WRITTEN_HERE
            ):
                values = {**TEXT_VALUES, **files}
            elif kind is Path:  # an output: "¿?" or "ﾃｽﾄ" are fine names for it, 100 KB is not
                values = {"100 KB": BIG_STRING}
            else:
                values = TEXT_VALUES
            for label, value in values.items():
                args = list(path)
                for other in command.params:
                    is_target = other is param
                    if not (is_target or other.required):
                        continue
                    v = value if is_target else REQUIRED.get(other.name, "x")
                    args += [v] if other.param_type_name == "argument" else [other.opts[0], v]
                if param.name == "answers" and "--guesses" not in args:
                    args += ["--guesses", files["passwd-like text"]]
                yield path, args, param.name, label


def _untouched(work: Path, store: Path) -> bool:
    if any(work.iterdir()):
        return False
    if store.exists():
        with sqlite3.connect(store) as db:
            if db.execute("SELECT name FROM sqlite_master WHERE name='results'").fetchone():
                return not db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    return True


def run_case(args: list[str], work: Path, store: Path) -> tuple[bool, str]:
    from gamelab.cli import run_in_process

    out, err = io.StringIO(), io.StringIO()

    def alarm(signum, frame):
        raise Hang

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(TIME_LIMIT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run_in_process(args)
    except Hang:
        return False, f"still running after {TIME_LIMIT} s"
    except BaseException as exc:  # noqa: BLE001 - anything escaping is unclean
        return False, f"escaped: {type(exc).__name__}: {str(exc)[:120]}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    lines = err.getvalue().strip().splitlines()
    if code != 2:
        return False, f"exit {code}: {(lines or [''])[-1][:160]}"
    if out.getvalue():
        return False, f"stdout: {out.getvalue()[:120]!r}"
    if len(lines) != 1 or not lines[0].startswith("error: "):
        return False, f"{len(lines)} stderr lines: {err.getvalue()[-200:]!r}"
    if len(lines[0]) >= 600:
        return False, f"an error line of {len(lines[0])} characters"
    if PYTHON_WORDING.search(lines[0]):
        return False, f"Python wording: {lines[0][:200]}"
    if not _untouched(work, store):
        return False, "something was written"
    return True, lines[0][:200]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--verbose", action="store_true", help="one line per case on stderr")
    parser.add_argument("--only", help="commands starting with this (e.g. 'wordle chart')")
    parser.add_argument("--resume", type=Path, help="a JSON-lines file of outcomes to extend")
    ns = parser.parse_args()
    started = time.monotonic()
    known: dict[tuple[str, str, str], Outcome] = {}
    if ns.resume is not None:
        ns.resume = ns.resume.resolve()
        ns.resume.parent.mkdir(parents=True, exist_ok=True)
        if ns.resume.exists():
            for line in ns.resume.read_text(encoding="utf-8").splitlines():
                try:
                    o = Outcome(**json.loads(line))
                except (ValueError, TypeError):
                    continue  # a line cut short by a stop: that case runs again
                known[(o.command, o.parameter, o.kind)] = o
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        inputs, work, store = root / "inputs", root / "work", root / "results.sqlite"
        inputs.mkdir()
        work.mkdir()
        os.environ["GAMELAB_RESULTS"] = str(store)
        os.chdir(work)
        sys.stdin = open(os.devnull)  # an interactive program reached by mistake ends at once
        outcomes = []
        for path, args, name, label in cases(inputs):
            if ns.only and not " ".join(path).startswith(ns.only):
                continue
            if (" ".join(path), name, label) in known:
                outcomes.append(known[(" ".join(path), name, label)])
                continue
            t0 = time.monotonic()
            clean, why = run_case(args, work, store)
            outcomes.append(
                Outcome(" ".join(path), name, label, clean, why, round(time.monotonic() - t0, 2))
            )
            if ns.resume is not None:
                with ns.resume.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(asdict(outcomes[-1]), ensure_ascii=False) + "\n")
            if ns.verbose:
                shown = "clean" if clean else "UNCLEAN"
                print(
                    f"{shown} {outcomes[-1].seconds:6.1f} s  {' '.join(path)} --{name} <{label}>",
                    file=sys.__stderr__,
                    flush=True,
                )
            for leftover in work.iterdir():  # the next case starts from an empty folder again
                if leftover.is_dir():
                    import shutil

                    shutil.rmtree(leftover)
                else:
                    leftover.unlink()
            store.unlink(missing_ok=True)
    clean = sum(o.clean for o in outcomes)
    summary = {
        "kinds": len(outcomes),
        "clean": clean,
        "unclean": len(outcomes) - clean,
        "seconds": round(time.monotonic() - started, 1),
        "unclean_cases": [asdict(o) for o in outcomes if not o.clean],
    }
    if ns.json:
        print(json.dumps(summary, ensure_ascii=False, indent=1))
        return
    for o in outcomes:
        if not o.clean:
            print(f"UNCLEAN  gamelab {o.command} --{o.parameter} <{o.kind}>: {o.why}")
    print(
        f"{summary['kinds']} kinds of bad input: {clean} clean, {summary['unclean']} unclean "
        f"({summary['seconds']} s)"
    )


if __name__ == "__main__":
    main()
