"""Native vector environments: N games stepped in one numba call over arrays (Gymnasium's
``VectorEnv`` API), for learners that want millions of steps.

``gymnasium.make_vec("gamelab/VoltorbFlip-v0", num_envs=N,
vectorization_mode="vector_entry_point")`` returns a :class:`VoltorbFlipVectorEnv`, and
``"gamelab/YatzySolitaire-v0"`` a :class:`YatzySolitaireVectorEnv` (the same settings as the
single environments: ``level``, ``generator``, ``objective``; ``rules``). Each is a thin shell
over its game's vector kernels (:mod:`gamelab.voltorb._vector_kernels`,
:mod:`gamelab.yatzy._vector_kernels`), the single environment's rules on one row per
sub-environment; it keeps no rule of its own.

* observations: the single environment's ``Dict`` batched (each entry with a leading axis of
  N); actions: ``MultiDiscrete`` of N; rewards, terminations and truncations arrays of N;
* ``info["action_mask"]``: int8 (N x actions), 1 for legal; for a sub-environment whose
  episode has just ended, all ones (the next step ignores its action, whatever it is: see
  autoreset; an all-zero row would make ``Categorical(logits=where(mask, logits, -inf))``
  NaN), with ``info["_action_mask"]`` all True (Gymnasium's convention for vector infos), and
  ``info["illegal_action"]`` (bool, N) after a step;
* autoreset: Gymnasium's default, next step (``metadata["autoreset_mode"]``): the step after
  an episode ends starts the next one and ignores that sub-environment's action (reward 0, not
  terminated), as ``SyncVectorEnv`` does;
* seeds: ``reset(seed=s)`` seeds sub-environment i with ``s + i`` (or ``seed=[s0, s1, ...]``),
  each from its own generator (``gymnasium.utils.seeding.np_random``'s), and its episodes are
  those of a single environment reset with that seed and then without one
  (``tests/envs/test_envs_vector.py``); ``reset(options={"reset_mask": m})`` starts new
  episodes only where m is True (Gymnasium's convention), which
  :class:`gamelab.envs.sb3.SB3VectorEnv` uses to give Stable-Baselines3 its same-step
  autoreset;
* illegal actions end the episode as a failed game, as the single environments' default
  (``illegal_action="terminate"``).

No oracle: ``regret=True`` or ``optimal_action=True`` is refused (use
``vectorization_mode="sync"`` over the single environments for them).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from gamelab.envs.seeding import np_random

#: uniforms kept per sub-environment (more are drawn when a row runs short)
UNIFORMS = 512


def _refuse_oracle(kwargs: dict[str, Any]) -> None:
    for name in ("regret", "optimal_action"):
        if kwargs.pop(name, False):
            raise ValueError(
                f"the native vector environment steps without the oracle ({name}=True); "
                "use vectorization_mode='sync' over the single environments for it"
            )
    if kwargs.pop("illegal_action", "terminate") != "terminate":
        raise ValueError("the native vector environment ends an episode on an illegal action")
    kwargs.pop("render_mode", None)
    if kwargs:
        raise ValueError(
            f"the native vector environment takes no {', '.join(sorted(kwargs))} option"
        )


class UniformStreams:
    """One stream of uniforms per sub-environment, from its own seeded generator, kept in the
    rows of ``u`` (``pos[i]`` the next one, ``end[i]`` the end of the row's valid part)."""

    def __init__(self, num_envs: int, width: int = UNIFORMS) -> None:
        self.u = np.zeros((num_envs, width))
        self.pos = np.zeros(num_envs, dtype=np.int64)
        self.end = np.zeros(num_envs, dtype=np.int64)
        self.generators: list[np.random.Generator] = []

    def seed(self, seeds: list[int | None]) -> None:
        self.generators = [
            np_random(s)[0] if s is not None else np.random.default_rng() for s in seeds
        ]
        self.pos[:] = 0
        self.end[:] = 0

    def seed_rows(self, seeds: list[tuple[int, int | None]]) -> None:
        """Give each row i of (i, seed) a new generator from that seed (None: kept as it is)."""
        for i, seed in seeds:
            if seed is not None:
                self.generators[i] = np_random(seed)[0]
                self.pos[i] = self.end[i] = 0

    def refill(self, i: int) -> None:
        """Keep row i's unused uniforms and draw the next ones after them (the row doubles when
        it has no room left)."""
        left = int(self.end[i] - self.pos[i])
        width = self.u.shape[1]
        if left >= width // 2:
            grown = np.zeros((self.u.shape[0], 2 * width))
            grown[:, :width] = self.u
            self.u, width = grown, 2 * width
        self.u[i, :left] = self.u[i, self.pos[i] : self.end[i]]
        self.u[i, left:] = self.generators[i].random(width - left)
        self.pos[i], self.end[i] = 0, width


class ArrayVectorEnv(gym.vector.VectorEnv):
    """What the native vector environments share: seeds, uniform streams, the batched spaces
    and the info dictionary (see the module)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, single: gym.Env) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.num_envs = num_envs
        self.single_observation_space = single.observation_space
        self.single_action_space = single.action_space
        self.observation_space = batch_space(single.observation_space, num_envs)
        self.action_space = batch_space(single.action_space, num_envs)
        self.streams = UniformStreams(num_envs)
        self._rewards = np.zeros(num_envs)
        self._terminated = np.zeros(num_envs, dtype=bool)
        self._truncated = np.zeros(num_envs, dtype=bool)
        self._illegal = np.zeros(num_envs, dtype=bool)
        self._pending = np.zeros(num_envs, dtype=np.int64)
        # rows whose episode ended on the last step: their next action is ignored (autoreset)
        self._finished = np.zeros(num_envs, dtype=bool)
        self._all = np.arange(num_envs, dtype=np.int64)
        self._started = False

    def _seeds(self, seed: int | list[int | None] | None) -> list[int | None]:
        if seed is None or isinstance(seed, int):
            return [None if seed is None else seed + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(
                f"give one seed per sub-environment ({self.num_envs}), got {len(seeds)}"
            )
        return seeds

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict | None = None):
        """Start new episodes: in every sub-environment, or (``options={"reset_mask": m}``,
        Gymnasium's convention) only where the boolean array ``m`` is True, the others going on
        as they were; a seed given with a mask seeds only the masked sub-environments."""
        mask = (options or {}).get("reset_mask")
        if mask is None:
            if seed is not None or not self._started:
                self.streams.seed(self._seeds(seed))
            self._started = True
            self._start(self._all)
            return self._observe(), self._info(with_illegal=False)
        if not self._started:
            raise RuntimeError("call reset() without a reset_mask first")
        mask = np.asarray(mask)
        if mask.dtype != np.bool_ or mask.shape != (self.num_envs,) or not mask.any():
            raise ValueError(
                f"reset_mask must be a boolean array of shape ({self.num_envs},) "
                "with at least one True"
            )
        rows = np.flatnonzero(mask)
        if seed is not None:
            seeds = self._seeds(seed)
            self.streams.seed_rows([(i, seeds[i]) for i in rows.tolist()])
        self._start(rows)
        return self._observe(), self._info(with_illegal=False)

    def step(self, actions):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        if self._step(actions):
            waiting = np.flatnonzero(self._pending)
            while waiting.size:  # rows whose uniforms ran out inside a board or a roll
                for i in waiting.tolist():
                    self.streams.refill(i)
                self._deal(waiting)
                waiting = waiting[self._pending[waiting] != 0]
        np.logical_or(self._terminated, self._truncated, out=self._finished)
        return (
            self._observe(),
            self._rewards.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            self._info(with_illegal=True),
        )

    def _start(self, envs: np.ndarray) -> None:
        """Start a new episode in each sub-environment of `envs` (drawing uniforms as needed)."""
        self._finished[envs] = False
        self._deal(envs)
        waiting = envs[self._pending[envs] != 0]
        while waiting.size:
            for i in waiting.tolist():
                self.streams.refill(i)
            self._deal(waiting)
            waiting = waiting[self._pending[waiting] != 0]

    def _info(self, with_illegal: bool) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self.action_masks(),
            "_action_mask": np.ones(self.num_envs, dtype=bool),
        }
        if with_illegal:
            info["illegal_action"] = self._illegal.copy()
            info["_illegal_action"] = np.ones(self.num_envs, dtype=bool)
        return info

    def action_masks(self) -> np.ndarray:
        """The legal actions of every sub-environment (int8, N x actions); all ones in a row
        whose episode has just ended, as its next action is ignored (next-step autoreset)."""
        masks = self.masks.copy()
        masks[self._finished] = 1
        return masks

    # -- what each game says ---------------------------------------------------------------
    masks: np.ndarray

    def _deal(self, envs: np.ndarray) -> None:
        """Start episodes in `envs`; mark ``_pending[i]`` where the uniforms ran out."""
        raise NotImplementedError

    def _step(self, actions: np.ndarray) -> int:
        """Step every sub-environment; the number left pending."""
        raise NotImplementedError

    def _observe(self) -> dict[str, np.ndarray]:
        raise NotImplementedError


class VoltorbFlipVectorEnv(ArrayVectorEnv):
    """N rounds of Voltorb Flip (:class:`gamelab.envs.single.VoltorbFlipEnv`'s settings,
    observations, actions and rewards), stepped by
    :func:`gamelab.voltorb._vector_kernels.step_rounds`."""

    def __init__(
        self,
        num_envs: int = 1,
        level: int = 8,
        generator: str = "hgss",
        objective: str = "win",
        **kwargs: Any,
    ) -> None:
        from gamelab.envs.single import VoltorbFlipEnv
        from gamelab.voltorb._deal_kernels import level_tables
        from gamelab.voltorb._vector_kernels import new_rounds

        _refuse_oracle(kwargs)
        single = VoltorbFlipEnv(level, generator, objective)  # parses the settings
        super().__init__(num_envs, single)
        setting = single.game.setting
        self.level, self.generator, self.objective = setting.level, setting.generator, objective
        self._tables = level_tables(setting.generator, setting.level)
        # the kernels' bundle and its arrays by name (state: coins, multipliers left, outcome,
        # done)
        self._rounds = new_rounds(num_envs)
        self.boards, self.clues, self.state, self.masks, self.revealed = self._rounds
        self._outcome = (self._rewards, self._terminated, self._illegal, self._pending)

    def _deal(self, envs: np.ndarray) -> None:
        from gamelab.voltorb._vector_kernels import deal_rounds

        s = self.streams
        deal_rounds(envs, (s.u, s.pos, s.end), self._tables, self._rounds, self._pending)

    def _step(self, actions: np.ndarray) -> int:
        from gamelab.voltorb._vector_kernels import step_rounds

        s = self.streams
        win = self.objective == "win"
        stream = (s.u, s.pos, s.end)
        return int(step_rounds(actions, win, stream, self._tables, self._rounds, self._outcome))

    def _observe(self) -> dict[str, np.ndarray]:
        return {
            "clues": self.clues.copy(),
            "revealed": self.revealed.copy(),
            "coins": self.state[:, :1].copy(),
        }


class YatzySolitaireVectorEnv(ArrayVectorEnv):
    """N games of Yatzy alone (:class:`gamelab.envs.single.YatzySolitaireEnv`'s settings,
    observations, actions and rewards), stepped by
    :func:`gamelab.yatzy._vector_kernels.step_games`."""

    def __init__(self, num_envs: int = 1, rules: str = "yatzy", **kwargs: Any) -> None:
        from gamelab.envs.single import YatzySolitaireEnv
        from gamelab.yatzy._vector_kernels import G_COLUMNS, chance_arrays
        from gamelab.yatzy.stepper import chance_tables, keep_masks

        _refuse_oracle(kwargs)
        single = YatzySolitaireEnv(rules)  # validates the rule set's name
        super().__init__(num_envs, single)
        stepper = single.stepper
        self.rules = stepper.rules
        self._bundle = self.rules.kernel_rules()
        self._keep_masks = keep_masks(stepper.n_actions)
        self._chance = chance_arrays(*chance_tables())
        n, boxes = num_envs, self.rules.n_boxes
        self.game = np.zeros((n, G_COLUMNS), dtype=np.int64)
        self.card = np.full((n, boxes), -1, dtype=np.int64)
        self.masks = np.zeros((n, stepper.n_actions), dtype=np.int8)
        self._boxes = np.zeros(boxes, dtype=np.int64)

    def _ensure_uniforms(self) -> None:
        """Every row has a uniform ahead (a step draws at most one)."""
        s = self.streams
        for i in np.flatnonzero(s.pos >= s.end).tolist():
            s.refill(i)

    def _deal(self, envs: np.ndarray) -> None:
        from gamelab.yatzy._vector_kernels import start_games

        self._ensure_uniforms()
        s = self.streams
        start_games(
            envs, self.game, self.card, self.masks, self._keep_masks, s.u, s.pos, *self._chance
        )
        self._pending[envs] = 0

    def _step(self, actions: np.ndarray) -> int:
        from gamelab.yatzy._vector_kernels import step_games

        self._ensure_uniforms()
        s = self.streams
        step_games(
            actions,
            self._bundle,
            self.game,
            self.card,
            self.masks,
            self._keep_masks,
            s.u,
            s.pos,
            *self._chance,
            self._boxes,
            self._rewards,
            self._terminated,
            self._illegal,
        )
        return 0

    def _observe(self) -> dict[str, np.ndarray]:
        from gamelab.yatzy._vector_kernels import G_BONUSES, G_OVER, G_ROLL, G_ROLLS_LEFT
        from gamelab.yatzy.rules import ROLLS

        dice = ROLLS[self.game[:, G_ROLL]]
        dice[self.game[:, G_OVER] == 1] = 0
        return {
            "dice": dice,
            "rolls_left": self.game[:, G_ROLLS_LEFT : G_ROLLS_LEFT + 1].copy(),
            "card": self.card.copy(),
            "bonuses": self.game[:, G_BONUSES : G_BONUSES + 1].copy(),
        }
