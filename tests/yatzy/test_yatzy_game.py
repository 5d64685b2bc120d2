"""Seeded games replayed from their moves (yatzy/game.py), the typed coach, the bots, tables."""

import json

import pytest

from gamelab.core.serialise import to_plain
from gamelab.yatzy.card import Card
from gamelab.yatzy.coach import advise, coach
from gamelab.yatzy.game import game_view
from gamelab.yatzy.replay import held_slots, turn_faces
from gamelab.yatzy.review import review_game
from gamelab.yatzy.rules import RULES, get_rules, parse_dice
from gamelab.yatzy.tables import optimal_values, tables_status

# a Yatzy card with three boxes open: games from it are three turns long
NEAR_END = (
    "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=12,two_pairs=22,"
    "three_kind=15,four_kind=20,small_straight=15,large_straight=20"
)


def _coach_game(seed, start=NEAR_END, opponent="none"):
    """Play a whole game taking the coach's best option every time; returns the last view."""
    moves, bot_moves = [], []
    while True:
        v = game_view(
            RULES["yatzy"],
            seed,
            moves,
            start=start,
            opponent=opponent,
            bot_moves=bot_moves,
            coach=True,
        )
        bot_moves = v.bot_moves
        if v.finished:
            return v
        best = v.coach.best
        moves.append(f"keep {best.keep}" if best.keep is not None else f"box {best.box}")


def test_coach_is_advise_typed_and_the_cli_document(gamelab_cli):
    # the acceptance: start of a yatzy game, 11114, two rerolls left: the best keep is 1111
    r = get_rules("yatzy")
    advice = coach(RULES["yatzy"], "-", "41111", 2)
    assert advice.dice == "11114" and advice.best.keep == "1111" and advice.best.loss == 0
    plain = advise(r, Card.empty(r), parse_dice("11114"), 2)
    assert [(o.keep, o.expected_score, o.loss) for o in advice.options] == [
        (o["keep"], o["expected_score"], o["loss"]) for o in plain
    ]
    cli = gamelab_cli(
        "yatzy", "advise", "--rules", "yatzy", "--dice", "11114", "--rolls-left", "2", "--json"
    )
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout) == to_plain(advice)
    boxes = coach(RULES["yatzy"], NEAR_END, "66666", 0)
    assert {o.box for o in boxes.options} == {"full_house", "chance", "yatzy"}  # Yatzy's names
    assert boxes.best.label == "yatzy" and boxes.best.points == 50


def test_the_same_seed_replays_the_same_dice_and_choices_do_not_change_later_turns():
    a = game_view(RULES["yatzy"], 11, ["keep -", "keep -"], start=NEAR_END)
    b = game_view(RULES["yatzy"], 11, ["keep -", "keep -"], start=NEAR_END)
    assert a.dice == b.dice and a.rolls_left == 0
    first = [int(x) for x in turn_faces(11, 0, 12)[0]]
    assert game_view(RULES["yatzy"], 11, [], start=NEAR_END).dice == first
    # whatever was kept in turn 13, turn 14 starts with the same five dice
    starts = {
        tuple(game_view(RULES["yatzy"], 11, moves, start=NEAR_END).dice)
        for moves in (["box chance"], ["keep -", "box chance"], ["keep -", "keep -", "box chance"])
    }
    assert starts == {tuple(int(x) for x in turn_faces(11, 0, 13)[0])}


def test_kept_dice_stay_in_their_slots():
    # a keep given as digits holds the leftmost matching slots
    assert held_slots([6, 2, 6, 4, 6], parse_dice("11166") * 0 + [0, 0, 0, 0, 0, 2]) == [
        True,
        False,
        True,
        False,
        False,
    ]
    # clicked dice (hold by slot) stay exactly where they are; the others are rerolled
    v0 = game_view(RULES["yatzy"], 3, [], start=NEAR_END)
    v1 = game_view(RULES["yatzy"], 3, ["hold 10010"], start=NEAR_END)
    faces = turn_faces(3, 0, 12)
    assert v1.dice == [v0.dice[0], int(faces[1][1]), int(faces[1][2]), v0.dice[3], int(faces[1][4])]
    r = review_game(RULES["yatzy"], 3, ["hold 10010"], start=NEAR_END)
    assert r.decisions[0].choice == "".join(sorted(f"{v0.dice[0]}{v0.dice[3]}"))
    with pytest.raises(ValueError, match="mark the five dice slots"):
        game_view(RULES["yatzy"], 3, ["hold 101"], start=NEAR_END)


