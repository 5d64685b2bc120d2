"""The campaign-optimal policy (issue 26 item 3): the most coins per round in the long run,
under the game's level rule.

**The chain.** The level of the next round depends on this round's level L, its outcome, the
cards n it flipped and whether the last rounds counted toward level 8
(:func:`gamelab.voltorb.rules.next_level`). Only the streak k of such rounds just before this one
matters (0..4; five in a row from level 5 lead to level 8), so the rounds are a Markov chain over
the 40 states (L, k), and :func:`chain_step` gives the next state from the rules' own function.

**A round's choice.** At state s a round policy is any policy of the round: its value to the
campaign is E[coins + h(next state)], with h the chain's relative values. That is a terminal
utility u(outcome, n, 2s, 3s) (:func:`round_tables`; shifted to be >= 0, which changes no
choice), so the general round search of :mod:`gamelab.voltorb.objectives` (quitting allowed)
finds the best round policy for it, **within one restriction**: a tile that is a Voltorb on no
remaining board is flipped at once (the kernel's ``monotone`` rule). The utility is not monotone
in the kernel's sense (a win with 8 or more cards can be worth more than a win with fewer), and
without that rule the search explodes (a level-3 deal of 577 boards passed 2 M states); so the
"campaign" policy is the best of that class, not proven the best of all policies.

**The steps**, on a fixed sample of deals per level (the same deals for every policy):

1. always-``win`` and always-``coins`` play (the exact solvers), each deal's round summarised
   exactly, over every board its clues allow, by the probability and coins of each terminal
   (outcome, n) (:func:`round_profile`), so the only error is the sampling of deals;
2. the *menu* policy: at each state, win-play or coins-play for the whole round, by policy
   iteration over the two (exact on the sample, :func:`solve_chain` for the gain g and the
   relative values h);
3. `iterations` policy-improvement steps with the round search for coins + h at every state and
   deal; a search past the state limit keeps that deal's previous policy (counted). The win and
   coins solvers do not always flip a sure 1 at once, so their policies lie outside the
   searched class and a step is not guaranteed to raise g; ``gains`` shows what it did.

Intervals come from a bootstrap over the deals of each level, the policy held fixed; the menu
and campaign policies were chosen on the same deals, so their intervals are optimistic (a fresh
sample of deals is the honest check).

A deal whose exact ``win`` or ``coins`` search passes the state limit is left out of the sample
for every policy (counted in the result: the sample leans to the easier deals).

    nice -n 10 python benchmarks/voltorb_campaign.py --deals 24 24 24 24 6 6 6 6 --iterations 1 \
        --state-limit 200000
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gamelab.voltorb.objectives import COIN_CAP, utility_search
from gamelab.voltorb.posterior import Posterior
from gamelab.voltorb.rules import (
    EIGHT_STREAK,
    TILES,
    BoardGenerator,
    Clues,
    VoltorbSetting,
    counts_toward_eight,
    generate_board,
    next_level,
)

#: the streak of rounds toward level 8 that the chain remembers (0..4)
STREAK_CAP = EIGHT_STREAK - 1
LEVELS = tuple(range(1, 9))
STATES = tuple((level, k) for level in LEVELS for k in range(STREAK_CAP + 1))
OUTCOMES = ("won", "quit", "lost")
BASELINES = ("win", "coins")


def chain_step(level: int, streak: int, outcome: str, cards: int) -> tuple[int, int]:
    """The chain's next state after a round at (level, streak) that ended with `outcome` after
    `cards` cards, by the rules' own :func:`next_level` (the last `streak` rounds before it
    counted toward level 8, the ones before those did not)."""
    history = [("lost", 0)] * (STREAK_CAP - streak) + [("quit", 8)] * streak
    history.append((outcome, cards))
    after = next_level(level, outcome, cards, history)
    k = min(streak + 1, STREAK_CAP) if counts_toward_eight(outcome, cards) else 0
    return after, k


def state_index(level: int, streak: int) -> int:
    return (level - 1) * (STREAK_CAP + 1) + streak


#: STEP[s, o, n]: the index of the next state after outcome o with n cards at state s
STEP = np.array(
    [
        [[state_index(*chain_step(lv, k, o, n)) for n in range(TILES + 1)] for o in OUTCOMES]
        for lv, k in STATES
    ],
    dtype=np.int64,
)


def round_tables(
    s: int, h: np.ndarray, coin_weight: float = 1.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The general kernel's utility tables (u_quit[n, a, b], u_win[n, a, b], u_loss[n], max) of a
    round at state index `s`: coin_weight x coins + h(next state), h shifted so that its least
    value is 0 (`coin_weight` 0: the rounds-to-level-8 goal, h = -T)."""
    size = TILES + 1
    hs = np.asarray(h, dtype=np.float64) - float(np.min(h))
    a = np.arange(size)[None, :, None]
    b = np.arange(size)[None, None, :]
    coins = coin_weight * np.minimum(2.0**a * 3.0**b, COIN_CAP) * np.ones((size, 1, 1))
    n = np.arange(size)
    won = hs[STEP[s, 0]][:, None, None] + coins
    quit = (hs[STEP[s, 1]][:, None, None] + coins) * (n >= 1)[:, None, None]
    lost = hs[STEP[s, 2]]
    tables = [np.ascontiguousarray(x, dtype=np.float64) for x in (quit, won, lost)]
    return tables[0], tables[1], tables[2], float(max(t.max() for t in tables))


