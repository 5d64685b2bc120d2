"""The environments' leaderboard: baseline agents scored against the exact optimum.

For each one-player Gymnasium environment of gamelab.envs (:data:`ENVIRONMENTS`), four agents
(:data:`AGENTS`) play the same seeded episodes (episode k starts with ``env.reset(seed=k)``, for
every agent): ``random`` (a uniformly random legal action), a simple ``heuristic``, gamelab's
``strong`` published policy where the library has one (Voltorb: MinRisk; Wordle: the
best-entropy guess; Yatzy's strong policy is the optimum and the lattice has no move-by-move
one, so those rows play as ``optimal`` and ``heuristic``), and ``optimal`` (the oracle's best
action). The environments run with ``regret=True``, so each episode's summary gives its luck-free
measures: the optimum expected at the start V0, the loss (the sum of the decisions' regrets)
and the decisions taken.

Per agent, :func:`leaderboard` reports, each with a 95% interval over the episodes inside its
natural bounds (:mod:`gamelab.core.stats`; docs/envs.md, "Scores"):

* the score: the mean of the episodes' ``percent_of_optimal``, 100 times the product of the
  decisions' kept shares ``(Q - L) / (V - L)`` (``L`` the game's lowest return), always in
  [0, 100] (a percentile bootstrap, which stays inside);
* the mean return (Wilson for Voltorb's 0/1 return, else a bootstrap above the lowest return);
* the return share: the mean of the episodes' ``(V0 - loss - L) / (V0 - L)``, an unbiased
  estimate of the expected return's share of the optimum, which one episode can push outside
  0-100 (a t interval cut to [0, 100], where the share lies);
* the regret per decision, the mean of the episodes' ``loss / decisions``, in the game's unit
  (a percentile bootstrap that stays at or above 0, as a regret does).

The agents' own randomness (``random``, ties of ``heuristic``, Wordle's random candidate) is
seeded by the setting's `seed`, the environment, the policy played and the episode, so an
episode's result never depends on which others run with it. Each episode is one
task of one run, stored in the results store under the whole setting (with each environment's
:attr:`Environment.version`), so running the same setting again, or resuming an interrupted
run, plays only what is missing. Both the benchmark (``benchmarks/envs_baselines.py``) and the
report's section (:mod:`gamelab.envs.report`) call :func:`leaderboard`.

The agents are clients of the environments, written over the library (the published Voltorb
tiles of :mod:`gamelab.voltorb.strategies`, Wordle's game table, the oracles' best actions);
the environments themselves hold no policy.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamelab.core.parallel import Backend, run_tasks
from gamelab.core.stats import (
    Estimate,
    bounded_mean_interval,
    format_estimate,
    mean_interval,
    wilson_interval,
)

AGENTS = ("random", "heuristic", "strong", "optimal")
#: at most this many episodes per row (each is a task of the store)
MAX_EPISODES = 100_000
EXPERIMENT = "envs-baselines"


@dataclass(frozen=True)
class Environment:
    """One environment of the leaderboard: its label, Gymnasium id and settings, and the
    version of its stored episodes (bumped when the same seed would deal other episodes)."""

    name: str
    env_id: str
    settings: tuple[tuple[str, Any], ...]
    version: int
    unit: str  # the unit of its regret
    #: the lowest return of the game (the floor of the scores; the bound of the returns)
    lowest_return: float
    #: a return of 0 or 1 (a win): its mean gets a Wilson interval
    binary_return: bool = False
    #: agents without a policy of their own in the library play as this one
    strong_is: str = "strong"

    @property
    def family(self) -> str:
        return self.name.split()[0]


ENVIRONMENTS: tuple[Environment, ...] = (
    # version 5: episodes record the score in [0, 100] and the return share (4: their
    # decisions; 3: boards from the batched dealer)
    Environment(
        "VoltorbFlip level 3",
        "gamelab/VoltorbFlip-v0",
        (("level", 3),),
        5,
        "P(win)",
        lowest_return=0.0,
        binary_return=True,
    ),
    Environment(
        "YatzySolitaire yatzy",
        "gamelab/YatzySolitaire-v0",
        (("rules", "yatzy"),),
        5,
        "points",
        lowest_return=0.0,
        strong_is="optimal",
    ),
    # version 6: gamelab/PokemonWordle-v1, which masks the guesses already made (5: -v0)
    Environment(
        "PokemonWordle gen1",
        "gamelab/PokemonWordle-v1",
        (("names", "gen1"),),
        6,
        "guesses",
        lowest_return=-11.0,  # the guess limit (10) used up unsolved
    ),
    Environment(
        "LatticeFold HPHPPHHPHPPH",
        "gamelab/LatticeFold-v0",
        (("sequence", "HPHPPHHPHPPH"),),
        5,
        "contacts",
        lowest_return=-1.0,  # trapped
        strong_is="heuristic",
    ),
)
ENVIRONMENT_NAMES = tuple(e.name for e in ENVIRONMENTS)


@dataclass(frozen=True)
class LeaderboardSetting:
    """Which rows to compute: `episodes` seeded episodes (0..episodes-1) per environment and
    agent, the agents' randomness from `seed`. Validated here, so every shell says the same."""

    episodes: int = 40
    environments: tuple[str, ...] = ENVIRONMENT_NAMES
    agents: tuple[str, ...] = AGENTS
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.episodes, int) or not 2 <= self.episodes <= MAX_EPISODES:
            raise ValueError(
                f"episodes must be 2 to {MAX_EPISODES:,} (an interval needs two), "
                f"got {self.episodes!r}"
            )
        for kind, given, allowed in (
            ("environment", self.environments, ENVIRONMENT_NAMES),
            ("agent", self.agents, AGENTS),
        ):
            unknown = [g for g in given if g not in allowed]
            if unknown or not given:
                raise ValueError(
                    f"unknown {kind}(s) {', '.join(map(repr, unknown)) or '(none given)'}; "
                    f"allowed: {', '.join(allowed)}"
                )
        if not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")


