"""Rules, exact prior counts and the four generators against the research note's tables."""

import numpy as np
import pytest

from gamelab.voltorb.prior import acceptance_rate, valid_board_count
from gamelab.voltorb.rules import (
    CONFIGS,
    Clues,
    Round,
    VoltorbSetting,
    clues_from_text,
    free_multiplier_counts,
    generate_board,
    iid_tile_probabilities,
    level_configs,
    level_tile_probabilities,
    next_level,
    parse_revealed,
    passes_free_test,
    place_cards,
)

# Monte-Carlo acceptance per configuration id 0..79 (200k boards each), research note voltorb.md
# section 2, "acceptance" column.
RESEARCH_ACCEPTANCE = [
    0.631,
    0.472,
    0.684,
    0.631,
    0.683,
    0.631,
    0.472,
    0.684,
    0.631,
    0.683,
    0.550,
    0.641,
    0.415,
    0.551,
    0.641,
    0.455,
    0.504,
    0.346,
    0.457,
    0.504,
    0.522,
    0.616,
    0.727,
    0.520,
    0.555,
    0.483,
    0.554,
    0.641,
    0.480,
    0.555,
    0.642,
    0.522,
    0.873,
    0.763,
    0.832,
    0.642,
    0.482,
    0.855,
    0.753,
    0.814,
    0.873,
    0.759,
    0.832,
    0.813,
    0.873,
    0.855,
    0.750,
    0.814,
    0.804,
    0.855,
    0.757,
    0.833,
    0.812,
    0.874,
    0.760,
    0.748,
    0.816,
    0.804,
    0.856,
    0.750,
    0.813,
    0.874,
    0.899,
    0.952,
    0.813,
    0.805,
    0.856,
    0.899,
    0.952,
    0.805,
    0.761,
    0.908,
    0.813,
    0.872,
    0.907,
    0.751,
    0.891,
    0.805,
    0.854,
    0.891,
]
# Payout 2^twos * 3^threes per id, research note section 2.
RESEARCH_PAYOUTS = {
    0: 24,
    1: 27,
    2: 32,
    4: 48,
    12: 72,
    24: 192,
    34: 324,
    43: 512,
    54: 972,
    61: 1296,
    63: 1536,
    70: 2187,
    74: 3456,
}


