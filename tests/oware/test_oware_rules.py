"""Rules, text form, variants, perft and game properties."""

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelab.oware import _move_kernels as K
from gamelab.oware.perft import START_PERFT, perft_count
from gamelab.oware.rules import Position, Rules, apply_move, perft, sow


def random_game(rng, rules=Rules(), max_plies=2000):
    p = Position.initial(rules)
    positions = [p]
    while not p.is_over():
        p = p.play(int(rng.choice(p.legal_moves())))
        positions.append(p)
        assert len(positions) < max_plies
    return positions


def test_perft_start_to_depth_8():
    # research notes §2 (OpenSpiel and an independent implementation agree)
    start = Position.initial()
    assert [perft_count(start, d) for d in range(1, 9)] == list(START_PERFT[:8])


def test_python_perft_twin_matches_table():
    # the readable rules (with the repetition rule) agree with the table to depth 5
    assert [perft(Position.initial(), d) for d in range(1, 6)] == list(START_PERFT[:5])


@pytest.mark.slow
def test_perft_depth_10():
    start = Position.initial()
    assert [perft_count(start, d) for d in (9, 10)] == list(START_PERFT[8:])


@pytest.mark.parametrize("grand_slam", ["no-capture", "forbidden", "capture-all"])
def test_perft_kernel_equals_python_on_random_positions(grand_slam):
    rng = np.random.default_rng(7)
    rules = Rules(grand_slam=grand_slam)
    checked = 0
    for _ in range(12):
        game = random_game(rng, rules)
        p = game[int(rng.integers(len(game)))]
        p = Position(p.houses, p.stores, p.to_move, rules)  # fresh history
        assert perft_count(p, 4) == perft(p, 4)
        checked += 1
    assert checked == 12


def test_blog_sowing_example():
    # seed blog, "spreadSeeds" trace: vector [3,1,6,0,6,2,1,3,2,3,2,4], start at the 3rd house
    v = [3, 1, 6, 0, 6, 2, 1, 3, 2, 3, 2, 4]
    last = sow(v, 0, 2)
    assert v == [3, 1, 0, 1, 7, 3, 2, 4, 3, 3, 2, 4]
    assert last == 8  # the blog's 1-based end index 10 is one past the last house sown (9)


def test_twelve_seeds_skip_origin_house():
    p = Position((12, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1), (15, 15), 0)
    q = p.play(0)
    assert q.houses[0] == 0
    assert sum(q.houses) + sum(q.stores) == 48


def test_capture_chain_stops_at_row_and_break():
    houses = [0, 0, 0, 0, 2, 3, 1, 2, 1, 2, 2, 0]
    stores = [20, 15]
    # North plays house 9 (offset 3, 2 seeds): lands on 10 and 11 -> 11 holds 1, no capture
    assert apply_move(list(houses), list(stores), 1, 3, Rules()) == 0
    # South plays offset 5 (3 seeds) -> 6,7,8 get 2,3,2: last lands on 8, chain 8,7,6 = 7
    h, s = list(houses), list(stores)
    assert apply_move(h, s, 0, 5, Rules()) == 7
    assert h[6:9] == [0, 0, 0] and s == [27, 15]


def test_grand_slam_variants():
    # South's offset 5 (1 seed) turns North's only seeds (house 6: 2) into 3 -> a grand slam
    base = dict(houses=(0, 0, 0, 0, 1, 1, 2, 0, 0, 0, 0, 0), stores=(22, 22), to_move=0)
    abapa = Position(**base)
    after = abapa.play(5)
    assert after.houses[6] == 3 and after.stores == (22, 22)  # legal, captures nothing
    forbidden = Position(**base, rules=Rules(grand_slam="forbidden"))
    assert forbidden.legal_moves() == [4]  # offset 4 only sows into house 5
    capture_all = Position(**base, rules=Rules(grand_slam="capture-all"))
    end = capture_all.play(5)
    assert end.is_over() and end.result() == (22 + 3 + 1, 22)


def test_feeding_obligation_and_no_feed_end():
    p = Position((0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0), (20, 24), 0)
    assert p.legal_moves() == []  # neither house reaches North's row
    assert p.is_over() and p.result() == (24, 24)
    q = Position((0, 0, 4, 1, 0, 0, 0, 0, 0, 0, 0, 0), (19, 24), 0)
    assert q.legal_moves() == [2]  # must feed
    # North plays its single seed back... South ends with nothing -> collected
    r = q.play(2)
    assert r.houses[6] == 1 and not r.is_over()


