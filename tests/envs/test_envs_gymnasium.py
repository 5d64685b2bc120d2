"""The Gymnasium environments: the library's checker, the action mask, regret against the
oracle, the episode summary, illegal actions and bad settings (small settings: cheap)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import gamelab.envs  # noqa: E402, F401  (registers the environments)
from gamelab.core.state import IllegalActionError  # noqa: E402

ENVS = {
    "gamelab/VoltorbFlip-v0": {"level": 1},
    "gamelab/YatzySolitaire-v0": {"rules": "yatzy"},
    "gamelab/PokemonWordle-v0": {"names": "gen1"},
    "gamelab/PokemonWordle-v1": {"names": "gen1"},
    "gamelab/LatticeFold-v0": {"sequence": "HPHPPHHPHH"},
}


@pytest.mark.parametrize("env_id", list(ENVS))
@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_check_env(env_id, mode):
    from gymnasium.utils.env_checker import check_env

    # the oracle is exercised once per environment (ansi); the picture check runs without it
    env = gymnasium.make(env_id, render_mode=mode, regret=mode == "ansi", **ENVS[env_id])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings fail the test
        check_env(env.unwrapped)
    env.reset(seed=0)
    frame = env.render()
    if mode == "ansi":
        assert isinstance(frame, str) and frame
    else:
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3


def _play(env_id, seed, choose):
    env = gymnasium.make(env_id, regret=True, optimal_action=True, **ENVS[env_id])
    obs, info = env.reset(seed=seed)
    flat_space = gymnasium.spaces.flatten_space(env.observation_space)
    total, regrets, done = 0.0, [], False
    rng = np.random.default_rng(seed)
    while not done:
        assert flat_space.contains(gymnasium.spaces.flatten(env.observation_space, obs))
        mask = info["action_mask"]
        assert mask[info["optimal_action"]] == 1
        action = choose(info, mask, rng)
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
        regrets.append(info["regret"])
    return total, regrets, info["summary"]


@pytest.mark.parametrize("env_id", list(ENVS))
def test_optimal_play_has_no_regret_and_random_play_loses(env_id):
    total, regrets, summary = _play(env_id, 1, lambda info, mask, rng: info["optimal_action"])
    assert max(regrets) < 1e-9
    assert summary["episode_return"] == pytest.approx(total)
    assert summary["loss"] == pytest.approx(0.0, abs=1e-9)
    assert summary["percent_of_optimal"] == pytest.approx(100.0)

    def random_legal(info, mask, rng):
        return int(rng.choice(np.flatnonzero(mask)))

    lost = 0.0
    for seed in range(3):
        total, regrets, summary = _play(env_id, seed, random_legal)
        assert min(regrets) >= 0
        assert summary["loss"] == pytest.approx(sum(regrets))
        assert summary["decisions"] == len(regrets)
        lost += summary["loss"]
    assert lost > 0  # random moves cost something in expectation


def test_regret_is_the_oracles_loss():
    """Yatzy: the regret of a box is the coach's loss for it (expected final score)."""
    from gamelab.yatzy.coach import advise

    env = gymnasium.make("gamelab/YatzySolitaire-v0", regret=True).unwrapped
    obs, info = env.reset(seed=4)
    env.step(int(np.flatnonzero(info["action_mask"])[-1]))  # keep all five: stop rolling
    state = env.state
    options = advise(env.game.rules, state.cards[0], state.dice, 0)
    worst = options[-1]
    box = 462 + env.game.rules.box_index(worst["box"])
    _, reward, _, _, info = env.step(box)
    assert info["regret"] == pytest.approx(worst["loss"])
    assert reward == worst["points"] + 0  # a box's points (no bonus on the first box)


def test_seeded_resets_repeat():
    env = gymnasium.make("gamelab/VoltorbFlip-v0", level=3)
    a, _ = env.reset(seed=7)
    b, _ = env.reset(seed=7)
    c, _ = env.reset(seed=8)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not all(np.array_equal(a[k], c[k]) for k in a)


def test_illegal_action_terminates_as_a_failed_game_or_raises():
    env = gymnasium.make("gamelab/YatzySolitaire-v0", regret=True).unwrapped
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, done, truncated, info = env.step(bad)
    assert done and info["illegal_action"] and reward == 0.0
    assert info["summary"]["illegal_action"] and info["regret"] > 200  # the whole game lost
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)
    env = gymnasium.make("gamelab/YatzySolitaire-v0", illegal_action="raise").unwrapped
    obs, info = env.reset(seed=0)
    before = env.state.to_text()
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action {bad} is not legal"):
        env.step(bad)
    assert env.state.to_text() == before
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # the episode goes on


@pytest.mark.parametrize(
    "env_id, kwargs, message",
    [
        ("gamelab/VoltorbFlip-v0", {"level": 9}, "level must be an integer from 1 to 8"),
        ("gamelab/VoltorbFlip-v0", {"generator": "x"}, "unknown generator 'x'; allowed"),
        (
            "gamelab/VoltorbFlip-v0",
            {"objective": "coins", "regret": True},
            "regret is measured for objective 'win'",
        ),
        ("gamelab/YatzySolitaire-v0", {"rules": "poker"}, "unknown rules 'poker'; allowed"),
        ("gamelab/PokemonWordle-v1", {"names": "gen12"}, "unknown word list 'gen12'"),
        ("gamelab/PokemonWordle-v1", {"rule": "loose"}, "unknown feedback rule 'loose'"),
        ("gamelab/LatticeFold-v0", {"sequence": "HXH"}, "only H and P are allowed"),
        ("gamelab/LatticeFold-v0", {"level": 0}, "level must be 1 to"),
        ("gamelab/LatticeFold-v0", {"sequence": "HPH", "level": 1}, "not both"),
        ("gamelab/YatzySolitaire-v0", {"illegal_action": "ignore"}, "illegal_action must be"),
    ],
)
def test_bad_settings(env_id, kwargs, message):
    with pytest.raises(ValueError, match=message):
        gymnasium.make(env_id, **kwargs)


def test_coins_objective_pays_the_coins_kept():
    env = gymnasium.make("gamelab/VoltorbFlip-v0", level=1, objective="coins").unwrapped
    obs, info = env.reset(seed=2)
    coins, done = 0, False
    while not done:
        safe = [t for t in range(25) if env.stepper.board[t] == 1 and info["action_mask"][t]]
        action = safe[0] if safe and coins < 1 else 25  # flip a 1 (1 coin), then quit
        obs, reward, done, _, info = env.step(action)
        coins = int(obs["coins"][0])
    assert reward == coins == 1 and env.stepper.outcome == "quit"


def test_pack_level():
    from gamelab.lattice.puzzle import load_pack

    env = gymnasium.make("gamelab/LatticeFold-v0", level=1).unwrapped
    assert env.game.sequence == load_pack().levels[0].sequence


def test_readme_example_runs():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = text.split("## As reinforcement-learning environments", 1)[1]
    lines = block.split("```pycon", 1)[1].split("```", 1)[0].strip().splitlines()
    assert len(lines) == 3 and all(line.startswith(">>> ") for line in lines)
    scope: dict = {}
    exec(compile("\n".join(line[4:] for line in lines), "README", "exec"), scope)
    env, info = scope["env"], scope["info"]
    _, reward, _, _, info = env.step(int(info["action_mask"].argmax()))
    assert info["regret"] >= 0 and reward == 0.0
