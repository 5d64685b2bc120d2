"""gamelab.envs.sb3: the native vector environments as Stable-Baselines3 VecEnvs (the same
episodes as single environments with SB3's same-step autoreset; MaskablePPO trains on them).
Skipped without the `rl` extra."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("sb3_contrib")

import gamelab.envs  # noqa: E402, F401  (registers the environments)
from gamelab.envs.sb3 import SB3VectorEnv, make_sb3_vec  # noqa: E402


@pytest.mark.parametrize(
    "env_id, kwargs",
    [("gamelab/YatzySolitaire-v0", {"rules": "yahtzee"}), ("gamelab/LatticeFold-v0", {})],
)
def test_sb3_vector_env_plays_the_episodes_of_single_environments(env_id, kwargs):
    """Sub-environment i, seeded by ``seed(3)``, plays the episodes of a single environment
    reset with seed 3 + i and then without one; an episode's end gives SB3's done, the last
    observation in ``terminal_observation`` and the next episode's first observation at once."""
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    n = 2
    envs = make_sb3_vec(env_id, n, **kwargs)
    assert is_masking_supported(envs)
    singles = [gymnasium.make(env_id, **kwargs).unwrapped for _ in range(n)]
    envs.seed(3)
    obs = envs.reset()
    pairs = [e.reset(seed=3 + i) for i, e in enumerate(singles)]
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(120):
        masks = get_action_masks(envs)
        for i, (s_obs, s_info) in enumerate(pairs):
            assert all(np.array_equal(obs[k][i], s_obs[k]) for k in obs)
            assert np.array_equal(masks[i], s_info["action_mask"])
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        obs, rewards, dones, infos = envs.step(actions)
        for i, env in enumerate(singles):
            s_obs, reward, term, trunc, s_info = env.step(int(actions[i]))
            assert (rewards[i], dones[i]) == (reward, term or trunc)
            if dones[i]:
                ends += 1
                final = infos[i]["terminal_observation"]
                assert all(np.array_equal(final[k], s_obs[k]) for k in s_obs)
                s_obs, s_info = env.reset()
            pairs[i] = (s_obs, s_info)
    assert ends >= 2


def test_maskable_ppo_trains_on_a_native_vector_env():
    from sb3_contrib import MaskablePPO

    envs = make_sb3_vec("gamelab/VoltorbFlip-v0", 4, level=1)
    assert isinstance(envs, SB3VectorEnv) and type(envs.envs).__module__ == "gamelab.envs.vector"
    model = MaskablePPO(
        "MultiInputPolicy", envs, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu"
    )
    model.learn(64)
    assert model.num_timesteps == 64
    obs = envs.reset()
    actions, _ = model.predict(obs, action_masks=envs.action_masks(), deterministic=True)
    assert all(envs.action_masks()[i, a] == 1 for i, a in enumerate(actions))
