"""Fixed-seed simulations of every game, printed as one JSON document (timings left out).

Run by ``tests/core/test_same_numbers.py`` in a fresh process per backend (``local:N`` for N
local worker processes, or ``dask:N`` for a Dask LocalCluster with N workers), with the number
of BLAS threads set in the environment before numpy loads: the documents must be identical.
"""

from __future__ import annotations

import json
import sys

from gamelab.voltorb.rules import VoltorbSetting


def _without_timings(value):
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if "second" not in k}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def runs(backend) -> dict:
    from gamelab.core.evolve import GAConfig
    from gamelab.lattice.experiments import compare_ga_random
    from gamelab.oware.match import GreedySpec, RandomSpec, run_match
    from gamelab.voltorb.simulate import simulate_study
    from gamelab.wordle.hillclimb import made_up_first_guess
    from gamelab.wordle.rules import load_word_list, parse_names
    from gamelab.wordle.table import Game
    from gamelab.yatzy.rules import RULES
    from gamelab.yatzy.simulate import simulate

    return {
        # level 8, where tiles of equal odds are common: the decisions that a BLAS summation
        # order used to break
        "voltorb": simulate_study(VoltorbSetting(), "minrisk", 120, seed=3, backend=backend, compare_with="scorefirst"),
        "wordle": made_up_first_guess(Game(load_word_list(parse_names("gen1")), "blog"),
                                      seed=3, restarts=2, total=False),
        "lattice": compare_ga_random(8, trials=3, seed=2, config=GAConfig(generations=3),
                                     backend=backend),
        "oware": run_match(GreedySpec(), RandomSpec(), games=4, seed=2, use_store=False,
                           backend=backend),
        "yatzy": simulate(RULES["yahtzee-no-bonus"], "greedy", 300, seed=4, chunk=100,
                          backend=backend),
    }  # fmt: skip


def main(spec: str) -> None:
    from gamelab.core.parallel import Backend
    from gamelab.core.serialise import to_plain

    kind, _, n = spec.partition(":")
    if kind == "dask":
        backend = Backend(cluster=f"local:{n}", quiet=True)
    else:
        backend = Backend(workers=int(n), quiet=True)
    document = {game: _without_timings(to_plain(result)) for game, result in runs(backend).items()}
    print(json.dumps(document, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
