"""Ship the exact final-score distribution of optimal play from the empty card of every named
Yatzy rule set (gamelab/yatzy/data/distribution-<key>.bin).

    python tools/make_yatzy_distributions.py [RULES ...]

Each is ``gamelab.yatzy.distribution.score_distribution`` computed afresh (about a core-minute
for Yatzy, less for Yahtzee; the decision tables come from the cache), checked before it is
written: the probabilities add up to 1 and the distribution's mean equals the optimal strategy's
expected score from the empty card (its value table, computed by another route) to 1e-6. The
page's first review of a rule set then loads it instead of computing it.
"""

import argparse

import numpy as np

from gamelab.core.cache import save_arrays
from gamelab.yatzy.card import Card
from gamelab.yatzy.distribution import (
    CACHE_VERSION,
    score_distribution,
    shipped_distribution_path,
)
from gamelab.yatzy.rules import RULES
from gamelab.yatzy.solver import solve, state_index


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", nargs="*", default=list(RULES), help="rule sets (default: all)")
    args = parser.parse_args()
    for name in args.rules:
        rules = RULES[name]
        d = score_distribution(rules, use_cache=False)
        card = Card.parse(rules, "-")
        expected = float(
            solve(rules).E[state_index(rules, card.mask, card.capped_upper, card.bonus_flag)]
        )
        total = float(d.probability.sum()) + d.tail_probability
        if abs(total - 1) > 1e-9 or abs(d.mean - expected) > 1e-6:
            raise SystemExit(f"error: {name}: total {total}, mean {d.mean} against E {expected}")
        path = shipped_distribution_path(rules)
        overflow = [d.tail_probability, d.tail_mean_part, d.tail_square_part]
        arrays = {"p": d.probability, "overflow": overflow, "seconds": d.compute_seconds}
        meta = {"name": "yatzy-distribution", "rules": name, "version": CACHE_VERSION}
        save_arrays(path, {k: np.asarray(v) for k, v in arrays.items()}, meta)
        print(f"{name}: mean {d.mean:.4f} = E {expected:.4f}; {path.name}", flush=True)


if __name__ == "__main__":
    main()
