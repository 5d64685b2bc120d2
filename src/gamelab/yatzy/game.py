"""A seeded game replayed from its moves: what a front end shows, solitaire or against a bot.

A game is (rule set, seed, start card, your moves, the bot's moves); :func:`game_view` replays
it and returns the position (:class:`GameView`), so a front end (the web page) keeps no state
on the server. When the bot's turn is due, :func:`game_view` plays it and returns its moves,
which the caller sends back with the next request.

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
from gamelab.yatzy.coach import advise, decision_tables
from gamelab.yatzy.player import Player, parse_move
from gamelab.yatzy.rules import (
    KEEPS,
    UPPER_CAP,
    RuleSet,
    dice_text,
    parse_keep,
    roll_index,
)
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


def evaluate(
    rules: RuleSet,
    E: np.ndarray,
    card: Card,
    dice: np.ndarray,
    rolls_left: int,
    kind: str,
    choice: np.ndarray | str,
    player: str = "you",
) -> Decision:
    """The exact value of one choice (a keep count vector or a box name) against the best."""
    if kind == "keep" and not rolls_left:
        raise ValueError("no rerolls left: score the dice in a box ('box NAME')")
    if kind == "box":  # an unknown, filled or (joker rule) forbidden box gets the card's message
        Card(rules, list(card.entries), card.yahtzee_bonuses).fill(str(choice), dice)
    keeps = advise(rules, card, dice, rolls_left, E) if rolls_left else None
    boxes = advise(rules, card, dice, 0, E) if (kind == "box" or not rolls_left) else None
    ranking = keeps if keeps is not None else boxes
    assert ranking is not None
    top = ranking[0]
    best_label = f"keep {top['keep']}" if "keep" in top else f"box {rules.box_label(top['box'])}"
    points = None
    if kind == "keep":
        assert keeps is not None
        text = dice_text(choice)
        chosen = next(o for o in keeps if o["keep"] == text)
        label = text
    else:
        assert boxes is not None
        name = rules.boxes[rules.box_index(str(choice))]
        chosen = next(o for o in boxes if o["box"] == rules.box_label(name))
        text, label = name, rules.box_label(name)
        bonus = next(b for n, _p, b in rules.placements(dice, card) if n == name)
        points = int(chosen["points"]) + int(bonus)
    value = float(chosen["expected_score"])
    loss = review.Decision.of(float(top["expected_score"]), value, value, tolerance=LOSS_TOLERANCE)
    return Decision(
        player,
        card.filled_count + 1,
        rolls_left,
        dice_text(dice),
        kind,
        text,
        label,
        float(chosen["expected_score"]),
        best_label,
        float(top["expected_score"]),
        loss.loss,
        points,
    )


# ---------------------------------------------------------------------------------------------
# bots


def _play_tables(me: Player, box3, keep2, keep1) -> list[str]:
    """Play `me`'s current turn by decision tables; returns the moves."""
    moves = []
    for table in (keep1, keep2):
        keep = KEEPS[int(table[roll_index(me.counts)])]
        move = f"keep {dice_text(keep)}"
        moves.append(move)
        me.play(move)
        if me.rolls_left == 0:
            break
    move = f"box {me.rules.boxes[int(box3[roll_index(me.counts)])]}"
    moves.append(move)
    me.play(move)
    return moves


