"""The exact Voltorb Flip searches as numba kernels: win probability and coins.

:func:`win_search` maximises the prior mass of the boards a policy clears, :func:`coin_search`
the expected coins with quitting; the algorithms, their bounds and their Python twins are
described in :mod:`gamelab.voltorb.expectimax`, which calls these kernels (the twins are
``OptimalSolver(..., python=True)``). The bounds come from :mod:`gamelab.voltorb._bounds_kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

from gamelab.voltorb._bounds_kernels import (
    _inseparable,
    bounds_on,
    pair_bound,
    pair_bound_lists,
    symmetry_classes,
)
from gamelab.voltorb._small_kernels import small_solve
from gamelab.voltorb._table_kernels import table_slot, table_store
from gamelab.voltorb._wide_kernels import wide_solve
from gamelab.voltorb.rules import TILES

#: states with more live boards than this skip the O(k^2) pair bound (only the search's root
#: usually has that many)
PAIR_BOUND_MAX = 100000

#: states with at most this many live boards drop dominated tiles (a bit mask per tile and value)
DOMINANCE_MAX = 62


@njit(cache=True)
def drop_dominated(boards, idx, tiles, tile_bound, ntiles):
    """Keep, of the candidate `tiles[:ntiles]` (ascending), only those no other candidate
    dominates; returns the new count (`tiles` and `tile_bound` are compacted in place).

    Tile t dominates u when every live board with a Voltorb on t has one on u too, and t's value
    tells u's (on the boards with t = v, u shows one value). Then flipping t first is worth at
    least flipping u first: after t the player knows u, loses only boards u would lose too, and
    can follow any policy that starts with u (flipping u at once if it is safe). Tiles that
    dominate each other (the same split of the boards) are worth the same; the lowest is kept.
    At most 62 live boards (one int64 bit mask per tile and value)."""
    k = idx.size
    masks = np.zeros((ntiles, 4), np.int64)
    for i in range(k):
        bit = np.int64(1) << i
        for j in range(ntiles):
            masks[j, boards[idx[i], tiles[j]]] |= bit
    dom = np.zeros((ntiles, ntiles), np.bool_)
    for jt in range(ntiles):
        for ju in range(ntiles):
            if jt == ju or (masks[jt, 0] & ~masks[ju, 0]) != 0:
                continue
            ok = True
            for v in range(1, 4):
                m = masks[jt, v]
                if m == 0:
                    continue
                fits = False
                for w in range(4):
                    if (m & ~masks[ju, w]) == 0:
                        fits = True
                        break
                if not fits:
                    ok = False
                    break
            dom[jt, ju] = ok
    n = 0
    for ju in range(ntiles):
        dropped = False
        for jt in range(ntiles):
            if dom[jt, ju] and (not dom[ju, jt] or jt < ju):
                dropped = True
                break
        if not dropped:
            tiles[n] = tiles[ju]
            tile_bound[n] = tile_bound[ju]
            n += 1
    return n


def drop_dominated_py(boards, idx, tiles) -> list[int]:
    """Plain-Python twin of :func:`drop_dominated`: the kept tiles, from the board values."""
    rows = [[int(x) for x in boards[i]] for i in idx]

    def dominates(t: int, u: int) -> bool:
        if any(r[t] == 0 and r[u] != 0 for r in rows):
            return False
        return all(len({r[u] for r in rows if r[t] == v}) <= 1 for v in (1, 2, 3))

    tiles = [int(t) for t in tiles]
    return [
        u
        for u in tiles
        if not any(t != u and dominates(t, u) and (not dominates(u, t) or t < u) for t in tiles)
    ]


@njit(cache=True)
def _pair_ceiling(bits, weights, idx, adj_start, adj, mark):
    """pair_bound of `idx`, from the adjacency lists when the solver made them."""
    if adj_start.size > 1:
        return pair_bound_lists(bits, weights, idx, adj_start, adj, mark)
    return pair_bound(bits, weights, idx)


@njit(cache=True)
def win_search(
    boards,
    weights,
    hm0,
    idx,
    code,
    nrev_mult,
    alpha,
    table,
    counter,
    clue,
    use_symmetry,
    bits,
    use_pairs,
    small_max,
    adj_start,
    adj,
    mark,
    wide_max,
    pos,
):
    """Max P(win) mass of the live boards `idx` at revealed state `code` (2 bits per tile: 0 hidden,
    else the value shown). Same recursion and pruning as the Python twin
    :class:`gamelab.voltorb.expectimax.OptimalSolver`, plus fail-low cut-offs: the result is exact
    when it exceeds `alpha`, otherwise it is `alpha`, an upper bound (pass alpha < 0 for an exact
    value). Every state goes to the memo `table` (see :func:`table_slot`) with its best tile."""
    if counter[2]:
        return 0.0  # the search is stopping (state limit, or the memo is full)
    known_ceiling = -1.0
    slot = table_slot(table, code)
    if table[slot, 0] == code:
        if (np.int64(table[slot, 2]) & 1) or table[slot, 1] <= alpha:
            return table[slot, 1]
        # an inexact entry is an upper bound no looser than this state's pair bound
        known_ceiling = table[slot, 1]
    counter[0] += 1
    if counter[0] > counter[1]:
        # state limit reached: unwind without storing anything (the caller discards the search)
        counter[2] = 1
        return 0.0
    total = 0.0
    for i in range(idx.size):
        total += weights[idx[i]]
    revealed_mask = np.zeros(TILES, np.bool_)
    for t in range(TILES):
        revealed_mask[t] = ((code >> (2 * t)) & 3) != 0
    if idx.size == 1:
        tile = -1
        for t in range(TILES):
            if boards[idx[0], t] >= 2 and not revealed_mask[t]:
                tile = t
                break
        table_store(table, counter, code, total, True, tile)
        return total
    if idx.size == 2:
        # two live boards: both are cleared unless they are inseparable (see pair_bound), then
        # the heavier one; a safe useful tile (there is one unless they are inseparable) or the
        # heavier board's first hidden multiplier is an optimal flip
        a = idx[0]
        b = idx[1]
        tile = -1
        if _inseparable(bits, a, b):
            if weights[b] > weights[a]:
                a = b
            value = weights[a]
            for t in range(TILES):
                if boards[a, t] >= 2 and not revealed_mask[t]:
                    tile = t
                    break
        else:
            value = total
            for t in range(TILES):
                x = boards[a, t]
                y = boards[b, t]
                if not revealed_mask[t] and x != 0 and y != 0 and (x >= 2 or y >= 2):
                    tile = t
                    break
        table_store(table, counter, code, value, True, tile)
        return value
    eps = 1e-12 * total
    # the inseparable-pairs bound: fail low at once, or stop as soon as a tile reaches it
    if known_ceiling >= 0.0:
        ceiling = known_ceiling
    elif use_pairs and idx.size <= PAIR_BOUND_MAX:
        ceiling = _pair_ceiling(bits, weights, idx, adj_start, adj, mark)
    else:
        ceiling = total
    if alpha >= 0.0 and ceiling <= alpha + eps:
        table_store(table, counter, code, ceiling, False, -1)
        return ceiling
    # Tiles that can be a 2 or 3 but are a Voltorb on no live board are free information: flipping
    # all of them before anything else is optimal, so they are flipped together (one node instead
    # of a chain), whatever the order.
    safe = np.empty(TILES, np.int64)
    nsafe = 0
    for t in range(TILES):
        if revealed_mask[t]:
            continue
        vol = 0.0
        mult = False
        for i in range(idx.size):
            x = boards[idx[i], t]
            if x == 0:
                vol += weights[idx[i]]
            elif x >= 2:
                mult = True
        if mult and vol <= 1e-15 * total:
            safe[nsafe] = t
            nsafe += 1
    if nsafe > 0:
        n = idx.size
        keys = np.empty(n, np.int64)
        for i in range(n):
            key = 0
            for j in range(nsafe):
                key = key * 4 + boards[idx[i], safe[j]]
            keys[i] = key
        order = np.argsort(keys, kind="mergesort")
        eps = 1e-12 * total
        running = total  # upper bound on the result: solved groups exact, the rest at their mass
        acc = 0.0
        start = 0
        while start < n:
            stop = start
            while stop < n and keys[order[stop]] == keys[order[start]]:
                stop += 1
            b0 = idx[order[start]]
            child_code = code
            extra = 0
            for j in range(nsafe):
                v = boards[b0, safe[j]]
                child_code |= v << (2 * safe[j])
                if v >= 2:
                    extra += 1
            group_mass = 0.0
            n_live = 0
            for i in range(start, stop):
                b = idx[order[i]]
                group_mass += weights[b]
                if hm0[b] - nrev_mult - extra > 0:
                    n_live += 1
            live = np.empty(n_live, np.int64)
            live_mass = 0.0
            j = 0
            for i in range(start, stop):
                b = idx[order[i]]
                if hm0[b] - nrev_mult - extra > 0:
                    live[j] = b
                    live_mass += weights[b]
                    j += 1
            child = 0.0
            if n_live > 0:
                child_alpha = alpha - (running - live_mass)
                if alpha < 0.0:
                    child_alpha = -1.0
                child = win_search(
                    boards,
                    weights,
                    hm0,
                    live,
                    child_code,
                    nrev_mult + extra,
                    child_alpha,
                    table,
                    counter,
                    clue,
                    use_symmetry,
                    bits,
                    use_pairs,
                    small_max,
                    adj_start,
                    adj,
                    mark,
                    wide_max,
                    pos,
                )
                if counter[2]:
                    return 0.0
            acc += group_mass - live_mass + child
            running -= live_mass - child
            if alpha >= 0.0 and running <= alpha + eps:
                # fail soft: `running` bounds the state (never report more than alpha)
                bound_value = min(running, alpha)
                table_store(table, counter, code, bound_value, False, -1)
                return bound_value
            start = stop
        table_store(table, counter, code, acc, True, safe[0])
        return acc
    if idx.size <= small_max:
        # a small state: the bit-mask search of _small_kernels (exact, memoised by live set)
        value, tile = small_solve(boards, weights, bits, idx, code, alpha, table, counter)
        return 0.0 if counter[2] else value  # small_solve stored the state
    if idx.size <= wide_max:
        # a mid-size state: the same search on multi-word masks (_wide_kernels)
        value, tile = wide_solve(
            boards,
            weights,
            bits,
            idx,
            code,
            alpha,
            table,
            counter,
            adj_start,
            adj,
            pos,
            clue,
            use_symmetry,
        )
        return 0.0 if counter[2] else value
    mass, won, bound = bounds_on(boards, weights, idx, hm0, nrev_mult, revealed_mask)
    ntiles = 0
    tiles = np.empty(TILES, np.int64)
    tile_bound = np.empty(TILES)
    rep = symmetry_classes(clue, code) if use_symmetry else np.arange(TILES)
    for t in range(TILES):
        if revealed_mask[t] or mass[t, 2] + mass[t, 3] <= 0.0 or rep[t] != t:
            continue
        tiles[ntiles] = t
        tb = 0.0
        for v in range(1, 4):
            # a child already solved (exactly, or as a fail-low upper bound) bounds tighter
            child_code = code | (v << (2 * t))
            if mass[t, v] > 0.0:
                cs = table_slot(table, child_code)
                if table[cs, 0] == child_code and table[cs, 1] < bound[t, v]:
                    bound[t, v] = table[cs, 1]
            tb += won[t, v] + bound[t, v]
        tile_bound[ntiles] = tb
        ntiles += 1
    if idx.size <= DOMINANCE_MAX and ntiles > 1:
        ntiles = drop_dominated(boards, idx, tiles, tile_bound, ntiles)
    # the first flip's bound (each child at most its mass less its own least risky flip)
    flip_ceiling = tile_bound[:ntiles].max()
    if flip_ceiling < ceiling:
        ceiling = flip_ceiling
        if alpha >= 0.0 and ceiling <= alpha + eps:
            table_store(table, counter, code, ceiling, False, -1)
            return ceiling
    order = tiles[:ntiles][np.argsort(-tile_bound[:ntiles], kind="mergesort")]
    best = -1.0
    best_tile = order[0]
    live_all = np.empty(idx.size, np.int64)
    start = np.zeros(4, np.int64)
    stop = np.zeros(4, np.int64)
    soft = -1.0  # the largest upper bound a tile was left with (for a fail-soft result)
    for oi in range(order.size):
        t = order[oi]
        threshold = max(best, alpha)
        running = 0.0
        for v in range(1, 4):
            running += won[t, v] + bound[t, v]
        if running <= threshold + eps:
            soft = max(soft, running)
            break  # tiles are in decreasing order of this bound
        # the live boards of each child, then the children's own ceilings tighten the bound
        j = 0
        for v in range(1, 4):
            extra = 1 if v >= 2 else 0
            start[v] = j
            for i in range(idx.size):
                b = idx[i]
                if boards[b, t] == v and hm0[b] - nrev_mult - extra > 0:
                    live_all[j] = b
                    j += 1
            stop[v] = j
            if stop[v] > start[v]:
                child_code = code | (v << (2 * t))
                cs = table_slot(table, child_code)
                known = table[cs, 0] == child_code
                if known and (np.int64(table[cs, 2]) & 1):
                    continue
                if not use_pairs or stop[v] - start[v] > PAIR_BOUND_MAX:
                    continue
                cb = _pair_ceiling(
                    bits, weights, live_all[start[v] : stop[v]], adj_start, adj, mark
                )
                if cb < bound[t, v]:
                    running -= bound[t, v] - cb
                    bound[t, v] = cb
                if not known or cb < table[cs, 1]:
                    table_store(table, counter, child_code, cb, False, -1)
        if running <= threshold + eps:
            soft = max(soft, running)
            continue
        acc = 0.0
        pruned = False
        for v in range(1, 4):
            if mass[t, v] <= 0.0:
                continue
            extra = 1 if v >= 2 else 0
            child = 0.0
            if stop[v] > start[v]:
                live = live_all[start[v] : stop[v]].copy()
                child_alpha = threshold - (running - bound[t, v])
                if threshold < 0.0:
                    child_alpha = -1.0
                child = win_search(
                    boards,
                    weights,
                    hm0,
                    live,
                    code | (v << (2 * t)),
                    nrev_mult + extra,
                    child_alpha,
                    table,
                    counter,
                    clue,
                    use_symmetry,
                    bits,
                    use_pairs,
                    small_max,
                    adj_start,
                    adj,
                    mark,
                    wide_max,
                    pos,
                )
                if counter[2]:
                    return 0.0
            acc += won[t, v] + child
            running -= bound[t, v] - child
            if running <= threshold + eps:
                pruned = True
                soft = max(soft, running)
                break
        if not pruned:
            soft = max(soft, acc)
        if not pruned and acc > best:
            best = acc
            best_tile = t
            if best >= ceiling - eps:
                break
    if best > alpha + eps or alpha < 0.0:
        table_store(table, counter, code, best, True, best_tile)
        return best
    # fail soft: every tile is worth at most `soft` (never report more than alpha)
    bound_value = min(max(soft, best), alpha, ceiling)
    if bound_value < 0.0:
        bound_value = alpha
    table_store(table, counter, code, bound_value, False, -1)
    return bound_value


@njit(cache=True)
def coin_search(boards, weights, hm0, idx, code, nrev_mult, may_quit, memo_val, memo_tile, counter):
    """Coin objective: H = the live boards' mass times the expected multiplier of the current coins
    under the best policy that may quit (`may_quit`, false only before the first card).

    Same recursion, bound and tie-breaking as the Python twin
    (:class:`gamelab.voltorb.expectimax.OptimalSolver` with ``objective="coins"``):
    ``H(S) = max(W(S) if may_quit, max_t sum_v v * [W(won_v) + H(rest_v)])``, a safe useful tile
    flipped at once, tiles tried in decreasing order of the perfect-information payout bound
    (sum over boards where t is safe of weight x product of the board's hidden multipliers).
    The best tile (-1 = quit) of each state goes to `memo_tile`.

    The recursion runs on an explicit stack (one frame per revealed tile, at most 25 deep; each
    frame's live boards are a slice of one growing pool), so numba can cache the kernel: a
    cached recursive kernel can crash numba 0.68 on load (DEVELOPERS.md).
    """
    depth_max = TILES + 2
    f_start = np.zeros(depth_max, np.int64)  # the frame's live boards: pool[start : start + k]
    f_k = np.zeros(depth_max, np.int64)
    f_code = np.zeros(depth_max, np.int64)
    f_nrev = np.zeros(depth_max, np.int64)
    f_quit = np.zeros(depth_max, np.bool_)
    f_key = np.zeros(depth_max, np.int64)
    f_eps = np.zeros(depth_max)
    f_order = np.zeros((depth_max, TILES), np.int64)  # tiles to try, in order
    f_norder = np.zeros(depth_max, np.int64)
    f_bound = np.zeros((depth_max, TILES))  # the payout bound of each tile
    f_use_bound = np.zeros(depth_max, np.bool_)
    f_best = np.zeros(depth_max)
    f_best_tile = np.zeros(depth_max, np.int64)
    f_oi = np.zeros(depth_max, np.int64)  # position in the order of the tile being tried
    f_v = np.zeros(depth_max, np.int64)  # value of that tile whose child is being searched
    f_acc = np.zeros(depth_max)
    f_won = np.zeros(depth_max)  # mass won outright by the child being searched
    pool = np.empty(max(64, 4 * idx.size), np.int64)
    for i in range(idx.size):  # no slice assignments here: see enumerate_boards
        pool[i] = idx[i]
    top = idx.size
    f_k[0] = idx.size
    f_code[0] = code
    f_nrev[0] = nrev_mult
    f_quit[0] = may_quit
    depth = 0
    mode = 0  # 0: open the frame at `depth`, 1: go on with it, 2: it returns `value`
    value = 0.0
    revealed = np.zeros(TILES, np.bool_)
    v_mass = np.zeros(TILES)
    can_mult = np.zeros(TILES, np.bool_)
    tiles = np.empty(TILES, np.int64)
    while True:
        d = depth
        if mode == 0:
            key = (f_code[d] << 1) | (1 if f_quit[d] else 0)
            f_key[d] = key
            if key in memo_val:
                value = memo_val[key]
                mode = 2
            else:
                counter[0] += 1
                if counter[0] > counter[1]:
                    counter[2] = 1
                    return 0.0
                start = f_start[d]
                k = f_k[d]
                total = 0.0
                for i in range(start, start + k):
                    total += weights[pool[i]]
                for t in range(TILES):
                    revealed[t] = ((f_code[d] >> (2 * t)) & 3) != 0
                    v_mass[t] = 0.0
                    can_mult[t] = False
                    f_bound[d, t] = 0.0
                for i in range(start, start + k):
                    b = pool[i]
                    prod = 1.0
                    for u in range(TILES):
                        if not revealed[u] and boards[b, u] >= 2:
                            prod *= boards[b, u]
                    for t in range(TILES):
                        if revealed[t]:
                            continue
                        x = boards[b, t]
                        if x == 0:
                            v_mass[t] += weights[b]
                        else:
                            f_bound[d, t] += weights[b] * prod
                            if x >= 2:
                                can_mult[t] = True
                ntiles = 0
                for t in range(TILES):
                    if can_mult[t]:
                        tiles[ntiles] = t
                        ntiles += 1
                cand = tiles[:ntiles]
                # safest first, then lowest index (the twin's candidate order)
                safest = cand[np.argsort(v_mass[cand], kind="mergesort")]
                f_best[d] = -1.0
                f_best_tile[d] = safest[0]
                if f_quit[d]:
                    f_best[d] = total
                    f_best_tile[d] = -1
                f_eps[d] = 1e-12 * total
                if v_mass[safest[0]] <= 1e-15 * total:
                    f_order[d, 0] = safest[0]
                    f_norder[d] = 1
                    f_best[d] = -1.0  # a safe flip beats quitting: the multiplier is at least 1
                    f_best_tile[d] = safest[0]
                    f_use_bound[d] = False
                else:
                    order = cand[np.argsort(-f_bound[d, cand], kind="mergesort")]
                    for i in range(ntiles):
                        f_order[d, i] = order[i]
                    f_norder[d] = ntiles
                    f_use_bound[d] = True
                f_oi[d] = 0
                f_v[d] = 1
                f_acc[d] = 0.0
                mode = 1
        if mode == 1:
            descended = False
            start = f_start[d]
            k = f_k[d]
            while f_oi[d] < f_norder[d]:
                t = f_order[d, f_oi[d]]
                if f_v[d] == 1 and f_use_bound[d] and f_bound[d, t] <= f_best[d] + f_eps[d]:
                    break  # tiles are in decreasing order of this bound
                while f_v[d] <= 3:
                    v = f_v[d]
                    extra = 1 if v >= 2 else 0
                    n_live = 0
                    won = 0.0
                    for i in range(start, start + k):
                        b = pool[i]
                        if boards[b, t] == v:
                            if hm0[b] - f_nrev[d] - extra > 0:
                                n_live += 1
                            else:
                                won += weights[b]
                    if n_live > 0:
                        if top + n_live > pool.size:
                            grown = np.empty(max(2 * pool.size, top + n_live), np.int64)
                            for i in range(top):
                                grown[i] = pool[i]
                            pool = grown
                        j = top
                        for i in range(start, start + k):
                            b = pool[i]
                            if boards[b, t] == v and hm0[b] - f_nrev[d] - extra > 0:
                                pool[j] = b
                                j += 1
                        f_won[d] = won
                        f_start[d + 1] = top
                        f_k[d + 1] = n_live
                        f_code[d + 1] = f_code[d] | (v << (2 * t))
                        f_nrev[d + 1] = f_nrev[d] + extra
                        f_quit[d + 1] = True
                        top += n_live
                        depth = d + 1
                        descended = True
                        break
                    f_acc[d] += v * won
                    f_v[d] += 1
                if descended:
                    break
                if not f_use_bound[d] or f_acc[d] > f_best[d] + f_eps[d]:
                    f_best[d] = f_acc[d]
                    f_best_tile[d] = t
                f_oi[d] += 1
                f_v[d] = 1
                f_acc[d] = 0.0
            if descended:
                mode = 0
                continue
            memo_val[f_key[d]] = f_best[d]
            memo_tile[f_key[d]] = f_best_tile[d]
            value = f_best[d]
            mode = 2
        # mode 2: the frame at depth d returns `value` to its parent
        if d == 0:
            return value
        top = f_start[d]
        depth = d - 1
        p = depth
        f_acc[p] += f_v[p] * (f_won[p] + value)
        f_v[p] += 1
        mode = 1


@njit(cache=True)
def new_memos():
    """The search's three memo tables (state -> value, best tile, exact?), made in compiled code:
    numba compiles ``numba.typed.Dict.empty`` (and every item access from Python) afresh in each
    process, so the shells would say "compiling" on every run (issue 23)."""
    memo_val = Dict.empty(key_type=types.int64, value_type=types.float64)
    memo_tile = Dict.empty(key_type=types.int64, value_type=types.int64)
    memo_exact = Dict.empty(key_type=types.int64, value_type=types.boolean)
    return memo_val, memo_tile, memo_exact


def new_memos_python():
    """Twin of :func:`new_memos`: three empty dicts."""
    return {}, {}, {}


@njit(cache=True)
def memo_entry(memo_val, memo_tile, key):
    """(value, best tile) of the memoised state `key` (read in compiled code, see new_memos)."""
    return memo_val[key], memo_tile[key]


def memo_entry_python(memo_val, memo_tile, key):
    """Twin of :func:`memo_entry`."""
    return memo_val[key], memo_tile[key]
