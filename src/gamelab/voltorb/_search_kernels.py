"""The exact Voltorb Flip win-probability search as a numba kernel.

:func:`win_search` maximises the prior mass of the boards a policy clears (the coin search is
:mod:`gamelab.voltorb._coin_kernels`); the algorithm, its bounds and its Python twin are
described in :mod:`gamelab.voltorb.expectimax`, which calls this kernel (the twin is
``OptimalSolver(..., python=True)``). The bounds come from :mod:`gamelab.voltorb._bounds_kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.voltorb._bounds_kernels import (
    _inseparable,
    bounds_on,
    pair_bound,
    pair_bound_lists,
    symmetry_classes,
)
from gamelab.voltorb._small_kernels import light_first, small_solve
from gamelab.voltorb._table_kernels import memo_find, memo_store, table_slot, table_store
from gamelab.voltorb._wide_kernels import wide_solve
from gamelab.voltorb.rules import TILES

#: states with more live boards than this skip the O(k^2) pair bound (only the search's root
#: usually has that many)
PAIR_BOUND_MAX = 100000

#: states with at most this many live boards drop dominated tiles (a bit mask per tile and value)
DOMINANCE_MAX = 62

#: `first_tiles` of a state inside a search (a part's is a mask, bit t for tile t)
ALL_TILES = -1
#: `first_tiles` of the state a whole search starts from: it keeps its first order of tiles
#: when it is searched again after the memo grew, as a part does (so a split search, whose parts
#: take that order, picks the same tile among tiles of equal value)
WHOLE = -2


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


def drop_dominated_python(boards, idx, tiles) -> list[int]:
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
    first_tiles,
    shared,
    root_out,
    perms,
    general,
):
    """Max P(win) mass of the live boards `idx` at revealed state `code` (2 bits per tile: 0 hidden,
    else the value shown). Same recursion and pruning as the Python twin
    :class:`gamelab.voltorb.expectimax.OptimalSolver`, plus fail-low cut-offs: the result is exact
    when it exceeds `alpha`, otherwise it is `alpha`, an upper bound (pass alpha < 0 for an exact
    value). Every state goes to the memo `table` (see :func:`table_slot`) with its best tile.

    A *part* of a search (:meth:`gamelab.voltorb.expectimax.OptimalSolver.search_part`):
    `first_tiles` other than :data:`ALL_TILES` (a bit mask of tiles) restricts this state's first
    flip to those tiles, and this state is then not stored (its value is the best of some tiles
    only). `shared` is [a lower bound on the state's value, the next position of the order to
    take, the first position known to hold a tile worth the state's ceiling (25: none)], in
    memory that parts running in other processes may share: a part takes positions one by one
    (parts with the same tiles share the work tile by tile; parts with disjoint tiles each need
    their own next position), raises the bound whenever a tile it searched to the end beats it,
    cuts off a tile that cannot beat the bound by a margin (not the optimum, nor tied with it),
    and takes no position past a tile worth the ceiling (no later tile can be the pick).
    `root_out` (3 x 25, -1 everywhere at the start) receives in row 0 the order in which the
    whole search tries its first tiles (-1 after the last), in row 1 the exact value of each
    first tile this part searched to the end (-2: cut off), in row 2 a 1 for each tile it took.
    The state must take the general search (more than `wide_max` live boards and no safe tile),
    else `root_out[0, 0]` stays -1 and nothing is searched; a part whose `root_out[0]` holds an
    order takes that one. Recursive calls pass ALL_TILES; the state a whole search starts from
    passes WHOLE (it too keeps its first order in `root_out[0]` across runs).

    `general`: True, or None when no state of the search is larger than the bit-mask searches
    take (the state has at most ``max(2, small_max, wide_max)`` live boards, and so has every
    state below it): numba then compiles the kernel without the general search, a
    specialisation of its own that leaves out most of the kernel's compile time (a first answer
    on a small position does not wait for it)."""
    part = first_tiles >= 0
    top = first_tiles != ALL_TILES
    # (root_out starts at -1: a search run again after its memo grew keeps the order of its
    # first run and the values found so far)
    # ALL_TILES as an int64 like `first_tiles` (a literal would type the recursive call apart:
    # two specialisations calling each other, which numba's cache cannot load)
    every_tile = first_tiles | ALL_TILES
    if counter[2]:
        return 0.0  # the search is stopping (state limit, or the memo is full)
    known_ceiling = -1.0
    slot = table_slot(table, code) if part else memo_find(table, counter, code, perms)
    if table[slot, 0] == code and not part:
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
    if part and (idx.size <= max(2, small_max, wide_max)):
        return 0.0  # not a state of the general search: no part of it (root_out[0, 0] = -1)
    if idx.size == 1:
        tile = -1
        for t in range(TILES):
            if boards[idx[0], t] >= 2 and not revealed_mask[t]:
                tile = t
                break
        memo_store(table, counter, code, total, True, tile, perms)
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
        memo_store(table, counter, code, value, True, tile, perms)
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
        memo_store(table, counter, code, ceiling, False, -1, perms)
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
    if nsafe > 0 and part:
        return 0.0  # a safe tile is flipped with no alternative: no part of it
    if nsafe > 0:
        n = idx.size
        # float keys (exact: at most 4**25 = 2**50), sorted by the argsort that the other
        # kernels compile for their float weights, not a second one for int64
        keys = np.empty(n)
        for i in range(n):
            key = 0.0
            for j in range(nsafe):
                key = key * 4.0 + boards[idx[i], safe[j]]
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
                    every_tile,
                    shared,
                    root_out,
                    perms,
                    general,
                )
                if counter[2]:
                    return 0.0
            acc += group_mass - live_mass + child
            running -= live_mass - child
            if alpha >= 0.0 and running <= alpha + eps:
                # fail soft: `running` bounds the state (never report more than alpha)
                bound_value = min(running, alpha)
                memo_store(table, counter, code, bound_value, False, -1, perms)
                return bound_value
            start = stop
        memo_store(table, counter, code, acc, True, safe[0], perms)
        return acc
    if idx.size <= small_max:
        # a small state: the bit-mask search of _small_kernels (exact, memoised by live set)
        value, tile = small_solve(boards, weights, bits, idx, code, alpha, table, counter, perms)
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
            perms,
        )
        return 0.0 if counter[2] else value
    if general is None:
        # (numba compiles a search called with general=None without the rest of this function)
        raise ValueError("a state larger than the bit-mask searches take, with general=None")
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
            memo_store(table, counter, code, ceiling, False, -1, perms)
            return ceiling
    order = tiles[:ntiles][np.argsort(-tile_bound[:ntiles], kind="mergesort")]
    if top:
        if root_out[0, 0] < 0.0:
            for oi in range(order.size):
                root_out[0, oi] = order[oi]
        else:
            # run again after the memo grew, or a part given the whole search's order: that
            # order (parts share positions; ties go to the first tile in it)
            n_first = 0
            while n_first < TILES and root_out[0, n_first] >= 0.0:
                n_first += 1
            order = np.empty(n_first, np.int64)
            for oi in range(n_first):
                order[oi] = np.int64(root_out[0, oi])
    best = -1.0
    best_tile = order[0] if order.size > 0 else -1
    live_all = np.empty(idx.size, np.int64)
    start = np.zeros(4, np.int64)
    stop = np.zeros(4, np.int64)
    counts = np.zeros(4, np.int64)
    values = np.zeros(4, np.int64)  # the order of a tile's children (light_first)
    parts = np.zeros(4)  # each child's share of the tile's value, by the value shown
    soft = -1.0  # the largest upper bound a tile was left with (for a fail-soft result)
    oi = 0
    redo = 0
    t_pos = 0
    while True:
        if part:
            # first the tiles this part took in an earlier run and did not finish, then the
            # next position of the order not taken yet (shared[1], shared by the parts with
            # the same tiles; two parts may take one position at once: searched twice, never
            # skipped), if it is one of this part's tiles
            t = -1
            while redo < order.size:
                u = order[redo]
                redo += 1
                if root_out[2, u] > 0.0 and root_out[1, u] == -1.0:
                    t = u
                    t_pos = redo - 1
                    break
            if t < 0:
                taken = np.int64(shared[1])
                if taken >= order.size or taken > shared[2]:
                    # (past a tile worth the state's ceiling no tile can be the pick)
                    break
                shared[1] = taken + 1.0
                t = order[taken]
                t_pos = taken
                if not (first_tiles >> t) & 1:
                    continue
                root_out[2, t] = 1.0
        else:
            if oi >= order.size:
                break
            t = order[oi]
            oi += 1
        threshold = max(best, alpha)
        if part and shared[0] >= 0.0:
            # another part's tile is worth shared[0]: a tile that cannot beat it by a margin is
            # not the optimum (the margin keeps ties, which the parts' combination resolves)
            threshold = max(threshold, shared[0] - 4.0 * eps)
        running = 0.0
        for v in range(1, 4):
            running += won[t, v] + bound[t, v]
        if running <= threshold + eps:
            soft = max(soft, running)
            if part:
                root_out[1, t] = -2.0  # cut off
            if top:
                # a kept order (a run after the memo grew, or a part's) is not in decreasing
                # order of today's bounds, and other parts' tiles come between a part's
                continue
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
            if part:
                root_out[1, t] = -2.0
            continue
        acc = 0.0
        pruned = False
        # the smaller children first: solving them (cheap) tightens the window of the larger
        # ones (light_first)
        for v in range(1, 4):
            counts[v] = stop[v] - start[v]
            parts[v] = 0.0
        light_first(counts, values)
        for vi in range(1, 4):
            v = values[vi]
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
                    every_tile,
                    shared,
                    root_out,
                    perms,
                    general,
                )
                if counter[2]:
                    return 0.0
            parts[v] = won[t, v] + child
            running -= bound[t, v] - child
            if running <= threshold + eps:
                pruned = True
                soft = max(soft, running)
                break
        if pruned and part:
            root_out[1, t] = -2.0
        if not pruned:
            # the children's shares summed in value order, whatever order they were searched
            # in: the same sum to the last bit as the order 1, 2, 3
            for v in range(1, 4):
                acc += parts[v]
            soft = max(soft, acc)
            if part:
                root_out[1, t] = acc
                if acc > shared[0]:
                    shared[0] = acc
                if acc >= ceiling - eps and t_pos < shared[2]:
                    shared[2] = t_pos
        if not pruned and acc > best:
            best = acc
            best_tile = t
            if best >= ceiling - eps:
                break
    if part:
        return best  # the best tile searched to the end (root_out), not stored
    if best > alpha + eps or alpha < 0.0:
        memo_store(table, counter, code, best, True, best_tile, perms)
        return best
    # fail soft: every tile is worth at most `soft` (never report more than alpha)
    bound_value = min(max(soft, best), alpha, ceiling)
    if bound_value < 0.0:
        bound_value = alpha
    memo_store(table, counter, code, bound_value, False, -1, perms)
    return bound_value
