"""numba kernels of replica-exchange Monte Carlo with pull moves (see :mod:`.replica`).

:func:`remc_kernel` runs rounds of replica exchange in place on a batch of replicas; its plain-
Python twin :func:`gamelab.lattice._replica_twins.remc_python` does the same with coordinate
tuples and a dict of occupied sites and draws the same random numbers (a splitmix64 stream whose
state travels with the replicas), so the two agree exactly.

State of a replica: its residues' sites ``pos[r]`` and its occupancy grid ``grid[r]``, a
conformation as :mod:`._move_kernels` keeps it (the torus grid, the numbered moves, their
proposal and references are described there); this module draws the moves, accepts them by
Metropolis, regrows fragments, exchanges the replicas and restarts them.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from gamelab.lattice._move_kernels import (
    DX,
    DY,
    DZ,
    cell,
    place,
    propose,
    relocate,
    slot_count,
    torus,
)

#: The stream's 64-bit mask, for the plain-Python twins (:mod:`gamelab.lattice._replica_twins`).
MASK64 = (1 << 64) - 1


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def next_random(rng):
    """The next splitmix64 output of the state ``rng[0]`` (a uint64 array), advancing it."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def uniform(rng):
    return np.float64(next_random(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def below(rng, m):
    return np.int64(next_random(rng) % np.uint64(m))


@njit(cache=True, inline="always")
def _range_contacts2(is_h, pos, grid, lo, hi, nd, mask, shift):
    """Twice the HH contacts touching residues lo..hi (a pair inside the range counts 2 once)."""
    total = 0
    for i in range(lo, hi + 1):
        if not is_h[i]:
            continue
        for e in range(nd):
            r = grid[cell(pos[i, 0] + DX[e], pos[i, 1] + DY[e], pos[i, 2] + DZ[e], mask, shift)]
            r -= 1
            if r >= 0 and is_h[r] and (r < i - 1 or r > i + 1):
                total += 1 if lo <= r <= hi else 2
    return total


@njit(cache=True, inline="always")
def _keep_or_undo(ok, gain, pos, grid, new, lo, hi, mask, shift):
    """The end of a Metropolis step whose proposed sites new[lo..hi] are on the grid: if `ok`,
    copy them into `pos` and return `gain`; else put `pos` back on the grid and return 0."""
    if ok:
        for i in range(lo, hi + 1):
            for c in range(3):
                pos[i, c] = new[i, c]
        return gain
    relocate(grid, new, pos, lo, hi, mask, shift)
    return 0


@njit(cache=True, inline="always")
def _metropolis(is_h, pos, grid, nd, lo, hi, beta, rng, mask, shift, new, bias, now):
    """Accept the proposed sites new[lo..hi] of residues lo..hi by Metropolis at inverse
    temperature beta; the change in contacts (0 if rejected). pos/grid updated in place. With a
    non-empty `bias` (indexed by contacts; `now` the contacts before the move) the weight of a
    fold of c contacts is exp(beta c - bias[c]) (the flat-histogram penalty, see
    :func:`remc_kernel`)."""
    before = _range_contacts2(is_h, pos, grid, lo, hi, nd, mask, shift)
    # the grid as after the move, the contacts counted at the new sites; `pos` changes only if
    # the move is accepted (a rejected move puts the grid back and copies nothing)
    relocate(grid, pos, new, lo, hi, mask, shift)
    gain = (_range_contacts2(is_h, new, grid, lo, hi, nd, mask, shift) - before) // 2
    if bias.shape[0] == 0:
        ok = gain >= 0 or uniform(rng) < math.exp(beta * gain)
    else:
        x = beta * gain - bias[now + gain] + bias[now]
        ok = x >= 0.0 or uniform(rng) < math.exp(x)
    return _keep_or_undo(ok, gain, pos, grid, new, lo, hi, mask, shift)


@njit(cache=True, inline="always")
def _try_move(is_h, pos, grid, nd, slot, beta, rng, mask, shift, new, bias, now):
    """Propose slot, accept by Metropolis (:func:`_metropolis`); the change in contacts (0 if
    rejected or illegal). :func:`remc_kernel` makes the two calls itself (numba inlines each
    call site, copying the callee's code: two small copies cost less to compile than one of
    this function)."""
    n = is_h.shape[0]
    lo, hi = propose(pos, grid, n, nd, slot, mask, shift, new)
    if lo < 0:
        return 0
    return _metropolis(is_h, pos, grid, nd, lo, hi, beta, rng, mask, shift, new, bias, now)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _straighten(pos, grid, mask, shift):
    """Put every replica back on the straight chain along +x (a restart)."""
    n = pos.shape[1]
    for r in range(pos.shape[0]):
        place(pos[r], grid[r], 0, n - 1, False, mask, shift)
        for i in range(n):
            pos[r, i, 0] = i
            pos[r, i, 1] = 0
            pos[r, i, 2] = 0
        place(pos[r], grid[r], 0, n - 1, True, mask, shift)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _kick(is_h, pos, grid, contacts, best_pos, best, steps, nd, rng, mask, shift, new):
    """Put every replica on the best fold so far, then make `steps` uniformly drawn move slots
    at infinite temperature (every legal move accepted; a restart from a perturbed best). Keeps
    ``best`` should a kick beat it; returns the most contacts of the kicked replicas."""
    n = pos.shape[1]
    slots = slot_count(n, nd)
    top = 0
    for r in range(pos.shape[0]):
        place(pos[r], grid[r], 0, n - 1, False, mask, shift)
        for i in range(n):
            for c in range(3):
                pos[r, i, c] = best_pos[i, c]
        place(pos[r], grid[r], 0, n - 1, True, mask, shift)
        contacts[r] = best[0]
        for _ in range(steps):
            gain = _try_move(
                is_h, pos[r], grid[r], nd, below(rng, slots), 0.0, rng, mask, shift, new,
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


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _regrow(is_h, pos, grid, nd, beta, grow, rng, mask, shift, longest, new, weight, cells):
    """One fragment-regrowth step (module docstring): a stretch of 2 ... `longest` residues is
    taken off and grown again site by site, each site drawn among the free ones with weight
    exp(grow x the HH contacts it makes), then the new stretch is accepted by Metropolis at
    inverse temperature beta. Returns the change in contacts (0 if rejected or stuck); `pos` and
    `grid` are updated in place. `weight` (nd floats) and `cells` (nd x 3) are scratch."""
    n = is_h.shape[0]
    length = 2 + below(rng, longest - 1)
    if length > n - 1:
        length = n - 1
    a = below(rng, n - length + 1)
    b = a + length - 1
    before = _range_contacts2(is_h, pos, grid, a, b, nd, mask, shift)
    place(pos, grid, a, b, False, mask, shift)
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
            x = px + DX[e]
            y = py + DY[e]
            z = pz + DZ[e]
            if grid[cell(x, y, z, mask, shift)] != 0:
                continue
            if tail >= 0:  # the residues left must still reach the tail's neighbour (its own
                # site is occupied, so never chosen)
                d = abs(x - pos[tail, 0]) + abs(y - pos[tail, 1]) + abs(z - pos[tail, 2])
                if d > tail - k:
                    continue
            c = 0
            if is_h[k]:
                for f in range(nd):
                    r = grid[cell(x + DX[f], y + DY[f], z + DZ[f], mask, shift)] - 1
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
                grid[cell(new[j, 0], new[j, 1], new[j, 2], mask, shift)] = 0
                j += step
            place(pos, grid, a, b, True, mask, shift)
            return 0
        u = uniform(rng) * total
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
        grid[cell(px, py, pz, mask, shift)] = k + 1
        k += step
    gain = (_range_contacts2(is_h, new, grid, a, b, nd, mask, shift) - before) // 2
    ok = gain >= 0 or uniform(rng) < math.exp(beta * gain)
    return _keep_or_undo(ok, gain, pos, grid, new, a, b, mask, shift)


@njit(cache=True)
def remc_kernel(replicas, rounds, phi, target, best_pos, best, restart, move_set):
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
    sampling is no longer exactly Boltzmann's: a search heuristic). Returns the rounds run.

    The arguments shared with :func:`kick_kernel` and the twin come as two bundles (plain tuples,
    DEVELOPERS.md "Kernels that share many arguments"): ``replicas`` = (is_h, ndim, temps, pos,
    grid, contacts, rep_at, rng), the replicas changed in place, and ``move_set`` = (end_share,
    bias, flat, rebridge, regrow, longest, grow_bias)."""
    is_h, ndim, temps, pos, grid, contacts, rep_at, rng = replicas
    end_share, bias, flat, rebridge, regrow, longest, grow_bias = move_set
    n = is_h.shape[0]
    nd = 2 * ndim
    shift, mask = torus(n)
    pulls = 2 * n * (nd - 2)
    slots = slot_count(n, nd)
    bridges = n * nd + 2 * nd
    new = np.zeros((n, 3), dtype=np.int64)
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
                if regrow > 0.0 and uniform(rng) < regrow:
                    gain = _regrow(
                        is_h, pos[r], grid[r], nd, beta, grow_bias * beta, rng, mask, shift,
                        longest, new, weight, cells,
                    )  # fmt: skip
                else:
                    if rebridge > 0.0 and uniform(rng) < rebridge:
                        slot = slots + below(rng, bridges)
                    elif end_share > 0.0 and uniform(rng) < end_share:
                        slot = pulls + below(rng, slots - pulls)
                    else:
                        slot = below(rng, slots)
                    # (propose and _metropolis rather than _try_move: numba copies an inlined
                    # callee's code at each call site, and two small copies cost less)
                    gain = 0
                    lo, hi = propose(pos[r], grid[r], n, nd, slot, mask, shift, new)
                    if lo >= 0:
                        gain = _metropolis(
                            is_h, pos[r], grid[r], nd, lo, hi, beta, rng, mask, shift, new, row,
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
            if delta >= 0.0 or uniform(rng) < math.exp(delta):
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
def kick_kernel(replicas, best_pos, best, restart):
    """Make the kick that :func:`remc_kernel` left due (``restart[1] == -1``; otherwise do
    nothing): every replica from the best fold so far, perturbed by ``restart[4]`` steps at
    infinite temperature; ``restart`` then counts it as :func:`remc_kernel` counts a restart.
    Compared with the twin :func:`gamelab.lattice._replica_twins.remc_python` through
    :func:`gamelab.lattice.replica.remc_rounds`."""
    if restart[1] != -1:
        return
    is_h, ndim, _, pos, grid, contacts, _, rng = replicas
    n = is_h.shape[0]
    nd = 2 * ndim
    shift, mask = torus(n)
    new = np.zeros((n, 3), dtype=np.int64)
    restart[2] = _kick(
        is_h, pos, grid, contacts, best_pos, best, restart[4], nd, rng, mask, shift, new
    )
    restart[1] = 0
    restart[3] += 1
