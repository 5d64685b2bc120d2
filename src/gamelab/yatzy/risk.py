"""The thesis' risk-taking player, measured by simulation against the optimal player.

Hedlund & Qvarforth (KTH 2015, seed document, section 3) modify the optimal player: when it is
behind, it may prefer keeps aimed at rarer, higher-valued final rolls ("R" values) over the
optimal keep ("O"), with a 'valence' v = how many dice the target must share with the current
roll (v = 1: go for a Yatzy whenever possible). Where the thesis is vague we choose:

* at each keep decision of a turn in which it is behind by at least X points, the risk-taker
  aims at the final roll t with the highest optimal box-stage value V3[t] among the rolls that
  share at least v dice with its current roll, and keeps the dice in common; the box is chosen
  optimally (argmax E). Otherwise it plays optimally;
* 'behind after Y rounds' = both players have played Y rounds; A (optimal) moves first in each
  round, and the risk-taker compares its score with A's at the start of each of its turns.

Measurement: for round Y, a pool of round-Y positions (state and score) is made by optimal play
(both players are optimal until then); pairs (A, B) are drawn uniformly among the pairs in which
B trails by at least X, and each pair is finished twice on the same dice: B optimal and B
risk-taking. The optimal-vs-optimal win rate checks the exact table of
:mod:`gamelab.yatzy.comeback`; the paired difference measures what the risk costs or gains.

Cost: about 2 x (13 - Y) turns per game and player at ~10 us per turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamelab.core.parallel import Backend, run_tasks
from gamelab.core.results import ResultStore
from gamelab.core.stats import (
    Difference,
    Estimate,
    paired_difference,
    paired_proportions_difference,
    wilson_interval,
)
from gamelab.yatzy._play_kernels import (
    UNIFORMS_PER_TURN,
    duel_games,
    play_to_round,
    round_scratch,
)
from gamelab.yatzy.rules import RULES, RuleSet
from gamelab.yatzy.simulate import strategy_values

DEFICITS = tuple(range(10, 101, 10))


def check_rounds(rules: RuleSet, rounds: Sequence[int]) -> tuple[int, ...]:
    """The rounds Y of a study, each once and before the game's last round, else a ValueError
    that says which (the command line and any other shell show this message)."""
    if not len(rounds):
        raise ValueError("give at least one round Y, like 7,8,9")
    seen: set[int] = set()
    for y in rounds:
        if not 0 <= y < rules.n_boxes:
            raise ValueError(
                f"rounds Y must be between 0 and {rules.n_boxes - 1} (rounds both players have "
                f"played), got {y}"
            )
        if y in seen:
            raise ValueError(f"round {y} is listed twice")
        seen.add(y)
    return tuple(int(y) for y in rounds)


def parse_rounds(text: str, rules: RuleSet) -> tuple[int, ...]:
    """Rounds Y written as ``7,8,9`` (spaces allowed), checked by :func:`check_rounds`."""
    try:
        rounds = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"rounds Y must be whole numbers like 7,8,9, got {text!r}") from None
    return check_rounds(rules, rounds)


def positions(rules, rounds: int, games: int, rng: np.random.Generator) -> np.ndarray:
    """[games, 4] = (mask, m, f, score) after `rounds` turns of optimal play."""
    E = strategy_values(rules, "optimal")
    u = rng.random((games, rules.n_boxes, UNIFORMS_PER_TURN))
    out = np.zeros((games, 1, 4), dtype=np.int64)
    rounds_at = np.array([rounds], dtype=np.int64)
    play_to_round(E, u, rounds_at, rules.kernel_rules(), out, *round_scratch(rules.n_boxes, len(E)))
    return out[:, 0, :]


def risk_chunk(item: tuple, rng: np.random.Generator) -> dict:
    """run_tasks worker: item = (rules, Y, valence, games, deficits) -> counts per deficit."""
    rules, rounds, valence, games, deficits = item
    E = strategy_values(rules, "optimal")
    pool = positions(rules, rounds, games, rng)
    scores = pool[:, 3]
    out: dict[str, dict[str, Any] | None] = {}
    for x in deficits:
        # rejection sampling of pairs (A ahead of B by >= x), uniform over such pairs
        a_idx, b_idx = [], []
        need = games
        tries = 0
        while need > 0 and tries < 200:
            i = rng.integers(0, games, 20 * games)
            j = rng.integers(0, games, 20 * games)
            ok = scores[i] - scores[j] >= x
            a_idx.extend(i[ok][:need].tolist())
            b_idx.extend(j[ok][:need].tolist())
            need = games - len(a_idx)
            tries += 1
        n = len(a_idx)
        if n == 0:
            out[str(x)] = None
            continue
        ua = rng.random((n, rules.n_boxes, UNIFORMS_PER_TURN))
        ub = rng.random((n, rules.n_boxes, UNIFORMS_PER_TURN))
        res = {}
        for label, v in (("optimal", 0), ("risk", valence)):
            diff = np.empty(n, dtype=np.int64)
            duel_games(E, pool[a_idx], pool[b_idx], ua, ub, x, v, rules.kernel_rules(), diff)
            res[label] = diff
        win_o = (res["optimal"] > 0).astype(np.int64)
        win_r = (res["risk"] > 0).astype(np.int64)
        out[str(x)] = {
            "n": n,
            "opt": [int(win_o.sum()), int((res["optimal"] < 0).sum())],
            "risk": [int(win_r.sum()), int((res["risk"] < 0).sum())],
            "d_sum": int((win_r - win_o).sum()),
            "d_sumsq": int(((win_r - win_o) ** 2).sum()),
            "risk_score_minus_opt": int((res["risk"] - res["optimal"]).sum()),
        }
    return out


@dataclass(frozen=True)
class RiskRow:
    """One (Y, X) cell: the trailing player's win rate (wins / (wins + losses), Wilson) when it
    plays optimally and when it takes risks, the paired difference of its win shares over all
    the cell's games (Newcombe's interval), and the mean change of its final score."""

    rounds: int
    deficit: int
    games: int
    opt: Estimate | None
    risk: Estimate | None
    win_difference: Difference
    score_difference: float


@dataclass(frozen=True)
class RiskStudy:
    """The risk-taker study over every (Y, X) cell that occurred (`gamelab yatzy risk`)."""

    rules: str
    valence: int
    rows: list[RiskRow]
    #: the (Y, X) cells asked for in which no pair had the trailing player behind by X (too
    #: few games for such a deficit): they have no row
    empty_cells: list[tuple[int, int]]


def risk_study(
    rules: RuleSet = RULES["yahtzee"],
    rounds: Sequence[int] = range(7, 13),
    valence: int = 2,
    games_per_cell: int = 100_000,
    chunk: int = 5000,
    seed: int = 0,
    backend: Backend | None = None,
    store: ResultStore | None = None,
    deficits: Sequence[int] = DEFICITS,
) -> RiskStudy:
    """Win rates of the trailing player (optimal and risk-taking) per (Y, X) with 95% CIs."""
    rs = rules
    rounds = check_rounds(rs, rounds)
    if valence < 1 or valence > 5:
        raise ValueError(
            f"valence must be between 1 and 5 (dice the risky target shares with the roll), "
            f"got {valence}"
        )
    if games_per_cell < 2:
        # pairs are drawn from the pool of round-Y positions: one position makes no pair with
        # a trailing player, so no cell could ever be measured
        raise ValueError(
            f"games must be at least 2 (a trailing pair needs two positions), got {games_per_cell}"
        )
    items = [
        (rs, int(y), valence, min(chunk, games_per_cell - i), list(deficits))
        for y in rounds
        for i in range(0, games_per_cell, chunk)
    ]
    results = run_tasks(
        risk_chunk,
        items,
        seed=seed,
        backend=backend,
        label="yatzy risk-taker",
        store=store,
        experiment="yatzy-risk",
        params={
            "rules": rs.name,
            "valence": valence,
            "games": games_per_cell,
            "chunk": chunk,
            "seed": seed,
            "rounds": list(rounds),
            "deficits": list(deficits),
        },
    )
    rows = []
    empty: list[tuple[int, int]] = []
    for y in rounds:
        for x in deficits:
            parts = [
                r[str(x)]
                for item, r in zip(items, results, strict=True)
                if item[1] == y and r.get(str(x))
            ]
            if not parts:
                empty.append((int(y), int(x)))
                continue
            n = sum(p["n"] for p in parts)
            rates: dict[str, Estimate | None] = {}
            for label in ("opt", "risk"):
                w = sum(p[label][0] for p in parts)
                lo = sum(p[label][1] for p in parts)
                rates[label] = wilson_interval(w, w + lo) if w + lo else None
            # the paired table of the trailing player's wins: risk-taker (first) vs optimal
            # (second) on the same dice; d = win_r - win_o is +1 (risk only) or -1 (optimal only)
            net = sum(p["d_sum"] for p in parts)
            discordant = sum(p["d_sumsq"] for p in parts)
            risk_only, opt_only = (discordant + net) // 2, (discordant - net) // 2
            both = sum(p["risk"][0] for p in parts) - risk_only
            diff = paired_proportions_difference(
                both, risk_only, opt_only, n - both - risk_only - opt_only
            )
            rows.append(
                RiskRow(
                    y,
                    x,
                    n,
                    rates["opt"],
                    rates["risk"],
                    diff,
                    sum(p["risk_score_minus_opt"] for p in parts) / n,
                )
            )
    return RiskStudy(rs.name, valence, rows, empty)


__all__ = [
    "check_rounds",
    "paired_difference",
    "parse_rounds",
    "positions",
    "risk_chunk",
    "risk_study",
]
