"""numba kernels of the pull-move set (with bond rebridging) that the replica exchange draws from
(:mod:`._replica_kernels`, :mod:`.replica`).

A conformation is its residues' lattice sites ``pos[i] = (x, y, z)`` (z = 0 in 2D) with an
occupancy grid ``grid[cell] = residue + 1`` (0 = empty) over a torus of ``side = 2**shift`` cells
per axis (:func:`torus`), ``side > n``: a chain of n residues spans fewer than n cells along any
axis, so two residues can share a torus cell only if they share a site. Coordinates drift freely.
:func:`propose` makes one numbered move; :func:`apply_move_kernel` makes it on a conformation of
its own (the building block the tests use to check that the move set is complete and symmetric);
its plain-Python twin is :func:`gamelab.lattice._replica_twins.apply_move_python`.

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
"""

from __future__ import annotations

import numpy as np
from numba import njit

DX = (1, 0, -1, 0, 0, 0)
DY = (0, 1, 0, -1, 0, 0)
DZ = (0, 0, 0, 0, 1, -1)
OPPOSITE = (2, 3, 0, 1, 5, 4)
#: The directions perpendicular to an axis (x, y, z), four a row; in 2D the first two of x's
#: and y's rows.
_PERP = (1, 3, 4, 5, 0, 2, 4, 5, 0, 1, 2, 3)
#: The direction steps (x, y, z), for the plain-Python twins (:mod:`gamelab.lattice._replica_twins`).
STEPS = (DX, DY, DZ)

# numba inlines an ``inline="always"`` helper before typing, so each use is typed and compiled
# again: only the move's own steps and the grid look-ups are inlined (calls to them cost 6 % of
# the steps, benchmarks/lattice_kernel_speed.py); LLVM inlines the small ones left as calls.


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def torus(n):
    """(shift, mask) of the torus grid of a chain of n residues: ``2**shift > n`` cells per axis."""
    shift = 1
    while (1 << shift) <= n:
        shift += 1
    return shift, (1 << shift) - 1


@njit(cache=True, inline="always")
def cell(x, y, z, mask, shift):
    """The torus cell of the site (x, y, z)."""
    return (x & mask) | ((y & mask) << shift) | ((z & mask) << (2 * shift))


@njit(cache=True, inline="always")
def _adjacent(p, a, q, b):
    return abs(p[a, 0] - q[b, 0]) + abs(p[a, 1] - q[b, 1]) + abs(p[a, 2] - q[b, 2]) == 1


@njit(cache=True, inline="always")
def _free(grid, x, y, z, mask, shift):
    return grid[cell(x, y, z, mask, shift)] == 0


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


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _rebridge(pos, grid, n, nd, t, mask, shift, new):
    """(lo, hi) of bond-rebridging move t (module docstring) and the new sites in new[lo..hi];
    (-1, -1) if it is not a move of this conformation."""
    if t < n * nd:
        i = t // nd
        e = t % nd
    else:
        e = (t - n * nd) % nd
        i = n - 1 if t - n * nd < nd else 0
    r = grid[cell(pos[i, 0] + DX[e], pos[i, 1] + DY[e], pos[i, 2] + DZ[e], mask, shift)] - 1
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


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def slot_count(n, nd):
    """The move slots of a chain of n residues (module docstring; :func:`move_slots`)."""
    return 2 * n * (nd - 2) + 2 * nd * (nd - 1) + 2 * (nd - 1)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _axis(dx, dy):
    """The axis (0 x, 1 y, 2 z) of a unit step whose first two components are dx, dy."""
    return 0 if dx != 0 else (1 if dy != 0 else 2)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _direction(dx, dy, dz):
    """The index e of the unit step (dx, dy, dz) in DX, DY, DZ."""
    if dx != 0:
        return 0 if dx > 0 else 2
    if dy != 0:
        return 1 if dy > 0 else 3
    return 4 if dz > 0 else 5


