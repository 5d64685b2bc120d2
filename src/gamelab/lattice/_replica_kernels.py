"""numba kernels of replica-exchange Monte Carlo with pull moves (see :mod:`.replica`).

:func:`remc_kernel` runs rounds of replica exchange in place on a batch of replicas; its plain-
Python twin :func:`gamelab.lattice._replica_twins.remc_python` does the same with coordinate
tuples and a dict of occupied sites and draws the same random numbers (a splitmix64 stream whose
state travels with the replicas), so the two agree exactly. :func:`apply_move_kernel` makes one
numbered move of one conformation (the building block the tests use to check that the move set is
complete and symmetric); its twin is :func:`gamelab.lattice._replica_twins.apply_move_python`.

State of a replica: the residues' lattice sites ``pos[r, i] = (x, y, z)`` (z = 0 in 2D) and an
occupancy grid ``grid[r, cell] = residue + 1`` (0 = empty) over a torus of ``side = 2**shift``
cells per axis, ``side > n``: a chain of n residues spans fewer than n cells along any axis, so
two residues can share a torus cell only if they share a site. Coordinates drift freely.

Moves (numbered slots, the same count for every conformation, so that proposing a uniform slot is
a symmetric proposal and Metropolis acceptance gives detailed balance):

* ``0 <= s < 2 n (nd - 2)``: pull move (Lesh, Mitzenmacher & Whitesides, RECOMB 2003) of
  residue i = s // (2 (nd - 2)) towards the start (anchor i + 1) or the end (anchor i - 1) along
  the k-th direction e perpendicular to the bond (anchor, i) (in the order of _DX; a direction
  along the bond is never a move, so it has no slot): residue i goes to the free site
  L = anchor + e diagonal to it, its neighbour on the pulled side to C = x_i + e (unless it
  already sits there: a corner flip), and every further residue moves two places up the chain
  until one is already next to its neighbour's new site;
* the next ``2 nd (nd - 1)`` slots: end pull at either end: the end residue goes to a free site
  A, its neighbour to a free site B next to the end's old site (A = B + e2, B = end + e1, e2 the
  k-th direction other than -e1, A not next to the residue after the neighbour), and the chain
  follows as above;
* the next ``2 (nd - 1)``: end move, the end residue to a free site next to its neighbour (the
  k-th direction from the neighbour other than the end's own).

Numbering a state's directions relative to its bonds keeps the proposal symmetric: in every
conformation the slots map one to one onto the moves that the plain numbering (every residue,
side and direction: ``2 n nd + 2 nd^2 + 2 nd`` slots, REMC_REVISION 1) could make legal, so each
pair of conformations is joined by as many slots either way as before, out of a constant total;
only slots that are never legal are gone (430 of 840 remain for a 100-mer in 2D, so a drawn
slot is a legal move about twice as often; docs/experiments/lattice.md, "A faster kernel").

Bond-rebridging moves (Deutsch, J. Chem. Phys. 106:8849, 1997; with pull moves in Wang-Landau
sampling of HP chains by Wüst & Landau, J. Chem. Phys. 137:064903, 2012) have their own
:func:`rebridge_slots` numbered slots after those (drawn in a share of the steps,
``ReplicaSettings.rebridge``). They keep the set of occupied sites and reverse a stretch of the
chain, so compact folds change their topology without unfolding:

* ``(i, e)``: residue j sits at x_i + e with j > i + 1, j + 1 < n, and x_{i+1} is next to
  x_{j+1}: the bonds (i, i + 1), (j, j + 1) become (i, j), (i + 1, j + 1) (residues i + 1 ... j
  take the sites of j ... i + 1);
* ``e`` at the last residue: residue j < n - 2 sits at x_{n-1} + e: the bond (j, j + 1) becomes
  (j, n - 1) (residues j + 1 ... n - 1 reversed);
* ``e`` at the first residue: residue j > 1 sits at x_0 + e: (j - 1, j) becomes (0, j)
  (residues 0 ... j - 1 reversed).

Each is its own kind's inverse through exactly one slot, so drawing a rebridging slot uniformly
is a symmetric proposal too (tested like the pull moves).

Every move's inverse is one move of the same probability (tests: the move graph is symmetric and
connected on every fold of small chains, 2D and 3D), so pull moves are complete and reversible.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

_DX = (1, 0, -1, 0, 0, 0)
_DY = (0, 1, 0, -1, 0, 0)
_DZ = (0, 0, 0, 0, 1, -1)
_OPPOSITE = (2, 3, 0, 1, 5, 4)
#: The directions perpendicular to an axis (x, y, z), four a row; in 2D the first two of x's
#: and y's rows.
_PERP = (1, 3, 4, 5, 0, 2, 4, 5, 0, 1, 2, 3)
_MASK64 = (1 << 64) - 1

# numba inlines an ``inline="always"`` helper before typing, so each use is typed and compiled
# again: only the move's own steps and the grid look-ups are inlined (calls to them cost 6 % of
# the steps, benchmarks/lattice_kernel_speed.py); LLVM inlines the small ones left as calls.


@njit(cache=True)
def next_random(rng):
    """The next splitmix64 output of the state ``rng[0]`` (a uint64 array), advancing it."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _uniform(rng):
    return np.float64(next_random(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _below(rng, m):
    return np.int64(next_random(rng) % np.uint64(m))


@njit(cache=True, inline="always")
def _cell(x, y, z, mask, shift):
    return (x & mask) | ((y & mask) << shift) | ((z & mask) << (2 * shift))


@njit(cache=True, inline="always")
def _adjacent(p, a, q, b):
    return abs(p[a, 0] - q[b, 0]) + abs(p[a, 1] - q[b, 1]) + abs(p[a, 2] - q[b, 2]) == 1


@njit(cache=True, inline="always")
def _free(grid, x, y, z, mask, shift):
    return grid[_cell(x, y, z, mask, shift)] == 0


@njit(cache=True, inline="always")
def _pull(pos, grid, n, i, step, lx, ly, lz, cx, cy, cz, need_c, mask, shift, new):
    """Residue i to L, its neighbour on the pulled side (i + step) to C unless it is already next
    to L (not allowed when `need_c`), the rest following; returns the last residue moved, or -2
    if the move is not allowed. Fills new[lo..hi]."""
    if not _free(grid, lx, ly, lz, mask, shift):
        return -2
    new[i, 0] = lx
    new[i, 1] = ly
    new[i, 2] = lz
    j = i + step
    if j < 0 or j >= n:
        return i
    if _adjacent(pos, j, new, i):
        if need_c:
            return -2
        return i
    if not _free(grid, cx, cy, cz, mask, shift):
        return -2
    new[j, 0] = cx
    new[j, 1] = cy
    new[j, 2] = cz
    last = j
    j += step
    while 0 <= j < n:
        if _adjacent(pos, j, new, j - step):
            break
        new[j, 0] = pos[j - 2 * step, 0]
        new[j, 1] = pos[j - 2 * step, 1]
        new[j, 2] = pos[j - 2 * step, 2]
        last = j
        j += step
    return last


@njit(cache=True)
def _rebridge(pos, grid, n, nd, t, mask, shift, new):
    """(lo, hi) of bond-rebridging move t (module docstring) and the new sites in new[lo..hi];
    (-1, -1) if it is not a move of this conformation."""
    if t < n * nd:
        i = t // nd
        e = t % nd
    else:
        e = (t - n * nd) % nd
        i = n - 1 if t - n * nd < nd else 0
    r = grid[_cell(pos[i, 0] + _DX[e], pos[i, 1] + _DY[e], pos[i, 2] + _DZ[e], mask, shift)] - 1
    if r < 0:
        return -1, -1
    if t < n * nd:  # (i, e): reverse i + 1 ... r
        if r <= i + 1 or r + 1 >= n or not _adjacent(pos, i + 1, pos, r + 1):
            return -1, -1
        lo, hi = i + 1, r
    elif i == n - 1:  # at the last residue: reverse r + 1 ... n - 1
        if r >= n - 2:
            return -1, -1
        lo, hi = r + 1, n - 1
    else:  # at the first residue: reverse 0 ... r - 1
        if r <= 1:
            return -1, -1
        lo, hi = 0, r - 1
    for k in range(lo, hi + 1):
        for c in range(3):
            new[k, c] = pos[lo + hi - k, c]
    return lo, hi


@njit(cache=True)
def _slot_count(n, nd):
    """The move slots of a chain of n residues (module docstring; :func:`move_slots`)."""
    return 2 * n * (nd - 2) + 2 * nd * (nd - 1) + 2 * (nd - 1)


@njit(cache=True)
def _axis(dx, dy):
    """The axis (0 x, 1 y, 2 z) of a unit step whose first two components are dx, dy."""
    return 0 if dx != 0 else (1 if dy != 0 else 2)


@njit(cache=True)
def _direction(dx, dy, dz):
    """The index e of the unit step (dx, dy, dz) in _DX, _DY, _DZ."""
    if dx != 0:
        return 0 if dx > 0 else 2
    if dy != 0:
        return 1 if dy > 0 else 3
    return 4 if dz > 0 else 5


@njit(cache=True, inline="always")
def _propose(pos, grid, n, nd, slot, mask, shift, new):
    """(lo, hi) of the residues move `slot` changes, their new sites in new[lo..hi]; lo = -1 if
    the slot is not a legal move of this conformation (slot numbering: the module docstring)."""
    b = 2 if nd == 4 else 3  # a residue's pull slots: 2 (nd - 2) = 2**b
    p = n << b
    q = p + 2 * nd * (nd - 1)
    if slot >= q + 2 * (nd - 1):
        return _rebridge(pos, grid, n, nd, slot - q - 2 * (nd - 1), mask, shift, new)
    if slot < p:
        i = slot >> b
        step = 1 if (slot >> (b - 1)) & 1 == 1 else -1
        a = i - step  # the anchor
        if a < 0 or a >= n:
            return -1, -1
        # the k-th direction perpendicular to the bond (a, i)
        e = _PERP[
            4 * _axis(pos[a, 0] - pos[i, 0], pos[a, 1] - pos[i, 1]) + (slot & ((1 << (b - 1)) - 1))
        ]
        last = _pull(
            pos,
            grid,
            n,
            i,
            step,
            pos[a, 0] + _DX[e],
            pos[a, 1] + _DY[e],
            pos[a, 2] + _DZ[e],
            pos[i, 0] + _DX[e],
            pos[i, 1] + _DY[e],
            pos[i, 2] + _DZ[e],
            False,
            mask,
            shift,
            new,
        )
    elif slot < q:
        t = slot - p
        at_end = t // (nd * (nd - 1))
        e1 = (t // (nd - 1)) % nd
        e2 = t % (nd - 1)  # the e2-th direction other than -e1
        if e2 >= _OPPOSITE[e1]:
            e2 += 1
        i = n - 1 if at_end == 1 else 0
        step = -1 if at_end == 1 else 1
        bx = pos[i, 0] + _DX[e1]
        by = pos[i, 1] + _DY[e1]
        bz = pos[i, 2] + _DZ[e1]
        last = _pull(
            pos,
            grid,
            n,
            i,
            step,
            bx + _DX[e2],
            by + _DY[e2],
            bz + _DZ[e2],
            bx,
            by,
            bz,
            True,
            mask,
            shift,
            new,
        )
    else:
        t = slot - q
        i = n - 1 if t // (nd - 1) == 1 else 0
        k = i - 1 if i == n - 1 else 1
        # the e-th direction other than the bond's (k, i)
        e = t % (nd - 1)
        if e >= _direction(pos[i, 0] - pos[k, 0], pos[i, 1] - pos[k, 1], pos[i, 2] - pos[k, 2]):
            e += 1
        x = pos[k, 0] + _DX[e]
        y = pos[k, 1] + _DY[e]
        z = pos[k, 2] + _DZ[e]
        if not _free(grid, x, y, z, mask, shift):
            return -1, -1
        new[i, 0] = x
        new[i, 1] = y
        new[i, 2] = z
        last = i
    if last == -2:
        return -1, -1
    return min(i, last), max(i, last)


@njit(cache=True, inline="always")
def _range_contacts2(is_h, pos, grid, lo, hi, nd, mask, shift):
    """Twice the HH contacts touching residues lo..hi (a pair inside the range counts 2 once)."""
    total = 0
    for i in range(lo, hi + 1):
        if not is_h[i]:
            continue
        for e in range(nd):
            r = grid[_cell(pos[i, 0] + _DX[e], pos[i, 1] + _DY[e], pos[i, 2] + _DZ[e], mask, shift)]
            r -= 1
            if r >= 0 and is_h[r] and (r < i - 1 or r > i + 1):
                total += 1 if lo <= r <= hi else 2
    return total


@njit(cache=True, inline="always")
def _place(pos, grid, lo, hi, value, mask, shift):
    for i in range(lo, hi + 1):
        grid[_cell(pos[i, 0], pos[i, 1], pos[i, 2], mask, shift)] = (i + 1) if value else 0


@njit(cache=True, inline="always")
def _keep_or_undo(ok, gain, pos, grid, new, lo, hi, mask, shift):
    """The end of a Metropolis step whose proposed sites new[lo..hi] are on the grid: if `ok`,
    copy them into `pos` and return `gain`; else put `pos` back on the grid and return 0."""
    if ok:
        for i in range(lo, hi + 1):
            for c in range(3):
                pos[i, c] = new[i, c]
        return gain
    _place(new, grid, lo, hi, False, mask, shift)
    _place(pos, grid, lo, hi, True, mask, shift)
    return 0


@njit(cache=True, inline="always")
def _try_move(is_h, pos, grid, nd, slot, beta, rng, mask, shift, new, old, bias, now):
    """Propose slot, accept by Metropolis at inverse temperature beta; the change in contacts
    (0 if rejected or illegal). pos/grid updated in place. With a non-empty `bias` (indexed by
    contacts; `now` the contacts before the move) the weight of a fold of c contacts is
    exp(beta c - bias[c]) (the flat-histogram penalty, see :func:`remc_kernel`). `old` is not
    read (since REMC_REVISION 3 a rejected move leaves `pos` untouched; kept for the callers)."""
    n = is_h.shape[0]
    lo, hi = _propose(pos, grid, n, nd, slot, mask, shift, new)
    if lo < 0:
        return 0
    before = _range_contacts2(is_h, pos, grid, lo, hi, nd, mask, shift)
    # the grid as after the move, the contacts counted at the new sites; `pos` changes only if
    # the move is accepted (a rejected move puts the grid back and copies nothing)
    _place(pos, grid, lo, hi, False, mask, shift)
    _place(new, grid, lo, hi, True, mask, shift)
    gain = (_range_contacts2(is_h, new, grid, lo, hi, nd, mask, shift) - before) // 2
    if bias.shape[0] == 0:
        ok = gain >= 0 or _uniform(rng) < math.exp(beta * gain)
    else:
        x = beta * gain - bias[now + gain] + bias[now]
        ok = x >= 0.0 or _uniform(rng) < math.exp(x)
    return _keep_or_undo(ok, gain, pos, grid, new, lo, hi, mask, shift)


@njit(cache=True)
def _straighten(pos, grid, mask, shift):
    """Put every replica back on the straight chain along +x (a restart)."""
    n = pos.shape[1]
    for r in range(pos.shape[0]):
        _place(pos[r], grid[r], 0, n - 1, False, mask, shift)
        for i in range(n):
            pos[r, i, 0] = i
            pos[r, i, 1] = 0
            pos[r, i, 2] = 0
        _place(pos[r], grid[r], 0, n - 1, True, mask, shift)


@njit(cache=True)
def _kick(is_h, pos, grid, contacts, best_pos, best, steps, nd, rng, mask, shift, new, old):
    """Put every replica on the best fold so far, then make `steps` uniformly drawn move slots
    at infinite temperature (every legal move accepted; a restart from a perturbed best). Keeps
    ``best`` should a kick beat it; returns the most contacts of the kicked replicas."""
    n = pos.shape[1]
    slots = _slot_count(n, nd)
    top = 0
    for r in range(pos.shape[0]):
        _place(pos[r], grid[r], 0, n - 1, False, mask, shift)
        for i in range(n):
            for c in range(3):
                pos[r, i, c] = best_pos[i, c]
        _place(pos[r], grid[r], 0, n - 1, True, mask, shift)
        contacts[r] = best[0]
        for _ in range(steps):
            gain = _try_move(
                is_h, pos[r], grid[r], nd, _below(rng, slots), 0.0, rng, mask, shift, new, old,
                np.zeros(0), 0,
            )  # fmt: skip
            contacts[r] += gain
            if gain != 0 and contacts[r] > best[0]:
                best[0] = contacts[r]
                for i in range(n):
                    for c in range(3):
                        best_pos[i, c] = pos[r, i, c]
        top = max(top, contacts[r])
    return top


@njit(cache=True)
def _regrow(is_h, pos, grid, nd, beta, grow, rng, mask, shift, longest, new, weight, cells):
    """One fragment-regrowth step (module docstring): a stretch of 2 ... `longest` residues is
    taken off and grown again site by site, each site drawn among the free ones with weight
    exp(grow x the HH contacts it makes), then the new stretch is accepted by Metropolis at
    inverse temperature beta. Returns the change in contacts (0 if rejected or stuck); `pos` and
    `grid` are updated in place. `weight` (nd floats) and `cells` (nd x 3) are scratch."""
    n = is_h.shape[0]
    length = 2 + _below(rng, longest - 1)
    if length > n - 1:
        length = n - 1
    a = _below(rng, n - length + 1)
    b = a + length - 1
    before = _range_contacts2(is_h, pos, grid, a, b, nd, mask, shift)
    _place(pos, grid, a, b, False, mask, shift)
    if a == 0:  # the stretch holds the first residue: grown from b + 1 down to 0
        first, stop, step, anchor, tail = b, -1, -1, b + 1, -1
    else:  # grown from a - 1 up to b; it must end next to b + 1 unless b is the last residue
        first, stop, step, anchor = a, b + 1, 1, a - 1
        tail = b + 1 if b + 1 < n else -1
    px = pos[anchor, 0]
    py = pos[anchor, 1]
    pz = pos[anchor, 2]
    k = first
    while k != stop:
        m = 0
        total = 0.0
        for e in range(nd):
            x = px + _DX[e]
            y = py + _DY[e]
            z = pz + _DZ[e]
            if grid[_cell(x, y, z, mask, shift)] != 0:
                continue
            if tail >= 0:  # the residues left must still reach the tail's neighbour (its own
                # site is occupied, so never chosen)
                d = abs(x - pos[tail, 0]) + abs(y - pos[tail, 1]) + abs(z - pos[tail, 2])
                if d > tail - k:
                    continue
            c = 0
            if is_h[k]:
                for f in range(nd):
                    r = grid[_cell(x + _DX[f], y + _DY[f], z + _DZ[f], mask, shift)] - 1
                    if r >= 0 and is_h[r] and (r < k - 1 or r > k + 1):
                        c += 1
            cells[m, 0] = x
            cells[m, 1] = y
            cells[m, 2] = z
            weight[m] = math.exp(grow * c)
            total += weight[m]
            m += 1
        if m == 0:  # stuck: take the grown part off, put the stretch back
            j = first
            while j != k:
                grid[_cell(new[j, 0], new[j, 1], new[j, 2], mask, shift)] = 0
                j += step
            _place(pos, grid, a, b, True, mask, shift)
            return 0
        u = _uniform(rng) * total
        j = 0
        while j < m - 1 and u >= weight[j]:
            u -= weight[j]
            j += 1
        px = cells[j, 0]
        py = cells[j, 1]
        pz = cells[j, 2]
        new[k, 0] = px
        new[k, 1] = py
        new[k, 2] = pz
        grid[_cell(px, py, pz, mask, shift)] = k + 1
        k += step
    gain = (_range_contacts2(is_h, new, grid, a, b, nd, mask, shift) - before) // 2
    ok = gain >= 0 or _uniform(rng) < math.exp(beta * gain)
    return _keep_or_undo(ok, gain, pos, grid, new, a, b, mask, shift)


@njit(cache=True)
def remc_kernel(
    is_h,
    ndim,
    temps,
    pos,
    grid,
    contacts,
    rep_at,
    rng,
    rounds,
    phi,
    target,
    best_pos,
    best,
    restart,
    end_share,
    bias,
    flat,
    rebridge,
    regrow,
    longest,
    grow_bias,
):
    """Run up to `rounds` rounds of replica exchange in place: each replica (the one at temperature
    index t is ``rep_at[t]``) makes `phi` Metropolis steps of uniformly drawn move slots at
    ``temps[t]``, then neighbouring temperatures try to swap their replicas. ``best[0]`` and
    ``best_pos`` keep the most contacts seen; stops after the round in which ``best[0] >= target``.

    With ``end_share`` > 0, that share of the steps draws its slot among the end-pull and end-move
    slots only (a larger share of moves at the chain's ends; the proposal is then no longer
    symmetric for every move, so the sampling is not exactly Boltzmann's).

    ``restart`` = (patience, rounds since the current start's best last rose, that best, restarts
    made, kick): with patience > 0, after `patience` rounds in a row in which no replica beat the
    best seen since the last (re)start, every replica goes back to the straight chain (kick 0)
    or to the best fold so far perturbed by `kick` steps at infinite temperature (the random
    stream goes on). A kick is :func:`kick_kernel`'s: this kernel stops after the round that
    makes one due, with ``restart[1] = -1`` (:func:`gamelab.lattice.replica.remc_rounds` makes
    the kick and goes on), so that a search without kicks never compiles a second copy of the
    Metropolis step (half of this kernel's compile time).

    With ``flat`` > 0 (a flat-histogram penalty in the manner of energy-landscape paving, Hansmann
    & Wille, PRL 88:068105, 2002, and Wang-Landau sampling): ``bias[t, c]`` (t a temperature
    index, c a contact count) grows by `flat` at every step that the replica at temperature t
    ends with c contacts, and that replica weighs a fold of c contacts by exp(c / temps[t] -
    bias[t, c]), so a contact count it sits on (a basin it is stuck in) becomes ever less
    attractive and the replica is pushed out of it; exchanges use the same weights. The bias is
    never lowered, so the sampling is no longer Boltzmann's: a search heuristic.

    With ``rebridge`` > 0, that share of the steps draws a bond-rebridging slot (uniformly among
    :func:`rebridge_slots`), the others as above; a mixture of symmetric proposals, so the
    sampling stays exact.

    With ``regrow`` > 0, that share of the steps (drawn first) is a fragment regrowth of 2 ...
    `longest` residues (:func:`_regrow`, sites weighed at inverse temperature `grow_bias` / T;
    energy-guided, so the proposal is not symmetric and the
    sampling is no longer exactly Boltzmann's: a search heuristic). Returns the rounds run."""
    n = is_h.shape[0]
    nd = 2 * ndim
    shift = 1
    while (1 << shift) <= n:
        shift += 1
    mask = (1 << shift) - 1
    pulls = 2 * n * (nd - 2)
    slots = _slot_count(n, nd)
    bridges = n * nd + 2 * nd
    new = np.zeros((n, 3), dtype=np.int64)
    old = np.zeros((n, 3), dtype=np.int64)
    nt = temps.shape[0]
    nobias = np.zeros(0)
    weight = np.zeros(nd)
    cells = np.zeros((nd, 3), dtype=np.int64)
    done = 0
    while done < rounds and best[0] < target:
        done += 1
        rose = False
        for t in range(nt):
            r = rep_at[t]
            beta = 1.0 / temps[t]
            row = bias[t] if flat > 0.0 else nobias
            for _ in range(phi):
                if regrow > 0.0 and _uniform(rng) < regrow:
                    gain = _regrow(
                        is_h, pos[r], grid[r], nd, beta, grow_bias * beta, rng, mask, shift,
                        longest, new, weight, cells,
                    )  # fmt: skip
                else:
                    if rebridge > 0.0 and _uniform(rng) < rebridge:
                        slot = slots + _below(rng, bridges)
                    elif end_share > 0.0 and _uniform(rng) < end_share:
                        slot = pulls + _below(rng, slots - pulls)
                    else:
                        slot = _below(rng, slots)
                    gain = _try_move(
                        is_h, pos[r], grid[r], nd, slot, beta, rng, mask, shift, new, old, row,
                        contacts[r],
                    )  # fmt: skip
                if flat > 0.0:
                    row[contacts[r] + gain] += flat
                if gain != 0:
                    contacts[r] += gain
                    if contacts[r] > restart[2]:
                        restart[2] = contacts[r]
                        rose = True
                    if contacts[r] > best[0]:
                        best[0] = contacts[r]
                        for i in range(n):
                            for c in range(3):
                                best_pos[i, c] = pos[r, i, c]
        for t in range(nt - 1):
            a = rep_at[t]
            b = rep_at[t + 1]
            # energies are -contacts: accept with min(1, exp((beta_t - beta_t+1)(E_a - E_b)))
            delta = (1.0 / temps[t] - 1.0 / temps[t + 1]) * (contacts[b] - contacts[a])
            if flat > 0.0:  # the swap's change of the penalties
                delta += bias[t, contacts[a]] - bias[t, contacts[b]]
                delta += bias[t + 1, contacts[b]] - bias[t + 1, contacts[a]]
            if delta >= 0.0 or _uniform(rng) < math.exp(delta):
                rep_at[t] = b
                rep_at[t + 1] = a
        if restart[0] > 0:
            restart[1] = 0 if rose else restart[1] + 1
            if restart[1] >= restart[0]:
                if restart[4] > 0:  # kick_kernel's (see the docstring)
                    restart[1] = -1
                    return done
                _straighten(pos, grid, mask, shift)
                contacts[:] = 0
                restart[2] = 0
                restart[1] = 0
                restart[3] += 1
    return done


@njit(cache=True)
def kick_kernel(is_h, ndim, pos, grid, contacts, best_pos, best, restart, rng):
    """Make the kick that :func:`remc_kernel` left due (``restart[1] == -1``; otherwise do
    nothing): every replica from the best fold so far, perturbed by ``restart[4]`` steps at
    infinite temperature; ``restart`` then counts it as :func:`remc_kernel` counts a restart.
    Compared with the twin :func:`gamelab.lattice._replica_twins.remc_python` through
    :func:`gamelab.lattice.replica.remc_rounds`."""
    if restart[1] != -1:
        return
    n = is_h.shape[0]
    nd = 2 * ndim
    shift = 1
    while (1 << shift) <= n:
        shift += 1
    mask = (1 << shift) - 1
    new = np.zeros((n, 3), dtype=np.int64)
    old = np.zeros((n, 3), dtype=np.int64)
    restart[2] = _kick(
        is_h, pos, grid, contacts, best_pos, best, restart[4], nd, rng, mask, shift, new, old
    )
    restart[1] = 0
    restart[3] += 1


@njit(cache=True)
def apply_move_kernel(pos, ndim, slot):
    """The sites after move `slot` of the conformation `pos` (n x 3), or None-like: returns
    (legal, new positions)."""
    n = pos.shape[0]
    shift = 1
    while (1 << shift) <= n:
        shift += 1
    mask = (1 << shift) - 1
    grid = np.zeros(1 << (ndim * shift), dtype=np.int32)
    _place(pos, grid, 0, n - 1, True, mask, shift)
    new = pos.copy()
    lo, hi = _propose(pos, grid, n, 2 * ndim, slot, mask, shift, new)
    if lo < 0:
        return False, pos.copy()
    out = pos.copy()
    for i in range(lo, hi + 1):
        for c in range(3):
            out[i, c] = new[i, c]
    return True, out


def move_slots(n: int, ndim: int) -> int:
    """How many numbered move slots a chain of n residues has (legal or not)."""
    nd = 2 * ndim
    return 2 * n * (nd - 2) + 2 * nd * (nd - 1) + 2 * (nd - 1)


def rebridge_slots(n: int, ndim: int) -> int:
    """How many bond-rebridging slots follow the :func:`move_slots` (legal or not)."""
    return (n + 2) * 2 * ndim


#: The direction steps (x, y, z), each direction's opposite and the stream's 64-bit mask, for the
#: plain-Python twins (:mod:`gamelab.lattice._replica_twins`).
STEPS = (_DX, _DY, _DZ)
OPPOSITE = _OPPOSITE
MASK64 = _MASK64
