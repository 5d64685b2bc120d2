"""The optimal policy's P(win) per level (issue 26 item 4), estimated by two-phase sampling.

The quantity is mu_L = E[V], V the exact optimal P(win) of a deal's opening (its clues), over the
deals the generator makes at level L. V is expensive (an exact search per deal); its upper
bound X, the inseparable-boards bound of the opening (a greedy cover, ``pair_bound``), costs
about as much as the posterior and is close to V (on average 0.02-0.05 above it). So:

* phase 1 (cheap, large): X on n1 deals; ``control_block`` returns a block's n, sum, sum of
  squares;
* phase 2 (expensive, smaller): V and X on n2 *other* deals (an independent seed stream);
  ``gap_block`` returns both per deal, so D = V - X.

The estimate is the difference estimator mu = mean_1(X) + mean_2(D), exactly unbiased because
the coefficient of X is fixed at 1 (not fitted). The two samples are independent, so
Var(mu) = Var(X) / n1 + Var(D) / n2, estimated with the sample variances; the interval is the
normal one, mu +- z sqrt(s_X^2 / n1 + s_D^2 / n2) (n1 in the tens of thousands, n2 in the
hundreds or more). The arithmetic is :func:`gamelab.core.stats.two_phase_difference`.

No deal is dropped: phase 2 searches with a large state limit, and a deal whose search still
stops is kept with V only known to lie between MinRisk's exact value (a policy's value, so a
lower bound) and X; the shipped interval then runs from the estimate with every such V at its
lower bound to the estimate with every such V at its upper bound (``capped`` counts them).

Deal j of block i of a phase is the j-th board the generator deals with
``core.parallel.task_rng(phase_seed(seed, level, phase), i)``; every block is one
``core.parallel`` task in the results store, so a run is resumable and extends by blocks.
The shipped table is ``data/optimal_table.json`` (written by ``benchmarks/voltorb_table.py
--write``); :func:`optimal_table` reads it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from gamelab.core.stats import Estimate, two_phase_difference

TABLE_FILE = "optimal_table.json"
PHASES = ("control", "gap", "direct")


def phase_seed(seed: int, level: int, phase: str) -> int:
    """The run seed of one phase at one level (three independent streams per level)."""
    return seed * 1000 + 10 * level + PHASES.index(phase) + 1


def _opening(level: int, generator: str, rng: np.random.Generator):
    """A deal's opening posterior; (level, generator) come from a block's task item."""
    from gamelab.voltorb.posterior import Posterior
    from gamelab.voltorb.rules import Clues, VoltorbSetting, generate_board

    setting = VoltorbSetting(level, generator)
    board, _ = generate_board(setting, rng)
    return Posterior.from_clues(Clues.from_board(board), setting, {})


def opening_bound(post) -> float:
    """The inseparable-boards upper bound of the optimal P(win) of an opening (greedy cover)."""
    from gamelab.voltorb._bounds_kernels import board_bits, pair_bound

    return float(pair_bound(board_bits(post.boards), post.weights, np.arange(post.count)))


def control_block(item: tuple[int, str, int], rng: np.random.Generator) -> dict[str, Any]:
    """Phase 1: the opening bound X of `block` deals, as n, sum and sum of squares."""
    level, generator, block = item
    t0 = time.process_time()
    xs = np.array([opening_bound(_opening(level, generator, rng)) for _ in range(block)])
    return {
        "n": int(xs.size),
        "sum": float(xs.sum()),
        "sumsq": float((xs * xs).sum()),
        "cpu": time.process_time() - t0,
    }


def gap_block(item: tuple[int, str, int, int], rng: np.random.Generator) -> dict[str, Any]:
    """Phase 2: per deal the exact optimal opening P(win) V and the bound X.

    A deal whose search passes `state_limit` states has V None and ``lower`` the exact P(win)
    of MinRisk (a lower bound of V); ``states`` is each search's state count.
    """
    from gamelab.voltorb.evaluate import exact_win_probability
    from gamelab.voltorb.expectimax import OptimalSolver, SearchLimitError

    level, generator, block, state_limit = item
    t0 = time.process_time()
    values: list[float | None] = []
    bounds: list[float] = []
    lower: list[float | None] = []
    states: list[int] = []
    for _ in range(block):
        post = _opening(level, generator, rng)
        bounds.append(opening_bound(post))
        solver = OptimalSolver(post, state_limit=state_limit)
        try:
            values.append(solver.win_probability())
            lower.append(None)
        except SearchLimitError:
            values.append(None)
            lower.append(exact_win_probability(post, "minrisk"))
        states.append(int(getattr(solver, "nodes", 0)))
    return {
        "values": values,
        "bounds": bounds,
        "lower": lower,
        "states": states,
        "cpu": time.process_time() - t0,
    }


def control_moments(blocks: list[dict[str, Any]]) -> tuple[float, float, int]:
    """(sum, sum of squares, n) of the control over phase-1 blocks."""
    return (
        float(sum(b["sum"] for b in blocks)),
        float(sum(b["sumsq"] for b in blocks)),
        int(sum(b["n"] for b in blocks)),
    )


def gap_arrays(blocks: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The phase-2 differences D = V - X with every capped V at its lower and at its upper
    bound (the two arrays are equal when no search was capped), and the capped mask."""
    v = [x for b in blocks for x in b["values"]]
    x = np.array([x for b in blocks for x in b["bounds"]], dtype=float)
    lo = [x for b in blocks for x in b["lower"]]
    capped = np.array([a is None for a in v])
    v_lo = np.array([lo[i] if capped[i] else v[i] for i in range(len(v))], dtype=float)
    v_hi = np.where(capped, x, np.array([0.0 if a is None else a for a in v]))
    return v_lo - x, v_hi - x, capped


