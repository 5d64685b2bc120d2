"""Target play: the maximal probability of reaching a final score of at least T.

Utility u = [score >= T] instead of the expectation (Cremers 2002; Glenn 2007). The state is
extended by the points still needed, t: P(state, t) = max over the turn's decisions of
P(next state, t - points), with P = 1 once t <= 0. One backward pass over the layers gives the
whole vector t = 0..L-1 for every state, hence max P(score >= T) for every T < L at once (each
T with its own optimal policy). Values beyond the maximal remaining score are 0, so the vector
of a layer with few turns left is short.

Every rule set: with a Yahtzee bonus the state carries the bonus flag f and extra Yahtzees follow
the joker rules, exactly as in the expected-score widget (kernel
:func:`gamelab.yatzy._utility_kernels.utility_widget`, shared with win play). Cost: L times the
expected-score solve (about 2.7 M operations per widget for L = 351); memory two layers of
float64 [states, L] (about 0.3 GB for ``yahtzee-no-bonus``, 0.5 GB for ``yahtzee``).
Cached with :func:`gamelab.core.cache.cached_arrays`.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np

from gamelab.yatzy._turn_kernels import state_index
from gamelab.yatzy._utility_kernels import utility_layer
from gamelab.yatzy.distribution import layer_rows
from gamelab.yatzy.rules import RuleSet
from gamelab.yatzy.solver import masks_by_popcount, timed_cached_arrays, timing_text

CACHE_VERSION = 1
TARGETS = (200, 250, 300, 350)


def target_probabilities(
    rules: RuleSet, max_target: int = 350, use_cache: bool = True
) -> dict[str, np.ndarray]:
    """{'p': max P(final >= T) for T = 0..max_target, 'seconds': solve time} (cached)."""
    return timed_target_probabilities(rules, max_target, use_cache)[0]


def timed_target_probabilities(
    rules: RuleSet, max_target: int = 350, use_cache: bool = True
) -> tuple[dict[str, np.ndarray], bool, float]:
    """:func:`target_probabilities`, with whether it came from the cache and this call's
    seconds."""
    if max_target < 0:
        raise ValueError(f"max_target must be at least 0, got {max_target}")
    L = max_target + 1

    def compute() -> dict[str, np.ndarray]:
        t0 = time.perf_counter()
        bundle = rules.kernel_rules()
        nb = rules.n_boxes
        layers = masks_by_popcount(nb)
        row_of = np.full(rules.n_states, -1, dtype=np.int64)
        ms, mm, ff = layer_rows(rules, layers[nb])
        P = np.zeros((len(ms), L))
        P[:, 0] = 1.0
        blocks = 4 * (os.cpu_count() or 1)
        for k in range(nb - 1, -1, -1):
            row_of[:] = -1
            row_of[state_index(ms, mm, ff, rules.bonus_flags)] = np.arange(len(ms))
            ms2, mm2, ff2 = layer_rows(rules, layers[k])
            P2 = np.zeros((len(ms2), L))
            utility_layer(P, row_of, P2, ms2, mm2, ff2, bundle, min(blocks, len(ms2)))
            ms, mm, ff, P = ms2, mm2, ff2, P2
        return {"p": P[0].copy(), "seconds": np.array(time.perf_counter() - t0)}

    params = {"rules": rules.name, "boxes": list(rules.boxes), "L": L}
    if rules.has_bonus_flag or rules.joker:  # (keys of the plain rule sets kept as they were)
        params.update(yahtzee_bonus=rules.yahtzee_bonus, joker=rules.joker)
    return timed_cached_arrays("yatzy-target", params, CACHE_VERSION, compute, use_cache)


@dataclass(frozen=True)
class TargetRow:
    """Max P(final score >= target) next to the expected-score strategy's probability."""

    target: int
    max_probability: float
    expected_score_strategy: float


@dataclass(frozen=True)
class TargetTable:
    """Target play for the scores in :data:`TARGETS` (`gamelab yatzy target`)."""

    rules: str
    targets: list[TargetRow]
    compute_seconds: float  # how long the target solve took when it was computed
    seconds: float = 0.0  # how long this call's target table took (a load, or the solve)
    from_cache: bool = False  # the target table was solved earlier and loaded

    def timing(self) -> str:
        """How long the target table took here, in words (a load from the cache is not a
        solve)."""
        return timing_text(self.seconds, self.from_cache, self.compute_seconds, "solved")


def parse_targets(text: str, most: int = 1000) -> tuple[int, ...]:
    """Targets from text like ``200,250``: whole scores from 0 to `most`, in increasing order."""
    try:
        values = sorted({int(part) for part in text.replace(" ", "").split(",") if part})
    except ValueError:
        raise ValueError(
            f"targets must be comma-separated whole scores, e.g. 200,250; got {text!r}"
        ) from None
    if not values:
        raise ValueError(f"no target score given (got {text!r}); give whole scores like 200,250")
    if values[0] < 0 or values[-1] > most:
        raise ValueError(f"targets must be between 0 and {most}, got {text!r}")
    return tuple(values)


def target_table(rules: RuleSet, targets: tuple[int, ...] = TARGETS) -> TargetTable:
    """Target play for each of `targets` beside the expected-score strategy (both cached)."""
    from gamelab.yatzy.distribution import score_distribution

    tp, from_cache, seconds = timed_target_probabilities(rules, max(targets))
    ev = score_distribution(rules)
    return TargetTable(
        rules.name,
        [TargetRow(t, float(tp["p"][t]), ev.at_least(t)) for t in targets],
        float(tp["seconds"]),
        seconds=seconds,
        from_cache=from_cache,
    )
