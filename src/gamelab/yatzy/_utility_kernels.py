"""Utility play (target and win play): vectors over t = points still needed, every rule set.

A utility vector U[state, t], t = 0..L-1, is the best E[u(final)] when the player still needs
t more points to reach the top of the utility's window (t = 0: at or beyond the top, where the
utility is constant). The turn maps it as U[t] = max E[Un[next, max(0, t - points)]]; only the
terminal vector differs between target play ([t == 0]) and win play (the opponent's CDF).
Keeps and boxes are chosen per t (:func:`utility_widget`, all t at once;
:func:`utility_decisions`, the decision tables of one t). The plain-Python twin is
:func:`utility_widget_python`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from gamelab.yatzy._turn_kernels import (
    KF_K,
    KF_K1,
    KF_K2,
    KF_KW,
    KF_M,
    NOT_EXTRA,
    RF_V,
    RF_VW,
    RI_BOX3,
    RI_KEEP1,
    RI_KEEP2,
    W_KEEP_A,
    W_KEEP_F,
    W_ROLL_F,
    W_ROLL_I,
    YAHTZEE_ROLLS,
    box_points,
    extra_yahtzee_mode,
    legal_moves_python,
    state_index,
    upper_step,
)
from gamelab.yatzy._widget_kernels import keep_decisions
from gamelab.yatzy.rules import (
    KEEP_ADD,
    KEEP_MINUS_INDEX,
    KEEP_MINUS_START,
    KEEP_RECURSION_ORDER,
    N_KEEPS,
    N_ROLLS,
    R_BASE,
    R_BONUS_FLAGS,
    R_N_BOXES,
    R_UPPER_BONUS,
    R_UPPER_FACE,
    R_YAHTZEE_BOX,
    ROLL_AS_KEEP,
    ROLLS,
    SUBKEEP_INDEX,
    SUBKEEP_START,
)


@njit(cache=True)
def new_utility_workspace(L):
    """Scratch of :func:`utility_widget` for vectors of width L: (V3 [252, L], K [462, L],
    M [462, L], shifted [6, L])."""
    return (
        np.empty((N_ROLLS, L)),
        np.empty((N_KEEPS, L)),
        np.empty((N_KEEPS, L)),
        np.empty((6, L)),
    )


def utility_workspace_arrays(L: int) -> tuple[np.ndarray, ...]:
    """:func:`new_utility_workspace` made by numpy, for a caller in Python: nothing to
    compile."""
    return (
        np.empty((N_ROLLS, L)),
        np.empty((N_KEEPS, L)),
        np.empty((N_KEEPS, L)),
        np.empty((6, L)),
    )


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _shift_max(Pn, row, s, out, r):
    """out[r, t] = max(out[r, t], Pn[row, max(0, t - s)])."""
    L = Pn.shape[1]
    for t in range(L):
        v = Pn[row, t - s] if t > s else Pn[row, 0]
        if v > out[r, t]:
            out[r, t] = v


@njit(cache=True)
def utility_widget(Pn, row_of_next, mask, m, f, rules, uws):
    """U[t] = best E[Pn[next, max(0, t - points)]] over the turn, t = 0..L-1 (every rule set).

    Pn: [rows of the next layer, L]; row_of_next[state index] = its row; uws: a
    :func:`new_utility_workspace` of width L. Returns K[0] (a view into uws)."""
    return _utility_widget(Pn, row_of_next, mask, m, f, rules, uws)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True, inline="always")
def _utility_widget(Pn, row_of_next, mask, m, f, rules, uws):
    """:func:`utility_widget`'s body, inlined into :func:`utility_rows`: a win-play study
    compiles it once, not once on its own and again inside its caller.

    Pn: [rows of the next layer, L]; row_of_next[state index] = its row; uws: a
    :func:`new_utility_workspace` of width L. Returns K[0] (a view into uws).

    The stages work in place in K: the rolls' rows of K (ROLL_AS_KEEP) hold the best box of
    each roll, then after each keep stage the best sub-keep of each keep, each maximum taken
    over sub-keeps already final (the keeps in index order), as a copy in M would give them.
    """
    _, K, _, shifted = uws
    nb = rules[R_N_BOXES]
    ub = rules[R_UPPER_BONUS]
    ybox = rules[R_YAHTZEE_BOX]
    nf = rules[R_BONUS_FLAGS]
    base = rules[R_BASE]
    upper_face = rules[R_UPPER_FACE]
    L = Pn.shape[1]
    for r in range(N_ROLLS):
        k = ROLL_AS_KEEP[r]
        for t in range(L):
            K[k, t] = -1.0
    for b in range(nb):
        if (mask >> b) & 1:
            continue
        nmask = mask | (1 << b)
        face = upper_face[b]
        if face > 0:
            for cnt in range(6):
                m2, s = upper_step(m, cnt * face, ub)
                row = row_of_next[state_index(nmask, m2, f, nf)]
                for t in range(L):
                    shifted[cnt, t] = Pn[row, t - s] if t > s else Pn[row, 0]
            for r in range(N_ROLLS):
                c = ROLLS[r, face - 1]
                k = ROLL_AS_KEEP[r]
                for t in range(L):
                    v = shifted[c, t]
                    if v > K[k, t]:
                        K[k, t] = v
        else:
            row0 = row_of_next[state_index(nmask, m, f, nf)]
            row1 = row0
            if b == ybox and nf == 2:
                row1 = row_of_next[state_index(nmask, m, 1, nf)]
            for r in range(N_ROLLS):
                s = base[b, r]
                _shift_max(Pn, row1 if (b == ybox and s == 50) else row0, s, K, ROLL_AS_KEEP[r])
    if ybox >= 0 and ((mask >> ybox) & 1) == 1:
        for i in range(YAHTZEE_ROLLS.shape[0]):
            r = YAHTZEE_ROLLS[i]
            mode = extra_yahtzee_mode(rules, mask, r)
            if mode == NOT_EXTRA:
                break
            k = ROLL_AS_KEEP[r]
            for t in range(L):
                K[k, t] = -1.0
            for b in range(nb):
                if (mask >> b) & 1:
                    continue
                allowed, s, j = box_points(rules, mask, m, f, b, r, mode)
                if allowed:
                    _shift_max(Pn, row_of_next[j], s, K, k)
    for stage in range(3):
        for i in range(KEEP_RECURSION_ORDER.shape[0]):
            k = KEEP_RECURSION_ORDER[i]
            for t in range(L):
                acc = 0.0
                for face in range(6):
                    acc += K[KEEP_ADD[k, face], t]
                K[k, t] = acc / 6.0
        if stage == 2:
            break
        for k in range(N_KEEPS):
            for i in range(KEEP_MINUS_START[k], KEEP_MINUS_START[k + 1]):
                s = KEEP_MINUS_INDEX[i]
                for t in range(L):
                    if K[s, t] > K[k, t]:
                        K[k, t] = K[s, t]
    return K[0]


@njit(cache=True, parallel=True)
def utility_layer(Pn, row_of_next, P, ms, mm, ff, rules, blocks):
    """Fill P[row] = utility_widget of (ms, mm, ff)[row] for one layer (blocks of rows)."""
    L = Pn.shape[1]
    n = ms.shape[0]
    size = (n + blocks - 1) // blocks
    for blk in prange(blocks):
        uws = new_utility_workspace(L)
        for row in range(blk * size, min(n, (blk + 1) * size)):
            res = utility_widget(Pn, row_of_next, ms[row], mm[row], ff[row], rules, uws)
            for t in range(L):
                P[row, t] = res[t]


@njit(cache=True, nogil=True)
def utility_rows(Pn, row_of_next, P, ms, mm, ff, rules, uws):
    """:func:`utility_layer`'s rows one after the other in this thread, without holding the GIL:
    one game's layer while other threads solve other games' (the win-play study's games,
    :func:`gamelab.yatzy.winplay.solve_win` with ``parallel=False``); the same rows bit for bit,
    and about half the first call's compiling of a ``parallel=True`` layer. uws: a workspace of
    the vectors' width (:func:`utility_workspace_arrays`: passed in, so that a cold command
    compiles no allocation)."""
    L = Pn.shape[1]
    for row in range(ms.shape[0]):
        res = _utility_widget(Pn, row_of_next, ms[row], mm[row], ff[row], rules, uws)
        for t in range(L):
            P[row, t] = res[t]


@njit(cache=True)
def utility_decisions(Pn, row_of_next, mask, m, f, t, rules, ws):
    """The decisions of the utility policy for one t (a scalar widget); returns its value.

    Left in the workspace as by :func:`gamelab.yatzy._widget_kernels.widget_policy` (ws[W_ROLL_I][RI_BOX3],
    ws[W_ROLL_I][RI_KEEP2], ws[W_ROLL_I][RI_KEEP1]); ties go to the first box and the smallest keep index. The value
    equals utility_widget(...)[t].
    """
    nb = rules[R_N_BOXES]
    V = ws[W_ROLL_F][RF_V]
    box3 = ws[W_ROLL_I][RI_BOX3]
    for r in range(N_ROLLS):
        V[r] = -1.0
        box3[r] = -1
        mode = extra_yahtzee_mode(rules, mask, r)
        for b in range(nb):
            if (mask >> b) & 1:
                continue
            allowed, s, j = box_points(rules, mask, m, f, b, r, mode)
            if not allowed:
                continue
            row = row_of_next[j]
            v = Pn[row, t - s] if t > s else Pn[row, 0]
            if v > V[r]:
                V[r] = v
                box3[r] = b
    return keep_decisions(
        V,
        ws[W_ROLL_F][RF_VW],
        ws[W_KEEP_F][KF_K],
        ws[W_KEEP_F][KF_KW],
        ws[W_KEEP_F][KF_M],
        ws[W_KEEP_A],
        ws[W_ROLL_I][RI_KEEP2],
        ws[W_ROLL_I][RI_KEEP1],
        ws[W_KEEP_F][KF_K1],
        ws[W_KEEP_F][KF_K2],
    )


def utility_widget_python(Pn, row_of_next, mask, m, f, rules) -> list[float]:
    """Plain-Python twin of :func:`utility_widget` (direct max over all sub-keeps)."""
    L = Pn.shape[1]
    V = []
    for r in range(N_ROLLS):
        best = [-1.0] * L
        for _, s, j in legal_moves_python(rules, mask, m, f, r):
            row = int(row_of_next[j])
            best = [max(best[t], float(Pn[row, max(0, t - s)])) for t in range(L)]
        V.append(best)
    for stage in range(3):
        K = [[0.0] * L for _ in range(N_KEEPS)]
        for r in range(N_ROLLS):
            K[ROLL_AS_KEEP[r]] = list(V[r])
        for k in KEEP_RECURSION_ORDER.tolist():
            K[k] = [sum(K[x][t] for x in KEEP_ADD[k].tolist()) / 6.0 for t in range(L)]
        if stage == 2:
            return K[0]
        V = []
        for r in range(N_ROLLS):
            subs = SUBKEEP_INDEX[SUBKEEP_START[r] : SUBKEEP_START[r + 1]].tolist()
            V.append([max(K[k][t] for k in subs) for t in range(L)])
    return K[0]


# ---------------------------------------------------------------------------------------------
# paired vectors: the utility and, under the same decisions, a second value (win play's P(win))


@njit(cache=True)
def new_pair_workspace(L):
    """Scratch of :func:`utility_pair_widget`: the utility's buffers and the second value's."""
    return new_utility_workspace(L), new_utility_workspace(L)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _pair_take(v, w, out, outw, r, t):
    """out[r, t], outw[r, t] = (v, w) if (v, w) beats them (the utility first, then w)."""
    if v > out[r, t] or (v == out[r, t] and w > outw[r, t]):
        out[r, t] = v
        outw[r, t] = w


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _pair_shift_max(Pn, Wn, row, s, out, outw, r):
    L = Pn.shape[1]
    for t in range(L):
        tt = t - s if t > s else 0
        _pair_take(Pn[row, tt], Wn[row, tt], out, outw, r, t)


@njit(cache=True)
def utility_pair_widget(Pn, Wn, row_of_next, mask, m, f, rules, pws):
    """:func:`utility_widget` that also carries Wn through the same decisions.

    U[t] = best E[Pn[next, max(0, t - points)]] as utility_widget computes it, and W[t] =
    E[Wn[next, ...]] under the decisions reaching U (between choices of equal utility, the one
    with the larger W). Win play passes P(win) vectors as Wn (terminal: P(B < s)) to split its
    value P(win) + 0.5 P(tie) into its parts. Returns (U, W), views into pws (a
    :func:`new_pair_workspace` of width L).
    """
    (V3, K, M, shifted), (V3w, Kw, Mw, shiftedw) = pws
    nb = rules[R_N_BOXES]
    ub = rules[R_UPPER_BONUS]
    ybox = rules[R_YAHTZEE_BOX]
    nf = rules[R_BONUS_FLAGS]
    base = rules[R_BASE]
    upper_face = rules[R_UPPER_FACE]
    L = Pn.shape[1]
    for r in range(N_ROLLS):
        for t in range(L):
            V3[r, t] = -1.0
            V3w[r, t] = -1.0
    for b in range(nb):
        if (mask >> b) & 1:
            continue
        nmask = mask | (1 << b)
        face = upper_face[b]
        if face > 0:
            for cnt in range(6):
                m2, s = upper_step(m, cnt * face, ub)
                row = row_of_next[state_index(nmask, m2, f, nf)]
                for t in range(L):
                    tt = t - s if t > s else 0
                    shifted[cnt, t] = Pn[row, tt]
                    shiftedw[cnt, t] = Wn[row, tt]
            for r in range(N_ROLLS):
                c = ROLLS[r, face - 1]
                for t in range(L):
                    _pair_take(shifted[c, t], shiftedw[c, t], V3, V3w, r, t)
        else:
            row0 = row_of_next[state_index(nmask, m, f, nf)]
            row1 = row0
            if b == ybox and nf == 2:
                row1 = row_of_next[state_index(nmask, m, 1, nf)]
            for r in range(N_ROLLS):
                s = base[b, r]
                _pair_shift_max(Pn, Wn, row1 if (b == ybox and s == 50) else row0, s, V3, V3w, r)
    if ybox >= 0 and ((mask >> ybox) & 1) == 1:
        for i in range(YAHTZEE_ROLLS.shape[0]):
            r = YAHTZEE_ROLLS[i]
            mode = extra_yahtzee_mode(rules, mask, r)
            if mode == NOT_EXTRA:
                break
            for t in range(L):
                V3[r, t] = -1.0
                V3w[r, t] = -1.0
            for b in range(nb):
                if (mask >> b) & 1:
                    continue
                allowed, s, j = box_points(rules, mask, m, f, b, r, mode)
                if allowed:
                    _pair_shift_max(Pn, Wn, row_of_next[j], s, V3, V3w, r)
    for stage in range(3):
        for r in range(N_ROLLS):
            k = ROLL_AS_KEEP[r]
            for t in range(L):
                K[k, t] = V3[r, t]
                Kw[k, t] = V3w[r, t]
        for i in range(KEEP_RECURSION_ORDER.shape[0]):
            k = KEEP_RECURSION_ORDER[i]
            for t in range(L):
                acc = 0.0
                accw = 0.0
                for face in range(6):
                    acc += K[KEEP_ADD[k, face], t]
                    accw += Kw[KEEP_ADD[k, face], t]
                K[k, t] = acc / 6.0
                Kw[k, t] = accw / 6.0
        if stage == 2:
            break
        for k in range(N_KEEPS):
            for t in range(L):
                M[k, t] = K[k, t]
                Mw[k, t] = Kw[k, t]
            for i in range(KEEP_MINUS_START[k], KEEP_MINUS_START[k + 1]):
                s = KEEP_MINUS_INDEX[i]
                for t in range(L):
                    _pair_take(M[s, t], Mw[s, t], M, Mw, k, t)
        for r in range(N_ROLLS):
            k = ROLL_AS_KEEP[r]
            for t in range(L):
                V3[r, t] = M[k, t]
                V3w[r, t] = Mw[k, t]
    return K[0], Kw[0]


@njit(cache=True, parallel=True)
def utility_pair_layer(Pn, Wn, row_of_next, P, W, ms, mm, ff, rules, blocks):
    """Fill P[row], W[row] = utility_pair_widget of (ms, mm, ff)[row] for one layer."""
    L = Pn.shape[1]
    n = ms.shape[0]
    size = (n + blocks - 1) // blocks
    for blk in prange(blocks):
        pws = new_pair_workspace(L)
        for row in range(blk * size, min(n, (blk + 1) * size)):
            res, resw = utility_pair_widget(
                Pn, Wn, row_of_next, ms[row], mm[row], ff[row], rules, pws
            )
            for t in range(L):
                P[row, t] = res[t]
                W[row, t] = resw[t]


def utility_pair_widget_python(
    Pn, Wn, row_of_next, mask, m, f, rules
) -> tuple[list[float], list[float]]:
    """Plain-Python twin of :func:`utility_pair_widget`: (utility, W) pairs compared as tuples,
    the direct maximum over all sub-keeps."""
    L = Pn.shape[1]
    V: list[list[tuple[float, float]]] = []
    for r in range(N_ROLLS):
        best = [(-1.0, -1.0)] * L
        for _, s, j in legal_moves_python(rules, mask, m, f, r):
            row = int(row_of_next[j])
            best = [
                max(best[t], (float(Pn[row, max(0, t - s)]), float(Wn[row, max(0, t - s)])))
                for t in range(L)
            ]
        V.append(best)
    K: list[list[tuple[float, float]]] = []
    for stage in range(3):
        K = [[(0.0, 0.0)] * L for _ in range(N_KEEPS)]
        for r in range(N_ROLLS):
            K[ROLL_AS_KEEP[r]] = list(V[r])
        for k in KEEP_RECURSION_ORDER.tolist():
            K[k] = [
                (
                    sum(K[x][t][0] for x in KEEP_ADD[k].tolist()) / 6.0,
                    sum(K[x][t][1] for x in KEEP_ADD[k].tolist()) / 6.0,
                )
                for t in range(L)
            ]
        if stage == 2:
            break
        V = []
        for r in range(N_ROLLS):
            subs = SUBKEEP_INDEX[SUBKEEP_START[r] : SUBKEEP_START[r + 1]].tolist()
            V.append([max(K[k][t] for k in subs) for t in range(L)])
    return [u for u, _ in K[0]], [w for _, w in K[0]]
