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
    KEEP_ADD,
    KEEP_RECURSION_ORDER,
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
    ybox_filled = ybox >= 0 and ((mask >> ybox) & 1) == 1
    for r in range(N_ROLLS):
        face5 = ROLL_YAHTZEE_FACE[r]
        extra = face5 > 0 and ybox_filled and (joker != 0 or yb > 0)
        bonus = 0
        mode = 0  # 0 normal, 1 forced-upper, 2 forced-lower (joker values), 3 free joker
        if extra:
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
                if b == ybox:
                    e = succ_e[b, 1] if pts == 50 else succ_e[b, 0]
                else:
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
            elif b == ybox:
                pts50 = best_s - bonus
                e = succ_e[b, 1] if pts50 == 50 else succ_e[b, 0]
                w = succ_w[b, 1] if pts50 == 50 else succ_w[b, 0]
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
def best_keeps(K, KW, with_w, V, VW, choice):
    """V[r] = best keep value among the sub-keeps of roll r; choice[r] = that keep."""
    for r in range(N_ROLLS):
        best = NEG
        best_k = -1
        for i in range(SUBKEEP_START[r], SUBKEEP_START[r + 1]):
            k = SUBKEEP_INDEX[i]
            if K[k] > best:
                best = K[k]
                best_k = k
        V[r] = best
        choice[r] = best_k
        if with_w:
            VW[r] = KW[best_k]


@njit(cache=True)
def widget(E, W, with_w, mask, m, f, base, upper_face, joker_value, upper_box_of_face,
           joker_fixed, params, V, VW, K, KW, choice, succ_s, succ_e, succ_w):
    """(E, W) of the state at the start of its turn."""
    final_values(E, W, with_w, mask, m, f, base, upper_face, joker_value, upper_box_of_face,
                 joker_fixed, params, V, VW, choice, succ_s, succ_e, succ_w)
    keep_values(V, VW, with_w, K, KW)
    best_keeps(K, KW, with_w, V, VW, choice)
    keep_values(V, VW, with_w, K, KW)
    best_keeps(K, KW, with_w, V, VW, choice)
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
                              succ_s, succ_e, succ_w)
                j = (mask * 64 + m) * nf + f
                E[j] = e
                if with_w:
                    W[j] = w
                counts[i] += 1
    return counts.sum()


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
