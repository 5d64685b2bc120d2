"""The campaign-optimal policy of issue 26 item 3, chosen on one sample of deals and evaluated
on another (the chain, the round profiles and the round search: :mod:`gamelab.voltorb.campaign`).

**Samples.** Sample A (``choose``) and sample B (``evaluate``) are independent seeded deals per
level: deal j of block i of sample X at level L is the j-th board dealt with
``core.parallel.task_rng(sample_seed(seed, L, X), i)``. Every block is one ``core.parallel``
task in the results store, so the samples grow across sessions (the same command with more
deals computes only the new blocks). A block returns per deal the exact round profiles of
always-``win`` and always-``coins`` play (:func:`baseline_block`) or of the round search for a
given h at each streak of the level (:func:`search_block`).

**Hard deals.** A baseline search past `state_limit` leaves the deal out of its sample for every
policy (counted: ``dropped``). A round search past `search_limit` plays, at that state and
deal, the round policy the policy it improves on plays there (counted: ``fallbacks``); that
rule is part of the policy's definition, so the policy evaluated on sample B is exactly the one
described, with no deal dropped. Likewise the round search runs only at the states where the
menu (on A) plays at least `min_share` of its rounds; elsewhere the policy plays the menu's
round.

**Goal 1, coins per round.** On sample A: the menu policy (win- or coins-play per state, policy
iteration), then `iterations` improvement steps with the round search for coins + h. The chosen
policy is the step with the best gain on A: "the round search for coins + h_A", h_A the relative
values that step used (40 numbers). On sample B it is evaluated against always-``win``,
always-``coins`` and the menu chosen on A, with paired bootstrap intervals over B's deals (every
policy's chain recomputed on each resample of B's deals, per level).

**Goal 2, rounds to reach level 8** from level 1 (streak 0), a stochastic shortest path on the
same chain: T(s) = 1 + sum_s' P(s, s') T(s'), T = 0 at level 8. The menu minimising T (policy
iteration over win/coins per state), then one improvement step with the round search for
-T(next state) (no coins), chosen on A and evaluated on B like goal 1.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from gamelab.voltorb.campaign import (
    BASELINES,
    LEVELS,
    OUTCOMES,
    STATES,
    STREAK_CAP,
    campaign_profile,
    chain_of,
    solve_chain,
    state_index,
)
from gamelab.voltorb.rules import TILES, BoardGenerator, VoltorbSetting

SAMPLES = ("choose", "evaluate")
PROFILE_SHAPE = (2, len(OUTCOMES), TILES + 1)
EXPERIMENT = "voltorb-campaign-study"


def sample_seed(seed: int, level: int, sample: str) -> int:
    """The run seed of one sample's blocks at one level (independent streams)."""
    return seed * 1000 + 10 * level + SAMPLES.index(sample) + 1


def _deal(generator: str, level: int, rng: np.random.Generator):
    from gamelab.voltorb.posterior import Posterior
    from gamelab.voltorb.rules import Clues, generate_board

    setting = VoltorbSetting(level, generator)
    board, _ = generate_board(setting, rng)
    return Posterior.from_clues(Clues.from_board(board), setting)


def baseline_block(item: tuple[int, str, int, int], rng: np.random.Generator) -> dict[str, Any]:
    """Per deal the exact round profiles of always-win and always-coins play (None for both
    when either search passes the state limit)."""
    from gamelab.voltorb.campaign import baseline_profile
    from gamelab.voltorb.expectimax import SearchLimitError

    level, generator, block, limit = item
    t0 = time.process_time()
    out: dict[str, list] = {b: [] for b in BASELINES}
    for _ in range(block):
        post = _deal(generator, level, rng)
        try:
            profs = {b: baseline_profile(post, b, limit).tolist() for b in BASELINES}
        except SearchLimitError:
            profs = {b: None for b in BASELINES}
        for b in BASELINES:
            out[b].append(profs[b])
    return {**out, "cpu": time.process_time() - t0}