@pytest.mark.parametrize(
    "moves, message",
    [
        (["keep 7"], "give the dice to keep as up to five digits 1-6"),
        (["roll"], "not understood"),
        (["box banana"], "unknown box 'banana' for rules yatzy"),
        (["box ones"], "box ones is already filled"),
        (["keep -", "keep -", "keep -"], "no rerolls left"),
        (["box chance", "box yatzy", "box full_house", "keep 1"], "the card is full"),
    ],
)
def test_bad_moves_name_the_move_and_the_problem(moves, message):
    with pytest.raises(ValueError, match=message) as err:
        game_view(RULES["yatzy"], 1, moves, start=NEAR_END)
    assert f"move {len(moves)}" in str(err.value)


def test_bad_game_arguments():
    with pytest.raises(ValueError, match="unknown opponent 'nobody'"):
        game_view(RULES["yatzy"], 1, [], opponent="nobody")
    with pytest.raises(ValueError, match="seed must be an integer"):
        game_view(RULES["yatzy"], -1, [])
    with pytest.raises(ValueError, match="the start card is full"):
        game_view(RULES["yatzy"], 1, [], start=NEAR_END + ",chance=20,full_house=0,yahtzee=0")
    with pytest.raises(ValueError, match="impossible"):
        game_view(RULES["yatzy"], 1, [], start="fours=5")
    with pytest.raises(ValueError, match="bot turn 1 is missing|bot's turn 1 is missing"):
        game_view(
            RULES["yatzy"], 1, ["box chance", "box yatzy"], start=NEAR_END, opponent="optimal"
        )


def test_coach_game_to_the_end_and_the_optimal_bot_never_loses_points():
    v = _coach_game(5, opponent="optimal")
    assert v.finished and v.result and v.you.filled == v.boxes and v.bot.filled == v.boxes
    assert len(v.bot_moves) == 3 and v.you.total == sum(r.you for r in v.rows) + (
        50 if v.you.upper_bonus_earned else 0
    )
    # the bot's recorded moves replay to the same card
    again = game_view(
        RULES["yatzy"], 5, v.moves, start=NEAR_END, opponent="optimal", bot_moves=v.bot_moves
    )
    assert again.bot == v.bot and again.bot_turn is None


def test_bot_turn_values_and_the_win_play_bot():
    v = game_view(RULES["yatzy"], 2, ["box chance"], start=NEAR_END, opponent="optimal")
    turn = v.bot_turn
    assert turn.policy == "expected score" and all(d.loss == 0 for d in turn.decisions)
    # its first turn from a 12-box card is turn 13, numbered like its decisions (it was 14)
    assert turn.turn == 13 and {d.turn for d in turn.decisions} == {13}
    assert (
        turn.decisions[-1].kind == "box" and turn.points == v.bot.total - 217
    )  # 177 + the upper bonus
    w = game_view(RULES["yatzy"], 2, ["box chance"], start=NEAR_END, opponent="win")
    assert w.bot_turn.policy == "win play" and 0 <= w.bot_turn.win_probability <= 1
    assert w.note is None
    early = game_view(RULES["yatzy"], 2, ["box chance"], opponent="win")
    assert early.bot_turn.policy == "expected score" and "last 8 turns" in early.note
    fallback = game_view(
        RULES["yatzy"], 2, ["box chance"], start=NEAR_END, opponent="win", win_solve=False
    )
    assert fallback.bot_turn.policy == "expected score"


def test_tables_status_after_loading():
    optimal_values(RULES["yatzy"])
    s = tables_status(RULES["yatzy"])
    assert s.loaded and s.cached and s.message == ""
    with pytest.raises(ValueError, match="unknown rules"):
        tables_status(get_rules("kniffel"))


def test_an_extra_yahtzee_offers_the_forced_joker_box_with_its_bonus():
    # seed 226: your second turn's first roll is 44444; with the Yahtzee box at 50, the
    # official (forced joker) rules allow only the open fours: 20 points + the 100 bonus
    v = game_view(RULES["yahtzee"], 226, [], start="yahtzee=50")
    assert sorted(v.dice) == [4] * 5 and v.turn == 2
    offered = {r.box: (r.would_score, r.would_bonus) for r in v.rows if r.would_score is not None}
    assert offered == {"fours": (120, 100)}
    after = game_view(RULES["yahtzee"], 226, ["box fours"], start="yahtzee=50")
    assert after.you.total == 170 and after.you.yahtzee_bonuses == 1


