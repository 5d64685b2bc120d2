"""A seeded game replayed from its moves: what a front end shows, solitaire or against a bot.

A game is (rule set, seed, start card, your moves, the bot's moves); :func:`game_view` replays
it and returns the position (:class:`GameView`), so a front end (the web page) keeps no state
on the server. When the bot's turn is due, :func:`game_view` plays it and returns its moves,
which the caller sends back with the next request. The game is played through the state
protocol (:class:`gamelab.yatzy.replay.Replay` over :class:`~gamelab.yatzy.state.YatzyState`,
you player 0 and the bot player 1): the environments' and the oracle's rules, moves and turns.

**Dice.** Each player has its own stream. The faces of a player's turn t (t = boxes filled
before the turn) are numpy's generator seeded with (seed, player, t) drawing a 3 x 5 array:
row r is what each of the five dice slots shows when it is rolled at roll r (0 = the first
roll). The dice depend only on the seed, the turn and which slots are rerolled: replaying the
same moves gives the same game, and another choice does not change any later turn's first roll.
Kept dice stay in their slots (a keep given as digits holds the leftmost matching slots).

**Take-backs draw fresh dice.** A move taken back (:func:`undo_view`) must not let the player
choose again knowing what it rolled: each move carries the number of take-backs the game had
when it was made (`draws`), and a roll that a move causes (a reroll, or the next turn's first
roll after a box) comes from the stream seeded with (seed, player, turn, draws) instead -- so a
move made again after a take-back sees dice never shown before, and the bot's turn after it too.
A game without take-backs is the seed's game above. The review marks every move made again.

**Moves** (:data:`MOVE_HELP`): ``keep 1114`` keeps those dice and rerolls the others (``keep -``
rerolls all five; keeping all five stops rolling), ``hold 10110`` keeps the dice of the slots
marked 1 (what clicking dice does), ``box fours`` scores the dice in a box (allowed after any
roll; box names or aliases of the rule set, Yatzy's ``yatzy``).

**Bots.** ``optimal`` plays the expected-score strategy (:mod:`gamelab.yatzy.solver`);
``win`` plays for the win (:func:`gamelab.yatzy.winplay.solve_win`, you modelled as an
expected-score player from your current card) in its last :data:`WIN_PLAY_TURNS` turns and for
the expected score before that, saying so in ``note``. You move first in every round.

>>> v = game_view(RULES["yatzy"], seed=7, moves=["keep 66"], start="ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=12,two_pairs=22,three_kind=15,four_kind=20,small_straight=15,large_straight=20,full_house=20,chance=25")  # doctest: +SKIP
>>> v.turn, v.rolls_left  # doctest: +SKIP
(15, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from gamelab.core import review
from gamelab.yatzy.card import Card
from gamelab.yatzy.coach import DecisionTables, advise, decision_tables
from gamelab.yatzy.replay import Replay, parse_move
from gamelab.yatzy.rules import KEEPS, N_KEEPS, ROLLS, UPPER_CAP, RuleSet, dice_text
from gamelab.yatzy.state import YatzyState
from gamelab.yatzy.tables import optimal_values

OPPONENTS = ("none", "optimal", "win")
#: The win-play bot solves for the win in its last turns only (a solve with 8 turns left takes
#: about 1.3 s, each earlier turn about three times longer: docs/yatzy.md).
WIN_PLAY_TURNS = 8
MAX_SEED = 2**63 - 1
#: a difference of expected scores below this (in points) is rounding, not a loss
LOSS_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Decision:
    """One choice with its exact value: the expected final score after it (optimal play from
    then on) against the best option's; `loss` = best - chosen, in expected points."""

    player: str  # "you" or "bot"
    turn: int  # 1-based turn number on the card
    rolls_left: int  # rerolls left when the choice was made
    dice: str  # the dice before the choice, sorted
    kind: str  # "keep" or "box"
    choice: str  # the dice kept ('-' for none) or the box name
    label: str  # the choice as shown (Yatzy's "yatzy")
    expected_score: float
    best: str  # the best option's label ("keep 1111" / "box fours")
    best_expected_score: float
    loss: float
    points: int | None = None  # points scored (box choices; Yahtzee bonus included)
    #: what the dice that followed gave beyond the choice's expectation (a review's figure,
    #: :mod:`gamelab.core.review`; None elsewhere, and for the last decision of a game going on)
    luck: float | None = None