def round_profile(post: Posterior, choose: Callable[[dict[int, int]], int]) -> np.ndarray:
    """The exact summary of a round policy from the posterior's state: ``prof[0, o, n]`` the
    probability that the round ends with outcome o (:data:`OUTCOMES`) after n cards, and
    ``prof[1, o, n]`` the expected coins it ends with there (probability times coins).

    `choose(revealed)` is the policy: a tile, or -1 to quit (allowed once a card is shown)."""
    from gamelab.voltorb.info_tree import InfoTree

    tree = InfoTree(post)
    prof = np.zeros((2, len(OUTCOMES), TILES + 1))
    w = tree.weights
    root_n = sum(1 for v in tree.root_revealed.values() if v > 0)
    shown = [v for v in tree.root_revealed.values() if v > 0]
    root_coins = min(int(np.prod(shown)), COIN_CAP) if shown else 0
    prof[0, 0, root_n] += float(w[tree.root_won].sum())
    prof[1, 0, root_n] += root_coins * float(w[tree.root_won].sum())

    def walk(idx: np.ndarray, hm: np.ndarray, revealed: dict[int, int], n: int, c: int) -> None:
        mass = float(w[idx].sum())
        tile = int(choose(revealed))
        if tile < 0:
            prof[0, 1, n] += mass
            prof[1, 1, n] += c * mass
            return
        col = tree.boards[idx, tile]
        prof[0, 2, n] += float(w[idx[col == 0]].sum())
        for v, won_mass, live, hm_new in tree.children(idx, hm, tile):
            c2 = v if c == 0 else min(c * v, COIN_CAP)
            prof[0, 0, n + 1] += won_mass
            prof[1, 0, n + 1] += c2 * won_mass
            if live.size:
                walk(live, hm_new, {**revealed, tile: v}, n + 1, c2)

    idx, _ = tree.root_state()
    if idx.size:
        walk(idx, tree.hidden_mult, dict(tree.root_revealed), root_n, root_coins)
    return prof


def baseline_profile(post: Posterior, objective: str, state_limit: int | None) -> np.ndarray:
    """:func:`round_profile` of always-`objective` play (``win`` or ``coins``, the exact
    solvers of :mod:`gamelab.voltorb.expectimax`); SearchLimitError past `state_limit`."""
    from gamelab.voltorb.expectimax import OptimalSolver

    solver = OptimalSolver(post, objective, state_limit=state_limit)
    return round_profile(post, lambda revealed: solver.decide(revealed)[0])


def campaign_profile(
    post: Posterior, s: int, h: np.ndarray, state_limit: int | None, coin_weight: float = 1.0
) -> np.ndarray:
    """:func:`round_profile` of the best round policy at state index `s` for
    coin_weight x coins + h(next); SearchLimitError past `state_limit`."""
    from gamelab.voltorb.info_tree import InfoTree

    tree = InfoTree(post)
    idx, _, _ = tree.state_for(dict(post.revealed))
    tables = round_tables(s, h, coin_weight)
    # monotone=True: flip a tile that is a Voltorb on no remaining board at once (module doc)
    search = utility_search(tree, idx, dict(post.revealed), tables, True, state_limit, "campaign")
    return round_profile(post, search.tile_at)


@dataclass(frozen=True)
class Chain:
    """The chain of a stationary policy: per state the expected coins `reward` and the
    transition matrix `P`; `gain` the long-run coins per round, `h` the relative values
    (h of level 1, streak 0 is 0), `share` the long-run share of rounds at each state."""

    reward: np.ndarray
    P: np.ndarray
    gain: float
    h: np.ndarray
    share: np.ndarray


