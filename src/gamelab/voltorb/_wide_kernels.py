"""The exact win search on a state of up to 512 live boards, on multi-word bit masks (a kernel).

:mod:`gamelab.voltorb._small_kernels` solves states of at most 62 boards on one int64 mask; this
kernel is the same search on K = ceil(k / 64) words per set of boards, for the mid-size states
(63 to :data:`WIDE_MAX` boards) that used to go through the general search
(:func:`gamelab.voltorb._search_kernels.win_search`). There each state cost a 25 x 4 mass table
(:func:`gamelab.voltorb._bounds_kernels.bounds_on`) and a pair bound per child computed pair by
pair; on seed 1005's level-8 opening those states were 1 in 30 of the states searched but more
than half of the time. Here a child is K ANDs, its mass a walk over its bits, and its
inseparable-boards ceiling a greedy cover on the masks (the same cover as ``pair_bound``).

The recursion, the pruning, the fail-low contract and the memo (by live set, and by revealed
code in the win search's table) are those of :func:`gamelab.voltorb._small_kernels.small_solve`;
its module doc has the proof that the value depends only on the set of live boards. A child of
at most :data:`gamelab.voltorb._small_kernels.SMALL_MAX` boards is renumbered into one word
(:func:`gamelab.voltorb._wide_set_kernels.compact_child`, from this kernel's masks and inseparable rows) and searched by
:func:`gamelab.voltorb._small_kernels.small_search`: on seed 1005's opening 9 in 10 states have
fewer than 32 boards, and every step on them cost nw words here. The twin is
:func:`gamelab.voltorb._small_kernels.small_solve_python` (plain recursion over frozensets).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.voltorb._bounds_kernels import _inseparable, symmetry_classes
from gamelab.voltorb._small_kernels import (
    SMALL_MAX,
    WEIGHT_CLASSES_MAX,
    light_first,
    low_index,
    small_search,
    small_workspace,
    weight_classes,
)
from gamelab.voltorb._table_kernels import memo_find, memo_store
from gamelab.voltorb._wide_set_kernels import (
    compact_child,
    wide_class_mass,
    wide_count,
    wide_cover,
    wide_hash,
    wide_popcount,
    wide_state_tile,
)
from gamelab.voltorb.rules import TILES

#: the most live boards a state may have for this kernel (8 words of 64 boards)
WIDE_MAX = 512


@njit(cache=True)
def wide_solve(
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
):
    """(value, best tile) of the live boards `idx` (at most :data:`WIDE_MAX`), with the contract
    of :func:`gamelab.voltorb._small_kernels.small_solve` (exact above `alpha`, else an upper
    bound no more than `alpha`; each state stored in `table` under its revealed code; `counter`
    counts the states and stops the search past its limit).

    `adj_start`, `adj`: the inseparable-boards lists of
    :func:`gamelab.voltorb._bounds_kernels.inseparable_lists` (or a one-entry `adj_start` to test
    the pairs directly); `pos`: n int64 scratch, -1 everywhere (left so).

    `idx` must be the boards consistent with `code` and not yet won (as the win search's states
    are), so that with `use_symmetry` a state tries one tile of each class of
    :func:`gamelab.voltorb._bounds_kernels.symmetry_classes` (`clue`: 4 x 5, as there). That
    holds in every state of the search, not only the first: a state's live boards (after peeling)
    are those of its revealed code's consistent, not yet won boards after peeling (peeling a
    subset that contains the other's peeled set gives the same set), and the symmetries of the
    code map that set onto itself with the same weights, so mirrored tiles are worth the same.
    On seed 1005's opening 28 % of the multi-word states have a symmetry (7 % of their tiles
    are mirrors)."""
    k = idx.size
    nw = (k + 63) // 64
    order = np.argsort(-weights[idx], kind="mergesort")
    loc = idx[order]
    w = np.empty(nw * 64)
    w[:] = 0.0
    for i in range(k):
        w[i] = weights[loc[i]]
    masks = np.zeros((TILES, 4, nw), np.int64)
    mult = np.zeros(nw * 64, np.int64)  # tiles with a 2 or 3, per board (25-bit)
    for i in range(k):
        bit = np.int64(1) << (i & 63)
        word = i >> 6
        for t in range(TILES):
            x = boards[loc[i], t]
            masks[t, x, word] |= bit
            if x >= 2:
                mult[i] |= np.int64(1) << t
    insep = np.zeros((k, nw), np.int64)
    if adj_start.size > 1:
        for i in range(k):
            pos[loc[i]] = i
        for i in range(k):
            a = loc[i]
            for j in range(adj_start[a], adj_start[a + 1]):
                p = pos[adj[j]]
                if p >= 0:
                    insep[i, p >> 6] |= np.int64(1) << (p & 63)
        for i in range(k):
            pos[loc[i]] = -1
    else:
        for a in range(k):
            for b in range(a + 1, k):
                if _inseparable(bits, loc[a], loc[b]):
                    insep[a, b >> 6] |= np.int64(1) << (b & 63)
                    insep[b, a >> 6] |= np.int64(1) << (a & 63)
    cls_w = np.zeros(WEIGHT_CLASSES_MAX)
    cls_m = np.zeros((WEIGHT_CLASSES_MAX, nw), np.int64)
    ncls = weight_classes(w, k, cls_w, cls_m, nw)
    # boards with a 2 or 3 on each tile
    tmult = np.zeros((TILES, nw), np.int64)
    for t in range(TILES):
        for j in range(nw):
            tmult[t, j] = masks[t, 2, j] | masks[t, 3, j]
    # a child of at most SMALL_MAX boards is renumbered into one word for small_search
    cpos = np.full(nw * 64, -1, np.int64)
    s_w = np.zeros(SMALL_MAX)
    s_masks = np.zeros((TILES, 4), np.int64)
    s_mult = np.zeros(SMALL_MAX, np.int64)
    s_ws = small_workspace()
    s_insep = np.zeros(SMALL_MAX, np.int64)
    s_cls_w = np.zeros(WEIGHT_CLASSES_MAX)
    s_cls_m = np.zeros((WEIGHT_CLASSES_MAX, 1), np.int64)
    s_cls_m1 = np.zeros(WEIGHT_CLASSES_MAX, np.int64)
    # the memo by live set
    cap = 1 << 10
    keys = np.zeros((cap, nw), np.int64)
    row = np.zeros(cap, np.bool_)
    vals = np.zeros(cap)
    exact = np.zeros(cap, np.bool_)
    used = 0
    depth_max = TILES + 2
    f_set = np.zeros((depth_max, nw), np.int64)
    f_code = np.zeros(depth_max, np.int64)
    f_alpha = np.zeros(depth_max)
    f_la = np.zeros(depth_max)
    f_live = np.zeros((depth_max, nw), np.int64)
    f_won = np.zeros(depth_max)
    f_order = np.zeros((depth_max, TILES), np.int64)
    f_tb = np.zeros((depth_max, TILES))
    f_n = np.zeros(depth_max, np.int64)
    f_oi = np.zeros(depth_max, np.int64)
    f_v = np.zeros(depth_max, np.int64)
    f_cb = np.zeros((depth_max, 4))
    f_val = np.zeros((depth_max, 4), np.int64)  # the values of a tile's children, in search order
    f_cv = np.zeros((depth_max, 4))  # each child's value, by the value shown
    counts = np.zeros(4, np.int64)
    f_acc = np.zeros(depth_max)
    f_run = np.zeros(depth_max)
    f_best = np.zeros(depth_max)
    f_tile = np.zeros(depth_max, np.int64)
    f_ceil = np.zeros(depth_max)
    f_eps = np.zeros(depth_max)
    f_done = np.zeros(depth_max, np.bool_)
    f_cut = np.zeros(depth_max, np.bool_)
    for i in range(k):
        f_set[0, i >> 6] |= np.int64(1) << (i & 63)
    f_alpha[0] = alpha
    f_code[0] = code
    live = np.zeros(nw, np.int64)
    gone = np.zeros(nw, np.int64)
    child = np.zeros(nw, np.int64)
    rem = np.zeros(nw, np.int64)
    common = np.zeros(nw, np.int64)
    tmp_b = np.zeros(TILES)
    no_symmetry = np.arange(TILES)
    depth = 0
    mode = 0
    value = 0.0
    while True:
        d = depth
        if mode == 0:
            h = wide_hash(keys, row, f_set[d], nw, cap)
            known = -1.0
            if row[h]:
                if exact[h] or vals[h] <= f_alpha[d]:
                    value = vals[h]
                    mode = 2
                else:
                    known = vals[h]
            if mode == 0:
                slot = memo_find(table, counter, f_code[d], perms)
                if table[slot, 0] == f_code[d]:
                    if (np.int64(table[slot, 2]) & 1) or table[slot, 1] <= f_alpha[d]:
                        value = table[slot, 1]
                        mode = 2
                    elif known < 0.0 or table[slot, 1] < known:
                        known = table[slot, 1]
            if mode == 0:
                counter[0] += 1
                if counter[0] > counter[1]:
                    counter[2] = 1
                    return 0.0, -1
                for j in range(nw):
                    live[j] = f_set[d, j]
                won = 0.0
                agreed = np.int64(0)
                while True:
                    agreed = np.int64(0)
                    for t in range(TILES):
                        for x in range(4):
                            inside = True
                            for j in range(nw):
                                if (masks[t, x, j] & live[j]) != live[j]:
                                    inside = False
                                    break
                            if inside:
                                agreed |= np.int64(1) << t
                                break
                    any_gone = False
                    for j in range(nw):
                        playing = np.int64(0)
                        for t in range(TILES):
                            if not (agreed >> t) & 1:
                                playing |= tmult[t, j]
                        gone[j] = live[j] & ~playing
                        if gone[j] != 0:
                            any_gone = True
                    if not any_gone:
                        break
                    won += wide_class_mass(w, gone, nw, cls_w, cls_m, ncls)
                    empty = True
                    for j in range(nw):
                        live[j] ^= gone[j]
                        if live[j] != 0:
                            empty = False
                    if empty:
                        break
                f_won[d] = won
                for j in range(nw):
                    f_live[d, j] = live[j]
                la = f_alpha[d] - won
                if f_alpha[d] < 0.0 or la < 0.0:
                    la = -1.0
                f_la[d] = la
                f_best[d] = 0.0
                f_tile[d] = -1
                f_oi[d] = 0
                f_n[d] = 0
                f_done[d] = True
                f_cut[d] = False
                count = wide_count(live, nw, 3)
                if count == 1:
                    f_best[d] = wide_class_mass(w, live, nw, cls_w, cls_m, ncls)
                elif count >= 2:
                    total = wide_class_mass(w, live, nw, cls_w, cls_m, ncls)
                    eps = 1e-12 * total
                    f_eps[d] = eps
                    n = 0
                    safe_tile = -1
                    if use_symmetry and count >= 3:
                        rep = symmetry_classes(clue, f_code[d])
                    else:
                        rep = no_symmetry
                    for t in range(TILES):
                        if (agreed >> t) & 1 or rep[t] != t:
                            continue
                        useful = False
                        safe = True
                        for j in range(nw):
                            if ((masks[t, 2, j] | masks[t, 3, j]) & live[j]) != 0:
                                useful = True
                            if (masks[t, 0, j] & live[j]) != 0:
                                safe = False
                        if not useful:
                            continue
                        if safe:
                            safe_tile = t
                            break
                        f_order[d, n] = t
                        for j in range(nw):
                            child[j] = masks[t, 0, j] & live[j]
                        tmp_b[n] = total - wide_class_mass(w, child, nw, cls_w, cls_m, ncls)
                        n += 1
                    if safe_tile < 0 and count == 2:
                        # two boards, no safe useful tile: the heavier one
                        a = -1
                        b = -1
                        for j in range(nw):
                            m = live[j]
                            while m:
                                low = m & -m
                                if a < 0:
                                    a = j * 64 + low_index(low)
                                else:
                                    b = j * 64 + low_index(low)
                                m ^= low
                        heavy = a if w[a] >= w[b] else b
                        f_best[d] = w[heavy]
                        for t in range(TILES):
                            if (mult[heavy] >> t) & 1 and not (agreed >> t) & 1:
                                f_tile[d] = t
                                break
                    else:
                        f_done[d] = False
                        f_best[d] = -1.0
                        if safe_tile >= 0:
                            f_order[d, 0] = safe_tile
                            f_tb[d, 0] = total
                            f_n[d] = 1
                            f_tile[d] = safe_tile
                            ceil = total
                        else:
                            srt = np.argsort(-tmp_b[:n], kind="mergesort")
                            cand = f_order[d, :n].copy()
                            bnd = tmp_b[:n].copy()
                            for j in range(n):
                                f_order[d, j] = cand[srt[j]]
                                f_tb[d, j] = bnd[srt[j]]
                            f_n[d] = n
                            f_tile[d] = f_order[d, 0]
                            ceil = wide_cover(w, insep, live, nw, rem, common)
                        if known >= 0.0 and known - won < ceil:
                            ceil = known - won
                        f_ceil[d] = ceil
                        if la >= 0.0 and ceil <= la + eps:
                            f_done[d] = True
                            f_cut[d] = True
                            f_la[d] = ceil
                        elif safe_tile < 0:
                            # a floor (see small_search): flip t, then play for the heaviest
                            # board of each child
                            for jt in range(n):
                                t = f_order[d, jt]
                                floor = 0.0
                                for v in range(1, 4):
                                    for j in range(nw):
                                        cm = masks[t, v, j] & live[j]
                                        if cm != 0:
                                            floor += w[j * 64 + low_index(cm & -cm)]
                                            break
                                if floor > f_best[d]:
                                    f_best[d] = floor
                                    f_tile[d] = t
                            if f_best[d] >= ceil - eps:
                                f_done[d] = True
                f_v[d] = 1
                f_acc[d] = 0.0
                mode = 1
        if mode == 1:
            descended = False
            if not f_done[d]:
                while f_oi[d] < f_n[d]:
                    t = f_order[d, f_oi[d]]
                    threshold = max(f_best[d], f_la[d])
                    if f_v[d] == 1:
                        if f_tb[d, f_oi[d]] <= threshold + f_eps[d]:
                            f_oi[d] = f_n[d]
                            break
                        run = 0.0
                        for v in range(1, 4):
                            nonempty = False
                            for j in range(nw):
                                child[j] = masks[t, v, j] & f_live[d, j]
                                if child[j] != 0:
                                    nonempty = True
                            cb = wide_cover(w, insep, child, nw, rem, common) if nonempty else 0.0
                            f_cb[d, v] = cb
                            run += cb
                            counts[v] = wide_popcount(child, nw) if nonempty else 0
                        # the smaller children first (see win_search)
                        light_first(counts, f_val[d])
                        for v in range(4):
                            f_cv[d, v] = 0.0
                        f_run[d] = run
                        if run <= threshold + f_eps[d]:
                            f_tb[d, f_oi[d]] = min(f_tb[d, f_oi[d]], run)
                            f_oi[d] += 1
                            continue
                    small_cut = False
                    while f_v[d] <= 3:
                        vv = f_val[d, f_v[d]]
                        for j in range(nw):
                            child[j] = masks[t, vv, j] & f_live[d, j]
                        count = wide_popcount(child, nw)
                        if count == 0:
                            f_v[d] += 1
                            continue
                        if count <= 2:
                            # one or two boards: the ceiling is the value
                            f_cv[d, vv] = f_cb[d, vv]
                            f_v[d] += 1
                            continue
                        cm = f_cb[d, vv]
                        if count <= SMALL_MAX:
                            # a small child: renumbered into one word and searched there
                            ccode = f_code[d] | (vv << (2 * t))
                            calpha = -1.0 if threshold < 0.0 else threshold - (f_run[d] - cm)
                            slot = memo_find(table, counter, ccode, perms)
                            if table[slot, 0] == ccode and (
                                (np.int64(table[slot, 2]) & 1) or table[slot, 1] <= calpha
                            ):
                                value = table[slot, 1]
                            else:
                                c = compact_child(
                                    boards,
                                    loc,
                                    w,
                                    insep,
                                    child,
                                    nw,
                                    cpos,
                                    s_w,
                                    s_masks,
                                    s_mult,
                                    s_insep,
                                )
                                sn = weight_classes(s_w, c, s_cls_w, s_cls_m, 1)
                                for q in range(WEIGHT_CLASSES_MAX):
                                    s_cls_m1[q] = s_cls_m[q, 0]
                                value, _tile = small_search(
                                    s_w,
                                    s_masks,
                                    s_mult,
                                    s_insep,
                                    c,
                                    s_cls_w,
                                    s_cls_m1,
                                    sn,
                                    ccode,
                                    calpha,
                                    table,
                                    counter,
                                    s_ws,
                                    perms,
                                )
                                if counter[2]:
                                    return 0.0, -1
                            f_cv[d, vv] = value
                            f_run[d] -= cm - value
                            f_v[d] += 1
                            if f_run[d] <= threshold + f_eps[d]:
                                small_cut = True
                                break
                            continue
                        for j in range(nw):
                            f_set[d + 1, j] = child[j]
                        f_code[d + 1] = f_code[d] | (vv << (2 * t))
                        f_alpha[d + 1] = -1.0 if threshold < 0.0 else threshold - (f_run[d] - cm)
                        depth = d + 1
                        descended = True
                        break
                    if descended:
                        break
                    if small_cut:
                        # this tile cannot beat the best (or alpha) any more
                        f_tb[d, f_oi[d]] = min(f_tb[d, f_oi[d]], f_run[d])
                        f_oi[d] += 1
                        f_v[d] = 1
                        f_acc[d] = 0.0
                        continue
                    # the children's values summed in value order (see small_search)
                    f_acc[d] = 0.0
                    for v in range(1, 4):
                        f_acc[d] += f_cv[d, v]
                    f_tb[d, f_oi[d]] = f_acc[d]  # the tile's exact value
                    if f_acc[d] > f_best[d] + f_eps[d]:
                        f_best[d] = f_acc[d]
                        f_tile[d] = t
                    f_oi[d] += 1
                    f_v[d] = 1
                    f_acc[d] = 0.0
                    if f_best[d] >= f_ceil[d] - f_eps[d]:
                        f_oi[d] = f_n[d]
            if descended:
                mode = 0
                continue
            la = f_la[d]
            if f_done[d]:
                is_exact = not f_cut[d]
            else:
                is_exact = la < 0.0 or f_best[d] > la + f_eps[d]
            if is_exact:
                value = f_won[d] + f_best[d]
            elif f_done[d]:
                value = f_won[d] + la
            else:
                # fail soft (see small_search): the largest bound a tile was left with
                soft = f_best[d]
                for j in range(f_n[d]):
                    soft = max(soft, f_tb[d, j])
                value = f_won[d] + min(soft, la)
            if used * 2 >= cap:
                ncap = cap * 4
                nkeys = np.zeros((ncap, nw), np.int64)
                nrow = np.zeros(ncap, np.bool_)
                nvals = np.zeros(ncap)
                nexact = np.zeros(ncap, np.bool_)
                for i in range(cap):
                    if row[i]:
                        hh = wide_hash(nkeys, nrow, keys[i], nw, ncap)
                        nrow[hh] = True
                        for j in range(nw):  # not a row assignment (see enumerate_boards)
                            nkeys[hh, j] = keys[i, j]
                        nvals[hh] = vals[i]
                        nexact[hh] = exact[i]
                keys = nkeys
                row = nrow
                vals = nvals
                exact = nexact
                cap = ncap
            h = wide_hash(keys, row, f_set[d], nw, cap)
            if not row[h]:
                used += 1
                row[h] = True
                for j in range(nw):
                    keys[h, j] = f_set[d, j]
            vals[h] = value
            exact[h] = is_exact
            tile = -1
            if is_exact:
                tile = wide_state_tile(masks, mult, f_set[d], nw, f_code[d], f_tile[d], gone)
            memo_store(table, counter, f_code[d], value, is_exact, tile, perms)
            if counter[2]:
                return 0.0, -1
            if d == 0:
                f_tile[0] = tile
            mode = 2
        if d == 0:
            return value, f_tile[0]
        depth = d - 1
        p = depth
        f_cv[p, f_val[p, f_v[p]]] = value
        f_run[p] -= f_cb[p, f_val[p, f_v[p]]] - value
        f_v[p] += 1
        if f_run[p] <= max(f_best[p], f_la[p]) + f_eps[p]:
            f_tb[p, f_oi[p]] = min(f_tb[p, f_oi[p]], f_run[p])
            f_oi[p] += 1
            f_v[p] = 1
            f_acc[p] = 0.0
        mode = 1
