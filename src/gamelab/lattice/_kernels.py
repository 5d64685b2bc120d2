"""numba hot loops of the lattice package, each with a plain-Python twin the tests compare against.

* :func:`enumerate_kernel` walks every symmetry-distinct self-avoiding conformation of a chain once
  (iterative depth-first search on an occupancy grid) and, *while walking*, folds each walk's
  contact set (a bitmask over the possible contact pairs) into an open-addressing hash table with
  a multiplicity and one representative walk per set. Memory is proportional to the number of
  distinct contact sets (910,972 at L=20 in 2D), never to the number of walks (41.9 million).
  Twin: :func:`enumerate_python`.
* :func:`histogram_kernel` / :func:`histograms_kernel`: the score histogram of one / many
  sequences, a popcount of ``set & HH-pairs`` per distinct contact set weighted by its
  multiplicity (a large batch runs the second on pieces from a few threads: it releases the
  GIL). Twin: :func:`histogram_python`.

Symmetry reduction (as in harmslab/latticeproteins and the seed paper's C enumerator): the first
move is ``R``; the first move off the x axis must be ``U``; on the cubic lattice the first move out
of the xy plane must be ``F``. That picks one walk per orbit of the lattice's point group (8
elements in 2D, 48 in 3D), so in 2D the count is OEIS A046171 (802,075 walks at L=16).
Move order everywhere: R U L D F B (+x, +y, -x, -y, +z, -z).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

_DIR_VECTORS = ((1, 0, 0), (0, 1, 0), (-1, 0, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
MOVE_LETTERS = "RULDFB"


@intrinsic
def _popcount(typingctx, x):
    """LLVM's ctpop on a uint64 (one instruction on any x86-64 with POPCNT)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