def _bot_turn(
    rules: RuleSet, E: np.ndarray, bot: Player, you: Player, opponent: str, win_solve: bool
) -> tuple[BotTurn, str | None]:
    from gamelab.yatzy.winplay import decision_scratch, final_score_law, solve_win, win_play_move

    card = bot.card
    turns_left = rules.n_boxes - card.filled_count
    turn_number = card.filled_count + 1  # the shadow replay below fills `before` too
    before = Card(rules, list(card.entries), card.yahtzee_bonuses)
    note = None
    outcomes: tuple[float | None, float | None, float | None] = (None, None, None)
    policy = "expected score"
    reason = None
    if opponent == "win" and win_solve and turns_left <= WIN_PLAY_TURNS:
        law = final_score_law(
            rules, (you.card.mask, you.card.capped_upper, you.card.bonus_flag, you.card.total), E
        )
        state = (card.mask, card.capped_upper, card.bonus_flag, card.total)
        sol = solve_win(rules, state, law, outcomes=True)
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
        box3, keep2, keep1 = tables.box3, tables.keep2, tables.keep1
    # replay the turn on a copy to value each decision
    shadow = Player(rules, before, bot.seed, bot.player, bot.draws)
    if policy == "win play":
        moves: list[str] = []
        while not moves or not moves[-1].startswith("box "):
            # one decision at a time: win play, its ties broken by the expected final score
            moves.append(win_play_move(sol, bot.card, bot.counts, bot.rolls_left, E, scratch))
            bot.play(moves[-1])
    else:
        moves = _play_tables(bot, box3, keep2, keep1)
    decisions = []
    rolls: list[str] = []
    for move in moves:
        kind, arg = parse_move(move)
        choice = parse_keep(arg, shadow.counts) if kind == "keep" else arg
        decisions.append(
            evaluate(
                rules, E, shadow.card, shadow.counts, shadow.rolls_left, kind, choice, player="bot"
            )
        )
        if kind == "box":
            rolls = list(shadow.rolls)
        shadow.play(move)
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
    # the value table only when it is used (the coach, a review's values, the bot's turn): a
    # game without them is replayed before the tables are loaded (a page's first game)
    table: list[np.ndarray] = []

    def values() -> np.ndarray:
        if not table:
            table.append(optimal_values(rules))
        return table[0]

    you = Player(rules, Card.parse(rules, start), seed, 0)
    bot = Player(rules, Card.parse(rules, start), seed, 1) if opponent != "none" else None
    if bot is None and bot_moves:
        raise ValueError("bot moves were given for a game without a bot")
    decisions: list[Decision] = []
    bot_done = 0
    bot_turns = [list(t) for t in bot_moves]
    turn_end_draws: list[int] = []  # the take-backs count of the move that ended each your turns

    def replay_bot_turn(i: int) -> None:
        assert bot is not None
        bot.redraw_turn(turn_end_draws[i])
        turn = bot_turns[i]
        if (
            not turn
            or parse_move(turn[-1])[0] != "box"
            or any(parse_move(m)[0] == "box" for m in turn[:-1])
        ):
            raise ValueError(f"bot turn {i + 1} must be keeps followed by one box, got {turn}")
        for move in turn:
            try:
                bot.play(move)
            except ValueError as exc:
                raise ValueError(f"bot turn {i + 1}, move {move!r}: {exc}") from None

    for n, move in enumerate(moves, start=1):
        if you.card.done:
            raise ValueError(f"move {n} ({move!r}): the card is full; the game is over")
        if bot is not None and you.moves_in_turn == 0 and you.turns_done > bot_done:
            # your new turn starts after the bot's turn of the previous round
            if bot_done >= len(bot_turns):
                raise ValueError(
                    f"move {n} ({move!r}): the bot's turn {bot_done + 1} is missing "
                    "(send back the bot's moves of every earlier turn)"
                )
            replay_bot_turn(bot_done)
            bot_done += 1
        try:
            if evaluate_moves:
                kind, choice = you.choice(move)
                decision = evaluate(
                    rules, values(), you.card, you.counts, you.rolls_left, kind, choice
                )
            you.draws = moves_draws[n - 1]
            done = you.turns_done
            you.play(move)
            if you.turns_done > done:
                turn_end_draws.append(you.draws)
        except ValueError as exc:
            raise ValueError(f"move {n} ({move!r}): {exc}") from None
        if evaluate_moves:
            decisions.append(decision)
    bot_turn = None
    note = None
    if bot is not None:
        while bot_done < min(len(bot_turns), you.turns_done):
            replay_bot_turn(bot_done)
            bot_done += 1
        if len(bot_turns) > you.turns_done:
            raise ValueError(
                f"{len(bot_turns)} bot turns were given but you have played only {you.turns_done}"
            )
        if bot_done < you.turns_done and not bot.card.done:
            bot.redraw_turn(turn_end_draws[bot_done])
            bot_turn, note = _bot_turn(rules, values(), bot, you, opponent, win_solve)
            bot_turns.append(bot_turn.moves)
    finished = you.card.done and (bot is None or bot.card.done)
    would: dict[str, tuple[int, int]] = {}
    if not you.card.done:
        would = {name: (pts, bonus) for name, pts, bonus in rules.placements(you.counts, you.card)}
    rows = [
        BoxRow(
            name,
            rules.box_label(b),
            rules.upper_face(b) > 0,
            you.card.entries[b],
            bot.card.entries[b] if bot is not None else None,
            sum(would[name]) if name in would else None,
            would[name][1] if name in would else 0,
        )
        for b, name in enumerate(rules.boxes)
    ]
    result = None
    if finished:
        a = you.card.total
        if bot is None:
            result = f"final score {a}"
        else:
            b = bot.card.total
            result = (
                f"you win {a} to {b}"
                if a > b
                else f"draw at {a}"
                if a == b
                else f"the bot wins {b} to {a}"
            )
    advice = None
    if coach and not you.card.done:
        advice = coach_advice(rules, you.card, you.counts, you.rolls_left, values())
    return GameView(
        rules=rules.name,
        seed=seed,
        start=start_card.text(),
        opponent=opponent,
        turn=you.turn,
        boxes=rules.n_boxes,
        rolls_left=you.rolls_left if not you.card.done else 0,
        dice=list(you.slots) if not you.card.done else [],
        rows=rows,
        you=_summary(you.card),
        bot=_summary(bot.card) if bot is not None else None,
        moves=list(moves),
        bot_moves=bot_turns,
        bot_turn=bot_turn,
        finished=finished,
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
