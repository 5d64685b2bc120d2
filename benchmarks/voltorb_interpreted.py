"""Voltorb's win search interpreted against its kernels, on random positions (issue 50 item 6).

For each of `--positions` random deals (levels 1-8, up to three tiles revealed) whose position
has at most 512 boards (the searches that may run interpreted, see
``gamelab.voltorb.expectimax``), the exact search runs once in the compiled kernels and once
interpreted (the kernels' own source in Python), each with a new solver; prints whether the
tile, value, states searched and memo are identical, the states each search needed and the
interpreted CPU seconds per state, which set ``INTERPRETED_SEARCH_STATES`` and
``INTERPRETED_STATES``. The kernels compile first if numba's cache lacks them.

``--enumeration N``: the posterior's board enumeration of N random openings (levels 1-8),
interpreted (its kernel's source in Python) and compiled: the CPU seconds interpreted, the
boards, and the product of the first four rows' candidate counts (the enumeration is not
interpreted: its cost cannot be told beforehand).

``--assistant``: on empty numba and gamelab caches (a temporary folder), the assistant's
warm-up (``gamelab.voltorb.warmup:warm_assistant``, what ``voltorb assist`` runs in the
background while the clues are typed), then the first analysis of a level-8 board of more than
512 boards: the CPU seconds of each and the kernels each compiled (numba's compile events).

    python benchmarks/voltorb_interpreted.py --positions 300 --seed 2
    python benchmarks/voltorb_interpreted.py --enumeration 150 --seed 5
    python benchmarks/voltorb_interpreted.py --assistant
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--enumeration", type=int, default=0)
    parser.add_argument("--assistant", action="store_true")
    args = parser.parse_args()
    if args.assistant:
        assistant()
        return
    if args.enumeration:
        enumeration(args.enumeration, args.seed)
        return

    import gamelab.voltorb.expectimax as expectimax
    from gamelab.core.tiers import compiled_kernels
    from gamelab.voltorb.posterior import playing_posterior
    from gamelab.voltorb.rules import Clues, VoltorbSetting, generate_board

    expectimax.has_machine_code = lambda kernel, args: False  # interpret whatever the cache
    rng = np.random.default_rng(args.seed)
    same, states, seconds = 0, [], []
    done = 0
    while done < args.positions:
        setting = VoltorbSetting(int(rng.integers(1, 9)))
        board, _ = generate_board(setting, rng)
        board = board.reshape(-1)
        revealed = {
            int(t): int(board[t]) for t in rng.permutation(25)[: rng.integers(0, 4)] if board[t]
        }
        post = playing_posterior(Clues.from_board(board), revealed, setting)
        if post.count > 512:
            continue
        done += 1
        with compiled_kernels():
            kernel = expectimax.OptimalSolver(post)
            kernel_answer = kernel.decide(revealed)
        expectimax._interpreted[0] = 0
        expectimax._compiled[0] = False
        python = expectimax.OptimalSolver(post)
        cpu = time.process_time()
        python_answer = python.decide(revealed)
        seconds.append(time.process_time() - cpu)
        states.append(python.nodes)
        same += (
            python_answer == kernel_answer
            and python.nodes == kernel.nodes
            and np.array_equal(python._table, kernel._table)
        )
    s, t = np.array(states), np.array(seconds)
    print(f"{done} positions of at most 512 boards (seed {args.seed}): {same} identical")
    print(
        f"states per search: median {np.median(s):.0f}, 90th percentile "
        f"{np.percentile(s, 90):.0f}, max {s.max()}; interpreted CPU: median {np.median(t):.3f} s, "
        f"max {t.max():.2f} s, {1000 * t.sum() / s.sum():.2f} ms a state"
    )


def enumeration(n: int, seed: int) -> None:
    from gamelab.core.tiers import python_modules
    from gamelab.voltorb._posterior_kernels import ROW_PATTERNS, enumerate_boards
    from gamelab.voltorb.rules import TILES, Clues, VoltorbSetting, generate_board

    name = "gamelab.voltorb._posterior_kernels"
    python = python_modules((name,))[name].enumerate_boards
    patterns = ROW_PATTERNS.astype(np.int64)
    sums, volts = patterns.sum(axis=1), (patterns == 0).sum(axis=1)
    rng = np.random.default_rng(seed)
    known = np.full(TILES, -1, dtype=np.int64)
    rows = []
    for _ in range(n):
        board, _ = generate_board(VoltorbSetting(int(rng.integers(1, 9))), rng)
        c = Clues.from_board(board.reshape(-1))
        candidates = [
            int(((sums == c.row_sums[r]) & (volts == c.row_voltorbs[r])).sum()) for r in range(4)
        ]
        call = (ROW_PATTERNS, c.row_sums, c.row_voltorbs, c.col_sums, c.col_voltorbs, known)
        cpu = time.process_time()
        boards, _ = python(*call)
        seconds = time.process_time() - cpu
        assert np.array_equal(boards, enumerate_boards(*call)[0])
        rows.append((seconds, int(np.prod(candidates)), len(boards)))
    t = np.array([r[0] for r in rows])
    per = np.array([r[0] / r[1] for r in rows])
    print(f"{n} openings (seed {seed}), interpreted = compiled everywhere")
    print(
        f"interpreted CPU: median {np.median(t):.3f} s, 90th percentile "
        f"{np.percentile(t, 90):.2f} s, max {t.max():.2f} s; per candidate product "
        f"{per.min():.1e} to {per.max():.1e} s; boards up to {max(r[2] for r in rows)}"
    )


def assistant() -> None:
    scratch = tempfile.mkdtemp(prefix="gamelab-assistant-")
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(scratch, "numba")
    os.environ["GAMELAB_CACHE"] = os.path.join(scratch, "cache")
    if "numba" in sys.modules:
        raise SystemExit("numba was imported before its cache folder was set")
    from numba.core import event

    compiled = []

    class Count(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            compiled.append(ev.data["dispatcher"].py_func.__name__)

        def on_end(self, ev: event.Event) -> None:
            pass

    event.register("numba:compile", Count())
    from gamelab.core.interactive import run_scripted
    from gamelab.voltorb.assistant import AssistSession
    from gamelab.voltorb.posterior import playing_posterior
    from gamelab.voltorb.rules import Clues, VoltorbSetting, generate_board
    from gamelab.voltorb.warmup import warm_assistant

    cpu = time.process_time()
    warm_assistant()
    print(f"warm-up: {time.process_time() - cpu:.1f} CPU-s, {len(compiled)} compilations")
    rng, level_8 = np.random.default_rng(3), VoltorbSetting(8)
    while True:
        board, _ = generate_board(level_8, rng)
        clues = Clues.from_board(board.reshape(-1))
        count = playing_posterior(clues, {}, level_8).count
        if count > 512:
            break
    rows = " ".join(f"{s},{v}" for s, v in zip(clues.row_sums, clues.row_voltorbs, strict=True))
    cols = " ".join(f"{s},{v}" for s, v in zip(clues.col_sums, clues.col_voltorbs, strict=True))
    compiled.clear()
    cpu = time.process_time()
    shown = run_scripted(AssistSession(level_8), [rows, cols])
    spent = time.process_time() - cpu
    assert "P(win) with optimal play" in shown
    print(
        f"first analysis of a level-8 board of {count} boards: {spent:.2f} CPU-s, "
        f"{len(compiled)} compilations {sorted(set(compiled))}"
    )


if __name__ == "__main__":
    main()
