"""The folding game's library: fold checking and scoring, levels, the daily level, the shipped pack."""

from dataclasses import replace

import pytest

from gamelab.lattice.enumeration import contact_sets
from gamelab.lattice.instances import get_benchmark
from gamelab.lattice.pack import read_pack
from gamelab.lattice.puzzle import (
    best_fold,
    build_default_pack,
    daily_level,
    default_pack_path,
    generate_level,
    level_from_sequence,
    load_pack,
    score_fold,
    score_level_fold,
    tutorial_level,
)
from gamelab.lattice.rules import hh_contacts, hh_score, parse_sequence
from gamelab.lattice.stars import graded_thresholds, paper_thresholds


def test_score_fold_matches_the_rules_and_gives_stars_only_when_complete():
    seq, conf = "HPHHHHHHPHHPHHPH", contact_sets(16).best_conformation("HPHHHHHHPHHPHHPH")
    full = score_fold(seq, conf, paper_thresholds(9))
    assert full.complete and full.score == hh_score(seq, conf) == 9 and full.stars == 3
    part = score_fold(seq, conf[:5], paper_thresholds(9))
    assert not part.complete and part.stars is None and len(part.sites) == 6
    assert part.score == len([c for c in full.contacts if c[1] <= 5])


@pytest.mark.parametrize("lattice", ["square", "cubic"])
def test_the_puzzles_state_counts_the_contacts_the_rules_count(lattice):
    """score_fold plays a fold through the state protocol (LatticeGame.state_after): the
    state's HH contacts of random partial and complete folds are the rules' own."""
    import numpy as np

    from gamelab.core.state import play_random
    from gamelab.lattice.state import LatticeGame

    rng = np.random.default_rng(48)
    for _ in range(200):
        seq = "".join(rng.choice(list("HP"), int(rng.integers(2, 16))))
        state = LatticeGame(seq, lattice).new_initial_state()
        play_random(state, rng)
        moves = state.conformation[: int(rng.integers(len(state.conformation) + 1))]
        part = LatticeGame(seq, lattice).state_after(moves)
        assert part.contacts() == hh_contacts(seq[: len(moves) + 1], moves, lattice)
        if state.complete():
            assert state.returns() == [float(hh_score(seq, state.conformation, lattice))]
        if lattice == "square":
            assert score_fold(seq, moves).contacts == part.contacts()


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ("RULD", "not self-avoiding"),
        ("RRRRRRRRRRRRRRRRRRR", "has only 15"),
        ("RUX", "not a square lattice move"),
        ("RUF", "not a square lattice move"),
    ],
)
def test_bad_folds_are_refused_with_the_library_message(moves, message):
    with pytest.raises(ValueError, match=message):
        score_fold("HPHHHHHHPHHPHHPH", moves)


def test_typed_level_has_the_exact_thresholds():
    level = level_from_sequence(parse_sequence(" hphhhhhhphhphhph "))
    assert level.sequence == "HPHHHHHHPHHPHHPH" and level.best == 9  # seed paper, Figure 2
    # the game's graded banding: 7 of 9 contacts (better than 99.9% of the folds) is two stars
    assert level.thresholds == graded_thresholds(9) == (4, 7, 9) and level.counts[9] == 2
    assert sum(level.counts[:7]) / sum(level.counts) > 0.999
    assert sum(level.counts) == 802_075  # symmetry-distinct 16-residue folds (OEIS A046171)
    with pytest.raises(ValueError, match="only H and P"):
        level_from_sequence(parse_sequence("HPX"))
    with pytest.raises(ValueError, match="4 to 20 residues"):
        level_from_sequence("HP")
    with pytest.raises(ValueError, match="no puzzle"):
        level_from_sequence("PPPPPP")


def test_best_fold_reaches_the_best_score(monkeypatch):
    fold = best_fold("HPHHHHHHPHHPHHPH")
    assert hh_score(fold.sequence, fold.conformation) == fold.score == 9 and fold.count == 2
    # beyond the typed lengths only a pack's or the expert pack's stored fold is given
    with pytest.raises(ValueError, match="4 to 20 residues"):
        best_fold("H" * 21)
    s6 = get_benchmark("S1-6")
    expert = best_fold(s6.sequence)
    assert hh_score(s6.sequence, expert.conformation) == expert.score == s6.best_known
    assert expert.count is None  # the folds of a 50-mer are not counted
    # since session 17 every expert level ships its fold, S1-11's 50 contacts among them
    s11 = get_benchmark("S1-11")
    top = best_fold(s11.sequence)
    assert hh_score(s11.sequence, top.conformation) == top.score == 50
    # an expert level whose fold does not ship is one clear error
    from gamelab.lattice import expert

    shipped = expert.load_expert_pack()
    without = replace(
        shipped, solutions={k: v for k, v in shipped.solutions.items() if k != s11.sequence}
    )
    monkeypatch.setattr(expert, "load_expert_pack", lambda: without)
    with pytest.raises(ValueError, match="no fold with the best known 50 contacts of S1-11"):
        best_fold(s11.sequence)


