"""The exact score law of a fixed policy, one turn at a time (distribution, comeback, win play).

:func:`turn_outcomes` turns one state's decision tables (left in a workspace by
:func:`gamelab.yatzy._widget_kernels.widget_policy` or
:func:`gamelab.yatzy._utility_kernels.utility_decisions`) into the law of (next state, points)
by pushing the roll probabilities through the two keeps; :func:`forward_layer` and
:func:`backward_layer` convolve score vectors of a whole layer with it. The plain-Python twin of
:func:`turn_outcomes` is :func:`turn_outcomes_python`, of the layer kernels
:func:`forward_layer_python` and :func:`backward_layer_python` (built on it).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
from numba import njit

from gamelab.yatzy._play_kernels import lane_policy
from gamelab.yatzy._turn_kernels import (
    KF_K1,
    KF_K2,
    KF_Q,
    RF_P,
    RI_BOX3,
    RI_KEEP1,
    RI_KEEP2,
    RI_OUT_B,
    RI_OUT_J,
    RI_OUT_S,
    W_ACC,
    W_KEEP_F,
    W_ROLL_F,
    W_ROLL_I,
    legal_moves_python,
    new_workspace,
    placement,
    plain_placement,
    workspace_arrays,
    workspace_decisions,
)
from gamelab.yatzy._widget_kernels import widget_policy
from gamelab.yatzy.rules import (
    KEEP_ROLL_INDEX,
    KEEP_ROLL_PROB,
    KEEP_ROLL_START,
    KEEPS,
    N_KEEPS,
    N_ROLLS,
    R_BASE,
    R_BONUS_FLAGS,
    R_N_BOXES,
    R_UPPER_BONUS,
    R_UPPER_FACE,
    ROLL_PROB,
    ROLL_YAHTZEE_FACE,
    RuleSet,
    roll_index,
)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def turn_outcomes(mask, m, f, rules, ws):
    """The (next state, points) distribution of one turn under the decisions in `ws`
    (rows RI_BOX3, RI_KEEP2, RI_KEEP1 of ws[W_ROLL_I]).

    Returns n; outcome o is (box, next state, points) = ws[W_ROLL_I][RI_OUT_B / _J / _S][o]
    with probability ws[W_ACC][box, points]; read them with :func:`take_outcome`.
    """
    box3 = ws[W_ROLL_I][RI_BOX3]
    keep2 = ws[W_ROLL_I][RI_KEEP2]
    keep1 = ws[W_ROLL_I][RI_KEEP1]
    P = ws[W_ROLL_F][RF_P]
    Q = ws[W_KEEP_F][KF_Q]
    acc = ws[W_ACC]
    out_b = ws[W_ROLL_I][RI_OUT_B]
    out_j = ws[W_ROLL_I][RI_OUT_J]
    out_s = ws[W_ROLL_I][RI_OUT_S]
    for r in range(N_ROLLS):
        P[r] = ROLL_PROB[r]
    for stage in range(2):
        for k in range(N_KEEPS):
            Q[k] = 0.0
        for r in range(N_ROLLS):
            if stage == 0:
                Q[keep1[r]] += P[r]
            else:
                Q[keep2[r]] += P[r]
            P[r] = 0.0
        for k in range(N_KEEPS):
            q = Q[k]
            if q == 0.0:
                continue
            for i in range(KEEP_ROLL_START[k], KEEP_ROLL_START[k + 1]):
                P[KEEP_ROLL_INDEX[i]] += q * KEEP_ROLL_PROB[i]
    upper_face = rules[R_UPPER_FACE]
    base = rules[R_BASE]
    upper_bonus = rules[R_UPPER_BONUS]
    nf = rules[R_BONUS_FLAGS]
    n = 0
    for r in range(N_ROLLS):
        if P[r] == 0.0:
            continue
        b = box3[r]
        if ROLL_YAHTZEE_FACE[r] == 0:
            pts, j = plain_placement(mask, m, f, b, r, upper_face, base, upper_bonus, nf)
        else:
            pts, j = placement(mask, m, f, b, r, rules)
        if acc[b, pts] == 0.0:
            out_b[n] = b
            out_j[n] = j
            out_s[n] = pts
            n += 1
        acc[b, pts] += P[r]
    return n


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def take_outcome(acc, roll_i, o):
    """(probability, next state index, points) of outcome o of the last :func:`turn_outcomes`,
    given the workspace's ws[W_ACC] and ws[W_ROLL_I]; re-zeroes its accumulator cell. (Arrays,
    not the workspace: a tuple argument costs reference counting on every call.)"""
    b = roll_i[RI_OUT_B, o]
    s = roll_i[RI_OUT_S, o]
    p = acc[b, s]
    acc[b, s] = 0.0
    return p, roll_i[RI_OUT_J, o], s


def turn_outcomes_python(mask, m, f, rules, box3, keep2, keep1) -> dict[tuple[int, int], float]:
    """Plain-Python twin of :func:`turn_outcomes`: {(next state index, points): probability},
    rolling the dice of each keep explicitly (6^k outcomes) instead of the keep -> roll tables."""
    first = {r: float(ROLL_PROB[r]) for r in range(N_ROLLS)}
    for keep in (keep1, keep2):
        nxt: dict[int, float] = {}
        for r, p in first.items():
            for r2, q in _reroll_law_python(int(keep[r])).items():
                nxt[r2] = nxt.get(r2, 0.0) + p * q
        first = nxt
    out: dict[tuple[int, int], float] = {}
    for r, p in first.items():
        moves = {b: (s, j) for b, s, j in legal_moves_python(rules, mask, m, f, r)}
        s, j = moves[int(box3[r])]
        out[(j, s)] = out.get((j, s), 0.0) + p
    return out


@functools.cache
def _reroll_law_python(keep: int) -> dict[int, float]:
    """{roll: probability} after rerolling the dice not in `keep` (all 6^k outcomes)."""
    kept = [int(x) for x in KEEPS[keep]]
    free = 5 - sum(kept)
    law: dict[int, float] = {}
    for faces in itertools.product(range(6), repeat=free):
        counts = list(kept)
        for face in faces:
            counts[face] += 1
        r = int(roll_index(counts))
        law[r] = law.get(r, 0.0) + 6.0**-free
    return law


@njit(cache=True)
def backward_layer(E, D, rows, D2, row_of2, mask_of_row, m_of_row, f_of_row, rules):
    """D[row, t] = P(remaining score = t) from the next layer's D2 (rows of layer k+1).

    Remaining scores at or beyond D's width are clamped into its last column.
    """
    L = D.shape[1]
    L2 = D2.shape[1]
    ws = new_workspace(rules[R_N_BOXES])
    acc = ws[W_ACC]
    roll_i = ws[W_ROLL_I]
    for row in range(rows):
        mask, m, f = mask_of_row[row], m_of_row[row], f_of_row[row]
        widget_policy(E, mask, m, f, rules, ws)  # the expected-score decisions, then their law
        n = turn_outcomes(mask, m, f, rules, ws)
        for o in range(n):
            p, j, s = take_outcome(acc, roll_i, o)
            row2 = row_of2[j]
            for t2 in range(L2):
                v = D2[row2, t2]
                if v == 0.0:
                    continue
                t = t2 + s
                if t >= L:
                    t = L - 1
                D[row, t] += p * v


@njit(cache=True, nogil=True)
def forward_layer(
    E, F, rows, row_of, F2, mask_of_row, m_of_row, f_of_row, rules, overflow, W, ws, lanes
):
    """Push the score mass F[row, score] of one layer through one turn into F2; ws: a workspace
    (:func:`gamelab.yatzy._turn_kernels.workspace_arrays`), lanes: the vector widget's scratch
    (:func:`gamelab.yatzy._widget_kernels.new_lane_scratch`), both passed in so that a cold
    command compiles no allocation. A state's decisions are widget_policy's, computed by the
    vector widget (:func:`gamelab.yatzy._play_kernels.lane_policy`), whose kernels the solver's
    share.

    Mass that would land at or beyond F2's width is not lost: its probability and its exact
    contributions to the mean (score + E[next]) and, when overflow has a third slot, to the
    second moment (score^2 + 2 score E[next] + W[next]) go to overflow[0], [1] and [2].
    """
    L = F.shape[1]
    L2 = F2.shape[1]
    acc = ws[W_ACC]
    roll_i = ws[W_ROLL_I]
    box3, keep2, keep1 = roll_i[RI_BOX3], roll_i[RI_KEEP2], roll_i[RI_KEEP1]
    k1, k2 = ws[W_KEEP_F][KF_K1], ws[W_KEEP_F][KF_K2]
    for row in range(rows):
        hi = -1
        for a in range(L):
            if F[row, a] != 0.0:
                hi = a
        if hi < 0:
            continue
        mask, m, f = mask_of_row[row], m_of_row[row], f_of_row[row]
        # the expected-score decisions, then their law
        lane_policy(E, mask, m, f, rules, lanes, k1, k2, box3, keep2, keep1)
        n = turn_outcomes(mask, m, f, rules, ws)
        for o in range(n):
            p, j, s = take_outcome(acc, roll_i, o)
            row2 = row_of[j]
            for a in range(hi + 1):
                v = F[row, a] * p
                if v == 0.0:
                    continue
                t = a + s
                if t < L2:
                    F2[row2, t] += v
                else:
                    overflow[0] += v
                    overflow[1] += v * (t + E[j])
                    if overflow.shape[0] > 2:
                        overflow[2] += v * (t * t + 2.0 * t * E[j] + W[j])


def _layer_law_python(E, rules: RuleSet, mask: int, m: int, f: int) -> dict[tuple[int, int], float]:
    """Turn law of the expected-score decisions (from :func:`widget_policy`) by the twin."""
    ws = workspace_arrays(rules.n_boxes)
    widget_policy(E, mask, m, f, rules.kernel_rules(), ws)
    return turn_outcomes_python(mask, m, f, rules, *workspace_decisions(ws))


def forward_layer_python(
    E, F, rows, row_of, F2, mask_of_row, m_of_row, f_of_row, rules: RuleSet, overflow, W
) -> None:
    """Plain-Python twin of :func:`forward_layer` (turn laws by :func:`turn_outcomes_python`)."""
    L2 = F2.shape[1]
    for row in range(rows):
        if not F[row].any():
            continue
        law = _layer_law_python(
            E, rules, int(mask_of_row[row]), int(m_of_row[row]), int(f_of_row[row])
        )
        for (j, s), p in law.items():
            for a in np.flatnonzero(F[row]).tolist():
                v, t = float(F[row, a]) * p, a + s
                if t < L2:
                    F2[row_of[j], t] += v
                    continue
                overflow[0] += v
                overflow[1] += v * (t + E[j])
                if len(overflow) > 2:
                    overflow[2] += v * (t * t + 2.0 * t * E[j] + W[j])


def backward_layer_python(
    E, D, rows, D2, row_of2, mask_of_row, m_of_row, f_of_row, rules: RuleSet
) -> None:
    """Plain-Python twin of :func:`backward_layer` (turn laws by :func:`turn_outcomes_python`)."""
    L = D.shape[1]
    for row in range(rows):
        law = _layer_law_python(
            E, rules, int(mask_of_row[row]), int(m_of_row[row]), int(f_of_row[row])
        )
        for (j, s), p in law.items():
            for t2 in np.flatnonzero(D2[row_of2[j]]).tolist():
                D[row, min(L - 1, t2 + s)] += p * float(D2[row_of2[j], t2])
