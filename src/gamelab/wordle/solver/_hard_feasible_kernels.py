"""The hard modes' word masks for the feasibility search (:func:`allow_masks_kernel`).

In both hard modes the feasibility search
(:func:`gamelab.wordle.solver._feasible_kernels.feasible_kernel`, its hard-mode
specialisation) narrows a node's pool by each guess and its colours alone (the game's rule: the
colours' demands, which only add up; strict: the words that would have shown those colours), so
a child's pool is its parent's AND one precomputed mask, ``allow[guess, colours]``, built here
once per game and mode.

The plain-Python twin is :func:`gamelab.wordle.solver.feasible.allow_masks_python` (compared by
``tests/wordle/test_wordle_feasible.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.wordle._kernels import feedback_code

HARD_GAME = 1
HARD_STRICT = 2


@njit(cache=True)
def allow_masks_kernel(gcodes, glens, fcodes, flens, present, hard_id, rule_id, n_codes):
    """allow[g, c, w]: bit t set if full-length word 64 w + t may be guessed after guess g
    showed colours c (hard_id HARD_GAME: greens stay, shown letters are reused; HARD_STRICT:
    the word would have shown c itself). Only codes with present[g, c] are filled (a class
    has colours some answer shows). gcodes/glens: every guess; fcodes/flens: the full-length
    guesses, in order."""
    n_g = gcodes.shape[0]
    n_f = fcodes.shape[0]
    n_w = (n_f + 63) // 64
    allow = np.zeros((n_g, n_codes, n_w), dtype=np.uint64)
    width = gcodes.shape[1]
    colours = np.zeros(width, dtype=np.int64)
    used = np.zeros(fcodes.shape[1], dtype=np.bool_)
    digits = np.zeros(width, dtype=np.int64)
    shown = np.zeros(width, dtype=np.int64)  # at a letter's first position: copies shown
    for g in range(n_g):
        gl = glens[g]
        if hard_id == HARD_STRICT:
            for w in range(n_f):
                c = feedback_code(gcodes[g], gl, fcodes[w], flens[w], rule_id, colours, used)
                if present[g, c]:
                    allow[g, c, w >> 6] |= np.uint64(1) << np.uint64(w & 63)
            continue
        for c in range(n_codes):
            if not present[g, c]:
                continue
            code = c
            for t in range(gl - 1, -1, -1):
                digits[t] = code % 3
                code //= 3
            for t in range(gl):
                shown[t] = 0
                first = t
                for u in range(t):
                    if gcodes[g, u] == gcodes[g, t]:
                        first = u
                        break
                if first == t:
                    for u in range(t, gl):
                        if gcodes[g, u] == gcodes[g, t] and digits[u] != 0:
                            shown[t] += 1
            for w in range(n_f):
                ok = True
                for t in range(gl):
                    if digits[t] == 2 and fcodes[w, t] != gcodes[g, t]:
                        ok = False
                        break
                if ok:
                    for t in range(gl):
                        if shown[t] > 0:
                            k = 0
                            for u in range(flens[w]):
                                if fcodes[w, u] == gcodes[g, t]:
                                    k += 1
                            if k < shown[t]:
                                ok = False
                                break
                if ok:
                    allow[g, c, w >> 6] |= np.uint64(1) << np.uint64(w & 63)
    return allow