def test_tutorial_level_one_star_per_contact():
    level = tutorial_level()
    assert level.source == "tutorial" and level.best == 3 and level.thresholds == (1, 2, 3)
    assert level.counts == [210, 51, 9, 2]  # the enumeration's histogram of HPHPPHPH


def test_score_level_fold_uses_the_levels_own_thresholds():
    # the first level of the default pack, folded by its stored best fold: what the page shows
    pack = load_pack()
    first = pack.levels[0]
    fold = best_fold(first.sequence, pack)
    res = score_level_fold(first.sequence, fold.conformation)
    assert res.thresholds == first.thresholds and res.score == first.best and res.stars == 3
    assert score_level_fold(first.sequence, fold.conformation[:3]).stars is None
    long = score_level_fold("H" * 24, "R" * 5)  # too long to enumerate: scored, no stars
    assert long.thresholds is None and long.stars is None and long.score == 0
    with pytest.raises(ValueError, match="not self-avoiding"):
        score_level_fold(first.sequence, "RULD")


def test_generated_level_is_fixed_by_its_seed():
    a, b = generate_level(12, 7), generate_level(12, 7)
    assert a == b and a.length == 12 and a.source.startswith("generated (seed 7, ")
    assert (
        a.thresholds == graded_thresholds(a.best)
        and a.counts == level_from_sequence(a.sequence).counts
    )
    with pytest.raises(ValueError, match="10 to 18 residues"):
        generate_level(19, 0)
    with pytest.raises(ValueError, match="seed must be"):
        generate_level(12, -1)


def _canonical(s):
    return min(s, s[::-1])


@pytest.mark.parametrize("length", [10, 12, 14])
def test_lattice_1_a_generated_level_is_never_a_pack_level(length):
    """Issue 25, Lattice 1: at 10 residues Generate always returned level 1, at 12 level 5, at
    14 levels 9 and 10, whatever the seed. Every length offered: the slow test below."""
    pack = {_canonical(lv.sequence) for lv in load_pack().levels}
    for seed in (1, 2):
        assert _canonical(generate_level(length, seed).sequence) not in pack
    # the server's own pack is avoided too: a pack holding the first answer gets another
    first = generate_level(length, 1).sequence
    assert _canonical(generate_level(length, 1, avoid=[first[::-1]]).sequence) != _canonical(first)


@pytest.mark.slow
@pytest.mark.parametrize("length", range(10, 19))
def test_lattice_1_every_length_offered_generates_new_levels(length):
    pack = {_canonical(lv.sequence) for lv in load_pack().levels}
    for seed in range(4):
        assert _canonical(generate_level(length, seed).sequence) not in pack


def test_shipped_pack_lengths_order_and_thresholds():
    pack = load_pack()
    assert default_pack_path().is_file() and pack.name == "default pack"
    lengths = {lv.length for lv in pack.levels}
    assert min(lengths) == 10 and max(lengths) == 20
    shares = [lv.best_share for lv in pack.levels]
    assert shares == sorted(shares, reverse=True)  # easiest (most common three-star folds) first
    for lv in pack.levels[:3]:
        assert lv.thresholds == graded_thresholds(lv.best)
        assert sum(lv.counts) > 0 and lv.counts[-1] > 0
    last = pack.levels[-1]  # L=20: its stored best fold, checked by the rules
    fold = best_fold(last.sequence, pack)
    assert fold.score == last.best == hh_score(last.sequence, fold.conformation)


def test_shipped_pack_is_what_its_builder_writes():
    # every stored histogram is the exact enumeration's, and the meta names the GA's settings
    meta, rows = read_pack(default_pack_path())
    assert meta["objective"] == "best-then-rarity" and meta["seed"] == 0
    assert meta["lengths"] == list(range(10, 21))
    for row in rows:
        if row["length"] <= 16:
            hist = contact_sets(row["length"]).histogram(row["sequence"])
            assert row["histogram"] == hist.tolist(), row["sequence"]
        assert hh_score(row["sequence"], row["best_conformation"]) == row["best"]


