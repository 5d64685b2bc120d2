"""gamelab.oware.game: the game a front end holds, replayed and checked; replies, verdicts, review."""

import numpy as np
import pytest

from gamelab.core.serialise import to_plain
from gamelab.oware.analysis import move_letter
from gamelab.oware.game import (
    START_TEXT,
    analyse_position,
    engine_reply,
    exact_verdict,
    game_record,
    game_view,
    load_record,
    play_move,
    take_back,
)
from gamelab.oware.game_review import review_game
from gamelab.oware.match import parse_player
from gamelab.oware.play import parse_record
from gamelab.oware.rules import Position, Rules
from gamelab.oware.tablebase import exhaustive_board_value, load_tablebase
from gamelab.oware.verdicts import UNIT

ABAPA = (Rules(),)  # the rule variant, as the library functions take it


def random_game(seed: int, rules=ABAPA) -> list[str]:
    rng = np.random.default_rng(seed)
    p, letters = Position.initial(*rules), []
    while not p.is_over():
        m = int(rng.choice(p.legal_moves()))
        letters.append(move_letter(p.to_move, m))
        p = p.play(m)
    return letters


@pytest.mark.parametrize("seed", range(4))
def test_a_replayed_game_matches_the_rules_move_by_move(seed):
    moves = random_game(seed)
    p = Position.initial()
    for i, letter in enumerate(moves):
        view = play_move(START_TEXT, *ABAPA, moves[:i], letter)
        before = p
        p = p.play("ABCDEFabcdef".index(letter) % 6)
        assert view.position == p.to_text() and view.over == p.is_over()
        # the sowing replays to the board before collection: path, then captures
        board = list(view.last.before)
        assert board == list(before.houses)
        board[view.last.house] = 0
        for h in view.last.path:
            board[h] += 1
        for h in view.last.captured_houses:
            board[h] = 0
        if not p.is_over():
            assert board == list(p.houses)
        assert (
            view.last.captured == p.stores[before.to_move] - before.stores[before.to_move]
            or p.is_over()
        )
    assert view.result == list(p.result()) and view.end_reason in (
        "score",
        "repetition",
        "no moves",
    )
    # the board as the last move left it, before the collection: the sowing replayed
    assert sum(view.end_board) + sum(view.end_stores) == 48
    assert view.end_board == board and view.end_stores[0] + view.end_stores[1] == 48 - sum(board)


def test_illegal_moves_say_why():
    with pytest.raises(ValueError, match="house C is empty"):
        play_move(START_TEXT, *ABAPA, ["C", "c"], "C")
    with pytest.raises(ValueError, match="it is South's move"):
        play_move(START_TEXT, *ABAPA, [], "a")
    with pytest.raises(ValueError, match="the feeding rule"):
        play_move("1-0-0-0-0-1-0-0-0-0-0-0-23-23-S", *ABAPA, [], "A")
    assert play_move("1-0-0-0-0-1-0-0-0-0-0-0-23-23-S", *ABAPA, [], "F").to_move == "North"
    # South's F (2 seeds) would take all of North's seeds (a and b hold 1 each): a grand slam
    slam = "1-0-0-0-0-2-1-1-0-0-0-0-22-21-S"
    with pytest.raises(ValueError, match="grand slam"):
        play_move(slam, Rules(grand_slam="forbidden"), [], "F")
    view = play_move(slam, *ABAPA, [], "F")  # Abapa: legal, captures nothing
    assert view.last.grand_slam and view.last.captured == 0 and view.houses[6:8] == [2, 2]
    with pytest.raises(ValueError, match="move 2 \\(C\\)"):
        game_view(START_TEXT, *ABAPA, ["C", "C"])


def test_take_back_returns_to_your_previous_turn():
    moves = random_game(1)[:7]
    assert take_back(START_TEXT, *ABAPA, moves, "South").moves == moves[:6]
    assert take_back(START_TEXT, *ABAPA, moves[:6], "South").moves == moves[:4]
    assert take_back(START_TEXT, *ABAPA, moves[:1], "North").moves == []
    with pytest.raises(ValueError, match="no move to take back"):
        take_back(START_TEXT, *ABAPA, [], "South")