def test_25_7_a_game_without_the_coach_or_a_bot_turn_needs_no_tables(monkeypatch):
    """Issue 25, Yatzy 7: a page's first game waited for the rule set's tables (a first build
    is a core-minute). The replay asks for them only for the coach, a review's values or the
    bot's turn."""
    from gamelab.yatzy import game

    def refuse(rules):
        raise LookupError("the tables were asked for")

    monkeypatch.setattr(game, "optimal_values", refuse)
    yatzy = RULES["yatzy"]
    v = game.game_view(yatzy, 5, ["keep -", "keep -", "box chance"])
    assert v.turn == 2 and v.you.filled == 1 and len(v.dice) == 5
    assert game.game_view(yatzy, 5, [], "-", "optimal").bot_turn is None  # you move first
    with pytest.raises(LookupError):
        game.game_view(yatzy, 5, [], coach=True)
    with pytest.raises(LookupError):  # the bot's turn is due
        game.game_view(yatzy, 5, ["box chance"], "-", "optimal")


def test_25_7_tables_are_built_in_the_background_and_say_how_far(monkeypatch):
    """Issue 25, Yatzy 7: `start_preparing` answers at once; the status says a build is
    running and how far it is; a second call starts no second build."""
    import threading
    import time

    from gamelab.yatzy import tables
    from gamelab.yatzy.solver import solve_tables

    lines = []
    solve_tables(
        RULES["yatzy"].__class__("mini-progress", ("fives", "chance"), 35), False, lines.append
    )
    assert lines[-1].startswith("100 % done") and len(lines) == 2

    gate, heard, builds = threading.Event(), threading.Event(), []
    real = tables.solve

    def slow(rules, progress=None):
        builds.append(rules.name)
        progress("40 % done: cards with 9 boxes filled solved")
        heard.set()
        gate.wait(30)
        return real(rules)

    monkeypatch.setattr(tables, "solve", slow)
    monkeypatch.setattr(tables, "VALUES", type(tables.VALUES)())  # nothing loaded yet
    monkeypatch.setattr(tables, "is_solved", lambda rules: False)
    yahtzee = RULES["yahtzee"]
    first = tables.start_preparing(yahtzee)
    assert first.building and not first.loaded
    assert heard.wait(60)  # a hang guard
    now = tables.tables_status(yahtzee)
    assert now.progress == "40 % done: cards with 9 boxes filled solved"
    assert now.message.startswith("building the yahtzee decision tables")
    assert tables.start_preparing(yahtzee).building and builds == ["yahtzee"]
    gate.set()
    deadline = time.monotonic() + 60
    while not tables.tables_status(yahtzee).loaded:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    done = tables.tables_status(yahtzee)
    assert done.progress is None and not done.building and builds == ["yahtzee"]


def test_47_1_a_move_made_again_after_a_take_back_rolls_fresh_dice_and_the_bots_too():
    """Issue 47, item 1: an undone roll came back the same, so a player could look ahead."""
    from gamelab.yatzy.game import undo_view

    rules = RULES["yatzy"]
    straight = game_view(rules, 31, ["keep -"])
    back = undo_view(rules, 31, ["keep -"])
    assert back.takebacks == 1 and back.moves == [] and back.dice == game_view(rules, 31).dice
    again = game_view(rules, 31, ["keep -"], draws=back.draws, takebacks=back.takebacks)
    assert again.draws == [1] and again.dice != straight.dice
    # a move made after the take-back replays the same from the record
    assert game_view(rules, 31, ["keep -"], draws=[1], takebacks=1).dice == again.dice
    # the bot's turn after a box taken back and chosen again is drawn afresh too
    bot = game_view(rules, 3, ["box chance"], start=NEAR_END, opponent="optimal")
    undone = undo_view(rules, 3, ["box chance"], NEAR_END, "optimal", bot.bot_moves)
    assert undone.bot_moves == []
    bot2 = game_view(rules, 3, ["box chance"], NEAR_END, "optimal", draws=[], takebacks=1)
    assert bot2.bot_turn.rolls != bot.bot_turn.rolls and bot2.dice != bot.dice
    review = review_game(rules, 3, ["box chance"], NEAR_END, "optimal", bot2.bot_moves,
                         draws=[1], takebacks=1)  # fmt: skip
    assert review.undone == [1] and review.takebacks == 1
    assert "taken back once" in review.takebacks_note
    with pytest.raises(ValueError, match="move 2.s take-back count 0 must be between"):
        game_view(rules, 31, ["keep -", "keep -"], draws=[1, 0], takebacks=1)


def test_47_2_the_win_bot_breaks_ties_by_the_expected_score_and_says_why_it_fell_back():
    """Issue 47, item 2: with its win sure the bot took the first of the tied options
    ('keep -' twice); between equal win chances it now takes the best expected score. A turn
    played for the expected score says why."""
    rules = RULES["yatzy"]
    start = NEAR_END + ",full_house=20"
    first = game_view(rules, 1, ["box yahtzee"], start, "win")
    last = game_view(rules, 1, ["box yahtzee", "box chance"], start, "win", first.bot_moves)
    turn = last.bot_turn
    assert turn.policy == "win play" and turn.win_probability == 1.0
    assert all(d.loss == 0.0 for d in turn.decisions), turn.decisions
    fallback = game_view(rules, 1, ["box yahtzee"], start, "win", win_solve=False)
    assert fallback.bot_turn.policy == "expected score"
    assert (
        fallback.bot_turn.reason
        == "working out how to win took too long this turn (the server was busy)"
    )
    early = game_view(rules, 1, ["box chance"], "-", "win").bot_turn
    assert early.reason == "it plays for the win in its last 8 turns"