@dataclass(frozen=True)
class LeaderboardRow:
    """One agent on one environment, over the setting's episodes."""

    environment: str
    agent: str
    plays_as: str  # the policy it played (``strong`` may play as ``optimal`` or ``heuristic``)
    episodes: int
    mean_return: Estimate  # Wilson for a 0/1 return, else a bootstrap above the lowest return
    percent_of_optimal: Estimate  # the mean score, a bootstrap inside [0, 100]
    return_share: Estimate  # the mean return share, a t interval cut to [0, 100]
    regret_per_decision: Estimate  # in `unit`
    unit: str
    loss_per_episode: float  # the mean expected loss of an episode's decisions
    shares_outside: int  # episodes whose return share left 0-100
    decisions_per_episode: float


@dataclass(frozen=True)
class Leaderboard:
    """:func:`leaderboard`'s result: its rows, environment by environment, agents in order."""

    setting: LeaderboardSetting
    rows: tuple[LeaderboardRow, ...]
    seconds: float
    episodes_computed: int  # episodes played by this call (the rest came from the store)

    def _repr_html_(self) -> str:
        """The rows with each score as a bar, in a notebook
        (:func:`gamelab.envs.pictures.leaderboard_html`)."""
        from gamelab.envs.pictures import leaderboard_html

        return leaderboard_html(
            [
                (
                    r.environment,
                    r.agent if r.plays_as == r.agent else f"{r.agent} (as {r.plays_as})",
                    r.episodes,
                    r.percent_of_optimal,
                    f"{format_estimate(r.regret_per_decision, '.3g')} {r.unit}",
                )
                for r in self.rows
            ]
        )


# -- the agents -------------------------------------------------------------------------------
def _voltorb(env: Any, agent: str, rng: np.random.Generator) -> int:
    """heuristic: ScoreFirst's tile; strong: MinRisk's (the published strategies)."""
    from gamelab.voltorb.posterior import posterior_for
    from gamelab.voltorb.strategies import minrisk_tile, scorefirst_tile

    r = env.state.round
    post = posterior_for(r.clues, env.game.setting, r.revealed)
    return int(scorefirst_tile(post) if agent == "heuristic" else minrisk_tile(post))


