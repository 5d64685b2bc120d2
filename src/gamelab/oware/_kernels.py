"""numba kernels for Oware: sowing, captures, legal moves, perft, evaluations, search, tablebases.

A board is an int64 array of 14 cells: houses 0-11 (0-5 the first player's row, sowing toward
higher indices) then the two stores. Every kernel has a plain-Python twin (in :mod:`rules` for the
move generator, here for perft and the evaluations, in :mod:`search` for negamax); the tests
compare them on random positions.

Grand-slam codes: 0 = legal but captures nothing (Abapa), 1 = forbidden unless every move is
one (Awari; then it captures), 2 = captures everything.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GS_NO_CAPTURE = 0
GS_FORBIDDEN = 1
GS_CAPTURE_ALL = 2

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


# --------------------------------------------------------------------------- moves


@njit(cache=True)
def sow_and_capture(b, side, offset, gs):
    """Play `offset` for `side` on `b` in place; return the seeds captured (already stored)."""
    start = 6 * side + offset
    seeds = b[start]
    b[start] = 0
    i = start
    while seeds > 0:
        i += 1
        if i == 12:
            i = 0
        if i == start:
            continue
        b[i] += 1
        seeds -= 1
    lo = 6 * (1 - side)
    if i < lo or i >= lo + 6:
        return 0
    captured = 0
    j = i
    while j >= lo and (b[j] == 2 or b[j] == 3):
        captured += b[j]
        j -= 1
    if captured == 0:
        return 0
    opp_total = 0
    for k in range(lo, lo + 6):
        opp_total += b[k]
    if captured == opp_total and gs == GS_NO_CAPTURE:
        return 0
    for k in range(j + 1, i + 1):
        b[k] = 0
    b[12 + side] += captured
    return captured


@njit(cache=True)
def _is_grand_slam(b, side, offset):
    c = b.copy()
    start = 6 * side + offset
    seeds = c[start]
    c[start] = 0
    i = start
    while seeds > 0:
        i += 1
        if i == 12:
            i = 0
        if i == start:
            continue
        c[i] += 1
        seeds -= 1
    lo = 6 * (1 - side)
    if i < lo or i >= lo + 6:
        return False
    captured = 0
    j = i
    while j >= lo and (c[j] == 2 or c[j] == 3):
        captured += c[j]
        j -= 1
    if captured == 0:
        return False
    total = 0
    for k in range(lo, lo + 6):
        total += c[k]
    return captured == total


@njit(cache=True)
def legal_mask(b, side, gs):
    """Bit `o` set when offset `o` is legal for `side` (0 when the side cannot move)."""
    lo = 6 * side
    opp = 6 * (1 - side)
    opp_total = 0
    for k in range(opp, opp + 6):
        opp_total += b[k]
    mask = 0
    for o in range(6):
        n = b[lo + o]
        if n == 0:
            continue
        if opp_total == 0 and n <= 5 - o:
            continue
        mask |= 1 << o
    if gs == GS_FORBIDDEN and mask != 0:
        keep = 0
        for o in range(6):
            if (mask >> o) & 1 and not _is_grand_slam(b, side, o):
                keep |= 1 << o
        if keep != 0:
            mask = keep
    return mask


@njit(cache=True)
def game_over_by_score(b):
    return b[12] > 24 or b[13] > 24 or (b[12] == 24 and b[13] == 24)


@njit(cache=True)
def final_difference(b, side):
    """Seed difference for `side` when the game ends here and each side takes its own row."""
    own = 0
    other = 0
    for k in range(6):
        own += b[6 * side + k]
        other += b[6 * (1 - side) + k]
    return (b[12 + side] + own) - (b[13 - side] + other)


# --------------------------------------------------------------------------- perft


@njit(cache=True)
def _same_houses(a, c):
    for k in range(12):
        if a[k] != c[k]:
            return False
    return True


@njit(cache=True)
def perft_kernel(board, side, depth, gs):
    """Move sequences of length `depth` (games that end earlier are not counted).

    Iterative depth-first walk (numba cannot cache recursive functions). A board repeating one
    with the same side to move since the last capture ends the game (first-repetition rule)."""
    if depth == 0:
        return 1
    if game_over_by_score(board):
        return 0
    stack = np.zeros((depth + 2, 14), dtype=np.int64)
    next_move = np.zeros(depth + 2, dtype=np.int64)
    masks = np.zeros(depth + 2, dtype=np.int64)
    hstart = np.zeros(depth + 2, dtype=np.int64)
    stack[0] = board
    masks[0] = legal_mask(board, side, gs)
    total = 0
    ply = 0
    while ply >= 0:
        o = next_move[ply]
        while o < 6 and not (masks[ply] >> o) & 1:
            o += 1
        if o == 6:
            ply -= 1
            continue
        next_move[ply] = o + 1
        mover = side ^ (ply & 1)
        c = stack[ply + 1]
        c[:] = stack[ply]
        captured = sow_and_capture(c, mover, o, gs)
        if ply + 1 == depth:
            total += 1
            continue
        hs = ply + 1
        if captured == 0:
            hs = hstart[ply]
            k = ply - 1
            repeated = False
            while k >= hs:
                if _same_houses(stack[k], c):
                    repeated = True
                    break
                k -= 2
            if repeated:
                continue
        if game_over_by_score(c):
            continue
        m = legal_mask(c, 1 - mover, gs)
        if m == 0:
            continue
        ply += 1
        masks[ply] = m
        next_move[ply] = 0
        hstart[ply] = hs
    return total


# --------------------------------------------------------------------------- evaluations


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def evaluate(b, side, kind):
    if kind == EVAL_BLOG:
        return blog_eval(b, side)
    return auale_eval(b, side)


@njit(cache=True)
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


# --------------------------------------------------------------------------- tablebase indexing


@njit(cache=True)
def binomial_table():
    t = np.zeros((80, 13), dtype=np.int64)
    for n in range(80):
        t[n, 0] = 1
        for k in range(1, min(n, 12) + 1):
            t[n, k] = t[n - 1, k - 1] + (t[n - 1, k] if k <= n - 1 else 0)
    return t


@njit(cache=True)
def rank_board(b, side, binom):
    """Index of the houses among all boards with the same seed count, seen from `side`'s row."""
    n = 0
    for k in range(12):
        n += b[k]
    r = n
    idx = 0
    for i in range(11):
        h = b[(6 * side + i) % 12]
        parts = 11 - i  # houses after this one
        # boards whose house i holds fewer than h seeds: C(r+parts, parts) - C(r-h+parts, parts)
        idx += binom[r + parts, parts] - binom[r - h + parts, parts]
        r -= h
    return idx


