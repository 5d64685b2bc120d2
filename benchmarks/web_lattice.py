"""Answer times of the lattice folding page's API calls, side by side with the library calls.

    .venv/bin/python benchmarks/web_lattice.py [--repeat 5] [--seed 0] [--cold]

Runs the app in this process (``TestClient``, one solver process, the server's default 2 s
budget) and times every call the page makes, each with fresh arguments so that no answer is a
memo hit of the pool: ``/levels`` and ``/daily`` (a lookup), ``/score`` (after every move: a
partial fold of a pack level, and the finished fold), ``/best`` (a pack level's stored fold),
``/level`` (Make a level: a typed sequence of 4 to 18 residues, the largest allowed) and
``/generate`` (one GA run, 10 to 18 residues). Beside each: the library function the endpoint
calls (:mod:`gamelab.lattice.puzzle`), timed in this process on the same arguments, and the
ratio of the medians (the web layer's cost: HTTP, the solver pool, JSON).

With ``--cold`` the run starts from an empty table cache (a temporary ``GAMELAB_CACHE``): the
first ``/level`` of each length then enumerates every fold of that length and stores it, as on
a fresh install; that first answer is reported on its own line ("first", one sample).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time


def _ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):8.1f} {1000 * max(values):8.1f}"


def _can_touch(seq: str) -> bool:
    """Two H of opposite parity at least 3 apart: some fold makes an HH contact."""
    hs = [i for i, c in enumerate(seq) if c == "H"]
    return any((j - i) % 2 == 1 and j - i >= 3 for i in hs for j in hs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="samples per call and length")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cold", action="store_true", help="start from an empty table cache")
    args = ap.parse_args()
    if args.cold:
        os.environ["GAMELAB_CACHE"] = tempfile.mkdtemp(prefix="gamelab-lattice-bench-")

    import numpy as np
    from fastapi.testclient import TestClient

    from gamelab.lattice import puzzle
    from gamelab.web.app import create_app
    from gamelab.web.common import Settings

    rng = np.random.default_rng(args.seed)
    pack = puzzle.load_pack()
    rows: list[tuple[str, list[float], list[float]]] = []

    def post(client, path: str, body: dict) -> tuple[float, dict]:
        start = time.perf_counter()
        res = client.post(path, json=body)
        took = time.perf_counter() - start
        if res.status_code != 200:
            sys.exit(f"{path} {body}: {res.status_code} {res.text}")
        return took, res.json()

    def timed(fn, *a) -> float:
        start = time.perf_counter()
        fn(*a)
        return time.perf_counter() - start

    with TestClient(create_app(Settings(workers=1, budget=2.0))) as client:
        # cheap calls: lookups and scoring (the library side runs in this process)
        web, lib = [], []
        for _ in range(args.repeat):
            web.append(post(client, "/api/lattice/levels", {})[0])
            lib.append(timed(puzzle.load_pack))
        rows.append(("/levels", web, lib))
        web, lib = [], []
        for k in range(args.repeat):
            date = f"2026-01-{k + 1:02d}"
            web.append(post(client, "/api/lattice/daily", {"date": date})[0])
            lib.append(timed(puzzle.daily_level, date, pack))
        rows.append(("/daily", web, lib))
        web, lib, done_web, done_lib, best_web, best_lib = [], [], [], [], [], []
        for level in pack.levels:
            fold = pack.solutions[level.sequence]
            for cut in range(1, len(fold)):
                body = {"sequence": level.sequence, "moves": fold[:cut]}
                web.append(post(client, "/api/lattice/score", body)[0])
                lib.append(timed(puzzle.score_fold, level.sequence, fold[:cut]))
            body = {"sequence": level.sequence, "moves": fold, "thresholds": level.thresholds}
            done_web.append(post(client, "/api/lattice/score", body)[0])
            done_lib.append(timed(puzzle.score_fold, level.sequence, fold, level.thresholds))
            best_web.append(post(client, "/api/lattice/best", {"sequence": level.sequence})[0])
            best_lib.append(timed(puzzle.best_fold, level.sequence, pack))
        rows += [
            ("/score (a partial fold)", web, lib),
            ("/score (finished)", done_web, done_lib),
            ("/best (pack level)", best_web, best_lib),
        ]
        # Make a level: typed sequences of every allowed length, then generated ones
        lo, hi = puzzle.PLAY_LENGTHS
        for length in range(lo, hi + 1):
            web, lib, seen = [], [], set()
            for k in range(args.repeat + 1):
                while True:  # a new sequence (no memo hit) that makes a puzzle (best > 0)
                    seq = "".join(rng.choice(["H", "P"], size=length))
                    if seq not in seen and _can_touch(seq):
                        seen.add(seq)
                        break
                took, _ = post(client, "/api/lattice/level", {"sequence": seq})
                if k == 0 and args.cold:
                    rows.append((f"/level L={length} first", [took], [took]))
                    puzzle.level_from_sequence(seq)  # this process's first load, not timed
                    continue
                web.append(took)
                lib.append(timed(puzzle.level_from_sequence, seq))
            rows.append((f"/level L={length}", web, lib))
        lo, hi = puzzle.GENERATE_LENGTHS
        for length in range(lo, hi + 1):
            web, lib = [], []
            for _ in range(args.repeat):
                seed = int(rng.integers(2**31))
                web.append(
                    post(client, "/api/lattice/generate", {"length": length, "seed": seed})[0]
                )
                lib.append(timed(puzzle.generate_level, length, seed))
            rows.append((f"/generate L={length}", web, lib))

    print(f"{'call':26s} {'web median':>10s} {'max':>8s}   {'library':>8s} {'max':>8s}  ratio")
    for name, web, lib in rows:
        ratio = statistics.median(web) / max(statistics.median(lib), 1e-9)
        print(f"{name:26s} {_ms(web)} ms {_ms(lib)} ms  {ratio:5.1f}")


if __name__ == "__main__":
    main()
