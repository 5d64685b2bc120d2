"""Hot loop of the exact posterior: enumerate every board consistent with clues and revealed tiles.

Depth-first over rows 0-3, each row taking one of the (at most ~100) value patterns that match its
sum, Voltorb count and revealed tiles, pruned by what the columns can still hold; row 4 is then
forced by the column clues. For each board the features that decide its prior weight are recorded:
number of 3s, free-multiplier total (capped at 6) and the busiest line's free count (see
:mod:`gamelab.voltorb.prior`).

``enumerate_boards`` is the numba kernel; ``enumerate_boards_py`` is its plain-Python twin (same
order, same output) used by the tests and the benchmark.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SIZE = 5
TILES = 25
FREE_TOTAL_CAP = 6
#: states with more live boards than this skip the O(k^2) pair bound (only the search's root
#: usually has that many)
PAIR_BOUND_MAX = 100000


def _all_row_patterns() -> np.ndarray:
    grid = np.indices((4,) * SIZE).reshape(SIZE, -1).T  # 1024 x 5, row-major value order
    return np.ascontiguousarray(grid.astype(np.int8))


ROW_PATTERNS = _all_row_patterns()


@njit(cache=True)
def _features(board, free_row, free_col):
    threes = 0
    total = 0
    row_free = np.zeros(SIZE, np.int64)
    col_free = np.zeros(SIZE, np.int64)
    for r in range(SIZE):
        for c in range(SIZE):
            v = board[r * SIZE + c]
            if v == 3:
                threes += 1
            if v >= 2 and (free_row[r] or free_col[c]):
                total += 1
                row_free[r] += 1
                col_free[c] += 1
    busiest = max(row_free.max(), col_free.max())
    return threes, min(total, FREE_TOTAL_CAP), busiest


@njit(cache=True)
def enumerate_boards(patterns, row_sums, row_volts, col_sums, col_volts, known):
    """All consistent boards (n x 25 int8, row-major) and their features (n x 3 int64)."""
    npat = patterns.shape[0]
    cand = np.empty((SIZE, npat), np.int64)
    ncand = np.zeros(SIZE, np.int64)
    for r in range(SIZE - 1):
        for p in range(npat):
            s = 0
            nv = 0
            ok = True
            for c in range(SIZE):
                v = patterns[p, c]
                s += v
                if v == 0:
                    nv += 1
                k = known[r * SIZE + c]
                if k >= 0 and k != v:
                    ok = False
            if ok and s == row_sums[r] and nv == row_volts[r]:
                cand[r, ncand[r]] = p
                ncand[r] += 1
    free_row = np.zeros(SIZE, np.bool_)
    free_col = np.zeros(SIZE, np.bool_)
    for i in range(SIZE):
        free_row[i] = row_volts[i] == 0
        free_col[i] = col_volts[i] == 0

    cap = 1024
    boards = np.empty((cap, TILES), np.int8)
    feats = np.empty((cap, 3), np.int64)
    n = 0
    csum = np.zeros((SIZE, SIZE), np.int64)  # csum[d] = column sums of rows 0..d-1
    cvol = np.zeros((SIZE, SIZE), np.int64)
    pos = np.full(SIZE, -1, np.int64)
    board = np.empty(TILES, np.int8)
    d = 0
    while d >= 0:
        pos[d] += 1
        if pos[d] >= ncand[d]:
            pos[d] = -1
            d -= 1
            continue
        p = cand[d, pos[d]]
        left = SIZE - 1 - d  # rows still to fill after this one
        ok = True
        for c in range(SIZE):
            v = patterns[p, c]
            cs = csum[d, c] + v
            cv = cvol[d, c] + (1 if v == 0 else 0)
            csum[d + 1, c] = cs
            cvol[d + 1, c] = cv
            rv = col_volts[c] - cv
            rs = col_sums[c] - cs
            cards = left - rv
            if rv < 0 or rv > left or rs < cards or rs > 3 * cards:
                ok = False
                break
        if not ok:
            continue
        for c in range(SIZE):
            board[d * SIZE + c] = patterns[p, c]
        if d < SIZE - 2:
            d += 1
            continue
        # last row forced by the columns
        s = 0
        nv = 0
        for c in range(SIZE):
            rv = col_volts[c] - cvol[SIZE - 1, c]
            rs = col_sums[c] - csum[SIZE - 1, c]
            v = 0 if rv == 1 else rs
            if rv == 1 and rs != 0:
                ok = False
            k = known[(SIZE - 1) * SIZE + c]
            if k >= 0 and k != v:
                ok = False
            board[(SIZE - 1) * SIZE + c] = v
            s += v
            if v == 0:
                nv += 1
        if not ok or s != row_sums[SIZE - 1] or nv != row_volts[SIZE - 1]:
            continue
        if n == cap:
            cap *= 2
            nb = np.empty((cap, TILES), np.int8)
            nf = np.empty((cap, 3), np.int64)
            nb[:n] = boards[:n]
            nf[:n] = feats[:n]
            boards = nb
            feats = nf
        boards[n] = board
        t3, ft, fb = _features(board, free_row, free_col)
        feats[n, 0] = t3
        feats[n, 1] = ft
        feats[n, 2] = fb
        n += 1
    return boards[:n].copy(), feats[:n].copy()


def enumerate_boards_py(patterns, row_sums, row_volts, col_sums, col_volts, known):
    """Plain-Python twin of :func:`enumerate_boards` (recursive, same output order)."""
    patterns = [tuple(int(x) for x in p) for p in np.asarray(patterns)]
    row_sums = [int(x) for x in row_sums]
    row_volts = [int(x) for x in row_volts]
    col_sums = [int(x) for x in col_sums]
    col_volts = [int(x) for x in col_volts]
    known = [int(x) for x in known]
    cands = []
    for r in range(SIZE - 1):
        cands.append(
            [
                p
                for p in patterns
                if sum(p) == row_sums[r]
                and p.count(0) == row_volts[r]
                and all(known[r * SIZE + c] in (-1, p[c]) for c in range(SIZE))
            ]
        )
    free_row = [v == 0 for v in row_volts]
    free_col = [v == 0 for v in col_volts]
    boards: list[list[int]] = []
    feats: list[tuple[int, int, int]] = []

    def features(b: list[int]) -> tuple[int, int, int]:
        free = [
            (r, c)
            for r in range(SIZE)
            for c in range(SIZE)
            if b[r * SIZE + c] >= 2 and (free_row[r] or free_col[c])
        ]
        busiest = max(
            [sum(1 for f in free if f[0] == i) for i in range(SIZE)]
            + [sum(1 for f in free if f[1] == i) for i in range(SIZE)]
        )
        return b.count(3), min(len(free), FREE_TOTAL_CAP), busiest

    def go(d: int, rows: list[tuple[int, ...]], csum: list[int], cvol: list[int]) -> None:
        if d == SIZE - 1:
            last = []
            for c in range(SIZE):
                rv, rs = col_volts[c] - cvol[c], col_sums[c] - csum[c]
                if rv == 1 and rs != 0:
                    return
                last.append(0 if rv == 1 else rs)
            if sum(last) != row_sums[-1] or last.count(0) != row_volts[-1]:
                return
            if any(known[(SIZE - 1) * SIZE + c] not in (-1, last[c]) for c in range(SIZE)):
                return
            b = [v for row in rows for v in row] + last
            boards.append(b)
            feats.append(features(b))
            return
        left = SIZE - 1 - d
        for p in cands[d]:
            ns = [csum[c] + p[c] for c in range(SIZE)]
            nv = [cvol[c] + (p[c] == 0) for c in range(SIZE)]
            ok = True
            for c in range(SIZE):
                rv, rs = col_volts[c] - nv[c], col_sums[c] - ns[c]
                cards = left - rv
                if rv < 0 or rv > left or rs < cards or rs > 3 * cards:
                    ok = False
                    break
            if ok:
                go(d + 1, rows + [p], ns, nv)

    go(0, [], [0] * SIZE, [0] * SIZE)
    return (
        np.array(boards, dtype=np.int8).reshape(-1, TILES),
        np.array(feats, dtype=np.int64).reshape(-1, 3),
    )


@njit(cache=True)
def flip_bounds(boards, weights, hidden_mult, revealed_mask):
    """Per tile t and value v (25 x 4): prior mass of t = v, mass of boards won by that flip, and
    an upper bound on the mass a policy can still win afterwards (live mass minus the smallest
    Voltorb mass among the child's useful tiles, unless the child has a safe useful tile).

    `boards` (k x 25) are the live boards of a state, `hidden_mult` their unrevealed 2s/3s,
    `revealed_mask` (25,) the revealed tiles. Cost O(k * 25 * 25).
    """
    return _bounds_on(boards, weights, np.arange(boards.shape[0]), hidden_mult, 0, revealed_mask)


def flip_bounds_py(boards, weights, hidden_mult, revealed_mask):
    """Plain-Python twin of :func:`flip_bounds`."""
    mass = np.zeros((TILES, 4))
    won = np.zeros((TILES, 4))
    v_in = np.zeros((TILES, 4, TILES))
    m_in = np.zeros((TILES, 4, TILES))
    for b in range(len(boards)):
        w = float(weights[b])
        row = [int(x) for x in boards[b]]
        for t in range(TILES):
            if revealed_mask[t]:
                continue
            v = row[t]
            mass[t, v] += w
            if v == 0:
                continue
            if hidden_mult[b] - (v >= 2) == 0:
                won[t, v] += w
                continue
            for u in range(TILES):
                if row[u] == 0:
                    v_in[t, v, u] += w
                elif row[u] >= 2:
                    m_in[t, v, u] += w
    bound = np.zeros((TILES, 4))
    for t in range(TILES):
        if revealed_mask[t]:
            continue
        for v in (1, 2, 3):
            live = mass[t, v] - won[t, v]
            if live <= 0:
                continue
            useful = [u for u in range(TILES) if u != t and not revealed_mask[u] and m_in[t, v, u] > 0]
            risks = [v_in[t, v, u] for u in useful]
            if risks and min(risks) <= 0:
                bound[t, v] = live
            else:
                bound[t, v] = live - min([live] + risks)
    return mass, won, bound


@njit(cache=True)
def _bounds_on(boards, weights, idx, hm0, nrev_mult, revealed_mask):
    """:func:`flip_bounds` on the boards `idx` whose hidden multipliers are hm0 - nrev_mult.

    Same result, cheaper: per board only its Voltorb tiles are visited (about 10 of 25), and the
    multiplier tiles of each child are kept as a bit mask instead of masses."""
    mass = np.zeros((TILES, 4))
    won = np.zeros((TILES, 4))
    v_in_child = np.zeros((TILES, 4, TILES))
    m_in_child = np.zeros((TILES, 4), np.int64)
    vt = np.empty(TILES, np.int64)
    for i in range(idx.size):
        b = idx[i]
        w = weights[b]
        hm = hm0[b] - nrev_mult
        nv = 0
        mbits = 0
        for u in range(TILES):
            x = boards[b, u]
            if x == 0:
                vt[nv] = u
                nv += 1
            elif x >= 2:
                mbits |= 1 << u
        for t in range(TILES):
            if revealed_mask[t]:
                continue
            v = boards[b, t]
            mass[t, v] += w
            if v == 0:
                continue
            if hm - (1 if v >= 2 else 0) == 0:
                won[t, v] += w
                continue
            for j in range(nv):
                v_in_child[t, v, vt[j]] += w
            m_in_child[t, v] |= mbits
    bound = np.zeros((TILES, 4))
    for t in range(TILES):
        if revealed_mask[t]:
            continue
        for v in range(1, 4):
            live = mass[t, v] - won[t, v]
            if live <= 0.0:
                continue
            best_risk = live
            safe = False
            for u in range(TILES):
                if u == t or revealed_mask[u] or not (m_in_child[t, v] >> u) & 1:
                    continue
                if v_in_child[t, v, u] <= 0.0:
                    safe = True
                    break
                if v_in_child[t, v, u] < best_risk:
                    best_risk = v_in_child[t, v, u]
            bound[t, v] = live if safe else live - best_risk
    return mass, won, bound


@njit(cache=True)
def _line_key_equal(clue, code, a, b, is_row):
    """Rows (or columns) `a` and `b` are interchangeable in the state `code`: same Voltorb count,
    same hidden cells, same sum still hidden, and as many revealed multipliers on free cells
    (so the free-multiplier features of the prior are kept)."""
    line = 0 if is_row else 2
    if clue[line + 1, a] != clue[line + 1, b]:
        return False
    rest_a = clue[line, a]
    rest_b = clue[line, b]
    free_a = 0
    free_b = 0
    for k in range(SIZE):
        ta = a * SIZE + k if is_row else k * SIZE + a
        tb = b * SIZE + k if is_row else k * SIZE + b
        va = (code >> (2 * ta)) & 3
        vb = (code >> (2 * tb)) & 3
        if (va == 0) != (vb == 0):
            return False
        rest_a -= va
        rest_b -= vb
        # the cross line through both cells is the same line k
        cross_free = clue[3 - line, k] == 0
        line_free = clue[line + 1, a] == 0
        if va >= 2 and (cross_free or line_free):
            free_a += 1
        if vb >= 2 and (cross_free or line_free):
            free_b += 1
    return rest_a == rest_b and free_a == free_b


@njit(cache=True)
def symmetry_classes(clue, code):
    """Representative (smallest index) of each tile's class under the state's symmetries.

    Swapping the hidden cells of two interchangeable rows (see :func:`_line_key_equal`) maps every
    consistent board to a consistent board of the same prior weight and the same hidden
    multipliers, so flipping (r1, c) is worth exactly as much as flipping (r2, c); likewise for
    columns, and for compositions of such swaps (the classes are closed under both).
    `clue` is 4 x 5: row sums, row Voltorbs, column sums, column Voltorbs.
    """
    parent = np.arange(TILES)
    for is_row in (True, False):
        for a in range(SIZE):
            for b in range(a + 1, SIZE):
                if not _line_key_equal(clue, code, a, b, is_row):
                    continue
                for k in range(SIZE):
                    ta = a * SIZE + k if is_row else k * SIZE + a
                    tb = b * SIZE + k if is_row else k * SIZE + b
                    if (code >> (2 * ta)) & 3:
                        continue
                    ra = ta
                    while parent[ra] != ra:
                        ra = parent[ra]
                    rb = tb
                    while parent[rb] != rb:
                        rb = parent[rb]
                    if ra < rb:
                        parent[rb] = ra
                    elif rb < ra:
                        parent[ra] = rb
    rep = np.empty(TILES, np.int64)
    for t in range(TILES):
        r = t
        while parent[r] != r:
            r = parent[r]
        rep[t] = r
    return rep


def symmetry_classes_py(clue, code: int) -> list[int]:
    """Plain-Python twin of :func:`symmetry_classes`: classes by explicit closure."""
    def val(t: int) -> int:
        return (code >> (2 * t)) & 3

    def equal(a: int, b: int, is_row: bool) -> bool:
        line = 0 if is_row else 2
        cells_a = [a * SIZE + k if is_row else k * SIZE + a for k in range(SIZE)]
        cells_b = [b * SIZE + k if is_row else k * SIZE + b for k in range(SIZE)]
        if clue[line + 1][a] != clue[line + 1][b]:
            return False
        if [val(t) == 0 for t in cells_a] != [val(t) == 0 for t in cells_b]:
            return False
        if clue[line][a] - sum(map(val, cells_a)) != clue[line][b] - sum(map(val, cells_b)):
            return False

        def free_mults(line_index: int, cells: list[int]) -> int:
            return sum(
                1 for k, t in enumerate(cells)
                if val(t) >= 2 and (clue[line + 1][line_index] == 0 or clue[3 - line][k] == 0)
            )

        return free_mults(a, cells_a) == free_mults(b, cells_b)

    classes = [{t} for t in range(TILES)]
    for is_row in (True, False):
        for a in range(SIZE):
            for b in range(a + 1, SIZE):
                if not equal(a, b, is_row):
                    continue
                for k in range(SIZE):
                    ta = a * SIZE + k if is_row else k * SIZE + a
                    tb = b * SIZE + k if is_row else k * SIZE + b
                    if val(ta):
                        continue
                    ca = next(c for c in classes if ta in c)
                    cb = next(c for c in classes if tb in c)
                    if ca is not cb:
                        classes.remove(cb)
                        ca |= cb
    return [min(next(c for c in classes if t in c)) for t in range(TILES)]


def board_bits(boards: np.ndarray) -> np.ndarray:
    """(n, 4) int64 bitmasks over the 25 tiles: value bit 0, value bit 1, Voltorb, multiplier."""
    b = np.asarray(boards, dtype=np.int64)
    weights = np.int64(1) << np.arange(TILES, dtype=np.int64)
    return np.ascontiguousarray(np.stack([
        ((b & 1) != 0) @ weights, ((b & 2) != 0) @ weights, (b == 0) @ weights, (b >= 2) @ weights,
    ], axis=1).astype(np.int64))


@njit(cache=True)
def _inseparable(bits, a, b):
    diff = (bits[a, 0] ^ bits[b, 0]) | (bits[a, 1] ^ bits[b, 1])
    if diff == 0 or diff != (bits[a, 2] ^ bits[b, 2]):
        return False
    return (bits[a, 3] & diff) != 0 and (bits[b, 3] & diff) != 0


@njit(cache=True)
def pair_bound(bits, weights, idx):
    """Upper bound on the mass of the live boards `idx` that any policy can clear.

    Two live boards are *inseparable* when every tile on which they differ is a Voltorb on exactly
    one of them and each has a hidden multiplier among those tiles: a policy sees the same values
    on both until it first flips a tile where they differ, and that flip loses one of them, while
    neither can be cleared before such a flip. So the cleared boards are pairwise separable, and
    for any cover of the boards by groups of pairwise inseparable boards at most the heaviest of
    each group is cleared. The cover is built greedily, heaviest boards first. Cost O(k^2).
    """
    k = idx.size
    w = np.empty(k)
    for i in range(k):
        w[i] = weights[idx[i]]
    order = np.argsort(-w, kind="mergesort")
    assigned = np.zeros(k, np.bool_)
    members = np.empty(k, np.int64)
    ub = 0.0
    for ii in range(k):
        a = order[ii]
        if assigned[a]:
            continue
        assigned[a] = True
        ub += w[a]
        members[0] = idx[a]
        nm = 1
        for jj in range(ii + 1, k):
            b = order[jj]
            if assigned[b]:
                continue
            ok = True
            for m in range(nm):
                if not _inseparable(bits, members[m], idx[b]):
                    ok = False
                    break
            if ok:
                members[nm] = idx[b]
                nm += 1
                assigned[b] = True
    return ub


def pair_bound_py(boards, weights, idx) -> float:
    """Plain-Python twin of :func:`pair_bound` (same greedy cover, from the board values)."""
    def inseparable(a: int, b: int) -> bool:
        diff = [t for t in range(TILES) if boards[a][t] != boards[b][t]]
        if not diff or any((boards[a][t] == 0) == (boards[b][t] == 0) for t in diff):
            return False
        return any(boards[a][t] >= 2 for t in diff) and any(boards[b][t] >= 2 for t in diff)

    idx = [int(i) for i in idx]
    order = sorted(range(len(idx)), key=lambda i: -float(weights[idx[i]]))
    assigned = [False] * len(idx)
    ub = 0.0
    for ii, a in enumerate(order):
        if assigned[a]:
            continue
        assigned[a] = True
        ub += float(weights[idx[a]])
        group = [idx[a]]
        for b in order[ii + 1:]:
            if not assigned[b] and all(inseparable(m, idx[b]) for m in group):
                group.append(idx[b])
                assigned[b] = True
    return ub


@njit(cache=True)
def win_search(boards, weights, hm0, idx, code, nrev_mult, alpha, memo_val, memo_exact, memo_tile,
               counter, clue, use_symmetry, bits, use_pairs):
    """Max P(win) mass of the live boards `idx` at revealed state `code` (2 bits per tile: 0 hidden,
    else the value shown). Same recursion and pruning as the Python twin
    :class:`gamelab.voltorb.expectimax.OptimalSolver`, plus fail-low cut-offs: the result is exact
    when it exceeds `alpha`, otherwise it is `alpha`, an upper bound (pass alpha < 0 for an exact
    value). The best tile of each exactly solved state goes to `memo_tile`."""
    known_ceiling = -1.0
    if code in memo_val:
        if memo_exact[code] or memo_val[code] <= alpha:
            return memo_val[code]
        # an inexact entry is an upper bound no looser than this state's pair bound
        known_ceiling = memo_val[code]
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
        memo_val[code] = total
        memo_exact[code] = True
        memo_tile[code] = tile
        return total
    eps = 1e-12 * total
    # the inseparable-pairs bound: fail low at once, or stop as soon as a tile reaches it
    if known_ceiling >= 0.0:
        ceiling = known_ceiling
    elif use_pairs and idx.size <= PAIR_BOUND_MAX:
        ceiling = pair_bound(bits, weights, idx)
    else:
        ceiling = total
    if alpha >= 0.0 and ceiling <= alpha + eps:
        memo_val[code] = ceiling
        memo_exact[code] = False
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
                child = win_search(boards, weights, hm0, live, child_code, nrev_mult + extra,
                                   child_alpha, memo_val, memo_exact, memo_tile, counter, clue,
                                   use_symmetry, bits, use_pairs)
                if counter[2]:
                    return 0.0
            acc += group_mass - live_mass + child
            running -= live_mass - child
            if alpha >= 0.0 and running <= alpha + eps:
                memo_val[code] = alpha
                memo_exact[code] = False
                return alpha
            start = stop
        memo_val[code] = acc
        memo_exact[code] = True
        memo_tile[code] = safe[0]
        return acc
    mass, won, bound = _bounds_on(boards, weights, idx, hm0, nrev_mult, revealed_mask)
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
            if mass[t, v] > 0.0 and child_code in memo_val and memo_val[child_code] < bound[t, v]:
                bound[t, v] = memo_val[child_code]
            tb += won[t, v] + bound[t, v]
        tile_bound[ntiles] = tb
        ntiles += 1
    # the first flip's bound (each child at most its mass less its own least risky flip)
    flip_ceiling = tile_bound[:ntiles].max()
    if flip_ceiling < ceiling:
        ceiling = flip_ceiling
        if alpha >= 0.0 and ceiling <= alpha + eps:
            memo_val[code] = ceiling
            memo_exact[code] = False
            return ceiling
    order = tiles[:ntiles][np.argsort(-tile_bound[:ntiles], kind="mergesort")]
    best = -1.0
    best_tile = order[0]
    live_all = np.empty(idx.size, np.int64)
    start = np.zeros(4, np.int64)
    stop = np.zeros(4, np.int64)
    for oi in range(order.size):
        t = order[oi]
        threshold = max(best, alpha)
        running = 0.0
        for v in range(1, 4):
            running += won[t, v] + bound[t, v]
        if running <= threshold + eps:
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
                if child_code in memo_val and memo_exact[child_code]:
                    continue
                if not use_pairs or stop[v] - start[v] > PAIR_BOUND_MAX:
                    continue
                cb = pair_bound(bits, weights, live_all[start[v]:stop[v]])
                if cb < bound[t, v]:
                    running -= bound[t, v] - cb
                    bound[t, v] = cb
                if child_code not in memo_val or cb < memo_val[child_code]:
                    memo_val[child_code] = cb
                    memo_exact[child_code] = False
        if running <= threshold + eps:
            continue
        acc = 0.0
        pruned = False
        for v in range(1, 4):
            if mass[t, v] <= 0.0:
                continue
            extra = 1 if v >= 2 else 0
            child = 0.0
            if stop[v] > start[v]:
                live = live_all[start[v]:stop[v]].copy()
                child_alpha = threshold - (running - bound[t, v])
                if threshold < 0.0:
                    child_alpha = -1.0
                child = win_search(
                    boards, weights, hm0, live, code | (v << (2 * t)), nrev_mult + extra,
                    child_alpha, memo_val, memo_exact, memo_tile, counter, clue, use_symmetry, bits,
                    use_pairs,
                )
                if counter[2]:
                    return 0.0
            acc += won[t, v] + child
            running -= bound[t, v] - child
            if running <= threshold + eps:
                pruned = True
                break
        if not pruned and acc > best:
            best = acc
            best_tile = t
            if best >= ceiling - eps:
                break
    if best > alpha + eps or alpha < 0.0:
        memo_val[code] = best
        memo_exact[code] = True
        memo_tile[code] = best_tile
        return best
    memo_val[code] = alpha
    memo_exact[code] = False
    return alpha


# not cached: numba 0.68 can crash loading this recursive kernel from its on-disk cache
# (DEVELOPERS.md); it compiles in a few seconds on first use in a process
@njit(cache=False)
def coin_search(boards, weights, hm0, idx, code, nrev_mult, may_quit, memo_val, memo_tile, counter):
    """Coin objective: H = the live boards' mass times the expected multiplier of the current coins
    under the best policy that may quit (`may_quit`, false only before the first card).

    Same recursion, bound and tie-breaking as the Python twin
    (:class:`gamelab.voltorb.expectimax.OptimalSolver` with ``objective="coins"``):
    ``H(S) = max(W(S) if may_quit, max_t sum_v v * [W(won_v) + H(rest_v)])``, a safe useful tile
    flipped at once, tiles tried in decreasing order of the perfect-information payout bound
    (sum over boards where t is safe of weight x product of the board's hidden multipliers).
    The best tile (-1 = quit) of each state goes to `memo_tile`.
    """
    key = (code << 1) | (1 if may_quit else 0)
    if key in memo_val:
        return memo_val[key]
    counter[0] += 1
    if counter[0] > counter[1]:
        counter[2] = 1
        return 0.0
    k = idx.size
    total = 0.0
    for i in range(k):
        total += weights[idx[i]]
    revealed = np.zeros(TILES, np.bool_)
    for t in range(TILES):
        revealed[t] = ((code >> (2 * t)) & 3) != 0
    v_mass = np.zeros(TILES)
    can_mult = np.zeros(TILES, np.bool_)
    flip_bound = np.zeros(TILES)
    for i in range(k):
        b = idx[i]
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
                flip_bound[t] += weights[b] * prod
                if x >= 2:
                    can_mult[t] = True
    ntiles = 0
    tiles = np.empty(TILES, np.int64)
    for t in range(TILES):
        if can_mult[t]:
            tiles[ntiles] = t
            ntiles += 1
    tiles = tiles[:ntiles]
    # safest first, then lowest index (the twin's candidate order)
    safest = tiles[np.argsort(v_mass[tiles], kind="mergesort")]
    best = -1.0
    best_tile = safest[0]
    if may_quit:
        best = total
        best_tile = -1
    eps = 1e-12 * total
    if v_mass[safest[0]] <= 1e-15 * total:
        order = safest[:1]
        best = -1.0  # a safe flip beats quitting: the multiplier is at least 1
        best_tile = safest[0]
        use_bound = False
    else:
        order = tiles[np.argsort(-flip_bound[tiles], kind="mergesort")]
        use_bound = True
    for oi in range(order.size):
        t = order[oi]
        if use_bound and flip_bound[t] <= best + eps:
            break
        acc = 0.0
        for v in range(1, 4):
            extra = 1 if v >= 2 else 0
            n_live = 0
            won = 0.0
            for i in range(k):
                b = idx[i]
                if boards[b, t] == v:
                    if hm0[b] - nrev_mult - extra > 0:
                        n_live += 1
                    else:
                        won += weights[b]
            child = 0.0
            if n_live > 0:
                live = np.empty(n_live, np.int64)
                j = 0
                for i in range(k):
                    b = idx[i]
                    if boards[b, t] == v and hm0[b] - nrev_mult - extra > 0:
                        live[j] = b
                        j += 1
                child = coin_search(boards, weights, hm0, live, code | (v << (2 * t)),
                                    nrev_mult + extra, True, memo_val, memo_tile, counter)
                if counter[2]:
                    return 0.0
            acc += v * (won + child)
        if not use_bound or acc > best + eps:
            best = acc
            best_tile = t
    memo_val[key] = best
    memo_tile[key] = best_tile
    return best
