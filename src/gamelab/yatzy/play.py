"""``gamelab yatzy play``: a game against the optimal bot (or solo), with the coach on request.

:class:`PlaySession` is the game as a :class:`gamelab.core.interactive.Session` (injectable
input and output); the command line only wires it to the terminal. What can be typed is in
:data:`HELP`: at ``keep?`` the dice to keep (``1114``), ``all`` to stop rolling, ``-`` to
reroll all five; an empty line asks whether to stop rolling (it never ends the rolls by itself);
at ``box?`` a box name as the rule set says it (Yatzy's ``yatzy``, Yahtzee's ``yahtzee``) or an
alias. ``h`` ranks the options by expected final score, ``best`` takes the coach's choice,
``card`` shows the score card, ``q`` / ``quit`` leave.

The game is a :class:`~gamelab.yatzy.state.YatzyState` (the state protocol, as on the page and
in the environments: turns, rerolls, legal boxes and the cards are the state's); its chance
nodes are settled from one generator seeded with the seed (:func:`settle_roll`), so the same
seed deals the same dice to the same sequence of choices. The bot plays the optimal
expected-score strategy, the page bot's choices (:func:`bot_turn`). ``undo`` takes a decision back but not the dice it
rolled: the generator goes on, so a decision made again meets fresh dice (seeing a roll and
then choosing again with that knowledge is not possible), and the final line counts the
take-backs.
"""

from __future__ import annotations

import numpy as np

from gamelab.core.interactive import QUIT_WORDS, Session
from gamelab.core.state import CHANCE
from gamelab.yatzy.card import Card
from gamelab.yatzy.coach import advise, decision_tables
from gamelab.yatzy.game import table_action
from gamelab.yatzy.rules import (
    KEEPS,
    RULES,
    UPPER_CAP,
    RuleSet,
    dice_text,
    parse_dice,
    parse_keep,
    roll_index,
)
from gamelab.yatzy.solver import solve
from gamelab.yatzy.state import FRESH, N_KEEPS, YatzyGame, YatzyState

HELP = """How to play: each turn you roll five dice up to three times, then score them in one open box.
  at "keep?"  type the dice to keep, e.g. 1114 (the others are rerolled)
              all     keep all five and stop rolling      -   reroll all five
              (an empty line asks whether to stop rolling)
  at "box?"   type a box name or an alias:
{boxes}
  anywhere    h      the coach's ranking of your options by expected final score
              best   take the coach's choice
              undo   take back your last decision (the dice that follow are drawn afresh)
              card   show the score card
              help   this text
              q      quit"""


