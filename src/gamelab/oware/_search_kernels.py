"""numba kernels of the Oware engine: the evaluations and the negamax search (:func:`search_root`).

Boards as in :mod:`gamelab.oware._move_kernels`. The plain-Python twins are in
:mod:`gamelab.oware.evaluation` (the evaluations and ``final_score``) and
:func:`gamelab.oware.search.twin_negamax` (the search); the tests compare them. Tablebase probes
use :mod:`gamelab.oware._tablebase_kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.oware._move_kernels import (
    copy_board,
    final_difference,
    game_over_by_score,
    legal_mask,
    sow_and_capture,
)
from gamelab.oware._tablebase_kernels import rank_board

#: Engine score of a won game before the seed margin is added (see :func:`final_score`).
WIN = 10000
INF = 1_000_000
#: Scores beyond this are decided games (evaluations stay far below it).
DECIDED = WIN // 2
MAX_PLY = 96

EVAL_BLOG = 0
EVAL_AUALE = 1

TT_EXACT = 1
TT_LOWER = 2
TT_UPPER = 3


# --------------------------------------------------------------------------- evaluations


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def blog_eval(b, side):
    """The blog's evaluation for the side to move: 2·(store difference) + opponent's vulnerable
    houses − own vulnerable houses (a house is vulnerable with 1 or 2 seeds)."""
    own_v = 0
    opp_v = 0
    for k in range(6):
        x = b[6 * side + k]
        if x == 1 or x == 2:
            own_v += 1
        y = b[6 * (1 - side) + k]
        if y == 1 or y == 2:
            opp_v += 1
    return 2 * (b[12 + side] - b[13 - side]) + opp_v - own_v


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def auale_eval(b, side):
    """Aualé/Aalina-style evaluation for the side to move: 25 per stored seed, +28 per house with
    more than 12 seeds, −36 per house with 1-2 seeds, −54 per empty house (own minus opponent)."""
    score = 25 * (b[12 + side] - b[13 - side])
    for k in range(6):
        x = b[6 * side + k]
        y = b[6 * (1 - side) + k]
        if x > 12:
            score += 28
        elif x == 0:
            score -= 54
        elif x <= 2:
            score -= 36
        if y > 12:
            score -= 28
        elif y == 0:
            score += 54
        elif y <= 2:
            score += 36
    return score


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def evaluate(b, side, kind):
    if kind == EVAL_BLOG:
        return blog_eval(b, side)
    return auale_eval(b, side)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def final_score(diff, ply, kind):
    """Score of an ended game for the side to move, given its final seed difference.

    Wins are worth WIN plus the margin, found sooner is better; the margin is in the
    evaluation's units (2 per seed for the blog's, 25 per seed for Aualé's)."""
    unit = 2 if kind == EVAL_BLOG else 25
    if diff > 0:
        return WIN - ply + unit * diff
    if diff < 0:
        return -WIN + ply + unit * diff
    return 0


# --------------------------------------------------------------------------- search


@njit(cache=True)
def zobrist_key(b, side, zob):
    h = zob[13, side]
    for k in range(12):
        h ^= zob[k, b[k]]
    h ^= zob[12, b[12]]
    return h