def search_block(
    item: tuple[int, str, int, int, tuple[float, ...], float, tuple[int, ...]],
    rng: np.random.Generator,
) -> dict[str, Any]:
    """Per deal and each streak k in `ks` of the level, the exact profile of the round search
    for coin_weight x coins + h(next state) (None past the search limit; streaks not in `ks`
    are not searched and are None too)."""
    from gamelab.voltorb.expectimax import SearchLimitError

    level, generator, block, limit, h, coin_weight, ks = item
    harr = np.asarray(h, dtype=np.float64)
    t0 = time.process_time()
    rows = []
    for _ in range(block):
        post = _deal(generator, level, rng)
        row: list[list | None] = []
        for k in range(STREAK_CAP + 1):
            if k not in ks:
                row.append(None)
                continue
            try:
                prof = campaign_profile(post, state_index(level, k), harr, limit, coin_weight)
                row.append(prof.tolist())
            except SearchLimitError:
                row.append(None)
        rows.append(row)
    return {"profiles": rows, "cpu": time.process_time() - t0}


@dataclass(frozen=True)
class StudySettings:
    """Deals per level of sample A (`choose`) and B (`evaluate`), in blocks of `block`."""

    choose: tuple[int, ...] = (20,) * 8
    evaluate: tuple[int, ...] = (20,) * 8
    block: int = 5
    seed: int = 0
    generator: BoardGenerator = BoardGenerator.HGSS
    state_limit: int = 5_000_000
    search_limit: int = 300_000
    iterations: int = 1
    bootstrap: int = 1000
    min_share: float = 0.005

    def __post_init__(self) -> None:
        for name in ("choose", "evaluate"):
            deals = getattr(self, name)
            if len(deals) != len(LEVELS) or any(not 1 <= d <= 100_000 for d in deals):
                raise ValueError(f"{name}: one count per level 1-8, each from 1 to 100000")
        if not 1 <= self.block <= 1000:
            raise ValueError(f"block must be from 1 to 1000, got {self.block}")
        if not 0 <= self.iterations <= 10:
            raise ValueError(f"iterations must be from 0 to 10, got {self.iterations}")


