"""Evaluations, the blog's alpha-beta, the engine and its plain-Python twin."""

import pytest

from gamelab.oware import _search_kernels as K
from gamelab.oware import rules
from gamelab.oware.evaluation import auale_evaluation, blog_evaluation, evaluate
from gamelab.oware.rules import Position
from gamelab.oware.search import Engine, blog_alphabeta, board_array, twin_negamax
from gamelab.oware.tablebase import load_tablebase


def random_positions(seed, count, max_plies=60):
    return rules.random_positions(count, seed, max_plies)


def test_evaluation_kernels_match_python():
    for p in random_positions(1, 200):
        b = board_array(p)
        assert K.blog_eval_kernel(b, p.to_move) == blog_evaluation(p.houses, p.stores, p.to_move)
        assert K.auale_eval_kernel(b, p.to_move) == auale_evaluation(p.houses, p.stores, p.to_move)


def test_blog_evaluation_formula():
    # seed blog: 2·(P_me − P_opp) + (vulnerable opponent houses − own vulnerable houses)
    p = Position((1, 2, 3, 0, 0, 2, 2, 1, 0, 5, 9, 3), (10, 10), 0)
    assert evaluate(p, "blog") == 2 * 0 + 2 - 3
    q = Position(p.houses, (14, 6), 1)
    assert evaluate(q, "blog") == 2 * (6 - 14) + 3 - 2


def test_auale_evaluation_weights():
    # research notes §3 (Aalina's Oware.java): store ×25, kroo +28, 1-2 seeds −36, empty −54
    p = Position((13, 0, 1, 4, 4, 4, 0, 0, 0, 2, 3, 3), (10, 4), 0)
    own = 28 - 54 - 36
    opp = -54 * 3 - 36
    assert evaluate(p, "auale") == 25 * 6 + own - opp


@pytest.mark.parametrize("evaluation", ["auale", "blog"])
def test_engine_kernel_matches_twin_at_fixed_depth(evaluation):
    engine = Engine(evaluation=evaluation, tablebase_seeds=-1, use_tt=False, tt_bits=10)
    for p in random_positions(2, 12):
        for depth in (1, 2, 3, 4):
            assert engine.search_depth(p, depth)[0] == twin_negamax(p, depth, evaluation)


def test_engine_kernel_matches_twin_with_tablebase():
    tb = load_tablebase(8)
    engine = Engine(tablebase_seeds=8, use_tt=False, tt_bits=10)
    checked = 0
    for p in random_positions(3, 300, max_plies=200):
        if p.seeds_on_board() > 16:
            continue
        assert engine.search_depth(p, 3)[0] == twin_negamax(p, 3, "auale", tb)
        checked += 1
    assert checked >= 5


def test_blog_alphabeta_equals_minimax_value():
    for p in random_positions(4, 10):
        move, score, nodes = blog_alphabeta(p, 4)
        assert score == twin_negamax(p, 4, "blog")
        assert move in p.legal_moves() and nodes > 0


def test_iterative_deepening_result():
    engine = Engine(tablebase_seeds=-1, tt_bits=16)
    result = engine.search(Position.initial(), depth=8)
    assert result.depth == 8 and result.best_move in range(6)
    assert result.pv[0] == result.best_move and len(result.pv) >= 2
    # with the table on, the root value at a fixed depth must still equal the plain search
    fresh = Engine(tablebase_seeds=-1, use_tt=False, tt_bits=10)
    assert fresh.search_depth(Position.initial(), 6)[0] == twin_negamax(Position.initial(), 6)
    timed = engine.search(Position.initial(), time_limit=0.05)
    assert timed.depth >= 1 and timed.nodes > 0


def test_engine_finds_forced_capture():
    # South sows one seed into North's house 6 holding 2: capture 3 now; any other move loses it
    p = Position((0, 0, 0, 0, 0, 1, 2, 1, 6, 6, 6, 6), (10, 10), 0)
    r = Engine(tablebase_seeds=-1, tt_bits=12).search(p, depth=2)
    assert r.best_move == 5


def test_search_rejects_bad_input():
    with pytest.raises(ValueError, match="time limit"):
        Engine(tablebase_seeds=-1, tt_bits=10).search(Position.initial(), time_limit=-1)
    over = Position((0,) * 12, (25, 23), 0)
    with pytest.raises(ValueError, match="over"):
        blog_alphabeta(over, 3)
    with pytest.raises(ValueError, match="evaluation"):
        Engine(evaluation="magic", tablebase_seeds=-1)


def test_cli_analyse_json():
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamelab.cli",
            "oware",
            "analyse",
            "--position",
            "start",
            "--time",
            "0.2",
            "--tablebase",
            "6",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)["analysis"]
    assert set(data) >= {"best_move", "score", "pv", "depth", "nodes", "nps"}
    assert data["best_move"] in range(6) and data["pv"][0] == data["best_move"]
    assert data["depth"] >= 1 and data["nodes"] > 0
