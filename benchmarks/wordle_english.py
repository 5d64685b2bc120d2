"""English Wordle: SALET evaluated exactly in three modes, against the published figures and
the CPU goals of issue 18, with the session-1 search (the plain-Python twin) side by side.

    python benchmarks/wordle_english.py [--data DIR] [--first salet] [--no-baseline]

Word lists: Alex Selby's copies of the original lists (2,315 answers, 12,972 guesses), in
``/work/shared/data/wordle-english`` (benchmark data only; not shipped). Each answer must be
found within 6 guesses. Published (Selby, "The best strategies for Wordle", 2022, and his
solver's ``-U -w salet``): normal 7,920; the game's hard mode 8,122; strict ("ultrahard") 8,125.

For each mode: the exact total, the CPU seconds of the search alone and of the whole solve
(word lists, the feedback table from the gamelab cache, search and tree; the same work as
``gamelab wordle solve-optimal --first salet``, without interpreter start-up), the goal (normal
1 s, hard 2 s; Selby's solver takes 0.74 s and 0.12 s on this machine class, issue 18), and the
ratio to the twin. The kernels are loaded first (warm numba cache), so no compilation is timed.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from gamelab.wordle.optimal import INF, OptimalSolver
from gamelab.wordle.optimal_summary import solve_summary
from gamelab.wordle.rules import load_word_list
from gamelab.wordle.table import Game

PUBLISHED = {None: 7920, "game": 8122, "strict": 8125}
GOAL_CPU = {None: 1.0, "game": 2.0, "strict": 2.0}
SELBY_CPU = {None: 0.74, "game": 0.12}  # issue 18, measured on this machine class
LABEL = {None: "normal", "game": "hard (game's rule)", "strict": "hard (strict)"}


def warm_up() -> None:
    """Load every kernel specialisation the timed runs use (uint8 table, all modes)."""
    game = Game(load_word_list("gen1-4"), "standard")
    for hard in (None, "game", "strict"):
        solve_summary(game, hard=hard, first="ジーランス")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/wordle-english"))
    parser.add_argument("--first", default="salet")
    parser.add_argument("--no-baseline", action="store_true", help="Skip the Python twin.")
    args = parser.parse_args()
    warm_up()
    rows = []
    for hard in (None, "game", "strict"):
        cpu = time.process_time()
        words = load_word_list(
            guesses_file=args.data / "guesses.txt", answers_file=args.data / "answers.txt"
        )
        game = Game(words, "standard")
        solver = OptimalSolver(game, hard=hard, max_guesses=6)
        first = words.check_guess(args.first)
        search = time.process_time()
        total = solver._guess_cost(
            first, game.all_answers(), INF, 5, game.full_pool() if hard else None
        )
        search = time.process_time() - search
        result = solver.solve_first(first)  # the tree, from the memo
        solve = time.process_time() - cpu
        assert result.total == total
        twin = None
        if not args.no_baseline:
            slow = OptimalSolver(game, hard=hard, max_guesses=6, engine="python")
            twin = time.process_time()
            twin_total = slow._guess_cost(
                first, game.all_answers(), INF, 5, game.full_pool() if hard else None
            )
            twin = time.process_time() - twin
            assert twin_total == total, (twin_total, total)
        rows.append((hard, total, search, solve, twin, solver.nodes, result.worst))
        status = "ok" if total == PUBLISHED[hard] else f"DIFFERS from published {PUBLISHED[hard]}"
        goal = "meets" if solve <= GOAL_CPU[hard] else "misses"
        selby = f"; Selby {SELBY_CPU[hard]} s" if hard in SELBY_CPU else ""
        ratio = "" if twin is None else f"; twin {twin:.2f} s, speed-up {twin / search:.1f}x"
        print(
            f"{args.first} {LABEL[hard]:<19} total {total} (published {PUBLISHED[hard]}: {status}), "
            f"worst {result.worst}; search {search:.2f} s CPU, whole solve {solve:.2f} s CPU, "
            f"{goal} the {GOAL_CPU[hard]:.0f} s goal{selby}{ratio}; {solver.nodes} nodes",
            flush=True,
        )


if __name__ == "__main__":
    main()
