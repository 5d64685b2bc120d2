"""The exact move values of one turn, for the oracle on every step (:mod:`gamelab.yatzy.oracle`).

:func:`turn_tables` evaluates the widget of one card state once and keeps what the coach's
ranking reads (:func:`gamelab.yatzy.coach.advise`): the value of every keep with one roll left
and with two, and the best keep's value for every roll at each of those stages; the oracle keeps
these per card state, so the three decisions of a turn (and a card state seen again in a later
game) cost a lookup. :func:`box_options` gives the boxes a final roll may go in, with the points
and the successor's value, as ``advise`` sums them. The arithmetic is the widget's own
(:func:`gamelab.yatzy._widget_kernels.final_values`, ``keep_values``, ``best_keeps``), so the
values are the coach's to the last bit. Plain-Python twins: :func:`turn_tables_python` and
:func:`box_options_python` (on :func:`gamelab.yatzy._turn_kernels.legal_moves_python`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.yatzy._turn_kernels import (
    KF_K,
    KF_KW,
    KF_M,
    RF_V,
    RF_VW,
    RI_BOX3,
    S_E,
    S_POINTS,
    S_W,
    W_KEEP_A,
    W_KEEP_F,
    W_ROLL_F,
    W_ROLL_I,
    W_SUCC,
    legal_boxes,
    legal_moves_python,
    placement,
)
from gamelab.yatzy._widget_kernels import best_keeps, final_values, keep_pass_python, keep_values
from gamelab.yatzy.rules import N_KEEPS, N_ROLLS, SUBKEEP_INDEX, SUBKEEP_START

#: rows of a turn table (:func:`turn_tables`): keep values with one roll left, the best keep's
#: value per roll with one roll left, keep values with two rolls left, the same per roll
T_KEEP_1, T_ROLL_1, T_KEEP_2, T_ROLL_2 = range(4)


def new_turn_table() -> np.ndarray:
    """The buffer :func:`turn_tables` fills: float [4, N_KEEPS] (roll rows use N_ROLLS)."""
    return np.zeros((4, N_KEEPS))


@njit(cache=True)
def turn_tables(E, mask, m, f, rules, ws, out):
    """Fill `out` (:func:`new_turn_table`; rows ``T_*``) for card state (mask, m, f) from the
    solved values E; ws is a workspace (:func:`gamelab.yatzy._turn_kernels.new_workspace`).
    Returns the value of the turn before its first roll."""
    V = ws[W_ROLL_F][RF_V]
    VW = ws[W_ROLL_F][RF_VW]
    K = ws[W_KEEP_F][KF_K]
    KW = ws[W_KEEP_F][KF_KW]
    M = ws[W_KEEP_F][KF_M]
    A = ws[W_KEEP_A]
    choice = ws[W_ROLL_I][RI_BOX3]
    succ = ws[W_SUCC]
    final_values(E, E, None, mask, m, f, rules, V, VW, choice, succ[S_POINTS], succ[S_E], succ[S_W])
    for row in (T_KEEP_1, T_KEEP_2):
        keep_values(V, VW, None, K, KW)
        for k in range(N_KEEPS):
            out[row, k] = K[k]
        best_keeps(K, KW, False, V, VW, choice, M, A)
        for r in range(N_ROLLS):
            out[row + 1, r] = V[r]
    keep_values(V, VW, None, K, KW)
    return K[0]


@njit(cache=True)
def box_options(E, mask, m, f, r, rules, boxes, gains, after):
    """The boxes final roll r may go in (into `boxes`), each with the points it gains (bonuses
    included, `gains`) and the solved value of the state after it (`after`); returns how many."""
    n = legal_boxes(mask, f, r, rules, boxes)
    for i in range(n):
        gain, j = placement(mask, m, f, boxes[i], r, rules)
        gains[i] = gain
        after[i] = E[j]
    return n


def turn_tables_python(E, mask: int, m: int, f: int, rules) -> np.ndarray:
    """Plain-Python twin of :func:`turn_tables`: the best box of every roll from
    :func:`legal_moves_python`, keep values by the widget's twin's pass, a direct max over each
    roll's sub-keeps."""
    out = new_turn_table()
    V = []
    for r in range(N_ROLLS):
        V.append(max(s + E[j] for _, s, j in legal_moves_python(rules, mask, m, f, r)))
    for row in (T_KEEP_1, T_KEEP_2):
        K, _ = keep_pass_python(V, [0.0] * N_ROLLS)
        out[row] = K
        V = [
            max(K[k] for k in SUBKEEP_INDEX[SUBKEEP_START[r] : SUBKEEP_START[r + 1]].tolist())
            for r in range(N_ROLLS)
        ]
        out[row + 1, :N_ROLLS] = V
    return out


def box_options_python(E, mask: int, m: int, f: int, r: int, rules) -> list[tuple[int, int, float]]:
    """Plain-Python twin of :func:`box_options`: [(box, points gained, value after)]."""
    return [(b, s, float(E[j])) for b, s, j in legal_moves_python(rules, mask, m, f, r)]
