"""PERM folding of long chains: twin agreement, benchmarks, proof status."""

import numpy as np
import pytest

from gamelab.lattice.fold import (
    BENCHMARKS_2D,
    contact_upper_bound,
    fold,
    perm_kernel,
    perm_once,
    perm_python,
)
from gamelab.lattice.instances import parse_chain
from gamelab.lattice.rules import hh_score


@pytest.mark.parametrize(("ndim", "length"), [(2, 14), (2, 20), (3, 10)])
def test_perm_kernel_matches_python_twin(ndim, length):
    rng = np.random.default_rng(length)
    for seed in range(3):
        is_h = rng.random(length) < 0.5
        fast = perm_once(perm_kernel, is_h, ndim, 2.5, 150, seed, 1.0, 999)
        slow = perm_once(perm_python, is_h, ndim, 2.5, 150, seed, 1.0, 999)
        assert fast[0] == slow[0] and fast[2] == slow[2]
        assert fast[1].tolist() == slow[1].tolist()


def test_a_perm_run_in_chunks_is_the_run_in_one_call():
    # the search makes each run in chunks of tours (to check the clock and signals between
    # them): the state travels in the arrays, so the result is the same
    is_h = np.random.default_rng(4).random(16) < 0.5
    whole = perm_once(perm_kernel, is_h, 2, 2.5, 200, 9, 1.0, 999)
    rng = np.array([np.random.default_rng(9).integers(0, 2**63)], dtype=np.uint64)
    zsum, run, dirs = np.zeros(16), np.array([0, -1], dtype=np.int64), np.zeros(16, np.int64)
    made = [perm_kernel(is_h, 2, 2.5, k, rng, 1.0, 999, zsum, run, dirs) for k in (1, 7, 64, 128)]
    assert sum(made) == 200 == whole[2] and int(run[1]) == whole[0]
    assert dirs.tolist() == whole[1].tolist()


@pytest.mark.parametrize("name", ["S1-24", "S1-25", "S1-36"])
def test_standard_benchmarks_reach_known_optimum(name):
    # research notes section 2: optimal HH contacts 9 (L=24), 8 (L=25), 14 (L=36)
    seq, optimum = BENCHMARKS_2D[name]
    result = fold(parse_chain(seq), seed=0, seconds=60)
    assert result.score == optimum == result.known_optimum
    assert hh_score(seq, result.conformation) == optimum
    assert result.status in ("found", "proven (bound)")


def test_short_chains_are_proven_exhaustively():
    # research notes: benchmark S1-18c has optimum 9 (verified exactly there and here)
    seq, optimum = BENCHMARKS_2D["S1-18c"]
    result = fold(parse_chain(seq))
    assert result.status == "proven (exhaustive)" and result.score == optimum


def test_upper_bound():
    assert contact_upper_bound("HPPH") == 1  # one possible HH pair
    # never below the exact optimum
    from gamelab.lattice.enumeration import contact_sets

    rng = np.random.default_rng(0)
    sets = contact_sets(14)
    for _ in range(50):
        seq = "".join(rng.choice(["H", "P"], size=14))
        assert contact_upper_bound(seq) >= len(sets.histogram(seq)) - 1
    for name in ("S1-24", "S1-25", "S1-36", "S1-48"):
        seq, optimum = BENCHMARKS_2D[name]
        assert contact_upper_bound(seq) >= optimum
    with pytest.raises(ValueError, match="seconds"):
        fold(parse_chain("HPHPHPHPHPHPHPHPHPHPHPHPH"), seconds=0)


def test_cubic_fold_is_valid():
    seq = "HPHHPHHPHHPPHHPHH"
    result = fold(parse_chain(seq), "cubic", seconds=2, exhaustive=False, certify=False)
    assert hh_score(seq, result.conformation, "cubic") == result.score >= 6
