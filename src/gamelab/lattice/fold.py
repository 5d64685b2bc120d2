"""Folding chains too long to enumerate: PERM chain growth, with proof where one is available.

:func:`fold` searches for a conformation with as many HH contacts as possible by the
pruned-enriched Rosenbluth method (PERM: Grassberger, Phys. Rev. E 56, 3682 (1997)) in the
"new PERM with importance sampling" form of Hsu, Mehra, Nadler & Grassberger (J. Chem. Phys.
118, 444 (2003), arXiv cond-mat/0208042): the chain grows one residue at a time (depth-first);
the next site is drawn with probability proportional to exp(beta * new HH contacts) x (free
neighbours of the site + 1/2); a partial chain whose Rosenbluth weight is far above the running
average is continued along several *distinct* next sites (enrichment), one far below it is
dropped with probability 1/2 (pruning, the survivor's weight doubled). Low temperature
(beta around 3) concentrates the search on compact, H-core folds.

A result says how its score is known:

* ``proven (exhaustive)`` - the chain is short enough to enumerate (:mod:`.enumeration`), and
  the best score is the exact maximum;
* ``proven (bound)`` - the score equals a simple upper bound: contacts join residues of opposite
  parity, and a residue has at most 2 (square) / 4 (cubic) free faces, 3 / 5 at a chain end;
* ``found`` - the best found, no proof (compare with the literature optimum when known).

Cost: a tour costs O(L) per grown residue; the standard 2D benchmarks of length 24, 25 and 36
reach their known optima (9, 8, 14 HH contacts) in well under a second to a few seconds.
The numba kernel :func:`perm_kernel` has a plain-Python twin :func:`perm_python` that draws the
same random numbers (numba's np.random matches NumPy's legacy Mersenne Twister) and is compared
against it in the tests.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from gamelab.lattice._kernels import MOVE_LETTERS, direction_offsets
from gamelab.lattice.enumeration import MAX_LENGTH, contact_sets
from gamelab.lattice.rules import check_lattice, dimensions, hh_score, parse_sequence

#: The standard 2D HP benchmarks and their optimal number of HH contacts (research notes,
#: section 2; Unger & Moult 1993, Hsu et al. 2003, optimality proved by minwalk, Giaquinta &
#: Pozzi 2013).
BENCHMARKS_2D = {
    "S1-18a": ("HHPPPPPHHPPPHPPPHP", 4),
    "S1-18b": ("HPHPHHHPPPHHHHPPHH", 8),
    "S1-18c": ("PHPPHPHHHPHHPHHHHH", 9),
    "S1-20a": ("HPHPPHHPHPPHPHHPPHPH", 9),
    "S1-20b": ("HHHPPHPHPHPPHPHPHPPH", 10),
    "S1-24": ("HHPPHPPHPPHPPHPPHPPHPPHH", 9),
    "S1-25": ("PPHPPHHPPPPHHPPPPHHPPPPHH", 8),
    "S1-36": ("PPPHHPPHHPPPPPHHHHHHHPPHHPPPPHHPPHPP", 14),
    "S1-48": ("PPHPPHHPPHHPPPPPHHHHHHHHHHPPPPPPHHPPHHPPHPPHHHHH", 23),
    "S1-50": ("HHPHPHPHPHHHHPHPPPHPPPHPPPPHPPPHPPPHPHHHHPHPHPHPHH", 21),
}


@njit(cache=True)
def perm_kernel(is_h, ndim, beta, tours, seed, c_plus, target):
    """(best contacts, best moves as direction indices, tours run). Stops at `target`."""
    n = is_h.shape[0]
    nd = 2 * ndim
    side = 2 * n + 3
    offs = direction_offsets(side)
    grid = np.zeros(side**ndim, dtype=np.int32)
    center = (n + 1) * (1 + side + (side * side if ndim == 3 else 0))
    pos = np.zeros(n, dtype=np.int64)
    dirs = np.zeros(n, dtype=np.int64)
    energy = np.zeros(n, dtype=np.int64)
    weight = np.zeros(n, dtype=np.float64)
    zsum = np.zeros(n, dtype=np.float64)
    pend_dir = np.zeros((n, 6), dtype=np.int64)
    pend_gain = np.zeros((n, 6), dtype=np.int64)
    pend_w = np.zeros((n, 6), dtype=np.float64)
    pend_k = np.zeros(n, dtype=np.int64)
    pend_i = np.zeros(n, dtype=np.int64)
    cand_d = np.zeros(6, dtype=np.int64)
    cand_g = np.zeros(6, dtype=np.int64)
    cand_q = np.zeros(6, dtype=np.float64)
    cand_b = np.zeros(6, dtype=np.float64)
    best = -1
    best_dirs = np.zeros(n, dtype=np.int64)
    np.random.seed(seed)
    tour = 0
    while tour < tours and best < target:
        tour += 1
        pos[0] = center
        grid[center] = 1
        pos[1] = center + offs[0]
        grid[pos[1]] = 2
        dirs[1] = 0
        energy[1] = 0
        weight[1] = 1.0
        depth = 1
        pend_k[1] = -1  # to expand
        while depth >= 1:
            if pend_k[depth] == -1:
                # choose the continuations of the chain ending at residue `depth`
                pend_i[depth] = 0
                pend_k[depth] = 0
                if depth == n - 1:
                    continue
                k = 0
                bsum = 0.0
                qsum = 0.0
                for d in range(nd):
                    c = pos[depth] + offs[d]
                    if grid[c] != 0:
                        continue
                    gain = 0
                    free = 0
                    for e in range(nd):
                        r = grid[c + offs[e]] - 1
                        if r < 0:
                            free += 1
                        elif is_h[depth + 1] and r < depth and is_h[r]:
                            gain += 1
                    b = math.exp(beta * gain)
                    cand_d[k] = d
                    cand_g[k] = gain
                    cand_b[k] = b
                    cand_q[k] = b * (free + 0.5)
                    bsum += b
                    qsum += cand_q[k]
                    k += 1
                if k == 0:
                    continue
                w_pred = weight[depth] * bsum  # the Rosenbluth weight of the next step
                base = weight[depth]
                avg = zsum[depth + 1] / tour
                copies = 1
                if tour > 1 and avg > 0.0:
                    upper = c_plus * avg
                    if w_pred > upper:
                        copies = min(k, int(math.ceil(w_pred / upper)))
                    elif w_pred < 0.2 * upper:
                        if np.random.random() < 0.5:
                            continue
                        base *= 2.0
                # draw `copies` distinct candidates with probability ~ q; importance weight
                # b / (copies * p) keeps the weights comparable across tours
                q_total = qsum
                for j in range(copies):
                    u = np.random.random() * qsum
                    acc = 0.0
                    pick = -1
                    for m in range(k):
                        if cand_q[m] > 0.0:
                            pick = m
                            acc += cand_q[m]
                            if u < acc:
                                break
                    pend_dir[depth, j] = cand_d[pick]
                    pend_gain[depth, j] = cand_g[pick]
                    pend_w[depth, j] = base * cand_b[pick] * q_total / (cand_q[pick] * copies)
                    qsum -= cand_q[pick]
                    cand_q[pick] = 0.0
                pend_k[depth] = copies
                continue
            if pend_i[depth] >= pend_k[depth]:
                if depth >= 2:
                    grid[pos[depth]] = 0
                depth -= 1
                continue
            j = pend_i[depth]
            pend_i[depth] = j + 1
            d = pend_dir[depth, j]
            c = pos[depth] + offs[d]
            grid[c] = depth + 2
            pos[depth + 1] = c
            dirs[depth + 1] = d
            energy[depth + 1] = energy[depth] + pend_gain[depth, j]
            weight[depth + 1] = pend_w[depth, j]
            depth += 1
            zsum[depth] += weight[depth]
            if depth == n - 1 and energy[depth] > best:
                best = energy[depth]
                for m in range(n):
                    best_dirs[m] = dirs[m]
            pend_k[depth] = -1
        grid[center] = 0
    return best, best_dirs, tour


def perm_python(is_h, ndim, beta, tours, seed, c_plus, target):
    """Readable twin of :func:`perm_kernel` (recursive, coordinates in a dict, same draws)."""
    n = len(is_h)
    vectors = [(1, 0, 0), (0, 1, 0), (-1, 0, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)][: 2 * ndim]
    rs = np.random.RandomState(seed)
    zsum = [0.0] * n
    state = {"best": -1, "best_dirs": [0] * n}
    sites: dict[tuple[int, int, int], int] = {}
    chain: list[tuple[int, int, int]] = []
    dirs = [0] * n

    def add(a, b):
        return (a[0] + b[0], a[1] + b[1], a[2] + b[2])

    def grow(depth, energy, weight, tour):
        # the chain holds residues 0..depth
        if depth == n - 1:
            return
        cands = []
        for d, v in enumerate(vectors):
            c = add(chain[depth], v)
            if c in sites:
                continue
            gain = free = 0
            for u in vectors:
                r = sites.get(add(c, u))
                if r is None:
                    free += 1
                elif is_h[depth + 1] and r < depth and is_h[r]:
                    gain += 1
            b = math.exp(beta * gain)
            cands.append([d, gain, b, b * (free + 0.5)])
        if not cands:
            return
        bsum = sum(c[2] for c in cands)
        qsum = sum(c[3] for c in cands)
        w_pred = weight * bsum
        base = weight
        avg = zsum[depth + 1] / tour
        copies = 1
        if tour > 1 and avg > 0.0:
            upper = c_plus * avg
            if w_pred > upper:
                copies = min(len(cands), math.ceil(w_pred / upper))
            elif w_pred < 0.2 * upper:
                if rs.random_sample() < 0.5:
                    return
                base *= 2.0
        q_total = qsum
        chosen = []
        for _ in range(copies):
            u = rs.random_sample() * qsum
            acc, pick = 0.0, -1
            for m, c in enumerate(cands):
                if c[3] > 0.0:
                    pick = m
                    acc += c[3]
                    if u < acc:
                        break
            d, gain, b, q = cands[pick]
            chosen.append((d, gain, base * b * q_total / (q * copies)))
            qsum -= q
            cands[pick][3] = 0.0
        for d, gain, w in chosen:
            c = add(chain[depth], vectors[d])
            sites[c] = depth + 1
            chain.append(c)
            dirs[depth + 1] = d
            zsum[depth + 1] += w
            if depth + 1 == n - 1 and energy + gain > state["best"]:
                state["best"] = energy + gain
                state["best_dirs"] = list(dirs)
            grow(depth + 1, energy + gain, w, tour)
            chain.pop()
            del sites[c]

    tour = 0
    while tour < tours and state["best"] < target:
        tour += 1
        sites.clear()
        chain[:] = [(0, 0, 0), (1, 0, 0)]
        sites[(0, 0, 0)] = 0
        sites[(1, 0, 0)] = 1
        dirs[1] = 0
        grow(1, 0, 1.0, tour)
    return state["best"], np.array(state["best_dirs"], dtype=np.int64), tour


def contact_upper_bound(sequence: str, lattice: str = "square") -> int:
    """A simple bound on the HH contacts of any fold: contacts join opposite-parity residues,
    and residue i has at most 2 (square) / 4 (cubic) free faces, one more at a chain end; nor
    can there be more contacts than H pairs (i, j) with j - i odd and at least 3."""
    seq = parse_sequence(sequence)
    inner = 2 if check_lattice(lattice) == "square" else 4
    faces = [inner + (1 if i in (0, len(seq) - 1) else 0) for i in range(len(seq))]
    even = sum(
        f for i, (c, f) in enumerate(zip(seq, faces, strict=True)) if c == "H" and i % 2 == 0
    )
    odd = sum(f for i, (c, f) in enumerate(zip(seq, faces, strict=True)) if c == "H" and i % 2 == 1)
    h = [i for i, c in enumerate(seq) if c == "H"]
    possible_pairs = sum(1 for i in h for j in h if j - i >= 3 and (j - i) % 2 == 1)
    return min(even, odd, possible_pairs)


@dataclass(frozen=True)
class FoldResult:
    sequence: str
    lattice: str
    conformation: str
    score: int
    status: str  # "proven (exhaustive)", "proven (bound)" or "found"
    upper_bound: int
    tours: int
    seconds: float
    known_optimum: int | None = None


def _reverse_walk(moves: str) -> str:
    inverse = {"R": "L", "L": "R", "U": "D", "D": "U", "F": "B", "B": "F"}
    return "".join(inverse[m] for m in reversed(moves))


def fold(
    sequence: str,
    lattice: str = "square",
    *,
    seed: int = 0,
    seconds: float = 10.0,
    target: int | None = None,
    betas: tuple[float, ...] = (3.0, 2.5, 3.5),
    tours_per_run: int = 20_000,
    c_plus: float = 1.0,
    exhaustive: bool = True,
) -> FoldResult:
    """Best fold found for `sequence` (an HP string or a benchmark name like ``S1-36``) within
    `seconds` (see module docstring).

    Runs PERM repeatedly, alternating the growth direction (from either chain end) and beta,
    until `target` (default: the contact upper bound, or the literature optimum of a standard
    benchmark) is reached or time is up. Chains short enough to enumerate are solved exactly
    first when `exhaustive` is set.
    """
    check_lattice(lattice)
    if sequence in BENCHMARKS_2D:
        sequence = BENCHMARKS_2D[sequence][0]
    seq = parse_sequence(sequence, min_length=2)
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    started = time.perf_counter()
    bound = contact_upper_bound(seq, lattice)
    known = next((opt for s, opt in BENCHMARKS_2D.values() if s == seq), None)
    if lattice != "square":
        known = None
    if exhaustive and len(seq) <= min(MAX_LENGTH[lattice], 18 if lattice == "square" else 12):
        sets = contact_sets(len(seq), lattice)
        conf = sets.best_conformation(seq)
        return FoldResult(
            seq,
            lattice,
            conf,
            hh_score(seq, conf, lattice),
            "proven (exhaustive)",
            bound,
            0,
            time.perf_counter() - started,
            known,
        )
    goal = target if target is not None else (known if known is not None else bound)
    ndim = dimensions(lattice)
    best_score, best_conf, tours, run = -1, "", 0, 0
    while True:
        reverse = run % 2 == 1
        beta = betas[(run // 2) % len(betas)]
        grow_seq = seq[::-1] if reverse else seq
        is_h = np.array([c == "H" for c in grow_seq], dtype=np.bool_)
        score, dirs, used = perm_kernel(
            is_h, ndim, beta, tours_per_run, seed * 1000 + run, c_plus, goal
        )
        tours += int(used)
        if score > best_score:
            moves = "".join(MOVE_LETTERS[d] for d in dirs[1:])
            best_score = int(score)
            best_conf = _reverse_walk(moves) if reverse else moves
        run += 1
        if best_score >= goal or time.perf_counter() - started > seconds:
            break
    status = "proven (bound)" if best_score == bound else "found"
    assert hh_score(seq, best_conf, lattice) == best_score
    return FoldResult(
        seq,
        lattice,
        best_conf,
        best_score,
        status,
        bound,
        tours,
        time.perf_counter() - started,
        known,
    )