class _Runner:
    def __init__(self, settings: StudySettings, backend, store) -> None:
        self.st = settings
        self.backend = backend
        self.store = store

    def blocks(self, sample: str, level: int) -> int:
        deals = getattr(self.st, sample)[level - 1]
        return -(-deals // self.st.block)

    def run(self, fn, sample: str, level: int, item: tuple, tag: str) -> list[dict[str, Any]]:
        from gamelab.core.parallel import run_tasks

        seed = sample_seed(self.st.seed, level, sample)
        params = {"sample": sample, "level": level, "tag": tag, "item": list(item)}
        return run_tasks(
            fn,
            [item] * self.blocks(sample, level),
            seed=seed,
            backend=self.backend,
            label=f"campaign {sample} L{level} {tag}",
            store=self.store,
            experiment=EXPERIMENT if self.store is not None else None,
            params=params if self.store is not None else None,
        )

    def baselines(self, sample: str) -> tuple[dict[str, dict[int, np.ndarray]], dict, dict]:
        """Per baseline and level the profiles of the kept deals (n x 2 x 3 x 26), the kept
        deals' positions in the sample, and the dropped count per level."""
        st = self.st
        prof: dict[str, dict[int, np.ndarray]] = {b: {} for b in BASELINES}
        kept: dict[int, np.ndarray] = {}
        dropped: dict[int, int] = {}
        for level in LEVELS:
            item = (level, st.generator, st.block, st.state_limit)
            res = self.run(baseline_block, sample, level, item, "baselines")
            n = getattr(st, sample)[level - 1]
            win = [p for r in res for p in r["win"]][:n]
            coins = [p for r in res for p in r["coins"]][:n]
            ok = [j for j in range(n) if win[j] is not None and coins[j] is not None]
            if not ok:
                raise ValueError(f"every deal of level {level} passed the state limit")
            kept[level] = np.array(ok)
            dropped[level] = n - len(ok)
            prof["win"][level] = np.array([win[j] for j in ok])
            prof["coins"][level] = np.array([coins[j] for j in ok])
        return prof, kept, dropped

    def searched(
        self,
        sample: str,
        h: np.ndarray,
        coin_weight: float,
        kept: dict[int, np.ndarray],
        fallback: dict[int, np.ndarray],
        states: set[int],
    ) -> tuple[dict[int, np.ndarray], int]:
        """Per level the searched profiles (n x 5 x 2 x 3 x 26) for h at the state indices
        `states`, elsewhere and for a search past the limit `fallback` (same shape); the count
        of searches past the limit."""
        st = self.st
        hkey = tuple(round(float(x), 9) for x in h)
        out: dict[int, np.ndarray] = {}
        fallbacks = 0
        for level in LEVELS:
            ks = tuple(k for k in range(STREAK_CAP + 1) if state_index(level, k) in states)
            if not ks:
                out[level] = fallback[level]
                continue
            item = (level, st.generator, st.block, st.search_limit, hkey, coin_weight, ks)
            res = self.run(search_block, sample, level, item, "search")
            rows = [r for b in res for r in b["profiles"]]
            arr = fallback[level].copy()
            for i, j in enumerate(kept[level]):
                for k in ks:
                    if rows[j][k] is None:
                        fallbacks += 1
                    else:
                        arr[i, k] = np.asarray(rows[j][k])
            out[level] = arr
        return out, fallbacks


def _per_state(by_level: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """A baseline's (n x 2 x 3 x 26) per level as (n x 5 x 2 x 3 x 26): the same at every k."""
    return {lv: np.repeat(a[:, None], STREAK_CAP + 1, axis=1) for lv, a in by_level.items()}


def _means(policy: dict[int, np.ndarray], pick: dict[int, np.ndarray] | None = None) -> np.ndarray:
    """The per-state mean profile (S x 2 x 3 x 26) of a policy's per-level arrays."""
    out = np.zeros((len(STATES),) + PROFILE_SHAPE)
    for s, (level, k) in enumerate(STATES):
        arr = policy[level] if pick is None else policy[level][pick[level]]
        out[s] = arr[:, k].mean(axis=0)
    return out


def rounds_to_eight(profiles: np.ndarray) -> np.ndarray:
    """T(s): expected rounds until the first round at level 8, from each state (0 at level 8),
    for the chain whose states have the mean round `profiles`; inf where level 8 is never
    reached."""
    _, P = chain_of(profiles)
    live = np.array([lv < 8 for lv, _ in STATES])
    A = np.eye(int(live.sum())) - P[np.ix_(live, live)]
    T = np.zeros(len(STATES))
    try:
        T[live] = np.linalg.solve(A, np.ones(int(live.sum())))
    except np.linalg.LinAlgError:
        T[live] = np.inf
    return T


def _menu(base: dict[str, np.ndarray], goal: str) -> tuple[list[str], np.ndarray, float]:
    """Policy iteration over win/coins per state on mean profiles `base[b]` (S x ...): for
    ``gain`` the most coins per round (returns h, gain), for ``rounds`` the fewest expected
    rounds to level 8 from (1, 0) (returns -T, T(1, 0))."""
    choice = ["coins"] * len(STATES)
    for _ in range(60):
        prof = np.stack([base[c][s] for s, c in enumerate(choice)])
        if goal == "gain":
            chain = solve_chain(prof)
            value, score = chain.h, chain.gain
        else:
            value = -rounds_to_eight(prof)
            score = float(-value[0])
        better = []
        for s in range(len(STATES)):
            q = {}
            for b in BASELINES:
                r, P = chain_of(base[b][s : s + 1].repeat(len(STATES), axis=0))
                q[b] = (r[s] if goal == "gain" else -1.0) + P[s] @ value
            keep = choice[s]
            better.append(keep if q[keep] >= max(q.values()) - 1e-9 else max(q, key=q.__getitem__))
        if better == choice:
            break
        choice = better
    return choice, value, score


def occupancy(goal: str, means: np.ndarray) -> np.ndarray:
    """The share of rounds at each state: long-run (``gain``), or of the rounds before the
    first round at level 8, from (1, 0) (``rounds``; 0 at level 8)."""
    if goal == "gain":
        return solve_chain(means).share
    _, P = chain_of(means)
    live = np.array([lv < 8 for lv, _ in STATES])
    start = np.zeros(int(live.sum()))
    start[0] = 1.0
    visits = np.zeros(len(STATES))
    A = np.eye(int(live.sum())) - P[np.ix_(live, live)]
    visits[live] = np.linalg.solve(A.T, start)
    return visits / visits.sum()


def _score(goal: str, means: np.ndarray) -> float:
    return solve_chain(means).gain if goal == "gain" else float(rounds_to_eight(means)[0])


def _shares(means: np.ndarray) -> list[float]:
    share = solve_chain(means).share.reshape(len(LEVELS), STREAK_CAP + 1).sum(axis=1)
    return [float(x) for x in share]


def campaign_study(
    settings: StudySettings,
    backend=None,
    store=None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Both goals, chosen on sample A and evaluated on sample B (module doc). Returns a
    JSON-able summary: per goal and policy the score on B with its paired bootstrap interval
    against always-win and always-coins, the level shares, and the counts of dropped deals and
    fallbacks."""
    from gamelab.core.parallel import Backend

    st = settings
    say = progress or (lambda _line: None)
    run = _Runner(st, backend or Backend(workers=1, quiet=True), store)
    t0 = time.monotonic()
    base_a, kept_a, dropped_a = run.baselines("choose")
    base_b, kept_b, dropped_b = run.baselines("evaluate")
    say(f"baselines: dropped per level A {dropped_a}, B {dropped_b}")
    pa = {b: _per_state(base_a[b]) for b in BASELINES}
    pb = {b: _per_state(base_b[b]) for b in BASELINES}
    means_a = {b: _means(pa[b]) for b in BASELINES}
    summary: dict[str, Any] = {
        "settings": {
            "choose": list(st.choose),
            "evaluate": list(st.evaluate),
            "block": st.block,
            "seed": st.seed,
            "generator": st.generator,
            "state_limit": st.state_limit,
            "search_limit": st.search_limit,
            "iterations": st.iterations,
            "bootstrap": st.bootstrap,
            "min_share": st.min_share,
        },
        "dropped": {"choose": dropped_a, "evaluate": dropped_b},
        "goals": {},
    }
    for goal in ("gain", "rounds"):
        choice, value, score = _menu(means_a, goal)
        say(f"{goal}: menu on A {score:.2f} ({''.join(c[0] for c in choice)})")

        def menu_of(p: dict[str, dict[int, np.ndarray]], ch: list[str] = choice):
            return {
                lv: np.stack(
                    [p[ch[state_index(lv, k)]][lv][:, k] for k in range(STREAK_CAP + 1)], axis=1
                )
                for lv in LEVELS
            }

        policy_a = menu_of(pa)
        weight = 1.0 if goal == "gain" else 0.0
        # the round search runs at the states where the menu plays at least `min_share` of its
        # rounds (on A); elsewhere the policy plays the menu's round (part of its definition)
        occ = occupancy(goal, _means(policy_a))
        states = {s for s in range(len(STATES)) if occ[s] >= st.min_share}
        steps: list[tuple[float, np.ndarray | None, int]] = [(score, None, 0)]
        current = policy_a
        for it in range(st.iterations):
            nxt, fb = run.searched("choose", value, weight, kept_a, current, states)
            m = _means(nxt)
            sc = _score(goal, m)
            steps.append((sc, value.copy(), fb))
            say(f"{goal}: step {it + 1} on A {sc:.2f} ({fb} fallbacks)")
            current = nxt
            value = solve_chain(m).h if goal == "gain" else -rounds_to_eight(m)
        # the chosen policy: the step with the best score on A (its h), else the menu
        scores = [s for s, _, _ in steps]
        best = int(np.argmax(scores) if goal == "gain" else np.argmin(scores))
        best_h = steps[best][1]
        policies_b = {"win": pb["win"], "coins": pb["coins"], "menu": menu_of(pb)}
        fallbacks_b = 0
        if best_h is not None:
            policies_b["campaign"], fallbacks_b = run.searched(
                "evaluate", best_h, weight, kept_b, policies_b["menu"], states
            )
        names = list(policies_b)
        point = {n: _score(goal, _means(policies_b[n])) for n in names}
        rng = np.random.default_rng([st.seed, 26, 3])
        boot: dict[str, list[float]] = {n: [] for n in names}
        for _ in range(st.bootstrap):
            pick = {lv: rng.integers(0, len(kept_b[lv]), len(kept_b[lv])) for lv in LEVELS}
            for n in names:
                boot[n].append(_score(goal, _means(policies_b[n], pick)))
        rows = []
        for n in names:
            b = np.asarray(boot[n])
            row = {
                "policy": n,
                "value": point[n],
                "ci95": [float(x) for x in np.percentile(b, [2.5, 97.5])],
                "level_share": _shares(_means(policies_b[n])),
            }
            for ref in ("win", "coins"):
                if n != ref:
                    d = b - np.asarray(boot[ref])
                    row[f"minus_{ref}"] = [point[n] - point[ref]] + [
                        float(x) for x in np.percentile(d, [2.5, 97.5])
                    ]
            rows.append(row)
        summary["goals"][goal] = {
            "menu": {f"{lv},{k}": c for (lv, k), c in zip(STATES, choice, strict=True)},
            "steps_on_choose": [s for s, _, _ in steps],
            "fallbacks_choose": [f for _, _, f in steps],
            "chosen_step": best,
            "searched_states": [f"{STATES[i][0]},{STATES[i][1]}" for i in sorted(states)],
            "h": None if best_h is None else [float(x) for x in best_h],
            "fallbacks_evaluate": fallbacks_b,
            "evaluate": rows,
        }
        say(f"{goal}: on B " + ", ".join(f"{r['policy']} {r['value']:.2f}" for r in rows))
    summary["seconds"] = time.monotonic() - t0
    return summary


#: The shipped result (``data/campaign_study.json``), written by
#: ``benchmarks/voltorb_campaign.py --write``: :func:`campaign_study`'s summary plus the command.
STUDY_FILE = "campaign_study.json"

GOAL_WORDS = {"gain": "coins per round", "rounds": "rounds to reach level 8"}


@cache
def shipped_study() -> dict[str, Any] | None:
    """The shipped study (:data:`STUDY_FILE`), or None when none has been shipped."""
    from importlib import resources

    path = resources.files("gamelab.voltorb").joinpath("data", STUDY_FILE)
    if not path.is_file():
        return None
    return json.loads(path.read_text("utf-8"))


def study_rows(study: dict[str, Any]) -> list[list[Any]]:
    """One row per goal and policy of a study's evaluation sample: goal, policy, value, its 95 %
    bootstrap interval, and the paired differences against always-win and always-coins (value,
    95 % interval; None for the policy itself)."""
    rows = []
    for goal, g in study["goals"].items():
        for r in g["evaluate"]:
            row = [GOAL_WORDS[goal], r["policy"], r["value"], *r["ci95"]]
            for ref in ("minus_win", "minus_coins"):
                row += r.get(ref, [None, None, None])
            rows.append(row)
    return rows