@njit(cache=True)
def unrank_board(n, idx, out, binom):
    """Inverse of rank_board for side 0: fill out[0:12] with the board of index idx."""
    r = n
    for i in range(11):
        parts = 11 - i
        h = 0
        # count of boards with house i < h+1 minus those < h, grow h until idx fits
        while True:
            below = binom[r + parts, parts] - binom[r - (h + 1) + parts, parts]
            if idx < below:
                break
            h += 1
        idx -= binom[r + parts, parts] - binom[r - h + parts, parts]
        out[i] = h
        r -= h
    out[11] = r


@njit(cache=True)
def level_offsets(max_seeds, binom):
    off = np.zeros(max_seeds + 2, dtype=np.int64)
    for n in range(max_seeds + 1):
        off[n + 1] = off[n] + binom[n + 11, 11]
    return off


@njit(cache=True)
def tb_board_value(b, side, values, offsets, binom):
    """Tablebase value (mover's final difference of the board seeds) or a large sentinel."""
    n = 0
    for k in range(12):
        n += b[k]
    if n >= offsets.shape[0] - 1:
        return -999
    return values[offsets[n] + rank_board(b, side, binom)]


@njit(cache=True)
def build_level(n, values, offsets, binom):
    """Retrograde solution of all boards with n seeds (lower levels must be in `values`).

    The game here ignores the stores: play continues until no move is possible (each side then
    keeps its own row). Capture-free cycles are valued as an even split of the board seeds:
    lo/hi are the least/greatest fixed points of v(p) = max over moves (captured - v(child)),
    i.e. what the mover can force when endless play counts as -n or +n; the value with endless
    play worth 0 is median(lo, 0, hi). Returns the number of sweeps."""
    size = binom[n + 11, 11]
    base = offsets[n]
    succ = np.full((size, 6), -1, dtype=np.int32)
    fixed = np.full(size, -128, dtype=np.int32)
    board = np.zeros(14, dtype=np.int64)
    child = np.zeros(14, dtype=np.int64)
    for p in range(size):
        board[:] = 0
        unrank_board(n, p, board, binom)
        mask = legal_mask(board, 0, GS_NO_CAPTURE)
        if mask == 0:
            own = 0
            for k in range(6):
                own += board[k]
            fixed[p] = own - (n - own)
            continue
        for o in range(6):
            if not (mask >> o) & 1:
                continue
            child[:] = board
            c = sow_and_capture(child, 0, o, GS_NO_CAPTURE)
            if c > 0:
                v = c - values[offsets[n - c] + rank_board(child, 1, binom)]
                if v > fixed[p]:
                    fixed[p] = v
            else:
                succ[p, o] = rank_board(child, 1, binom)
    lo = np.full(size, -n, dtype=np.int32)
    hi = np.full(size, n, dtype=np.int32)
    # boards without a capture-free move are decided at once; the rest stay active until
    # lo == hi (lo only rises and hi only falls, so equal bounds never move again)
    active = np.empty(size, dtype=np.int64)
    count = 0
    for p in range(size):
        has_succ = False
        for o in range(6):
            if succ[p, o] >= 0:
                has_succ = True
        if has_succ:
            active[count] = p
            count += 1
        else:
            lo[p] = fixed[p]
            hi[p] = fixed[p]
    sweeps = 0
    changed = True
    while changed:
        changed = False
        sweeps += 1
        keep = 0
        for i in range(count):
            p = active[i]
            best_lo = fixed[p]
            best_hi = fixed[p]
            for o in range(6):
                q = succ[p, o]
                if q >= 0:
                    if -hi[q] > best_lo:
                        best_lo = -hi[q]
                    if -lo[q] > best_hi:
                        best_hi = -lo[q]
            if best_lo != lo[p] or best_hi != hi[p]:
                lo[p] = best_lo
                hi[p] = best_hi
                changed = True
            if best_lo != best_hi:
                active[keep] = p
                keep += 1
        count = keep
    for p in range(size):
        v = 0
        if lo[p] > 0:
            v = lo[p]
        elif hi[p] < 0:
            v = hi[p]
        values[base + p] = v
    return sweeps


