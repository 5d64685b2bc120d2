"""The exact win search on a state of at most 62 live boards, on bit masks (a numba kernel).

Most states of a hard search are small (on a level-8 opening 9 in 10 have at most 50 live
boards), and there the general search's per-state cost (25 x 4 mass tables, symmetry classes,
dominance) is far larger than the work itself. Here a set of live boards is one int64 bit mask
over the state's boards, and a flip is one AND per value.

**The value of a state depends only on its set L of live boards.** Every revealed tile shows one
value on all of L. A hidden tile on which all of L agree is worth nothing if it is a 0 or 1, and
if it is a 2 or 3 it is safe and tells nothing, so flipping it at once loses nothing; so the
value with such tiles hidden equals the value with them revealed, whatever else was revealed. So

    V(L) = W(won(L)) + V(L \\ won(L))       won(L): boards whose every 2/3 is on an agreed tile
    V(L) = max over useful tiles t of  sum_{v = 1, 2, 3} V(L & M[t, v])       (no board won)

with W the prior mass, M[t, v] the boards with value v on t, and t useful when L does not agree
on it and some board of L has a 2 or 3 there. A useful tile that is a Voltorb on no board of L
is flipped with no alternative tried (free information). |L| <= 1 is won; two boards with no
safe useful tile are worth the heavier one (the first flip that tells them apart is a Voltorb
on one of them). States are memoised by L (so transpositions merge even when the revealed
tiles differ). Exact pruning: tiles are tried in decreasing order of W(L) - W(t is a Voltorb),
which bounds their value, a tile is dropped as soon as its children so far prove it cannot beat
the best, and the search of a state stops when a tile reaches the inseparable-boards bound
(:func:`gamelab.voltorb._bounds_kernels.pair_bound`, here on masks).

Two cheap facts cut further: a state's *floor* (flip t, then play for the heaviest board of each
child: a policy, so its value is at most the optimum) starts the search's best, so tiles that
cannot beat it are skipped, and a floor at the ceiling solves the state at once; and a set's mass
is a popcount per weight class (the prior gives few distinct board weights: 2 on seed 1005's
level-8 opening), not one add per board.

The recursion runs on an explicit stack (a second cached recursive kernel can crash numba on
load, DEVELOPERS.md). The twin is :func:`small_solve_python` (plain recursion over frozensets).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from gamelab.voltorb._bounds_kernels import _inseparable
from gamelab.voltorb._table_kernels import memo_find, memo_store, spread
from gamelab.voltorb.rules import TILES

#: the most live boards a state may have for this kernel (one int64 bit per board, sign bit free)
SMALL_MAX = 62

_DEBRUIJN = 0x03F79D71B4CB0A89
_BIT_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    _BIT_INDEX[(((1 << _i) * _DEBRUIJN) & 0xFFFFFFFFFFFFFFFF) >> 58] = _i
_DEBRUIJN_SIGNED = _DEBRUIJN  # < 2**63: also a valid int64


@njit(cache=True)
def low_index(low):
    """Index of the single set bit of `low` (a power of two below 2**62)."""
    return _BIT_INDEX[((low * _DEBRUIJN_SIGNED) >> 58) & 63]


#: the most distinct board weights for which a set's mass is counted by popcounts per weight
#: class (the hgss prior has 1 to 4 on the positions measured; more: one add per board)
WEIGHT_CLASSES_MAX = 8


@intrinsic
def ctpop(typingctx, x):
    """The number of set bits of an int64 (LLVM's ctpop: one popcnt instruction)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True)
def _mass(w, m):
    s = 0.0
    while m:
        low = m & -m
        s += w[low_index(low)]
        m ^= low
    return s


@njit(cache=True)
def _pmass(w, m, cls_w, cls_m, ncls):
    """Prior mass of the boards of `m`: per weight class, the class weight times a popcount
    (boards numbered heaviest first, so a class is a run of bits); ncls = 0: one add per board."""
    if ncls == 0:
        return _mass(w, m)
    s = 0.0
    for c in range(ncls):
        s += cls_w[c] * ctpop(m & cls_m[c])
    return s


@njit(cache=True)
def weight_classes(w, k, cls_w, cls_m, nw):
    """Fill the weight classes of the k boards of weights `w` (descending): class c has weight
    cls_w[c] and the boards of the nw-word mask cls_m[c]; returns their number, or 0 if there
    are more than WEIGHT_CLASSES_MAX (then masses are summed board by board)."""
    ncls = 0
    for i in range(k):
        if ncls == 0 or w[i] != cls_w[ncls - 1]:
            if ncls == WEIGHT_CLASSES_MAX:
                return 0
            cls_w[ncls] = w[i]
            for j in range(nw):
                cls_m[ncls, j] = 0
            ncls += 1
        cls_m[ncls - 1, i >> 6] |= np.int64(1) << (i & 63)
    return ncls


@njit(cache=True)
def light_first(counts, values):
    """The values 1, 2, 3 of a flip into ``values[1:4]``, fewest boards first (``counts[v]``,
    ties in value order): the order in which the searches take a flip's children. Any order
    gives the same value; solving the small (cheap) children first narrows the window of the
    large ones, which the order 1, 2, 3 took first (1s are the most common value): the hard
    openings' searches fell by half (``benchmarks/voltorb_hard_openings.py``)."""
    for i in range(1, 4):
        values[i] = i
    for i in range(2, 4):
        v = values[i]
        j = i
        while j > 1 and counts[values[j - 1]] > counts[v]:
            values[j] = values[j - 1]
            j -= 1
        values[j] = v


def light_first_python(counts) -> list[int]:
    """Plain-Python twin of :func:`light_first`: the values 1, 2, 3, fewest boards first."""
    return sorted((1, 2, 3), key=lambda v: (int(counts[v]), v))


@njit(cache=True)
def _cover(w, insep, live):
    """The inseparable-boards ceiling of `live` (greedy cover, heaviest first; see pair_bound)."""
    rem = live
    ceil = 0.0
    while rem:
        low = rem & -rem
        a = low_index(low)
        ceil += w[a]
        rem ^= low
        common = rem & insep[a]
        while common:
            lb = common & -common
            rem ^= lb
            common &= insep[low_index(lb)]
    return ceil


@njit(cache=True)
def _state_tile(masks, mult, lset, code, tile):
    """The best tile to store for the state `code` whose boards are `lset`: a tile safe and
    useful on the boards not yet won at `code` if there is one (free information is always an
    optimal flip; the search peeled such boards off without flipping), else `tile`, the search's
    choice on the rest."""
    hidden = np.int64(0)
    for t in range(TILES):
        if ((code >> (2 * t)) & 3) == 0:
            hidden |= np.int64(1) << t
    playing = np.int64(0)
    m = lset
    while m:
        low = m & -m
        if (mult[low_index(low)] & hidden) != 0:
            playing |= low
        m ^= low
    for t in range(TILES):
        if (hidden >> t) & 1 and (masks[t, 0] & playing) == 0:
            if ((masks[t, 2] | masks[t, 3]) & playing) != 0:
                return t
    return tile


@njit(cache=True)
def small_solve(boards, weights, bits, idx, code, alpha, table, counter, perms):
    """(value, best tile) of the live boards `idx` (at most :data:`SMALL_MAX`): the prior mass
    an optimal policy clears (see the module doc), with the win search's fail-low contract: the
    value is exact when it exceeds `alpha`, otherwise it is an upper bound no more than `alpha`
    (alpha < 0: always exact). The best tile is the root's when the value is exact: the first,
    in the order tried, whose value is the optimum (a safe useful tile if there is one).

    Each state also goes to the win search's memo `table` under its revealed `code` (2 bits per
    tile), so states met again from another small state are found there (transpositions between
    small searches), and the memo by live set catches the rest within this one.
    `counter` is the win search's: [0] counts the states searched (each memo miss), and past the
    limit [1] the search stops with [2] = 1 (the value is then meaningless)."""
    k = idx.size
    # local boards, heaviest first (the greedy cover of the pair bound takes them in this order)
    order = np.argsort(-weights[idx], kind="mergesort")
    loc = idx[order]
    w = np.empty(k)
    for i in range(k):
        w[i] = weights[loc[i]]
    masks = np.zeros((TILES, 4), np.int64)
    mult = np.zeros(k, np.int64)  # tiles with a 2 or 3, per board (25-bit)
    for i in range(k):
        bit = np.int64(1) << i
        for t in range(TILES):
            x = boards[loc[i], t]
            masks[t, x] |= bit
            if x >= 2:
                mult[i] |= np.int64(1) << t
    # inseparable pairs (see pair_bound): every difference a Voltorb on exactly one, each with a
    # multiplier among the differences
    insep = np.zeros(k, np.int64)
    for a in range(k):
        for b in range(a + 1, k):
            if _inseparable(bits, loc[a], loc[b]):
                insep[a] |= np.int64(1) << b
                insep[b] |= np.int64(1) << a
    cls_w = np.zeros(WEIGHT_CLASSES_MAX)
    cls_m = np.zeros((WEIGHT_CLASSES_MAX, 1), np.int64)
    ncls = weight_classes(w, k, cls_w, cls_m, 1)
    return small_search(
        w,
        masks,
        mult,
        insep,
        k,
        cls_w,
        cls_m[:, 0].copy(),
        ncls,
        code,
        alpha,
        table,
        counter,
        small_workspace(),
        perms,
    )


#: the rows of small_search's memo at the start of a call (it grows 4x at half full)
MEMO_START = 1 << 10


@njit(cache=True)
def small_workspace():
    """Scratch space of :func:`small_search`, made once and handed to each call (a caller that
    makes many calls, like wide_solve, saves allocating and clearing it every time): the frames'
    floats, ints and flags, their tile orders and bounds, the children's ceilings, a tile buffer,
    the memo's keys, values, exact flags, stamps and the last call's number, and the order of
    each frame's children (:func:`light_first`) with their values."""
    depth_max = TILES + 2
    return (
        np.zeros((8, depth_max)),
        np.zeros((7, depth_max), np.int64),
        np.zeros((2, depth_max), np.bool_),
        np.zeros((depth_max, TILES), np.int64),
        np.zeros((depth_max, TILES)),
        np.zeros((depth_max, 4)),
        np.zeros(TILES),
        np.zeros(MEMO_START, np.int64),
        np.zeros(MEMO_START),
        np.zeros(MEMO_START, np.bool_),
        np.zeros(MEMO_START, np.int64),
        np.zeros(1, np.int64),
        np.zeros((depth_max, 4), np.int64),
        np.zeros((depth_max, 4)),
    )


@njit(cache=True)
def small_search(
    w, masks, mult, insep, k, cls_w, cls_m, ncls, code, alpha, table, counter, ws, perms
):
    """The search of :func:`small_solve` on boards already set up: `w` their weights (heaviest
    first), `masks[t, x]` the boards with value x on tile t, `mult` each board's multiplier tiles,
    `insep` each board's inseparable partners, `cls_w`, `cls_m`, `ncls` the weight classes
    (:func:`weight_classes`), all as bits 0 .. k - 1 of one int64. The multi-word search
    (:func:`gamelab.voltorb._wide_kernels.wide_solve`) hands its states of at most
    :data:`SMALL_MAX` boards here, all with one scratch space `ws` (:func:`small_workspace`): a
    call allocated and cleared about 30 arrays before (on seed 1005's opening 319,000 calls, a
    third of which search one state), which cost about 3 % of the opening's CPU time."""
    # the memo: open addressing on the mask; a value, and whether it is exact (else it is an
    # upper bound); a row is this call's when its stamp is this call's number, so the
    # workspace's rows need no clearing between calls
    keys = ws[7]
    vals = ws[8]
    exact = ws[9]
    stamp = ws[10]
    gen = ws[11][0] + 1
    ws[11][0] = gen
    cap = keys.size
    used = 0
    # the stack: one frame per flip on the path (at most 25 deep); every field of a frame is set
    # when it is opened (or by its parent, before), so the workspace's rows are not cleared
    f_alpha = ws[0][0]  # the caller's alpha for V(L)
    f_la = ws[0][1]  # alpha for the live part (after the won boards)
    f_won = ws[0][2]  # W(won(L))
    f_acc = ws[0][3]
    f_run = ws[0][4]  # the current tile's bound, tightened by its solved children
    f_best = ws[0][5]
    f_ceil = ws[0][6]
    f_eps = ws[0][7]
    f_set = ws[1][0]  # the state's L (the memo key)
    f_code = ws[1][1]  # its revealed code (the win search's memo key)
    f_live = ws[1][2]  # L without its won boards
    f_n = ws[1][3]
    f_oi = ws[1][4]
    f_v = ws[1][5]
    f_tile = ws[1][6]
    f_done = ws[2][0]  # solved at its opening
    f_cut = ws[2][1]  # failed low at its opening (the ceiling)
    f_order = ws[3]
    f_tb = ws[4]  # each tile's bound
    f_cb = ws[5]  # the ceiling of each child of the tile being tried
    tmp_b = ws[6]
    f_val = ws[12]  # the values of the current tile's children, in search order
    f_cv = ws[13]  # each child's value, by the value shown
    counts = np.zeros(4, np.int64)
    # boards with a 2 or 3 on each tile (won boards: no multiplier left off the agreed tiles)
    tmult = np.zeros(TILES, np.int64)
    for t in range(TILES):
        tmult[t] = masks[t, 2] | masks[t, 3]
    f_set[0] = (np.int64(1) << k) - 1
    f_alpha[0] = alpha
    f_code[0] = code
    depth = 0
    mode = 0  # 0 open the frame, 1 go on with it, 2 it returns `value`
    value = 0.0
    while True:
        d = depth
        if mode == 0:
            lset = f_set[d]
            h = spread(lset) & (cap - 1)
            while stamp[h] == gen and keys[h] != lset:
                h = (h + 1) & (cap - 1)
            known = -1.0
            if stamp[h] == gen:
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
                # peel off the won boards until none is left (each peel can add agreed tiles)
                live = lset
                won = 0.0
                agreed = 0
                while True:
                    agreed = 0
                    for t in range(TILES):
                        for x in range(4):
                            if (masks[t, x] & live) == live:
                                agreed |= np.int64(1) << t
                                break
                    playing = np.int64(0)
                    for t in range(TILES):
                        if not (agreed >> t) & 1:
                            playing |= tmult[t]
                    gone = live & ~playing
                    if gone == 0:
                        break
                    won += _pmass(w, gone, cls_w, cls_m, ncls)
                    live ^= gone
                    if live == 0:
                        break
                f_won[d] = won
                f_live[d] = live
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
                if live != 0 and (live & (live - 1)) == 0:
                    f_best[d] = _pmass(w, live, cls_w, cls_m, ncls)  # one board: cleared
                elif live != 0:
                    total = _pmass(w, live, cls_w, cls_m, ncls)
                    eps = 1e-12 * total
                    f_eps[d] = eps
                    n = 0
                    safe_tile = -1
                    for t in range(TILES):
                        if (agreed >> t) & 1 or ((masks[t, 2] | masks[t, 3]) & live) == 0:
                            continue
                        if (masks[t, 0] & live) == 0:
                            safe_tile = t
                            break
                        f_order[d, n] = t
                        tmp_b[n] = total - _pmass(w, masks[t, 0] & live, cls_w, cls_m, ncls)
                        n += 1
                    two = live & (live - 1)
                    if safe_tile < 0 and (two & (two - 1)) == 0:
                        # two boards, no safe useful tile: the heavier one
                        a = low_index(live & -live)
                        b = low_index(two)
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
                            # decreasing bound, ties in tile order (an insertion sort in
                            # place: a state has at most 25 tiles)
                            for j in range(n):
                                tj = f_order[d, j]
                                bj = tmp_b[j]
                                i = j
                                while i > 0 and f_tb[d, i - 1] < bj:
                                    f_order[d, i] = f_order[d, i - 1]
                                    f_tb[d, i] = f_tb[d, i - 1]
                                    i -= 1
                                f_order[d, i] = tj
                                f_tb[d, i] = bj
                            f_n[d] = n
                            f_tile[d] = f_order[d, 0]
                            ceil = _cover(w, insep, live)
                        if known >= 0.0 and known - won < ceil:
                            ceil = known - won
                        f_ceil[d] = ceil
                        if la >= 0.0 and ceil <= la + eps:
                            # fail low at once: the ceiling cannot beat alpha
                            f_done[d] = True
                            f_cut[d] = True
                            f_la[d] = ceil  # reported as the upper bound (see the finish)
                        elif safe_tile < 0:
                            # a floor: flip t, then play for the heaviest board of each child
                            # (bit order is weight order); the best tile starts there, and a
                            # floor at the ceiling solves the state
                            for j in range(n):
                                t = f_order[d, j]
                                floor = 0.0
                                for v in range(1, 4):
                                    cm = masks[t, v] & live
                                    if cm != 0:
                                        floor += w[low_index(cm & -cm)]
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
            live = f_live[d]
            if not f_done[d]:
                while f_oi[d] < f_n[d]:
                    t = f_order[d, f_oi[d]]
                    threshold = max(f_best[d], f_la[d])
                    if f_v[d] == 1:
                        if f_tb[d, f_oi[d]] <= threshold + f_eps[d]:
                            f_oi[d] = f_n[d]
                            break  # tiles are in decreasing order of this bound
                        # the children's own ceilings tighten the tile's bound
                        run = 0.0
                        for v in range(1, 4):
                            child = masks[t, v] & live
                            cb = _cover(w, insep, child) if child != 0 else 0.0
                            f_cb[d, v] = cb
                            run += cb
                            counts[v] = ctpop(child)
                        light_first(counts, f_val[d])
                        for v in range(4):
                            f_cv[d, v] = 0.0
                        f_run[d] = run
                        if run <= threshold + f_eps[d]:
                            f_tb[d, f_oi[d]] = min(f_tb[d, f_oi[d]], run)
                            f_oi[d] += 1
                            continue
                    while f_v[d] <= 3:
                        vv = f_val[d, f_v[d]]
                        child = masks[t, vv] & live
                        two = child & (child - 1)
                        if child != 0 and (two & (two - 1)) == 0:
                            # one or two boards: the ceiling is the value (one board is cleared,
                            # two both unless they are inseparable, then the heavier one)
                            f_cv[d, vv] = f_cb[d, vv]
                            f_v[d] += 1
                            continue
                        if child != 0:
                            cm = f_cb[d, vv]
                            f_set[d + 1] = child
                            f_code[d + 1] = f_code[d] | (vv << (2 * t))
                            f_alpha[d + 1] = (
                                -1.0 if threshold < 0.0 else threshold - (f_run[d] - cm)
                            )
                            depth = d + 1
                            descended = True
                            break
                        f_v[d] += 1
                    if descended:
                        break
                    # the children's values summed in value order, whatever order they were
                    # searched in: the same sum to the last bit as the order 1, 2, 3
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
                # fail soft: the largest bound any tile was left with (each tile's is what its
                # covers or its searched children proved), never above alpha
                soft = f_best[d]
                for j in range(f_n[d]):
                    soft = max(soft, f_tb[d, j])
                value = f_won[d] + min(soft, la)
            # memoise L (grow the table at half full)
            if used * 2 >= cap:
                ncap = cap * 4
                nkeys = np.zeros(ncap, np.int64)
                nvals = np.zeros(ncap)
                nexact = np.zeros(ncap, np.bool_)
                nstamp = np.zeros(ncap, np.int64)
                for i in range(cap):
                    if stamp[i] == gen:
                        h = spread(keys[i]) & (ncap - 1)
                        while nstamp[h] == gen:
                            h = (h + 1) & (ncap - 1)
                        nkeys[h] = keys[i]
                        nvals[h] = vals[i]
                        nexact[h] = exact[i]
                        nstamp[h] = gen
                keys = nkeys
                vals = nvals
                exact = nexact
                stamp = nstamp
                cap = ncap
            lset = f_set[d]
            h = spread(lset) & (cap - 1)
            while stamp[h] == gen and keys[h] != lset:
                h = (h + 1) & (cap - 1)
            if stamp[h] != gen:
                used += 1
                stamp[h] = gen
            keys[h] = lset
            vals[h] = value
            exact[h] = is_exact
            tile = -1
            if is_exact:
                tile = _state_tile(masks, mult, f_set[d], f_code[d], f_tile[d])
            memo_store(table, counter, f_code[d], value, is_exact, tile, perms)
            if counter[2]:
                return 0.0, -1  # the memo is full (or the limit is reached): the caller retries
            if d == 0:
                f_tile[0] = tile
            mode = 2
        # mode 2: the frame at depth d returns `value`
        if d == 0:
            return value, f_tile[0]
        depth = d - 1
        p = depth
        f_cv[p, f_val[p, f_v[p]]] = value
        f_run[p] -= f_cb[p, f_val[p, f_v[p]]] - value
        f_v[p] += 1
        if f_run[p] <= max(f_best[p], f_la[p]) + f_eps[p]:
            # this tile cannot beat the best (or alpha) any more: go to the next one
            f_tb[p, f_oi[p]] = min(f_tb[p, f_oi[p]], f_run[p])
            f_oi[p] += 1
            f_v[p] = 1
            f_acc[p] = 0.0
        mode = 1


def small_solve_python(boards, weights, idx) -> float:
    """Plain-Python twin of :func:`small_solve`'s value: the recursion of the module doc over
    frozensets of board indices, with no pruning."""
    rows = {int(b): [int(x) for x in boards[b]] for b in idx}
    wt = {b: float(weights[b]) for b in rows}
    memo: dict[frozenset[int], float] = {}

    def value(live: frozenset[int]) -> float:
        if live in memo:
            return memo[live]
        agreed = {t for t in range(TILES) if len({rows[b][t] for b in live}) == 1}
        won = {b for b in live if all(t in agreed for t in range(TILES) if rows[b][t] >= 2)}
        if won:
            rest = live - won
            out = sum(wt[b] for b in won) + (value(frozenset(rest)) if rest else 0.0)
        elif len(live) == 1:
            out = sum(wt[b] for b in live)
        else:
            best = 0.0
            for t in range(TILES):
                if t in agreed or not any(rows[b][t] >= 2 for b in live):
                    continue
                acc = 0.0
                for v in (1, 2, 3):
                    child = frozenset(b for b in live if rows[b][t] == v)
                    if child:
                        acc += value(child)
                best = max(best, acc)
            out = best
        memo[live] = out
        return out

    return value(frozenset(rows))
