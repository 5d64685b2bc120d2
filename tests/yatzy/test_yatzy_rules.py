"""Box-by-box scoring on hand-checked hands, the joker cases and the CARD syntax.

Rule definitions: /work/shared/research/yatzy.md section 2 (American 2.2, Scandinavian 2.3).
"""

import numpy as np
import pytest

from gamelab.yatzy.card import Card
from gamelab.yatzy.rules import (
    KEEP_ADD,
    KEEP_SIZE,
    KEEPS,
    N_KEEPS,
    N_ROLLS,
    ROLL_PROB,
    RULES,
    SUBKEEP_INDEX,
    get_rules,
    parse_dice,
)

AMERICAN = {
    # dice: {box: points}; every box of the 13 listed for each hand (hand-checked)
    "11134": dict(
        ones=3,
        twos=0,
        threes=3,
        fours=4,
        fives=0,
        sixes=0,
        three_kind=10,
        four_kind=0,
        full_house=0,
        small_straight=0,
        large_straight=0,
        yahtzee=0,
        chance=10,
    ),
    "22333": dict(
        ones=0,
        twos=4,
        threes=9,
        fours=0,
        fives=0,
        sixes=0,
        three_kind=13,
        four_kind=0,
        full_house=25,
        small_straight=0,
        large_straight=0,
        yahtzee=0,
        chance=13,
    ),
    "12345": dict(
        ones=1,
        twos=2,
        threes=3,
        fours=4,
        fives=5,
        sixes=0,
        three_kind=0,
        four_kind=0,
        full_house=0,
        small_straight=30,
        large_straight=40,
        yahtzee=0,
        chance=15,
    ),
    "13456": dict(
        ones=1,
        twos=0,
        threes=3,
        fours=4,
        fives=5,
        sixes=6,
        three_kind=0,
        four_kind=0,
        full_house=0,
        small_straight=30,
        large_straight=0,
        yahtzee=0,
        chance=19,
    ),
    "44445": dict(
        ones=0,
        twos=0,
        threes=0,
        fours=16,
        fives=5,
        sixes=0,
        three_kind=21,
        four_kind=21,
        full_house=0,
        small_straight=0,
        large_straight=0,
        yahtzee=0,
        chance=21,
    ),
    # five of a kind is not a full house (except as a joker)
    "55555": dict(
        ones=0,
        twos=0,
        threes=0,
        fours=0,
        fives=25,
        sixes=0,
        three_kind=25,
        four_kind=25,
        full_house=0,
        small_straight=0,
        large_straight=0,
        yahtzee=50,
        chance=25,
    ),
}

SCANDINAVIAN = {
    "22335": dict(
        ones=0,
        twos=4,
        threes=6,
        fours=0,
        fives=5,
        sixes=0,
        one_pair=6,
        two_pairs=10,
        three_kind=0,
        four_kind=0,
        small_straight=0,
        large_straight=0,
        full_house=0,
        chance=15,
        yahtzee=0,
    ),
    "22233": dict(
        ones=0,
        twos=6,
        threes=6,
        fours=0,
        fives=0,
        sixes=0,
        one_pair=6,
        two_pairs=10,
        three_kind=6,
        four_kind=0,
        small_straight=0,
        large_straight=0,
        full_house=12,
        chance=12,
        yahtzee=0,
    ),
    # four of a kind is not two pairs under the stated rules
    "44446": dict(
        ones=0,
        twos=0,
        threes=0,
        fours=16,
        fives=0,
        sixes=6,
        one_pair=8,
        two_pairs=0,
        three_kind=12,
        four_kind=16,
        small_straight=0,
        large_straight=0,
        full_house=0,
        chance=22,
        yahtzee=0,
    ),
    "12345": dict(
        ones=1,
        twos=2,
        threes=3,
        fours=4,
        fives=5,
        sixes=0,
        one_pair=0,
        two_pairs=0,
        three_kind=0,
        four_kind=0,
        small_straight=15,
        large_straight=0,
        full_house=0,
        chance=15,
        yahtzee=0,
    ),
    "23456": dict(
        ones=0,
        twos=2,
        threes=3,
        fours=4,
        fives=5,
        sixes=6,
        one_pair=0,
        two_pairs=0,
        three_kind=0,
        four_kind=0,
        small_straight=0,
        large_straight=20,
        full_house=0,
        chance=20,
        yahtzee=0,
    ),
    # Yatzy is not a full house; it counts as one pair, three and four of a kind
    "66666": dict(
        ones=0,
        twos=0,
        threes=0,
        fours=0,
        fives=0,
        sixes=30,
        one_pair=12,
        two_pairs=0,
        three_kind=18,
        four_kind=24,
        small_straight=0,
        large_straight=0,
        full_house=0,
        chance=30,
        yahtzee=50,
    ),
    "11566": dict(
        ones=2,
        twos=0,
        threes=0,
        fours=0,
        fives=5,
        sixes=12,
        one_pair=12,
        two_pairs=14,
        three_kind=0,
        four_kind=0,
        small_straight=0,
        large_straight=0,
        full_house=0,
        chance=19,
        yahtzee=0,
    ),
}

