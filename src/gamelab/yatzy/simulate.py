"""Whole-game simulation of a strategy, chunked through :func:`gamelab.core.parallel.run_tasks`.

Strategies: ``optimal`` (argmax expected final score, from the DP tables), ``greedy`` (each turn
maximises that turn's expected points, i.e. the same widget with all future values 0) and
``random`` (a uniformly random distinct sub-keep at each reroll, then a uniformly random legal
box). Games are played by the numba kernel :func:`gamelab.yatzy._play_kernels.play_games` from
pre-drawn uniforms, so a chunk's result depends only on its task seed (identical on any backend);
:func:`play_game_python` is the plain-Python twin built on :class:`gamelab.yatzy.card.Card`.

Cost: the decision tables of a state visited for the first time in the worker process or
thread, computed with those of three states of the same card (the vector widget's four lanes,
:func:`gamelab.yatzy._play_kernels.lane_decisions`; about 12 us for the four), kept for the
process (the tables of the default strategies persist between chunks, see
:func:`_decision_cache`), then about half a microsecond per turn.

Without a number of workers (nor a cluster) the chunks run in this process and each chunk's
games run side by side on threads (the game kernel releases the GIL): worker processes would
each start an interpreter and load the kernels (compile them, on a cold cache), threads share
one copy. A game's score depends on its uniforms only, so the numbers are the same whatever the
backend, the workers or the threads.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from gamelab.core import ahead
from gamelab.core.parallel import Backend, chunk_sizes, run_tasks
from gamelab.core.stats import Estimate, mean_interval_from_moments
from gamelab.core.threads import run_pieces, thread_count
from gamelab.yatzy._play_kernels import (
    STRATEGY_GREEDY,
    STRATEGY_OPTIMAL,
    STRATEGY_RANDOM,
    UNIFORMS_PER_TURN,
    play_games,
    play_games_cached,
)
from gamelab.yatzy._turn_kernels import decision_cache_arrays, roll_dice_python, workspace_arrays
from gamelab.yatzy._widget_kernels import new_lane_scratch
from gamelab.yatzy.card import Card
from gamelab.yatzy.rules import KEEPS, RULES, RuleSet, roll_index
from gamelab.yatzy.solver import is_solved, solve

STRATEGIES = {"optimal": STRATEGY_OPTIMAL, "greedy": STRATEGY_GREEDY, "random": STRATEGY_RANDOM}
CHUNK = 2000
#: what :func:`simulate` compiles ahead, beside its solve (:mod:`gamelab.core.ahead`); the
#: second when the command compiles the solver: it loads the widget's kernels the command compiled
AHEAD = "gamelab.yatzy.warmup:warm_simulation"
AHEAD_BESIDE_THE_SOLVER = "gamelab.yatzy.warmup:warm_simulation_beside_the_solver"
#: Decision tables kept per process and strategy (1.5 kB each; pages are only touched when used).
PROCESS_CACHE_SLOTS = 600_000
#: the most threads that play one chunk's games (each has a row of the decision cache)
THREAD_ROWS = 64


def strategy_code(name: str) -> int:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown strategy {name!r}; allowed: {', '.join(STRATEGIES)}") from None


@lru_cache(maxsize=4)
def strategy_values(rules: RuleSet, strategy: str) -> np.ndarray:
    """The state values a strategy plays by: the DP table for ``optimal``, zeros otherwise
    (greedy then maximises each turn's points). Cached per process."""
    if strategy == "optimal":
        return solve(rules).E
    return np.zeros(rules.n_states)


@lru_cache(maxsize=8)
def _decision_cache(rules: RuleSet, strategy: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(slot_of, tables, used) of :func:`gamelab.yatzy._play_kernels.play_games_cached`, kept for
    the life of the process so a state's decisions are computed once, not once per chunk, and
    shared by the threads that play a chunk's games (:mod:`gamelab.yatzy._atomic_ops`); its
    first :data:`THREAD_ROWS` rows are the threads' own (thread i: row i)."""
    size = strategy_values(rules, strategy).shape[0]
    decisions = decision_cache_arrays(size, min(size + 1, PROCESS_CACHE_SLOTS) + THREAD_ROWS)
    decisions[2][0] = THREAD_ROWS
    return decisions


def play_scores(
    rules: RuleSet,
    strategy: str,
    uniforms: np.ndarray,
    E: np.ndarray | None = None,
    threads: int = 1,
) -> np.ndarray:
    """Final scores of games played from `uniforms` [games, turns, 18] (numba).

    With the strategy's own values (E None) and a named rule set, the decision tables persist
    in the process between calls, and `threads` threads play consecutive parts of the games
    side by side (sharing the tables); with a given E they are computed afresh for this
    call, in this thread."""
    code = strategy_code(strategy)
    bundle = rules.kernel_rules()
    scores = np.empty(uniforms.shape[0], dtype=np.int64)
    if E is None and RULES.get(rules.name) is rules:
        E = strategy_values(rules, strategy)
        n, k = uniforms.shape[0], min(THREAD_ROWS, max(1, threads))
        parts = [(lane, lane * n // k, (lane + 1) * n // k) for lane in range(k)]
        parts = [part for part in parts if part[2] > part[1]]
        decisions = _decision_cache(rules, strategy)

        tables = None if code != STRATEGY_RANDOM else code  # None: no random branches

        def play(lane: int, lo: int, hi: int) -> None:
            play_games_cached(
                E,
                tables,
                uniforms[lo:hi],
                bundle,
                decisions,
                scores[lo:hi],
                workspace_arrays(rules.n_boxes),
                new_lane_scratch(rules.n_boxes),
                lane,
            )

        run_pieces(play, parts, threads)
        return scores
    if E is None:
        E = strategy_values(rules, strategy)
    play_games(E, code, uniforms, bundle, scores)
    return scores


def draw_uniforms(rules: RuleSet, games: int, rng: np.random.Generator) -> np.ndarray:
    return rng.random((games, rules.n_boxes, UNIFORMS_PER_TURN))


def simulate_chunk(
    item: tuple[RuleSet, str, int] | tuple[RuleSet, str, int, int], rng: np.random.Generator
) -> dict:
    """run_tasks worker: play item = (rules, strategy, games[, threads]); moments and
    histogram (the same whatever the threads)."""
    rules, strategy, games = item[0], item[1], item[2]
    threads = item[3] if len(item) > 3 else 1
    scores = play_scores(rules, strategy, draw_uniforms(rules, games, rng), threads=threads)
    return {
        "n": int(games),
        "sum": int(scores.sum()),
        "sumsq": int((scores**2).sum()),
        "hist": np.bincount(scores).tolist(),
    }


@dataclass
class SimulationResult:
    """Simulated games of one strategy: the mean with its interval, SD, score histogram; for
    the optimal strategy also the exact DP value and the z-score of the mean against it."""

    rules: str
    strategy: str
    games: int
    mean: Estimate
    std_dev: float
    histogram: np.ndarray
    seconds: float
    dp_value: float | None = None

    @property
    def z(self) -> float | None:
        """(mean - DP value) / standard error; None without a DP value or a spread."""
        if self.dp_value is None or self.games < 2 or self.std_dev == 0:
            return None
        return (self.mean.value - self.dp_value) / (self.std_dev / self.games**0.5)

    def __json__(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules,
            "strategy": self.strategy,
            "games": self.games,
            "mean": self.mean.value,
            "ci95": [self.mean.lo, self.mean.hi],
            "std_dev": self.std_dev,
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds if self.seconds > 0 else None,
        }
        if self.dp_value is not None:
            out.update(dp_value=self.dp_value, z=self.z)
        return out


def simulate(
    rules: RuleSet,
    strategy: str = "optimal",
    games: int = 10_000,
    seed: int = 0,
    backend: Backend | None = None,
    store=None,
    chunk: int = CHUNK,
) -> SimulationResult:
    """Play `games` games with `strategy`; the mean with a 95% CI.

    Without a backend (or one of local workers whose number is not given) the chunks run in
    this process, their games side by side on threads (the same numbers whatever the backend).
    """
    strategy_code(strategy)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    threads = 1
    if backend is None or (backend.workers is None and backend.resolved_cluster() is None):
        threads = thread_count()
        backend = Backend(workers=1, quiet=backend.quiet if backend is not None else False)
    # the workers' kernels compile in a second process while this one solves the tables
    target = AHEAD_BESIDE_THE_SOLVER if strategy == "optimal" and not is_solved(rules) else AHEAD
    ahead.start(target, (play_games_cached,))
    if strategy == "optimal":
        solve(rules)  # build the cached table once, before workers load it
    items = [(rules, strategy, n, threads) for n in chunk_sizes(games, chunk)]
    ahead.wait(target)
    t0 = time.perf_counter()
    results = run_tasks(
        simulate_chunk,
        items,
        seed=seed,
        backend=backend,
        label=f"yatzy {rules.name} {strategy}",
        store=store,
        experiment="yatzy-simulate",
        params={
            "rules": rules.name,
            "strategy": strategy,
            "games": games,
            "chunk": chunk,
            "seed": seed,
        },
    )
    seconds = time.perf_counter() - t0
    n = sum(r["n"] for r in results)
    total = sum(r["sum"] for r in results)
    total_sq = sum(r["sumsq"] for r in results)
    width = max(len(r["hist"]) for r in results)
    hist = np.zeros(width, dtype=np.int64)
    for r in results:
        hist[: len(r["hist"])] += np.asarray(r["hist"], dtype=np.int64)
    est = mean_interval_from_moments(float(total), float(total_sq), n)
    var = max(0.0, total_sq / n - (total / n) ** 2)
    dp_value = solve(rules).expected_score if strategy == "optimal" else None
    return SimulationResult(
        rules.name,
        strategy,
        n,
        est,
        float(np.sqrt(var * n / max(1, n - 1))),
        hist,
        seconds,
        dp_value,
    )


def play_game_python(
    rules: RuleSet, strategy: str, uniforms: np.ndarray, E: np.ndarray | None = None
) -> int:
    """Plain-Python twin of the game kernel: the same dice and decisions, scored by Card."""
    from gamelab.yatzy.coach import decision_tables
    from gamelab.yatzy.rules import SUBKEEP_INDEX, SUBKEEP_START

    if E is None:
        E = strategy_values(rules, strategy)
    card = Card.empty(rules)
    reroll = roll_dice_python
    for turn in range(rules.n_boxes):
        u = uniforms[turn]
        tables = None if strategy == "random" else decision_tables(rules, E, card)
        counts = reroll([0] * 6, u[0:5])
        for stage in range(2):
            r = roll_index(counts)
            if strategy == "random":
                lo, hi = int(SUBKEEP_START[r]), int(SUBKEEP_START[r + 1])
                k = int(SUBKEEP_INDEX[min(hi - 1, lo + int(u[15 + stage] * (hi - lo)))])
            else:
                assert tables is not None
                k = int(tables.keep1[r] if stage == 0 else tables.keep2[r])
            counts = reroll(KEEPS[k], u[5 + 5 * stage : 10 + 5 * stage])
        r = roll_index(counts)
        legal = [name for name, _, _ in rules.placements(counts, card)]
        if strategy == "random":
            order = [b for b in rules.boxes if b in legal]
            box = order[min(len(order) - 1, int(u[17] * len(order)))]
        else:
            assert tables is not None
            box = rules.boxes[int(tables.box3[r])]
            assert box in legal
        card.fill(box, counts)
    return card.total
