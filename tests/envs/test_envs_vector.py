"""The native vector environments (gamelab.envs.vector): registered for ``make_vec``, the same
episodes as single environments with the same seeds, and their kernels against their twins."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import gamelab.envs  # noqa: E402, F401  (registers the environments)
from gamelab.envs.vector import VoltorbFlipVectorEnv, YatzySolitaireVectorEnv  # noqa: E402

CASES = [
    ("gamelab/VoltorbFlip-v0", {"level": 8}, 400),
    ("gamelab/VoltorbFlip-v0", {"level": 1, "generator": "iid", "objective": "coins"}, 300),
    ("gamelab/YatzySolitaire-v0", {"rules": "yatzy"}, 250),
    ("gamelab/YatzySolitaire-v0", {"rules": "yahtzee"}, 250),
]


def _reset_single(env, seed=None):
    obs, info = env.reset(seed=seed)
    while not info["action_mask"].any():  # a deal with nothing to find: the vector skips it
        obs, info = env.reset()
    return obs, info


@pytest.mark.parametrize("env_id, kwargs, steps", CASES)
def test_vector_episodes_are_those_of_single_environments_with_the_same_seeds(
    env_id, kwargs, steps
):
    """Sub-environment i of ``reset(seed=10)`` plays the episodes of a single environment reset
    with seed 10 + i and then without a seed: observations, masks, rewards, terminations and
    illegal actions (an agent that sometimes plays a masked action), step for step, through
    next-step autoresets."""
    n = 3
    vec = gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    assert type(vec).__module__ == "gamelab.envs.vector"
    assert vec.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    singles = [gymnasium.make(env_id, **kwargs).unwrapped for _ in range(n)]
    obs, info = vec.reset(seed=10)
    pairs = [_reset_single(e, 10 + i) for i, e in enumerate(singles)]
    rng = np.random.default_rng(0)
    done = [False] * n
    episodes = 0
    for _ in range(steps):
        for i, (s_obs, s_info) in enumerate(pairs):
            for key in obs:
                assert np.array_equal(obs[key][i], s_obs[key])
            # after an ending the next action is ignored: every action is allowed (not none)
            expected = np.ones_like(s_info["action_mask"]) if done[i] else s_info["action_mask"]
            assert np.array_equal(info["action_mask"][i], expected)
        assert np.array_equal(vec.action_masks(), info["action_mask"])
        assert info["action_mask"].any(axis=1).all()  # a masked softmax is never NaN
        assert vec.observation_space.contains(obs)
        masks = info["action_mask"]
        noise = rng.random(masks.shape) < 0.002  # now and then a masked action
        actions = np.argmax(rng.random(masks.shape) * (masks + noise), axis=1)
        obs, rewards, terminated, truncated, info = vec.step(actions)
        assert not truncated.any()
        for i, env in enumerate(singles):
            if done[i]:  # the vector's next-step autoreset
                pairs[i] = _reset_single(env)
                reward, term, bad = 0.0, False, False
                episodes += 1
            else:
                s_obs, reward, term, _, s_info = env.step(int(actions[i]))
                pairs[i] = (s_obs, s_info)
                bad = bool(s_info.get("illegal_action", False))
            assert (rewards[i], terminated[i], info["illegal_action"][i]) == (reward, term, bad)
            done[i] = term
    assert episodes >= 2


def test_vector_seeds_settings_and_bad_input():
    vec = VoltorbFlipVectorEnv(4, level=3)
    a, _ = vec.reset(seed=[5, 6, 7, 8])
    b, _ = vec.reset(seed=5)  # the same seeds: 5 + i
    assert all(np.array_equal(a[k], b[k]) for k in a)
    c, _ = vec.reset(seed=9)
    assert not np.array_equal(a["clues"], c["clues"])
    assert vec.action_space.shape == (4,) and vec.action_masks().shape == (4, 26)
    with pytest.raises(ValueError, match="without the oracle"):
        gymnasium.make_vec("gamelab/VoltorbFlip-v0", num_envs=2, regret=True)
    with pytest.raises(ValueError, match="level must be an integer from 1 to 8"):
        VoltorbFlipVectorEnv(2, level=9)
    with pytest.raises(ValueError, match="unknown rules 'poker'"):
        YatzySolitaireVectorEnv(2, rules="poker")
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        YatzySolitaireVectorEnv(0)
    with pytest.raises(ValueError, match="one seed per sub-environment"):
        vec.reset(seed=[1, 2])
    with pytest.raises(RuntimeError, match="reset"):
        YatzySolitaireVectorEnv(2).step(np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize("env_id, kwargs", [(c[0], c[1]) for c in CASES[::2]])
def test_reset_mask_starts_new_episodes_only_where_asked(env_id, kwargs):
    """``reset(options={"reset_mask": m})`` (Gymnasium's partial reset): the masked
    sub-environments start the episode a single environment starts with the same seed (or
    their next one, unseeded), the others go on exactly as a vector never reset."""
    n = 3
    vec = gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    twin = gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    obs, info = vec.reset(seed=20)
    twin.reset(seed=20)
    actions = np.argmax(info["action_mask"], axis=1)
    vec.step(actions)
    twin.step(actions)
    mask = np.array([False, True, False])
    obs, info = vec.reset(seed=[None, 7, None], options={"reset_mask": mask})
    single_obs, single_info = _reset_single(gymnasium.make(env_id, **kwargs).unwrapped, 7)
    for key in obs:
        assert np.array_equal(obs[key][1], single_obs[key])
    assert np.array_equal(info["action_mask"][1], single_info["action_mask"])
    rng = np.random.default_rng(1)
    for _ in range(30):  # sub-environments 0 and 2 never noticed
        masks = info["action_mask"]
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        obs, rewards, terminated, _, info = vec.step(actions)
        t_obs, t_rewards, t_terminated, _, t_info = twin.step(actions)
        for i in (0, 2):
            assert all(np.array_equal(obs[k][i], t_obs[k][i]) for k in obs)
            assert (rewards[i], terminated[i]) == (t_rewards[i], t_terminated[i])
            assert np.array_equal(info["action_mask"][i], t_info["action_mask"][i])
    obs, _ = vec.reset(options={"reset_mask": np.array([True, False, False])})  # unseeded
    assert vec.observation_space.contains(obs)
    with pytest.raises(ValueError, match="reset_mask must be a boolean array of shape"):
        vec.reset(options={"reset_mask": np.zeros(n, dtype=bool)})
    with pytest.raises(ValueError, match="reset_mask must be a boolean array of shape"):
        vec.reset(options={"reset_mask": np.ones(n + 1, dtype=bool)})
    with pytest.raises(RuntimeError, match="without a reset_mask first"):
        gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point").reset(
            options={"reset_mask": mask}
        )


def test_voltorb_vector_kernel_matches_twin():
    """step_rounds against step_rounds_python from the same arrays (random actions, quits,
    masked actions, autoresets and rows that run out of uniforms)."""
    from gamelab.voltorb._deal_kernels import level_tables
    from gamelab.voltorb._vector_kernels import new_rounds, step_rounds, step_rounds_python

    rng = np.random.default_rng(1)
    for generator, level, win in (("hgss", 8, True), ("iid", 2, False)):
        n = 6
        rounds = new_rounds(n)
        rounds[2][:, 3] = 1  # every round done: the first step deals
        stream = (rng.random((n, 300)), np.zeros(n, np.int64), rng.integers(0, 300, n))
        twin_stream, twin_rounds = (tuple(a.copy() for a in b) for b in (stream, rounds))
        out = (np.zeros(n), np.zeros(n, bool), np.zeros(n, bool), np.zeros(n, np.int64))
        tables = level_tables(generator, level)
        for _ in range(60):
            actions = rng.integers(-1, 27, n)
            keep = rng.random(n) < 0.8  # mostly legal
            mask = rounds[3]
            for i in np.flatnonzero(keep & mask.any(axis=1)):
                actions[i] = rng.choice(np.flatnonzero(mask[i]))
            step_rounds(actions, win, stream, tables, rounds, out)
            expected = step_rounds_python(actions, win, generator, level, twin_stream, twin_rounds)
            for got, want in zip(out, expected, strict=True):
                assert np.array_equal(got, want)
            for k, (got, want) in enumerate(
                zip(stream + rounds, twin_stream + twin_rounds, strict=True)
            ):
                assert np.array_equal(got, want), k


def test_yatzy_vector_kernel_matches_twin():
    """step_games against step_games_python from random positions, among them extra Yahtzees
    under each joker rule (the Yahtzee box filled, five of a kind rolled)."""
    from gamelab.yatzy._vector_kernels import (
        G_COLUMNS,
        G_F,
        G_FILLED,
        G_M,
        G_MASK,
        G_ROLL,
        chance_arrays,
        step_games,
        step_games_python,
    )
    from gamelab.yatzy.rules import ROLLS, get_rules
    from gamelab.yatzy.state import YatzyGame
    from gamelab.yatzy.stepper import SolitaireStepper, chance_tables, keep_masks

    rng = np.random.default_rng(2)
    five = np.flatnonzero(ROLLS.max(axis=1) == 5)
    for name in ("yahtzee", "yatzy", "yahtzee-free-joker"):
        try:
            rules = get_rules(name)
        except ValueError:
            continue
        stepper = SolitaireStepper(YatzyGame(rules))
        cumulative, rolls = chance_tables()
        chance = chance_arrays(cumulative, rolls)
        masks_of_rolls = keep_masks(stepper.n_actions)
        n, nb = 8, rules.n_boxes
        ybox = rules.boxes.index("yahtzee") if "yahtzee" in rules.boxes else 0
        game = np.zeros((n, G_COLUMNS), dtype=np.int64)
        card = np.full((n, nb), -1, dtype=np.int64)
        masks = np.zeros((n, stepper.n_actions), dtype=np.int8)
        for i in range(n):  # random positions with rolls left 0: box decisions
            filled = int(rng.integers(0, 1 << nb)) & ~(1 << int(rng.integers(nb)))
            if i % 2:
                filled |= 1 << ybox
            game[i, G_MASK], game[i, G_M] = filled, int(rng.integers(0, 64))
            game[i, G_F] = int(bool(filled >> ybox & 1) and rules.bonus_flags == 2 and i % 4 == 1)
            game[i, G_FILLED] = bin(filled).count("1")
            game[i, G_ROLL] = int(rng.choice(five)) if i % 2 else int(rng.integers(252))
            for b in range(nb):
                if filled >> b & 1:
                    card[i, b] = 0
        u = rng.random((n, 400))
        pos = np.zeros(n, dtype=np.int64)
        a = {"game": game, "card": card, "masks": masks, "pos": pos}
        t = {k: v.copy() for k, v in a.items()}
        from gamelab.yatzy._turn_kernels import legal_moves_python

        for i in range(n):  # the box mask of each position, then play on
            for arr in (a, t):
                arr["masks"][i] = 0
                g = arr["game"][i]
                for b, _, _ in legal_moves_python(
                    rules, int(g[G_MASK]), int(g[G_M]), int(g[G_F]), int(g[G_ROLL])
                ):
                    arr["masks"][i, 462 + b] = 1
        out = (np.zeros(n), np.zeros(n, bool), np.zeros(n, bool))
        for _ in range(40):
            actions = np.array(
                [
                    rng.choice(np.flatnonzero(a["masks"][i])) if a["masks"][i].any() else 0
                    for i in range(n)
                ]
            )
            actions[rng.random(n) < 0.05] = 3  # now and then whatever action 3 is
            step_games(
                actions,
                rules.kernel_rules(),
                a["game"],
                a["card"],
                a["masks"],
                masks_of_rolls,
                u,
                a["pos"],
                *chance,
                np.zeros(nb, dtype=np.int64),
                *out,
            )
            expected = step_games_python(
                actions,
                rules,
                t["game"],
                t["card"],
                t["masks"],
                masks_of_rolls,
                u,
                t["pos"],
                cumulative,
                rolls,
            )
            for got, want in zip(out, expected, strict=True):
                assert np.array_equal(got, want)
            for key in a:
                assert np.array_equal(a[key], t[key]), (name, key)
