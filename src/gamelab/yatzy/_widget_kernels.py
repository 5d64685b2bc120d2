"""The within-turn widget of the expected-score DP (solver, coach, decision tables of play).

One *widget* (Glenn 2006) is the turn played from one state: three rolls, two keep choices and
the box choice. Per widget the kernel

1. scores every roll r in every legal box: ``V3[r] = max_b s(b, r) + E[next]`` (lower-box
   successors are hoisted out of the roll loop, upper-box ones depend only on the face count;
   the few extra-Yahtzee rolls are then placed by the joker rules of
   :func:`gamelab.yatzy._turn_kernels.box_points`);
2. computes the value of each of the 462 keeps by the incremental recursion
   ``K(k) = mean_f K(k + f)`` from the five-dice keeps down (1260 additions, no probabilities);
3. takes ``V2[r] = max`` over the sub-keeps of r (4368 entries in all), and repeats.

``with_w`` also propagates the second moment W = E[remaining^2] under the same (argmax-E, first
index on ties) decisions: ``W = s^2 + 2 s E' + W'`` at the box, linear at chance nodes. Values
are expected *remaining* scores (full cards are worth 0). State index, rules bundle and workspace:
:mod:`gamelab.yatzy._turn_kernels`. The plain-Python twin is :func:`widget_python`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.core.threads import run_pieces, thread_count
from gamelab.yatzy._lane_ops import WIDTH, best_keep, mean6_row, place_box, place_points, place_row
from gamelab.yatzy._turn_kernels import (
    KF_K,
    KF_K1,
    KF_K2,
    KF_KW,
    KF_M,
    NEG,
    NOT_EXTRA,
    RF_V,
    RF_VW,
    RI_BOX3,
    RI_KEEP1,
    RI_KEEP2,
    S_E,
    S_POINTS,
    S_W,
    W_KEEP_A,
    W_KEEP_F,
    W_ROLL_F,
    W_ROLL_I,
    W_SUCC,
    YAHTZEE_ROLLS,
    box_points,
    extra_yahtzee_mode,
    flag_values,
    legal_moves_python,
    state_index,
    upper_step,
    upper_subset,
)
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
    ROLL_PROB,
    ROLLS,
    SUBKEEP_INDEX,
    SUBKEEP_START,
)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def final_values(E, W, with_w, mask, m, f, rules, V, VW, choice, succ_s, succ_e, succ_w):
    """Box stage of one widget: V[r] (and VW[r]) = best box for roll r; choice[r] = that box.
    with_w=None: no second moment, and none of its code compiled (numba drops the branches).

    succ_s/e/w are scratch [n_boxes, 7]: column 0..5 = upper value by face count, column 6 =
    lower successor (column 0/1 of the Yahtzee box = scored 0 / scored 50).
    """
    nb = rules[R_N_BOXES]
    ub = rules[R_UPPER_BONUS]
    ybox = rules[R_YAHTZEE_BOX]
    nf = rules[R_BONUS_FLAGS]
    base = rules[R_BASE]
    upper_face = rules[R_UPPER_FACE]
    for b in range(nb):
        if (mask >> b) & 1:
            continue
        nmask = mask | (1 << b)
        face = upper_face[b]
        if face > 0:
            for cnt in range(6):
                m2, pts = upper_step(m, cnt * face, ub)
                j = state_index(nmask, m2, f, nf)
                succ_s[b, cnt] = pts
                succ_e[b, cnt] = E[j]
                if with_w is not None and with_w:
                    succ_w[b, cnt] = W[j]
        elif b == ybox:
            j0 = state_index(nmask, m, f, nf)
            j1 = state_index(nmask, m, 1 if nf == 2 else 0, nf)
            succ_e[b, 0] = E[j0]
            succ_e[b, 1] = E[j1]
            if with_w is not None and with_w:
                succ_w[b, 0] = W[j0]
                succ_w[b, 1] = W[j1]
        else:
            j = state_index(nmask, m, f, nf)
            succ_e[b, 6] = E[j]
            if with_w is not None and with_w:
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
    if with_w is not None and with_w:
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
    if ybox < 0 or ((mask >> ybox) & 1) == 0:
        return
    # extra Yahtzees (five of a kind with the Yahtzee box filled): bonus and joker rules
    for i in range(YAHTZEE_ROLLS.shape[0]):
        r = YAHTZEE_ROLLS[i]
        mode = extra_yahtzee_mode(rules, mask, r)
        if mode == NOT_EXTRA:
            return
        best = NEG
        best_b = -1
        best_s = 0
        best_j = 0
        for b in range(nb):
            if (mask >> b) & 1:
                continue
            allowed, s, j = box_points(rules, mask, m, f, b, r, mode)
            if allowed and s + E[j] > best:
                best = s + E[j]
                best_b = b
                best_s = s
                best_j = j
        V[r] = best
        choice[r] = best_b
        if with_w is not None and with_w:
            VW[r] = best_s * best_s + 2.0 * best_s * E[best_j] + W[best_j]


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def keep_values(V, VW, with_w, K, KW):
    """K[k] = expected value of keeping k and rolling the rest once, from roll values V
    (with_w=None: without the second moment's code, as with_w=False computes it)."""
    for r in range(N_ROLLS):
        k = ROLL_AS_KEEP[r]
        K[k] = V[r]
        if with_w is not None and with_w:
            KW[k] = VW[r]
    for i in range(KEEP_RECURSION_ORDER.shape[0]):
        k = KEEP_RECURSION_ORDER[i]
        acc = 0.0
        for face in range(6):
            acc += K[KEEP_ADD[k, face]]
        K[k] = acc / 6.0
        if with_w is not None and with_w:
            acc = 0.0
            for face in range(6):
                acc += KW[KEEP_ADD[k, face]]
            KW[k] = acc / 6.0


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def keep_decisions(V, VW, K, KW, M, A, keep2, keep1, K1, K2):
    """From the final-roll values V: the best keep after roll 2 (keep2, values K2) and after roll 1
    (keep1, values K1) for every roll; returns the value of the turn before rolling (K[0])."""
    for k in range(N_KEEPS):
        KW[k] = 0.0
    keep_values(V, VW, None, K2, KW)
    best_keeps(K2, KW, True, V, VW, keep2, M, A)
    keep_values(V, VW, None, K1, KW)
    best_keeps(K1, KW, True, V, VW, keep1, M, A)
    keep_values(V, VW, None, K, KW)
    return K[0]


@njit(cache=True)
def widget(E, W, with_w, mask, m, f, rules, ws):
    """(E, W) of the state at the start of its turn (ws: a :func:`new_workspace`)."""
    V = ws[W_ROLL_F][RF_V]
    VW = ws[W_ROLL_F][RF_VW]
    K = ws[W_KEEP_F][KF_K]
    KW = ws[W_KEEP_F][KF_KW]
    choice = ws[W_ROLL_I][RI_BOX3]
    M = ws[W_KEEP_F][KF_M]
    A = ws[W_KEEP_A]
    final_values(
        E,
        W,
        with_w,
        mask,
        m,
        f,
        rules,
        V,
        VW,
        choice,
        ws[W_SUCC][S_POINTS],
        ws[W_SUCC][S_E],
        ws[W_SUCC][S_W],
    )
    keep_values(V, VW, with_w, K, KW)
    best_keeps(K, KW, with_w, V, VW, choice, M, A)
    keep_values(V, VW, with_w, K, KW)
    best_keeps(K, KW, with_w, V, VW, choice, M, A)
    keep_values(V, VW, with_w, K, KW)
    return K[0], KW[0]


#: widgets of one mask and flag solved side by side by :func:`widget_lanes` (four float64 lanes:
#: one vector register; see :mod:`gamelab.yatzy._lane_ops`)
LANES = WIDTH
#: keep index of the first five-dice keep: roll r is keep ROLL_ROW + r
ROLL_ROW = N_KEEPS - N_ROLLS
assert (ROLL_AS_KEEP == np.arange(ROLL_ROW, N_KEEPS)).all()
#: FACE_COUNT[face - 1, r] = how many dice of roll r show `face` (a row per face, contiguous)
FACE_COUNT = np.ascontiguousarray(ROLLS.T)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def final_lanes(E, W, mask, ms, f, rules, T, K, boxes):
    """:func:`final_values` (with the second moment) of the states (mask, ms[l], f), l < LANES,
    into the five-dice rows of K: K[ROLL_ROW + r, l] the best box's value for roll r, K[ROLL_ROW
    + r, LANES + l] its second moment. Box by box over all rolls, the four lanes at once (the
    box's successors of each lane in T [7, 2 LANES]); a box replaces the best so far where it is
    larger, as in final_values, so the first best box wins ties and the numbers are the same.
    With `boxes` the second half holds the best box (as a float) instead of the second moment
    (W is not read): the box decisions of :func:`gamelab.yatzy._play_kernels.lane_decisions`."""
    nb = rules[R_N_BOXES]
    ub = rules[R_UPPER_BONUS]
    ybox = rules[R_YAHTZEE_BOX]
    nf = rules[R_BONUS_FLAGS]
    base = rules[R_BASE]
    upper_face = rules[R_UPPER_FACE]
    for row in range(ROLL_ROW, N_KEEPS):
        for lane in range(LANES):
            K[row, lane] = NEG
    for b in range(nb):
        if (mask >> b) & 1:
            continue
        nmask = mask | (1 << b)
        face = upper_face[b]
        if face > 0:  # T[cnt]: points and successor by the count of the face
            for cnt in range(6):
                for lane in range(LANES):
                    m2, pts = upper_step(ms[lane], cnt * face, ub)
                    j = state_index(nmask, m2, f, nf)
                    s = float(pts)
                    T[cnt, lane] = s + E[j]
                    T[cnt, LANES + lane] = b if boxes else s * s + 2.0 * s * E[j] + W[j]
            counts = FACE_COUNT[face - 1]
            for r in range(N_ROLLS):
                place_row(K, ROLL_ROW + r, T, counts[r])
            continue
        for lane in range(LANES):  # T[0]: the successor (T[1]: the Yahtzee box scored 50)
            j = state_index(nmask, ms[lane], f, nf)
            T[0, lane] = E[j]
            T[0, LANES + lane] = W[j]
            if b == ybox:
                j = state_index(nmask, ms[lane], 1 if nf == 2 else 0, nf)
                T[1, lane] = E[j]
                T[1, LANES + lane] = W[j]
        if boxes:
            for r in range(N_ROLLS):
                pts = base[b, r]
                place_box(K, ROLL_ROW + r, T, 1 if b == ybox and pts == 50 else 0, pts, b)
        elif b == ybox:
            for r in range(N_ROLLS):
                pts = base[b, r]
                place_points(K, ROLL_ROW + r, T, 1 if pts == 50 else 0, pts)
        else:
            for r in range(N_ROLLS):
                place_points(K, ROLL_ROW + r, T, 0, base[b, r])
    if ybox < 0 or ((mask >> ybox) & 1) == 0:
        return
    # extra Yahtzees (five of a kind with the Yahtzee box filled): bonus and joker rules
    for i in range(YAHTZEE_ROLLS.shape[0]):
        r = YAHTZEE_ROLLS[i]
        mode = extra_yahtzee_mode(rules, mask, r)
        if mode == NOT_EXTRA:
            return
        for lane in range(LANES):
            best = NEG
            best_b = -1
            best_s = 0
            best_j = 0
            for b in range(nb):
                if (mask >> b) & 1:
                    continue
                allowed, s, j = box_points(rules, mask, ms[lane], f, b, r, mode)
                if allowed and s + E[j] > best:
                    best = s + E[j]
                    best_b = b
                    best_s = s
                    best_j = j
            K[ROLL_ROW + r, lane] = best
            if boxes:
                K[ROLL_ROW + r, LANES + lane] = best_b
            else:
                K[ROLL_ROW + r, LANES + lane] = (
                    best_s * best_s + 2.0 * best_s * E[best_j] + W[best_j]
                )


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def keep_lanes(K):
    """:func:`keep_values` of the 2 LANES columns of K at once: the keeps of fewer than five
    dice from the five-dice rows (each column computed as the twin does)."""
    for i in range(KEEP_RECURSION_ORDER.shape[0]):
        k = KEEP_RECURSION_ORDER[i]
        mean6_row(
            K,
            k,
            KEEP_ADD[k, 0],
            KEEP_ADD[k, 1],
            KEEP_ADD[k, 2],
            KEEP_ADD[k, 3],
            KEEP_ADD[k, 4],
            KEEP_ADD[k, 5],
        )


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def best_lanes(K, A):
    """:func:`best_keeps` (with the second moment) of LANES widgets at once, in place: the
    five-dice rows of K become the rolls' best sub-keep values (ties to the smallest keep
    index, as in the twin) and their second moments. The closure M(k) = max(K(k), M(k minus one
    die)) runs over the keeps in increasing size (a keep's smaller keeps have smaller indices),
    M in K's value columns, the best keeps in A [462, LANES]; a roll's best keep is itself or a
    smaller keep, whose second moment no roll overwrites."""
    for k in range(N_KEEPS):
        best_keep(K, A, k, KEEP_MINUS_INDEX, KEEP_MINUS_START[k], KEEP_MINUS_START[k + 1])
    for row in range(ROLL_ROW, N_KEEPS):
        for lane in range(LANES):
            K[row, LANES + lane] = K[A[row, lane], LANES + lane]


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def widget_lanes(E, W, mask, ms, f, rules, T, K, A):
    """:func:`widget` (with the second moment) of the states (mask, ms[l], f), l < LANES, side
    by side, left in K[0]: K[0, l] = E, K[0, LANES + l] = W (buffers of
    :func:`new_lane_scratch`). Each lane's numbers are the widget's, bit for bit."""
    final_lanes(E, W, mask, ms, f, rules, T, K, False)
    keep_lanes(K)
    best_lanes(K, A)
    keep_lanes(K)
    best_lanes(K, A)
    keep_lanes(K)


def new_lane_scratch(n_boxes: int) -> tuple[np.ndarray, ...]:
    """The scratch buffers of one :func:`solve_masks` call: (successors T [7, 2 LANES], keep
    values K [462, 2 LANES], best keeps A [462, LANES], upper totals [3, 64]). Made by numpy,
    not in the kernel: the kernel then compiles no allocation (a few tenths of a CPU-second on
    a cold cache). `n_boxes` is not needed any more (kept for callers)."""
    return (
        np.zeros((7, 2 * LANES)),
        np.zeros((N_KEEPS, 2 * LANES)),
        np.zeros((N_KEEPS, LANES), dtype=np.int64),
        np.zeros((3, 64), dtype=np.int64),
    )


#: the same allocations compiled, for kernels (one source: the function above)
new_lanes = njit(cache=True)(new_lane_scratch)


@njit(cache=True, nogil=True)
def solve_masks(E, W, with_w, masks, reach, rules, scratch):
    """Solve every reachable state whose mask is in `masks`, in the calling thread with the GIL
    released (:func:`solve_layer` runs chunks of a layer side by side); returns the count.
    `scratch`: :func:`new_lane_scratch`, one per thread.

    A state's upper bonus is *settled* when it can no longer change: it was scored (m = 63), it
    can no longer be reached (m plus five dice of each open upper face is below 63), or the
    rules have none. The settled states of one mask and flag all have the same widget, bit for
    bit (each box scores the same points and leads to a settled state of the next mask, all
    worth the same): the first one is solved, the others get its values. This holds when the
    layers above have that property, as the solver's tables do (the full card is worth 0
    everywhere); a third of Yatzy's and Yahtzee's states are such copies. The states solved
    go :data:`LANES` at a time through :func:`widget_lanes` (the last group of a mask padded
    with its last state), which gives every state the numbers of :func:`widget`."""
    nb = rules[R_N_BOXES]
    nf = rules[R_BONUS_FLAGS]
    upper_face = rules[R_UPPER_FACE]
    upper_bonus = rules[R_UPPER_BONUS]
    count = 0
    T, K, A, totals = scratch
    solved = totals[0]  # the upper totals of a mask its widgets solve
    copied = totals[1]  # the settled ones that copy the first
    lanes = totals[2]  # the upper totals of one widget_lanes call (the first LANES)
    for i in range(masks.shape[0]):
        mask = masks[i]
        u = upper_subset(mask, upper_face, nb)
        room = 0  # the most the open upper boxes can still add
        for b in range(nb):
            if ((mask >> b) & 1) == 0 and upper_face[b] > 0:
                room += 5 * upper_face[b]
        n_solved = 0
        n_copied = 0
        first = -1  # the first settled upper total of this mask, solved by its widget
        for m in range(64):
            if not reach[u, m]:
                continue
            if upper_bonus == 0 or m == 63 or m + room < 63:
                if first >= 0:
                    copied[n_copied] = m
                    n_copied += 1
                    continue
                first = m
            solved[n_solved] = m
            n_solved += 1
        for f in range(flag_values(rules, mask)):
            for lo in range(0, n_solved, LANES):
                for lane in range(LANES):
                    lanes[lane] = solved[lo + lane if lo + lane < n_solved else n_solved - 1]
                widget_lanes(E, W, mask, lanes, f, rules, T, K, A)
                for lane in range(LANES if lo + LANES <= n_solved else n_solved - lo):
                    j = state_index(mask, lanes[lane], f, nf)
                    E[j] = K[0, lane]
                    if with_w:
                        W[j] = K[0, LANES + lane]
            for c in range(n_copied):
                j = state_index(mask, copied[c], f, nf)
                j0 = state_index(mask, first, f, nf)
                E[j] = E[j0]
                if with_w:
                    W[j] = W[j0]
            count += n_solved + n_copied
    return count


#: chunks of a layer per thread (the widgets of a mask vary in number: the threads take chunks
#: as they finish, so none waits long for another)
CHUNKS_PER_THREAD = 8


def solve_layer(E, W, with_w, masks, reach, rules, threads: int | None = None) -> int:
    """Solve every reachable state whose mask is in `masks` (one popcount layer) on `threads`
    threads (default: numba's thread count, ``NUMBA_NUM_THREADS``); returns the count.

    Each thread runs :func:`solve_masks` on chunks of the masks
    (:func:`gamelab.core.threads.run_pieces`). A state is written by its own widget only, from
    values of the layer above, so the tables are the same bit for bit whatever the threads and
    their order. Threads rather than a ``parallel=True`` kernel: numba compiles a parallel loop
    at about twice the cost of the serial one (about 1.5 CPU-s more of each cold ``yatzy solve``
    and ``yatzy advise``), for the same speed here."""
    threads = thread_count() if threads is None else threads
    masks = np.ascontiguousarray(masks, dtype=np.int64)
    pieces = max(1, min(masks.shape[0], threads * CHUNKS_PER_THREAD if threads > 1 else 1))
    nb = int(rules[R_N_BOXES])
    chunks = [
        (E, W, with_w, c, reach, rules, new_lane_scratch(nb)) for c in np.array_split(masks, pieces)
    ]
    return sum(int(n) for n in run_pieces(solve_masks, chunks, threads))


@njit(cache=True)
def widget_policy(E, mask, m, f, rules, ws):
    """The argmax-E decisions of one widget, left in the workspace: ws[W_ROLL_I][RI_BOX3][r] the box for
    final roll r, ws[W_ROLL_I][RI_KEEP2][r] the keep after roll 2, ws[W_ROLL_I][RI_KEEP1][r] after roll 1; ws[W_KEEP_F][KF_K2] /
    ws[W_KEEP_F][KF_K1] the keep values with 1 / 2 rolls left. Returns E(state)."""
    V = ws[W_ROLL_F][RF_V]
    VW = ws[W_ROLL_F][RF_VW]
    succ = ws[W_SUCC]
    final_values(  # no second moment: keep_decisions reads none
        E,
        E,
        None,
        mask,
        m,
        f,
        rules,
        V,
        VW,
        ws[W_ROLL_I][RI_BOX3],
        succ[S_POINTS],
        succ[S_E],
        succ[S_W],
    )
    return keep_decisions(
        V,
        VW,
        ws[W_KEEP_F][KF_K],
        ws[W_KEEP_F][KF_KW],
        ws[W_KEEP_F][KF_M],
        ws[W_KEEP_A],
        ws[W_ROLL_I][RI_KEEP2],
        ws[W_ROLL_I][RI_KEEP1],
        ws[W_KEEP_F][KF_K1],
        ws[W_KEEP_F][KF_K2],
    )


def keep_pass_python(V: list[float], VW: list[float]) -> tuple[list[float], list[float]]:
    """Plain-Python twin of :func:`keep_values` (with the second moment)."""
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


def widget_python(E, W, mask, m, f, rules) -> tuple[float, float]:
    """Plain-Python twin of :func:`widget` (with the second moment): every legal move of every
    roll from :func:`gamelab.yatzy._turn_kernels.legal_moves_python`, direct max over the
    sub-keeps of each roll."""
    V, VW = [], []
    for r in range(N_ROLLS):
        best = None
        for _, s, j in legal_moves_python(rules, mask, m, f, r):
            v = s + E[j]
            if best is None or v > best[0]:
                best = (v, s * s + 2 * s * E[j] + W[j])
        assert best is not None  # every roll has a legal box
        V.append(best[0])
        VW.append(best[1])

    def best_pass(K, KW):
        V2, VW2 = [], []
        for r in range(N_ROLLS):
            subs = SUBKEEP_INDEX[SUBKEEP_START[r] : SUBKEEP_START[r + 1]].tolist()
            k = max(subs, key=lambda x: (K[x], -x))
            V2.append(K[k])
            VW2.append(KW[k])
        return V2, VW2

    K, KW = keep_pass_python(V, VW)
    V, VW = best_pass(K, KW)
    K, KW = keep_pass_python(V, VW)
    V, VW = best_pass(K, KW)
    K, KW = keep_pass_python(V, VW)
    assert abs(K[0] - sum(p * v for p, v in zip(ROLL_PROB.tolist(), V, strict=True))) < 1e-9
    return K[0], KW[0]