def _yatzy(env: Any, agent: str, rng: np.random.Generator) -> int:
    """heuristic: keep the most common face (ties: the higher), then the box scoring most."""
    from gamelab.yatzy.rules import N_KEEPS, keep_index

    state = env.state
    dice = state.dice
    if state.rolls_left > 0:
        face = int(max(range(6), key=lambda f: (dice[f], f)))
        keep = np.zeros(6, dtype=np.int64)
        keep[face] = dice[face]
        return keep_index(keep)
    rules, card = env.game.rules, state.cards[0]
    placements = rules.placements(dice, card)
    name, _points, _bonus = max(placements, key=lambda p: (p[1], -rules.boxes.index(p[0])))
    return N_KEEPS + rules.boxes.index(name)


def _wordle(env: Any, agent: str, rng: np.random.Generator) -> int:
    """heuristic: a random remaining candidate; strong: the best-entropy guess."""
    table = env.game.table
    candidates = table.all_answers()
    for guess, code in env.state.history():
        candidates = table.filter(candidates, guess, code)
    if agent == "heuristic" or len(candidates) <= 2:
        return int(table.guess_of_answer[int(rng.choice(candidates))])
    return int(table.best_entropy_guess(candidates))


def _lattice(env: Any, agent: str, rng: np.random.Generator) -> int:
    """heuristic: the move that makes the most contacts now (ties: random)."""
    from gamelab.lattice.rules import MOVES, hh_score

    state, game = env.state, env.game
    legal = state.legal_actions()
    k = len(state.conformation) + 2

    def gain(a: int) -> int:
        return hh_score(
            game.sequence[:k], state.conformation + MOVES[game.lattice][a], game.lattice
        )

    best = max(gain(a) for a in legal)
    return int(rng.choice([a for a in legal if gain(a) == best]))


POLICIES = {
    "VoltorbFlip": _voltorb,
    "YatzySolitaire": _yatzy,
    "PokemonWordle": _wordle,
    "LatticeFold": _lattice,
}
_BY_NAME = {e.name: e for e in ENVIRONMENTS}


def plays_as(environment: Environment, agent: str) -> str:
    """The policy `agent` plays on `environment` (``strong`` falls back where the library has
    no policy of its own)."""
    return environment.strong_is if agent == "strong" else agent


def play_episode(item: tuple[str, str, int, int], _rng: Any = None) -> dict[str, Any]:
    """Episode `k` (``reset(seed=k)``) of agent `agent` on environment `name`, the agent's
    randomness seeded by (`seed`, the environment, the policy it plays, k), for
    :func:`~gamelab.core.parallel.run_tasks` (its generator is not used, so an agent that plays
    as another plays the same episodes): the return, percent of optimal, loss, optimum and
    decisions (the environment's episode summary)."""
    import gymnasium

    import gamelab.envs  # noqa: F401  (registers the environments)

    name, agent, k, seed = item
    environment = _BY_NAME[name]
    env: Any = gymnasium.make(
        environment.env_id, regret=True, **dict(environment.settings)
    ).unwrapped
    policy = plays_as(environment, agent)
    rng = np.random.default_rng([seed, ENVIRONMENT_NAMES.index(name), AGENTS.index(policy), k])
    obs, info = env.reset(seed=k)
    done = False
    while not done:
        if policy == "random":
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        elif policy == "optimal":
            action = int(env.oracle.best_action(env.state))
        else:
            action = POLICIES[environment.family](env, policy, rng)
        obs, _reward, done, _, info = env.step(action)
    return episode_result(info["summary"])


def episode_result(summary: dict[str, Any]) -> dict[str, Any]:
    """What the leaderboard keeps of an episode's summary (``info["summary"]``)."""
    return {
        "return": summary["episode_return"],
        "percent": summary["percent_of_optimal"],
        "return_share": summary["return_percent_estimate"],
        "loss": summary["loss"],
        "optimal": summary["optimal"],
        "decisions": summary["decisions"],
    }


