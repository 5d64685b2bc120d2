"""Learners on the environments, scored against the exact optimum along their training.

Two learners: MaskablePPO (sb3-contrib) on every one-player environment, and OpenSpiel's
tabular Q-learner on the lattice (:func:`_q_learner_run`).

MaskablePPO (sb3-contrib, ``pip install "gamelab[rl]"``) trains on each one-player environment
of the leaderboard (:data:`gamelab.envs.baselines.ENVIRONMENTS`) as it is: the environment's
``Dict`` observation with ``MultiInputPolicy``, its ``action_masks()``, no wrapper, sb3-contrib's
default hyperparameters (2,048 steps a rollout, minibatches of 64, 10 epochs, learning rate
3e-4), one torch thread. At each checkpoint of its budget (:attr:`LearnerSetting.checkpoints`,
in environment steps) the greedy masked policy plays the leaderboard's own evaluation episodes
(episode k starts with ``reset(seed=k)``, with ``regret=True``), so its scores sit beside the
random, heuristic, strong and optimal rows of :func:`gamelab.envs.baselines.leaderboard`, episode
for episode.

One training run (an environment, a seed) is one task of :func:`~gamelab.core.parallel.run_tasks`;
the run of an environment is stored under everything its result depends on (the environment
and its version, the budget, the checkpoints, the episodes, :data:`REVISION`), with the seed
as the task index, so more seeds extend a stored run and a second call reads it back
(:func:`stored_curves` only reads, for the report, which need not have torch). Training is
seeded (``MaskablePPO(seed=s)``, one thread): the same seed gives the same curve on the same
machine and library versions; torch does not promise it across them.

Cost: about 1,000 environment steps a CPU-second for training on this project's machines, and
each checkpoint's evaluation solves its episodes exactly (as the leaderboard's rows do).
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamelab.core.parallel import Backend, run_tasks
from gamelab.core.stats import Estimate, bounded_mean_interval
from gamelab.envs.baselines import ENVIRONMENT_NAMES, ENVIRONMENTS, Environment, episode_result

EXPERIMENT = "envs-learners"
#: bumped when the training or the evaluation changes (a stored run then no longer applies)
REVISION = 1
LEARNERS = ("MaskablePPO", "QLearner")
#: the environments each learner trains on (OpenSpiel's tabular Q-learner: the lattice, whose
#: states a table can hold; the other games' are too many for the budget)
LEARNER_ENVIRONMENTS = {
    "MaskablePPO": ENVIRONMENT_NAMES,
    "QLearner": ("LatticeFold HPHPPHHPHPPH",),
}
MAX_STEPS = 10_000_000
_BY_NAME = {e.name: e for e in ENVIRONMENTS}


@dataclass(frozen=True)
class LearnerSetting:
    """Which runs: `seeds` training seeds (0..seeds-1) per environment (by default every one
    the learner trains on, :data:`LEARNER_ENVIRONMENTS`), each trained for the last of
    `checkpoints` environment steps and evaluated at every checkpoint on `episodes` seeded
    episodes. Validated here, so every shell says the same."""

    environments: tuple[str, ...] = ()
    checkpoints: tuple[int, ...] = (0, 4_096, 8_192, 16_384)  # 2, 4 and 8 rollouts
    seeds: int = 2
    episodes: int = 40
    learner: str = "MaskablePPO"
    #: the environments' ``observation=`` option (MaskablePPO; docs/envs.md)
    observation: str = "default"

    def __post_init__(self) -> None:
        if self.learner not in LEARNERS:
            raise ValueError(f"unknown learner {self.learner!r}; allowed: {', '.join(LEARNERS)}")
        allowed = LEARNER_ENVIRONMENTS[self.learner]
        if not self.environments:
            object.__setattr__(self, "environments", allowed)
        unknown = [e for e in self.environments if e not in allowed]
        if unknown:
            raise ValueError(
                f"unknown environment(s) {', '.join(map(repr, unknown))} for {self.learner}; "
                f"allowed: {', '.join(allowed)}"
            )
        points = list(self.checkpoints)
        if not points or points != sorted(set(points)) or points[0] < 0 or points[-1] > MAX_STEPS:
            raise ValueError(
                f"checkpoints must be increasing step counts from 0 to {MAX_STEPS:,}, "
                f"got {self.checkpoints!r}"
            )
        if self.observation != "default":
            if self.learner != "MaskablePPO":
                raise ValueError(f"{self.learner} observes OpenSpiel's tensor; leave observation")
            for name in self.environments:
                offered = _observations(_BY_NAME[name])
                if self.observation not in offered:
                    raise ValueError(
                        f"unknown observation {self.observation!r} for {name}; "
                        f"allowed: {', '.join(offered)}"
                    )
        for name, value, top in (("seeds", self.seeds, 100), ("episodes", self.episodes, 10_000)):
            if not isinstance(value, int) or not 1 <= value <= top:
                raise ValueError(f"{name} must be 1 to {top:,}, got {value!r}")

    @property
    def steps(self) -> int:
        """The training budget of each run, in environment steps."""
        return self.checkpoints[-1]


@dataclass(frozen=True)
class CurvePoint:
    """One environment's learner after `steps` environment steps, over every seed's evaluation
    episodes (seeds x episodes scores)."""

    environment: str
    steps: int
    score: Estimate  # percent of optimal (docs/envs.md, Scores), bootstrap inside [0, 100]
    mean_return: float
    return_share: float  # the unbiased return share (mean), percent
    seed_scores: tuple[float, ...]  # each seed's mean score


@dataclass(frozen=True)
class LearningCurves:
    """:func:`learning_curves`' result: each environment's points, in checkpoint order."""

    setting: LearnerSetting
    points: tuple[CurvePoint, ...]
    seconds: float
    runs_computed: int  # training runs made by this call (the rest came from the store)


def _observations(environment: Environment) -> tuple[str, ...]:
    """The observation options of `environment`'s class."""
    from gamelab.envs import ENV_IDS

    module, name = ENV_IDS[environment.env_id].split(":")
    return tuple(getattr(importlib.import_module(module), name).OBSERVATIONS)


