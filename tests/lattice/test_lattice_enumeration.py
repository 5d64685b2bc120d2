"""Enumerate once: walk counts, contact-set dedup, exact histograms, numba vs Python twins."""

import itertools

import numpy as np
import pytest

from gamelab.lattice import _kernels as K
from gamelab.lattice.enumeration import contact_sets, histogram
from gamelab.lattice.rules import MOVES, hh_score, parse_sequence

# OEIS A046171 (offset 1), quoted in the research notes: symmetry-distinct 2D walks of n steps;
# a chain of L residues has A046171(L - 1) conformations.
A046171 = [1, 2, 5, 13, 36, 98, 272, 740, 2034, 5513, 15037, 40617, 110188, 296806, 802075]

_AXES = {"R": (0, 1), "L": (0, -1), "U": (1, 1), "D": (1, -1), "F": (2, 1), "B": (2, -1)}
_LETTER = {v: k for k, v in _AXES.items()}


def _symmetries(ndim):
    """All signed axis permutations of the square (8) or cube (48)."""
    for perm in itertools.permutations(range(ndim)):
        for signs in itertools.product((1, -1), repeat=ndim):
            yield {
                m: _LETTER[(perm[_AXES[m][0]], signs[_AXES[m][0]] * _AXES[m][1])]
                for m in MOVES["square" if ndim == 2 else "cubic"]
            }


def _all_walks(length, moves):
    """Every self-avoiding walk of length - 1 moves (no symmetry reduction), naively."""
    out = []

    def grow(walk, sites):
        if len(sites) == length:
            out.append(walk)
            return
        x, y, z = sites[-1]
        for m in moves:
            ax, sign = _AXES[m]
            step = [x, y, z]
            step[ax] += sign
            if tuple(step) not in sites:
                grow(walk + m, sites + [tuple(step)])

    grow("", [(0, 0, 0)])
    return out


def _naive_orbits(length, ndim):
    moves = MOVES["square" if ndim == 2 else "cubic"]
    maps = list(_symmetries(ndim))
    walks = _all_walks(length, moves)
    return len(walks), len({min("".join(g[m] for m in w) for g in maps) for w in walks})


def test_square_counts_equal_oeis_a046171():
    # Source: research notes section 2 (OEIS A046171); 802,075 at L=16 is the seed paper's count.
    for length in range(2, 17):
        assert contact_sets(length).conformations == A046171[length - 2], length
    # research notes section 3: 31,940 distinct contact sets at L=16, 41 at L=8, 5,953 at L=14
    assert contact_sets(16).size == 31_940
    assert contact_sets(8).size == 41
    assert contact_sets(14).size == 5_953


def test_square_reduction_matches_naive_orbit_count():
    for length in (5, 8):
        walks, orbits = _naive_orbits(length, 2)
        assert orbits == contact_sets(length).conformations
        assert walks == [1, 4, 12, 36, 100, 284, 780, 2172][length - 1]  # OEIS A001411


@pytest.mark.parametrize("length", [4, 5, 6, 7])
def test_cubic_reduction_matches_naive_orbit_count(length):
    walks, orbits = _naive_orbits(length, 3)
    assert walks == [1, 6, 30, 150, 726, 3534, 16926][length - 1]  # OEIS A001412
    assert contact_sets(length, "cubic").conformations == orbits


@pytest.mark.parametrize(("length", "ndim"), [(9, 2), (11, 2), (6, 3), (8, 3)])
def test_kernel_matches_python_twin(length, ndim):
    lattice = "square" if ndim == 2 else "cubic"
    twin, total = K.enumerate_python(length, ndim)
    sets = contact_sets(length, lattice, use_cache=False)
    assert sets.conformations == total
    pairs = sets.pairs()
    from_kernel = {}
    for row, count in zip(sets.keys.tolist(), sets.counts.tolist(), strict=True):
        bits = [p for p in range(len(pairs)) if (row[p >> 6] >> (p & 63)) & 1]
        from_kernel[frozenset(pairs[p] for p in bits)] = count
    assert from_kernel == {k: v[0] for k, v in twin.items()}
    # the representative walk of every set really has that contact set
    rng = np.random.default_rng(1)
    for row in rng.choice(sets.size, size=min(20, sets.size), replace=False):
        walk = sets.conformation(int(row))
        seq = "H" * length
        bits = sum((int(w).bit_count()) for w in sets.keys[row])
        assert hh_score(seq, walk, lattice) == bits