@dataclass(frozen=True)
class BoxRow:
    """A line of the score card: each player's entry and what your dice would score there."""

    box: str
    label: str
    upper: bool
    you: int | None
    bot: int | None = None
    would_score: int | None = None  # with the current dice, on your open boxes (bonus included)
    would_bonus: int = 0  # the Yahtzee bonus within would_score (an extra Yahtzee as a joker)


@dataclass(frozen=True)
class CardSummary:
    """Totals of one player's card, with the upper-bonus progress."""

    total: int
    upper_total: int
    upper_target: int  # 63
    upper_bonus: int  # the rule set's bonus points
    upper_bonus_earned: bool
    yahtzee_bonuses: int
    filled: int
    boxes: int
    card: str  # CARD syntax


@dataclass(frozen=True)
class BotTurn:
    """The bot's turn just played: its moves (send them back), rolls and valued decisions."""

    turn: int
    moves: list[str]
    rolls: list[str]
    decisions: list[Decision]
    box: str
    points: int
    policy: str  # "expected score" or "win play"
    #: win play, at the turn's start, under its decisions from there on: P(the bot wins),
    #: P(a draw), P(the bot loses); they add up to 1 (the bot maximises win + half the draw)
    win_probability: float | None = None
    draw_probability: float | None = None
    loss_probability: float | None = None
    #: why the win-play bot played this turn for the expected score, in words (None otherwise)
    reason: str | None = None


@dataclass(frozen=True)
class GameView:
    """The position after replaying a game's moves."""

    rules: str
    seed: int
    start: str
    opponent: str
    turn: int  # your current turn (1-based), = boxes when the card is full
    boxes: int
    rolls_left: int
    dice: list[int]  # your five dice in slot order
    rows: list[BoxRow]
    you: CardSummary
    bot: CardSummary | None
    moves: list[str]
    bot_moves: list[list[str]]  # every bot turn so far, including one played now
    bot_turn: BotTurn | None  # the bot's turn played by this call
    finished: bool
    result: str | None  # "you win 262 to 240", ... once finished
    coach: object | None = None  # gamelab.yatzy.coach.Advice for your position, when asked
    note: str | None = None
    decisions: list[Decision] = field(default_factory=list)  # only with evaluate=True
    #: for each of your moves, the take-backs the game had when it was made (send them back)
    draws: list[int] = field(default_factory=list)
    takebacks: int = 0  # moves taken back so far in this game (a new move is made after them)


# ---------------------------------------------------------------------------------------------
# values of choices


def evaluate(E: np.ndarray, state: YatzyState, action: int, player: str = "you") -> Decision:
    """The exact value of the choice `action` (a keep, or a box: with rerolls left, to stop and
    score) of the player to move in `state`, against the best option."""
    rules, card = state.game.rules, state.cards[state.player]
    dice, rolls_left = state.dice, state.rolls_left
    keeps = advise(rules, card, dice, rolls_left, E) if rolls_left else None
    box = action >= N_KEEPS
    boxes = advise(rules, card, dice, 0, E) if (box or not rolls_left) else None
    ranking = keeps if keeps is not None else boxes
    assert ranking is not None
    top = ranking[0]
    best_label = f"keep {top['keep']}" if "keep" in top else f"box {rules.box_label(top['box'])}"
    points = None
    if not box:
        assert keeps is not None
        text = label = dice_text(KEEPS[action])
        chosen = next(o for o in keeps if o["keep"] == text)
    else:
        assert boxes is not None
        text, label = rules.boxes[action - N_KEEPS], rules.box_label(action - N_KEEPS)
        chosen = next(o for o in boxes if o["box"] == label)
        points = int(chosen["points"]) + card.placement(text, dice)[2]
    value = float(chosen["expected_score"])
    loss = review.Decision.of(float(top["expected_score"]), value, value, tolerance=LOSS_TOLERANCE)
    return Decision(
        player,
        card.filled_count + 1,
        rolls_left,
        dice_text(dice),
        "box" if box else "keep",
        text,
        label,
        value,
        best_label,
        float(top["expected_score"]),
        loss.loss,
        points,
    )


