"""Stable-Baselines3's ``VecEnv`` over a Gymnasium vector environment, so that MaskablePPO (or
any SB3 learner) trains on gamelab's native vector environments.

Stable-Baselines3 takes only its own vector type (a Gymnasium ``VectorEnv`` is refused:
"not a Gymnasium environment") and resets a finished episode within the step that ends it,
handing back the last observation in ``info["terminal_observation"]``; Gymnasium's vector
environments reset on the next step. :class:`SB3VectorEnv` bridges the two: after each step it
starts new episodes where some ended, by ``reset(options={"reset_mask": done})`` (Gymnasium's
partial reset, which the native vector environments and ``SyncVectorEnv`` have), and answers
sb3-contrib's ``env_method("action_masks")`` with the masks of ``info["action_mask"]``::

    from sb3_contrib import MaskablePPO
    from gamelab.envs.sb3 import make_sb3_vec

    envs = make_sb3_vec("gamelab/YatzySolitaire-v0", num_envs=16, rules="yatzy")
    model = MaskablePPO("MultiInputPolicy", envs, seed=0).learn(100_000)

The per-environment infos carry every entry of the vector info that is set for that
sub-environment (``illegal_action``; with ``vectorization_mode="sync"`` over single
environments and ``regret=True``, ``regret`` and the episode's ``summary``). Needs the ``rl``
extra (``pip install "gamelab[rl]"``): importing this module imports stable-baselines3.
"""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium as gym
import numpy as np

#: the base class, imported by name so that the type checker does not need stable-baselines3
VecEnv: Any = importlib.import_module("stable_baselines3.common.vec_env").VecEnv


class SB3VectorEnv(VecEnv):
    """A Gymnasium ``VectorEnv`` (with ``info["action_mask"]`` and ``reset_mask`` resets) seen
    as a Stable-Baselines3 ``VecEnv``; see the module."""

    def __init__(self, envs: gym.vector.VectorEnv) -> None:
        self.envs = envs  # before VecEnv's constructor, which reads render_mode through get_attr
        super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)
        self._actions = np.zeros(envs.num_envs, dtype=np.int64)
        self._masks: np.ndarray | None = None

    def _keep_masks(self, info: dict[str, Any], rows: np.ndarray | None = None) -> None:
        masks = np.asarray(info["action_mask"])
        if self._masks is None or rows is None:
            self._masks = masks.copy()
            return
        self._masks[rows] = masks[rows]

    def reset(self) -> Any:
        seeds = self._seeds if any(s is not None for s in self._seeds) else None
        obs, info = self.envs.reset(seed=seeds)
        self._keep_masks(info)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> Any:
        obs, rewards, terminated, truncated, info = self.envs.step(self._actions)
        done = np.asarray(terminated) | np.asarray(truncated)
        self._keep_masks(info)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for key, values in info.items():
            if key.startswith("_") or key == "action_mask":
                continue
            present = info.get("_" + key, np.ones(self.num_envs, dtype=bool))
            for i in np.flatnonzero(present).tolist():
                infos[i][key] = _row(values, i)
        if done.any():
            for i in np.flatnonzero(done).tolist():
                infos[i]["terminal_observation"] = _row(obs, i)
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            fresh, fresh_info = self.envs.reset(options={"reset_mask": done})
            obs = _merge(obs, fresh, done)
            self._keep_masks(fresh_info, np.flatnonzero(done))
        return obs, np.asarray(rewards, dtype=np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every sub-environment (N x actions)."""
        if self._masks is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._masks.copy()

    def close(self) -> None:
        self.envs.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        owner = self if attr_name == "action_masks" else self.envs
        return [getattr(owner, attr_name) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the sub-environments of a vector environment share {attr_name}")

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.envs, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]


def make_sb3_vec(env_id: str, num_envs: int, **settings: Any) -> SB3VectorEnv:
    """``gymnasium.make_vec(env_id, num_envs, **settings)`` (the native vector environment of
    Voltorb and Yatzy; for the others ``SyncVectorEnv``) as a Stable-Baselines3 ``VecEnv``."""
    return SB3VectorEnv(gym.make_vec(env_id, num_envs=num_envs, **settings))


def _row(obs: Any, i: int) -> Any:
    """Sub-environment i's part of a batched observation or info entry (nested dicts kept,
    Gymnasium's ``_key`` presence flags left out)."""
    if isinstance(obs, dict):
        return {key: _row(value, i) for key, value in obs.items() if not key.startswith("_")}
    value = obs[i]
    return value.copy() if isinstance(value, np.ndarray) else value


def _merge(obs: Any, fresh: Any, rows: np.ndarray) -> Any:
    if isinstance(obs, dict):
        return {key: _merge(obs[key], fresh[key], rows) for key in obs}
    merged = np.array(obs)
    merged[rows] = np.asarray(fresh)[rows]
    return merged
