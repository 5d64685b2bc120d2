"""Practice rounds (seeded, replayed from their flips) and the exact review of a round."""

import doctest

import numpy as np
import pytest

import gamelab.voltorb.practice as practice_module
import gamelab.voltorb.review as review_module
from gamelab.voltorb.assistant import solve_position
from gamelab.voltorb.practice import new_practice, play_practice, practice_board
from gamelab.voltorb.review import optimal_outcome, review_position, review_practice, review_round
from gamelab.voltorb.rules import (
    SIZE,
    Clues,
    Position,
    Round,
    RoundRecord,
    VoltorbSetting,
    next_level,
)

ROWS, COLS = "4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"


def test_docstring_examples():
    assert doctest.testmod(practice_module).failed == 0
    assert doctest.testmod(review_module).failed == 0


def _safe_first_flips(board):
    """Flip order: every 1 and multiplier first, a Voltorb last (a won round)."""
    flat = board.reshape(-1)
    return [[t // SIZE + 1, t % SIZE + 1] for t in range(25) if flat[t] >= 2]


def test_practice_is_replayable_and_follows_the_round_rules():
    a, b = new_practice(VoltorbSetting(4), 99), new_practice(VoltorbSetting(4), 99)
    assert a == b and new_practice(VoltorbSetting(4), 100) != a
    board = practice_board(VoltorbSetting(4), 99)
    assert (Clues.from_board(board).as_text()) == (a.rows, a.cols)
    flips = _safe_first_flips(board)
    playing = play_practice(VoltorbSetting(4), 99, flips[:1])
    assert (
        playing.outcome is None
        and playing.board is None
        and playing.coins == int(board.reshape(-1)[(flips[0][0] - 1) * SIZE + flips[0][1] - 1])
    )
    won = play_practice(VoltorbSetting(4), 99, flips, history=[["lost", 3]], bank=100)
    rnd = Round(board)
    for r, c in flips:
        rnd.flip((r - 1) * SIZE + c - 1)
    assert won.outcome == "won" and won.coins == rnd.coins and won.bank == 100 + rnd.coins
    assert won.board == board.tolist()
    assert (
        won.next_level
        == next_level(4, "won", rnd.cards_flipped, [("lost", 3), ("won", rnd.cards_flipped)])
        == 5
    )
    assert won.history == [["lost", 3], ["won", rnd.cards_flipped]]
    voltorb = int(np.flatnonzero(board.reshape(-1) == 0)[0])
    lost = play_practice(
        VoltorbSetting(4), 99, flips[:1] + [[voltorb // SIZE + 1, voltorb % SIZE + 1]]
    )
    assert lost.outcome == "lost" and lost.coins == 0 and lost.next_level == 1
    quit_ = play_practice(VoltorbSetting(4), 99, flips[:1], quit=True, bank=10)
    assert quit_.outcome == "quit" and quit_.bank == 10 + playing.coins


def test_practice_bad_input():
    with pytest.raises(ValueError, match="already revealed"):
        play_practice(VoltorbSetting(1), 5, [[1, 1], [1, 1]])
    with pytest.raises(ValueError, match="rows and columns are 1-5"):
        play_practice(VoltorbSetting(1), 5, [[0, 3]])
    with pytest.raises(ValueError, match="seed must be an integer"):
        new_practice(VoltorbSetting(1), -3)
    with pytest.raises(ValueError, match="level must be"):
        new_practice(VoltorbSetting(9), 3)
    board = practice_board(VoltorbSetting(2), 8)
    flips = _safe_first_flips(board)
    with pytest.raises(ValueError, match="already over"):
        play_practice(
            VoltorbSetting(2), 8, flips + [[1, 1]] if [1, 1] not in flips else flips + [[5, 5]]
        )
    with pytest.raises(ValueError, match="history entry 1"):
        play_practice(VoltorbSetting(2), 8, [], history=[["draw", 3]])


def test_review_losses_and_luck_add_up_and_optimal_moves_lose_nothing():
    board = practice_board(VoltorbSetting(5), 21)
    rnd = Round(board)
    flips = []
    while rnd.outcome is None:  # follow the assistant's recommendation each time
        revealed = [f"{t // SIZE + 1},{t % SIZE + 1}={v}" for t, v in rnd.revealed.items()]
        a = solve_position(Position.parse(*rnd.clues.as_text(), revealed), VoltorbSetting(5))
        tile = (a.recommended[0] - 1) * SIZE + a.recommended[1] - 1
        flips.append([a.recommended[0], a.recommended[1]])
        rnd.flip(tile)
    rv = review_practice(VoltorbSetting(5), 21, flips)
    assert all(m.loss == 0.0 for m in rv.moves)
    assert (
        rv.optimal_would_win == (rnd.outcome == "won") == optimal_outcome(board, VoltorbSetting(5))
    )
    assert rv.outcome == rnd.outcome
    result = 1.0 if rv.outcome == "won" else 0.0
    assert result - rv.p_start == pytest.approx(rv.total_luck - rv.total_loss, abs=1e-9)
    t = rv.totals["you"]  # the shared vocabulary, in P(win)
    assert (t.unit, t.start, t.loss, t.luck, t.result) == (
        "P(win)",
        rv.p_start,
        rv.total_loss,
        rv.total_luck,
        result,
    )
    for before, after in zip(rv.moves, rv.moves[1:], strict=False):
        assert after.p_before == pytest.approx(before.p_after, abs=1e-12)


def test_review_of_a_poor_flip_shows_its_loss():
    # row 1, column 4 (P(Voltorb) 82 %) instead of the safe row 2 flips
    rv = review_position(RoundRecord.parse(ROWS, COLS, ["1,4=1"]), VoltorbSetting(2))
    m = rv.moves[0]
    assert m.loss > 0.1 and m.best == [2, 1] and m.p_voltorb == pytest.approx(0.823232, abs=1e-6)
    assert m.p_before == pytest.approx(
        solve_position(Position.parse(ROWS, COLS), VoltorbSetting(2)).win_probability
    )
    assert m.p_choice == pytest.approx(m.p_before - m.loss)
    assert rv.optimal_would_win is None and rv.outcome == "unfinished"
    with pytest.raises(ValueError, match="no flips to review"):
        review_position(RoundRecord.parse(ROWS, COLS, []), VoltorbSetting(2))
    with pytest.raises(ValueError, match="cannot be 0"):
        review_position(RoundRecord.parse(ROWS, COLS, ["2,1=0"]), VoltorbSetting(2))
    with pytest.raises(ValueError, match="already revealed"):
        review_round(
            Clues.from_board(practice_board(VoltorbSetting(2), 1)),
            [(0, 1), (0, 1)],
            VoltorbSetting(2),
        )


def test_quick_review_labels_every_row_and_keeps_the_exact_p_voltorb():
    """The time budget's fallback (issue 24, Voltorb 2): every row marked not exact, each
    flip's P(Voltorb) and the outcome as the exact review has them, MinRisk's flip beside."""
    board = practice_board(VoltorbSetting(3), 42).reshape(-1)
    ones = np.flatnonzero(board == 1)[:2].tolist()
    voltorb = int(np.flatnonzero(board == 0)[0])
    flips = [[t // SIZE + 1, t % SIZE + 1] for t in [*ones, voltorb]]  # two 1s, then lost
    exact = review_practice(VoltorbSetting(3), 42, flips)
    quick = review_practice(VoltorbSetting(3), 42, flips, exact=False)
    assert exact.exact and not quick.exact and quick.p_start is None
    assert quick.outcome == exact.outcome == "lost" and len(quick.moves) == 3
    for q, e in zip(quick.moves, exact.moves, strict=True):
        assert not q.exact and q.p_before is None and q.loss is None and q.luck is None
        assert q.tile == e.tile and q.value == e.value
        assert abs(q.p_voltorb - e.p_voltorb) < 1e-9


def test_a_quit_practice_round_is_reviewed_as_quit():
    board = practice_board(VoltorbSetting(3), 42).reshape(-1)
    one = int(np.flatnonzero(board == 1)[0])  # a 1: the round goes on after it
    flips = [[one // SIZE + 1, one % SIZE + 1]]
    assert review_practice(VoltorbSetting(3), 42, flips, quit=True).outcome == "quit"
    assert review_practice(VoltorbSetting(3), 42, flips).outcome == "unfinished"


def test_after_a_voltorb_the_round_is_lost_and_the_post_mortem_is_exact():
    """Issue 24, Voltorb 3: no P(win), no recommendation; the last decision against optimal."""
    rows, cols = "2,4 6,1 5,0 5,1 6,1", "6,1 5,1 3,2 7,1 3,2"
    flips = ["2,2=1", "2,1=2", "2,4=2", "5,1=1", "5,2=2", "5,4=2", "1,1=0"]
    a = solve_position(Position.parse(rows, cols, flips), VoltorbSetting(2))
    assert a.outcome == "lost" and a.win_probability is None and a.recommended is None
    assert a.safe_tiles == [] and a.post_mortem is not None
    last = review_position(RoundRecord.parse(rows, cols, flips), VoltorbSetting(2)).moves[-1]
    pm = a.post_mortem
    assert pm.flipped == last.tile and pm.best == last.best
    assert pm.p_win_before == pytest.approx(last.p_before)
    assert pm.p_win_choice == pytest.approx(last.p_choice)
    assert pm.p_voltorb == pytest.approx(last.p_voltorb, abs=1e-6)
    with pytest.raises(ValueError, match="only one Voltorb can be revealed"):
        solve_position(Position.parse(rows, cols, [*flips, "4,1=0"]), VoltorbSetting(2))


def test_clue_errors_name_their_box_and_full_width_digits_are_read():
    from gamelab.voltorb.rules import ClueError, clues_from_text

    with pytest.raises(ClueError, match=r"^row 2 clue: each entry must look like") as err:
        clues_from_text("2,4 6,l 5,0 5,1 6,1", "6,1 5,1 3,2 7,1 3,2")
    assert err.value.field == "rows.2"
    full = clues_from_text("２，４　6,1 5,0 5,1 6,1", "6,1 5,1 3,2 7,1 3,2")
    assert full.key() == clues_from_text("2,4 6,1 5,0 5,1 6,1", "6,1 5,1 3,2 7,1 3,2").key()


def test_v2_a_review_always_comes_back_exact_where_the_budget_allows_each_other_row_labelled(
    monkeypatch, tmp_path
):
    """Issue 24 V2: within a state budget the review solves from the last flip back; the rows it
    could finish are the exact review's rows, the others keep their quick figures, labelled."""
    from gamelab.voltorb import solved
    from gamelab.voltorb.review import review_practice

    flips = [[1, 4], [1, 1], [3, 4], [4, 1], [3, 1], [5, 4]]
    monkeypatch.setenv("GAMELAB_CACHE", str(tmp_path))
    solved.forget()  # no earlier search of this deal in this process (nor on disk)
    part = review_practice(VoltorbSetting(6), 2, flips, state_limit=300)
    full = review_practice(VoltorbSetting(6), 2, flips)
    # the deal's search is kept: the same budget now reviews every row exactly (issue 47)
    assert review_practice(VoltorbSetting(6), 2, flips, state_limit=300).exact
    marks = [m.exact for m in part.moves]
    assert any(marks) and not all(marks) and marks == sorted(marks)  # exact from the end back
    assert not part.exact and part.answer.startswith("fallback: labelled rows, because")
    assert f"{sum(marks)} of {len(flips)} rows exact" in part.note
    for got, want in zip(part.moves, full.moves, strict=True):
        assert got.tile == want.tile and got.p_voltorb == pytest.approx(want.p_voltorb)
        if got.exact:
            assert got.p_before == pytest.approx(want.p_before, abs=1e-12)
            assert got.p_choice == pytest.approx(want.p_choice, abs=1e-12)
            assert got.p_after == pytest.approx(want.p_after, abs=1e-12)
        else:
            assert got.p_before is None and got.loss is None
    assert full.exact and full.answer == "optimal" and part.outcome == full.outcome


def test_a_known_board_is_dealt_as_a_protocol_state_and_the_practice_review_plays_on_it():
    """The review plays a practice round by the protocol's actions (issue 48 item 3): a known
    board's dealt state (``VoltorbGame.dealt_state``) is the practice round's, round trip
    included, and a board that is not 25 tiles of 0-3 is refused."""
    from gamelab.voltorb.practice import practice_state
    from gamelab.voltorb.state import QUIT, VoltorbGame

    setting = VoltorbSetting(4)
    practice = practice_state(setting, 99)
    game = VoltorbGame(setting, objective="coins")
    dealt = game.dealt_state(practice_board(setting, 99))
    assert dealt.round.clues.key() == practice.round.clues.key()
    assert dealt.legal_actions() == practice.legal_actions() and not dealt.is_terminal()
    assert game.state_from_text(dealt.to_text()).to_text() == dealt.to_text()
    one = int(np.flatnonzero(practice.round.board.reshape(-1) == 1)[0])
    for state in (dealt, practice):
        state.apply(one)
        state.apply(QUIT)
    assert dealt.returns() == practice.returns() == [1.0]
    with pytest.raises(ValueError, match="a board is 25 tiles of 0-3"):
        game.dealt_state(np.full(24, 1))
