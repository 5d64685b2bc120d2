"""Plain-Python twins of the replica-exchange kernels (:mod:`._replica_kernels`).

:func:`remc_python` runs the rounds of :func:`._replica_kernels.remc_kernel` with coordinate tuples
and a dict of occupied sites and draws the same splitmix64 stream, so the two agree exactly;
:func:`apply_move_python` makes one numbered move like :func:`._move_kernels.apply_move_kernel`.
Readable, slow: for the tests that compare them and for small runs.
"""

from __future__ import annotations

import math

import numpy as np

from gamelab.lattice._move_kernels import OPPOSITE, STEPS, move_slots, rebridge_slots
from gamelab.lattice._replica_kernels import MASK64

_DX, _DY, _DZ = STEPS

Site = tuple[int, int, int]


def next_random_python(state: list[int]) -> int:
    state[0] = (state[0] + 0x9E3779B97F4A7C15) & MASK64
    z = state[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def uniform_python(state: list[int]) -> float:
    """The next uniform draw in [0, 1) of the stream `state` (53 bits, as the kernels'
    ``uniform``)."""
    return float(next_random_python(state) >> 11) * (1.0 / 9007199254740992.0)


def _site(row: np.ndarray) -> Site:
    return (int(row[0]), int(row[1]), int(row[2]))


def _step(site: Site, e: int) -> Site:
    return (site[0] + _DX[e], site[1] + _DY[e], site[2] + _DZ[e])


def _touch(a: Site, b: Site) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) == 1


def _move_python(chain: list[Site], where: dict[Site, int], nd: int, slot: int) -> dict[int, Site]:
    """{residue: new site} of move `slot` (empty if illegal); readable form of _propose."""
    n = len(chain)

    def pull(i: int, step: int, site_l: Site, site_c: Site, need_c: bool) -> dict[int, Site]:
        if site_l in where:
            return {}
        moved = {i: site_l}
        j = i + step
        if not 0 <= j < n:
            return moved
        if _touch(chain[j], site_l):
            return {} if need_c else moved
        if site_c in where:
            return {}
        moved[j] = site_c
        j += step
        while 0 <= j < n and not _touch(chain[j], moved[j - step]):
            moved[j] = chain[j - 2 * step]
            j += step
        return moved

    pulls = 2 * n * (nd - 2)
    ends = pulls + 2 * nd * (nd - 1)
    if slot >= ends + 2 * (nd - 1):  # bond rebridging: a stretch of the chain reversed
        t = slot - ends - 2 * (nd - 1)
        if t < n * nd:
            i, e = divmod(t, nd)
        else:
            i, e = (n - 1 if t - n * nd < nd else 0), (t - n * nd) % nd
        r = where.get(_step(chain[i], e))
        if r is None:
            return {}
        if t < n * nd:
            if r <= i + 1 or r + 1 >= n or not _touch(chain[i + 1], chain[r + 1]):
                return {}
            lo, hi = i + 1, r
        elif i == n - 1:
            if r >= n - 2:
                return {}
            lo, hi = r + 1, n - 1
        else:
            if r <= 1:
                return {}
            lo, hi = 0, r - 1
        return {k: chain[lo + hi - k] for k in range(lo, hi + 1)}
    if slot < pulls:  # (residue, side, k-th direction perpendicular to the anchor's bond)
        i, rest = divmod(slot, 2 * (nd - 2))
        toward_end, k = divmod(rest, nd - 2)
        step = 1 if toward_end else -1
        anchor = i - step
        if not 0 <= anchor < n:
            return {}
        bond = tuple(a - b for a, b in zip(chain[anchor], chain[i], strict=True))
        across = [
            e for e in range(nd) if bond[0] * _DX[e] + bond[1] * _DY[e] + bond[2] * _DZ[e] == 0
        ]
        e = across[k]
        return pull(i, step, _step(chain[anchor], e), _step(chain[i], e), False)
    if slot < ends:  # (end, e1, k-th direction other than -e1)
        at_end, rest = divmod(slot - pulls, nd * (nd - 1))
        e1, k = divmod(rest, nd - 1)
        e2 = [e for e in range(nd) if e != OPPOSITE[e1]][k]
        i, step = (n - 1, -1) if at_end else (0, 1)
        site_b = _step(chain[i], e1)
        return pull(i, step, _step(site_b, e2), site_b, True)
    at_end, k = divmod(slot - ends, nd - 1)  # (end, k-th direction other than its bond's)
    i = n - 1 if at_end else 0
    neighbour = chain[i - 1 if at_end else 1]
    e = [e for e in range(nd) if _step(neighbour, e) != chain[i]][k]
    site = _step(neighbour, e)
    return {} if site in where else {i: site}