def run_params(setting: LearnerSetting, environment: Environment) -> dict[str, Any]:
    """What identifies an environment's runs in the results store (the seed is the task; the
    observation only when it is not the default, so that earlier runs keep their key)."""
    extra = {"observation": setting.observation} if setting.observation != "default" else {}
    return extra | {
        "learner": setting.learner,
        "environment": environment.name,
        "version": environment.version,
        "checkpoints": list(setting.checkpoints),
        "episodes": setting.episodes,
        "revision": REVISION,
        "seed": 0,  # run_tasks' seed (unused: each run is seeded by its task index)
    }


def _policy_episodes(
    model: Any, environment: Environment, episodes: int, observation: str = "default"
) -> list[dict[str, Any]]:
    """The greedy masked policy of `model` on the leaderboard's episodes 0..episodes-1."""
    import gymnasium

    import gamelab.envs  # noqa: F401  (registers the environments)

    env: Any = gymnasium.make(
        environment.env_id, regret=True, observation=observation, **dict(environment.settings)
    ).unwrapped
    results = []
    for k in range(episodes):
        obs, info = env.reset(seed=k)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
            obs, _reward, done, _, info = env.step(int(action))
        results.append(episode_result(info["summary"]))
    return results


def train_run(item: tuple[Any, ...], _rng: Any = None) -> list[Any]:
    """Train `learner` with seed `seed` on environment `name` (with observation option
    `observation`, when given) and evaluate it at every checkpoint: ``[[steps, [episode
    results]], ...]`` (for :func:`run_tasks`; its generator is not used: the seed is the
    run's)."""
    learner, name, seed, checkpoints, episodes, *rest = item
    if learner == "QLearner":
        return _q_learner_run(_BY_NAME[name], seed, checkpoints, episodes)
    observation = rest[0] if rest else "default"
    return _ppo_run(_BY_NAME[name], seed, checkpoints, episodes, observation)


def _ppo_run(
    environment: Environment,
    seed: int,
    checkpoints: tuple[int, ...],
    episodes: int,
    observation: str = "default",
) -> list[Any]:
    import gymnasium

    import gamelab.envs  # noqa: F401  (registers the environments)

    # the rl extra is optional: imported by name, so that type checks pass without it
    importlib.import_module("torch").set_num_threads(1)
    maskable = importlib.import_module("sb3_contrib").MaskablePPO
    env = gymnasium.make(environment.env_id, observation=observation, **dict(environment.settings))
    model = maskable("MultiInputPolicy", env, seed=seed, device="cpu", verbose=0)
    out: list[Any] = []
    done_steps = 0
    for steps in checkpoints:
        if steps > done_steps:
            model.learn(steps - done_steps, reset_num_timesteps=False)
            done_steps = steps
        out.append([steps, _policy_episodes(model, environment, episodes, observation)])
    return out


