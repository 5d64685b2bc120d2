"""Win play measured: how much playing for the win in the last K turns gains against an
expected-score opponent, over seeded games (:func:`winplay_study`), and from the empty card
(:func:`win_from_start`); the solves are :mod:`gamelab.yatzy.winplay`'s, the policies compared
(``expectation``, ``single``, ``retarget``) are described there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from gamelab.core import ahead
from gamelab.core.cache import cached_arrays
from gamelab.core.parallel import Backend, chunk_sizes, run_tasks
from gamelab.core.stats import Difference, Estimate, mean_interval, paired_difference
from gamelab.core.threads import run_pieces, thread_count
from gamelab.yatzy._distribution_kernels import forward_layer
from gamelab.yatzy._play_kernels import (
    UNIFORMS_PER_TURN,
    decided_turn,
    expectation_turn,
    play_to_round,
    round_scratch,
)
from gamelab.yatzy._turn_kernels import (
    split_state,
)
from gamelab.yatzy._utility_kernels import utility_rows
from gamelab.yatzy._widget_kernels import best_lanes, final_lanes, keep_lanes, solve_masks
from gamelab.yatzy.rules import (
    RULES,
    RuleSet,
)
from gamelab.yatzy.solver import is_solved
from gamelab.yatzy.winplay import (
    WinSolution,
    decision_scratch,
    expectation_win_probability,
    expected_values,
    final_score_law,
    laws_win_probability,
    reachable_states,
    solve_win,
)

#: what a study on threads compiles in a second process (:mod:`gamelab.core.ahead`) while it
#: compiles the solves' kernel and the switch positions' itself: the solver's kernel (with the
#: vector widget that the switch positions and the laws use too), then the laws'; or the laws'
#: alone when the table is cached
TABLE_AHEAD = "gamelab.yatzy.warmup:warm_winplay_table"
LAWS_AHEAD = "gamelab.yatzy.warmup:warm_winplay_law"


def _split(j: int, nf: int) -> tuple[int, int, int]:
    mask, m, f = split_state(j, nf)
    return int(mask), int(m), int(f)


def switch_states(rules: RuleSet, turns_left: int, ua: np.ndarray, ub: np.ndarray):
    """(A, B) states [games, 4] after 13 - K rounds of expected-score play on the uniforms."""
    E = expected_values(rules)
    rounds = np.array([rules.n_boxes - turns_left], dtype=np.int64)
    out = []
    for u in (ua, ub):
        pos = np.zeros((u.shape[0], 1, 4), dtype=np.int64)
        play_to_round(
            E, u, rounds, rules.kernel_rules(), pos, *round_scratch(rules.n_boxes, len(E))
        )
        out.append(pos[:, 0, :])
    return out[0], out[1]


def play_endgame(
    rules: RuleSet,
    a_state,
    b_state,
    ua,
    ub,
    policy: str,
    a_first: bool,
    single: WinSolution | None = None,
    E: np.ndarray | None = None,
    parallel: bool = True,
) -> dict:
    """Finish one game from the switch; ua/ub [13, 18] uniforms, turns from the switch on.

    policy: 'expectation', 'single' (needs `single`) or 'retarget' (reuses `single` while B's
    state is still the switch state). Returns A's and B's final scores, A's win value
    (1, 0.5, 0) and the seconds spent in solves. parallel=False: the re-targeting solves in
    this thread (:func:`gamelab.yatzy.winplay.solve_win`'s `parallel`).
    """
    if policy not in ("expectation", "single", "retarget"):
        raise ValueError(f"policy must be expectation, single or retarget, got {policy!r}")
    if policy == "single" and single is None:
        raise ValueError("the single policy needs the switch solve (single=...)")
    if E is None:
        E = expected_values(rules)
    bundle = rules.kernel_rules()
    nf = rules.bonus_flags
    nb = rules.n_boxes
    full = (1 << nb) - 1
    ma, mma, fa, sa = (int(x) for x in a_state)
    mb, mmb, fb, sb = (int(x) for x in b_state)
    start_b = (mb, mmb, fb, sb)
    scratch = decision_scratch(nb)
    solve_seconds = 0.0
    taken = 0

    def b_turn():
        nonlocal mb, mmb, fb, sb
        pts, j = expectation_turn(E, mb, mmb, fb, ub[bin(mb).count("1")], bundle, scratch)
        sb += int(pts)
        mb, mmb, fb = _split(int(j), nf)

    while ma != full or mb != full:
        if not a_first and mb != full:
            b_turn()
        if ma != full:
            u = ua[bin(ma).count("1")]  # the uniforms of A's turn number
            if policy == "expectation":
                pts, j = expectation_turn(E, ma, mma, fa, u, bundle, scratch)
            else:
                if policy == "single":
                    sol, jt = single, taken
                elif taken == 0 and (mb, mmb, fb, sb) == start_b and single is not None:
                    sol, jt = single, 0
                else:
                    law = final_score_law(rules, (mb, mmb, fb, sb), E)
                    sol = solve_win(rules, (ma, mma, fa, sa), law, parallel=parallel)
                    solve_seconds += sol.seconds
                    jt = 0
                assert sol is not None
                box3, keep2, keep1 = sol.decisions(jt, ma, mma, fa, sa, scratch)
                pts, j = decided_turn(box3, keep2, keep1, u, ma, mma, fa, bundle)
            sa += int(pts)
            ma, mma, fa = _split(int(j), nf)
            taken += 1
        if a_first and mb != full:
            b_turn()
    win = 1.0 if sa > sb else (0.5 if sa == sb else 0.0)
    return {"a": sa, "b": sb, "win": win, "solve_seconds": solve_seconds}


def winplay_chunk(item: tuple, rng: np.random.Generator) -> list[dict]:
    """run_tasks worker: item = (rules, K, games, a_first, simulate, threads) -> one record per
    game.

    simulate=False records only the exact values (no endgame simulations); threads > 1 plays
    the games side by side on that many threads (the same records: each game's solves run in
    its thread, :func:`gamelab.yatzy.winplay.solve_win` with ``parallel=False``)."""
    rules, turns_left, games, a_first, simulate, threads = item
    E = expected_values(rules)
    ua = rng.random((games, rules.n_boxes, UNIFORMS_PER_TURN))
    ub = rng.random((games, rules.n_boxes, UNIFORMS_PER_TURN))
    sa, sb = switch_states(rules, turns_left, ua, ub)
    parallel = threads <= 1

    def record(g: int) -> dict:
        a = (int(sa[g][0]), int(sa[g][1]), int(sa[g][2]), int(sa[g][3]))
        b = (int(sb[g][0]), int(sb[g][1]), int(sb[g][2]), int(sb[g][3]))
        law_b = final_score_law(rules, b, E)
        reach_a = reachable_states(rules, a[0], a[1], a[2])
        t0 = time.perf_counter()
        single = solve_win(rules, a, law_b, keep_all=simulate, reach=reach_a, parallel=parallel)
        solve_s = time.perf_counter() - t0
        exp_exact = laws_win_probability(final_score_law(rules, a, E, reach_a), law_b)
        if single.value < exp_exact - 1e-9:
            raise AssertionError(f"win-play value {single.value} below expectation {exp_exact}")
        rec = {
            "a": list(a),
            "b": list(b),
            "exp_exact": exp_exact,
            "single_exact": single.value,
            "single_seconds": solve_s,
            "L": single.length,
            "states": int(sum(len(x[0]) for x in single.reach.layers)),
        }
        if not simulate:
            return rec
        t0 = time.perf_counter()
        for policy in ("expectation", "single", "retarget"):
            res = play_endgame(rules, a, b, ua[g], ub[g], policy, a_first, single, E, parallel)
            rec[policy] = res["win"]
        rec["retarget_seconds"] = time.perf_counter() - t0
        return rec

    return run_pieces(record, [(g,) for g in range(games)], threads)


#: ranges of A's exact expectation-play win chance over which the win-play gain is averaged
GAIN_BUCKETS = ((0.0, 0.1), (0.1, 0.3), (0.3, 0.7), (0.7, 0.9), (0.9, 1.01))


@dataclass(frozen=True)
class GainBucket:
    """The mean exact win-play gain over the games whose expectation-play chance lies in
    `chance` = [lo, hi)."""

    chance: tuple[float, float]
    games: int
    mean_gain: float | None


@dataclass(frozen=True)
class WinPlayStudy:
    """Win rates (ties half) of expectation play, one win-play solve at the switch, and (when
    simulated) re-targeting win play, over sampled switch positions; exact values per game."""

    rules: str
    turns_left: int
    games: int
    a_first: bool
    seed: int
    expectation_exact: Estimate
    single_exact: Estimate
    single_minus_expectation: Difference
    gain_quantiles: dict[str, float]
    gain_by_expectation_chance: list[GainBucket]
    seconds_per_single_solve: float
    max_seconds_single_solve: float
    mean_vector_length: float
    mean_states_per_solve: float
    wall_seconds: float
    expectation_simulated: Estimate | None = None
    single_simulated: Estimate | None = None
    retarget_simulated: Estimate | None = None
    retarget_minus_single: Difference | None = None
    retarget_differs_from_single: float | None = None
    retarget_minus_expectation_simulated: Difference | None = None
    seconds_per_game_endgames: float | None = None

    def __json__(self) -> dict[str, Any]:
        # the simulated quantities are absent (not null) in an exact-only study
        return {
            f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None
        }


def winplay_study(
    rules: RuleSet = RULES["yahtzee-no-bonus"],
    turns_left: int = 5,
    games: int = 1000,
    seed: int = 0,
    a_first: bool = True,
    chunk: int = 20,
    backend: Backend | None = None,
    store=None,
    simulate: bool = True,
) -> WinPlayStudy:
    """Win rates (ties count half) of expectation, single-solve and re-targeting win play.

    simulate=False: only the exact per-game values (expectation and single solve). Without a
    backend (or one of local workers whose number is not given) the games run in this
    process, side by side on threads: each worker process would compile the kernels again on
    a first run, and threads share one copy (the same records whatever the backend)."""
    if not 1 <= turns_left <= rules.n_boxes:
        raise ValueError(f"turns left must be 1 to {rules.n_boxes}, got {turns_left}")
    if games < 2:
        raise ValueError(f"games must be at least 2, got {games}")
    threads = 1
    if backend is None or (backend.workers is None and backend.resolved_cluster() is None):
        threads = thread_count()
        backend = Backend(workers=1, quiet=backend.quiet if backend is not None else False)
    target = None
    if threads > 1:
        # on a cold cache the solver's kernel and the laws' compile in a second process while
        # this one compiles the solves'; then the switch positions', once the vector widget
        # they share with the solver is there; the table is solved once the solver's kernel
        # is there, on every core
        solved = is_solved(rules)
        target = LAWS_AHEAD if solved else TABLE_AHEAD
        ahead.start(target, (forward_layer,) if solved else (solve_masks, forward_layer))
        from gamelab.yatzy import warmup

        if not ahead.in_cache((utility_rows,)):
            warmup.warm_winplay_solve()
        if not ahead.in_cache((play_to_round,)):
            ahead.wait_until_cached(target, (final_lanes, keep_lanes, best_lanes))
            warmup.warm_winplay_switches()
        if not solved:
            ahead.wait_until_cached(target, (solve_masks,))
            expected_values(rules)
        ahead.wait(target)
    expected_values(rules)  # build the cached table before workers load it
    items = [(rules, turns_left, n, a_first, simulate, threads) for n in chunk_sizes(games, chunk)]
    params = {
        "rules": rules.name,
        "turns_left": turns_left,
        "games": games,
        "seed": seed,
        "a_first": a_first,
        "chunk": chunk,
    }
    if not simulate:
        params["simulate"] = False
    t0 = time.perf_counter()
    results = run_tasks(
        winplay_chunk,
        items,
        seed=seed,
        backend=backend,
        label=f"yatzy win play K={turns_left}",
        store=store,
        experiment="yatzy-winplay",
        params=params,
    )
    wall = time.perf_counter() - t0
    recs = [r for chunk_recs in results for r in chunk_recs]
    keys = ["exp_exact", "single_exact", "single_seconds", "L", "states"]
    if simulate:
        keys += ["expectation", "single", "retarget", "retarget_seconds"]
    col = {k: np.array([r[k] for r in recs], dtype=float) for k in keys}

    gain = col["single_exact"] - col["exp_exact"]
    simulated: dict[str, Any] = {}
    if simulate:
        simulated = dict(
            expectation_simulated=mean_interval(col["expectation"]),
            single_simulated=mean_interval(col["single"]),
            retarget_simulated=mean_interval(col["retarget"]),
            retarget_minus_single=paired_difference(col["retarget"], col["single"]),
            retarget_differs_from_single=float((col["retarget"] != col["single"]).mean()),
            retarget_minus_expectation_simulated=paired_difference(
                col["retarget"], col["expectation"]
            ),
            seconds_per_game_endgames=float(col["retarget_seconds"].mean()),
        )
    return WinPlayStudy(
        rules=rules.name,
        turns_left=turns_left,
        games=len(recs),
        a_first=a_first,
        seed=seed,
        expectation_exact=mean_interval(col["exp_exact"]),
        single_exact=mean_interval(col["single_exact"]),
        single_minus_expectation=paired_difference(col["single_exact"], col["exp_exact"]),
        gain_quantiles={str(q): float(np.quantile(gain, q)) for q in (0.0, 0.5, 0.9, 0.99, 1.0)},
        gain_by_expectation_chance=[
            GainBucket((lo, hi), int(sel.sum()), float(gain[sel].mean()) if sel.any() else None)
            for lo, hi in GAIN_BUCKETS
            for sel in [(col["exp_exact"] >= lo) & (col["exp_exact"] < hi)]
        ],
        seconds_per_single_solve=float(col["single_seconds"].mean()),
        max_seconds_single_solve=float(col["single_seconds"].max()),
        mean_vector_length=float(col["L"].mean()),
        mean_states_per_solve=float(col["states"].mean()),
        wall_seconds=wall,
        **simulated,
    )


@dataclass(frozen=True)
class WinFromStart:
    """Win play from the empty card (K = all turns): A's best P(win) (`single`) against the
    expected-score player, and expectation play's (`expectation`, exactly one half)."""

    rules: str
    turns_left: int
    single: float
    expectation: float
    seconds: float
    states: float
    length: float


def win_from_start(
    rules: RuleSet = RULES["yahtzee-no-bonus"], use_cache: bool = True
) -> WinFromStart:
    """K = all turns: A plays for the win from the empty card against B's whole-game law.

    Both players start from the same state, so nothing is sampled: expectation play wins
    exactly half (ties counting half) and the solve's value is A's best win probability when
    it does not watch B's turns (cached; a few core-minutes without the Yahtzee bonus).
    """

    def compute() -> dict[str, np.ndarray]:
        E = expected_values(rules)
        law = final_score_law(rules, (0, 0, 0, 0), E)
        sol = solve_win(rules, (0, 0, 0, 0), law, keep_all=False)
        exp = expectation_win_probability(rules, (0, 0, 0, 0), (0, 0, 0, 0), E)
        states = sum(len(x[0]) for x in sol.reach.layers)
        return {
            "single": np.array(sol.value),
            "expectation": np.array(exp),
            "seconds": np.array(sol.seconds),
            "states": np.array(states),
            "length": np.array(sol.length),
        }

    params = {"rules": rules.name, "boxes": list(rules.boxes)}
    arrays = cached_arrays("yatzy-winplay-start", params, 1, compute) if use_cache else compute()
    return WinFromStart(
        rules.name,
        rules.n_boxes,
        float(arrays["single"]),
        float(arrays["expectation"]),
        float(arrays["seconds"]),
        float(arrays["states"]),
        float(arrays["length"]),
    )


#: The measurement in docs/yatzy.md and the report (resumed from the result store).
REPORT_STUDY: dict[str, Any] = {
    "rules": RULES["yahtzee-no-bonus"],
    "turns_left": 8,
    "games": 1000,
    "seed": 1,
    "a_first": True,
    "chunk": 20,
}


#: The exact-only measurements at other K (docs/yatzy.md), resumed from the result store.
REPORT_EXACT_STUDIES: tuple[dict[str, Any], ...] = tuple(
    {
        "rules": RULES["yahtzee-no-bonus"],
        "turns_left": k,
        "games": n,
        "seed": 1,
        "a_first": True,
        "chunk": c,
        "simulate": False,
    }
    for k, n, c in (
        (1, 1000, 50),
        (2, 1000, 50),
        (3, 1000, 50),
        (4, 1000, 50),
        (5, 1000, 50),
        (6, 1000, 50),
        (7, 1000, 50),
        (10, 100, 10),
    )
)