def test_exact_verdict_is_the_tablebase_value():
    for text in (
        "1-0-0-0-0-1-0-0-0-0-2-0-22-22-S",
        "0-2-0-1-0-0-1-0-0-0-0-1-21-22-N",
        "2-1-0-0-0-0-0-0-1-0-0-0-24-20-S",
    ):
        p = Position.from_text(text)
        e = exact_verdict(p)
        mover_board = load_tablebase(12).board_value(p)  # pinned against plain search elsewhere
        try:
            assert mover_board == exhaustive_board_value(p, limit=40_000)
        except ValueError:
            pass  # too big for the plain search
        mine = p.stores[p.to_move] + (p.seeds_on_board() + mover_board) // 2
        assert e.final[p.to_move] == mine and sum(e.final) == 48
        assert e.outcome == ("win" if mine > 24 else "loss" if mine < 24 else "draw")
    assert exact_verdict(Position.initial()) is None  # 48 seeds on the board
    assert (
        exact_verdict(Position.from_text("1-0-0-0-0-1-0-0-0-0-2-0-22-22-S", Rules("forbidden")))
        is None
    )


def test_engine_reply_and_analysis_are_legal_and_labelled():
    r = engine_reply(START_TEXT, *ABAPA, ["C"], parse_player("engine:depth=4"))
    assert r.move in game_view(START_TEXT, *ABAPA, ["C"]).legal and r.analysis.depth >= 4
    assert r.view.moves == ["C", r.move] and 0 <= r.evaluation.south <= 1
    again = engine_reply(START_TEXT, *ABAPA, ["C"], parse_player("engine:depth=4"))
    # a fixed-depth reply does not depend on earlier searches (only the timings differ)
    assert (again.move, again.analysis.score, again.analysis.pv) == (
        r.move,
        r.analysis.score,
        r.analysis.pv,
    )
    assert engine_reply(START_TEXT, *ABAPA, [], parse_player("random"), seed=5) == engine_reply(
        START_TEXT, *ABAPA, [], parse_player("random"), seed=5
    )
    with pytest.raises(ValueError, match="unknown player"):
        engine_reply(START_TEXT, *ABAPA, [], parse_player("wizard"))
    with pytest.raises(ValueError, match="at most 10 s"):
        engine_reply(START_TEXT, *ABAPA, [], parse_player("engine:time=60"))
    with pytest.raises(ValueError, match="best endgame table this server has"):
        engine_reply(
            START_TEXT, *ABAPA, [], parse_player("engine:depth=2,tb=16")
        )  # would build a 30 MB table
    # the page's own limit is below the player's general range (oware.match.LIMITS)
    with pytest.raises(ValueError, match="blog search depth is at most 10"):
        engine_reply(START_TEXT, *ABAPA, [], parse_player("blog:depth=11"))
    with pytest.raises(ValueError, match="depth of player blog is 1 to 12, got 30"):
        engine_reply(START_TEXT, *ABAPA, [], parse_player("blog:depth=30"))
    a = analyse_position("1-0-0-0-0-1-0-0-0-0-2-0-22-22-S", depth=4)
    assert a.exact.outcome == "win" and a.evaluation.exact and a.evaluation.south == 1.0
    assert a.analysis.score > 0  # the engine agrees with the table
    with pytest.raises(ValueError, match="48 seeds"):
        analyse_position("4-4-4-4-4-4-4-4-4-4-4-4-1-0-S", depth=2)