def _roll(keep: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    counts = np.array(keep, dtype=np.int64)
    for face in rng.integers(0, 6, 5 - int(counts.sum())):
        counts[face] += 1
    return counts


def settle_roll(state: YatzyState, rng: np.random.Generator) -> None:
    """Settle the chance node of `state`, if it is at one: the dice not kept are drawn from
    `rng` (one stream for the whole game: the same seed and choices give the same dice)."""
    if state.current_player() == CHANCE:
        kept = np.zeros(6, dtype=np.int64) if state.kept == FRESH else KEEPS[state.kept]
        state.apply(roll_index(_roll(kept, rng)))


def bot_turn(E: np.ndarray, state: YatzyState, rng: np.random.Generator) -> str:
    """Play one optimal turn of the player due in `state` (a roll due: the turn's start), the
    expected-score strategy's choices (:func:`gamelab.yatzy.game.table_action`); returns a
    one-line description."""
    player = state.player
    rules, card = state.game.rules, state.cards[player]
    tables = decision_tables(rules, E, card)
    settle_roll(state, rng)
    seen = [dice_text(state.dice)]
    while state.rolls_left:
        state.apply(table_action(tables, state))
        settle_roll(state, rng)
        seen.append(dice_text(state.dice))
    seen += seen[-1:] * (3 - len(seen))  # kept all five early: the dice stay as they are
    before = card.total
    action = table_action(tables, state)
    state.apply(action)
    return (
        f"rolls {' -> '.join(seen)}; {rules.box_label(action - N_KEEPS)} for {card.total - before}"
    )


def format_card(rules: RuleSet, you: Card, bot: Card | None, dice: np.ndarray | None = None) -> str:
    """The score card: each box's entry for you (and the bot); with `dice`, what they would score."""
    placements = {}
    if dice is not None:
        placements = {name: pts + bonus for name, pts, bonus in rules.placements(dice, you)}
    head = f"{'box':<18}{'you':>5}" + (f"{'bot':>5}" if bot else "")
    if dice is not None:
        head += f"   {dice_text(dice)} would score"
    lines = [head]

    def row(label: str, mine: object, theirs: object, extra: str = "") -> None:
        lines.append(f"{label:<18}{mine!s:>5}" + (f"{theirs!s:>5}" if bot else "") + extra)

    n_upper = sum(1 for b in range(rules.n_boxes) if rules.upper_face(b))
    for b, name in enumerate(rules.boxes):
        mine = you.entries[b]
        theirs = bot.entries[b] if bot else None
        extra = f"   {placements[name]:>3}" if name in placements else ""
        row(
            rules.box_label(b),
            "-" if mine is None else mine,
            "-" if theirs is None else theirs,
            extra,
        )
        if b == n_upper - 1:
            row(
                f"upper ({rules.upper_bonus} at {UPPER_CAP})",
                you.upper_total,
                bot.upper_total if bot else "",
            )
    if rules.yahtzee_bonus:
        row("yahtzee bonuses", you.yahtzee_bonuses, bot.yahtzee_bonuses if bot else "")
    row("total", you.total, bot.total if bot else "")
    return "\n".join(lines)


class PlaySession(Session):
    """One game of ``gamelab yatzy play`` (see the module doc). `opponent` adds the optimal bot.

    The game is a :class:`~gamelab.yatzy.state.YatzyState` (you player 0, the bot player 1): the
    state protocol plays the rules (rerolls, legal boxes, the cards, the turns, the end), as on
    the page and in the environments; this session adds the dice stream and the conversation.
    """

    def __init__(
        self,
        rules: RuleSet = RULES["yatzy"],
        seed: int = 0,
        opponent: bool = True,
        E: np.ndarray | None = None,
    ) -> None:
        self.rules = rules
        self.E = solve(self.rules).E if E is None else E
        self.rng = np.random.default_rng(seed)
        self.opponent = opponent
        self.state = YatzyGame(rules, 2 if opponent else 1).new_initial_state()
        self.confirm_stop = False
        self.confirm_zero: str | None = None  # a box that would score 0, asked about first
        self.finished = False
        self._history: list[YatzyState] = []  # the game before each decision, for undo
        self.takebacks = 0  # decisions taken back (the final line says so)
        settle_roll(self.state, self.rng)

    # -- the game, as the state has it --------------------------------------------------------
    @property
    def you(self) -> Card:
        return self.state.cards[0]

    @property
    def bot(self) -> Card | None:
        return self.state.cards[1] if self.opponent else None

    @property
    def dice(self) -> np.ndarray:
        """Your dice, as counts per face."""
        dice = self.state.dice
        assert dice is not None  # your dice are rolled whenever you are asked
        return dice

    @property
    def rolls_left(self) -> int:
        return self.state.rolls_left

    @property
    def turn(self) -> int:
        return min(self.you.filled_count + 1, self.rules.n_boxes)

    # -- what is shown -----------------------------------------------------------------------
    @property
    def prompt(self) -> str:
        head = f"turn {self.turn}/{self.rules.n_boxes} | dice {dice_text(self.dice)}"
        if self.confirm_zero is not None:
            label = self.rules.box_label(self.rules.box_index(self.confirm_zero))
            return f"{head} | score 0 in {label}? (y/n) "
        if self.confirm_stop:
            return f"{head} | stop rolling and score these dice? (y/n) "
        if self.rolls_left == 0:
            return f"{head} | box? "
        return f"{head} | {self.rolls_left} roll{'s' if self.rolls_left > 1 else ''} left | keep? "

    def help_text(self) -> str:
        import textwrap

        names = ", ".join(self.rules.box_label(b) for b in range(self.rules.n_boxes))
        aliases = (
            "1s .. 6s, "
            + ("1p, 2p, " if self.rules.scandinavian else "")
            + "3k, 4k, fh, ss, ls, c, y"
        )
        boxes = textwrap.fill(
            f"{names} (aliases {aliases})",
            width=96,
            initial_indent=" " * 14,
            subsequent_indent=" " * 14,
        )
        return HELP.format(boxes=boxes)

    def intro(self) -> str:
        who = "against the optimal bot" if self.opponent else "solo"
        return (
            f"{self.rules.name} ({self.rules.description}), {who}.\n"
            + self.help_text()
            + "\n\n"
            + self._status()
        )

    def _status(self) -> str:
        score = f"you {self.you.total}" + (f", bot {self.bot.total}" if self.bot else "")
        return f"--- turn {self.turn}/{self.rules.n_boxes}: {score}"

    def card_text(self) -> str:
        return format_card(
            self.rules, self.you, self.bot, self.dice if self.rolls_left == 0 else None
        )

    # -- commands ------------------------------------------------------------------------------
    def handle(self, line: str) -> str:
        text = line.strip().lower()
        if text in QUIT_WORDS:
            self.finished = True
            return self.end_of_input()
        if self.confirm_zero is not None:
            box, self.confirm_zero = self.confirm_zero, None
            if text in ("y", "yes"):
                return self._score(box, confirmed=True)
            return "not scored: choose a box ('card' shows what these dice score)"
        if self.confirm_stop:
            self.confirm_stop = False
            if text in ("y", "yes"):
                return self._stop_rolling()
            return "rolling on: type the dice to keep"
        if text == "undo":
            return self._undo()
        if text in ("help", "?"):
            return self.help_text()
        if text == "card":
            return self.card_text()
        if text in ("h", "hint"):
            return self._ranking()
        if text == "best":
            choice = self._best_choice()
            return "\n".join(t for t in (f"coach: {choice}", self.handle(choice)) if t)
        if self.rolls_left == 0:
            if not text:
                return "type a box name ('card' shows them with what these dice score)"
            return self._score(text)
        if not text:
            self.confirm_stop = True
            return ""
        action = self.state.keep_action(parse_keep(text, self.dice))  # all five: stop rolling
        self._history.append(self.state.clone())
        self.state.apply(action)
        settle_roll(self.state, self.rng)
        return self.card_text() if self.rolls_left == 0 else ""

    def _stop_rolling(self) -> str:
        self.state.apply(self.state.keep_action(self.dice))  # keep all five
        return self.card_text()

    def _options(self) -> list[dict]:
        return advise(self.rules, self.you, self.dice, self.rolls_left, self.E)

    def _label(self, option: dict) -> str:
        return option["box"] if "box" in option else option["keep"]

    def _best_choice(self) -> str:
        best = self._options()[0]
        if "keep" in best and best["keep"] == dice_text(self.dice):
            return "all"
        return self._label(best)

    def _ranking(self) -> str:
        kind = "box" if self.rolls_left == 0 else "keep"
        lines = [f"{kind:>16}  expected final score   loss"]
        for o in self._options()[:8]:
            lines.append(f"{self._label(o):>16}  {o['expected_score']:20.2f}  {o['loss']:5.2f}")
        return "\n".join(lines)

    def _undo(self) -> str:
        """Back to before your last decision, and the bot's turn that decision led to with it;
        the generator does not go back, so the dice that follow are fresh ones."""
        if not self._history:
            raise ValueError("there is no decision to undo")
        self.state = self._history.pop()
        self.takebacks += 1
        return (
            "undone: your last decision is taken back (the dice that follow are drawn afresh)\n"
            + self._status()
            + "\n"
            + self.card_text()
        )

    def _score(self, box: str, confirmed: bool = False) -> str:
        b = self.rules.box_index(box)  # raises on an unknown box
        if self.you.entries[b] is not None:
            raise ValueError(f"box {self.rules.box_label(b)} is already filled")
        points = {
            name: pts + bonus for name, pts, bonus in self.rules.placements(self.dice, self.you)
        }
        zero = points.get(self.rules.boxes[b], 0) == 0 and any(points.values())
        if not confirmed and zero and box.strip().lower() in ("y", "yes"):
            # 'y' is the yatzy box's alias and also a yes: a slip must not cost the box unasked
            self.confirm_zero = box
            return f"these dice score 0 in {self.rules.box_label(b)}"
        state = self.state.clone()  # the game changes once the whole round is played
        action = state.string_to_action(f"box {box}")  # the joker rule's refusal
        state.apply(action)
        out = [f"you score {state.cards[0].total - self.you.total} in {self.rules.box_label(b)}"]
        if self.opponent:
            out.append("bot: " + bot_turn(self.E, state, self.rng))
        settle_roll(state, self.rng)  # your next turn's dice
        self._history.append(self.state)
        self.state = state
        if state.is_terminal():
            self.finished = True
            out.append(format_card(self.rules, self.you, self.bot))
            final = f"final: you {self.you.total}"
            if self.bot is not None:
                a, b = self.you.total, self.bot.total
                final += f", bot {b}: " + (
                    "you win" if a > b else "draw" if a == b else "the bot wins"
                )
            if self.takebacks:
                final += f" (with {self.takebacks} take-back{'s' if self.takebacks != 1 else ''})"
            out.append(final)
            return "\n".join(out)
        out.append(self._status())
        return "\n".join(out)

    def end_of_input(self) -> str:
        return f"game left at turn {self.turn}: you {self.you.total}" + (
            f", bot {self.bot.total}" if self.bot else ""
        )


__all__ = ["PlaySession", "bot_turn", "format_card", "parse_keep", "parse_dice"]