def level_estimate(
    control: list[dict[str, Any]], gap: list[dict[str, Any]], confidence: float = 0.95
) -> dict[str, Any]:
    """The estimate of one level from its blocks: value, interval (widened over the capped
    deals' unknown values, see the module), the two phases' sizes, means and spreads."""
    s1, q1, n1 = control_moments(control)
    d_lo, d_hi, capped = gap_arrays(gap)
    low = two_phase_difference(s1, q1, n1, d_lo, confidence)
    high = two_phase_difference(s1, q1, n1, d_hi, confidence)
    mid = two_phase_difference(s1, q1, n1, (d_lo + d_hi) / 2, confidence)
    return {
        "estimate": mid.value,
        "lo": low.lo,
        "hi": high.hi,
        "half_width": max(mid.value - low.lo, high.hi - mid.value),
        "control": {
            "n": n1,
            "mean": s1 / n1,
            "sd": float(np.sqrt(max(0.0, (q1 - s1 * s1 / n1) / (n1 - 1)))),
        },
        "gap": {
            "n": int(d_lo.size),
            "mean": float(d_lo.mean()),
            "sd": float(d_lo.std(ddof=1)),
            "capped": int(capped.sum()),
        },
    }


def estimate_of(entry: dict[str, Any]) -> Estimate:
    """A shipped level entry as an :class:`Estimate` (n: the exactly solved deals)."""
    return Estimate(entry["estimate"], entry["lo"], entry["hi"], entry["gap"]["n"])


@cache
def optimal_table() -> dict[str, Any]:
    """The shipped table (``data/optimal_table.json``): ``levels`` is a list of per-level
    entries (level, estimate, lo, hi, half_width, control and gap phase sizes), plus the
    generator, seed, state limit and command that made it."""
    text = resources.files("gamelab.voltorb").joinpath("data", TABLE_FILE).read_text("utf-8")
    return json.loads(text)


def optimal_win_rates() -> dict[int, Estimate]:
    """Level -> the optimal policy's P(win) with its 95 % interval, from the shipped table."""
    return {int(e["level"]): estimate_of(e) for e in optimal_table()["levels"]}


@dataclass(frozen=True)
class LevelWinRate:
    """The optimal policy's P(win) at one level, from the shipped table, with its sentence."""

    level: int
    win_rate: float
    lo: float
    hi: float
    #: deals whose opening was solved exactly (phase 2) and deals whose bound was computed
    #: (phase 1)
    exact_deals: int
    bound_deals: int
    text: str


def level_win_rates() -> list[LevelWinRate]:
    """Every level's entry of the shipped table, lowest level first (what the page shows)."""
    out = []
    for e in optimal_table()["levels"]:
        text = (
            f"Level {e['level']}: optimal play clears {100 * e['estimate']:.1f} % of rounds "
            f"(95 % interval {100 * e['lo']:.1f}-{100 * e['hi']:.1f} %)"
        )
        out.append(
            LevelWinRate(
                int(e["level"]),
                e["estimate"],
                e["lo"],
                e["hi"],
                e["gap"]["n"],
                e["control"]["n"],
                text,
            )
        )
    return out
