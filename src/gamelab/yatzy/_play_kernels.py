"""Whole games played from pre-drawn uniforms: simulation, the risk-taker's duels, win play.

Decisions come from the expected-score widget (:func:`gamelab.yatzy._widget_kernels.widget_policy`,
computed once per visited state and kept in a decision cache, :func:`cached_decisions`), from
given decision tables (:func:`decided_turn`), or are random (a uniform distinct sub-keep, then a
uniform legal box). A turn consumes :data:`UNIFORMS_PER_TURN` uniforms: 3 x 5 dice, two random
keeps, one random box, so a game depends only on its uniforms. The plain-Python twin of a whole
game is :func:`gamelab.yatzy.simulate.play_game_python`; of :func:`risky_keep`,
:func:`risky_keep_python`; of :func:`decided_turn`, :func:`decided_turn_python`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.yatzy._atomic_ops import claim, peek, publish, take
from gamelab.yatzy._turn_kernels import (
    KF_K1,
    KF_K2,
    NEG,
    RF_V3,
    RF_VW,
    RI_BOX3,
    RI_KEEP1,
    RI_KEEP2,
    S_E,
    S_POINTS,
    S_W,
    W_KEEP_F,
    W_LEGAL,
    W_ROLL_F,
    W_ROLL_I,
    W_SUCC,
    decision_cache_arrays,
    legal_boxes,
    legal_moves_python,
    new_decision_cache,
    new_workspace,
    placement,
    roll_dice,
    roll_dice_python,
    split_state,
    state_index,
    upper_subset,
    workspace_arrays,
)
from gamelab.yatzy._widget_kernels import (
    LANES,
    ROLL_ROW,
    best_lanes,
    final_lanes,
    final_values,
    keep_lanes,
    new_lane_scratch,
    new_lanes,
    widget_policy,
)
from gamelab.yatzy.rules import (
    CODE_TO_KEEP,
    KEEPS,
    N_ROLLS,
    R_BONUS_FLAGS,
    R_N_BOXES,
    R_UPPER_FACE,
    ROLLS,
    SUBKEEP_INDEX,
    SUBKEEP_START,
    RuleSet,
    roll_index,
)
from gamelab.yatzy.solver import upper_reach

STRATEGY_OPTIMAL, STRATEGY_GREEDY, STRATEGY_RANDOM = 0, 1, 2

#: UPPER_REACH[u, m]: can the filled upper faces u sum to the capped total m (the cache's lanes
#: take reachable totals only)
UPPER_REACH = upper_reach()
CACHE_SLOTS = 20_000  # decision tables kept per game-kernel call (1.5 kB each)
UNIFORMS_PER_TURN = 18  # 3 x 5 dice, two random keeps, one random box


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def cached_decisions(E, mask, m, f, rules, ws, decisions, lanes, by_widget):
    """Row of the decision cache's tables [slots, 3, 252] (box3, keep2, keep1) holding the
    state's decisions; `decisions` = :func:`new_decision_cache` (slot_of, tables, used).

    Computed once per state and cache (slot_of[state] = row); row 0 is scratch when full. By
    :func:`lane_policy` with `lanes` (:func:`new_lane_scratch`), or by :func:`widget_policy`
    with by_widget=ws: the same decisions. Exactly one of the two is given, the other None: numba
    then compiles only the branch given (it drops the branches of an argument that is None).
    """
    slot_of, cache, used = decisions
    j = state_index(mask, m, f, rules[R_BONUS_FLAGS])
    s = slot_of[j]
    if s > 0:
        return s
    if lanes is not None:
        roll_i = ws[W_ROLL_I]
        keep_f = ws[W_KEEP_F]
        k1, k2 = keep_f[KF_K1], keep_f[KF_K2]
        lane_policy(
            E, mask, m, f, rules, lanes, k1, k2, roll_i[RI_BOX3], roll_i[RI_KEEP2], roll_i[RI_KEEP1]
        )
    if by_widget is not None:
        widget_policy(E, mask, m, f, rules, by_widget)
    s = 0
    if used[0] < cache.shape[0]:
        s = used[0]
        used[0] += 1
        slot_of[j] = s
    box3 = ws[W_ROLL_I][RI_BOX3]
    keep2 = ws[W_ROLL_I][RI_KEEP2]
    keep1 = ws[W_ROLL_I][RI_KEEP1]
    for r in range(N_ROLLS):
        cache[s, 0, r] = box3[r]
        cache[s, 1, r] = keep2[r]
        cache[s, 2, r] = keep1[r]
    return s


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def lane_decisions(E, mask, ms, f, rules, lanes, cache, slots):
    """The decisions of :func:`widget_policy` for the states (mask, ms[l], f), l < LANES, side by
    side (:func:`gamelab.yatzy._widget_kernels.final_lanes` with the boxes, then the keep
    stages of ``widget_lanes``), into the decision tables cache[slots[l]] (box3, keep2,
    keep1). The same comparisons as widget_policy's, so the same decisions, ties included;
    `lanes` = :func:`gamelab.yatzy._widget_kernels.new_lane_scratch`. About a third of
    widget_policy's time for all four states."""
    T, K, A, _ = lanes
    final_lanes(E, E, mask, ms, f, rules, T, K, True)
    for lane in range(LANES):
        for r in range(N_ROLLS):
            cache[slots[lane], 0, r] = np.int64(K[ROLL_ROW + r, LANES + lane])
    for stage in range(1, 3):
        keep_lanes(K)
        best_lanes(K, A)
        for lane in range(LANES):
            for r in range(N_ROLLS):
                cache[slots[lane], stage, r] = A[ROLL_ROW + r, lane]


