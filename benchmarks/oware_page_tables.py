"""Which endgame table the Owaré page's engine probes, and what it costs the server's start.

    python benchmarks/oware_page_tables.py [--before SRC] [--depth 10] [--positions 8]

Starts ``gamelab serve`` (two solver processes, as a user runs it) once per setting, side by
side in one run, and measures on each:

* **Owaré warm**: seconds from starting the server until ``/api/health`` no longer lists Owaré
  as warming (every game warms at once, cheapest first, so this is the page's real wait);
* **first hint**: the page's hint (``/api/oware/analyse``, 1 s, the book allowed) on an endgame
  of 22 seeds, asked as soon as Owaré is warm: its wall time and the table its answer names;
* **database used after**: with no verification stamp, seconds until a hint names the endgame
  database's reach (the background check done);
* **answers**: fixed-depth analyses of endgame positions (16-30 seeds, from seeded random
  games) through the page, each compared with ``Engine(tablebase_seeds=reach)`` searched in
  this process, and how many of them the 12-seed table answers differently.

Settings: ``before`` (the source tree given with ``--before``: the page's engine on the
12-seed table, the exact verdicts checking the database in every process), ``no stamp`` (this
tree after the database's verification stamp is removed: the state right after the database
changed) and ``stamped`` (this tree, the stamp written by the run before). The machine's own
endgame database in the gamelab cache is used and never changed (only ``verified.json`` beside
it is removed and written again).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent.parent
SERVE = "import sys; sys.argv[0] = 'gamelab'; from gamelab.entry import main; main()"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _post(base: str, path: str, body: dict) -> tuple[float, dict]:
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"content-type": "application/json"},
    )
    t0 = time.perf_counter()
    while True:  # as the page does: a game still warming (503) is asked again
        try:
            with urllib.request.urlopen(req, timeout=600) as resp:
                doc = json.loads(resp.read())
            return time.perf_counter() - t0, doc
        except urllib.error.HTTPError as err:
            if err.code != 503:
                raise
            time.sleep(0.2)


def _health(base: str) -> dict | None:
    try:
        with urllib.request.urlopen(base + "/api/health", timeout=5) as resp:
            return json.loads(resp.read())
    except OSError:
        return None


def endgame_positions(count: int, seed: int, low: int = 16, high: int = 30) -> list[str]:
    """Text forms of `count` positions with `low`-`high` seeds on the board, each from its own
    seeded random game (a random legal move at every ply)."""
    from gamelab.oware.rules import Position

    rng = np.random.default_rng(seed)
    out: list[str] = []
    while len(out) < count:
        p = Position.initial()
        target = int(rng.integers(low, high + 1))
        while not p.is_over() and p.seeds_on_board() > target:
            p = p.play(int(rng.choice(p.legal_moves())))
        if not p.is_over() and low <= p.seeds_on_board() <= high:
            out.append(p.to_text())
    return out


def measure(
    name: str, src: Path, positions: list[str], hint_position: str, depth: int
) -> dict[str, Any]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(src)}
    t0 = time.monotonic()
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE, "serve", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    seen = False  # the games' warm-up has started (the health lists Owaré as warming)
    try:
        while True:
            doc = _health(base)
            if doc is not None and (doc["ready"] or "Owaré" in doc["warming"]):
                seen = True
            if seen and doc is not None and "Owaré" not in doc["warming"]:
                break
            if server.poll() is not None:
                raise SystemExit(f"{name}: the server stopped")
            time.sleep(0.2)
        warm = time.monotonic() - t0
        hint = {"position": hint_position, "time": 1.0, "book": True}
        first_s, first = _post(base, "/api/oware/analyse", hint)
        first_tb = first["analysis"].get("tablebase_seeds", 12)
        used_after = None
        if first_tb < 24 and name != "before":
            while time.monotonic() - t0 < 300:
                _, doc = _post(base, "/api/oware/analyse", {**hint, "depth": 2})
                if doc["analysis"].get("tablebase_seeds", 12) >= 24:
                    used_after = time.monotonic() - t0
                    break
                time.sleep(0.5)
        answers = []
        for text in positions:
            _, doc = _post(base, "/api/oware/analyse", {"position": text, "depth": depth})
            a = doc["analysis"]
            answers.append((a["best_move"], a["score"], a.get("tablebase_seeds", 12)))
        return {
            "setting": name,
            "owaré warm s": round(warm, 1),
            "first hint s": round(first_s, 2),
            "first hint table": first_tb,
            "scope": first.get("exact_scope"),
            "database used after s": None if used_after is None else round(used_after, 1),
            "answers": answers,
        }
    finally:
        server.terminate()
        server.wait(timeout=60)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, help="a source tree (its src/) of the code before")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()

    from gamelab.oware.rules import Position
    from gamelab.oware.search import Engine
    from gamelab.oware.tablebase import exact_reach
    from gamelab.oware.tablebase_disk import database_dir
    from gamelab.oware.tablebase_stamp import STAMP

    reach = exact_reach()  # verifies (and stamps) the database here if needed
    stamp = database_dir() / STAMP
    positions = endgame_positions(args.positions, args.seed)
    hint_position = endgame_positions(1, args.seed + 1, 22, 22)[0]
    expected, default = [], []
    for text in positions:
        p = Position.from_text(text)
        r = Engine(tablebase_seeds=reach).search(p, depth=args.depth)
        d = Engine(tablebase_seeds=12).search(p, depth=args.depth)
        expected.append((r.best_move, r.score))
        default.append((d.best_move, d.score))
    runs = []
    if args.before is not None:
        runs.append(measure("before", args.before, positions, hint_position, args.depth))
    stamp.unlink(missing_ok=True)
    runs.append(measure("no stamp", HERE / "src", positions, hint_position, args.depth))
    runs.append(measure("stamped", HERE / "src", positions, hint_position, args.depth))
    differ = sum(e != d for e, d in zip(expected, default, strict=True))
    moves = sum(e[0] != d[0] for e, d in zip(expected, default, strict=True))
    print(f"database reach {reach}; {len(positions)} positions of 16-30 seeds at depth "
          f"{args.depth}: the {reach}-seed and 12-seed engines differ on {differ} "
          f"(score or move; the best move on {moves})")  # fmt: skip
    print("| setting | Owaré warm s | first hint s | its table | database used after s | "
          f"answers equal to engine tb={reach} |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for run in runs:
        equal = sum((b, s) == e for (b, s, _), e in zip(run["answers"], expected, strict=True))
        run["equal to database engine"] = equal
        print(f"| {run['setting']} | {run['owaré warm s']} | {run['first hint s']} | "
              f"{run['first hint table']} | {run['database used after s'] or '-'} | "
              f"{equal}/{len(positions)} |")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps({"reach": reach, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