def test_histogram_kernel_matches_twin_on_random_sequences():
    rng = np.random.default_rng(7)
    for lattice, length in (("square", 12), ("square", 16), ("cubic", 9)):
        sets = contact_sets(length, lattice)
        for _ in range(5):
            seq = "".join(rng.choice(["H", "P"], size=length))
            hh = sets.hh_mask(seq)
            nb = sets.max_contacts + 1
            fast = K.histogram_kernel(sets.keys, sets.counts, hh, nb)
            assert fast.tolist() == K.histogram_python(sets.keys, sets.counts, hh, nb).tolist()
            assert fast.sum() == sets.conformations
        many = sets.histograms(["H" * length, "P" * length])
        assert many[1, 0] == sets.conformations
        assert (
            many[0].tolist()
            == K.histogram_python(
                sets.keys, sets.counts, sets.hh_mask("H" * length), sets.max_contacts + 1
            ).tolist()
        )


def test_histogram_equals_brute_force_scoring():
    # every canonical walk (first move R, first turn U) scored directly with the rules module
    seq = "HPHHPPHPHH"
    walks = [w for w in _all_walks(10, "RULD") if w[0] == "R" and w.lstrip("R")[:1] in ("", "U")]
    direct = np.zeros(6, dtype=np.int64)
    for w in walks:
        direct[hh_score(seq, w)] += 1
    assert histogram(seq).tolist() == np.trim_zeros(direct, "b").tolist()


def test_published_histograms():
    # research notes section 3: symmetry-reduced counts per score at L=16
    sets = contact_sets(16)
    assert sets.histogram("HPHHHHPHHPHHPHHH").tolist() == [
        223386,
        270102,
        177685,
        88794,
        30858,
        8751,
        2135,
        339,
        23,
        2,
    ]
    # the paper's high-fitness L=16 level (marked "in paper" in the authors' fitness.py)
    assert sets.histogram("HPHHHHHHPHHPHHPH").tolist() == [
        188278,
        263279,
        194712,
        100027,
        40350,
        12031,
        2885,
        475,
        36,
        2,
    ]
    assert sets.histogram("H" * 16).tolist() == [
        116579,
        194896,
        191814,
        138446,
        84607,
        45564,
        18733,
        8662,
        2705,
        69,
    ]
    best = sets.best_conformation("HPHHHHPHHPHHPHHH")
    assert hh_score("HPHHHHPHHPHHPHHH", best) == 9


def test_bad_lengths_and_sequences_are_refused():
    with pytest.raises(ValueError, match="allowed: 2..22"):
        contact_sets(40)
    with pytest.raises(ValueError, match="only H and P"):
        histogram(parse_sequence("HPZ"))
    with pytest.raises(ValueError, match="length 5"):
        contact_sets(8).histogram("HPHPH")


def test_mask_and_best_set_kernels_match_twins():
    rng = np.random.default_rng(3)
    for length in (9, 16, 20):  # 1 word, 1 word, 2 words
        pi, pj, _ = K.pair_table(length)
        words = K.words_for(length)
        codes = rng.integers(0, 2**length, size=30)
        fast = K.hh_rows_from_codes(codes.astype(np.int64), pi, pj, words)
        assert fast.tolist() == K.hh_rows_from_codes_python(codes, pi, pj, words).tolist()
    sets = contact_sets(13)
    for code in rng.integers(0, 2**13, size=10):
        pi, pj, _ = K.pair_table(13)
        hh = K.hh_rows_from_codes(np.array([code]), pi, pj, 1)[0]
        assert K.best_set_kernel(sets.keys, hh) == K.best_set_python(sets.keys, hh)


def test_large_batches_on_threads_equal_one_call(monkeypatch):
    # a batch over the threshold runs the kernel on pieces from threads: the same rows in order
    from gamelab.lattice import enumeration

    sets = contact_sets(12)
    codes = np.random.default_rng(4).integers(0, 2**12, size=37).astype(np.int64)
    one = sets.histograms_for_codes(codes)
    monkeypatch.setattr(enumeration, "PARALLEL_THRESHOLD", 0)
    monkeypatch.setattr(enumeration, "thread_count", lambda: 3)
    assert sets.histograms_for_codes(codes).tolist() == one.tolist()
    for code, row in zip(codes.tolist(), one.tolist(), strict=True):
        sequence = "".join("H" if code >> i & 1 else "P" for i in range(12))
        want = sets.histogram(sequence).tolist()
        assert row == want + [0] * (len(row) - len(want))
