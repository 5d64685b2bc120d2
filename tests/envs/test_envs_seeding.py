"""Fast seeding (gamelab.envs.seeding): the same generator as Gymnasium's, and the same boards."""

from __future__ import annotations

import numpy as np
import pytest

from gamelab.voltorb.rules import VoltorbSetting

pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
from gymnasium.utils import seeding  # noqa: E402

import gamelab.envs  # noqa: E402,F401
from gamelab.envs._seed_kernels import (  # noqa: E402
    seed_words,
    seed_words_python,
    seeded_uniforms,
    seeded_uniforms_python,
)
from gamelab.envs.seeding import first_uniforms, generator_after, np_random  # noqa: E402
from gamelab.voltorb.stepper import BoardQueue  # noqa: E402

SEEDS = [0, 1, 2, 123, 2**31 - 1, 2**32 - 1, 2**32, 2**40 + 7, 2**63, 2**64 - 1]
SEEDS += [int(s) for s in np.random.default_rng(5).integers(0, 2**62, 40)]


@pytest.mark.parametrize("seed", SEEDS)
def test_kernels_and_twins_are_numpys_seed_sequence_pcg64_and_uniforms(seed):
    low, high = seed % 2**32, seed // 2**32
    n_entropy = 2 if high else 1
    words = np.random.SeedSequence(seed).generate_state(4, np.uint64).tolist()
    assert seed_words(low, high, n_entropy).tolist() == words
    assert seed_words_python(low, high, n_entropy) == words
    reference = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    draws = reference.random(70)
    after = reference.bit_generator.state["state"]
    u, state = seeded_uniforms(low, high, n_entropy, 70)
    u_py, state_py, increment_py = seeded_uniforms_python(low, high, n_entropy, 70)
    assert u.tolist() == draws.tolist() == u_py
    assert (int(state[0]) << 64) | int(state[1]) == after["state"] == state_py
    assert (int(state[2]) << 64) | int(state[3]) == after["inc"] == increment_py


@pytest.mark.parametrize("seed", [0, 7, 2**33 + 1, 2**64 - 1, 2**64, 2**70 + 3])
def test_np_random_is_gymnasiums_generator(seed):
    ours, our_seed = np_random(seed)
    theirs, their_seed = seeding.np_random(seed)
    assert our_seed == their_seed
    assert ours.bit_generator.state == theirs.bit_generator.state
    assert ours.random(5).tolist() == theirs.random(5).tolist()
    # spawning and the seed sequence's fields are the real SeedSequence's
    assert ours.bit_generator.seed_seq.entropy == seed
    assert [g.random() for g in ours.spawn(2)] == [g.random() for g in theirs.spawn(2)]
    with pytest.raises(gymnasium.error.Error):
        np_random(-1)


def test_generator_after_goes_on_where_the_first_uniforms_stopped():
    u, state = first_uniforms(99, 64)
    reference = seeding.np_random(99)[0]
    assert u.tolist() == reference.random(64).tolist()
    assert generator_after(99, state).random(10).tolist() == reference.random(10).tolist()


@pytest.mark.parametrize(("generator", "level"), [("hgss", 1), ("hgss", 8), ("iid", 5)])
def test_reseeded_voltorb_deals_the_boards_of_gymnasiums_generator(generator, level):
    env = gymnasium.make("gamelab/VoltorbFlip-v0", level=level, generator=generator).unwrapped
    queue = BoardQueue(VoltorbSetting(level, generator))
    for seed in range(120):
        env.reset(seed=seed)
        reference = seeding.np_random(seed)[0]
        assert env.stepper.board == queue._boards[queue.take(reference)].tolist(), seed
        if seed % 10 == 0:  # unseeded resets go on with the same stream
            for _ in range(4):
                env.reset()
                assert env.stepper.board == queue._boards[queue.take(reference)].tolist()
            assert env.np_random.bit_generator.state == reference.bit_generator.state
    # the generator is built only when read; reading it gives the seeded stream's state
    env.reset(seed=5)
    assert env._generator is None
    reference = seeding.np_random(5)[0]
    reference.random(64)
    assert env.unwrapped._np_random.bit_generator.state == reference.bit_generator.state
    assert env.np_random_seed == 5
