"""Optimal solitaire play: the expected-score-maximising strategy by dynamic programming.

Computes E(state) = the maximal expected remaining score, and W(state) = E[remaining^2] under
that strategy (for the standard deviation), for every reachable state (filled boxes, capped upper
total, Yahtzee-bonus flag), processing the states in layers of equal popcount from the full card
down (Glenn 2006, "An optimal strategy for Yahtzee", CS-TR-0002; Verhoeff 1999). The within-turn
widget uses the fast tricks in ``_widget_kernels`` (keep recursion, hoisted successors, sub-keep
lists).

Cost: about 15 k floating-point operations per widget; 536,320 states for American Yahtzee with
the bonus, 357,568 without, 1,430,464 for Scandinavian Yatzy, of which a third are solved by
copying: the states of one card whose upper bonus is settled (scored, or out of reach) are worth
the same, so one widget values them all (:func:`gamelab.yatzy._widget_kernels.solve_masks`);
the others go four at a time through one kernel call (``widget_lanes``: the four states are the
four lanes of vector instructions, :mod:`gamelab.yatzy._lane_ops`, about 1.7 us a state).
Tables (E and W as float64) are cached with :func:`gamelab.core.cache.cached_arrays`.

>>> sol = solve(RULES["yahtzee-no-bonus"])  # doctest: +SKIP
>>> round(sol.expected_score, 4)      # doctest: +SKIP
245.8708
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from gamelab.core.cache import cached_arrays, is_cached
from gamelab.yatzy._turn_kernels import state_index as kernel_state_index
from gamelab.yatzy._widget_kernels import solve_layer, solve_masks
from gamelab.yatzy.rules import FACES, RuleSet

CACHE_VERSION = 2


def timing_text(seconds: float, from_cache: bool, computed_seconds: float, verb: str) -> str:
    """How long a call took, in words (issue 29 item 19): a load from the cache is not a
    computation, so its stored computation time is said apart ("computed earlier in ...")."""
    if from_cache:
        return (
            f"loaded from the cache in {seconds:.1f} s; {verb} earlier in {computed_seconds:.1f} s"
        )
    return f"{verb} in {computed_seconds:.1f} s"


def timed_cached_arrays(
    name: str,
    params: Mapping[str, Any],
    version: int,
    compute: Callable[[], Mapping[str, np.ndarray]],
    use_cache: bool = True,
) -> tuple[dict[str, np.ndarray], bool, float]:
    """:func:`gamelab.core.cache.cached_arrays` (or `compute()` with ``use_cache=False``), with
    whether the arrays came from the cache and the seconds this call took."""
    started = time.perf_counter()
    computed = False

    def run() -> Mapping[str, np.ndarray]:
        nonlocal computed
        computed = True
        return compute()

    if use_cache:
        arrays = cached_arrays(name, params, version, run)
    else:
        arrays = {k: np.asarray(v) for k, v in run().items()}
    return arrays, not computed, time.perf_counter() - started


@lru_cache(maxsize=1)
def upper_reach() -> np.ndarray:
    """reach[u, m]: can the filled upper faces `u` (bit f-1 for face f) sum to capped total m?"""
    reach = np.zeros((64, 64), dtype=np.bool_)
    for u in range(64):
        sums = {0}
        for face in range(1, FACES + 1):
            if (u >> (face - 1)) & 1:
                sums = {min(63, s + k * face) for s in sums for k in range(6)}
        for s in sums:
            reach[u, s] = True
    return reach


def state_index(rules: RuleSet, mask: int, m: int, f: int) -> int:
    """Index of state (mask, m, f) in the value tables (see :mod:`gamelab.yatzy._turn_kernels`)."""
    return int(kernel_state_index(mask, m, f, rules.bonus_flags))


def masks_by_popcount(n_boxes: int) -> list[np.ndarray]:
    masks = np.arange(1 << n_boxes, dtype=np.int64)
    pop = np.array([bin(x).count("1") for x in range(1 << n_boxes)])
    return [masks[pop == k] for k in range(n_boxes + 1)]


@dataclass
class Solution:
    """Value tables of the optimal strategy for one rule set."""

    rules: RuleSet
    E: np.ndarray  # expected remaining score per state index
    W: np.ndarray  # E[remaining^2] per state index
    solve_seconds: float  # how long the DP took when the tables were computed
    widgets: int
    seconds: float = 0.0  # how long this call took (a load from the cache, or the solve)
    from_cache: bool = False  # the tables were computed earlier and loaded

    @property
    def expected_score(self) -> float:
        return float(self.E[0])

    @property
    def std_dev(self) -> float:
        return math.sqrt(max(0.0, float(self.W[0]) - float(self.E[0]) ** 2))

    def value(self, mask: int, m: int, f: int) -> float:
        return float(self.E[state_index(self.rules, mask, m, f)])

    def _repr_html_(self) -> str:
        """The summary as a table, in a notebook (:func:`gamelab.yatzy.pictures.solution_html`)."""
        from gamelab.yatzy.pictures import solution_html

        return solution_html(
            self.rules.name, self.expected_score, self.std_dev, self.widgets, self.solve_seconds
        )

    def __json__(self) -> dict[str, Any]:
        """The summary `gamelab yatzy solve --json` prints (not the tables)."""
        return {
            "rules": self.rules.name,
            "expected_score": self.expected_score,
            "std_dev": self.std_dev,
            "seconds": self.seconds,
            "from_cache": self.from_cache,
            "solve_seconds": self.solve_seconds,
            "widgets": self.widgets,
        }

    def timing(self) -> str:
        """How long this call took, in words: a load from the cache is not a solve."""
        return timing_text(self.seconds, self.from_cache, self.solve_seconds, "solved")


def compile_beside_the_solve(
    warm: Callable[[], None], kernels: Iterable[Any] = ()
) -> Callable[[], None]:
    """Run `warm` (a warm-up: small calls that compile kernels the caller needs after a solve)
    in a thread once the solver's kernels have machine code, while the solve's layers run on
    threads without the GIL (numba compiles holding it: the compiling and the solve share the
    cores). Returns the call that lets it finish, to make before the kernels' first use (a
    table loaded from the cache, not solved, lets it start then). Nothing runs when every one
    of `kernels` is in numba's cache; if `warm` fails, the kernels compile at their first use."""
    from gamelab.core import ahead

    kernels = tuple(kernels)
    if kernels and ahead.in_cache(kernels):
        return lambda: None
    loaded = threading.Event()

    def run() -> None:
        while not solve_masks.signatures and not loaded.wait(0.02):
            pass
        with contextlib.suppress(Exception):
            warm()

    thread = threading.Thread(target=run, name="gamelab-yatzy-compile", daemon=True)
    thread.start()

    def finish() -> None:
        loaded.set()
        thread.join()

    return finish