def test_review_losses_are_never_negative_and_the_best_move_loses_nothing():
    moves = random_game(2)[:30]
    r = review_game(START_TEXT, *ABAPA, moves, depth=3)
    assert [m.move for m in r.moves] == moves and r.depth == 3
    assert all(m.score_before - m.score_after >= 0 for m in r.moves)
    assert all(m.loss == (0 if m.within_noise else m.score_before - m.score_after) for m in r.moves)
    assert all(m.within_noise == (0 < m.score_before - m.score_after < UNIT) for m in r.moves)
    assert all(m.depth == 3 for m in r.moves) and r.done
    assert all((m.loss == 0) == (m.loss_text == "") for m in r.moves)
    for side in ("South", "North"):
        counted = [m for m in r.moves if m.side == side and m.loss_seeds is not None]
        assert r.total_loss[side] == sum(m.loss for m in counted)
        assert r.turning_moves[side] == sum(
            1 for m in r.moves if m.side == side and m.loss_seeds is None
        )
        t = r.totals[side]  # the shared vocabulary, in seeds (no chance: no luck)
        assert t.loss == pytest.approx(r.total_loss[side] / UNIT) and t.luck == 0.0
        assert set(t.costliest) <= {m.ply for m in counted if m.loss > 0}
    assert r.worst == sorted(m.ply for m in r.moves if m.worst) and len(r.worst) <= 3
    if r.worst:
        assert min(r.moves[i - 1].loss for i in r.worst) >= max(
            m.loss for m in r.moves if not m.worst
        )
    best_line = [m.best for m in r.moves[:1]]
    assert review_game(START_TEXT, *ABAPA, best_line, depth=3).moves[0].loss == 0
    with pytest.raises(ValueError, match="no moves to review"):
        review_game(START_TEXT, *ABAPA, [], depth=3)


def test_oware_1_review_as_strong_as_the_engine_in_pieces_never_blaming_its_choice():
    """Issue 25, Owaré 1: the review searched 8 plies against a 14-ply engine and called the
    hint's move the costliest. Now: the engine's time (or at least its depth) per position, in
    pieces that add up to the whole review, and a move the engine recommended is no loss."""
    from gamelab.oware.budget import review_strength

    assert (
        review_strength(parse_player("engine:time=0.5")).text
        == "0.5 s a position, as the engine you played"
    )
    s = review_strength(parse_player("engine:time=2"))
    assert (s.seconds, s.depth, s.per_piece) == (2.0, None, 1)
    assert review_strength(parse_player("engine:depth=12")).depth == 12
    assert (
        review_strength(parse_player("engine:depth=2")).depth == 8
    )  # never below the review's least depth
    assert review_strength(parse_player("greedy")).seconds == 0.5
    with pytest.raises(ValueError):
        review_strength(parse_player("wizard"))
    moves = random_game(4)[:8]
    whole = review_game(START_TEXT, *ABAPA, moves, depth=4)
    half = review_game(START_TEXT, *ABAPA, moves, depth=4, count=5)
    assert not half.done and len(half.moves) == 5 and half.plies == 8
    rest = review_game(
        START_TEXT, *ABAPA, moves, depth=4, first=6, previous=[to_plain(m) for m in half.moves]
    )
    assert rest == whole
    with pytest.raises(ValueError, match="continues at move 6"):
        review_game(START_TEXT, *ABAPA, moves, depth=4, first=3, previous=half.moves)
    # a lossy move the engine had recommended is not called a loss; the remark says why
    lossy = next(m for m in whole.moves if m.loss > 0)
    rec = [""] * len(moves)
    rec[lossy.ply - 1] = lossy.move
    again = review_game(START_TEXT, *ABAPA, moves, depth=4, recommended=rec)
    m = again.moves[lossy.ply - 1]
    assert m.loss == 0 and m.within_noise and "the engine's own choice" in m.remark
    assert lossy.ply not in again.worst
    # timed: every position searched for the engine's time, its depth stated
    timed = review_game(START_TEXT, *ABAPA, moves[:2], seconds=0.05)
    assert all(m.depth >= 1 for m in timed.moves) and timed.strength == "0.05 s a position"