# ---------------------------------------------------------------------------------------------
# bots

#: the bot's seat in a game with a bot (you are player 0)
BOT = 1


def table_action(tables: DecisionTables, state: YatzyState) -> int:
    """The expected-score strategy's action for the player to move in `state` (dice shown),
    from that player's decision tables (:func:`gamelab.yatzy.coach.decision_tables`): the keep
    for these dice with this many rerolls left, or the box after the last roll."""
    if state.rolls_left:
        keeps = tables.keep1 if state.rolls_left == 2 else tables.keep2
        return int(keeps[state.roll])
    return N_KEEPS + int(tables.box3[state.roll])


def _bot_turn(
    E: np.ndarray, game: Replay, opponent: str, win_solve: bool
) -> tuple[BotTurn, str | None]:
    """Play the bot's turn due in `game` (its moves, each valued as it is made)."""
    from gamelab.yatzy.winplay import decision_scratch, final_score_law, solve_win, win_play_move

    state = game.state
    rules, card, you = state.game.rules, state.cards[BOT], state.cards[0]
    turns_left = rules.n_boxes - card.filled_count
    turn_number = card.filled_count + 1
    note = None
    outcomes: tuple[float | None, float | None, float | None] = (None, None, None)
    policy = "expected score"
    reason = None
    if opponent == "win" and win_solve and turns_left <= WIN_PLAY_TURNS:
        law = final_score_law(rules, (you.mask, you.capped_upper, you.bonus_flag, you.total), E)
        sol = solve_win(
            rules, (card.mask, card.capped_upper, card.bonus_flag, card.total), law, outcomes=True
        )
        scratch = decision_scratch()
        outcomes = sol.outcomes()
        policy = "win play"
    else:
        if opponent == "win" and turns_left > WIN_PLAY_TURNS:
            reason = f"it plays for the win in its last {WIN_PLAY_TURNS} turns"
            note = (
                f"the win-play bot plays for the win in its last {WIN_PLAY_TURNS} turns (a "
                f"solve with {turns_left} turns left takes longer than the time budget); "
                "this turn it played for the expected score"
            )
        elif opponent == "win":
            reason = "working out how to win took too long this turn (the server was busy)"
        tables = decision_tables(rules, E, card)
    moves: list[str] = []
    decisions: list[Decision] = []
    rolls: list[str] = []
    while state.player == BOT and not state.is_terminal():
        if policy == "win play":
            move = win_play_move(sol, card, ROLLS[state.roll], state.rolls_left, E, scratch)
        elif state.rolls_left:
            move = f"keep {dice_text(KEEPS[table_action(tables, state)])}"
        else:
            move = f"box {rules.boxes[table_action(tables, state) - N_KEEPS]}"
        before = state.clone()
        if move.startswith("box "):
            rolls = list(game.rolls)
        actions = game.play(move)
        decisions.append(evaluate(E, before, actions[-1], player="bot"))
        moves.append(move)
    last = decisions[-1]
    turn = BotTurn(
        turn_number,
        moves,
        rolls,
        decisions,
        last.choice,
        int(last.points or 0),
        policy,
        *outcomes,
        reason=reason,
    )
    return turn, note


# ---------------------------------------------------------------------------------------------
# the game

#: At most this many take-backs in one game (a request's sanity bound, far above any real game).
MAX_TAKEBACKS = 10_000