def _q_learner_run(
    environment: Environment, seed: int, checkpoints: tuple[int, ...], episodes: int
) -> list[Any]:
    """OpenSpiel's tabular Q-learner (``open_spiel.python.algorithms.tabular_qlearner``) on the
    registered OpenSpiel lattice game (:mod:`gamelab.envs.openspiel`, its observation tensor as
    the table's key) through ``rl_environment``: step size 1 (the fold has no chance),
    exploration falling linearly from 1 to 0.05 over the budget. Evaluated greedily on the
    Gymnasium environment's episodes, the same actions played in both (the lattice has no
    chance, so the two games stay in step). OpenSpiel's agent draws with ``np.random``: seeded
    here by `seed`."""
    import gymnasium
    import pyspiel

    # open_spiel's Python modules carry no type information: imported by name
    rl_environment = importlib.import_module("open_spiel.python.rl_environment")
    rl_tools = importlib.import_module("open_spiel.python.rl_tools")
    tabular_qlearner = importlib.import_module("open_spiel.python.algorithms.tabular_qlearner")

    import gamelab.envs  # noqa: F401  (registers the environments)
    from gamelab.envs.openspiel import register

    register()
    settings = dict(environment.settings)
    game = pyspiel.load_game(f"python_gamelab_lattice(sequence={settings['sequence']})")
    np.random.seed(seed)
    spiel_env = rl_environment.Environment(game, seed=seed)
    n = spiel_env.action_spec()["num_actions"]
    schedule = rl_tools.LinearSchedule(1.0, 0.05, max(1, checkpoints[-1]))
    agent = tabular_qlearner.QLearner(0, n, step_size=1.0, epsilon_schedule=schedule)
    gym_env: Any = gymnasium.make(environment.env_id, regret=True, **settings).unwrapped

    def evaluate() -> list[dict[str, Any]]:
        results = []
        for k in range(episodes):
            _, info = gym_env.reset(seed=k)
            step = spiel_env.reset()
            done = False
            while not done:
                action = int(agent.step(step, is_evaluation=True).action)
                _, _, done, _, info = gym_env.step(action)
                step = spiel_env.step([action])
            results.append(episode_result(info["summary"]))
        return results

    out: list[Any] = []
    steps = 0
    for checkpoint in checkpoints:
        while steps < checkpoint:
            step = spiel_env.reset()
            while not step.last():
                step = spiel_env.step([agent.step(step).action])
                steps += 1
            agent.step(step)  # the episode's last update
        out.append([checkpoint, evaluate()])
    return out


def learning_curves(
    setting: LearnerSetting, *, backend: Backend | None = None, store: Any = None
) -> LearningCurves:
    """Train and evaluate the setting's runs (resumable from `store`, a
    :class:`~gamelab.core.results.ResultStore`; on `backend`, one process by default) and
    gather each checkpoint's scores."""
    backend = backend or Backend(workers=1, quiet=True)
    start = time.perf_counter()
    computed = 0
    points: list[CurvePoint] = []
    for name in setting.environments:
        environment = _BY_NAME[name]
        params = run_params(setting, environment)
        items = [
            (setting.learner, name, s, setting.checkpoints, setting.episodes, setting.observation)
            for s in range(setting.seeds)
        ]
        stored = store.finished(EXPERIMENT, params, len(items)) if store is not None else {}
        computed += len(items) - len(stored)
        runs = run_tasks(
            train_run,
            items,
            seed=0,
            backend=backend,
            label=f"{setting.learner} on {name}",
            store=store,
            experiment=EXPERIMENT,
            params=params,
        )
        points.extend(_points(name, runs))
    return LearningCurves(setting, tuple(points), time.perf_counter() - start, computed)


def stored_curves(setting: LearnerSetting, store: Any) -> LearningCurves | None:
    """The setting's curves if every run is in `store`, else None (nothing is computed)."""
    start = time.perf_counter()
    points: list[CurvePoint] = []
    for name in setting.environments:
        params = run_params(setting, _BY_NAME[name])
        stored = store.finished(EXPERIMENT, params, setting.seeds)
        if len(stored) < setting.seeds:
            return None
        points.extend(_points(name, [stored[s] for s in range(setting.seeds)]))
    return LearningCurves(setting, tuple(points), time.perf_counter() - start, 0)


#: the stored runs' document (:func:`runs_document`): its ``format`` field
RUNS_FORMAT = "gamelab envs-learners runs 1"


def stored_runs(settings: list[LearnerSetting], baselines: Any, store: Any) -> list[dict[str, Any]]:
    """Every stored run the learners' leaderboard of `settings` and `baselines` (a
    :class:`~gamelab.envs.baselines.LeaderboardSetting`) reads: each training run (a seed) and
    each baseline episode, as ``{"experiment", "params", "task", "value"}`` rows of `store`
    (nothing is computed; what is missing is left out)."""
    from gamelab.envs import baselines as board

    rows = []
    for setting in settings:
        for name in setting.environments:
            params = run_params(setting, _BY_NAME[name])
            for task, value in sorted(store.finished(EXPERIMENT, params, setting.seeds).items()):
                rows.append(
                    {"experiment": EXPERIMENT, "params": params, "task": task, "value": value}
                )
    params = board.run_params(baselines)
    for task, value in sorted(store.finished(board.EXPERIMENT, params).items()):
        rows.append(
            {"experiment": board.EXPERIMENT, "params": params, "task": task, "value": value}
        )
    return rows