@njit(cache=True, nogil=True)
def search_root(
    board,
    side,
    depth,
    kind,
    gs,
    tt_keys,
    tt_vals,
    tt_depth,
    tt_flag,
    tt_move,
    zob,
    history,
    counters,
    tb_values,
    tb_offsets,
    binom,
    use_tt,
    plain,
):
    """Fixed-depth negamax from `board`; returns the score for the side to move.

    With ``plain`` it is the blog's plain alpha-beta (moves in house order, full windows, no
    table, no tablebase); otherwise principal-variation search with a transposition table,
    move ordering (hash move, captures by size, history heuristic) and tablebase probes.
    counters: [nodes, node_limit, stopped, best root move]; when nodes pass the limit the search
    stops, sets counters[2] and the caller discards the result. Written with an explicit stack
    because numba cannot cache recursive functions. The stack's arrays are allocated here,
    although each allocation compiles a routine on a cold cache: passed in as scratch made by
    numpy, they made the search 7-13 % slower (``benchmarks/kernels_before_after.py --only
    oware``; LLVM knows that arrays allocated here alias no other)."""
    n_ply = depth + 2
    boards = np.zeros((n_ply, 7, 14), dtype=np.int64)
    # (one allocation routine per shape and type: scores and keys share those of boards and
    # of the int64 rows; a key is kept as its int64 bit pattern)
    scores = np.zeros((n_ply, 1, 6), dtype=np.int64)
    alpha_s = np.zeros(n_ply, dtype=np.int64)
    beta_s = np.zeros(n_ply, dtype=np.int64)
    alpha0_s = np.zeros(n_ply, dtype=np.int64)
    depth_s = np.zeros(n_ply, dtype=np.int64)
    best_s = np.zeros(n_ply, dtype=np.int64)
    bestmove_s = np.zeros(n_ply, dtype=np.int64)
    cur_s = np.zeros(n_ply, dtype=np.int64)
    searched_s = np.zeros(n_ply, dtype=np.int64)
    research_s = np.zeros(n_ply, dtype=np.int64)
    slot_s = np.zeros(n_ply, dtype=np.int64)
    key_s = np.zeros(n_ply, dtype=np.int64)
    use_table = use_tt and not plain
    use_tb = tb_offsets.shape[0] > 1 and not plain
    tt_mask = np.uint64(tt_keys.shape[0] - 1)
    counters[2] = 0
    counters[3] = -1
    copy_board(boards[0, 6], board)
    alpha_s[0] = -INF
    beta_s[0] = INF
    depth_s[0] = depth
    ply = 0
    entering = True
    value = 0
    while True:
        if entering:
            # ---- a new node at `ply`: leaf tests, table probe, children
            entering = False
            counters[0] += 1
            if counters[0] > counters[1]:
                counters[2] = 1
                return 0
            b = boards[ply, 6]
            mover = side ^ (ply & 1)
            decided = False
            if game_over_by_score(b):
                value = final_score(final_difference(b, mover), ply, kind)
                decided = True
            elif ply > 0 and use_tb:
                n = 0
                for k in range(12):
                    n += b[k]
                if n < tb_offsets.shape[0] - 1:
                    v = tb_values[tb_offsets[n] + rank_board(b, mover, binom)]
                    value = final_score(b[12 + mover] - b[13 - mover] + v, ply, kind)
                    decided = True
            mask = 0
            if not decided:
                mask = legal_mask(b, mover, gs)
                if mask == 0:
                    value = final_score(final_difference(b, mover), ply, kind)
                    decided = True
                elif depth_s[ply] <= 0:
                    value = evaluate(b, mover, kind)
                    decided = True
            tt_best = -1
            if not decided and use_table:
                key = zobrist_key(b, mover, zob)
                slot = np.int64(key & tt_mask)
                key_s[ply] = np.int64(key)
                slot_s[ply] = slot
                if tt_keys[slot] == key:
                    tt_best = tt_move[slot]
                    if tt_depth[slot] >= depth_s[ply] and ply > 0:
                        v = tt_vals[slot]
                        # decided scores are stored relative to the node, not the root
                        if v > DECIDED:
                            v -= ply
                        elif v < -DECIDED:
                            v += ply
                        f = tt_flag[slot]
                        if (
                            f == TT_EXACT
                            or (f == TT_LOWER and v >= beta_s[ply])
                            or (f == TT_UPPER and v <= alpha_s[ply])
                        ):
                            value = v
                            decided = True
            if decided:
                ply -= 1
                if ply < 0:
                    return value
                continue  # back in the parent with `value`
            sc = scores[ply, 0]
            for o in range(6):
                sc[o] = -INF
                if not (mask >> o) & 1:
                    continue
                c = boards[ply + 1, o]
                copy_board(c, b)
                captured = sow_and_capture(c, mover, o, gs)
                if plain:
                    sc[o] = 6 - o
                else:
                    s = history[mover, o]
                    if captured > 0:
                        s += 1_000_000 * captured
                    if o == tt_best:
                        s += 1_000_000_000
                    sc[o] = s
            alpha0_s[ply] = alpha_s[ply]
            best_s[ply] = -INF
            bestmove_s[ply] = -1
            searched_s[ply] = 0
            research_s[ply] = 0
        else:
            # ---- back at `ply` with the child's `value`
            o = cur_s[ply]
            v = -value
            if (
                research_s[ply] == 0
                and searched_s[ply] > 0
                and not plain
                and alpha_s[ply] < v < beta_s[ply]
            ):
                # the null-window probe failed high: search again with the full window
                research_s[ply] = 1
                copy_board(boards[ply + 1, 6], boards[ply + 1, o])
                alpha_s[ply + 1] = -beta_s[ply]
                beta_s[ply + 1] = -v
                depth_s[ply + 1] = depth_s[ply] - 1
                ply += 1
                entering = True
                continue
            research_s[ply] = 0
            searched_s[ply] += 1
            if v > best_s[ply]:
                best_s[ply] = v
                bestmove_s[ply] = o
            if v > alpha_s[ply]:
                alpha_s[ply] = v
            if alpha_s[ply] >= beta_s[ply]:
                mover = side ^ (ply & 1)
                if boards[ply + 1, o, 12 + mover] == boards[ply, 6, 12 + mover]:
                    history[mover, o] += depth_s[ply] * depth_s[ply]
                scores[ply, 0, :] = -INF  # cut-off: no more moves
        # ---- pick the next move at `ply`, or finish the node
        sc = scores[ply, 0]
        o = -1
        top = -INF
        for k in range(6):
            if sc[k] > top:
                top = sc[k]
                o = k
        if o >= 0:
            sc[o] = -INF
            cur_s[ply] = o
            copy_board(boards[ply + 1, 6], boards[ply + 1, o])
            depth_s[ply + 1] = depth_s[ply] - 1
            if searched_s[ply] == 0 or plain:
                alpha_s[ply + 1] = -beta_s[ply]
                beta_s[ply + 1] = -alpha_s[ply]
            else:
                alpha_s[ply + 1] = -alpha_s[ply] - 1
                beta_s[ply + 1] = -alpha_s[ply]
            ply += 1
            entering = True
            continue
        best = best_s[ply]
        if use_table:
            slot = slot_s[ply]
            tt_keys[slot] = np.uint64(key_s[ply])
            stored = best
            if stored > DECIDED:
                stored += ply
            elif stored < -DECIDED:
                stored -= ply
            tt_vals[slot] = stored
            tt_depth[slot] = depth_s[ply]
            tt_move[slot] = bestmove_s[ply]
            if best <= alpha0_s[ply]:
                tt_flag[slot] = TT_UPPER
            elif best >= beta_s[ply]:
                tt_flag[slot] = TT_LOWER
            else:
                tt_flag[slot] = TT_EXACT
        if ply == 0:
            counters[3] = bestmove_s[0]
            return best
        value = best
        ply -= 1


def zobrist_key_python(b, side: int, zob: np.ndarray) -> int:
    """Twin of :func:`zobrist_key`: the XOR of the random words of the houses, the first store
    and the side to move."""
    h = int(zob[13, side])
    for k in range(12):
        h ^= int(zob[k, b[k]])
    return h ^ int(zob[12, b[12]])


# --------------------------------------------------------------------------- Python entries
# The search calls the evaluations and final_score, which have no Python entry (numba builds
# none, which saves a cold command's compiling); Python (the tests comparing them with their
# twins) calls these.


@njit(cache=True)
def blog_eval_kernel(b, side):
    """:func:`blog_eval` called from Python."""
    return blog_eval(b, side)


@njit(cache=True)
def auale_eval_kernel(b, side):
    """:func:`auale_eval` called from Python."""
    return auale_eval(b, side)


@njit(cache=True)
def final_score_kernel(diff, ply, kind):
    """:func:`final_score` called from Python."""
    return final_score(diff, ply, kind)