# Larsson & Sjoberg's code: two pairs = 2 x highest pair + 2 x second pair (0 if none)
LS2012_TWO_PAIRS = {"22335": 10, "44446": 8, "66666": 12, "22345": 4, "12345": 0, "11566": 14}


def test_dice_tables():
    # research notes section 3.1: 252 rolls, 462 keeps, 4368 roll -> sub-keep entries
    assert N_ROLLS == 252 and N_KEEPS == 462 and len(SUBKEEP_INDEX) == 4368
    assert ROLL_PROB.sum() == pytest.approx(1.0, abs=1e-15)
    assert ROLL_PROB.max() == pytest.approx(120 / 6**5)  # five different faces
    for k in range(N_KEEPS):
        for f in range(6):
            if KEEP_SIZE[k] < 5:
                assert (KEEPS[KEEP_ADD[k, f]] - KEEPS[k]).tolist() == [
                    int(i == f) for i in range(6)
                ]


@pytest.mark.parametrize("rules", ["yahtzee", "yahtzee-free-joker", "yahtzee-no-bonus"])
@pytest.mark.parametrize("dice", sorted(AMERICAN))
def test_american_scores(rules, dice):
    r = get_rules(rules)
    assert set(AMERICAN[dice]) == set(r.boxes)
    for box, points in AMERICAN[dice].items():
        assert r.score(box, dice) == points, (box, dice)


@pytest.mark.parametrize("dice", sorted(SCANDINAVIAN))
def test_scandinavian_scores(dice):
    r = get_rules("yatzy")
    assert set(SCANDINAVIAN[dice]) == set(r.boxes)
    for box, points in SCANDINAVIAN[dice].items():
        assert r.score(box, dice) == points, (box, dice)


def test_ls2012_two_pairs_and_other_boxes():
    ls, std = get_rules("yatzy-ls2012"), get_rules("yatzy")
    for dice, points in LS2012_TWO_PAIRS.items():
        assert ls.score("two_pairs", dice) == points, dice
    others = [b for b in ls.boxes if b != "two_pairs"]
    assert np.array_equal(
        ls.base_scores[[ls.boxes.index(b) for b in others]],
        std.base_scores[[std.boxes.index(b) for b in others]],
    )


def _placements(rules, card_text, dice):
    r = get_rules(rules)
    return sorted(r.placements(parse_dice(dice), Card.parse(r, card_text)))


def test_forced_joker_must_take_open_upper_box():
    # official rules (research notes 2.2, rule 1): the matching upper box if open, + 100 bonus
    assert _placements("yahtzee", "yahtzee=50", "44444") == [("fours", 20, 100)]
    # a scratched Yahtzee box: still forced, but no bonus
    assert _placements("yahtzee", "yahtzee=0", "44444") == [("fours", 20, 0)]


def test_forced_joker_lower_boxes_get_joker_values():
    got = _placements("yahtzee", "yahtzee=50,fours=12,ones=3", "44444")
    assert got == sorted(
        [
            ("three_kind", 20, 100),
            ("four_kind", 20, 100),
            ("full_house", 25, 100),
            ("small_straight", 30, 100),
            ("large_straight", 40, 100),
            ("chance", 20, 100),
        ]
    )


def test_forced_joker_no_lower_open_scratches_upper():
    card = "yahtzee=50,fours=12,three_kind=10,four_kind=0,full_house=25,small_straight=30,large_straight=0,chance=20"
    assert _placements("yahtzee", card, "44444") == sorted(
        [(b, 0, 100) for b in ("ones", "twos", "threes", "fives", "sixes")]
    )


