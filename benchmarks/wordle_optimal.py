"""The proven optimum vs the post's pruned search: time and total, side by side.

    python benchmarks/wordle_optimal.py [--names gen1-4] [--rules blog,standard] [--hard]

For each rule: the post's pruned search over its ten first guesses (a heuristic, the baseline)
and the exact search over every guess at every node (proof: lower bound == total). Prints both
totals, both times (wall and CPU) and the CPU ratio. A few seconds per rule.
"""

from __future__ import annotations

import argparse
import time

from gamelab.wordle import entropy
from gamelab.wordle.pruned import PrunedSearch
from gamelab.wordle.rules import Setting, load_word_list, parse_names
from gamelab.wordle.solver.optimal import OptimalSolver
from gamelab.wordle.table import Game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", default="gen1-4")
    parser.add_argument("--rules", default="blog,standard")
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--time-limit", type=float, default=900.0)
    args = parser.parse_args()
    words = load_word_list(parse_names(args.names))
    for rule in args.rules.split(","):
        game = Game(words, rule)
        game.entropies()  # compile outside the timings
        t, c = time.perf_counter(), time.process_time()
        search = PrunedSearch(game)
        pruned = min((search.total(g), words.guesses[g]) for g, _ in entropy.rank(game, 10))
        t_pruned, c_pruned = time.perf_counter() - t, time.process_time() - c
        t, c = time.perf_counter(), time.process_time()
        res = OptimalSolver(
            Setting(game.words, game.rule, "game" if args.hard else None, None),
            time_limit=args.time_limit,
        ).solve()
        t_opt, c_opt = time.perf_counter() - t, time.process_time() - c
        print(
            f"{args.names} {rule}{' hard' if args.hard else ''}: pruned {pruned[0]} ({pruned[1]}) "
            f"in {t_pruned:.1f} s (cpu {c_pruned:.1f} s); optimal {res.total} (lower bound {res.lower_bound}, "
            f"proven {res.proven}, first {' '.join(res.first_guesses)}) in {t_opt:.1f} s "
            f"(cpu {c_opt:.1f} s), {res.nodes} nodes; optimum/pruned cpu ratio "
            f"{c_opt / c_pruned:.2f}"
        )


if __name__ == "__main__":
    main()
