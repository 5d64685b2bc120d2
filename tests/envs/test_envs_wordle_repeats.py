"""PokemonWordle-v1 masks the guesses already made; v0 is kept as published (a guess may
repeat). A repeated guess reveals nothing new, so it never helps: the oracle's values are the
same in both, and its optimal guess is never a repeat."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import gamelab.envs  # noqa: E402, F401  (registers the environments)
from gamelab.core.state import IllegalActionError  # noqa: E402


def test_v1_masks_a_guess_already_made_and_v0_does_not():
    v0 = gymnasium.make("gamelab/PokemonWordle-v0").unwrapped
    v1 = gymnasium.make("gamelab/PokemonWordle-v1").unwrapped
    for env in (v0, v1):
        env.reset(seed=3)
    _, _, done0, _, info0 = v0.step(29)
    _, _, done1, _, info1 = v1.step(29)
    assert not done0 and not done1  # seed 3's answer is not guess 29
    assert info0["action_mask"][29] == 1 and info0["action_mask"].all()
    assert info1["action_mask"][29] == 0 and info1["action_mask"].sum() == v1.action_space.n - 1
    assert np.array_equal(v1.action_masks(), info1["action_mask"])
    v0.step(29)  # v0: a legal repeat
    assert v0.stepper.guesses == [29, 29]
    strict = gymnasium.make("gamelab/PokemonWordle-v1", illegal_action="raise").unwrapped
    strict.reset(seed=3)
    strict.step(29)
    with pytest.raises(IllegalActionError):
        strict.step(29)
    _, reward, done, _, info = v1.step(29)  # the default: a masked action fails the game
    assert done and info["illegal_action"]
    with pytest.raises(ValueError, match="repeats must be True or False"):
        gymnasium.make("gamelab/PokemonWordle-v1", repeats="no")


def test_v1_random_agent_never_repeats_and_the_oracle_agrees():
    """A random agent over the mask never repeats a guess; with the oracle on, the optimal
    guess is always legal, a masked guess's regret is the failed game's, and the values are
    v0's."""
    env = gymnasium.make("gamelab/PokemonWordle-v1", regret=True, optimal_action=True).unwrapped
    twin = gymnasium.make("gamelab/PokemonWordle-v0", regret=True).unwrapped
    rng = np.random.default_rng(0)
    for episode in range(30):
        _, info = env.reset(seed=episode)
        twin.reset(seed=episode)
        done, guesses = False, []
        while not done:
            mask = info["action_mask"]
            assert mask[info["optimal_action"]] == 1
            assert not mask[guesses].any()
            action = int(rng.choice(np.flatnonzero(mask)))
            guesses.append(action)
            _, _, done, _, info = env.step(action)
            _, _, _, _, t_info = twin.step(action)
            assert info["regret"] == pytest.approx(t_info["regret"])
        assert len(set(guesses)) == len(guesses)
    env.reset(seed=1)
    first = int(np.flatnonzero(env.action_masks())[0])
    _, _, done, _, _ = env.step(first)
    if not done:
        value = env._oracle_value()
        _, _, done, _, info = env.step(first)  # the repeat, now masked
        assert done and info["illegal_action"]
        assert info["regret"] == pytest.approx(value - env.failed_return(env.state))


def test_v0_still_plays_and_warns_that_it_is_out_of_date():
    """-v0 stays registered for results obtained on it, and Gymnasium says -v1 replaces it; the
    leaderboard and the speed benchmark play -v1."""
    from gamelab.envs.baselines import ENVIRONMENTS

    with pytest.warns(DeprecationWarning, match="PokemonWordle-v0 is out of date.*v1"):
        v0 = gymnasium.make("gamelab/PokemonWordle-v0")
    _, info = v0.reset(seed=0)
    assert info["action_mask"].all()
    wordle = [e for e in ENVIRONMENTS if e.family == "PokemonWordle"]
    assert [e.env_id for e in wordle] == ["gamelab/PokemonWordle-v1"]