@njit(cache=True, inline="always")
def propose(pos, grid, n, nd, slot, mask, shift, new):
    """(lo, hi) of the residues move `slot` changes, their new sites in new[lo..hi]; lo = -1 if
    the slot is not a legal move of this conformation (slot numbering: the module docstring)."""
    b = 2 if nd == 4 else 3  # a residue's pull slots: 2 (nd - 2) = 2**b
    p = n << b
    q = p + 2 * nd * (nd - 1)
    if slot >= q + 2 * (nd - 1):  # a bond rebridging
        return _rebridge(pos, grid, n, nd, slot - q - 2 * (nd - 1), mask, shift, new)
    if slot >= q:  # an end move
        t = slot - q
        i = n - 1 if t // (nd - 1) == 1 else 0
        k = i - 1 if i == n - 1 else 1
        # the e-th direction other than the bond's (k, i)
        e = t % (nd - 1)
        if e >= _direction(pos[i, 0] - pos[k, 0], pos[i, 1] - pos[k, 1], pos[i, 2] - pos[k, 2]):
            e += 1
        x = pos[k, 0] + DX[e]
        y = pos[k, 1] + DY[e]
        z = pos[k, 2] + DZ[e]
        if grid[cell(x, y, z, mask, shift)] != 0:
            return -1, -1
        new[i, 0] = x
        new[i, 1] = y
        new[i, 2] = z
        return i, i
    # a pull: residue i to L, its neighbour on the pulled side to C (one call site of _pull,
    # which numba inlines: each site is typed and compiled again)
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
        cx = pos[i, 0] + DX[e]
        cy = pos[i, 1] + DY[e]
        cz = pos[i, 2] + DZ[e]
        lx = pos[a, 0] + DX[e]
        ly = pos[a, 1] + DY[e]
        lz = pos[a, 2] + DZ[e]
        need_c = False
    else:  # an end pull
        t = slot - p
        at_end = t // (nd * (nd - 1))
        e1 = (t // (nd - 1)) % nd
        e2 = t % (nd - 1)  # the e2-th direction other than -e1
        if e2 >= OPPOSITE[e1]:
            e2 += 1
        i = n - 1 if at_end == 1 else 0
        step = -1 if at_end == 1 else 1
        cx = pos[i, 0] + DX[e1]
        cy = pos[i, 1] + DY[e1]
        cz = pos[i, 2] + DZ[e1]
        lx = cx + DX[e2]
        ly = cy + DY[e2]
        lz = cz + DZ[e2]
        need_c = True
    last = _pull(pos, grid, n, i, step, lx, ly, lz, cx, cy, cz, need_c, mask, shift, new)
    if last == -2:
        return -1, -1
    return min(i, last), max(i, last)


@njit(cache=True, inline="always")
def place(pos, grid, lo, hi, value, mask, shift):
    """Put residues lo..hi at their sites `pos` on the grid (`value`), or take them off."""
    for i in range(lo, hi + 1):
        grid[cell(pos[i, 0], pos[i, 1], pos[i, 2], mask, shift)] = (i + 1) if value else 0


@njit(cache=True, inline="always")
def relocate(grid, old, new, lo, hi, mask, shift):
    """Move residues lo..hi on the grid from their sites `old` to their sites `new` (all taken
    off, then all put on: the two ranges may share sites)."""
    for i in range(lo, hi + 1):
        grid[cell(old[i, 0], old[i, 1], old[i, 2], mask, shift)] = 0
    for i in range(lo, hi + 1):
        grid[cell(new[i, 0], new[i, 1], new[i, 2], mask, shift)] = i + 1


@njit(cache=True)
def apply_move_kernel(pos, ndim, slot):
    """The sites after move `slot` of the conformation `pos` (n x 3), or None-like: returns
    (legal, new positions)."""
    n = pos.shape[0]
    shift, mask = torus(n)
    grid = np.zeros(1 << (ndim * shift), dtype=np.int32)
    place(pos, grid, 0, n - 1, True, mask, shift)
    new = pos.copy()
    lo, hi = propose(pos, grid, n, 2 * ndim, slot, mask, shift, new)
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