# --------------------------------------------------------------------------- search


@njit(cache=True)
def zobrist_key(b, side, zob):
    h = zob[13, side]
    for k in range(12):
        h ^= zob[k, b[k]]
    h ^= zob[12, b[12]]
    return h


@njit(cache=True)
def search_root(
    board, side, depth, kind, gs, tt_keys, tt_vals, tt_depth, tt_flag, tt_move, zob, history,
    counters, tb_values, tb_offsets, binom, use_tt, plain,
):
    """Fixed-depth negamax from `board`; returns the score for the side to move.

    With ``plain`` it is the blog's plain alpha-beta (moves in house order, full windows, no
    table, no tablebase); otherwise principal-variation search with a transposition table,
    move ordering (hash move, captures by size, history heuristic) and tablebase probes.
    counters: [nodes, node_limit, stopped, best root move]; when nodes pass the limit the search
    stops, sets counters[2] and the caller discards the result. Written with an explicit stack
    because numba cannot cache recursive functions."""
    n_ply = depth + 2
    boards = np.zeros((n_ply, 7, 14), dtype=np.int64)
    scores = np.zeros((n_ply, 6), dtype=np.int64)
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
    key_s = np.zeros(n_ply, dtype=np.uint64)
    use_table = use_tt and not plain
    use_tb = tb_offsets.shape[0] > 1 and not plain
    tt_mask = np.uint64(tt_keys.shape[0] - 1)
    counters[2] = 0
    counters[3] = -1
    boards[0, 6] = board
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
                key_s[ply] = key
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
                        if (f == TT_EXACT or (f == TT_LOWER and v >= beta_s[ply])
                                or (f == TT_UPPER and v <= alpha_s[ply])):
                            value = v
                            decided = True
            if decided:
                ply -= 1
                if ply < 0:
                    return value
                continue  # back in the parent with `value`
            sc = scores[ply]
            for o in range(6):
                sc[o] = -INF
                if not (mask >> o) & 1:
                    continue
                c = boards[ply + 1, o]
                c[:] = b
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
            if research_s[ply] == 0 and searched_s[ply] > 0 and not plain \
                    and alpha_s[ply] < v < beta_s[ply]:
                # the null-window probe failed high: search again with the full window
                research_s[ply] = 1
                boards[ply + 1, 6] = boards[ply + 1, o]
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
                scores[ply, :] = -INF  # cut-off: no more moves
        # ---- pick the next move at `ply`, or finish the node
        sc = scores[ply]
        o = -1
        top = -INF
        for k in range(6):
            if sc[k] > top:
                top = sc[k]
                o = k
        if o >= 0:
            sc[o] = -INF
            cur_s[ply] = o
            boards[ply + 1, 6] = boards[ply + 1, o]
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
            tt_keys[slot] = key_s[ply]
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
