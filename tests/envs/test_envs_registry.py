"""Environments built from the games' records (:class:`gamelab.core.state.GameInfo`): every
record's ids are registered with its class or the generic one, and the toy game of
``tests/toy_nim.py``, registered in one place, passes Gymnasium's checker and PettingZoo's API
and seed tests through the generic classes, and plays, copies and scores like the others."""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gamelab.envs  # noqa: E402
from gamelab.core.state import game_info, registered_games  # noqa: E402
from gamelab.envs import GENERIC_GYM_ENV, aec_env, env_ids  # noqa: E402
from gamelab.envs.gym_env import ProtocolEnv  # noqa: E402
from gamelab.envs.multi import OwareEnv, ProtocolAEC, YatzyDuelEnv  # noqa: E402

gamelab.envs.register()  # again: the toy registered after gamelab.envs was imported


def test_every_record_id_is_registered_with_its_class():
    ids = env_ids()
    for info in registered_games():
        for env_id in info.envs:
            spec = gymnasium.spec(env_id)
            assert spec.entry_point == (info.gym_env or GENERIC_GYM_ENV) == ids[env_id]
            assert spec.vector_entry_point == (info.vector_env or None)
            if not info.gym_env:
                assert spec.kwargs == {"game": info.name}
    assert ids["gamelab/Nim-v0"] == GENERIC_GYM_ENV  # the toy names no class
    assert set(gamelab.envs.ENV_IDS) < set(ids)  # the package's own, and the toy's


@pytest.mark.parametrize(
    "options",
    [{}, {"opponent": "optimal"}, {"player": 1, "heap": 9}, {"render_mode": "ansi"}],
)
def test_the_toy_passes_gymnasiums_checker(options):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("gamelab/Nim-v0", regret=True, optimal_action=True, **options)
    assert isinstance(env.unwrapped, ProtocolEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings fail the test
        check_env(env.unwrapped)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    if options.get("render_mode"):
        assert env.render() == env.unwrapped.state.to_text()


def test_a_package_game_without_an_id_plays_through_the_generic_class():
    """Owaré names no Gymnasium id; the generic class still plays it against a random opponent,
    observed through the package's view."""
    from gymnasium.utils.env_checker import check_env

    env = ProtocolEnv("oware")
    assert set(env.observation_space) == {"houses", "stores", "to_move"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*not having a spec")  # (made directly)
        check_env(env)


def test_the_toys_optimal_agent_wins_with_no_regret_and_no_luck():
    env = gymnasium.make("gamelab/Nim-v0", heap=9, regret=True, optimal_action=True)
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        done, regrets = False, []
        while not done:
            obs, reward, done, _, info = env.step(info["optimal_action"])
            regrets.append(info["regret"])
        s = info["summary"]
        assert reward == 1.0 and regrets == [0.0] * len(regrets)  # 9 is a win for the mover
        assert (s["optimal"], s["loss"], s["percent_of_optimal"]) == (1.0, 0.0, 100.0)
        assert s["luck"] == 0.0


def test_the_toy_against_the_optimal_opponent_has_no_luck():
    """A poor move against the optimal opponent costs exactly what the oracle said: the
    luck is only the opponent's (none) and the return is the optimum less the loss."""
    env = gymnasium.make("gamelab/Nim-v0", heap=9, regret=True, opponent="optimal")
    obs, info = env.reset(seed=1)
    obs, reward, done, _, info = env.step(2)  # takes 3, leaving 6: lost against best play
    assert info["regret"] == 2.0
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    s = info["summary"]
    assert s["episode_return"] == -1.0 and s["loss"] == 2.0 and s["luck"] == 0.0
    assert s["costliest"] == [1]  # the first decision lost the game (core.review.Totals)


def test_the_toy_copies_mid_episode_and_goes_on_alike():
    env = gymnasium.make("gamelab/Nim-v0", heap=30, regret=True).unwrapped
    obs, info = env.reset(seed=4)
    env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    twins = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for copy_ in twins:
        assert copy_._oracle is None  # a cache: the copy builds its own
    runs = []
    for e in [env, *twins]:
        rng = np.random.default_rng(7)
        seen = []
        for _ in range(3):  # into the next episodes
            done = False
            mask = e.action_masks()
            while not done:
                action = int(rng.choice(np.flatnonzero(mask)))
                obs, reward, done, _, info = e.step(action)
                mask = info["action_mask"]
                seen.append((action, reward, info["regret"], obs["heap"].argmax()))
            seen.append(info["summary"]["luck"])
            e.reset()
        runs.append(seen)
    assert runs[0] == runs[1] == runs[2]


def test_the_toy_passes_pettingzoos_api_and_seed_tests():
    from pettingzoo.test import api_test, seed_test

    env = aec_env("nim", heap=9, regret=True, render_mode="ansi")
    assert isinstance(env, ProtocolAEC) and env.metadata["name"] == "gamelab_nim_v0"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a Dict observation, as PettingZoo's own games
        api_test(env, num_cycles=50)
        seed_test(lambda: aec_env("nim", heap=9), num_cycles=50)
    env.reset(seed=0)
    final = {}
    for agent in env.agent_iter():
        obs, reward, done, truncated, info = env.last()
        if done or truncated:
            final[agent] = reward
            env.step(None)
            continue
        assert env.observation_space(agent).contains(obs)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert env.infos[agent]["regret"] >= 0.0
    assert sorted(final.values()) == [-1.0, 1.0]


def test_a_records_own_classes_and_refusals():
    assert isinstance(aec_env("oware"), OwareEnv)
    assert isinstance(aec_env("yatzy"), YatzyDuelEnv)
    with pytest.raises(ValueError, match="one player"):
        aec_env("voltorb")
    with pytest.raises(ValueError, match="opponent must be"):
        gymnasium.make("gamelab/Nim-v0", opponent="perfect")
    with pytest.raises(ValueError, match="player must be 0 to 1"):
        gymnasium.make("gamelab/Nim-v0", player=2)
    with pytest.raises(ValueError, match="heap must be"):
        gymnasium.make("gamelab/Nim-v0", heap=0)
    with pytest.raises(ValueError, match="render_mode"), pytest.warns(UserWarning, match="ansi"):
        gymnasium.make("gamelab/Nim-v0", render_mode="rgb_array")  # (Gymnasium warns first)
    with pytest.raises(ValueError, match="render_mode must be 'ansi' or None"):
        aec_env("nim", render_mode="rgb_array")  # (no picture of a game without its class)
    assert game_info("nim").envs == ("gamelab/Nim-v0",)
