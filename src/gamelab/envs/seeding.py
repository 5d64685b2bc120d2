"""Gymnasium's seeded generator, built without NumPy's slow seed hashing.

:func:`np_random` returns the generator ``gymnasium.utils.seeding.np_random(seed)`` returns (a
``PCG64`` seeded from ``SeedSequence(seed)``: the same stream, draw for draw), faster for a
seed below 2**64: the PCG64 state words come from one kernel call
(:mod:`gamelab.envs._seed_kernels`) through :class:`FastSeedSequence`, which stands in for the
``SeedSequence`` and hands everything else (``spawn``, ``entropy``, other state sizes) to a real
one built on first use. A reset with a new seed then skips NumPy's ``SeedSequence`` (about half
of a reseeded Voltorb reset under cProfile), which is what an agent that
reseeds every episode pays.

An environment whose chance is a stream of uniforms (Voltorb's dealer) needs no generator at
all to start a reseeded episode: :func:`first_uniforms` gives the generator's first draws of
``random`` and :func:`generator_after` the generator itself, built only when something asks for
it, positioned after those draws (``GameEnv`` in :mod:`gamelab.envs.single` does this).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.random.bit_generator import ISpawnableSeedSequence

from gamelab.envs._seed_kernels import seed_words, seeded_uniforms

_WORD = 1 << 32


class FastSeedSequence(ISpawnableSeedSequence):
    """``numpy.random.SeedSequence(seed)`` for an int seed in 0..2**64-1, whose PCG64 words
    (``generate_state(4, uint64)``) come from :func:`~gamelab.envs._seed_kernels.seed_words`."""

    def __init__(self, seed: int) -> None:
        if not 0 <= seed < _WORD * _WORD:
            raise ValueError(f"seed must be 0 to 2**64 - 1 here, got {seed}")
        self._seed = seed
        self._real: np.random.SeedSequence | None = None

    @property
    def real(self) -> np.random.SeedSequence:
        """The NumPy SeedSequence this one stands for (built on first use)."""
        if self._real is None:
            self._real = np.random.SeedSequence(self._seed)
        return self._real

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray:
        if n_words == 4 and (dtype is np.uint64 or np.dtype(dtype) == np.uint64):
            low, high = self._seed % _WORD, self._seed // _WORD
            return seed_words(low, high, 2 if high else 1)
        return self.real.generate_state(n_words, dtype)

    def spawn(self, n_children: int) -> list[Any]:  # SeedSequences: the real one's children
        return self.real.spawn(n_children)

    def __getattr__(self, name: str) -> Any:  # entropy, spawn_key, pool_size, ...
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.real, name)

    def __repr__(self) -> str:
        return f"FastSeedSequence({self._seed})"


def np_random(seed: int) -> tuple[np.random.Generator, int]:
    """``gymnasium.utils.seeding.np_random(seed)`` for a non-negative int `seed`: (the generator,
    the seed). Seeds of 2**64 and more go the slow way; others are refused as Gymnasium does."""
    if fits(seed):
        return np.random.Generator(np.random.PCG64(FastSeedSequence(seed))), seed
    from gymnasium.utils import seeding

    return seeding.np_random(seed)


def fits(seed: object) -> bool:
    """Whether `seed` is an int these fast paths take (0..2**64-1)."""
    return isinstance(seed, int) and 0 <= seed < _WORD * _WORD


def first_uniforms(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(``np_random(seed)[0].random(n)``, the generator's PCG64 state after those draws, for
    :func:`generator_after`), without building the generator. `seed` must :func:`fit <fits>`."""
    low, high = seed % _WORD, seed // _WORD
    return seeded_uniforms(low, high, 2 if high else 1, n)


def generator_after(seed: int, state: np.ndarray) -> np.random.Generator:
    """``np_random(seed)[0]`` advanced to `state` (from :func:`first_uniforms`): the generator
    that goes on with the stream where the first uniforms stopped."""
    bits = np.random.PCG64(FastSeedSequence(seed))
    words = [int(w) for w in state]
    bits.state = {
        "bit_generator": "PCG64",
        "state": {"state": (words[0] << 64) | words[1], "inc": (words[2] << 64) | words[3]},
        "has_uint32": 0,
        "uinteger": 0,
    }
    return np.random.Generator(bits)
