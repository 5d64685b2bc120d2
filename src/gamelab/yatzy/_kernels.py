"""numba kernels of the Yatzy solvers, each with a plain-Python twin (compared in the tests).

State index ``(mask * 64 + m) * nf + f``: `mask` the filled boxes, `m` = min(63, upper total),
`f` = "the Yahtzee box holds 50" (only when the rules have a Yahtzee bonus, nf = 2; else nf = 1).
Values are the expected *remaining* score; the upper bonus is credited on the transition that
first reaches 63 and the Yahtzee bonus when the extra Yahtzee is scored, so full cards are worth 0.

One *widget* (Glenn 2006) is the turn played from one state: three rolls, two keep choices and
the box choice. Per widget the kernel

1. scores every roll r in every legal box: ``V3[r] = max_b s(b, r) + E[next]`` (lower-box
   successors are hoisted out of the roll loop, upper-box ones depend only on the face count);
2. computes the value of each of the 462 keeps by the incremental recursion
   ``K(k) = mean_f K(k + f)`` from the five-dice keeps down (1260 additions, no probabilities);
3. takes ``V2[r] = max`` over the sub-keeps of r (4368 entries in all), and repeats.

``with_w`` also propagates the second moment W = E[remaining^2] under the same (argmax-E, first
index on ties) decisions: ``W = s^2 + 2 s E' + W'`` at the box, linear at chance nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from gamelab.yatzy.rules import (
    CODE_TO_KEEP,
    KEEP_ADD,
    KEEP_MINUS_INDEX,
    KEEP_MINUS_START,
    KEEP_RECURSION_ORDER,
    KEEP_ROLL_INDEX,
    KEEP_ROLL_PROB,
    KEEP_ROLL_START,
    KEEPS,
    N_KEEPS,
    N_ROLLS,
    ROLL_AS_KEEP,
    ROLL_PROB,
    ROLL_YAHTZEE_FACE,
    ROLLS,
    SUBKEEP_INDEX,
    SUBKEEP_START,
)

NEG = -1.0e300
#: keep index of a five-dice keep -> roll index (-1 for smaller keeps)
ROLL_INDEX_OF_KEEP = np.full(N_KEEPS, -1, dtype=np.int64)
ROLL_INDEX_OF_KEEP[ROLL_AS_KEEP] = np.arange(N_ROLLS)


@njit(cache=True)
def final_values(E, W, with_w, mask, m, f, base, upper_face, joker_value, upper_box_of_face,
                 joker_fixed, params, V, VW, choice, succ_s, succ_e, succ_w):
    """Box stage of one widget: V[r] (and VW[r]) = best box for roll r; choice[r] = that box.

    succ_s/e/w are scratch [n_boxes, 7]: column 0..5 = upper value by face count, column 6 =
    lower successor (column 0/1 of the Yahtzee box = scored 0 / scored 50).
    """
    nb = params[0]
    ub = params[1]
    yb = params[2]
    joker = params[3]
    ybox = params[4]
    nf = params[5]
    for b in range(nb):
        if (mask >> b) & 1:
            continue
        nmask = mask | (1 << b)
        face = upper_face[b]
        if face > 0:
            for cnt in range(6):
                pts = cnt * face
                m2 = m + pts
                if m2 > 63:
                    m2 = 63
                bonus = ub if (m < 63 and m2 >= 63) else 0
                j = (nmask * 64 + m2) * nf + f
                succ_s[b, cnt] = pts + bonus
                succ_e[b, cnt] = E[j]
                if with_w:
                    succ_w[b, cnt] = W[j]
        elif b == ybox:
            j0 = (nmask * 64 + m) * nf + f
            f50 = 1 if nf == 2 else 0
            j1 = (nmask * 64 + m) * nf + f50
            succ_e[b, 0] = E[j0]
            succ_e[b, 1] = E[j1]
            if with_w:
                succ_w[b, 0] = W[j0]
                succ_w[b, 1] = W[j1]
        else:
            j = (nmask * 64 + m) * nf + f
            succ_e[b, 6] = E[j]
            if with_w:
                succ_w[b, 6] = W[j]
    # ordinary placements, box by box over all rolls (tight, branch-free inner loops)
    for r in range(N_ROLLS):
        V[r] = NEG
        choice[r] = -1
    for b in range(nb):
        if (mask >> b) & 1:
            continue
        face = upper_face[b]
        if face > 0:
            for r in range(N_ROLLS):
                cnt = ROLLS[r, face - 1]
                v = succ_s[b, cnt] + succ_e[b, cnt]
                if v > V[r]:
                    V[r] = v
                    choice[r] = b
        elif b == ybox:
            e0 = succ_e[b, 0]
            e1 = succ_e[b, 1]
            for r in range(N_ROLLS):
                pts = base[b, r]
                v = pts + (e1 if pts == 50 else e0)
                if v > V[r]:
                    V[r] = v
                    choice[r] = b
        else:
            e6 = succ_e[b, 6]
            for r in range(N_ROLLS):
                v = base[b, r] + e6
                if v > V[r]:
                    V[r] = v
                    choice[r] = b
    if with_w:
        for r in range(N_ROLLS):
            b = choice[r]
            face = upper_face[b]
            if face > 0:
                cnt = ROLLS[r, face - 1]
                sv = succ_s[b, cnt]
                VW[r] = sv * sv + 2.0 * sv * succ_e[b, cnt] + succ_w[b, cnt]
            else:
                sv = float(base[b, r])
                if b == ybox:
                    col = 1 if base[b, r] == 50 else 0
                else:
                    col = 6
                VW[r] = sv * sv + 2.0 * sv * succ_e[b, col] + succ_w[b, col]
    ybox_filled = ybox >= 0 and ((mask >> ybox) & 1) == 1
    if not (ybox_filled and (joker != 0 or yb > 0)):
        return
    # extra Yahtzees (five of a kind with the Yahtzee box filled): bonus and joker rules
    for r in range(N_ROLLS):
        face5 = ROLL_YAHTZEE_FACE[r]
        if face5 == 0:
            continue
        bonus = 0
        mode = 0  # 0 normal, 1 forced-upper, 2 forced-lower (joker values), 3 free joker
        if f == 1:
            bonus = yb
        if joker == 1:
            ubox = upper_box_of_face[face5]
            if ubox >= 0 and ((mask >> ubox) & 1) == 0:
                mode = 1
            else:
                mode = 4  # forced, upper of face filled: lower with joker values, else any
                for b in range(nb):
                    if ((mask >> b) & 1) == 0 and upper_face[b] == 0:
                        mode = 2
                        break
        elif joker == 2:
            mode = 3
        best = NEG
        best_b = -1
        best_s = 0.0
        for b in range(nb):
            if (mask >> b) & 1:
                continue
            face = upper_face[b]
            if mode == 1 and b != upper_box_of_face[face5]:
                continue
            if mode == 2 and face > 0:
                continue
            if face > 0:
                cnt = ROLLS[r, face - 1]
                s = succ_s[b, cnt] + bonus
                e = succ_e[b, cnt]
            else:
                pts = base[b, r]
                if mode == 2:
                    pts = joker_value[b, face5]
                elif mode == 3 and joker_fixed[b] == 1:
                    ubox = upper_box_of_face[face5]
                    if ubox < 0 or ((mask >> ubox) & 1) == 1:
                        pts = joker_value[b, face5]
                s = pts + bonus
                e = succ_e[b, 6]
            v = s + e
            if v > best:
                best = v
                best_b = b
                best_s = s
        V[r] = best
        choice[r] = best_b
        if with_w:
            b = best_b
            face = upper_face[b]
            if face > 0:
                cnt = ROLLS[r, face - 1]
                e = succ_e[b, cnt]
                w = succ_w[b, cnt]
            else:
                e = succ_e[b, 6]
                w = succ_w[b, 6]
            VW[r] = best_s * best_s + 2.0 * best_s * e + w


@njit(cache=True)
def keep_values(V, VW, with_w, K, KW):
    """K[k] = expected value of keeping k and rolling the rest once, from roll values V."""
    for r in range(N_ROLLS):
        k = ROLL_AS_KEEP[r]
        K[k] = V[r]
        if with_w:
            KW[k] = VW[r]
    for i in range(KEEP_RECURSION_ORDER.shape[0]):
        k = KEEP_RECURSION_ORDER[i]
        acc = 0.0
        for face in range(6):
            acc += K[KEEP_ADD[k, face]]
        K[k] = acc / 6.0
        if with_w:
            acc = 0.0
            for face in range(6):
                acc += KW[KEEP_ADD[k, face]]
            KW[k] = acc / 6.0


@njit(cache=True)
def best_keeps(K, KW, with_w, V, VW, choice, M, A):
    """V[r] = best keep value among the sub-keeps of roll r; choice[r] = that keep.

    Uses the closure M(k) = max(K(k), M(k minus one die)) over keeps in increasing size (about
    1150 comparisons instead of the 4368 of the roll -> sub-keep lists); ties go to the smallest
    keep index, as in the twin. M and A are scratch [462].
    """
    if not with_w:
        for k in range(N_KEEPS):
            best = K[k]
            for i in range(KEEP_MINUS_START[k], KEEP_MINUS_START[k + 1]):
                v = M[KEEP_MINUS_INDEX[i]]
                best = v if v > best else best
            M[k] = best
        for r in range(N_ROLLS):
            V[r] = M[ROLL_AS_KEEP[r]]
        return
    for k in range(N_KEEPS):
        best = K[k]
        arg = k
        for i in range(KEEP_MINUS_START[k], KEEP_MINUS_START[k + 1]):
            s = KEEP_MINUS_INDEX[i]
            v = M[s]
            if v > best or (v == best and A[s] < arg):
                best = v
                arg = A[s]
        M[k] = best
        A[k] = arg
    for r in range(N_ROLLS):
        k = ROLL_AS_KEEP[r]
        V[r] = M[k]
        choice[r] = A[k]
        VW[r] = KW[A[k]]


@njit(cache=True)
def keep_decisions(V, VW, K, KW, M, A, keep2, keep1, K1, K2):
    """From the final-roll values V: the best keep after roll 2 (keep2, values K2) and after roll 1
    (keep1, values K1) for every roll; returns the value of the turn before rolling (K[0])."""
    for k in range(N_KEEPS):
        KW[k] = 0.0
    keep_values(V, VW, False, K2, KW)
    best_keeps(K2, KW, True, V, VW, keep2, M, A)
    keep_values(V, VW, False, K1, KW)
    best_keeps(K1, KW, True, V, VW, keep1, M, A)
    keep_values(V, VW, False, K, KW)
    return K[0]


@njit(cache=True)
def widget(E, W, with_w, mask, m, f, base, upper_face, joker_value, upper_box_of_face,
           joker_fixed, params, V, VW, K, KW, choice, succ_s, succ_e, succ_w, M, A):
    """(E, W) of the state at the start of its turn (M, A: scratch [462])."""
    final_values(E, W, with_w, mask, m, f, base, upper_face, joker_value, upper_box_of_face,
                 joker_fixed, params, V, VW, choice, succ_s, succ_e, succ_w)
    keep_values(V, VW, with_w, K, KW)
    best_keeps(K, KW, with_w, V, VW, choice, M, A)
    keep_values(V, VW, with_w, K, KW)
    best_keeps(K, KW, with_w, V, VW, choice, M, A)
    keep_values(V, VW, with_w, K, KW)
    return K[0], KW[0]


@njit(cache=True)
def upper_subset(mask, upper_face, nb):
    u = 0
    for b in range(nb):
        if (mask >> b) & 1 and upper_face[b] > 0:
            u |= 1 << (upper_face[b] - 1)
    return u


@njit(cache=True, parallel=True)
def solve_layer(E, W, with_w, masks, reach, base, upper_face, joker_value, upper_box_of_face,
                joker_fixed, params):
    """Solve every reachable state whose mask is in `masks` (one popcount layer); returns count."""
    nb = params[0]
    ybox = params[4]
    nf = params[5]
    counts = np.zeros(masks.shape[0], dtype=np.int64)
    for i in prange(masks.shape[0]):
        mask = masks[i]
        V = np.empty(N_ROLLS)
        VW = np.zeros(N_ROLLS)
        K = np.empty(N_KEEPS)
        KW = np.zeros(N_KEEPS)
        choice = np.empty(N_ROLLS, dtype=np.int64)
        succ_s = np.zeros((nb, 7))
        succ_e = np.zeros((nb, 7))
        succ_w = np.zeros((nb, 7))
        M = np.empty(N_KEEPS)
        A = np.empty(N_KEEPS, dtype=np.int64)
        u = upper_subset(mask, upper_face, nb)
        nf_here = 1
        if nf == 2 and ybox >= 0 and (mask >> ybox) & 1:
            nf_here = 2
        for m in range(64):
            if not reach[u, m]:
                continue
            for f in range(nf_here):
                e, w = widget(E, W, with_w, mask, m, f, base, upper_face, joker_value,
                              upper_box_of_face, joker_fixed, params, V, VW, K, KW, choice,
                              succ_s, succ_e, succ_w, M, A)
                j = (mask * 64 + m) * nf + f
                E[j] = e
                if with_w:
                    W[j] = w
                counts[i] += 1
    return counts.sum()


@njit(cache=True)
def widget_policy(E, mask, m, f, base, upper_face, joker_value, upper_box_of_face, joker_fixed,
                  params, V, VW, K, KW, M, A, succ_s, succ_e, succ_w, box3, keep2, keep1,
                  K1, K2):
    """The argmax-E decisions of one widget.

    box3[r]: box for final roll r; keep2[r]: keep after roll 2; keep1[r]: keep after roll 1.
    K2 / K1 receive the keep values with 1 / 2 rolls left; returns E(state).
    """
    final_values(E, E, True, mask, m, f, base, upper_face, joker_value, upper_box_of_face,
                 joker_fixed, params, V, VW, box3, succ_s, succ_e, succ_w)
    return keep_decisions(V, VW, K, KW, M, A, keep2, keep1, K1, K2)


@njit(cache=True)
def placement(mask, m, f, b, r, base, upper_face, joker_value, upper_box_of_face, joker_fixed,
              params):
    """(points gained incl. bonuses, next state index) for roll r placed in box b (legal)."""
    ub = params[1]
    yb = params[2]
    joker = params[3]
    ybox = params[4]
    nf = params[5]
    nmask = mask | (1 << b)
    face5 = ROLL_YAHTZEE_FACE[r]
    extra = face5 > 0 and ybox >= 0 and ((mask >> ybox) & 1) == 1 and (joker != 0 or yb > 0)
    bonus = yb if (extra and f == 1) else 0
    face = upper_face[b]
    if face > 0:
        pts = ROLLS[r, face - 1] * face
        m2 = m + pts
        if m2 > 63:
            m2 = 63
        if m < 63 and m2 >= 63:
            pts += ub
        return pts + bonus, (nmask * 64 + m2) * nf + f
    pts = base[b, r]
    if extra and joker != 0 and joker_fixed[b] == 1:
        ubox = upper_box_of_face[face5]
        if ubox < 0 or ((mask >> ubox) & 1) == 1:
            pts = joker_value[b, face5]
    f2 = f
    if b == ybox and pts == 50 and nf == 2:
        f2 = 1
    return pts + bonus, (nmask * 64 + m) * nf + f2


@njit(cache=True)
def turn_outcomes(mask, m, f, base, upper_face, joker_value, upper_box_of_face, joker_fixed,
                  params, box3, keep2, keep1, P, Q, acc, out_b, out_j, out_s):
    """The (next state, points) distribution of one turn under the given decisions.

    Returns n; outcome o is (out_b[o], out_j[o], out_s[o]) with probability acc[b, s] (the
    caller reads and re-zeroes acc). P [252] and Q [462] are scratch.
    """
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
    n = 0
    for r in range(N_ROLLS):
        if P[r] == 0.0:
            continue
        b = box3[r]
        pts, j = placement(mask, m, f, b, r, base, upper_face, joker_value,
                           upper_box_of_face, joker_fixed, params)
        if acc[b, pts] == 0.0:
            out_b[n] = b
            out_j[n] = j
            out_s[n] = pts
            n += 1
        acc[b, pts] += P[r]
    return n


@njit(cache=True)
def backward_layer(E, D, rows, D2, row_of2, mask_of_row, m_of_row, f_of_row, base, upper_face,
                   joker_value, upper_box_of_face, joker_fixed, params):
    """D[row, t] = P(remaining score = t) from the next layer's D2 (rows of layer k+1).

    Remaining scores at or beyond D's width are clamped into its last column.
    """
    nb = params[0]
    L = D.shape[1]
    L2 = D2.shape[1]
    V = np.empty(N_ROLLS)
    VW = np.empty(N_ROLLS)
    K = np.empty(N_KEEPS)
    KW = np.zeros(N_KEEPS)
    K1 = np.empty(N_KEEPS)
    K2 = np.empty(N_KEEPS)
    M = np.empty(N_KEEPS)
    A = np.empty(N_KEEPS, dtype=np.int64)
    succ_s = np.zeros((nb, 7))
    succ_e = np.zeros((nb, 7))
    succ_w = np.zeros((nb, 7))
    box3 = np.empty(N_ROLLS, dtype=np.int64)
    keep2 = np.empty(N_ROLLS, dtype=np.int64)
    keep1 = np.empty(N_ROLLS, dtype=np.int64)
    P = np.empty(N_ROLLS)
    Q = np.empty(N_KEEPS)
    acc = np.zeros((nb, 256))
    out_b = np.empty(N_ROLLS, dtype=np.int64)
    out_j = np.empty(N_ROLLS, dtype=np.int64)
    out_s = np.empty(N_ROLLS, dtype=np.int64)
    for row in range(rows):
        mask = mask_of_row[row]
        m = m_of_row[row]
        f = f_of_row[row]
        widget_policy(E, mask, m, f, base, upper_face, joker_value, upper_box_of_face,
                      joker_fixed, params, V, VW, K, KW, M, A, succ_s, succ_e, succ_w, box3,
                      keep2, keep1, K1, K2)
        n = turn_outcomes(mask, m, f, base, upper_face, joker_value, upper_box_of_face,
                          joker_fixed, params, box3, keep2, keep1, P, Q, acc, out_b, out_j, out_s)
        for o in range(n):
            b = out_b[o]
            s = out_s[o]
            p = acc[b, s]
            acc[b, s] = 0.0
            row2 = row_of2[out_j[o]]
            for t2 in range(L2):
                v = D2[row2, t2]
                if v == 0.0:
                    continue
                t = t2 + s
                if t >= L:
                    t = L - 1
                D[row, t] += p * v


@njit(cache=True)
def forward_layer(E, F, rows, row_of, F2, mask_of_row, m_of_row, f_of_row, base, upper_face,
                  joker_value, upper_box_of_face, joker_fixed, params, overflow, W):
    """Push the score mass F[row, score] of one layer through one turn into F2.

    Mass that would land at or beyond F2's width is not lost: its probability and its exact
    contributions to the mean (score + E[next]) and, when overflow has a third slot, to the
    second moment (score^2 + 2 score E[next] + W[next]) go to overflow[0], [1] and [2].
    """
    nb = params[0]
    L = F.shape[1]
    L2 = F2.shape[1]
    V = np.empty(N_ROLLS)
    VW = np.empty(N_ROLLS)
    K = np.empty(N_KEEPS)
    KW = np.zeros(N_KEEPS)
    K1 = np.empty(N_KEEPS)
    K2 = np.empty(N_KEEPS)
    M = np.empty(N_KEEPS)
    A = np.empty(N_KEEPS, dtype=np.int64)
    succ_s = np.zeros((nb, 7))
    succ_e = np.zeros((nb, 7))
    succ_w = np.zeros((nb, 7))
    box3 = np.empty(N_ROLLS, dtype=np.int64)
    keep2 = np.empty(N_ROLLS, dtype=np.int64)
    keep1 = np.empty(N_ROLLS, dtype=np.int64)
    P = np.empty(N_ROLLS)
    Q = np.empty(N_KEEPS)
    acc = np.zeros((nb, 256))
    out_b = np.empty(N_ROLLS, dtype=np.int64)
    out_j = np.empty(N_ROLLS, dtype=np.int64)
    out_s = np.empty(N_ROLLS, dtype=np.int64)
    for row in range(rows):
        hi = -1
        for a in range(L):
            if F[row, a] != 0.0:
                hi = a
        if hi < 0:
            continue
        mask = mask_of_row[row]
        m = m_of_row[row]
        f = f_of_row[row]
        widget_policy(E, mask, m, f, base, upper_face, joker_value, upper_box_of_face,
                      joker_fixed, params, V, VW, K, KW, M, A, succ_s, succ_e, succ_w, box3,
                      keep2, keep1, K1, K2)
        n = turn_outcomes(mask, m, f, base, upper_face, joker_value, upper_box_of_face,
                          joker_fixed, params, box3, keep2, keep1, P, Q, acc, out_b, out_j, out_s)
        for o in range(n):
            b = out_b[o]
            s = out_s[o]
            p = acc[b, s]
            acc[b, s] = 0.0
            j = out_j[o]
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


STRATEGY_OPTIMAL, STRATEGY_GREEDY, STRATEGY_RANDOM = 0, 1, 2
CACHE_SLOTS = 20_000  # decision tables kept per game-kernel call (1.5 kB each)
UNIFORMS_PER_TURN = 18  # 3 x 5 dice, two random keeps, one random box


@njit(cache=True)
def legal_boxes(mask, f, r, upper_face, upper_box_of_face, params, out):
    """Open boxes where roll r may be placed (joker rules); returns how many (in out)."""
    nb = params[0]
    joker = params[3]
    ybox = params[4]
    face5 = ROLL_YAHTZEE_FACE[r]
    forced = face5 > 0 and joker == 1 and ybox >= 0 and ((mask >> ybox) & 1) == 1
    n = 0
    if forced:
        ubox = upper_box_of_face[face5]
        if ubox >= 0 and ((mask >> ubox) & 1) == 0:
            out[0] = ubox
            return 1
        for b in range(nb):
            if ((mask >> b) & 1) == 0 and upper_face[b] == 0:
                out[n] = b
                n += 1
        if n > 0:
            return n
    for b in range(nb):
        if ((mask >> b) & 1) == 0:
            out[n] = b
            n += 1
    return n


@njit(cache=True)
def _roll_dice(keep, u, offset):
    """Roll index after rerolling the dice not in `keep` with uniforms u[offset:]."""
    code = 0
    p6 = 1
    for face in range(6):
        code += KEEPS[keep, face] * p6
        p6 *= 6
    size = 0
    for face in range(6):
        size += KEEPS[keep, face]
    for i in range(5 - size):
        face = int(u[offset + i] * 6.0)
        if face > 5:
            face = 5
        p = 1
        for _ in range(face):
            p *= 6
        code += p
    return ROLL_INDEX_OF_KEEP[CODE_TO_KEEP[code]]


@njit(cache=True)
def play_games(E, strategy, uniforms, base, upper_face, joker_value, upper_box_of_face,
               joker_fixed, params, scores):
    """Play len(scores) whole games; uniforms [games, turns, 18]; scores receive final totals.

    Decisions: optimal (argmax E), greedy (E = zeros: best expected points this turn) or
    random (a uniform distinct sub-keep, then a uniform legal box). Decision tables are
    computed once per visited state and call (see :func:`cached_decisions`).
    """
    slot_of = np.zeros(E.shape[0], dtype=np.int32)
    cache = np.empty((CACHE_SLOTS, 3, N_ROLLS), dtype=np.int16)
    used = np.ones(1, dtype=np.int64)
    play_games_cached(E, strategy, uniforms, base, upper_face, joker_value, upper_box_of_face,
                      joker_fixed, params, slot_of, cache, used, scores)


@njit(cache=True)
def play_games_cached(E, strategy, uniforms, base, upper_face, joker_value, upper_box_of_face,
                      joker_fixed, params, slot_of, cache, used, scores):
    """:func:`play_games` with the decision cache passed in (slot_of [states] int32, cache
    [slots, 3, 252] int16, used [1]), so that it persists between calls: with as many slots as
    states, every state's decisions are computed once per process."""
    nb = params[0]
    nf = params[5]
    V = np.empty(N_ROLLS)
    VW = np.empty(N_ROLLS)
    K = np.empty(N_KEEPS)
    KW = np.zeros(N_KEEPS)
    K1 = np.empty(N_KEEPS)
    K2 = np.empty(N_KEEPS)
    M = np.empty(N_KEEPS)
    A = np.empty(N_KEEPS, dtype=np.int64)
    succ_s = np.zeros((nb, 7))
    succ_e = np.zeros((nb, 7))
    succ_w = np.zeros((nb, 7))
    box3 = np.empty(N_ROLLS, dtype=np.int64)
    keep2 = np.empty(N_ROLLS, dtype=np.int64)
    keep1 = np.empty(N_ROLLS, dtype=np.int64)
    legal = np.empty(nb, dtype=np.int64)
    s = 0
    for g in range(scores.shape[0]):
        mask = 0
        m = 0
        f = 0
        total = 0
        for turn in range(nb):
            u = uniforms[g, turn]
            if strategy != STRATEGY_RANDOM:
                s = cached_decisions(E, mask, m, f, base, upper_face, joker_value,
                                     upper_box_of_face, joker_fixed, params, V, VW, K, KW, M, A,
                                     succ_s, succ_e, succ_w, box3, keep2, keep1, K1, K2, slot_of,
                                     cache, used)
            r = _roll_dice(0, u, 0)
            for stage in range(2):
                if strategy == STRATEGY_RANDOM:
                    lo = SUBKEEP_START[r]
                    hi = SUBKEEP_START[r + 1]
                    i = lo + int(u[15 + stage] * (hi - lo))
                    if i >= hi:
                        i = hi - 1
                    k = SUBKEEP_INDEX[i]
                else:
                    k = cache[s, 2 - stage, r]
                r = _roll_dice(k, u, 5 + 5 * stage)
            if strategy == STRATEGY_RANDOM:
                n = legal_boxes(mask, f, r, upper_face, upper_box_of_face, params, legal)
                i = int(u[17] * n)
                if i >= n:
                    i = n - 1
                b = legal[i]
            else:
                b = cache[s, 0, r]
            pts, j = placement(mask, m, f, b, r, base, upper_face, joker_value,
                               upper_box_of_face, joker_fixed, params)
            total += pts
            f = j % nf
            m = (j // nf) % 64
            mask = j // (nf * 64)
        scores[g] = total


def _meet_tables():
    size = np.zeros((N_ROLLS, N_ROLLS), dtype=np.int64)
    keep = np.zeros((N_ROLLS, N_ROLLS), dtype=np.int64)
    p6 = 6 ** np.arange(6)
    for r in range(N_ROLLS):
        common = np.minimum(ROLLS[r][None, :], ROLLS)
        size[r] = common.sum(axis=1)
        keep[r] = CODE_TO_KEEP[(common * p6).sum(axis=1)]
    return size, keep


#: MEET_SIZE[r, t] = dice rolls r and t have in common; MEET_KEEP[r, t] = that common keep.
MEET_SIZE, MEET_KEEP = _meet_tables()


@njit(cache=True)
def risky_keep(r, V3, valence):
    """The thesis' risky keep: aim at the final roll t with the highest value V3[t] among those
    sharing at least `valence` dice with r, and keep the dice in common (ties: first t)."""
    best = NEG
    best_t = r
    for t in range(N_ROLLS):
        if MEET_SIZE[r, t] >= valence and V3[t] > best:
            best = V3[t]
            best_t = t
    return MEET_KEEP[r, best_t]


@njit(cache=True)
def cached_decisions(E, mask, m, f, base, upper_face, joker_value, upper_box_of_face,
                     joker_fixed, params, V, VW, K, KW, M, A, succ_s, succ_e, succ_w, box3,
                     keep2, keep1, K1, K2, slot_of, cache, used):
    """Row of `cache` [slots, 3, 252] (box3, keep2, keep1) holding the state's decisions.

    Computed once per state and call (slot_of[state] = row); row 0 is scratch when full.
    """
    nf = params[5]
    j = (mask * 64 + m) * nf + f
    s = slot_of[j]
    if s > 0:
        return s
    widget_policy(E, mask, m, f, base, upper_face, joker_value, upper_box_of_face, joker_fixed,
                  params, V, VW, K, KW, M, A, succ_s, succ_e, succ_w, box3, keep2, keep1, K1, K2)
    s = 0
    if used[0] < cache.shape[0]:
        s = used[0]
        used[0] += 1
        slot_of[j] = s
    for r in range(N_ROLLS):
        cache[s, 0, r] = box3[r]
        cache[s, 1, r] = keep2[r]
        cache[s, 2, r] = keep1[r]
    return s


@njit(cache=True)
def play_turn(E, mask, m, f, u, valence, base, upper_face, joker_value, upper_box_of_face,
              joker_fixed, params, V, VW, K, KW, M, A, succ_s, succ_e, succ_w, box3, keep2,
              keep1, K1, K2, V3, slot_of, cache, used):
    """One turn from (mask, m, f) with uniforms u: optimal (valence 0) or the risk-taker's keeps
    (valence v >= 1; the box is still chosen optimally). Returns (points, next state index)."""
    s = cached_decisions(E, mask, m, f, base, upper_face, joker_value, upper_box_of_face,
                         joker_fixed, params, V, VW, K, KW, M, A, succ_s, succ_e, succ_w, box3,
                         keep2, keep1, K1, K2, slot_of, cache, used)
    if valence > 0:
        final_values(E, E, False, mask, m, f, base, upper_face, joker_value, upper_box_of_face,
                     joker_fixed, params, V3, VW, box3, succ_s, succ_e, succ_w)
    r = _roll_dice(0, u, 0)
    for stage in range(2):
        if valence > 0:
            k = risky_keep(r, V3, valence)
        else:
            k = cache[s, 2 - stage, r]
        r = _roll_dice(k, u, 5 + 5 * stage)
    return placement(mask, m, f, cache[s, 0, r], r, base, upper_face, joker_value,
                     upper_box_of_face, joker_fixed, params)


@njit(cache=True)
def duel_games(E, start_a, start_b, uniforms_a, uniforms_b, deficit, valence, base, upper_face,
               joker_value, upper_box_of_face, joker_fixed, params, result):
    """Finish two-player games from round positions start_x[g] = (mask, m, f, score).

    A plays optimally; B plays optimally except that at each of its turns where it is behind by
    at least `deficit` points it uses the risky keeps (valence 0 = always optimal). A moves first
    in each round. result[g] = final score of B minus final score of A.
    """
    nb = params[0]
    nf = params[5]
    V = np.empty(N_ROLLS)
    VW = np.empty(N_ROLLS)
    V3 = np.empty(N_ROLLS)
    K = np.empty(N_KEEPS)
    KW = np.zeros(N_KEEPS)
    K1 = np.empty(N_KEEPS)
    K2 = np.empty(N_KEEPS)
    M = np.empty(N_KEEPS)
    A = np.empty(N_KEEPS, dtype=np.int64)
    succ_s = np.zeros((nb, 7))
    succ_e = np.zeros((nb, 7))
    succ_w = np.zeros((nb, 7))
    box3 = np.empty(N_ROLLS, dtype=np.int64)
    keep2 = np.empty(N_ROLLS, dtype=np.int64)
    keep1 = np.empty(N_ROLLS, dtype=np.int64)
    slot_of = np.zeros(E.shape[0], dtype=np.int32)
    cache = np.empty((CACHE_SLOTS, 3, N_ROLLS), dtype=np.int16)
    used = np.ones(1, dtype=np.int64)
    for g in range(result.shape[0]):
        ma, mma, fa, sa = start_a[g, 0], start_a[g, 1], start_a[g, 2], start_a[g, 3]
        mb, mmb, fb, sb = start_b[g, 0], start_b[g, 1], start_b[g, 2], start_b[g, 3]
        turn = 0
        while ma != (1 << nb) - 1:
            pts, j = play_turn(E, ma, mma, fa, uniforms_a[g, turn], 0, base, upper_face,
                               joker_value, upper_box_of_face, joker_fixed, params, V, VW, K,
                               KW, M, A, succ_s, succ_e, succ_w, box3, keep2, keep1, K1, K2, V3,
                               slot_of, cache, used)
            sa += pts
            fa = j % nf
            mma = (j // nf) % 64
            ma = j // (nf * 64)
            v = valence if sa - sb >= deficit else 0
            pts, j = play_turn(E, mb, mmb, fb, uniforms_b[g, turn], v, base, upper_face,
                               joker_value, upper_box_of_face, joker_fixed, params, V, VW, K,
                               KW, M, A, succ_s, succ_e, succ_w, box3, keep2, keep1, K1, K2, V3,
                               slot_of, cache, used)
            sb += pts
            fb = j % nf
            mmb = (j // nf) % 64
            mb = j // (nf * 64)
            turn += 1
        result[g] = sb - sa


@njit(cache=True)
def play_to_round(E, uniforms, rounds, base, upper_face, joker_value, upper_box_of_face,
                  joker_fixed, params, out):
    """Optimal single-player games; out[g, i] = (mask, m, f, score) after rounds[i] turns."""
    nb = params[0]
    nf = params[5]
    V = np.empty(N_ROLLS)
    VW = np.empty(N_ROLLS)
    V3 = np.empty(N_ROLLS)
    K = np.empty(N_KEEPS)
    KW = np.zeros(N_KEEPS)
    K1 = np.empty(N_KEEPS)
    K2 = np.empty(N_KEEPS)
    M = np.empty(N_KEEPS)
    A = np.empty(N_KEEPS, dtype=np.int64)
    succ_s = np.zeros((nb, 7))
    succ_e = np.zeros((nb, 7))
    succ_w = np.zeros((nb, 7))
    box3 = np.empty(N_ROLLS, dtype=np.int64)
    keep2 = np.empty(N_ROLLS, dtype=np.int64)
    keep1 = np.empty(N_ROLLS, dtype=np.int64)
    slot_of = np.zeros(E.shape[0], dtype=np.int32)
    cache = np.empty((CACHE_SLOTS, 3, N_ROLLS), dtype=np.int16)
    used = np.ones(1, dtype=np.int64)
    last = 0
    for i in range(rounds.shape[0]):
        last = max(last, rounds[i])
    for g in range(out.shape[0]):
        mask = 0
        m = 0
        f = 0
        score = 0
        for turn in range(last + 1):
            for i in range(rounds.shape[0]):
                if rounds[i] == turn:
                    out[g, i, 0] = mask
                    out[g, i, 1] = m
                    out[g, i, 2] = f
                    out[g, i, 3] = score
            if turn == last or turn == nb:
                break
            pts, j = play_turn(E, mask, m, f, uniforms[g, turn], 0, base, upper_face,
                               joker_value, upper_box_of_face, joker_fixed, params, V, VW, K,
                               KW, M, A, succ_s, succ_e, succ_w, box3, keep2, keep1, K1, K2, V3,
                               slot_of, cache, used)
            score += pts
            f = j % nf
            m = (j // nf) % 64
            mask = j // (nf * 64)


def risky_keep_python(r: int, V3, valence: int) -> int:
    """Plain-Python twin of :func:`risky_keep`."""
    best_t, best = r, None
    for t in range(N_ROLLS):
        common = [min(int(a), int(b)) for a, b in zip(ROLLS[r], ROLLS[t], strict=True)]
        if sum(common) >= valence and (best is None or V3[t] > best):
            best, best_t = V3[t], t
    common = [min(int(a), int(b)) for a, b in zip(ROLLS[r], ROLLS[best_t], strict=True)]
    return int(CODE_TO_KEEP[sum(c * 6**i for i, c in enumerate(common))])


# ---------------------------------------------------------------------------------------------
# plain-Python twins (slow; used by the tests and the benchmark)


def widget_python(E, W, mask, m, f, tables) -> tuple[float, float]:
    """Plain-Python twin of :func:`widget` (with the second moment)."""
    nb, ub, yb, joker, ybox, nf = (int(x) for x in tables["params"])
    base = tables["base"].tolist()
    upper_face = tables["upper_face"].tolist()
    jv = tables["joker_value"].tolist()
    ubf = tables["upper_box_of_face"].tolist()
    fixed = tables["joker_fixed"].tolist()
    rolls = ROLLS.tolist()
    yface = ROLL_YAHTZEE_FACE.tolist()

    def index(msk: int, mm: int, ff: int) -> int:
        return (msk * 64 + mm) * nf + ff

    open_boxes = [b for b in range(nb) if not (mask >> b) & 1]
    ybox_filled = ybox >= 0 and bool((mask >> ybox) & 1)
    V, VW = [], []
    for r in range(N_ROLLS):
        face5 = yface[r]
        options = open_boxes
        override = {}
        bonus = 0
        if face5 and ybox_filled and (joker or yb):
            bonus = yb if f == 1 else 0
            ubox = ubf[face5]
            upper_filled = ubox < 0 or bool((mask >> ubox) & 1)
            if joker == 1:
                lower = [b for b in open_boxes if not upper_face[b]]
                if not upper_filled:
                    options = [ubox]
                elif lower:
                    options = lower
                    override = {b: jv[b][face5] for b in lower}
            elif joker == 2 and upper_filled:
                override = {b: jv[b][face5] for b in open_boxes if fixed[b]}
        best = None
        for b in options:
            if upper_face[b]:
                pts = rolls[r][upper_face[b] - 1] * upper_face[b]
                m2 = min(63, m + pts)
                s = pts + (ub if m < 63 <= m2 else 0) + bonus
                j = index(mask | 1 << b, m2, f)
            else:
                pts = override.get(b, base[b][r])
                s = pts + bonus
                f2 = (1 if nf == 2 else 0) if (b == ybox and pts == 50) else f
                j = index(mask | 1 << b, m, f2)
            v = s + E[j]
            if best is None or v > best[0]:
                best = (v, s * s + 2 * s * E[j] + W[j])
        V.append(best[0])
        VW.append(best[1])

    def keep_pass(V, VW):
        K = [0.0] * N_KEEPS
        KW = [0.0] * N_KEEPS
        for r in range(N_ROLLS):
            K[ROLL_AS_KEEP[r]] = V[r]
            KW[ROLL_AS_KEEP[r]] = VW[r]
        for k in KEEP_RECURSION_ORDER.tolist():
            nxt = KEEP_ADD[k].tolist()
            K[k] = sum(K[x] for x in nxt) / 6.0
            KW[k] = sum(KW[x] for x in nxt) / 6.0
        return K, KW

    def best_pass(K, KW):
        V2, VW2 = [], []
        for r in range(N_ROLLS):
            subs = SUBKEEP_INDEX[SUBKEEP_START[r] : SUBKEEP_START[r + 1]].tolist()
            k = max(subs, key=lambda x: (K[x], -x))
            V2.append(K[k])
            VW2.append(KW[k])
        return V2, VW2

    K, KW = keep_pass(V, VW)
    V, VW = best_pass(K, KW)
    K, KW = keep_pass(V, VW)
    V, VW = best_pass(K, KW)
    K, KW = keep_pass(V, VW)
    assert abs(K[0] - sum(p * v for p, v in zip(ROLL_PROB.tolist(), V, strict=True))) < 1e-9
    return K[0], KW[0]


# ---------------------------------------------------------------------------------------------
# utility play (target and win play): vectors over t = points still needed, all rule sets
#
# A utility vector U[state, t], t = 0..L-1, is the best E[u(final)] when the player still needs
# t more points to reach the top of the utility's window (t = 0: at or beyond the top, where the
# utility is constant). The turn maps it as U[t] = max E[Un[next, max(0, t - points)]]; only the
# terminal vector differs between target play ([t == 0]) and win play (the opponent's CDF).


@njit(cache=True)
def _shift_max(Pn, row, s, out, r):
    """out[r, t] = max(out[r, t], Pn[row, max(0, t - s)])."""
    L = Pn.shape[1]
    for t in range(L):
        v = Pn[row, t - s] if t > s else Pn[row, 0]
        if v > out[r, t]:
            out[r, t] = v


@njit(cache=True)
def _extra_yahtzee_mode(mask, face5, upper_face, upper_box_of_face, params):
    """Placement mode of an extra Yahtzee of face5 (Yahtzee box filled): see final_values."""
    nb = params[0]
    joker = params[3]
    mode = 0  # 0 normal, 1 forced-upper, 2 forced-lower (joker values), 3 free joker, 4 any box
    if joker == 1:
        ubox = upper_box_of_face[face5]
        if ubox >= 0 and ((mask >> ubox) & 1) == 0:
            mode = 1
        else:
            mode = 4
            for b in range(nb):
                if ((mask >> b) & 1) == 0 and upper_face[b] == 0:
                    mode = 2
                    break
    elif joker == 2:
        mode = 3
    return mode


@njit(cache=True)
def _extra_yahtzee_points(mask, m, f, b, r, mode, base, upper_face, joker_value,
                          upper_box_of_face, joker_fixed, params):
    """(allowed, points incl. bonuses, next state index) of extra-Yahtzee roll r in box b."""
    ub = params[1]
    yb = params[2]
    nf = params[5]
    face5 = ROLL_YAHTZEE_FACE[r]
    bonus = yb if f == 1 else 0
    face = upper_face[b]
    nmask = mask | (1 << b)
    if mode == 1 and b != upper_box_of_face[face5]:
        return False, 0, 0
    if mode == 2 and face > 0:
        return False, 0, 0
    if face > 0:
        pts = ROLLS[r, face - 1] * face
        m2 = min(63, m + pts)
        s = pts + (ub if (m < 63 and m2 >= 63) else 0) + bonus
        return True, s, (nmask * 64 + m2) * nf + f
    pts = base[b, r]
    if mode == 2:
        pts = joker_value[b, face5]
    elif mode == 3 and joker_fixed[b] == 1:
        ubox = upper_box_of_face[face5]
        if ubox < 0 or ((mask >> ubox) & 1) == 1:
            pts = joker_value[b, face5]
    return True, pts + bonus, (nmask * 64 + m) * nf + f


@njit(cache=True)
def utility_widget(Pn, row_of_next, mask, m, f, base, upper_face, joker_value,
                   upper_box_of_face, joker_fixed, params, V3, K, M, shifted):
    """U[t] = best E[Pn[next, max(0, t - points)]] over the turn, t = 0..L-1 (every rule set).

    Pn: [rows of the next layer, L]; row_of_next[state index] = its row. Scratch: V3 [252, L],
    K/M [462, L], shifted [6, L]. Keeps and boxes are chosen per t. Returns K[0] (a view).
    """
    nb = params[0]
    ub = params[1]
    yb = params[2]
    joker = params[3]
    ybox = params[4]
    nf = params[5]
    L = Pn.shape[1]
    for r in range(N_ROLLS):
        for t in range(L):
            V3[r, t] = -1.0
    for b in range(nb):
        if (mask >> b) & 1:
            continue
        nmask = mask | (1 << b)
        face = upper_face[b]
        if face > 0:
            for cnt in range(6):
                pts = cnt * face
                m2 = min(63, m + pts)
                s = pts + (ub if (m < 63 and m2 >= 63) else 0)
                row = row_of_next[(nmask * 64 + m2) * nf + f]
                for t in range(L):
                    shifted[cnt, t] = Pn[row, t - s] if t > s else Pn[row, 0]
            for r in range(N_ROLLS):
                c = ROLLS[r, face - 1]
                for t in range(L):
                    v = shifted[c, t]
                    if v > V3[r, t]:
                        V3[r, t] = v
        else:
            row0 = row_of_next[(nmask * 64 + m) * nf + f]
            row1 = row0
            if b == ybox and nf == 2:
                row1 = row_of_next[(nmask * 64 + m) * nf + 1]
            for r in range(N_ROLLS):
                s = base[b, r]
                _shift_max(Pn, row1 if (b == ybox and s == 50) else row0, s, V3, r)
    ybox_filled = ybox >= 0 and ((mask >> ybox) & 1) == 1
    if ybox_filled and (joker != 0 or yb > 0):
        for r in range(N_ROLLS):
            face5 = ROLL_YAHTZEE_FACE[r]
            if face5 == 0:
                continue
            mode = _extra_yahtzee_mode(mask, face5, upper_face, upper_box_of_face, params)
            for t in range(L):
                V3[r, t] = -1.0
            for b in range(nb):
                if (mask >> b) & 1:
                    continue
                ok, s, j = _extra_yahtzee_points(mask, m, f, b, r, mode, base, upper_face,
                                                 joker_value, upper_box_of_face, joker_fixed,
                                                 params)
                if ok:
                    _shift_max(Pn, row_of_next[j], s, V3, r)
    for stage in range(3):
        for r in range(N_ROLLS):
            k = ROLL_AS_KEEP[r]
            for t in range(L):
                K[k, t] = V3[r, t]
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
            for t in range(L):
                M[k, t] = K[k, t]
            for i in range(KEEP_MINUS_START[k], KEEP_MINUS_START[k + 1]):
                s = KEEP_MINUS_INDEX[i]
                for t in range(L):
                    if M[s, t] > M[k, t]:
                        M[k, t] = M[s, t]
        for r in range(N_ROLLS):
            k = ROLL_AS_KEEP[r]
            for t in range(L):
                V3[r, t] = M[k, t]
    return K[0]


@njit(cache=True, parallel=True)
def utility_layer(Pn, row_of_next, P, ms, mm, ff, base, upper_face, joker_value,
                  upper_box_of_face, joker_fixed, params, blocks):
    """Fill P[row] = utility_widget of (ms, mm, ff)[row] for one layer (blocks of rows)."""
    L = Pn.shape[1]
    n = ms.shape[0]
    size = (n + blocks - 1) // blocks
    for blk in prange(blocks):
        V3 = np.empty((N_ROLLS, L))
        K = np.empty((N_KEEPS, L))
        M = np.empty((N_KEEPS, L))
        shifted = np.empty((6, L))
        for row in range(blk * size, min(n, (blk + 1) * size)):
            res = utility_widget(Pn, row_of_next, ms[row], mm[row], ff[row], base, upper_face,
                                 joker_value, upper_box_of_face, joker_fixed, params, V3, K, M,
                                 shifted)
            for t in range(L):
                P[row, t] = res[t]


@njit(cache=True)
def utility_decisions(Pn, row_of_next, mask, m, f, t, base, upper_face, joker_value,
                      upper_box_of_face, joker_fixed, params, V, VW, K, KW, M, A, box3, keep2,
                      keep1, K1, K2):
    """The decisions of the utility policy for one t (a scalar widget); returns its value.

    box3[r] / keep2[r] / keep1[r] as in :func:`widget_policy`; ties go to the first box and the
    smallest keep index. The value equals utility_widget(...)[t].
    """
    nb = params[0]
    yb = params[2]
    joker = params[3]
    ybox = params[4]
    for r in range(N_ROLLS):
        V[r] = -1.0
        box3[r] = -1
        face5 = ROLL_YAHTZEE_FACE[r]
        extra = (face5 > 0 and ybox >= 0 and ((mask >> ybox) & 1) == 1
                 and (joker != 0 or yb > 0))
        mode = 0
        if extra:
            mode = _extra_yahtzee_mode(mask, face5, upper_face, upper_box_of_face, params)
        for b in range(nb):
            if (mask >> b) & 1:
                continue
            if extra:
                ok, s, j = _extra_yahtzee_points(mask, m, f, b, r, mode, base, upper_face,
                                                 joker_value, upper_box_of_face, joker_fixed,
                                                 params)
                if not ok:
                    continue
            else:
                s, j = placement(mask, m, f, b, r, base, upper_face, joker_value,
                                 upper_box_of_face, joker_fixed, params)
            row = row_of_next[j]
            v = Pn[row, t - s] if t > s else Pn[row, 0]
            if v > V[r]:
                V[r] = v
                box3[r] = b
    return keep_decisions(V, VW, K, KW, M, A, keep2, keep1, K1, K2)


@njit(cache=True)
def decided_turn(box3, keep2, keep1, u, mask, m, f, base, upper_face, joker_value,
                 upper_box_of_face, joker_fixed, params):
    """Play one turn with fixed decision tables and uniforms u: (points, next state index)."""
    r = _roll_dice(0, u, 0)
    r = _roll_dice(keep1[r], u, 5)
    r = _roll_dice(keep2[r], u, 10)
    return placement(mask, m, f, box3[r], r, base, upper_face, joker_value, upper_box_of_face,
                     joker_fixed, params)


@njit(cache=True)
def expectation_turn(E, mask, m, f, u, base, upper_face, joker_value, upper_box_of_face,
                     joker_fixed, params):
    """One turn of the expected-score strategy with uniforms u: (points, next state index)."""
    nb = params[0]
    V = np.empty(N_ROLLS)
    VW = np.empty(N_ROLLS)
    K = np.empty(N_KEEPS)
    KW = np.zeros(N_KEEPS)
    K1 = np.empty(N_KEEPS)
    K2 = np.empty(N_KEEPS)
    M = np.empty(N_KEEPS)
    A = np.empty(N_KEEPS, dtype=np.int64)
    succ_s = np.zeros((nb, 7))
    succ_e = np.zeros((nb, 7))
    succ_w = np.zeros((nb, 7))
    box3 = np.empty(N_ROLLS, dtype=np.int64)
    keep2 = np.empty(N_ROLLS, dtype=np.int64)
    keep1 = np.empty(N_ROLLS, dtype=np.int64)
    widget_policy(E, mask, m, f, base, upper_face, joker_value, upper_box_of_face, joker_fixed,
                  params, V, VW, K, KW, M, A, succ_s, succ_e, succ_w, box3, keep2, keep1, K1, K2)
    return decided_turn(box3, keep2, keep1, u, mask, m, f, base, upper_face, joker_value,
                        upper_box_of_face, joker_fixed, params)


def _legal_moves_python(mask, m, f, r, tables):
    """[(box, points incl. bonuses, next state index)] for final roll r (joker rules)."""
    nb, ub, yb, joker, ybox, nf = (int(x) for x in tables["params"])
    base = tables["base"]
    upper_face = tables["upper_face"].tolist()
    jv = tables["joker_value"]
    ubf = tables["upper_box_of_face"].tolist()
    fixed = tables["joker_fixed"].tolist()
    face5 = int(ROLL_YAHTZEE_FACE[r])
    open_boxes = [b for b in range(nb) if not (mask >> b) & 1]
    options, override, bonus = open_boxes, {}, 0
    if face5 and ybox >= 0 and (mask >> ybox) & 1 and (joker or yb):
        bonus = yb if f == 1 else 0
        ubox = ubf[face5]
        upper_filled = ubox < 0 or bool((mask >> ubox) & 1)
        if joker == 1:
            lower = [b for b in open_boxes if not upper_face[b]]
            if not upper_filled:
                options = [ubox]
            elif lower:
                options = lower
                override = {b: int(jv[b, face5]) for b in lower}
        elif joker == 2 and upper_filled:
            override = {b: int(jv[b, face5]) for b in open_boxes if fixed[b]}
    out = []
    for b in options:
        if upper_face[b]:
            pts = int(ROLLS[r, upper_face[b] - 1]) * upper_face[b]
            m2 = min(63, m + pts)
            s = pts + (ub if m < 63 <= m2 else 0) + bonus
            out.append((b, s, ((mask | 1 << b) * 64 + m2) * nf + f))
        else:
            pts = override.get(b, int(base[b, r]))
            f2 = (1 if nf == 2 else 0) if (b == ybox and pts == 50) else f
            out.append((b, pts + bonus, ((mask | 1 << b) * 64 + m) * nf + f2))
    return out


def utility_widget_python(Pn, row_of_next, mask, m, f, tables) -> list[float]:
    """Plain-Python twin of :func:`utility_widget` (direct max over all sub-keeps)."""
    L = Pn.shape[1]
    V = []
    for r in range(N_ROLLS):
        best = [-1.0] * L
        for _, s, j in _legal_moves_python(mask, m, f, r, tables):
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