@njit(cache=True)
def lane_policy(E, mask, m, f, rules, lanes, K1, K2, box3, keep2, keep1):
    """:func:`widget_policy` through the vector widget (the state in its four lanes): the box
    for each final roll (box3), the keep after roll 2 (keep2) and after roll 1 (keep1), the
    keep values with 1 / 2 rolls left (K2 / K1); returns E(state). The same numbers as
    widget_policy, bit for bit; it compiles only a small kernel beside the solver's (the coach
    then compiles no second widget)."""
    T, K, A, totals = lanes
    ms = totals[0]
    for lane in range(LANES):
        ms[lane] = m
    final_lanes(E, E, mask, ms, f, rules, T, K, True)
    for r in range(N_ROLLS):
        box3[r] = np.int64(K[ROLL_ROW + r, LANES])
    keep_lanes(K)
    for k in range(K.shape[0]):
        K2[k] = K[k, 0]
    best_lanes(K, A)
    for r in range(N_ROLLS):
        keep2[r] = A[ROLL_ROW + r, 0]
    keep_lanes(K)
    for k in range(K.shape[0]):
        K1[k] = K[k, 0]
    best_lanes(K, A)
    for r in range(N_ROLLS):
        keep1[r] = A[ROLL_ROW + r, 0]
    keep_lanes(K)
    return K[0, 0]


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def cached_lane_decisions(E, mask, m, f, rules, lanes, decisions, row):
    """:func:`cached_decisions` computed by :func:`lane_decisions`, the cache shared by threads
    (:mod:`gamelab.yatzy._atomic_ops`): the row of the decision cache that holds the state's
    decisions. A state's tables are computed with those of the nearest upper totals of its card
    that nobody has claimed (they are often reached later), four states a call. `row`: this
    thread's own row of the cache, for a state claimed by another thread or a full cache."""
    slot_of, cache, used = decisions
    nf = rules[R_BONUS_FLAGS]
    j = state_index(mask, m, f, nf)
    s = peek(slot_of, j)
    if s > 0:
        return s
    ms = lanes[3][0]
    slots = lanes[3][1]
    found = s == 0 and claim(slot_of, j)
    s = row
    if found:
        s = take(used, 0)
        if s >= cache.shape[0]:  # full: the claim is given back, the tables go to the own row
            publish(slot_of, j, 0)
            s = row
            found = False
    for lane in range(LANES):
        ms[lane] = m
        slots[lane] = s
    if found:
        u = upper_subset(mask, rules[R_UPPER_FACE], rules[R_N_BOXES])
        lane = 1
        for d in range(1, 64):
            for m2 in (m - d, m + d):
                if lane < LANES and 0 <= m2 < 64 and UPPER_REACH[u, m2]:
                    j2 = state_index(mask, m2, f, nf)
                    if peek(slot_of, j2) == 0 and claim(slot_of, j2):
                        t = take(used, 0)
                        if t < cache.shape[0]:
                            ms[lane] = m2
                            slots[lane] = t
                            lane += 1
                        else:
                            publish(slot_of, j2, 0)
                            lane = LANES
            if lane == LANES:
                break
    lane_decisions(E, mask, ms, f, rules, lanes, cache, slots)
    if found:
        for lane in range(LANES):
            publish(slot_of, state_index(mask, ms[lane], f, nf), slots[lane])
    return s