def chain_of(profiles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(reward per state, transition matrix) from one mean profile per state (S x 2 x 3 x 26)."""
    ns = len(STATES)
    reward = profiles[:, 1].sum(axis=(1, 2))
    P = np.zeros((ns, ns))
    for s in range(ns):
        np.add.at(P[s], STEP[s].ravel(), profiles[s, 0].ravel())
    return reward, P


def solve_chain(profiles: np.ndarray) -> Chain:
    """Gain, relative values and long-run shares of the chain whose states have the mean round
    `profiles` (S x 2 x 3 x 26; each state's probabilities sum to 1)."""
    reward, P = chain_of(profiles)
    ns = len(STATES)
    # stationary shares: pi (P - I) = 0, sum pi = 1 (least squares: unreached states get 0)
    A = np.vstack([(P - np.eye(ns)).T, np.ones((1, ns))])
    rhs = np.zeros(ns + 1)
    rhs[-1] = 1.0
    share = np.linalg.lstsq(A, rhs, rcond=None)[0]
    share = np.clip(share, 0.0, None)
    share /= share.sum()
    gain = float(share @ reward)
    # relative values: h + g = r + P h, h[0] = 0
    M = np.eye(ns) - P
    M[:, 0] = 1.0  # the column of h[0] carries the gain instead
    x = np.linalg.lstsq(M, reward, rcond=None)[0]
    h = x.copy()
    h[0] = 0.0
    return Chain(reward, P, gain, h, share)


@dataclass(frozen=True)
class CampaignSettings:
    """`deals[L-1]` sampled deals of level L; `iterations` policy-improvement steps."""

    deals: tuple[int, ...] = (40, 40, 40, 40, 12, 12, 12, 12)
    seed: int = 0
    generator: BoardGenerator = BoardGenerator.HGSS
    state_limit: int = 1_000_000
    iterations: int = 3
    bootstrap: int = 400

    def __post_init__(self) -> None:
        if len(self.deals) != len(LEVELS) or any(not 1 <= d <= 100_000 for d in self.deals):
            raise ValueError("deals: one count per level 1-8, each from 1 to 100000")
        if not 0 <= self.iterations <= 20:
            raise ValueError(f"iterations must be from 0 to 20, got {self.iterations}")
        if not 1 <= self.state_limit <= 10**9:
            raise ValueError(f"state_limit must be from 1 to 10^9, got {self.state_limit}")
        if not 10 <= self.bootstrap <= 100_000:
            raise ValueError(f"bootstrap must be from 10 to 100000, got {self.bootstrap}")


def sample_deals(settings: CampaignSettings) -> dict[int, list[Posterior]]:
    """The seeded deals of each level (the clues' posteriors)."""
    out = {}
    for level, count in zip(LEVELS, settings.deals, strict=True):
        rng = np.random.default_rng([settings.seed, level])
        posts = []
        for _ in range(count):
            deal = VoltorbSetting(level, settings.generator)
            board, _ = generate_board(deal, rng)
            posts.append(Posterior.from_clues(Clues.from_board(board), deal))
        out[level] = posts
    return out


@dataclass(frozen=True)
class PolicyResult:
    """A policy's long-run coins per round (bootstrap interval over the deals) and where it
    plays."""

    name: str
    coins_per_round: float
    ci95: tuple[float, float]
    level_share: dict[int, float]  # long-run share of rounds played at each level


@dataclass(frozen=True)
class CampaignResult:
    """Always-``win``, always-``coins`` and the campaign policy on the same deals."""

    settings: CampaignSettings
    deals_used: dict[int, int]  # per level, after leaving out the deals past the state limit
    deals_dropped: dict[int, int]
    policies: list[PolicyResult]  # win, coins, menu (the better of the two per state), campaign
    menu: dict[str, str]  # the menu policy's choice per state "L,k"
    gains: list[float]  # the campaign policy's coins per round after each iteration
    kept_previous: int  # campaign searches past the state limit (that deal kept its policy)
    gain_over_coins: tuple[float, float, float] = field(default=(0.0, 0.0, 0.0))  # diff, lo, hi
    seconds: float = 0.0

    def __json__(self) -> dict[str, Any]:
        return {
            "deals": list(self.settings.deals),
            "seed": self.settings.seed,
            "generator": self.settings.generator,
            "state_limit": self.settings.state_limit,
            "iterations": self.settings.iterations,
            "deals_used": self.deals_used,
            "deals_dropped": self.deals_dropped,
            "policies": [
                {
                    "policy": p.name,
                    "coins_per_round": p.coins_per_round,
                    "ci95": list(p.ci95),
                    "level_share": p.level_share,
                }
                for p in self.policies
            ],
            "menu": self.menu,
            "gains": self.gains,
            "kept_previous": self.kept_previous,
            "gain_over_coins": list(self.gain_over_coins),
            "seconds": self.seconds,
        }


def _mean_profiles(
    per_state: list[list[np.ndarray]], pick: dict[int, np.ndarray] | None = None
) -> np.ndarray:
    """Mean profile of each state over its level's deals (`pick`: bootstrap indices per level)."""
    out = np.zeros((len(STATES), 2, len(OUTCOMES), TILES + 1))
    for s, profs in enumerate(per_state):
        arr = np.asarray(profs)
        if pick is not None:
            arr = arr[pick[STATES[s][0]]]
        out[s] = arr.mean(axis=0)
    return out


def _level_share(chain: Chain) -> dict[int, float]:
    share = chain.share.reshape(len(LEVELS), STREAK_CAP + 1).sum(axis=1)
    return {lv: float(x) for lv, x in zip(LEVELS, share, strict=True)}


def campaign_policy(
    settings: CampaignSettings, progress: Callable[[str], None] | None = None
) -> CampaignResult:
    """Policy iteration for the campaign (module doc), with always-``win`` and always-``coins``
    on the same deals."""
    import time

    from gamelab.voltorb.expectimax import SearchLimitError

    t0 = time.process_time()
    say = progress or (lambda _line: None)
    deals = sample_deals(settings)
    base: dict[str, dict[int, list[np.ndarray]]] = {b: {} for b in BASELINES}
    used: dict[int, list[Posterior]] = {}
    dropped: dict[int, int] = {}
    for level in LEVELS:
        used[level], dropped[level] = [], 0
        for b in BASELINES:
            base[b][level] = []
        for post in deals[level]:
            try:
                profs = {b: baseline_profile(post, b, settings.state_limit) for b in BASELINES}
            except SearchLimitError:
                dropped[level] += 1
                continue
            used[level].append(post)
            for b in BASELINES:
                base[b][level].append(profs[b])
        if not used[level]:
            raise ValueError(f"every sampled deal of level {level} passed the state limit")
        say(f"level {level}: {len(used[level])} deals ({dropped[level]} past the state limit)")
    per_state = {b: [base[b][lv] for lv, _ in STATES] for b in BASELINES}
    chains = {b: solve_chain(_mean_profiles(per_state[b])) for b in BASELINES}
    # the menu: at each state, win-play or coins-play for the whole round (policy iteration over
    # the two, exact on the sample; it stops when no state changes)
    means = {b: _mean_profiles(per_state[b]) for b in BASELINES}
    choice = ["coins"] * len(STATES)
    for _ in range(50):
        chain = solve_chain(np.stack([means[c][s] for s, c in enumerate(choice)]))
        better = []
        for s in range(len(STATES)):
            q = {}
            for b in BASELINES:
                r, P = chain_of(means[b][s : s + 1].repeat(len(STATES), axis=0))
                q[b] = r[s] + P[s] @ chain.h
            keep = choice[s]
            better.append(keep if q[keep] >= max(q.values()) - 1e-9 else max(q, key=q.__getitem__))
        if better == choice:
            break
        choice = better
    per_state["menu"] = [per_state[c][s] for s, c in enumerate(choice)]
    chains["menu"] = chain
    say(f"menu (win or coins per state): {chain.gain:.2f} coins per round")
    current = [list(profs) for profs in per_state["menu"]]
    gains = [chain.gain]
    kept = 0
    for it in range(settings.iterations):
        nxt = []
        for s, (level, _k) in enumerate(STATES):
            row = []
            for j, post in enumerate(used[level]):
                try:
                    row.append(campaign_profile(post, s, chain.h, settings.state_limit))
                except SearchLimitError:
                    kept += 1
                    row.append(current[s][j])
            nxt.append(row)
        current = nxt
        chain = solve_chain(_mean_profiles(current))
        gains.append(chain.gain)
        say(f"iteration {it + 1}: {chain.gain:.2f} coins per round ({kept} searches kept)")
    per_state["campaign"] = current
    rng = np.random.default_rng([settings.seed, 26])
    boot: dict[str, list[float]] = {name: [] for name in per_state}
    for _ in range(settings.bootstrap):
        pick = {lv: rng.integers(0, len(used[lv]), len(used[lv])) for lv in LEVELS}
        for name, rows in per_state.items():
            boot[name].append(solve_chain(_mean_profiles(rows, pick)).gain)
    chains["campaign"] = chain
    policies = []
    for name in ("win", "coins", "menu", "campaign"):
        lo, hi = np.percentile(boot[name], [2.5, 97.5])
        policies.append(
            PolicyResult(
                name, chains[name].gain, (float(lo), float(hi)), _level_share(chains[name])
            )
        )
    diff = np.asarray(boot["campaign"]) - np.asarray(boot["coins"])
    dlo, dhi = np.percentile(diff, [2.5, 97.5])
    return CampaignResult(
        settings,
        {lv: len(used[lv]) for lv in LEVELS},
        dropped,
        policies,
        {f"{lv},{k}": c for (lv, k), c in zip(STATES, choice, strict=True)},
        gains,
        kept,
        (chain.gain - chains["coins"].gain, float(dlo), float(dhi)),
        time.process_time() - t0,
    )