def _row_key(row: dict[str, Any]) -> tuple[str, str, int]:
    from gamelab.core.results import canonical_json

    return row["experiment"], canonical_json(row["params"]), int(row["task"])


def runs_document(rows: list[dict[str, Any]], earlier: str | None = None) -> str:
    """The JSON text of `rows` (:func:`stored_runs`) merged into the document `earlier` (its
    rows of the same run and task replaced): one row a line, sorted, so that a committed copy
    changes by the lines of the runs that changed."""
    import json

    merged = {}
    if earlier:
        document = json.loads(earlier)
        if document.get("format") != RUNS_FORMAT:
            raise ValueError(f"not a runs document of this version ({RUNS_FORMAT!r})")
        merged = {_row_key(r): r for r in document["runs"]}
    merged.update({_row_key(r): r for r in rows})
    lines = [json.dumps(merged[k], sort_keys=True) for k in sorted(merged)]
    return f'{{"format": {json.dumps(RUNS_FORMAT)}, "runs": [\n' + ",\n".join(lines) + "\n]}\n"


def import_runs(text: str, store: Any) -> int:
    """Put the rows of a runs document (:func:`runs_document`) into `store`; how many. A row
    that is not one of the learners' or the baselines' runs is refused, and nothing is put."""
    import json

    from gamelab.envs import baselines as board

    try:
        document = json.loads(text)
    except ValueError as error:
        raise ValueError(f"not a runs document: {error}") from None
    if not isinstance(document, dict) or document.get("format") != RUNS_FORMAT:
        raise ValueError(f"not a runs document of this version ({RUNS_FORMAT!r})")
    rows = document.get("runs", [])
    fields = {"experiment", "params", "task", "value"}
    for row in rows:
        if not isinstance(row, dict) or set(row) != fields:
            raise ValueError(f"a run must have the fields {', '.join(sorted(fields))}")
        if row["experiment"] not in (EXPERIMENT, board.EXPERIMENT):
            raise ValueError(f"unknown experiment {row['experiment']!r} in the runs document")
    for row in rows:
        store.put(row["experiment"], row["params"], int(row["task"]), row["value"])
    return len(rows)


def _points(name: str, runs: list[Any]) -> list[CurvePoint]:
    points = []
    for c, (steps, _) in enumerate(runs[0]):
        per_seed = [run[c][1] for run in runs]
        scores = [r["percent"] for episodes in per_seed for r in episodes]
        points.append(
            CurvePoint(
                environment=name,
                steps=int(steps),
                score=bounded_mean_interval(scores, lower=0.0, upper=100.0),
                mean_return=float(np.mean([r["return"] for e in per_seed for r in e])),
                return_share=float(np.mean([r["return_share"] for e in per_seed for r in e])),
                seed_scores=tuple(float(np.mean([r["percent"] for r in e])) for e in per_seed),
            )
        )
    return points


#: the learners' leaderboard (:func:`learners_table`)
LEARNERS_COLUMNS = (
    "environment",
    "agent",
    "training",
    "score % (95% CI)",
    "return share %",
    "mean return",
)


def learners_table(
    curves: list[LearningCurves], board: Any
) -> tuple[tuple[str, ...], list[list[str]]]:
    """The learners' leaderboard: per environment, the optimum, the strong policy, the heuristic
    and random (rows of `board`, a :class:`~gamelab.envs.baselines.Leaderboard` on the same
    episodes), then each learner of `curves` that trained on it, at the end of its budget."""
    from gamelab.core.stats import format_estimate

    rows = []
    for name in board.setting.environments:
        by_agent = {r.agent: r for r in board.rows if r.environment == name}
        for agent in ("optimal", "strong", "heuristic", "random"):
            r = by_agent.get(agent)
            if r is None:
                continue
            label = agent if r.plays_as == agent else f"{agent} (= {r.plays_as})"
            rows.append(
                [
                    name,
                    label,
                    "-",
                    format_estimate(r.percent_of_optimal, ".1f"),
                    f"{r.return_share.value:.1f}",
                    f"{r.mean_return.value:.3f}",
                ]
            )
        for c in curves:
            s = c.setting
            for p in c.points:
                if p.environment == name and p.steps == s.steps:
                    label = (
                        s.learner
                        if s.observation == "default"
                        else f"{s.learner} ({s.observation})"
                    )
                    rows.append(
                        [
                            name,
                            label,
                            f"{s.steps:,} steps x {s.seeds} seeds",
                            format_estimate(p.score, ".1f"),
                            f"{p.return_share:.1f}",
                            f"{p.mean_return:.3f}",
                        ]
                    )
    return LEARNERS_COLUMNS, rows