def pair_table(length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The possible contact pairs of a chain on a bipartite lattice: (i, j) with j - i odd and at
    least 3 (square and cubic lattices are bipartite, so even j - i never touch).

    Returns (pi, pj, index) where pair k is (pi[k], pj[k]) and index[i * length + j] = k (-1 if
    (i, j) can never be a contact).
    """
    pi, pj = [], []
    for i in range(length):
        for j in range(i + 3, length, 2):
            pi.append(i)
            pj.append(j)
    index = np.full(length * length, -1, dtype=np.int64)
    for k, (i, j) in enumerate(zip(pi, pj, strict=True)):
        index[i * length + j] = k
    return np.array(pi, dtype=np.int64), np.array(pj, dtype=np.int64), index


def words_for(length: int) -> int:
    """uint64 words needed for one contact-set bitmask."""
    npairs = len(pair_table(length)[0])
    return max(1, (npairs + 63) // 64)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _hash(keys, row, words):
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(words):
        h ^= keys[row, w]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _insert(tkeys, tcounts, treps, src, row, count, rep):
    """Add `count` walks with contact set src[row] to the table; True if the set was new."""
    words = tkeys.shape[1]
    cap = tcounts.shape[0]
    slot = np.int64(_hash(src, row, words) & np.uint64(cap - 1))
    while True:
        if tcounts[slot] == 0:
            for w in range(words):
                tkeys[slot, w] = src[row, w]
            tcounts[slot] = count
            treps[slot] = rep
            return True
        same = True
        for w in range(words):
            if tkeys[slot, w] != src[row, w]:
                same = False
                break
        if same:
            tcounts[slot] += count
            return False
        slot = (slot + 1) & (cap - 1)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _grow(tkeys, tcounts, treps):
    cap = tcounts.shape[0] * 2
    nkeys = np.zeros((cap, tkeys.shape[1]), dtype=np.uint64)
    ncounts = np.zeros(cap, dtype=np.int64)
    nreps = np.zeros(cap, dtype=np.int64)
    for s in range(tcounts.shape[0]):
        if tcounts[s] > 0:
            _insert(nkeys, ncounts, nreps, tkeys, s, tcounts[s], treps[s])
    return nkeys, ncounts, nreps


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def direction_offsets(side):
    """Cell-index steps of the six moves (MOVE_LETTERS: R U L D F B) on a grid `side` cells wide."""
    offs = np.zeros(6, dtype=np.int64)
    offs[0] = 1
    offs[1] = side
    offs[2] = -1
    offs[3] = -side
    offs[4] = side * side
    offs[5] = -side * side
    return offs


@njit(cache=True)
def enumerate_kernel(length, ndim, words, pair_index, capacity):
    """(keys, counts, reps, total): distinct contact sets (rows of uint64 words), how many walks
    have each, one walk per set encoded as base-(2*ndim) digits of moves 2..L-1, and the number
    of walks. `capacity` is the initial hash-table size (a power of two; it doubles as needed).
    Needs length >= 3."""
    nd = 2 * ndim
    side = 2 * length + 1
    offs = direction_offsets(side)
    ncell = side**ndim
    grid = np.zeros(ncell, dtype=np.int32)
    center = length * (1 + side + (side * side if ndim == 3 else 0))
    pos = np.zeros(length, dtype=np.int64)
    masks = np.zeros((length, words), dtype=np.uint64)
    phase = np.zeros(length, dtype=np.int64)
    code = np.zeros(length, dtype=np.int64)
    nextdir = np.zeros(length + 1, dtype=np.int64)
    tkeys = np.zeros((capacity, words), dtype=np.uint64)
    tcounts = np.zeros(capacity, dtype=np.int64)
    treps = np.zeros(capacity, dtype=np.int64)
    used = 0
    total = 0
    pos[0] = center
    grid[center] = 1
    pos[1] = center + offs[0]
    grid[pos[1]] = 2
    depth = 2
    nextdir[2] = 0
    while depth >= 2:
        if depth == length:
            total += 1
            if _insert(tkeys, tcounts, treps, masks, length - 1, 1, code[length - 1]):
                used += 1
                if 2 * used > tcounts.shape[0]:
                    tkeys, tcounts, treps = _grow(tkeys, tcounts, treps)
            depth -= 1
            grid[pos[depth]] = 0
            continue
        d = nextdir[depth]
        if d >= nd:
            depth -= 1
            if depth >= 2:
                grid[pos[depth]] = 0
            continue
        nextdir[depth] = d + 1
        ph = phase[depth - 1]
        if ph == 0:  # straight along +x so far: may continue, or turn up (+y)
            if d == 0:
                nph = 0
            elif d == 1:
                nph = 1
            else:
                continue
        elif ph == 1:  # within the xy plane so far: may leave it only towards +z
            if d < 4:
                nph = 1
            elif d == 4:
                nph = 2
            else:
                continue
        else:
            nph = 2
        c = pos[depth - 1] + offs[d]
        if grid[c] != 0:
            continue
        grid[c] = depth + 1
        pos[depth] = c
        for w in range(words):
            masks[depth, w] = masks[depth - 1, w]
        for e in range(nd):
            r = grid[c + offs[e]] - 1
            if r >= 0 and r < depth - 1:
                p = pair_index[r * length + depth]
                masks[depth, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
        phase[depth] = nph
        code[depth] = code[depth - 1] * nd + d
        depth += 1
        nextdir[depth] = 0
    keep = np.nonzero(tcounts)[0]
    return tkeys[keep].copy(), tcounts[keep].copy(), treps[keep].copy(), total


def decode_walk(code: int, length: int, ndim: int) -> str:
    """The move string of a representative walk from :func:`enumerate_kernel`."""
    nd = 2 * ndim
    if length < 2:
        return ""
    digits = []
    for _ in range(length - 2):
        code, d = divmod(int(code), nd)
        digits.append(MOVE_LETTERS[d])
    return "R" + "".join(reversed(digits))


def enumerate_python(length: int, ndim: int) -> tuple[dict[frozenset, list], int]:
    """Twin of :func:`enumerate_kernel`: {contact set (frozenset of pairs): [count, first walk]}
    and the number of symmetry-distinct walks (readable recursion with the same reduction)."""
    if length < 2:
        return {frozenset(): [1, ""]}, 1
    vectors = _DIR_VECTORS[: 2 * ndim]
    sites = [(0, 0, 0), (1, 0, 0)]
    where = {(0, 0, 0): 0, (1, 0, 0): 1}
    moves = ["R"]
    found: dict[frozenset, list] = {}
    total = 0

    def walk(phase: int, pairs: frozenset) -> None:
        nonlocal total
        k = len(sites)
        if k == length:
            total += 1
            if pairs in found:
                found[pairs][0] += 1
            else:
                found[pairs] = [1, "".join(moves)]
            return
        x, y, z = sites[-1]
        for d, (dx, dy, dz) in enumerate(vectors):
            if phase == 0 and d not in (0, 1):
                continue
            if phase == 1 and d == 5:
                continue
            new_phase = max(phase, {0: 0, 1: 1, 2: 1, 3: 1, 4: 2, 5: 2}[d])
            site = (x + dx, y + dy, z + dz)
            if site in where:
                continue
            touching = set()
            for ex, ey, ez in vectors:
                i = where.get((site[0] + ex, site[1] + ey, site[2] + ez))
                if i is not None and i < k - 1:
                    touching.add((i, k))
            sites.append(site)
            where[site] = k
            moves.append(MOVE_LETTERS[d])
            walk(new_phase, pairs | touching)
            moves.pop()
            del where[site]
            sites.pop()

    walk(0, frozenset())
    return found, total


@njit(cache=True)
def histogram_kernel(keys, counts, hh, nbins):
    """Number of walks per score for one sequence: score = popcount(set & hh)."""
    hist = np.zeros(nbins, dtype=np.int64)
    words = keys.shape[1]
    for s in range(keys.shape[0]):
        score = 0
        for w in range(words):
            score += _popcount(keys[s, w] & hh[w])
        hist[score] += counts[s]
    return hist


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _set_score(keys, s, hh_rows, q, words):
    score = 0
    for w in range(words):
        score += _popcount(keys[s, w] & hh_rows[q, w])
    return score


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _histogram_row(keys, counts, hh_rows, q, nbins, out):
    """Histogram of sequence q into out[q]. Four interleaved partial histograms break the
    store-to-load chain when neighbouring sets have the same score (2x faster than one)."""
    n = keys.shape[0]
    words = keys.shape[1]
    h = np.zeros((4, nbins), dtype=np.int64)
    s = 0
    if words == 1:
        mq = hh_rows[q, 0]
        while s + 4 <= n:
            h[0, _popcount(keys[s, 0] & mq)] += counts[s]
            h[1, _popcount(keys[s + 1, 0] & mq)] += counts[s + 1]
            h[2, _popcount(keys[s + 2, 0] & mq)] += counts[s + 2]
            h[3, _popcount(keys[s + 3, 0] & mq)] += counts[s + 3]
            s += 4
    else:
        while s + 4 <= n:
            h[0, _set_score(keys, s, hh_rows, q, words)] += counts[s]
            h[1, _set_score(keys, s + 1, hh_rows, q, words)] += counts[s + 1]
            h[2, _set_score(keys, s + 2, hh_rows, q, words)] += counts[s + 2]
            h[3, _set_score(keys, s + 3, hh_rows, q, words)] += counts[s + 3]
            s += 4
    while s < n:
        h[0, _set_score(keys, s, hh_rows, q, words)] += counts[s]
        s += 1
    for b in range(nbins):
        out[q, b] = h[0, b] + h[1, b] + h[2, b] + h[3, b]


@njit(cache=True, nogil=True)
def histograms_kernel(keys, counts, hh_rows, nbins):
    """:func:`histogram_kernel` for many sequences at once (one row of hh_rows each), in one
    thread, without the GIL: a large batch (a landscape) runs it on pieces from a few Python
    threads (:meth:`gamelab.lattice.enumeration.ContactSets.histograms_for_codes`), and the GA's
    trials run on threads (a ``parallel=True`` loop cost twice its compile)."""
    out = np.zeros((hh_rows.shape[0], nbins), dtype=np.int64)
    for q in range(hh_rows.shape[0]):
        _histogram_row(keys, counts, hh_rows, q, nbins, out)
    return out


@njit(cache=True)
def best_set_kernel(keys, hh):
    """Index of the first contact set with the highest score for `hh` (a best conformation)."""
    best = -1
    arg = 0
    for s in range(keys.shape[0]):
        score = 0
        for w in range(keys.shape[1]):
            score += _popcount(keys[s, w] & hh[w])
        if score > best:
            best = score
            arg = s
    return arg


@njit(cache=True)
def hh_rows_from_codes(codes, pi, pj, words):
    """HH-pair bitmasks for sequences given as integers (bit i set = residue i is H)."""
    out = np.zeros((codes.shape[0], words), dtype=np.uint64)
    for q in range(codes.shape[0]):
        c = codes[q]
        for p in range(pi.shape[0]):
            if (c >> pi[p]) & 1 and (c >> pj[p]) & 1:
                out[q, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    return out


def histogram_python(
    keys: np.ndarray, counts: np.ndarray, hh: np.ndarray, nbins: int
) -> np.ndarray:
    """Twin of :func:`histogram_kernel` with Python integers and int.bit_count."""
    hist = [0] * nbins
    for row, count in zip(keys.tolist(), counts.tolist(), strict=True):
        score = sum((a & b).bit_count() for a, b in zip(row, hh.tolist(), strict=True))
        hist[score] += count
    return np.array(hist, dtype=np.int64)


def histograms_python(
    keys: np.ndarray, counts: np.ndarray, hh_rows: np.ndarray, nbins: int
) -> np.ndarray:
    """Twin of :func:`histograms_kernel`: one
    :func:`histogram_python` per row of `hh_rows`."""
    return np.array([histogram_python(keys, counts, hh, nbins) for hh in hh_rows], dtype=np.int64)


def hh_rows_from_codes_python(
    codes: np.ndarray, pi: np.ndarray, pj: np.ndarray, words: int
) -> np.ndarray:
    """Twin of :func:`hh_rows_from_codes`."""
    out = np.zeros((len(codes), words), dtype=np.uint64)
    for q, c in enumerate(int(x) for x in codes):
        value = sum(
            1 << p
            for p, (i, j) in enumerate(zip(pi.tolist(), pj.tolist(), strict=True))
            if (c >> i) & 1 and (c >> j) & 1
        )
        for w in range(words):
            out[q, w] = (value >> (64 * w)) & 0xFFFFFFFFFFFFFFFF
    return out


def best_set_python(keys: np.ndarray, hh: np.ndarray) -> int:
    """Twin of :func:`best_set_kernel`."""
    scores = [
        sum((a & b).bit_count() for a, b in zip(row, hh.tolist(), strict=True))
        for row in keys.tolist()
    ]
    return scores.index(max(scores))