def solve_tables(
    rules: RuleSet, with_w: bool = True, progress: Callable[[str], None] | None = None
) -> tuple[np.ndarray, np.ndarray, int]:
    """Run the DP (no cache): (E, W, widgets solved). `progress` is told after each layer how
    far the solve is, in words ("40 % done: 10 of 15 boxes to go")."""
    bundle = rules.kernel_rules()
    E = np.zeros(rules.n_states)
    W = np.zeros(rules.n_states)
    reach = upper_reach()
    widgets = 0
    layers = masks_by_popcount(rules.n_boxes)
    done, total = 0, sum(len(layer) for layer in layers[:-1])
    for k in range(rules.n_boxes - 1, -1, -1):
        widgets += int(solve_layer(E, W, with_w, layers[k], reach, bundle))
        done += len(layers[k])
        if progress is not None:
            progress(f"{100 * done // total} % done: cards with {k} boxes filled solved")
    return E, W, widgets


def solve(
    rules: RuleSet, use_cache: bool = True, progress: Callable[[str], None] | None = None
) -> Solution:
    """The optimal-strategy tables of `rules` (cached on disk); `progress` hears of a solve's
    layers (nothing when the tables are loaded)."""

    def compute() -> dict[str, np.ndarray]:
        t0 = time.perf_counter()
        E, W, widgets = solve_tables(rules, progress=progress)
        return {
            "E": E,
            "W": W,
            "seconds": np.array(time.perf_counter() - t0),
            "widgets": np.array(widgets),
        }

    arrays, from_cache, seconds = timed_cached_arrays(
        "yatzy-values", _cache_params(rules), CACHE_VERSION, compute, use_cache
    )
    return Solution(
        rules,
        arrays["E"],
        arrays["W"],
        float(arrays["seconds"]),
        int(arrays["widgets"]),
        seconds=seconds,
        from_cache=from_cache,
    )


def _cache_params(rules: RuleSet) -> dict[str, Any]:
    return {"rules": rules.name, "boxes": list(rules.boxes), "joker": rules.joker}


def is_solved(rules: RuleSet) -> bool:
    """Whether the tables of `rules` are on disk already (:func:`solve` then only loads them)."""
    return is_cached("yatzy-values", _cache_params(rules), CACHE_VERSION)
