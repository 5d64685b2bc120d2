"""Upper bounds and symmetries of a Voltorb Flip information state, for the exact search.

* :func:`flip_bounds` / :func:`bounds_on`: per tile and value, the mass a first flip wins and an
  upper bound on what the child can still win (its mass less its least risky useful flip);
* :func:`pair_bound`: the inseparable-boards bound (a cover by groups of boards no policy can
  tell apart without losing one of them);
* :func:`symmetry_classes`: tiles that are worth the same because two rows (or columns) can swap
  their hidden cells.

Used by :mod:`gamelab.voltorb._search_kernels` (inside the search) and
:mod:`gamelab.voltorb.expectimax` (its Python twin). Each kernel has a plain-Python twin
(``*_py``) compared by the tests.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.voltorb.rules import SIZE, TILES


@njit(cache=True)
def flip_bounds(boards, weights, hidden_mult, revealed_mask):
    """Per tile t and value v (25 x 4): prior mass of t = v, mass of boards won by that flip, and
    an upper bound on the mass a policy can still win afterwards (live mass minus the smallest
    Voltorb mass among the child's useful tiles, unless the child has a safe useful tile).

    `boards` (k x 25) are the live boards of a state, `hidden_mult` their unrevealed 2s/3s,
    `revealed_mask` (25,) the revealed tiles. Cost O(k * 25 * 25).
    """
    return bounds_on(boards, weights, np.arange(boards.shape[0]), hidden_mult, 0, revealed_mask)


def flip_bounds_python(boards, weights, hidden_mult, revealed_mask):
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
            useful = [
                u for u in range(TILES) if u != t and not revealed_mask[u] and m_in[t, v, u] > 0
            ]
            risks = [v_in[t, v, u] for u in useful]
            if risks and min(risks) <= 0:
                bound[t, v] = live
            else:
                bound[t, v] = live - min([live] + risks)
    return mass, won, bound


@njit(cache=True)
def bounds_on(boards, weights, idx, hm0, nrev_mult, revealed_mask):
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


def symmetry_classes_python(clue, code: int) -> list[int]:
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
                1
                for k, t in enumerate(cells)
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
    return np.ascontiguousarray(
        np.stack(
            [
                ((b & 1) != 0) @ weights,
                ((b & 2) != 0) @ weights,
                (b == 0) @ weights,
                (b >= 2) @ weights,
            ],
            axis=1,
        ).astype(np.int64)
    )


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


def pair_bound_python(boards, weights, idx) -> float:
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
        for b in order[ii + 1 :]:
            if not assigned[b] and all(inseparable(m, idx[b]) for m in group):
                group.append(idx[b])
                assigned[b] = True
    return ub


#: boards at most for :func:`inseparable_lists` (its n^2 / 2 pair tests take about 0.2 s at 14,000)
LISTS_MAX = 30000


@njit(cache=True)
def inseparable_lists(bits, n):
    """The inseparable-boards relation of :func:`pair_bound` over boards ``0 .. n - 1`` as
    adjacency lists: board b's neighbours are ``nbr[start[b] : start[b + 1]]``, in ascending order.

    Boards must be numbered heaviest first (ties by their old order), as the solver does, so that
    ascending order is the order in which :func:`pair_bound`'s greedy cover meets them. The relation
    is a property of two boards alone (their values on the tiles where they differ), so one list
    serves every state of a search. n^2 / 2 pair tests; a level-8 opening's boards have a few dozen
    inseparable partners each."""
    deg = np.zeros(n + 1, np.int64)
    cap = 4 * n + 16
    ea = np.empty(cap, np.int64)
    eb = np.empty(cap, np.int64)
    m = 0
    for a in range(n):
        a0 = bits[a, 0]
        a1 = bits[a, 1]
        a2 = bits[a, 2]
        a3 = bits[a, 3]
        for b in range(a + 1, n):
            diff = (a0 ^ bits[b, 0]) | (a1 ^ bits[b, 1])
            if diff != (a2 ^ bits[b, 2]) or diff == 0:
                continue
            if (a3 & diff) == 0 or (bits[b, 3] & diff) == 0:
                continue
            if m == cap:
                cap *= 2
                ea2 = np.empty(cap, np.int64)
                eb2 = np.empty(cap, np.int64)
                for i in range(m):  # not a slice assignment: see enumerate_boards
                    ea2[i] = ea[i]
                    eb2[i] = eb[i]
                ea = ea2
                eb = eb2
            ea[m] = a
            eb[m] = b
            m += 1
            deg[a] += 1
            deg[b] += 1
    start = np.zeros(n + 1, np.int64)
    for b in range(n):
        start[b + 1] = start[b] + deg[b]
    fill = start[:n].copy()
    nbr = np.empty(2 * m, np.int64)
    # edges come in (a ascending, then b ascending): row b gets its smaller partners a first and in
    # ascending order, then (when a = b's turn comes) its larger ones in ascending order
    for e in range(m):
        a = ea[e]
        b = eb[e]
        nbr[fill[b]] = a
        fill[b] += 1
        nbr[fill[a]] = b
        fill[a] += 1
    return start, nbr


@njit(cache=True)
def pair_bound_lists(bits, weights, idx, start, nbr, mark):
    """:func:`pair_bound` of the live boards `idx` (ascending, boards numbered heaviest first)
    from the adjacency lists of :func:`inseparable_lists`: the same greedy cover and the same
    value, in about k x (neighbours) steps instead of k^2 / 2 pair tests.

    A group's members are all neighbours of its first (heaviest) board, so only that board's list
    is scanned. `mark` (n + 1 int64, zero at first) is scratch space shared by the calls of one
    search: its last entry counts the calls, and a board is in the set (resp. already in a group)
    when its mark equals this call's stamp s (resp. s + 1)."""
    last = mark.size - 1
    s = mark[last] + 2
    mark[last] = s
    k = idx.size
    for i in range(k):
        mark[idx[i]] = s
    members = np.empty(64, np.int64)
    ub = 0.0
    for i in range(k):
        a = idx[i]
        if mark[a] != s:
            continue  # already in a group
        mark[a] = s + 1
        ub += weights[a]
        members[0] = a
        nm = 1
        for j in range(start[a], start[a + 1]):
            b = nbr[j]
            if mark[b] != s:
                continue  # not live here, or already in a group
            ok = True
            for q in range(1, nm):
                if not _inseparable(bits, members[q], b):
                    ok = False
                    break
            if ok:
                if nm == members.size:
                    grown = np.empty(2 * nm, np.int64)
                    for i in range(nm):  # not a slice assignment: see enumerate_boards
                        grown[i] = members[i]
                    members = grown
                members[nm] = b
                nm += 1
                mark[b] = s + 1
    return ub


def inseparable_lists_python(boards) -> list[list[int]]:
    """Plain-Python twin of :func:`inseparable_lists`: each board's inseparable partners
    (ascending), from the board values (the test of :func:`pair_bound_python`)."""
    rows = [[int(x) for x in b] for b in boards]

    def inseparable(a: list[int], b: list[int]) -> bool:
        diff = [t for t in range(TILES) if a[t] != b[t]]
        if not diff or any((a[t] == 0) == (b[t] == 0) for t in diff):
            return False
        return any(a[t] >= 2 for t in diff) and any(b[t] >= 2 for t in diff)

    return [
        [j for j, b in enumerate(rows) if j != i and inseparable(a, b)] for i, a in enumerate(rows)
    ]
