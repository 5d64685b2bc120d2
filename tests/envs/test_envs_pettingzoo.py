"""The PettingZoo environments: the library's API and seed tests, masks, illegal actions and
regret against the Owaré tablebase and the Yatzy optimum (cheap settings)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from gamelab.core.state import IllegalActionError  # noqa: E402
from gamelab.envs.multi import oware_env, yatzy_duel_env  # noqa: E402


@pytest.mark.parametrize("make", [oware_env, yatzy_duel_env])
def test_api_and_seed_tests(make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations and the names south/north
        api_test(make(render_mode="ansi"), num_cycles=200)
        seed_test(make, num_cycles=30)
    env = make(render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3


def _random_game(env, seed):
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    regrets = {a: [] for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) and all(
            env.observe(a)["action_mask"].sum() == 0 for a in env.agents if a != agent
        )
        env.step(int(rng.choice(legal)))
        if "regret" in env.infos.get(agent, {}):
            regrets[agent].append(env.infos[agent]["regret"])
    return regrets


def test_illegal_action_raises_and_changes_nothing():
    env = oware_env()
    env.reset(seed=0)
    before = env.state.to_text()
    env.step(2)
    assert env.state.to_text() != before
    env = oware_env(start="0-0-0-0-0-1-1-0-0-0-0-0-23-23-S")
    env.reset()
    before = env.state.to_text()
    with pytest.raises(IllegalActionError, match="action 0 is not legal"):
        env.step(0)  # South's first house is empty
    assert env.state.to_text() == before


def test_oware_regret_is_exact_from_the_tablebase():
    """At a board of at most 12 seeds the regret of a move is the tablebase's loss of it."""
    from gamelab.oware.rules import Position
    from gamelab.oware.tablebase import load_tablebase

    start = "1-2-0-1-0-1-2-1-0-1-0-1-19-19-S"
    table = load_tablebase(12)
    position = Position.from_text(start)
    values = {}
    for move in position.legal_moves():
        child = position.play(move)
        if child.is_over():
            a, b = child.result()
            values[move] = a - b
        else:
            values[move] = -table.final_difference(child)
    env = oware_env(start=start, regret=True)
    for move, value in values.items():
        env.reset()
        env.step(move)
        info = env.infos["south"]
        assert info["regret_exact"] is True
        assert info["regret"] == pytest.approx(max(values.values()) - value)


def test_regrets_are_never_negative():
    regrets = _random_game(oware_env(regret=True, depth=3), 2)
    assert all(r >= 0 for rs in regrets.values() for r in rs)
    assert sum(map(len, regrets.values())) > 10
    regrets = _random_game(
        yatzy_duel_env(regret=True, win_turns=0), 3
    )  # win play: test_envs_winplay
    assert all(len(rs) >= 15 and min(rs) >= 0 for rs in regrets.values())
    assert sum(sum(rs) for rs in regrets.values()) > 0  # random keeps lose points


def test_bad_settings():
    with pytest.raises(ValueError, match="unknown rules"):
        yatzy_duel_env(rules="poker")
    with pytest.raises(ValueError, match="tablebase_seeds must be"):
        oware_env(tablebase_seeds=40)
    with pytest.raises(ValueError, match="depth must be between"):
        oware_env(regret=True, depth=0)
    with pytest.raises(ValueError, match="48 seeds"):
        oware_env(start="1-1-1-1-1-1-1-1-1-1-1-1-0-0-S")


def test_masks_in_the_observation_and_the_info():
    """PettingZoo's convention: ``observation["action_mask"]`` for every agent (zeros when it is
    not the agent's turn) and ``info["action_mask"]`` for the agent to move."""
    for env in (oware_env(), yatzy_duel_env()):
        env.reset(seed=4)
        rng = np.random.default_rng(4)
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                assert not obs["action_mask"].any()
                env.step(None)
                continue
            assert obs["action_mask"].dtype == np.int8
            assert np.array_equal(info["action_mask"], obs["action_mask"])
            assert env.observation_space(agent).contains(obs)
            env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))


def _future(env, rng, steps):
    """What the next `steps` moves (random legal, from `rng`) show: observations, rewards,
    infos (regrets included), until the game ends."""
    seen = []
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        obs = env.observe(agent)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        info = {
            k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in env.infos[agent].items()
        }
        seen.append((agent, obs["observation"].tolist(), dict(env.rewards), info))
    return seen


@pytest.mark.parametrize(
    "make, kwargs, before, after",
    [
        (oware_env, {"regret": True, "depth": 2}, 30, 200),  # to the end: the tablebase's regrets
        (yatzy_duel_env, {"regret": True, "win_turns": 1}, 40, 200),  # and win play at the end
    ],
)
def test_pickle_and_deepcopy_mid_game_with_the_oracle_continue_identically(
    make, kwargs, before, after
):
    import copy
    import pickle

    env = make(**kwargs)
    env.reset(seed=11)
    _future(env, np.random.default_rng(3), before)
    assert env._oracle is not None  # the oracle is on and has been used
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    assert all(c._oracle is None for c in copies)  # not copied: rebuilt on first use
    futures = [_future(e, np.random.default_rng(7), after) for e in (env, *copies)]
    assert futures[0] == futures[1] == futures[2]
    assert all(env.terminations.values())  # played to the end
    assert any("regret" in info for *_, info in futures[0])
    late = "win_regret" if make is yatzy_duel_env else "regret_exact"
    assert any(info.get(late) for *_, info in futures[0])
