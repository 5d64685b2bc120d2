"""The one-level bounds of many classes in one pass over the table (the two-level bound).

The two-level bound of a first guess g is ``n + sum`` over g's classes of each class's best
one-level bound ``min_t m + 2(m - hit_t) - k_t`` (:func:`gamelab.wordle._kernels.min_bound_kernel`
per class). Done class by class, every class reads a few scattered bytes of every guess's row
of the table, so the whole 30 MB table passes through the cache once per class (about 150 times
per English opening). :func:`class_bounds_kernel` reads each guess's row once, in order, for all
the classes together: the distinct patterns of each class are counted with a stamp per
(class, pattern) pair, then every class's bound for that guess is taken. Same bounds, same
rules (a guess that neither splits a class nor may be its answer is not counted; with one guess
left only guesses leaving singletons count; with none left no guess does).

Plain-Python twin: :func:`class_bounds_python` (of :func:`class_bounds`) (``min_bound_python`` per class), compared by
``tests/wordle/test_wordle_opening.py::test_class_bounds_kernel_matches_twin``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.wordle._kernels import min_bound_python


def class_bounds(table, cands, cls, sizes, guesses, n_codes, answer_of_guess, rem):
    """best[c] = min over useful guesses of m + 2(m - hit) - k for class c (sizes[c] = m), the
    classes' answers being ``cands`` (ascending) with their class indices ``cls``; a huge value
    (1 << 40) for a class no guess may split: :func:`class_bounds_kernel` with its arrays made
    here by numpy (allocations inside a kernel cost a cold start their compiling)."""
    n_cls, n = sizes.shape[0], cands.shape[0]
    scratch = (
        np.full(n_cls, 1 << 40, dtype=np.int64),  # best
        np.full(n_cls * n_codes, -1, dtype=np.int32),  # seen
        np.zeros((3, n), dtype=np.int32),  # live, base, live_cls
        np.ones(n_cls, dtype=np.bool_),  # active
        np.full(table.shape[1], -1, dtype=np.int32),  # class_of
        np.zeros(n_cls, dtype=np.int32),  # k
    )
    return class_bounds_kernel(
        table, cands, cls, sizes, guesses, n_codes, answer_of_guess, rem, scratch
    )


@njit(cache=True)
def class_bounds_kernel(table, cands, cls, sizes, guesses, n_codes, answer_of_guess, rem, scratch):
    """:func:`class_bounds` (its `scratch`: best filled with 1 << 40, seen with -1, live rows,
    active True, class_of -1, k, as it makes them; returns best). A class whose bound reaches
    its floor 2m - 1 (a guess among its answers that leaves the others apart) is done and its
    answers are no longer read: good splitters first in `guesses` make that early (the bounds
    do not depend on the order)."""
    best, seen, rows, active, class_of, k = scratch
    n_cls = sizes.shape[0]
    n = cands.shape[0]
    if rem == 0 or n == 0:
        return best
    live, base, live_cls = rows[0], rows[1], rows[2]  # the answers still read, their base slot
    for i in range(n):
        live[i] = cands[i]
        live_cls[i] = cls[i]
        base[i] = cls[i] * n_codes
    n_live = n
    for i in range(n):
        class_of[cands[i]] = cls[i]
    for q in range(guesses.shape[0]):
        r = guesses[q]
        for c in range(n_cls):
            k[c] = 0
        row = table[r]
        for i in range(n_live):
            slot = base[i] + row[live[i]]
            k[live_cls[i]] += seen[slot] != q
            seen[slot] = q
        # the guess's own answer shows the all-green pattern, to no other answer: not a class
        ag = answer_of_guess[r]
        hit_class = class_of[ag] if ag >= 0 else -1
        if hit_class >= 0 and active[hit_class]:
            k[hit_class] -= 1
        finished = False
        for c in range(n_cls):
            if not active[c]:
                continue
            kc = k[c]
            hc = 1 if c == hit_class else 0
            if kc < 2 and hc == 0:
                continue
            m = sizes[c]
            if rem == 1 and kc != m - hc:  # a class of two or more left: unusable
                continue
            lb = m + 2 * (m - hc) - kc
            if lb < best[c]:
                best[c] = lb
                if lb <= 2 * m - 1:
                    active[c] = False
                    finished = True
        if finished:  # drop the answers of the classes done
            j = 0
            for i in range(n_live):
                if active[live_cls[i]]:
                    live[j] = live[i]
                    live_cls[j] = live_cls[i]
                    base[j] = base[i]
                    j += 1
            n_live = j
            if n_live == 0:
                break
    return best


def class_bounds_python(table, cands, cls, sizes, guesses, n_codes, answer_of_guess, rem):
    """Plain-Python twin of :func:`class_bounds_kernel`: each class's ``min_bound_python``."""
    del n_codes
    cands, cls = np.asarray(cands), np.asarray(cls)
    return np.array(
        [
            min_bound_python(table, cands[cls == c], guesses, answer_of_guess, rem)
            for c in range(len(sizes))
        ],
        dtype=np.int64,
    )