def move_draws(moves: Sequence[str], draws: Sequence[int], takebacks: int) -> list[int]:
    """Each move's take-backs count: `draws` as recorded for the first moves, `takebacks` for
    the moves after them (made since the last take-back); checked to be a possible history."""
    if not isinstance(takebacks, (int, np.integer)) or not 0 <= takebacks <= MAX_TAKEBACKS:
        raise ValueError(f"take-backs must be an integer 0..{MAX_TAKEBACKS}, got {takebacks!r}")
    if len(draws) > len(moves):
        raise ValueError(f"{len(draws)} take-back counts were given for {len(moves)} moves")
    full = [int(d) for d in draws] + [int(takebacks)] * (len(moves) - len(draws))
    previous = 0
    for n, d in enumerate(full, start=1):
        if not previous <= d <= takebacks:
            raise ValueError(
                f"move {n}'s take-back count {d} must be between the previous move's "
                f"({previous}) and the game's take-backs ({takebacks})"
            )
        previous = d
    return full


def _summary(card: Card) -> CardSummary:
    r = card.rules
    return CardSummary(
        card.total,
        card.upper_total,
        UPPER_CAP,
        r.upper_bonus,
        card.upper_total >= UPPER_CAP,
        card.yahtzee_bonuses,
        card.filled_count,
        r.n_boxes,
        card.text(),
    )


