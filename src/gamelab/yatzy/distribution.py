"""Exact final-score distribution of the optimal (expected-score) strategy.

Forward propagation, no sampling: the probability mass of every (state, score so far) is pushed
through one turn at a time, layer by layer (popcount of the filled boxes). Per reachable state
with mass, the turn's (next state, points) distribution follows from the argmax-E decisions by
propagating the 252 roll probabilities through the two keep choices (keep -> roll lists); the
score vector is then shifted and added into the successor's. The result is P(final = s) for every
s; its mean equals the DP value (a test checks it to 1e-9).

Scores are stored up to a cap (the rule set's maximum when it is small; 600 with a Yahtzee
bonus). Mass beyond the cap is kept as one lump whose probability and exact first and second
moment contributions (score so far s and the state's E[R], E[R^2] of the remaining score R:
s + E[R] and s^2 + 2 s E[R] + E[R^2]) are recorded, so the mean and the SD stay exact;
P(final > cap) is reported.

Cost: about one widget solve per reachable state plus (outcomes x score width) additions per
state; memory two layers of float64 [states, width] (about 0.5 GB for Scandinavian Yatzy).
Tables are cached with :func:`gamelab.core.cache.cached_arrays`. The distributions of the named
rule sets from the empty card ship with the package (``data/distribution-<key>.bin``, made and
checked by ``tools/make_yatzy_distributions.py``), found by the same key as the cache, so a
page's first review of a rule set never waits the core-minute of their propagation.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gamelab.core.cache import cache_key, is_cached, load_arrays
from gamelab.yatzy._distribution_kernels import forward_layer
from gamelab.yatzy._turn_kernels import flag_values, state_index, upper_subset, workspace_arrays
from gamelab.yatzy._widget_kernels import new_lane_scratch
from gamelab.yatzy.rules import RuleSet
from gamelab.yatzy.solver import (
    masks_by_popcount,
    solve,
    timed_cached_arrays,
    timing_text,
    upper_reach,
)

CACHE_VERSION = 2  # 2: the tail's second moment is stored (overflow[2])
BONUS_CAP = 600


#: Quantiles and score targets the summary reports.
QUANTILES = (0.01, 0.1, 0.5, 0.9, 0.99)
SCORE_TARGETS = (200, 250, 300, 350)


@dataclass
class ScoreDistribution:
    """P(final score = s) under the optimal strategy, s = 0..cap, and the tail beyond cap."""

    rules: RuleSet
    probability: np.ndarray  # P(final score = s), s = 0..cap
    tail_probability: float  # P(final score > cap)
    tail_mean_part: float  # E[score; score > cap] (exact)
    compute_seconds: float  # how long the propagation took when the table was computed
    tail_square_part: float = 0.0  # E[score^2; score > cap] (exact)
    seconds: float = 0.0  # how long this call took (a load from the cache, or the computation)
    from_cache: bool = False  # the table was computed earlier and loaded

    def timing(self) -> str:
        """How long this call took, in words (a load from the cache is not a computation)."""
        return timing_text(self.seconds, self.from_cache, self.compute_seconds, "computed")

    @property
    def cap(self) -> int:
        return len(self.probability) - 1

    @property
    def mean(self) -> float:
        s = np.arange(len(self.probability))
        return float((s * self.probability).sum() + self.tail_mean_part)

    @property
    def std_dev(self) -> float:
        """SD of the final score, exact: the stored part and the tail's second moment."""
        s = np.arange(len(self.probability))
        p = self.probability
        m2 = float((s * s * p).sum()) + self.tail_square_part
        return float(np.sqrt(max(0.0, m2 - self.mean**2)))

    def at_least(self, target: int) -> float:
        """P(final score >= target) (target <= cap)."""
        if target > self.cap:
            raise ValueError(f"target {target} is beyond the stored range 0..{self.cap}")
        return float(self.probability[max(0, target) :].sum() + self.tail_probability)

    def quantile(self, q: float) -> int:
        c = np.cumsum(self.probability)
        return int(np.searchsorted(c, q))

    def __json__(self) -> dict[str, Any]:
        return {
            "rules": self.rules.name,
            "mean": self.mean,
            "std_dev": self.std_dev,
            "cap": self.cap,
            "tail_probability": self.tail_probability,
            "seconds": self.seconds,
            "from_cache": self.from_cache,
            "compute_seconds": self.compute_seconds,
            "quantiles": {str(q): self.quantile(q) for q in QUANTILES},
            "p_at_least": {str(t): self.at_least(t) for t in SCORE_TARGETS if t <= self.cap},
            "probability": self.probability,
        }