@pytest.mark.slow
def test_default_pack_rebuilds_identically(tmp_path):
    # tools/make_default_pack.py from seed 0 (about 80 s on 2 cores): the shipped file's content
    built = build_default_pack(tmp_path / "levels.db")
    assert read_pack(tmp_path / "levels.db") == read_pack(default_pack_path())
    assert [lv.sequence for lv in built.levels] == [lv.sequence for lv in load_pack().levels]


def test_daily_level_is_fixed_by_the_date():
    pack = load_pack()
    a, b = daily_level("2026-12-01", pack), daily_level(" 2026-12-01", pack)
    assert a.sequence == b.sequence and a.source == "daily 2026-12-01"
    with pytest.raises(ValueError, match="not a date"):
        daily_level("yesterday", pack)


def test_a_pack_of_gamelab_lattice_pack_is_played_easiest_first(tmp_path):
    from gamelab.lattice.pack import analyse_level, write_pack

    # stored hardest first (as a pack ordered by its objective may be): played easiest first
    seqs = ["HHPHPPHPPH", "HPHHPPHHPH", "HPPHPPHH"]
    levels = sorted(
        (replace(analyse_level(s), objective=0.0) for s in seqs),
        key=lambda lv: lv.counts[-1] / lv.total,
    )
    write_pack(tmp_path / "p.db", levels, {"objective": "best-score"})
    pack = load_pack(tmp_path / "p.db")
    shares = [lv.best_share for lv in pack.levels]
    assert shares == sorted(shares, reverse=True) and [lv.number for lv in pack.levels] == [1, 2, 3]
    assert pack.name == "p.db" and set(pack.solutions) == set(seqs)


def test_a_file_that_is_not_a_pack_is_refused(tmp_path):
    bad = tmp_path / "x.db"
    bad.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(ValueError, match="not a level pack"):
        load_pack(bad)
    with pytest.raises(ValueError, match="no level pack"):
        load_pack(tmp_path / "missing.db")


def test_47_11_consecutive_seeds_deal_distinct_levels_of_every_difficulty():
    """Issue 47, item 11: 12 seeds at length 10 gave 4 distinct levels, all starting HHH."""
    levels = [generate_level(10, seed) for seed in range(12)]
    assert len({lv.sequence for lv in levels}) == 12
    assert sum(lv.sequence.startswith("HHH") for lv in levels) < 6
    words = [lv.source.rsplit(", ", 1)[1].rstrip(")") for lv in levels]
    assert words[:3] == ["easy", "medium", "hard"]
    easy = [
        lv.counts[-1] / sum(lv.counts) for lv, w in zip(levels, words, strict=True) if w == "easy"
    ]
    hard = [
        lv.counts[-1] / sum(lv.counts) for lv, w in zip(levels, words, strict=True) if w == "hard"
    ]
    assert min(easy) > max(hard)  # the easy ones' best folds are commoner than the hard ones'


def test_47_11_a_dead_end_is_found_by_reachability_parity_or_search():
    """Issue 47, item 11: a dead end is said as soon as the rest of the chain cannot fit."""
    from gamelab.lattice.puzzle import dead_end

    assert score_fold("H" * 13, "RRRUULLLDR").dead_end == (
        "the chain's end is closed in with 1 free cell, but 2 residues remain"
    )
    assert score_fold("H" * 12, "RRRUULLLDR").dead_end is None  # one residue: it fits
    assert score_fold("H" * 13, "RRRUULLLD").dead_end is None  # still outside
    # closed in with three cells, all of the other colour: two steps cannot alternate
    t_pocket = [(-1, 1), (-2, 1), (-2, 0), (-2, -1), (-1, -1), (-1, -2), (0, -2), (1, -2),
                (1, -1), (2, -1), (2, 0), (2, 1), (1, 1), (0, 1), (0, 0)]  # fmt: skip
    assert "colour" in dead_end(t_pocket, 2)
    assert dead_end(t_pocket, 1) is None


def test_47_14_serves_warm_up_enumerates_every_playable_length(monkeypatch):
    """Issue 47, item 14: the first level of a new length (20 residues: ~9 CPU-s) waited for its
    enumeration after the server said it was warm; serve's warm-up now builds every length."""
    import gamelab.lattice.puzzle as puzzle
    from gamelab.web.api.lattice import PAGE

    asked = []
    monkeypatch.setattr(puzzle, "contact_sets", lambda length, lattice: asked.append(length))
    assert "gamelab.lattice.puzzle:build_page_tables" in PAGE.warmup.build
    puzzle.build_page_tables()
    assert asked == list(range(puzzle.PLAY_LENGTHS[0], puzzle.PLAY_LENGTHS[1] + 1))
