"""Objectives, star bands and the exhaustive landscape."""

import numpy as np
import pytest

from gamelab.lattice.enumeration import contact_sets
from gamelab.lattice.landscape import (
    code_to_sequence,
    landscape_histograms,
    landscape_summary,
    sequence_to_code,
)
from gamelab.lattice.objectives import all_objectives, objective_value, objective_values
from gamelab.lattice.stars import paper_thresholds, percentile_thresholds, star_bands

# research notes section 3: counts per score of the GA's best L=16 sequence
BEST16 = np.array([223386, 270102, 177685, 88794, 30858, 8751, 2135, 339, 23, 2])


def test_paper_banding_reproduces_both_paper_examples():
    # seed paper: best 9 -> 0-3 none, 4-7 one star, 8 two, 9 three; best 3 -> a star per contact
    assert paper_thresholds(9) == (4, 8, 9)
    assert paper_thresholds(3) == (1, 2, 3)
    bands = star_bands(BEST16, "paper")
    # research notes: 3 stars = 2 of 802,075, 2 stars = 23, 1 star = 42,083
    assert bands.counts[1:] == (42_083, 23, 2)
    assert sum(bands.counts) == 802_075
    assert bands.stars(7) == 1 and bands.stars(8) == 2 and bands.stars(3) == 0
    with pytest.raises(ValueError, match="banding"):
        star_bands(BEST16, "quartile")


def test_percentile_banding_shares_respect_targets():
    t = percentile_thresholds(BEST16)
    assert t[0] < t[1] < t[2] <= 9
    bands = star_bands(BEST16, "percentile")
    at_least = np.cumsum(bands.shares[::-1])[::-1]  # share with >= k stars
    assert at_least[1] <= 0.25 and at_least[2] <= 0.02 and at_least[3] <= 0.001
    assert percentile_thresholds(np.array([5, 0])) == (0, 0, 0)
    with pytest.raises(ValueError, match="decreasing"):
        percentile_thresholds(BEST16, (0.1, 0.2, 0.3))


def test_objective_values():
    v = all_objectives(BEST16)
    assert v["distinct-scores"] == 9 and v["best-score"] == 9
    assert v["unique-optimum"] == 0.5
    assert v["top-rarity"] == pytest.approx(-np.log10(2 / 802_075))
    assert v["gaps"] == 0 and v["star-bands"] == 3
    assert 9 < v["best-then-rarity"] < 10
    assert objective_value("best-then-rarity", np.array([5, 1, 1])) > objective_value(
        "best-then-rarity", np.array([5, 1, 2])
    )  # same best, rarer top band wins
    gappy = np.array([10, 3, 0, 1])
    assert objective_value("gaps", gappy) == 1 and objective_value("distinct-scores", gappy) == 2
    rows = objective_values("best-score", np.array([[4, 0, 0], [1, 2, 3]]))
    assert rows.tolist() == [0, 2]
    with pytest.raises(ValueError, match="unknown objective"):
        objective_value("fun", BEST16)


def test_codes_round_trip():
    assert code_to_sequence(sequence_to_code("HPPHH"), 5) == "HPPHH"


@pytest.mark.parametrize("length", [8, 12, 14])
def test_landscape_distinct_scores_equal_best_score(length):
    # research notes: for every sequence with L <= 16 the achievable scores are 0..best
    hists = landscape_histograms(length)
    assert hists.shape[0] == 2**length
    assert (hists.sum(axis=1) == contact_sets(length).conformations).all()
    summary = landscape_summary(hists)
    assert summary.distinct_equals_best == 2**length
    assert summary.sequences_with_gaps == 0
    # spot-check rows against single-sequence histograms
    sets = contact_sets(length)
    for code in (0, 5, 2**length - 1, 1234 % 2**length, 2**length - 2):
        seq = code_to_sequence(code, length)
        h = sets.histogram(seq)
        assert hists[code, : len(h)].tolist() == h.tolist()
        assert sets.histogram(seq[::-1]).tolist() == h.tolist()  # reversal invariance


def test_landscape_maxima_pinned():
    # research notes: L=8 max fitness 3 reached by 44 of 256; L=12 max 6 reached by 57
    for length, best, count in ((8, 3, 44), (12, 6, 57)):
        summary = landscape_summary(landscape_histograms(length))
        obj = summary.objectives["distinct-scores"]
        assert (obj.max, obj.argmax_count) == (best, count)


@pytest.mark.slow
def test_landscape_16_paper_fitness_is_the_best_score():
    # research notes section 3: L=16 distribution of the paper's fitness; max 9 by 143 sequences
    summary = landscape_summary(landscape_histograms(16))
    assert summary.distinct_equals_best == 65_536
    assert summary.distinct_scores_distribution == {
        0: 540,
        1: 370,
        2: 4156,
        3: 4767,
        4: 13351,
        5: 14585,
        6: 14475,
        7: 9829,
        8: 3320,
        9: 143,
    }


@pytest.mark.slow
def test_landscape_18_first_gaps():
    # research notes: at L=18, 8 of 262,144 sequences have a gap, e.g. HHPPHPPHPHPPHPPHHP (no 7)
    hists = landscape_histograms(18)
    summary = landscape_summary(hists)
    assert summary.sequences_with_gaps == 8
    assert summary.objectives["distinct-scores"].argmax_count == 2269
    h = hists[sequence_to_code("HHPPHPPHPHPPHPPHHP")]
    assert h[7] == 0 and h[8] > 0


def test_cubic_landscape_rows_match_direct_histograms():
    hists = landscape_histograms(9, "cubic")
    sets = contact_sets(9, "cubic")
    for code in range(0, 512, 37):
        h = sets.histogram(code_to_sequence(code, 9))
        assert hists[code, : len(h)].tolist() == h.tolist()
        assert hists[code].sum() == sets.conformations