def leaderboard(
    setting: LeaderboardSetting,
    *,
    backend: Backend | None = None,
    store: Any = None,
) -> Leaderboard:
    """Play the setting's episodes (on `backend`, one process by default; resumable from
    `store`, a :class:`~gamelab.core.results.ResultStore`) and score each agent (see the
    module). All the episodes are one run of tasks, so a pool of worker processes starts once;
    the run is stored under the whole setting (its environments' versions, agents, episodes and
    seed), which the benchmark and the report share."""
    backend = backend or Backend(workers=1, quiet=True)
    start = time.perf_counter()
    items = [
        (name, agent, k, setting.seed)
        for name in setting.environments
        for agent in setting.agents
        for k in range(setting.episodes)
    ]
    params = run_params(setting)
    stored = store.finished(EXPERIMENT, params, len(items)) if store is not None else {}
    results = run_tasks(
        play_episode,
        items,
        seed=setting.seed,
        backend=backend,
        label="leaderboard episodes",
        store=store,
        experiment=EXPERIMENT,
        params=params,
    )
    rows = []
    n = setting.episodes
    for e, name in enumerate(setting.environments):
        for a, agent in enumerate(setting.agents):
            first = (e * len(setting.agents) + a) * n
            rows.append(_row(_BY_NAME[name], agent, results[first : first + n]))
    return Leaderboard(setting, tuple(rows), time.perf_counter() - start, len(items) - len(stored))


def run_params(setting: LeaderboardSetting) -> dict[str, Any]:
    """What identifies the setting's run in the results store."""
    return {
        "environments": {name: _BY_NAME[name].version for name in setting.environments},
        "agents": list(setting.agents),
        "episodes": setting.episodes,
        "seed": setting.seed,
    }


def _row(environment: Environment, agent: str, results: list[dict[str, Any]]) -> LeaderboardRow:
    regrets = [r["loss"] / max(1, r["decisions"]) for r in results]
    return LeaderboardRow(
        environment=environment.name,
        agent=agent,
        plays_as=plays_as(environment, agent),
        episodes=len(results),
        mean_return=return_interval(environment, [r["return"] for r in results]),
        percent_of_optimal=bounded_mean_interval(
            [r["percent"] for r in results], lower=0.0, upper=100.0
        ),
        return_share=share_interval([r["return_share"] for r in results]),
        regret_per_decision=bounded_mean_interval(regrets, lower=0.0),
        unit=environment.unit,
        loss_per_episode=float(np.mean([r["loss"] for r in results])),
        shares_outside=sum(not -1e-9 <= r["return_share"] <= 100 + 1e-9 for r in results),
        decisions_per_episode=float(np.mean([r["decisions"] for r in results])),
    )


def return_interval(environment: Environment, returns: list[float]) -> Estimate:
    """The mean return with an interval inside the game's returns: Wilson for a 0/1 return
    (a win), else a percentile bootstrap (a mean of returns lies between the lowest and the
    highest)."""
    if environment.binary_return:
        wins = sum(returns)
        if not all(r in (0.0, 1.0) for r in returns):
            raise ValueError(f"{environment.name}: returns must be 0 or 1")
        return wilson_interval(wins, len(returns))
    return bounded_mean_interval(returns, lower=environment.lowest_return)


def share_interval(shares: list[float]) -> Estimate:
    """The mean of the episodes' return shares (unbiased, but one episode can leave 0-100) with
    a t interval intersected with [0, 100], where the share it estimates lies: an interval that
    covers the true share keeps covering it once cut, so the cut loses no coverage (an
    interval wholly outside, which covers nothing, becomes the nearest bound)."""
    est = mean_interval(shares)
    lo, hi = (min(100.0, max(0.0, x)) for x in (est.lo, est.hi))
    return Estimate(est.value, lo, hi, est.n, est.confidence)


#: the leaderboard as a table (:func:`table_cells` gives a row's cells), for every shell
TABLE_COLUMNS = (
    "environment",
    "agent",
    "score % (95% CI)",
    "mean return (95% CI)",
    "return share % (95% CI)",
    "regret per decision (95% CI)",
    "decisions per episode",
)


def table_cells(row: LeaderboardRow) -> list[str]:
    """`row` as the cells of :data:`TABLE_COLUMNS`."""
    agent = row.agent if row.plays_as == row.agent else f"{row.agent} (= {row.plays_as})"
    return [
        row.environment,
        agent,
        format_estimate(row.percent_of_optimal, ".1f"),
        format_estimate(row.mean_return, ".3f"),
        format_estimate(row.return_share, ".1f"),
        f"{format_estimate(row.regret_per_decision, '.4f')} {row.unit}",
        f"{row.decisions_per_episode:.1f}",
    ]