@njit(cache=True)
def play_games(E, strategy, uniforms, rules, scores):
    """Play len(scores) whole games; uniforms [games, turns, 18]; scores receive final totals.

    Decisions: optimal (argmax E), greedy (E = zeros: best expected points this turn) or
    random (a uniform distinct sub-keep, then a uniform legal box). Decision tables are
    computed once per visited state and call (see :func:`cached_decisions`).
    """
    decisions = new_decision_cache(E.shape[0], CACHE_SLOTS)
    play_games_cached(
        E,
        strategy,
        uniforms,
        rules,
        decisions,
        scores,
        new_workspace(rules[R_N_BOXES]),
        new_lanes(rules[R_N_BOXES]),
        0,
    )


@njit(cache=True, nogil=True)
def play_games_cached(E, strategy, uniforms, rules, decisions, scores, ws, lanes, row):
    """:func:`play_games` with the decision cache and the workspace passed in, so that the
    cache persists between calls (with as many slots as states, every state's decisions are
    computed once per process) and a caller in Python allocates both by numpy
    (:func:`gamelab.yatzy._turn_kernels.decision_cache_arrays`, ``workspace_arrays``). It
    releases the GIL: threads play games side by side, sharing one cache, each with its own
    workspace, lane buffers and `row` of the cache (rows below ``used[0]`` at the start are
    nobody's; one thread: 0, the row ``decision_cache_arrays`` leaves free).
    strategy=None plays by the decision tables (optimal or greedy, as E says) and compiles
    without the random player's branches (numba drops them)."""
    nb = rules[R_N_BOXES]
    nf = rules[R_BONUS_FLAGS]
    cache = decisions[1]
    legal = ws[W_LEGAL]
    s = 0
    for g in range(scores.shape[0]):
        mask = 0
        m = 0
        f = 0
        total = 0
        for turn in range(nb):
            u = uniforms[g, turn]
            if strategy is None or strategy != STRATEGY_RANDOM:
                s = cached_lane_decisions(E, mask, m, f, rules, lanes, decisions, row)
            r = roll_dice(0, u, 0)
            for stage in range(2):
                k = np.int64(cache[s, 2 - stage, r])
                if strategy is not None and strategy == STRATEGY_RANDOM:
                    lo = SUBKEEP_START[r]
                    hi = SUBKEEP_START[r + 1]
                    i = lo + int(u[15 + stage] * (hi - lo))
                    if i >= hi:
                        i = hi - 1
                    k = SUBKEEP_INDEX[i]
                r = roll_dice(k, u, 5 + 5 * stage)
            b = np.int64(cache[s, 0, r])
            if strategy is not None and strategy == STRATEGY_RANDOM:
                n = legal_boxes(mask, f, r, rules, legal)
                i = int(u[17] * n)
                if i >= n:
                    i = n - 1
                b = legal[i]
            pts, j = placement(mask, m, f, b, r, rules)
            total += pts
            mask, m, f = split_state(j, nf)
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


def risky_keep_python(r: int, V3, valence: int) -> int:
    """Plain-Python twin of :func:`risky_keep`."""
    best_t, best = r, None
    for t in range(N_ROLLS):
        common = [min(int(a), int(b)) for a, b in zip(ROLLS[r], ROLLS[t], strict=True)]
        if sum(common) >= valence and (best is None or V3[t] > best):
            best, best_t = V3[t], t
    common = [min(int(a), int(b)) for a, b in zip(ROLLS[r], ROLLS[best_t], strict=True)]
    return int(CODE_TO_KEEP[sum(c * 6**i for i, c in enumerate(common))])


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True, inline="always")
def play_turn(E, mask, m, f, u, valence, rules, ws, decisions):
    """One turn from (mask, m, f) with uniforms u: optimal (valence 0 or None) or the
    risk-taker's keeps (valence v >= 1; the box is still chosen optimally). Returns (points,
    next state index). valence=None compiles without the risk-taker's branch (numba drops it)."""
    s = cached_decisions(E, mask, m, f, rules, ws, decisions, None, ws)
    cache = decisions[1]
    V3 = ws[W_ROLL_F][RF_V3]
    if valence is not None:
        if valence > 0:
            succ = ws[W_SUCC]
            final_values(
                E,
                E,
                None,
                mask,
                m,
                f,
                rules,
                V3,
                ws[W_ROLL_F][RF_VW],
                ws[W_ROLL_I][RI_BOX3],
                succ[S_POINTS],
                succ[S_E],
                succ[S_W],
            )
    r = roll_dice(0, u, 0)
    for stage in range(2):
        k = np.int64(cache[s, 2 - stage, r])  # as roll_dice's other callers pass it
        if valence is not None:
            if valence > 0:
                k = risky_keep(r, V3, valence)
        r = roll_dice(k, u, 5 + 5 * stage)
    # the box as int64, as every other caller passes it: one compiled placement, not two
    return placement(mask, m, f, np.int64(cache[s, 0, r]), r, rules)