def test_config_table_matches_research_payouts_and_levels():
    assert len(CONFIGS) == 80
    for cid, payout in RESEARCH_PAYOUTS.items():
        assert CONFIGS[cid].payout == payout
    assert all(c.level == c.id // 10 + 1 for c in CONFIGS)


def test_level_means_match_research():
    # research note: mean Voltorbs per level 6/7/8/9.2/10/10/11.2/10
    means = [np.mean([c.voltorbs for c in level_configs(lv)]) for lv in range(1, 9)]
    assert means == pytest.approx([6, 7, 8, 9.2, 10, 10, 11.2, 10])
    # blog part 2 and research note: level 8 averages V .40, 1 .248, 2 .176, 3 .176
    assert level_tile_probabilities(8) == pytest.approx([0.40, 0.248, 0.176, 0.176])
    # level 2: .28 / .12 / .08 (blog's commented constants)
    assert level_tile_probabilities(2) == pytest.approx([0.28, 0.52, 0.12, 0.08])


def test_exact_acceptance_matches_research_monte_carlo():
    for cid, mc in enumerate(RESEARCH_ACCEPTANCE):
        assert acceptance_rate(cid) == pytest.approx(mc, abs=0.004), cid
    # Tobs40/rust-voltorb-flip-solver exact values quoted in the research note
    assert acceptance_rate(70) == pytest.approx(0.7606, abs=5e-5)
    assert acceptance_rate(12) == pytest.approx(0.4163, abs=5e-5)


def test_exact_count_without_limits_is_the_multinomial():
    # with limits that cannot bind (4 multipliers, limits 6) the count is all placements
    from dataclasses import replace

    from gamelab.voltorb import prior, rules

    c = replace(CONFIGS[0], max_free_per_line=6, max_free_total=6)
    old = rules.CONFIGS
    try:
        prior.CONFIGS = (c,) + old[1:]
        prior.valid_board_count.cache_clear()
        assert prior.valid_board_count(0) == c.placements
    finally:
        prior.CONFIGS = old
        prior.valid_board_count.cache_clear()
    assert valid_board_count(0) < c.placements


def test_free_counts_and_strict_test():
    b = np.ones((5, 5), dtype=np.int8)
    b[1:, 1:] = 0  # row 0 and column 0 have no Voltorb
    b[0, 1] = b[0, 2] = 3
    b[2, 0] = 2
    assert free_multiplier_counts(b) == (3, 2)
    cfg = CONFIGS[0]  # limits 3/3: allowed <=2 per line, <=2 total
    assert not passes_free_test(b, cfg)
    b[2, 0] = 1
    assert free_multiplier_counts(b) == (2, 2)
    assert passes_free_test(b, cfg)


def test_hgss_generator_statistics():
    rng = np.random.default_rng(11)
    n = 3000
    ids = []
    for _ in range(n):
        board, cid = generate_board(VoltorbSetting(2), rng)
        cfg = CONFIGS[cid]
        assert (board == 0).sum() == cfg.voltorbs
        assert (board == 2).sum() == cfg.twos and (board == 3).sum() == cfg.threes
        assert passes_free_test(board, cfg)
        ids.append(cid)
    freq = np.bincount(np.array(ids) - 10, minlength=10) / n
    # 1/10 per configuration (sd ~0.0055)
    assert np.abs(freq - 0.1).max() < 0.025


def test_placement_acceptance_by_sampling():
    rng = np.random.default_rng(5)
    for cid in (12, 70):
        ok = np.mean(
            [passes_free_test(place_cards(CONFIGS[cid], rng), CONFIGS[cid]) for _ in range(4000)]
        )
        assert ok == pytest.approx(acceptance_rate(cid), abs=0.03)


def test_bulbapedia_generator_skips_the_free_test():
    rng = np.random.default_rng(2)
    fails = 0
    n = 2000
    for _ in range(n):
        board, cid = generate_board(VoltorbSetting(1, "bulbapedia"), rng)
        fails += not passes_free_test(board, CONFIGS[cid])
    expected = 1 - np.mean([acceptance_rate(i) for i in range(10)])
    assert fails / n == pytest.approx(expected, abs=0.04)


@pytest.mark.parametrize("generator", ["iid", "iid-as-coded"])
def test_iid_generators_tile_frequencies(generator):
    rng = np.random.default_rng(3)
    tiles = np.concatenate(
        [generate_board(VoltorbSetting(8, generator), rng)[0].ravel() for _ in range(2000)]
    )
    freq = np.bincount(tiles, minlength=4) / tiles.size
    expected = iid_tile_probabilities(generator, 8)
    assert np.abs(freq - expected).max() < 0.01
    if generator == "iid-as-coded":
        # research note: the blog's boards had P(V)=.176, P(1)=.40, P(2)=.176, P(3)=.248
        assert expected == pytest.approx([0.176, 0.40, 0.176, 0.248])
        assert freq[0] * 25 == pytest.approx(4.4, abs=0.15)  # ~4.4 Voltorbs, not 10
    assert iid_tile_probabilities("iid-as-coded", 2) == pytest.approx([0.12, 0.28, 0.08, 0.52])


def test_round_payout_win_loss_quit():
    b = np.ones((5, 5), dtype=np.int8)
    b[0, 0], b[0, 1], b[4, 4] = 2, 3, 0
    rnd = Round(b)
    assert rnd.payout == 6
    assert rnd.flip(2) == 1 and rnd.coins == 1
    rnd.flip(0)
    assert rnd.coins == 2 and rnd.outcome is None
    rnd.flip(1)
    assert rnd.outcome == "won" and rnd.coins == 6 and rnd.cards_flipped == 3
    rnd2 = Round(b)
    rnd2.flip(0)
    rnd2.quit()
    assert rnd2.outcome == "quit" and rnd2.coins == 2
    rnd3 = Round(b)
    rnd3.flip(0)
    rnd3.flip(24)
    assert rnd3.outcome == "lost" and rnd3.coins == 0 and rnd3.cards_flipped == 1
    with pytest.raises(ValueError, match="over"):
        rnd3.flip(3)


def test_level_progression():
    # research note section 4 (CalcNextLevel)
    assert next_level(8, "won", 10, [("won", 10)]) == 8
    assert next_level(3, "won", 9, [("won", 9)]) == 4
    assert next_level(7, "won", 9, [("won", 9)]) == 7
    assert next_level(5, "lost", 3, [("lost", 3)]) == 3  # drop to cards flipped (1s count)
    assert next_level(5, "lost", 0, [("lost", 0)]) == 1
    assert next_level(8, "quit", 12, [("quit", 12)]) == 7
    hist = [("won", 8), ("quit", 9), ("won", 8), ("won", 10), ("won", 8)]
    assert next_level(5, "won", 8, hist) == 8
    assert next_level(4, "won", 8, hist) == 5  # rule 2 needs level >= 5
    assert next_level(6, "won", 8, hist[1:]) == 7  # fewer than 5 rounds played
    assert next_level(6, "quit", 9, hist[:-1] + [("quit", 9)]) == 8


def test_clue_validation_names_the_line():
    with pytest.raises(ValueError, match="no board is consistent with these clues: row 2"):
        clues_from_text("5,0 20,1 5,0 5,0 5,0", "8,1 8,0 8,0 8,0 8,0")
    with pytest.raises(ValueError, match="Voltorbs"):
        clues_from_text("5,0 5,0 5,0 5,0 4,1", "5,0 5,0 5,0 5,0 5,0")
    with pytest.raises(ValueError, match="5 entries"):
        clues_from_text("5,0 5,0", "5,0 5,0 5,0 5,0 5,0")
    assert parse_revealed(["1,1=2", "5,5=0"]) == {0: 2, 24: 0}
    with pytest.raises(ValueError, match="rows and columns are 1-5"):
        parse_revealed(["6,1=2"])
    b = np.arange(25).reshape(5, 5) % 4
    c = Clues.from_board(b)
    assert clues_from_text(*c.as_text()).key() == c.key()
