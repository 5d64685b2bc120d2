"""A Gymnasium generator's first uniforms, computed from its seed in one kernel call.

``gymnasium.utils.seeding.np_random(seed)`` builds ``Generator(PCG64(SeedSequence(seed)))``;
PCG64 takes its 128-bit state and increment from ``generate_state(4, uint64)``. Building and
hashing NumPy's ``SeedSequence`` was about half of a reseeded Voltorb reset under cProfile; this
kernel computes the same words for a seed below 2**64 (one or two 32-bit entropy words, a pool of
four). The algorithm is O'Neill's ``seed_seq`` design as NumPy documents it: hash each entropy
word into the pool with a multiplicative hash whose constant advances at every use, mix every
pool word into every other one, then draw the output words from the pool with a second hash.

:func:`seeded_uniforms` goes on: it seeds PCG64 from those words as NumPy does (a 128-bit LCG
with an odd increment: state 0, one step, add the seed word, one step) and draws
``Generator.random``'s doubles (each step's XSL-RR output, its top 53 bits over 2**53), in
128-bit arithmetic on pairs of 64-bit words; it also returns the state after the draws, so a
NumPy generator can take over the stream where the kernel stopped.

The plain-Python twins :func:`seed_words_python` and :func:`seeded_uniforms_python` compute
the same with Python integers; ``tests/envs/test_envs_seeding.py`` checks all four against
NumPy's ``SeedSequence``, ``PCG64`` and ``Generator.random``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MASK = 0xFFFFFFFF
INIT_A, MULT_A = 0x43B0D7E5, 0x931E8875  # the pool's hash
INIT_B, MULT_B = 0x8B51F9DD, 0x58F38DED  # the output's hash
MIX_L, MIX_R = 0xCA01F9DD, 0x4973F715  # mixing two pool words
POOL = 4
#: PCG64's 128-bit multiplier (NumPy's PCG_DEFAULT_MULTIPLIER_128), as two 64-bit words
MULT_HIGH, MULT_LOW = 0x2360ED051FC65DA4, 0x4385DF649FCCF645


@njit(cache=True)
def seed_words(low, high, n_entropy):
    """The four uint64 state words of ``SeedSequence(high * 2**32 + low)`` (`n_entropy` 32-bit
    entropy words: 1 when the seed is below 2**32, else 2)."""
    m = np.uint64(MASK)
    mult_a, mult_b = np.uint64(MULT_A), np.uint64(MULT_B)
    mix_l, mix_r = np.uint64(MIX_L), np.uint64(MIX_R)
    sixteen = np.uint64(16)
    entropy = np.zeros(POOL, dtype=np.uint64)
    entropy[0] = np.uint64(low)
    if n_entropy > 1:
        entropy[1] = np.uint64(high)
    pool = np.zeros(POOL, dtype=np.uint64)
    h = np.uint64(INIT_A)
    for i in range(POOL):
        v = entropy[i] ^ h
        h = (h * mult_a) & m
        v = (v * h) & m
        pool[i] = v ^ (v >> sixteen)
    for src in range(POOL):
        for dst in range(POOL):
            if src != dst:
                v = pool[src] ^ h
                h = (h * mult_a) & m
                v = (v * h) & m
                v ^= v >> sixteen
                r = (mix_l * pool[dst] - mix_r * v) & m
                pool[dst] = r ^ (r >> sixteen)
    out = np.zeros(POOL, dtype=np.uint64)
    h = np.uint64(INIT_B)
    for i in range(2 * POOL):
        v = pool[i % POOL] ^ h
        h = (h * mult_b) & m
        v = (v * h) & m
        v ^= v >> sixteen
        if i % 2 == 0:
            out[i // 2] = v
        else:
            out[i // 2] |= v << np.uint64(32)
    return out


@njit(cache=True)
def _step(s_hi, s_lo, i_hi, i_lo):
    """One PCG64 step, state * multiplier + increment modulo 2**128, on 64-bit halves."""
    m32 = np.uint64(0xFFFFFFFF)
    thirty_two = np.uint64(32)
    m_hi, m_lo = np.uint64(MULT_HIGH), np.uint64(MULT_LOW)
    a0, a1 = s_lo & m32, s_lo >> thirty_two
    b0, b1 = m_lo & m32, m_lo >> thirty_two
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> thirty_two) + (p01 & m32) + (p10 & m32)
    lo = (p00 & m32) | (mid << thirty_two)
    hi = p11 + (p01 >> thirty_two) + (p10 >> thirty_two) + (mid >> thirty_two)
    hi += s_hi * m_lo + s_lo * m_hi
    new_lo = lo + i_lo
    carry = np.uint64(1) if new_lo < lo else np.uint64(0)
    return hi + i_hi + carry, new_lo


@njit(cache=True)
def seeded_uniforms(low, high, n_entropy, n):
    """(the first `n` doubles of ``Generator(PCG64(SeedSequence(seed))).random``, the PCG64
    state after them as [state high, state low, increment high, increment low]) for
    ``seed = high * 2**32 + low`` (see :func:`seed_words`)."""
    words = seed_words(low, high, n_entropy)
    one = np.uint64(1)
    i_hi = (words[2] << one) | (words[3] >> np.uint64(63))
    i_lo = (words[3] << one) | one
    s_hi, s_lo = i_hi, i_lo  # 0 * multiplier + increment
    s_lo = s_lo + words[1]
    s_hi = s_hi + words[0] + (one if s_lo < words[1] else np.uint64(0))
    s_hi, s_lo = _step(s_hi, s_lo, i_hi, i_lo)
    u = np.empty(n, dtype=np.float64)
    sixty_four, fifty_eight, sixty_three = np.uint64(64), np.uint64(58), np.uint64(63)
    for k in range(n):
        s_hi, s_lo = _step(s_hi, s_lo, i_hi, i_lo)
        x = s_hi ^ s_lo
        r = s_hi >> fifty_eight
        out = (x >> r) | (x << ((sixty_four - r) & sixty_three))
        u[k] = np.float64(out >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    state = np.empty(4, dtype=np.uint64)
    state[0], state[1], state[2], state[3] = s_hi, s_lo, i_hi, i_lo
    return u, state


def seeded_uniforms_python(
    low: int, high: int, n_entropy: int, n: int
) -> tuple[list[float], int, int]:
    """:func:`seeded_uniforms` with Python integers: (the doubles, the 128-bit state after them,
    the increment)."""
    words = seed_words_python(low, high, n_entropy)
    mask = (1 << 128) - 1
    mult = (MULT_HIGH << 64) | MULT_LOW
    increment = ((((words[2] << 64) | words[3]) << 1) | 1) & mask
    state = (increment + ((words[0] << 64) | words[1])) & mask
    state = (state * mult + increment) & mask
    doubles = []
    for _ in range(n):
        state = (state * mult + increment) & mask
        x = (state >> 64) ^ (state & ((1 << 64) - 1))
        r = state >> 122
        out = ((x >> r) | (x << ((64 - r) % 64))) & ((1 << 64) - 1)
        doubles.append((out >> 11) / 9007199254740992.0)
    return doubles, state, increment


def seed_words_python(low: int, high: int, n_entropy: int) -> list[int]:
    """:func:`seed_words` with Python integers."""
    entropy = [low, high if n_entropy > 1 else 0, 0, 0]
    h = INIT_A

    def hashed(value: int) -> int:
        nonlocal h
        value ^= h
        h = (h * MULT_A) & MASK
        value = (value * h) & MASK
        return value ^ (value >> 16)

    pool = [hashed(word) for word in entropy]
    for src in range(POOL):
        for dst in range(POOL):
            if src != dst:
                r = (MIX_L * pool[dst] - MIX_R * hashed(pool[src])) & MASK
                pool[dst] = r ^ (r >> 16)
    h = INIT_B
    halves = []
    for i in range(2 * POOL):
        value = pool[i % POOL] ^ h
        h = (h * MULT_B) & MASK
        value = (value * h) & MASK
        halves.append(value ^ (value >> 16))
    return [halves[2 * k] | (halves[2 * k + 1] << 32) for k in range(POOL)]