def test_record_round_trip():
    moves = random_game(3)
    rec = game_record(START_TEXT, *ABAPA, moves, "human", "engine:time=0.5")
    start, offsets, headers = parse_record(rec.text)
    assert headers["south"] == "human" and headers["north"] == "engine:time=0.5"
    view = load_record(rec.text)
    assert (
        view.moves == moves
        and view.over
        and f"{view.result[0]}-{view.result[1]}" == headers["result"]
    )
    # an illegal move is named by its number; a text without a record's header is no record
    bad_move = rec.text.replace(f"moves: {' '.join(moves)}", "moves: a")
    with pytest.raises(ValueError, match="record move 1"):
        load_record(bad_move)
    with pytest.raises(ValueError, match="not a game record"):
        load_record("moves: a")
    with pytest.raises(ValueError, match="one line"):
        game_record(START_TEXT, *ABAPA, [], "a\nb")


def test_47_3_a_review_is_the_same_twice_and_honours_the_players_a_record_names():
    """Issue 47, item 3: a review searched by the clock (17.4 then 17.1 seeds for one game),
    and after a record was loaded it called the engine's own moves losses. "T seconds a
    position" is now a budget of nodes, and a side the players name as the engine is the
    engine's own choice at every move."""
    from gamelab.oware.game_review import engine_sides, node_budget

    moves = ["C", "a", "D", "b", "E", "c"]
    once = review_game(START_TEXT, *ABAPA, moves, seconds=0.02)
    twice = review_game(START_TEXT, *ABAPA, moves, seconds=0.02)
    assert once == twice and node_budget(0.02) == 20_000
    assert engine_sides(["human", "engine:time=0.5"]) == {1}
    assert engine_sides(["blog:depth=6", "Ann"]) == set()
    judged = review_game(START_TEXT, *ABAPA, moves, depth=4, players=["human", "engine:depth=2"])
    assert all(r.loss == 0 for r in judged.moves if r.side == "North")
    text = game_record(START_TEXT, *ABAPA, moves, "human", "engine:depth=2").text
    assert load_record(text).players == ["human", "engine:depth=2"]
    with pytest.raises(ValueError, match="players are two names"):
        review_game(START_TEXT, *ABAPA, moves, depth=2, players=["human"])


def test_47_10_every_legal_move_ranked_exact_in_the_tablebase_best_first():
    """Issue 47, item 10: the analysis ranks every legal move, exact where the tablebase (or
    the end of the game) decides it."""
    endgame = "1-0-2-0-0-1-2-1-0-3-0-1-20-17-S"
    a = analyse_position(endgame, depth=4, rank=True)
    p = Position.from_text(endgame, Rules())
    assert sorted(v.move for v in a.ranking) == [move_letter(0, m) for m in p.legal_moves()]
    assert all(v.exact for v in a.ranking)
    scores = [v.score for v in a.ranking]
    assert scores == sorted(scores, reverse=True)
    for v in a.ranking:  # each value is the tablebase's verdict after the move
        child = p.play("ABCDEF".index(v.move))
        final = exact_verdict(child).final if not child.is_over() else list(child.result())
        assert f"{final[0]}-{final[1]}" in v.text
    opening = analyse_position("start", depth=3, rank=True)
    assert len(opening.ranking) == 6 and opening.ranking[0].move == opening.analysis.best_move_text
    assert analyse_position("start", depth=2).ranking is None


def test_48_3_the_page_game_is_the_protocol_s_states_moved_by_house_letters():
    from gamelab.oware.game import replay
    from gamelab.oware.state import OwareGame

    rng = np.random.default_rng(3)
    state = OwareGame().new_initial_state()
    while not state.is_terminal():
        for action in state.legal_actions():
            assert state.string_to_action(state.action_to_string(action)) == action
        state.apply(int(rng.choice(state.legal_actions())))
    letters = game_view(START_TEXT, *ABAPA, []).legal
    moves = []
    for m in state.moves:  # the same game as the page plays it: letters, one request a move
        view = play_move(START_TEXT, *ABAPA, moves, move_letter(len(moves) % 2, m))
        moves = view.moves
    assert letters == list("ABCDEF") and view.over and view.position == state.position.to_text()
    final, trail = replay(START_TEXT, *ABAPA, moves)
    assert final.to_text() == state.to_text() and len(trail) == len(moves) + 1
    with pytest.raises(ValueError, match="a is a North house, but it is South's move"):
        OwareGame().new_initial_state().string_to_action("a")