def test_text_round_trip_and_errors():
    p = Position.initial().play(3).play(1)
    assert Position.from_text(p.to_text()) == p
    assert Position.from_text("start") == Position.initial()
    assert Position.from_text("4 4 4 4 4 4 4 4 4 4 4 4 0 0 N").to_move == 1
    with pytest.raises(ValueError, match="48 seeds"):
        Position.from_text("4-4-4-4-4-4-4-4-4-4-4-5-0-0-S")
    with pytest.raises(ValueError, match="negative"):
        Position.from_text("-4-4-4-4-4-4-4-4-4-4-4-12-0-0-S")
    with pytest.raises(ValueError, match="negative"):
        Position((-1, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4), (0, 0), 0)
    with pytest.raises(ValueError, match="side to move"):
        Position.from_text("4-4-4-4-4-4-4-4-4-4-4-4-0-0-X")
    with pytest.raises(ValueError, match="15|fields"):
        Position.from_text("4-4-4")
    with pytest.raises(ValueError, match="not legal"):
        Position.initial().play(6)
    with pytest.raises(ValueError, match="grand slam rule"):
        Rules(grand_slam="sometimes")


def test_random_games_properties():
    rng = np.random.default_rng(11)
    endings = {"score": 0, "repetition": 0, "no-move": 0}
    for rules in (
        Rules(),
        Rules(grand_slam="forbidden"),
        Rules(grand_slam="capture-all"),
        Rules(cycle="split"),
    ):
        for _ in range(60):
            game = random_game(rng, rules)
            for p in game:
                assert sum(p.houses) + sum(p.stores) == 48  # seeds are conserved
                assert all(x >= 0 for x in p.houses)
            last = game[-1]
            a, b = last.result()
            assert a + b == 48
            assert last.winner() == (None if a == b else int(b > a))
            if rules == Rules():
                prev = game[-2]
                if max(last.stores) > 24 or last.stores == (24, 24):
                    endings["score"] += 1
                if (
                    last.houses
                    and prev.stores == last.stores
                    and (tuple(last.history[-1][0]), last.to_move) in last.history[:-1]
                ):
                    endings["repetition"] += 1
    assert endings["score"] > 0


def test_kernel_moves_match_python_moves():
    rng = np.random.default_rng(3)
    for gs_name in ("no-capture", "forbidden", "capture-all"):
        rules = Rules(grand_slam=gs_name)
        for _ in range(20):
            for p in random_game(rng, rules)[:-1]:
                b = np.array([*p.houses, *p.stores], dtype=np.int64)
                mask = K.legal_mask_kernel(b, p.to_move, rules.gs_code)
                legal = p.legal_moves()
                assert [o for o in range(6) if mask >> o & 1] == legal
                for m in legal:
                    c = b.copy()
                    K.sow_and_capture_kernel(c, p.to_move, m, rules.gs_code)
                    h, s = list(p.houses), list(p.stores)
                    apply_move(h, s, p.to_move, m, rules)
                    assert list(c) == h + s


def test_cli_perft_json():
    out = subprocess.run(
        [sys.executable, "-m", "gamelab.cli", "oware", "perft", "--depth", "5", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == '{"depth": 5, "nodes": 5219}'


def test_cli_rejects_bad_position():
    out = subprocess.run(
        [sys.executable, "-m", "gamelab.cli", "oware", "perft", "--position", "1-2-3", "--json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and out.stderr.startswith("error:")


@st.composite
def positions(draw):
    """Any board with 48 seeds in houses and stores (not only positions reachable in play)."""
    cuts = sorted(draw(st.lists(st.integers(0, 48), min_size=13, max_size=13)))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, 48], strict=True)]
    return Position(tuple(parts[:12]), (parts[12], parts[13]), draw(st.integers(0, 1)))


@settings(max_examples=300, deadline=None)
@given(positions(), st.sampled_from(["no-capture", "forbidden", "capture-all"]))
def test_kernel_and_python_rules_agree_on_any_board(p, grand_slam):
    rules = Rules(grand_slam=grand_slam)
    p = Position(p.houses, p.stores, p.to_move, rules)
    b = np.array([*p.houses, *p.stores], dtype=np.int64)
    legal = p.legal_moves()
    mask = 0 if p.score_decided() else K.legal_mask_kernel(b, p.to_move, rules.gs_code)
    assert [o for o in range(6) if mask >> o & 1] == legal
    for m in legal:
        child = p.play(m)
        assert sum(child.houses) + sum(child.stores) == 48  # seeds are conserved
        c = b.copy()
        K.sow_and_capture_kernel(c, p.to_move, m, rules.gs_code)
        if not child.ended:
            assert list(c) == [*child.houses, *child.stores]
    assert Position.from_text(p.to_text(), rules) == p