def test_free_joker():
    # Verhoeff's rule (research notes 2.2): any open box; FH/SS/LS joker values only once the
    # matching upper box is filled
    got = dict((b, p) for b, p, _ in _placements("yahtzee-free-joker", "yahtzee=50", "44444"))
    assert got["fours"] == 20 and got["full_house"] == 0 and got["small_straight"] == 0
    assert got["large_straight"] == 0 and got["ones"] == 0 and got["chance"] == 20
    assert len(got) == 12
    got = dict(
        (b, p) for b, p, _ in _placements("yahtzee-free-joker", "yahtzee=50,fours=8", "44444")
    )
    assert got["full_house"] == 25 and got["small_straight"] == 30 and got["large_straight"] == 40
    assert got["twos"] == 0
    assert {bonus for *_, bonus in _placements("yahtzee-free-joker", "yahtzee=0", "44444")} == {0}


def test_no_bonus_rules_have_no_joker():
    got = _placements("yahtzee-no-bonus", "yahtzee=50", "44444")
    assert all(bonus == 0 for *_, bonus in got) and ("full_house", 0, 0) in got and len(got) == 12


def test_card_parse_and_totals():
    r = get_rules("yahtzee")
    card = Card.parse(r, "1s=3, fours=16, sixes=30, fives=25, yahtzee=50, bonus=1, c=22")
    assert card.upper_total == 74 and card.capped_upper == 63
    assert card.total == 3 + 16 + 30 + 25 + 50 + 22 + 35 + 100
    assert card.bonus_flag == 1 and card.filled_count == 6
    assert Card.parse(r, card.text()).entries == card.entries
    assert Card.parse(r, "-").filled_count == 0


@pytest.mark.parametrize(
    "text, message",
    [
        ("fours=5", "impossible"),
        ("tens=5", "unknown box"),
        ("ones=1,1s=2", "twice"),
        ("ones", "box=points"),
        ("chance=x", "integer"),
        ("full_house=20", "impossible"),
        ("bonus=1", "yahtzee=50"),
    ],
)
def test_bad_cards(text, message):
    with pytest.raises(ValueError, match=message):
        Card.parse(RULES["yahtzee"], text)


def test_bad_dice_and_rules():
    for bad in ("1111", "111117", "abcde", "123456"):
        with pytest.raises(ValueError, match="five digits"):
            parse_dice(bad)
    with pytest.raises(ValueError, match="allowed: yahtzee"):
        get_rules("kniffel")
    with pytest.raises(ValueError, match="no Yahtzee bonus"):
        Card.parse(RULES["yatzy"], "bonus=1")


def test_fill_applies_joker_and_bonus():
    r = get_rules("yahtzee")
    card = Card.parse(r, "yahtzee=50,fours=12")
    assert card.fill("full_house", parse_dice("44444")) == 125
    assert card.yahtzee_bonuses == 1
    with pytest.raises(ValueError, match="already filled"):
        card.fill("fours", parse_dice("12345"))
    card2 = Card.parse(r, "yahtzee=50")
    with pytest.raises(ValueError, match="not allowed"):
        card2.fill("chance", parse_dice("44444"))


def test_rule_set_names():
    assert list(RULES) == [
        "yahtzee",
        "yahtzee-free-joker",
        "yahtzee-no-bonus",
        "yatzy",
        "yatzy-ls2012",
    ]
    assert get_rules("yatzy").n_boxes == 15 and get_rules("yahtzee").n_boxes == 13


def test_the_reroll_table_equals_its_plain_loop():
    """The keep -> reroll table is built vectorised at import (the plain loop over the 462 x 252
    pairs cost about a second of every yatzy command's start); it equals that loop exactly,
    probabilities bit for bit."""
    import numpy as np

    from gamelab.yatzy import rules as R

    index, prob, start = [], [], [0]
    for counts in R.KEEPS:
        for r, roll in enumerate(R.ROLLS):
            rest = roll - counts
            if (rest >= 0).all():
                index.append(r)
                prob.append(R._multinomial_probability(rest))
        start.append(len(index))
    assert np.array_equal(R.KEEP_ROLL_START, start) and R.KEEP_ROLL_START.dtype == np.int64
    assert np.array_equal(R.KEEP_ROLL_INDEX, index) and R.KEEP_ROLL_INDEX.dtype == np.int64
    assert R.KEEP_ROLL_PROB.tobytes() == np.array(prob).tobytes()
    for rules in R.RULES.values():  # the shared per-box rows equal the per-roll scores
        for b, box in enumerate(rules.boxes):
            row = [R._base_score(box, r, rules.scandinavian, rules.ls_two_pairs) for r in R.ROLLS]
            assert rules.base_scores[b].tolist() == row