@njit(cache=True)
def duel_games(E, start_a, start_b, uniforms_a, uniforms_b, deficit, valence, rules, result):
    """Finish two-player games from round positions start_x[g] = (mask, m, f, score).

    A plays optimally; B plays optimally except that at each of its turns where it is behind by
    at least `deficit` points it uses the risky keeps (valence 0 = always optimal). A moves first
    in each round. result[g] = final score of B minus final score of A.
    """
    nb = rules[R_N_BOXES]
    nf = rules[R_BONUS_FLAGS]
    ws = new_workspace(nb)
    decisions = new_decision_cache(E.shape[0], CACHE_SLOTS)
    for g in range(result.shape[0]):
        ma, mma, fa, sa = start_a[g, 0], start_a[g, 1], start_a[g, 2], start_a[g, 3]
        mb, mmb, fb, sb = start_b[g, 0], start_b[g, 1], start_b[g, 2], start_b[g, 3]
        turn = 0
        while ma != (1 << nb) - 1:
            pts, j = play_turn(E, ma, mma, fa, uniforms_a[g, turn], 0, rules, ws, decisions)
            sa += pts
            ma, mma, fa = split_state(j, nf)
            v = valence if sa - sb >= deficit else 0
            pts, j = play_turn(E, mb, mmb, fb, uniforms_b[g, turn], v, rules, ws, decisions)
            sb += pts
            mb, mmb, fb = split_state(j, nf)
            turn += 1
        result[g] = sb - sa


def round_scratch(n_boxes: int, n_states: int) -> tuple[tuple, tuple, tuple]:
    """(ws, decisions, lanes) of :func:`play_to_round`, made by numpy: nothing to compile."""
    return (
        workspace_arrays(n_boxes),
        decision_cache_arrays(n_states, CACHE_SLOTS),
        new_lane_scratch(n_boxes),
    )


@njit(cache=True)
def play_to_round(E, uniforms, rounds, rules, out, ws, decisions, lanes):
    """Optimal single-player games; out[g, i] = (mask, m, f, score) after rounds[i] turns.

    ws, decisions, lanes: a workspace, a decision cache and the vector widget's scratch
    (:func:`round_scratch`: passed in, so that a cold command compiles no allocation). The
    decisions are widget_policy's, computed by the vector widget (:func:`lane_policy`), whose
    kernels the solver's share."""
    nb = rules[R_N_BOXES]
    nf = rules[R_BONUS_FLAGS]
    cache = decisions[1]
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
            u = uniforms[g, turn]
            s = cached_decisions(E, mask, m, f, rules, ws, decisions, lanes, None)
            r = roll_dice(0, u, 0)
            for stage in range(2):
                r = roll_dice(np.int64(cache[s, 2 - stage, r]), u, 5 + 5 * stage)
            pts, j = placement(mask, m, f, np.int64(cache[s, 0, r]), r, rules)
            score += pts
            mask, m, f = split_state(j, nf)


@njit(cache=True)
def decided_turn(box3, keep2, keep1, u, mask, m, f, rules):
    """Play one turn with fixed decision tables and uniforms u: (points, next state index)."""
    r = roll_dice(0, u, 0)
    r = roll_dice(keep1[r], u, 5)
    r = roll_dice(keep2[r], u, 10)
    return placement(mask, m, f, box3[r], r, rules)


@njit(cache=True)
def expectation_turn(E, mask, m, f, u, rules, ws):
    """One turn of the expected-score strategy with uniforms u: (points, next state index)."""
    widget_policy(E, mask, m, f, rules, ws)
    roll_i = ws[W_ROLL_I]
    return decided_turn(roll_i[RI_BOX3], roll_i[RI_KEEP2], roll_i[RI_KEEP1], u, mask, m, f, rules)


def decided_turn_python(
    box3, keep2, keep1, u, mask: int, m: int, f: int, rules: RuleSet
) -> tuple[int, int]:
    """Plain-Python twin of :func:`decided_turn` (dice by :func:`roll_dice_python`, the box's
    points by :func:`gamelab.yatzy._turn_kernels.legal_moves_python`)."""
    counts = roll_dice_python([0] * 6, u[0:5])
    for stage, keep in enumerate((keep1, keep2)):
        counts = roll_dice_python(KEEPS[int(keep[roll_index(counts)])], u[5 + 5 * stage :])
    r = roll_index(counts)
    moves = {b: (s, j) for b, s, j in legal_moves_python(rules, mask, m, f, r)}
    return moves[int(box3[r])]
