"""The thesis' multiplayer question, answered exactly for two optimal (expected-score) players.

Hedlund & Qvarforth (KTH 2015, the seed document) estimate, from 1000 simulated games per cell,
the probability that a player who is X points behind after Y rounds still wins, X = 10..100,
Y = 7..13. For two players who both play the expected-score strategy the answer is exact:

* forward propagation (see :mod:`gamelab.yatzy.distribution`) gives F_Y[state, a], the
  probability of being in `state` with `a` points after Y rounds;
* backward propagation of distributions gives D[state, t] = P(remaining score = t | state);
* G_Y = F_Y^T D_Y is the joint law of (score after Y rounds, points still to come), so
  J_Y[a, s] = G_Y[a, s - a] is the joint law of (score after Y, final score) of one player;
* the players are independent, so P(A wins and A is behind by at least X after Y) =
  sum_a sum_s J_Y[a, s] * P_B(b >= a + X, final_B < s), by suffix/prefix sums.

"Behind by X" means behind by at least X points after both players have played Y rounds; the
table reports wins / (wins + losses), the thesis' formula (ties, which it leaves out, are given
separately). Rules: ``yahtzee`` (the thesis plays American Yahtzee with bonus and joker).

Scores are stored up to 600 (a Yahtzee-bonus game can go higher): mass beyond is clamped; the
clamped probability is reported and is below 1e-3.

Cost: one forward and one backward pass over the layers Y..13 (each about one widget solve per
state plus outcome x score-width additions) and one matrix product per Y; memory about 1.5 GB
for ``yahtzee``. The table is cached with :func:`gamelab.core.cache.cached_arrays`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from gamelab.yatzy._distribution_kernels import backward_layer
from gamelab.yatzy._turn_kernels import state_index
from gamelab.yatzy.distribution import forward_layers, layer_rows
from gamelab.yatzy.rules import RULES, RuleSet
from gamelab.yatzy.solver import masks_by_popcount, solve, timed_cached_arrays, timing_text

CACHE_VERSION = 2
CAP = 600
DEFICITS = tuple(range(10, 101, 10))
ROUNDS = tuple(range(7, 14))


def remaining_widths(rules: RuleSet, cap: int) -> list[int]:
    """Width of the remaining-score vector with t turns left (index t)."""
    tab = rules.kernel_tables()
    tops = sorted(
        (
            max(int(rules.base_scores[b].max()), int(tab["joker_value"][b].max()))
            for b in range(rules.n_boxes)
        ),
        reverse=True,
    )
    return [
        min(cap, sum(tops[:t]) + (rules.upper_bonus if t else 0) + rules.yahtzee_bonus * t) + 1
        for t in range(rules.n_boxes + 1)
    ]


def joint_after_rounds(rules: RuleSet, rounds, cap: int = CAP) -> dict[int, np.ndarray]:
    """{Y: J_Y[a, s]} = P(score after Y rounds = a, final score = s) under optimal play."""
    E = solve(rules).E
    bundle = rules.kernel_rules()
    nb = rules.n_boxes
    rounds = sorted(set(rounds))
    _, _, kept = forward_layers(rules, E, cap, keep_layers=tuple(rounds))
    layers = masks_by_popcount(nb)
    widths = remaining_widths(rules, cap)
    ms, mm, ff = layer_rows(rules, layers[nb])
    D = np.zeros((len(ms), 1))
    D[:, 0] = 1.0
    row_of = np.full(rules.n_states, -1, dtype=np.int64)
    out = {}
    for k in range(nb, min(rounds) - 1, -1):
        if k < nb:
            row_of[state_index(ms, mm, ff, rules.bonus_flags)] = np.arange(len(ms))
            ms2, mm2, ff2 = layer_rows(rules, layers[k])
            D2 = np.zeros((len(ms2), widths[nb - k]))
            backward_layer(E, D2, len(ms2), D, row_of, ms2, mm2, ff2, bundle)
            ms, mm, ff, D = ms2, mm2, ff2, D2
        if k in kept:
            F = kept.pop(k)[3]
            G = F.T @ D  # [a, remaining]
            J = np.zeros((G.shape[0], G.shape[0] + G.shape[1]))
            for a in range(G.shape[0]):
                J[a, a : a + G.shape[1]] = G[a]
            out[k] = J
    return out


def comeback_from_joint(J: np.ndarray, deficit: int) -> tuple[float, float, float]:
    """(P(win), P(loss), P(tie)) of the trailing player, jointly with 'behind by >= deficit'."""
    A, S = J.shape
    # B's mass with score after Y at least b0, by final score: suffix sums over rows
    suffix = np.cumsum(J[::-1], axis=0)[::-1]
    below = np.cumsum(suffix, axis=1) - suffix  # P_B(b >= b0, final < s)
    win = loss = tie = 0.0
    for a in range(A):
        b0 = a + deficit
        if b0 >= A:
            break
        row = J[a]
        win += float(row @ below[b0])
        tie += float(row @ suffix[b0])
        loss += float(row @ (suffix[b0].sum() - below[b0] - suffix[b0]))
    return win, loss, tie


def comeback_table(
    rules: RuleSet = RULES["yahtzee"], cap: int = CAP
) -> tuple[dict[str, np.ndarray], bool, float]:
    """Exact optimal-vs-optimal comeback table (cached): arrays win/loss/tie [len(ROUNDS),
    len(DEFICITS)]; with whether it came from the cache and the seconds this call took."""

    def compute() -> dict[str, np.ndarray]:
        t0 = time.perf_counter()
        joints = joint_after_rounds(rules, [y for y in ROUNDS if y <= rules.n_boxes], cap)
        win = np.zeros((len(ROUNDS), len(DEFICITS)))
        loss = np.zeros_like(win)
        tie = np.zeros_like(win)
        clamp = 0.0
        for i, y in enumerate(ROUNDS):
            if y not in joints:
                continue
            J = joints[y]
            clamp = max(clamp, float(J[:, -1].sum()))
            for j, x in enumerate(DEFICITS):
                win[i, j], loss[i, j], tie[i, j] = comeback_from_joint(J, x)
        return {
            "win": win,
            "loss": loss,
            "tie": tie,
            "seconds": np.array(time.perf_counter() - t0),
            "clamp": np.array(clamp),
        }

    return timed_cached_arrays(
        "yatzy-comeback", {"rules": rules.name, "cap": cap}, CACHE_VERSION, compute
    )


def comeback_probability(table: dict[str, np.ndarray]) -> np.ndarray:
    """wins / (wins + losses) per (round, deficit); NaN where the condition never holds."""
    w, lo = table["win"], table["loss"]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(w + lo > 0, w / (w + lo), np.nan)


@dataclass(frozen=True)
class ComebackTable:
    """P(the trailing optimal player wins) per (rounds played Y, deficit at least X): wins /
    (wins + losses), NaN (JSON null) where the condition never holds; and P(condition)."""

    rules: str
    rounds: list[int]
    deficits: list[int]
    p_win: np.ndarray
    p_condition: np.ndarray
    compute_seconds: float  # how long the table took when it was computed
    seconds: float = 0.0  # how long this call took (a load from the cache, or the computation)
    from_cache: bool = False

    def timing(self) -> str:
        """How long this call took, in words (a load from the cache is not a computation)."""
        return timing_text(self.seconds, self.from_cache, self.compute_seconds, "computed")


def comeback_study(rules: RuleSet = RULES["yahtzee"], cap: int = CAP) -> ComebackTable:
    """The exact comeback table of `rules` (cached), as probabilities."""
    table, from_cache, seconds = comeback_table(rules, cap)
    return ComebackTable(
        rules.name,
        list(ROUNDS),
        list(DEFICITS),
        comeback_probability(table),
        table["win"] + table["loss"] + table["tie"],
        float(table["seconds"]),
        seconds=seconds,
        from_cache=from_cache,
    )