# A game against the optimal bot with two take-backs, as the page saved it before its game went
# through the state protocol (moves, the bot's turns, draws and take-backs sent back unchanged):
# the same dice and scores come back, so games kept in players' browsers still load.
SAVED_MOVES = ['box ones', 'hold 11010', 'box twos', 'box large_straight', 'hold 00101', 'box fours', 'hold 01110', 'hold 10010', 'box threes', 'box fives', 'hold 11111', 'box four_kind', 'box sixes', 'hold 00100', 'hold 01100', 'box yahtzee', 'hold 00011', 'hold 11010', 'box full_house', 'hold 11100', 'box chance', 'box three_kind', 'hold 10010', 'box small_straight']  # fmt: skip
SAVED_BOTS = [['keep 222', 'keep 22255', 'box full_house'], ['keep 55', 'keep 55', 'box small_straight'], ['keep 66', 'keep 6666', 'box sixes'], ['keep 44', 'keep 44', 'box chance'], ['keep 444', 'keep 444', 'box fours'], ['keep 5', 'keep 33', 'box threes'], ['keep 5', 'keep 23456', 'box large_straight'], ['keep 2', 'keep 22', 'box twos'], ['keep 6', 'keep 55', 'box fives'], ['keep 66', 'keep 66', 'box ones'], ['keep 222', 'keep 222', 'box yahtzee'], ['keep 44', 'keep 44', 'box four_kind'], ['keep 66', 'keep 4666', 'box three_kind']]  # fmt: skip
SAVED_DRAWS = [0, 0] + [1] * 11 + [2] * 11


def test_48_3_a_game_saved_before_the_protocol_road_loads_with_its_dice_and_scores():
    rules = get_rules("yahtzee")
    view = game_view(
        rules, 11, SAVED_MOVES, "-", "optimal", SAVED_BOTS, draws=SAVED_DRAWS, takebacks=2
    )
    # the numbers the page showed for this game (the tree before issue 48's item 3)
    assert view.finished and view.bot_turn is None and view.bot_moves == SAVED_BOTS
    assert (view.you.total, view.bot.total, view.result) == (35, 241, "the bot wins 241 to 35")
    half = game_view(rules, 11, SAVED_MOVES[:9], "-", "optimal", SAVED_BOTS[:5], draws=SAVED_DRAWS[:9], takebacks=1)  # fmt: skip
    assert half.bot_turn is None and (half.dice, half.rolls_left) == ([5, 2, 4, 1, 5], 2)
    assert (half.you.total, half.bot.total) == (9, 110)
    mid = game_view(rules, 11, SAVED_MOVES[:8], "-", "optimal", SAVED_BOTS[:4], draws=SAVED_DRAWS[:8], takebacks=1)  # fmt: skip
    assert (mid.dice, mid.rolls_left, mid.you.total, mid.bot.total) == ([1, 1, 3, 1, 5], 0, 6, 98)


def test_48_3_the_protocol_reads_its_own_notation_back_and_says_why_a_move_cannot_be_played():
    import numpy as np

    from gamelab.yatzy.state import YatzyGame

    rng = np.random.default_rng(0)
    state = YatzyGame(get_rules("yahtzee"), players=2).new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        for action in legal[:: max(1, len(legal) // 8)]:
            assert state.string_to_action(state.action_to_string(action)) == action
        state.apply(int(rng.choice(legal)))
    s = YatzyGame(get_rules("yatzy")).new_initial_state()
    s.apply(s.string_to_action("roll 11114"))
    with pytest.raises(ValueError, match="2 rerolls left: keep all five dice first"):
        s.string_to_action("box ones")
    with pytest.raises(ValueError, match="cannot keep 66 from the dice 11114"):
        s.string_to_action("keep 66")
    s.apply(s.string_to_action("keep all"))
    s.apply(s.string_to_action("box ones"))
    s.apply(s.string_to_action("roll 11234"))
    s.apply(s.string_to_action("keep all"))
    with pytest.raises(ValueError, match="box ones is already filled"):
        s.string_to_action("box 1s")
    with pytest.raises(ValueError, match="no rerolls left"):
        s.string_to_action("keep 11")
