"""Feedback table and entropy ranking: numba kernels vs their plain-Python twins, side by side.

    python benchmarks/wordle_kernels.py [--names gen1-4]

Prints milliseconds per call and the speed-up ratio (both include no compilation: each kernel is
called once before timing).
"""

from __future__ import annotations

import argparse
import time

from gamelab.wordle import _kernels
from gamelab.wordle.rules import load_word_list, parse_names
from gamelab.wordle.table import Game


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", default="gen1-4")
    args = parser.parse_args()
    words = load_word_list(parse_names(args.names))
    gc, gl = words.encode(words.guesses)
    ac, al = words.encode(words.answers)
    game = Game(words, "blog")
    subset = game.all_answers()
    table = game.table
    _kernels.feedback_table_kernel(gc, gl, ac, al, 1)
    _kernels.entropy_kernel(table, subset, game.n_codes)
    rows = [
        (
            "feedback table",
            lambda: _kernels.feedback_table_kernel(gc, gl, ac, al, 1),
            lambda: _kernels.feedback_table_python(gc, gl, ac, al, 1),
        ),
        (
            "entropy ranking",
            lambda: _kernels.entropy_kernel(table, subset, game.n_codes),
            lambda: _kernels.entropy_python(table, subset),
        ),
    ]
    print(f"{args.names}: {len(words.guesses)} guesses x {len(words.answers)} answers")
    print(f"{'what':<18}{'numba ms':>10}{'python ms':>12}{'ratio':>9}")
    for name, fast, slow in rows:
        f = best_of(fast, 20) * 1e3
        s = best_of(slow, 1) * 1e3
        print(f"{name:<18}{f:>10.2f}{s:>12.1f}{s / f:>8.0f}x")


if __name__ == "__main__":
    main()
