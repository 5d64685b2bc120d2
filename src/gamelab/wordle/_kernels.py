"""numba hot loops for Wordle, each with a plain-Python twin (tests compare them).

* :func:`feedback_table_kernel` -- the guess x answer pattern-code table (uint16), both rules.
* :func:`entropy_kernel` -- Shannon entropy of the feedback partition, for every guess, over a
  subset of answers. Sums of c*log2(c) are taken over the histogram of class sizes (ascending),
  so guesses whose partitions have the same class sizes get bit-identical entropies and ties break
  by guess order, never by rounding.
* :func:`split_stats_kernel` -- per guess over a subset: the number of non-green classes and
  whether the guess is itself a candidate (what the optimal solver's lower bound needs).
* :func:`partition_kernel` -- the subset sorted by pattern (children of one guess).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

RULE_STANDARD = 0
RULE_BLOG = 1


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def feedback_code(g, glen, a, alen, rule, colours, used):
    for j in range(glen):
        colours[j] = 0
    for i in range(alen):
        used[i] = False
    for j in range(glen):
        if g[j] == a[j]:
            colours[j] = 2
            used[j] = True
    if rule == 0:
        for j in range(glen):
            if colours[j] == 2:
                continue
            for i in range(alen):
                if not used[i] and a[i] == g[j]:
                    used[i] = True
                    colours[j] = 1
                    break
    else:
        for i in range(alen):
            for j in range(glen):
                if colours[j] == 0 and g[j] == a[i]:
                    colours[j] = 1
                    break
    code = 0
    for j in range(glen):
        code = code * 3 + colours[j]
    return code


@njit(cache=True)
def feedback_table_kernel(gcodes, glens, acodes, alens, rule):
    n_g = gcodes.shape[0]
    n_a = acodes.shape[0]
    out = np.empty((n_g, n_a), dtype=np.uint16)
    colours = np.zeros(gcodes.shape[1], dtype=np.int64)
    used = np.zeros(acodes.shape[1], dtype=np.bool_)
    for r in range(n_g):
        for c in range(n_a):
            out[r, c] = feedback_code(gcodes[r], glens[r], acodes[c], alens[c], rule, colours, used)
    return out


def feedback_table_python(gcodes, glens, acodes, alens, rule):
    """Plain-Python twin of :func:`feedback_table_kernel`."""
    out = np.empty((len(gcodes), len(acodes)), dtype=np.uint16)
    for r in range(len(gcodes)):
        g = [int(x) for x in gcodes[r][: glens[r]]]
        for c in range(len(acodes)):
            a = [int(x) for x in acodes[c][: alens[c]]]
            colours = [2 if g[j] == a[j] else 0 for j in range(len(g))]
            if rule == RULE_STANDARD:
                left = [a[i] for i in range(len(a)) if not (i < len(g) and g[i] == a[i])]
                for j in range(len(g)):
                    if colours[j] == 0 and g[j] in left:
                        left.remove(g[j])
                        colours[j] = 1
            else:
                for ch in a:
                    for j in range(len(g)):
                        if colours[j] == 0 and g[j] == ch:
                            colours[j] = 1
                            break
            code = 0
            for x in colours:
                code = code * 3 + x
            out[r, c] = code
    return out


@njit(cache=True)
def entropy_kernel(table, subset, n_codes):
    n_g = table.shape[0]
    n = subset.shape[0]
    out = np.zeros(n_g, dtype=np.float64)
    if n == 0:
        return out
    counts = np.zeros(n_codes, dtype=np.int64)
    hist = np.zeros(n + 1, dtype=np.int64)
    plogp = np.zeros(n + 1, dtype=np.float64)
    for v in range(2, n + 1):
        plogp[v] = v * math.log2(v)
    log_n = math.log2(n)
    for r in range(n_g):
        for k in range(n):
            counts[table[r, subset[k]]] += 1
        for k in range(n):
            code = table[r, subset[k]]
            if counts[code] > 0:
                hist[counts[code]] += 1
                counts[code] = 0
        s = 0.0
        for v in range(2, n + 1):
            if hist[v] > 0:
                s += hist[v] * plogp[v]
                hist[v] = 0
        hist[1] = 0
        out[r] = log_n - s / n
    return out


def entropy_python(table, subset):
    """Plain-Python twin of :func:`entropy_kernel` (same summation order)."""
    n = len(subset)
    out = np.zeros(table.shape[0])
    if n == 0:
        return out
    for r in range(table.shape[0]):
        counts: dict[int, int] = {}
        for a in subset:
            code = int(table[r, a])
            counts[code] = counts.get(code, 0) + 1
        hist: dict[int, int] = {}
        for c in counts.values():
            hist[c] = hist.get(c, 0) + 1
        s = 0.0
        for v in sorted(hist):
            if v >= 2:
                s += hist[v] * (v * math.log2(v))
        out[r] = math.log2(n) - s / n
    return out


@njit(cache=True)
def split_stats_kernel(table, subset, guesses, green, n_codes, answer_of_guess):
    """For each guess in `guesses` over `subset`: (non-green classes, 1 if the guess is in
    `subset`, size of the largest non-green class)."""
    n = subset.shape[0]
    m = guesses.shape[0]
    classes = np.zeros(m, dtype=np.int64)
    hit = np.zeros(m, dtype=np.int64)
    largest = np.zeros(m, dtype=np.int64)
    counts = np.zeros(n_codes, dtype=np.int64)
    for q in range(m):
        r = guesses[q]
        k = 0
        big = 0
        for i in range(n):
            if answer_of_guess[r] == subset[i]:
                hit[q] = 1
                continue
            code = table[r, subset[i]]
            if counts[code] == 0:
                k += 1
            counts[code] += 1
            if counts[code] > big:
                big = counts[code]
        for i in range(n):
            counts[table[r, subset[i]]] = 0
        classes[q] = k
        largest[q] = big
    return classes, hit, largest


def split_stats_python(table, subset, guesses, green, answer_of_guess):
    """Plain-Python twin of :func:`split_stats_kernel`."""
    classes, hit, largest = [], [], []
    for r in guesses:
        counts: dict[int, int] = {}
        h = 0
        for a in subset:
            if int(answer_of_guess[r]) == int(a):
                h = 1
            else:
                code = int(table[r, a])
                counts[code] = counts.get(code, 0) + 1
        classes.append(len(counts))
        hit.append(h)
        largest.append(max(counts.values(), default=0))
    as_array = [np.array(x, dtype=np.int64) for x in (classes, hit, largest)]
    return tuple(as_array)


@njit(cache=True)
def partition_kernel(table, guess, subset, n_codes):
    """Counting sort of `subset` by pattern: (codes ascending, class starts + end, members)."""
    counts = np.zeros(n_codes, dtype=np.int64)
    n = subset.shape[0]
    for i in range(n):
        counts[table[guess, subset[i]]] += 1
    k = 0
    for c in range(n_codes):
        if counts[c] > 0:
            k += 1
    codes = np.empty(k, dtype=np.int64)
    starts = np.empty(k + 1, dtype=np.int64)
    offset = np.zeros(n_codes, dtype=np.int64)
    j = 0
    pos = 0
    for c in range(n_codes):
        if counts[c] > 0:
            codes[j] = c
            starts[j] = pos
            offset[c] = pos
            pos += counts[c]
            j += 1
    starts[k] = n
    members = np.empty(n, dtype=subset.dtype)
    for i in range(n):
        c = table[guess, subset[i]]
        members[offset[c]] = subset[i]
        offset[c] += 1
    return codes, starts, members


def partition_python(table, guess, subset):
    """Plain-Python twin of :func:`partition_kernel`."""
    groups: dict[int, list[int]] = {}
    for a in subset:
        groups.setdefault(int(table[guess, a]), []).append(int(a))
    codes = sorted(groups)
    starts, members = [0], []
    for c in codes:
        members.extend(groups[c])
        starts.append(len(members))
    return np.array(codes, dtype=np.int64), np.array(starts, dtype=np.int64), np.array(members)


@njit(cache=True)
def min_bound_kernel(table, subset, guesses, n_codes, answer_of_guess, rem):
    """min over useful guesses of n + 2(n - hit) - classes (the solver's one-level bound).

    `rem` = guesses left after this one (-1: no limit); with rem == 1 only guesses leaving
    singletons count. Returns a huge value when no guess is usable."""
    n = subset.shape[0]
    best = 1 << 40
    floor = 2 * n - 1
    counts = np.zeros(n_codes, dtype=np.int64)
    for q in range(guesses.shape[0]):
        r = guesses[q]
        k = 0
        hit = 0
        big = 0
        stop = n
        for i in range(n):
            if answer_of_guess[r] == subset[i]:
                hit = 1
                continue
            code = table[r, subset[i]]
            if counts[code] == 0:
                k += 1
            counts[code] += 1
            if counts[code] > big:
                big = counts[code]
                if rem == 1 and big > 1:
                    stop = i + 1  # cannot leave only singletons: unusable, stop counting
                    break
        for i in range(stop):
            counts[table[r, subset[i]]] = 0
        if k < 2 and hit == 0:
            continue
        if rem == 0 or (rem == 1 and big > 1):
            continue
        lb = n + 2 * (n - hit) - k
        if lb < best:
            best = lb
            if best <= floor:
                break
    return best


def min_bound_python(table, subset, guesses, answer_of_guess, rem):
    """Plain-Python twin of :func:`min_bound_kernel`."""
    n = len(subset)
    classes, hit, largest = split_stats_python(table, subset, guesses, 0, answer_of_guess)
    best = 1 << 40
    for k, h, big in zip(classes.tolist(), hit.tolist(), largest.tolist(), strict=True):
        if k < 2 and h == 0:
            continue
        if rem == 0 or (rem == 1 and big > 1):
            continue
        best = min(best, n + 2 * (n - h) - k)
    return best