def _hh_of(is_h: list[bool], chain: list[Site], where: dict[Site, int], nd: int) -> int:
    total = 0
    for i, site in enumerate(chain):
        if is_h[i]:
            for e in range(nd):
                r = where.get(_step(site, e))
                if r is not None and r > i + 1 and is_h[r]:
                    total += 1
    return total


def apply_move_python(pos: np.ndarray, ndim: int, slot: int) -> tuple[bool, np.ndarray]:
    """Twin of :func:`apply_move_kernel`."""
    chain = [_site(row) for row in pos]
    where = {site: i for i, site in enumerate(chain)}
    moved = _move_python(chain, where, 2 * ndim, slot)
    out = pos.copy()
    for i, site in moved.items():
        out[i] = site
    return bool(moved), out


def remc_python(replicas, rounds, phi, target, best_pos, best, restart, move_set) -> int:
    """Twin of :func:`remc_kernel`: the same rounds with coordinate tuples and dicts (`grid` is
    not read; the arrays are updated in place at the end, except `grid`)."""
    is_h, ndim, temps, pos, _, contacts, rep_at, rng = replicas
    end_share, bias, flat, rebridge, regrow, longest, grow_bias = move_set
    n = len(is_h)
    nd = 2 * ndim
    h = [bool(v) for v in is_h]
    state = [int(rng[0])]
    slots = move_slots(n, ndim)
    bridges = rebridge_slots(n, ndim)
    chains: list[list[Site]] = [[_site(row) for row in replica] for replica in pos]
    wheres = [{site: i for i, site in enumerate(chain)} for chain in chains]
    scores = [int(c) for c in contacts]
    order = [int(r) for r in rep_at]
    top = int(best[0])
    top_chain = [_site(row) for row in best_pos]
    patience, stalled, since_start, restarts, kick = (int(v) for v in restart)

    def uniform() -> float:
        return uniform_python(state)

    pulls = 2 * n * (nd - 2)

    penalty = [[float(v) for v in row] for row in bias]

    def metropolis(
        chain: list[Site],
        where: dict[Site, int],
        beta: float,
        slot: int,
        row: list[float] | None = None,
        now: int = 0,
    ) -> int:
        """One step of move `slot` at inverse temperature beta (and the penalty `row` of a fold
        of `now` contacts, if given): the gain (0 if rejected or illegal), `chain` and `where`
        updated."""
        moved = _move_python(chain, where, nd, slot)
        if not moved:
            return 0
        before = _hh_of(h, chain, where, nd)
        saved = {i: chain[i] for i in moved}
        for i in moved:
            del where[chain[i]]
        for i, site in moved.items():
            chain[i] = site
            where[site] = i
        gain = _hh_of(h, chain, where, nd) - before
        if row is None:
            if gain >= 0 or uniform() < math.exp(beta * gain):
                return gain
        else:
            x = beta * gain - row[now + gain] + row[now]
            if x >= 0.0 or uniform() < math.exp(x):
                return gain
        for i in moved:
            del where[chain[i]]
        for i, site in saved.items():
            chain[i] = site
            where[site] = i
        return 0

    def regrown(chain: list[Site], where: dict[Site, int], beta: float, grow: float) -> int:
        """Twin of :func:`_regrow`: a stretch taken off and grown again, then Metropolis."""
        length = min(2 + next_random_python(state) % (longest - 1), n - 1)
        a = next_random_python(state) % (n - length + 1)
        b = a + length - 1
        before = _hh_of(h, chain, where, nd)
        old = chain[a : b + 1]
        for site in old:
            del where[site]
        if a == 0:
            order, prev, tail = range(b, -1, -1), chain[b + 1], None
        else:
            order, prev, tail = range(a, b + 1), chain[a - 1], (b + 1 if b + 1 < n else None)
        grown: dict[int, Site] = {}
        for k in order:
            options: list[tuple[Site, float]] = []
            for e in range(nd):
                site = _step(prev, e)
                if site in where:
                    continue
                if tail is not None:
                    d = sum(abs(u - v) for u, v in zip(site, chain[tail], strict=True))
                    if d > tail - k:
                        continue
                c = 0
                if h[k]:
                    for f in range(nd):
                        r = where.get(_step(site, f))
                        if r is not None and h[r] and (r < k - 1 or r > k + 1):
                            c += 1
                options.append((site, math.exp(grow * c)))
            if not options:
                for site in grown.values():
                    del where[site]
                for i, site in enumerate(old, start=a):
                    where[site] = i
                return 0
            total = 0.0
            for _, w in options:
                total += w
            u = uniform() * total
            j = 0
            while j < len(options) - 1 and u >= options[j][1]:
                u -= options[j][1]
                j += 1
            prev = options[j][0]
            grown[k] = prev
            where[prev] = k
        for k, site in grown.items():
            chain[k] = site
        gain = _hh_of(h, chain, where, nd) - before
        if gain >= 0 or uniform() < math.exp(beta * gain):
            return gain
        for site in grown.values():
            del where[site]
        for i, site in enumerate(old, start=a):
            chain[i] = site
            where[site] = i
        return 0

    done = 0
    while done < rounds and top < target:
        done += 1
        rose = False
        for t, temp in enumerate(temps):
            r = order[t]
            beta = 1.0 / temp
            chain, where = chains[r], wheres[r]
            row = penalty[t] if flat > 0.0 else None
            for _ in range(phi):
                if regrow > 0.0 and uniform() < regrow:
                    gain = regrown(chain, where, beta, grow_bias * beta)
                else:
                    if rebridge > 0.0 and uniform() < rebridge:
                        slot = slots + next_random_python(state) % bridges
                    elif end_share > 0.0 and uniform() < end_share:
                        slot = pulls + next_random_python(state) % (slots - pulls)
                    else:
                        slot = next_random_python(state) % slots
                    gain = metropolis(chain, where, beta, slot, row, scores[r])
                scores[r] += gain
                if row is not None:
                    row[scores[r]] += flat
                if gain != 0 and scores[r] > since_start:
                    since_start, rose = scores[r], True
                if gain != 0 and scores[r] > top:
                    top = scores[r]
                    top_chain = list(chain)
        for t in range(len(temps) - 1):
            a, b = order[t], order[t + 1]
            delta = (1.0 / temps[t] - 1.0 / temps[t + 1]) * (scores[b] - scores[a])
            if flat > 0.0:
                delta += penalty[t][scores[a]] - penalty[t][scores[b]]
                delta += penalty[t + 1][scores[b]] - penalty[t + 1][scores[a]]
            if delta >= 0.0 or uniform() < math.exp(delta):
                order[t], order[t + 1] = b, a
        if patience > 0:
            stalled = 0 if rose else stalled + 1
            if stalled >= patience and kick > 0:  # from the best so far, perturbed
                for r in range(len(chains)):
                    chains[r] = chain = list(top_chain)
                    wheres[r] = where = {site: i for i, site in enumerate(chain)}
                    scores[r] = top
                    for _ in range(kick):
                        gain = metropolis(chain, where, 0.0, next_random_python(state) % slots)
                        scores[r] += gain
                        if gain != 0 and scores[r] > top:
                            top = scores[r]
                            top_chain = list(chain)
                stalled, since_start, restarts = 0, max(scores), restarts + 1
            elif stalled >= patience:  # from the straight chain
                chains = [[(i, 0, 0) for i in range(n)] for _ in chains]
                wheres = [{site: i for i, site in enumerate(chain)} for chain in chains]
                scores = [0] * len(chains)
                stalled, since_start, restarts = 0, 0, restarts + 1
    for r, chain in enumerate(chains):
        pos[r] = chain
    contacts[:] = scores
    rep_at[:] = order
    rng[0] = np.uint64(state[0])
    best[0] = top
    best_pos[:] = top_chain
    restart[:] = (patience, stalled, since_start, restarts, kick)
    if flat > 0.0:
        bias[:] = penalty
    return done
