"""Monte-Carlo play: paired simulations of a strategy on one deal (a
:class:`~gamelab.voltorb.rules.VoltorbSetting`: generator and level), and campaigns under the
game's level progression.

Pairing: games are cut into tasks of ``CHUNK`` games; task i draws all its boards first from the
generator seeded by (seed, i) (:func:`gamelab.core.parallel.task_rng`), and only then gives the
strategy its own generator. So the board sequence depends only on (generator, level, seed) and two
strategies run with the same seed play the same boards (paired differences).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamelab.core.parallel import Backend, chunk_sizes, run_tasks
from gamelab.core.results import ResultStore
from gamelab.core.serialise import attributes
from gamelab.core.stats import (
    Difference,
    Estimate,
    bounded_mean_interval,
    mean_interval,
    paired_difference,
    wilson_interval,
)
from gamelab.voltorb.posterior import Posterior, compile_enumeration
from gamelab.voltorb.rules import (
    BoardGenerator,
    Round,
    VoltorbSetting,
    generate_board,
    next_level,
)
from gamelab.voltorb.strategies import Strategy, View, make_strategy

CHUNK = 250
CAMPAIGN_CHUNK = 50
#: version of the simulation code in stored results (bump when results would change)
SIM_VERSION = 2


@dataclass
class RoundResult:
    won: bool
    flips: int
    coins: int
    cards_flipped: int
    outcome: str
    predicted_loss: float  # sum of P(Voltorb) of the flipped tiles (calibration)
    exact_win: float | None = None  # the policy's exact P(win) from the clues, if it knows it


def play_round(
    board: np.ndarray,
    strategy: Strategy,
    setting: VoltorbSetting,
    rng: np.random.Generator,
    calibrate: bool = False,
) -> RoundResult:
    """Play one round of `strategy` on `board` (the player sees only clues and flips).

    A batch simulation's hot loop, so it plays the rules' :class:`Round` itself rather than the
    state protocol's ``VoltorbGame.dealt_state(board)``: that road measured 1.5-3 % more CPU
    per whole run (side by side, ``gamelab voltorb simulate --level 1 --workers 1``, random
    and minrisk play), for the same games."""
    rnd = Round(board)
    clues = rnd.clues
    post = None
    if strategy.needs_posterior or calibrate:
        post = Posterior.from_clues(clues, setting).still_playing()
    player = strategy.new_player(post, clues, rng)
    flips = 0
    predicted = 0.0
    while rnd.outcome is None:
        view = View(clues, dict(rnd.revealed), flips, post)
        if flips > 0 and player.wants_to_quit(view):
            rnd.quit()
            break
        tile = player.choose(view)
        if calibrate and post is not None:
            predicted += float(post.p_voltorb()[tile])
        value = rnd.flip(tile)
        flips += 1
        if rnd.outcome is None and post is not None:
            post = post.observe(tile, value).still_playing()
    outcome = rnd.outcome
    assert outcome is not None  # the loop ends with a won, lost or quit round
    return RoundResult(
        outcome == "won",
        flips,
        rnd.coins,
        rnd.cards_flipped,
        outcome,
        predicted,
        player.root_value,
    )


def simulate_chunk(item: tuple, rng: np.random.Generator) -> dict:
    """Task: play `n` games of one strategy; returns per-game wins/flips/coins (JSON lists)."""
    setting, strategy_name, n = item[:3]
    calibrate = len(item) > 3 and bool(item[3])
    boards = [generate_board(setting, rng)[0] for _ in range(n)]
    strategy_rng = np.random.default_rng(rng.integers(2**63))
    strategy = make_strategy(strategy_name)
    wins, flips, coins, predicted, seconds, exact = [], [], [], 0.0, [], []
    for board in boards:
        t0 = time.perf_counter()
        res = play_round(board, strategy, setting, strategy_rng, calibrate)
        seconds.append(time.perf_counter() - t0)
        wins.append(int(res.won))
        flips.append(res.flips)
        coins.append(res.coins)
        exact.append(res.exact_win)
        predicted += res.predicted_loss
    return {
        "exact_win": exact,
        "game_seconds": seconds,
        "wins": wins,
        "flips": flips,
        "coins": coins,
        "predicted_losses": predicted,
        "seconds": float(sum(seconds)),
    }


@dataclass
class Simulation:
    generator: str
    level: int
    strategy: str
    seed: int
    wins: np.ndarray
    flips: np.ndarray
    coins: np.ndarray
    predicted_losses: float
    seconds: float
    #: per game: the policy's exact P(win) from the clues (NaN where the policy does not know it)
    exact_win: np.ndarray | None = None
    game_seconds: np.ndarray | None = None

    @property
    def games(self) -> int:
        return int(self.wins.size)

    @property
    def rounds_won(self) -> int:
        return int(self.wins.sum())

    @property
    def mean_flips(self) -> float:
        return float(self.flips.mean())

    @property
    def win_rate(self) -> Estimate:
        return wilson_interval(int(self.wins.sum()), self.games)

    @property
    def exact_win_rate(self) -> Estimate | None:
        """Mean of the exact per-clue P(win) over the same boards: an unbiased estimate of the
        same win rate with less variance (no coin flip per game), when the policy knows it."""
        if self.exact_win is None or np.isnan(self.exact_win).any():
            return None
        return mean_interval(self.exact_win)

    def __json__(self) -> dict[str, Any]:
        return self.summary()

    def summary(self) -> dict[str, Any]:
        """The JSON document of the run (`gamelab voltorb simulate --json`)."""
        est = self.win_rate
        return {
            **attributes(self, "generator", "level", "strategy", "seed"),
            "wins": int(self.wins.sum()),
            "games": self.games,
            "win_rate": est.value,
            "ci95": [est.lo, est.hi],
            "mean_flips": float(self.flips.mean()),
            "mean_coins": float(self.coins.mean()),
            "compute_seconds": self.seconds,
            **self._exact_summary(),
        }

    def _exact_summary(self) -> dict[str, Any]:
        est = self.exact_win_rate
        if est is None:
            return {}
        slow = np.sort(self.game_seconds)[::-1] if self.game_seconds is not None else np.zeros(0)
        return {
            "exact_win_rate": est.value,
            "exact_ci95": [est.lo, est.hi],
            "slowest_game_seconds": [float(x) for x in slow[:3]],
        }


def simulate(
    setting: VoltorbSetting,
    strategy: str,
    games: int,
    seed: int = 0,
    backend: Backend | None = None,
    store=None,
    calibrate: bool = False,
) -> Simulation:
    """Play `games` rounds; identical boards for every strategy with the same seed."""
    posterior = make_strategy(strategy).needs_posterior or calibrate  # (validates the name)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    generator, level = setting.generator, setting.level
    items = [(setting, strategy, n, calibrate) for n in chunk_sizes(games, CHUNK)]
    params = {
        "generator": generator,
        "level": level,
        "strategy": strategy,
        "games": games,
        "chunk": CHUNK,
        "calibrate": calibrate,
        "seed": seed,
        "version": SIM_VERSION,
    }
    results = run_tasks(
        simulate_chunk,
        items,
        seed=seed,
        backend=backend or Backend(workers=1, quiet=True),
        label=f"voltorb {strategy} L{level} {generator}",
        store=store,
        experiment="voltorb-simulate",
        params=params,
        prepare=compile_enumeration if posterior else None,  # compiled once, first
    )
    return Simulation(
        generator,
        level,
        strategy,
        seed,
        np.array([w for r in results for w in r["wins"]], dtype=np.int64),
        np.array([f for r in results for f in r["flips"]], dtype=np.int64),
        np.array([c for r in results for c in r["coins"]], dtype=np.int64),
        float(sum(r["predicted_losses"] for r in results)),
        float(sum(r["seconds"] for r in results)),
        np.array(
            [np.nan if x is None else x for r in results for x in r["exact_win"]], dtype=float
        ),
        np.array([x for r in results for x in r["game_seconds"]], dtype=float),
    )


@dataclass(frozen=True)
class SimulationStudy:
    """A simulation and, optionally, a second strategy on the same boards with the paired
    difference of their win rates (`gamelab voltorb simulate [--compare]`)."""

    simulation: Simulation
    other: Simulation | None = None
    difference: Difference | None = None

    def _repr_html_(self) -> str:
        """The win rates and the paired difference, in a notebook
        (:func:`gamelab.voltorb.pictures.simulation_html`)."""
        from gamelab.voltorb.pictures import simulation_html

        runs = [r for r in (self.simulation, self.other) if r is not None]
        rows = [(r.strategy, r.games, r.win_rate, r.mean_flips) for r in runs]
        sim = self.simulation
        return simulation_html(sim.generator, sim.level, rows, self.difference)

    def __json__(self) -> dict[str, Any]:
        out = self.simulation.summary()
        if self.other is not None and self.difference is not None:
            rate = self.other.win_rate
            out["compare"] = {
                "strategy": self.other.strategy,
                "win_rate": rate.value,
                "ci95": [rate.lo, rate.hi],
                "difference": self.difference.value,
                "difference_ci95": [self.difference.lo, self.difference.hi],
            }
        return out


def simulate_study(
    setting: VoltorbSetting,
    strategy: str,
    games: int,
    seed: int = 0,
    backend: Backend | None = None,
    store: ResultStore | None = None,
    compare_with: str | None = None,
) -> SimulationStudy:
    """:func:`simulate`, and with `compare_with` the same boards played by that strategy."""
    if compare_with:
        make_strategy(compare_with)  # a bad name is refused before the first run, not after it
    sim = simulate(setting, strategy, games, seed, backend, store)
    if not compare_with:
        return SimulationStudy(sim)
    other = simulate(setting, compare_with, games, seed, backend, store)
    return SimulationStudy(sim, other, compare(sim, other))


def compare(a: Simulation, b: Simulation) -> Difference:
    """Paired difference of win rates a - b (same generator, level, seed and games)."""
    if (a.generator, a.level, a.seed, a.games) != (b.generator, b.level, b.seed, b.games):
        raise ValueError("paired comparison needs the same generator, level, seed and games")
    return paired_difference(a.wins, b.wins)


# ---------------------------------------------------------------- campaign


def campaign_chunk(item: tuple, rng: np.random.Generator) -> dict:
    """Task: `n` campaigns of `rounds` rounds each, from level 1 (entering the minigame)."""
    generator, strategy_name, rounds, n = item
    strategy = make_strategy(strategy_name)
    coins_per_round, levels, won = [], [], []
    for _ in range(n):
        level, history = 1, []
        for _ in range(rounds):
            setting = VoltorbSetting(level, generator)
            board, _ = generate_board(setting, rng)
            res = play_round(board, strategy, setting, rng)
            coins_per_round.append(res.coins)
            levels.append(level)
            won.append(int(res.won))
            history.append((res.outcome, res.cards_flipped))
            level = next_level(level, res.outcome, res.cards_flipped, history)
    return {"coins": coins_per_round, "levels": levels, "won": won}


@dataclass(frozen=True)
class CampaignSummary:
    """Campaigns of consecutive rounds from level 1: mean coins per round (per-campaign means
    with a t interval), the share of rounds won and of rounds played at each level."""

    generator: str
    strategy: str
    rounds: int
    campaigns: int
    seed: int
    coins: Estimate
    win_rate: float
    level_distribution: dict[int, float]

    def __json__(self) -> dict[str, Any]:
        return {
            **attributes(self, "generator", "strategy", "rounds", "campaigns", "seed"),
            "coins_per_round": self.coins.value,
            "ci95": [self.coins.lo, self.coins.hi],
            "win_rate": self.win_rate,
            "level_distribution": self.level_distribution,
        }


def campaign(
    generator: BoardGenerator,
    strategy: str,
    rounds: int,
    campaigns: int,
    seed: int = 0,
    backend: Backend | None = None,
    store: ResultStore | None = None,
) -> CampaignSummary:
    """Coins per round and the distribution of levels played, with intervals (rounds from
    level 1 under the game's level progression, dealt by `generator`)."""
    posterior = make_strategy(strategy).needs_posterior
    if rounds < 1 or campaigns < 1:
        raise ValueError("rounds and campaigns must be at least 1")
    items = [(generator, strategy, rounds, n) for n in chunk_sizes(campaigns, CAMPAIGN_CHUNK)]
    results = run_tasks(
        campaign_chunk,
        items,
        seed=seed,
        backend=backend or Backend(workers=1, quiet=True),
        label=f"voltorb campaign {strategy}",
        store=store,
        experiment="voltorb-campaign",
        params={
            "generator": generator,
            "strategy": strategy,
            "rounds": rounds,
            "campaigns": campaigns,
            "seed": seed,
            "version": SIM_VERSION,
        },
        prepare=compile_enumeration if posterior else None,  # compiled once, first
    )
    coins = np.array([c for r in results for c in r["coins"]], dtype=float)
    levels = np.array([lv for r in results for lv in r["levels"]], dtype=np.int64)
    won = np.array([w for r in results for w in r["won"]], dtype=np.int64)
    per_campaign = coins.reshape(campaigns, rounds).mean(axis=1)
    est = bounded_mean_interval(per_campaign, lower=0.0)  # coins never go below 0
    dist = np.bincount(levels, minlength=9)[1:] / levels.size
    return CampaignSummary(
        generator,
        strategy,
        rounds,
        campaigns,
        seed,
        est,
        float(won.mean()),
        {i + 1: float(p) for i, p in enumerate(dist)},
    )