def layer_rows(rules: RuleSet, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mask, capped upper total, bonus flag) of every reachable state whose filled boxes are
    one of `masks`, as three aligned arrays (the rows of one DP layer)."""
    bundle = rules.kernel_rules()
    upper_face = rules.kernel_tables()["upper_face"]
    reach = upper_reach()
    ms, mm, ff = [], [], []
    for mask in masks.tolist():
        u = int(upper_subset(mask, upper_face, rules.n_boxes))
        for m in np.nonzero(reach[u])[0].tolist():
            for f in range(flag_values(bundle, mask)):
                ms.append(mask)
                mm.append(m)
                ff.append(f)
    return (
        np.array(ms, dtype=np.int64),
        np.array(mm, dtype=np.int64),
        np.array(ff, dtype=np.int64),
    )


def layer_widths(rules: RuleSet, cap: int) -> list[int]:
    """Score-vector width of each layer: bound on the score after k turns, capped."""
    tab = rules.kernel_tables()
    tops = sorted(
        (
            max(int(rules.base_scores[b].max()), int(tab["joker_value"][b].max()))
            for b in range(rules.n_boxes)
        ),
        reverse=True,
    )
    widths = []
    for k in range(rules.n_boxes + 1):
        bound = sum(tops[:k]) + (rules.upper_bonus if k else 0)
        bound += rules.yahtzee_bonus * max(0, k - 1)
        widths.append(min(cap, bound) + 1)
    return widths


def forward_layers(
    rules: RuleSet, E: np.ndarray, cap: int, keep_layers=(), W: np.ndarray | None = None
):
    """Run the forward propagation; yields nothing, returns (final P, overflow, kept layers).

    kept_layers[k] = (masks, ms, fs, F) for every k in `keep_layers` (F: [rows, width]).
    overflow = (P, E[score; tail], E[score^2; tail]); the last needs `W` (E[remaining^2]).
    """
    bundle = rules.kernel_rules()
    row_of = np.full(rules.n_states, -1, dtype=np.int64)
    layers = masks_by_popcount(rules.n_boxes)
    widths = layer_widths(rules, cap)
    ws, lanes = workspace_arrays(rules.n_boxes), new_lane_scratch(rules.n_boxes)
    overflow = np.zeros(3 if W is not None else 2)
    ms, mm, ff = layer_rows(rules, layers[0])
    F = np.zeros((len(ms), widths[0]))
    F[0, 0] = 1.0
    kept = {}
    for k in range(rules.n_boxes):
        if k in keep_layers:
            kept[k] = (ms, mm, ff, F)
        ms2, mm2, ff2 = layer_rows(rules, layers[k + 1])
        row_of[state_index(ms2, mm2, ff2, rules.bonus_flags)] = np.arange(len(ms2))
        F2 = np.zeros((len(ms2), widths[k + 1]))
        forward_layer(
            E,
            F,
            len(ms),
            row_of,
            F2,
            ms,
            mm,
            ff,
            bundle,
            overflow,
            E if W is None else W,
            ws,
            lanes,
        )
        ms, mm, ff, F = ms2, mm2, ff2, F2
    if rules.n_boxes in keep_layers:
        kept[rules.n_boxes] = (ms, mm, ff, F)
    final = F.sum(axis=0)
    return final, overflow, kept


def score_distribution(
    rules: RuleSet, cap: int | None = None, use_cache: bool = True
) -> ScoreDistribution:
    """The exact final-score distribution of the optimal strategy (cached)."""
    if cap is None:
        cap = _default_cap(rules)

    def compute() -> dict[str, np.ndarray]:
        sol = solve(rules, use_cache=use_cache)
        t0 = time.perf_counter()
        final, overflow, _ = forward_layers(rules, sol.E, cap, W=sol.W)
        p = np.zeros(cap + 1)
        p[: len(final)] = final
        return {"p": p, "overflow": overflow, "seconds": np.array(time.perf_counter() - t0)}

    shipped = load_arrays(shipped_distribution_path(rules, cap)) if use_cache else None
    if shipped is not None:
        arrays, from_cache, seconds = shipped, True, 0.0
    else:
        arrays, from_cache, seconds = timed_cached_arrays(
            "yatzy-distribution", _cache_params(rules, cap), CACHE_VERSION, compute, use_cache
        )
    overflow = arrays["overflow"]
    return ScoreDistribution(
        rules,
        arrays["p"],
        float(overflow[0]),
        float(overflow[1]),
        float(arrays["seconds"]),
        tail_square_part=float(overflow[2]),
        seconds=seconds,
        from_cache=from_cache,
    )


def _default_cap(rules: RuleSet) -> int:
    return rules.max_score if not rules.yahtzee_bonus else min(BONUS_CAP, rules.max_score)


def _cache_params(rules: RuleSet, cap: int) -> dict[str, Any]:
    return {"rules": rules.name, "boxes": list(rules.boxes), "cap": cap}


#: Where the package ships the distributions of the named rule sets.
SHIPPED = Path(__file__).parent / "data"


def shipped_distribution_path(rules: RuleSet, cap: int | None = None) -> Path:
    """Where the package ships (or would ship) :func:`score_distribution` of `rules`: named by
    the cache's key, so a changed rule set, cap or format finds none and computes it."""
    cap = _default_cap(rules) if cap is None else cap
    key = cache_key("yatzy-distribution", _cache_params(rules, cap), CACHE_VERSION)
    return SHIPPED / f"distribution-{key}.bin"


def is_distribution_cached(rules: RuleSet) -> bool:
    """Whether :func:`score_distribution` of `rules` (default cap) is shipped or on disk."""
    cap = _default_cap(rules)
    return shipped_distribution_path(rules, cap).is_file() or is_cached(
        "yatzy-distribution", _cache_params(rules, cap), CACHE_VERSION
    )


def plot_distributions(dists: list[ScoreDistribution], fig_ax=None):
    """A line plot of P(final = s) for each distribution; returns the figure."""
    from gamelab.core.report import new_figure

    fig, ax = fig_ax or new_figure()
    for d in dists:
        hi = min(d.cap, max(d.quantile(0.9999) + 10, 100))
        ax.plot(
            np.arange(hi + 1),
            d.probability[: hi + 1],
            lw=1,
            label=f"{d.rules.name} (mean {d.mean:.2f}, SD {d.std_dev:.2f})",
        )
    ax.set_xlabel("final score")
    ax.set_ylabel("probability")
    ax.set_title("Exact final-score distribution of the optimal strategy")
    ax.legend(fontsize=8)
    return fig