def game_view(
    rules: RuleSet,
    seed: int,
    moves: Sequence[str] = (),
    start: str = "-",
    opponent: str = "none",
    bot_moves: Sequence[Sequence[str]] = (),
    coach: bool = False,
    win_solve: bool = True,
    evaluate_moves: bool = False,
    draws: Sequence[int] = (),
    takebacks: int = 0,
) -> GameView:
    """Replay a game and return its position; plays the bot's turn when it is due.

    `start` is the card both players begin from (CARD syntax), `opponent` one of
    :data:`OPPONENTS`; `bot_moves` the bot's earlier turns as returned by earlier calls.
    `coach` adds the coach's ranking of your options; `evaluate_moves` values every decision
    of yours (for the review). Only these and the bot's turn need the rule set's value table
    (:func:`gamelab.yatzy.tables.optimal_values`): a game without them never waits for it. ``win_solve=False`` makes the win-play bot play this turn for the
    expected score (the fallback when its solve overruns the time budget). `draws` and
    `takebacks` record the take-backs (:func:`move_draws`; the module's docstring): empty and 0
    for a game without any.
    """
    from gamelab.yatzy.coach import coach as coach_advice

    if opponent not in OPPONENTS:
        raise ValueError(f"unknown opponent {opponent!r}; allowed: {', '.join(OPPONENTS)}")
    if not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed must be an integer 0..{MAX_SEED}, got {seed!r}")
    seed = int(seed)
    start_card = Card.parse(rules, start)
    moves_draws = move_draws(moves, draws, takebacks)
    if start_card.done:
        raise ValueError("the start card is full: there is nothing left to play")
    if opponent == "none" and bot_moves:
        raise ValueError("bot moves were given for a game without a bot")
    # the value table only when it is used (the coach, a review's values, the bot's turn): a
    # game without them is replayed before the tables are loaded (a page's first game)
    table: list[np.ndarray] = []

    def values() -> np.ndarray:
        if not table:
            table.append(optimal_values(rules))
        return table[0]

    game = Replay(rules, start_card, seed, 1 if opponent == "none" else 2)
    state = game.state
    decisions: list[Decision] = []
    bot_turns = [list(t) for t in bot_moves]
    bot_done = 0

    def replay_bot_turn() -> None:
        nonlocal bot_done
        turn = bot_turns[bot_done]
        bot_done += 1
        kinds = [parse_move(m)[0] for m in turn]
        if not turn or kinds[-1] != "box" or "box" in kinds[:-1]:
            raise ValueError(f"bot turn {bot_done} must be keeps followed by one box, got {turn}")
        for move in turn:
            try:
                game.play(move)
            except ValueError as exc:
                raise ValueError(f"bot turn {bot_done}, move {move!r}: {exc}") from None

    for n, move in enumerate(moves, start=1):
        if state.cards[0].done:
            raise ValueError(f"move {n} ({move!r}): the card is full; the game is over")
        if state.player == BOT:  # your new turn starts after the bot's turn of the round
            if bot_done >= len(bot_turns):
                raise ValueError(
                    f"move {n} ({move!r}): the bot's turn {bot_done + 1} is missing "
                    "(send back the bot's moves of every earlier turn)"
                )
            replay_bot_turn()
        before = state.clone() if evaluate_moves else None
        game.draws = moves_draws[n - 1]
        try:
            actions = game.play(move)
        except ValueError as exc:
            raise ValueError(f"move {n} ({move!r}): {exc}") from None
        if before is not None:
            decisions.append(evaluate(values(), before, actions[-1]))
    bot_turn = None
    note = None
    while state.player == BOT and bot_done < len(bot_turns) and not state.is_terminal():
        replay_bot_turn()
    if bot_done < len(bot_turns):
        played = state.cards[0].filled_count - start_card.filled_count
        raise ValueError(f"{len(bot_turns)} bot turns were given but you have played only {played}")
    if state.player == BOT and not state.is_terminal():
        bot_turn, note = _bot_turn(values(), game, opponent, win_solve)
        bot_turns.append(bot_turn.moves)
    you = state.cards[0]
    bot = state.cards[BOT] if opponent != "none" else None
    would: dict[str, tuple[int, int]] = {}
    if not you.done:
        would = {name: (pts, bonus) for name, pts, bonus in rules.placements(state.dice, you)}
    rows = [
        BoxRow(
            name,
            rules.box_label(b),
            rules.upper_face(b) > 0,
            you.entries[b],
            bot.entries[b] if bot is not None else None,
            sum(would[name]) if name in would else None,
            would[name][1] if name in would else 0,
        )
        for b, name in enumerate(rules.boxes)
    ]
    result = None
    if state.is_terminal():
        a = you.total
        if bot is None:
            result = f"final score {a}"
        else:
            b = bot.total
            result = (
                f"you win {a} to {b}"
                if a > b
                else f"draw at {a}"
                if a == b
                else f"the bot wins {b} to {a}"
            )
    advice = None
    if coach and not you.done:
        advice = coach_advice(rules, you, state.dice, state.rolls_left, values())
    return GameView(
        rules=rules.name,
        seed=seed,
        start=start_card.text(),
        opponent=opponent,
        turn=you.filled_count + (0 if you.done else 1),
        boxes=rules.n_boxes,
        rolls_left=state.rolls_left if not you.done else 0,
        dice=list(game.slots[0]) if not you.done else [],
        rows=rows,
        you=_summary(you),
        bot=_summary(bot) if bot is not None else None,
        moves=list(moves),
        bot_moves=bot_turns,
        bot_turn=bot_turn,
        finished=state.is_terminal(),
        result=result,
        coach=advice,
        note=note,
        decisions=decisions,
        draws=moves_draws,
        takebacks=int(takebacks),
    )


def undo_view(
    rules: RuleSet,
    seed: int,
    moves: Sequence[str],
    start: str = "-",
    opponent: str = "none",
    bot_moves: Sequence[Sequence[str]] = (),
    coach: bool = False,
    draws: Sequence[int] = (),
    takebacks: int = 0,
) -> GameView:
    """The game with your last decision taken back: the bot's turns after your last finished
    turn go too (it plays again once you choose anew). The take-back counts: whatever the move
    made again rolls (and the bot's turn after it) is drawn afresh, so seeing what the first
    choice rolled tells nothing about the next; the review marks the move made again."""
    if not moves:
        raise ValueError("there is no decision to undo")
    kept = list(moves[:-1])
    kept_draws = move_draws(moves, draws, takebacks)[:-1]
    solo = game_view(rules, seed, kept, start, "none", draws=kept_draws, takebacks=takebacks)
    finished = solo.you.filled - Card.parse(rules, start).filled_count
    bots = [list(t) for t in bot_moves][:finished] if opponent != "none" else []
    return game_view(
        rules, seed, kept, start, opponent, bots, coach, draws=kept_draws, takebacks=takebacks + 1
    )
