"""The episode score (docs/envs.md, "Scores"): always in [0, 100], 100 for optimal play, the
realised share of the optimum where the game has no chance, and the leaderboard's intervals
inside their natural bounds."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import gamelab.envs  # noqa: E402  (registers the environments)
from gamelab.core.oracle import compounded_percent, kept_share  # noqa: E402

gamelab.envs.register()  # again: the toy game (tests/toy_nim.py) registered after the import

# the case: Voltorb level 3, where 15 of 40 random episodes left 0-100 before
SETTINGS = {
    "gamelab/VoltorbFlip-v0": {"level": 3},
    "gamelab/YatzySolitaire-v0": {"rules": "yatzy"},
    "gamelab/PokemonWordle-v1": {"names": "gen1"},  # the leaderboard's
    "gamelab/LatticeFold-v0": {"sequence": "HPHPPHHPHPPH"},
    "gamelab/Nim-v0": {"heap": 9},  # the generic environment of a registered toy, two players
}


def test_kept_share_and_its_product():
    assert kept_share(0.5, 0.25, 0.0) == 0.5
    assert kept_share(-3.0, -3.0, -11.0) == 1.0
    assert kept_share(-3.0, -11.0, -11.0) == 0.0  # a failed game keeps nothing
    assert kept_share(0.5, 0.5 + 1e-15, 0.0) == 1.0  # rounding stays inside
    assert kept_share(-1.0, -1.0, -1.0) == 1.0  # nothing left to lose
    assert compounded_percent([]) == 100.0
    assert compounded_percent([0.5, 0.5]) == 25.0


@pytest.mark.parametrize("env_id", list(SETTINGS))
def test_forty_random_episodes_score_inside_0_100(env_id):
    """A random agent that now and then plays a masked action (a failed game)."""
    env = gymnasium.make(env_id, regret=True, **SETTINGS[env_id])
    rng = np.random.default_rng(45)
    scores, estimates = [], []
    for seed in range(40):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            anything = rng.random() < 0.02
            action = rng.integers(env.action_space.n) if anything else rng.choice(legal)
            obs, _, done, _, info = env.step(int(action))
        summary = info["summary"]
        # core.review's words: the return is the optimum less the loss plus the luck
        expected = summary["optimal"] - summary["loss"] + summary["luck"]
        assert summary["episode_return"] == pytest.approx(expected, abs=1e-9)
        scores.append(summary["percent_of_optimal"])
        estimates.append(summary["return_percent_estimate"])
    assert all(0.0 <= s <= 100.0 for s in scores)
    assert min(scores) < 100.0  # random play loses something
    if "Voltorb" in env_id:  # the older per-episode share leaves 0-100 here
        assert min(estimates) < 0.0 or max(estimates) > 100.0


@pytest.mark.parametrize("env_id", list(SETTINGS))
def test_optimal_play_scores_100(env_id):
    env = gymnasium.make(env_id, regret=True, optimal_action=True, **SETTINGS[env_id])
    obs, info = env.reset(seed=3)
    done = False
    while not done:
        obs, _, done, _, info = env.step(info["optimal_action"])
    assert info["summary"]["percent_of_optimal"] == pytest.approx(100.0)


def test_without_chance_the_score_is_the_realised_share():
    """The lattice has no chance: the product telescopes to (G - L) / (V0 - L)."""
    env = gymnasium.make(
        "gamelab/LatticeFold-v0", regret=True, **SETTINGS["gamelab/LatticeFold-v0"]
    )
    rng = np.random.default_rng(1)
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        s = info["summary"]
        expected = 100 * (s["episode_return"] + 1) / (s["optimal"] + 1)
        assert s["percent_of_optimal"] == pytest.approx(expected)


def _tree(rng, depth, low):
    """A random game: `depth` decisions of two actions (a random policy's probabilities), each
    followed by a draw of three outcomes; returns at the leaves in [low, low + 10]."""
    if depth == 0:
        return low + 10 * rng.random()
    return [
        (rng.dirichlet([1, 1, 1]), [_tree(rng, depth - 1, low) for _ in range(3)]) for _ in range(2)
    ], rng.dirichlet([1, 1])


def _value(node):
    if not isinstance(node, tuple):
        return node
    return max(sum(p * _value(c) for p, c in zip(*action, strict=True)) for action in node[0])


def _expected(node, low, how):
    """The agent's expected return (how="return") or its expected score under the game's law
    ("real") or the value-weighted one ("weighted")."""
    if not isinstance(node, tuple):
        return node if how == "return" else 1.0
    actions, policy = node
    v, total = _value(node), 0.0
    for pi, (probs, children) in zip(policy, actions, strict=True):
        values = [_value(c) for c in children]
        q = sum(p * x for p, x in zip(probs, values, strict=True))
        later = [_expected(c, low, how) for c in children]
        if how == "return":
            total += pi * sum(p * x for p, x in zip(probs, later, strict=True))
            continue
        weights = [p * (x - low) / (q - low) for p, x in zip(probs, values, strict=True)]
        law = weights if how == "weighted" else probs
        total += pi * kept_share(v, q, low) * sum(w * x for w, x in zip(law, later, strict=True))
    return total


@pytest.mark.parametrize("seed", range(3))
def test_the_score_is_unbiased_under_the_value_weighted_law(seed):
    """docs/envs.md, "Scores": E[score] = (J - L) / (V0 - L) when chance is reweighted by the
    optimal value of the outcome; under the game's own law it is close, not equal."""
    low = -3.0
    rng = np.random.default_rng(seed)
    root = _tree(rng, 3, low)
    share = (_expected(root, low, "return") - low) / (_value(root) - low)
    assert _expected(root, low, "weighted") == pytest.approx(share, rel=1e-12)
    real = _expected(root, low, "real")
    assert real != pytest.approx(share, rel=1e-9) and abs(real - share) < 0.05
