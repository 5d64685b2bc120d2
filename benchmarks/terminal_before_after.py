"""The terminal programs before and after a refactoring: the same scripted sessions of
``oware play`` and ``yatzy play`` in two source trees, transcript against transcript.

    python benchmarks/terminal_before_after.py --before /path/to/old/src [--after src]
                                               [--only oware,yatzy] [--lines 600]

Each session is a :class:`PlaySession` driven by seeded random typed lines (moves, wrong
moves, typos, blank lines, ``undo``, ``board``, ``help``, ``save``/``load`` of a record, the
coach's ``best`` and ``h``, box names, keeps), then the end of input; Owaré against
deterministic opponents (random, greedy, the blog's search and the engine at fixed depth) on
both sides and from a loaded record, Yatzy on two rule sets, solo and against the bot, and one
game on the coach's choices. Each tree runs in its own process (``PYTHONPATH=<tree>``); the
report gives per session whether the two transcripts are the same and, where not, the first
line that differs. Exit status 1 when any differs.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

SEP = "\n### "


def oware_sessions(lines: int, folder: str) -> list[tuple[str, str]]:
    from gamelab.core.interactive import run_scripted
    from gamelab.oware.match import parse_player
    from gamelab.oware.play import PlaySession

    tokens = list("ABCDEFabcdef123456")
    tokens += ["", "Z", "xyz", "7", "undo", "board", "help", "undo", " c ", "0"]
    out = []
    for opponent in ["random", "greedy", "blog:depth=3", "engine:depth=3,tb=-1"]:
        for side in (0, 1):
            for seed in range(3 if opponent in ("random", "greedy") else 1):
                pick = random.Random(f"{opponent}{side}{seed}")
                script = [pick.choice(tokens) for _ in range(lines)]
                script[10:10] = [f"save {folder}/g{seed}.txt"]
                script[20:20] = [f"load {folder}/g{seed}.txt", "save"]
                script[25:25] = [f"load {folder}/missing.txt"]
                s = PlaySession(parse_player(opponent), side, seed=seed, tablebase_seeds=6)
                out.append((f"oware {opponent} side {side} seed {seed}", run_scripted(s, script)))
    for side in (0, 1):
        s = PlaySession(
            parse_player("random"), side, load=Path(folder, "g0.txt"), seed=5, tablebase_seeds=6
        )
        text = run_scripted(s, ["undo", "undo", "undo", "A", "a", "q"])
        out.append((f"oware loaded record side {side}", text))
    return out


def yatzy_sessions(lines: int) -> list[tuple[str, str]]:
    from gamelab.core.interactive import run_scripted
    from gamelab.yatzy.play import PlaySession
    from gamelab.yatzy.rules import RULES
    from gamelab.yatzy.solver import solve

    tokens = ["", "y", "n", "all", "-", "11", "66", "1114", "best", "best", "best", "card"]
    tokens += ["undo", "zz", "box", "chance", "y", "fours", "sixes", "yatzy", "ones", "3k"]
    tokens += ["fh", "12345", "666", "h", "help", "7", "5555", "c"]
    out = []
    for name in ("yatzy", "yahtzee"):
        values = solve(RULES[name]).E
        for bot in (True, False):
            for seed in range(4):
                pick = random.Random(f"{name}{bot}{seed}")
                script = [pick.choice(tokens) for _ in range(lines)]
                s = PlaySession(RULES[name], seed, bot, E=values)
                out.append((f"yatzy {name} bot {bot} seed {seed}", run_scripted(s, script)))
        s = PlaySession(RULES[name], 11, True, E=values)
        out.append((f"yatzy {name} the coach's game", run_scripted(s, ["best"] * 200)))
    return out


def worker(only: list[str], lines: int) -> None:
    """Print every session's transcript (the records it saves go to a folder of its own, whose
    name is replaced by FOLDER so that two trees' transcripts compare)."""
    folder = tempfile.mkdtemp(prefix="terminal-sessions-")
    sessions = []
    if "oware" in only:
        sessions += oware_sessions(lines, folder)
    if "yatzy" in only:
        sessions += yatzy_sessions(lines)
    for name, text in sessions:
        sys.stdout.write(SEP + name + "\n" + text.replace(folder, "FOLDER") + "\n")


def transcripts(tree: str, only: list[str], lines: int) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve())}
    cmd = [sys.executable, __file__, "--worker", "--only", ",".join(only), "--lines", str(lines)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    parts = done.stdout.split(SEP)[1:]
    return dict(part.split("\n", 1) for part in parts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", help="the old tree's src folder")
    ap.add_argument("--after", default="src", help="the new tree's src folder (default: src)")
    ap.add_argument("--only", default="oware,yatzy", help="oware, yatzy or both")
    ap.add_argument("--lines", type=int, default=600, help="typed lines per session")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    only = [g.strip() for g in args.only.split(",") if g.strip()]
    if not set(only) <= {"oware", "yatzy"} or not only:
        ap.error(f"--only takes oware, yatzy or both, got {args.only!r}")
    if args.worker:
        worker(only, args.lines)
        return 0
    if not args.before:
        ap.error("--before is required: the old tree's src folder")
    old = transcripts(args.before, only, args.lines)
    new = transcripts(args.after, only, args.lines)
    differ = 0
    for name in sorted(old.keys() | new.keys()):
        a, b = old.get(name, "").splitlines(), new.get(name, "").splitlines()
        if a == b:
            print(f"same       {name} ({len(a)} lines)")
            continue
        differ += 1
        at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
        print(f"DIFFERENT  {name}: line {at + 1}")
        print(f"  before: {a[at] if at < len(a) else '(end)'}")
        print(f"  after:  {b[at] if at < len(b) else '(end)'}")
    print(f"{len(old.keys() | new.keys()) - differ} sessions the same, {differ} different")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
