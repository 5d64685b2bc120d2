"""Yatzy through the common state protocol (:mod:`gamelab.core.state`): one or two players.

A turn is a chance roll of five dice, then up to two rerolls, then a box. Chance outcomes are
the resulting five dice (an index into :data:`gamelab.yatzy.rules.ROLLS`) with their exact
probability (:data:`rules.ROLL_PROB` for a fresh roll, :data:`rules.KEEP_ROLL_PROB` after a
keep). A player's action is either a keep (index into :data:`rules.KEEPS`, below
:data:`N_KEEPS`: the dice kept, the others rerolled; keeping all five stops rolling) while
rolls are left, or a box (``N_KEEPS + box``) after the last roll, among the boxes the rule
set's :meth:`~gamelab.yatzy.rules.RuleSet.placements` allows; :meth:`Card.fill` scores it.
Players alternate turns, player 0 first. Returns: the final score in solitaire, +1/-1/0 for
win/loss/draw with two players.

>>> g = YatzyGame(get_rules("yatzy")); s = g.new_initial_state(); len(s.chance_outcomes())
252
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gamelab.core.state import CHANCE, TERMINAL, illegal
from gamelab.yatzy.card import Card
from gamelab.yatzy.rules import (
    DICE,
    KEEP_ROLL_INDEX,
    KEEP_ROLL_PROB,
    KEEP_ROLL_START,
    KEEP_SIZE,
    KEEPS,
    N_KEEPS,
    N_ROLLS,
    ROLL_PROB,
    ROLLS,
    SUBKEEP_INDEX,
    SUBKEEP_START,
    RuleSet,
    dice_text,
    get_rules,
    keep_index,
    parse_dice,
    parse_keep,
    roll_index,
)

#: `kept` of a chance node that rolls all five dice at the start of a turn.
FRESH = -1

# the rolls each keep can lead to, and the keeps of each roll, as sets (apply's legality check)
_ROLLS_AFTER = [
    frozenset(KEEP_ROLL_INDEX[KEEP_ROLL_START[k] : KEEP_ROLL_START[k + 1]].tolist())
    for k in range(N_KEEPS)
]
_KEEPS_OF = [
    frozenset(SUBKEEP_INDEX[SUBKEEP_START[r] : SUBKEEP_START[r + 1]].tolist())
    for r in range(N_ROLLS)
]


@dataclass(frozen=True)
class YatzyGame:
    """A game of `rules` for `players` (1 or 2) players."""

    rules: RuleSet
    players: int = 1
    name: str = field(default="yatzy", init=False)
    num_chance_outcomes: int = field(default=N_ROLLS, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, RuleSet):
            raise ValueError("rules must be a gamelab.yatzy.rules.RuleSet (see get_rules)")
        if self.players not in (1, 2):
            raise ValueError(f"players must be 1 or 2, got {self.players!r}")

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_actions(self) -> int:
        return N_KEEPS + self.rules.n_boxes

    @property
    def zero_sum(self) -> bool:
        return self.players == 2

    def new_initial_state(self) -> YatzyState:
        return YatzyState(self, [Card.empty(self.rules) for _ in range(self.players)])

    def state_from_text(self, text: str) -> YatzyState:
        """Parse :meth:`YatzyState.to_text` (``player 0 rolls 2 kept none dice 11345 cards -``)."""
        fields = text.split()
        try:
            values = dict(zip(fields[::2], fields[1::2], strict=True))
            player, rolls = int(values["player"]), int(values["rolls"])
            kept, dice, cards = values["kept"], values["dice"], values["cards"].split("|")
        except (KeyError, ValueError):
            raise ValueError(f"not a Yatzy state: {text!r}") from None
        if len(cards) != self.players or not 0 <= player < self.players or rolls not in (0, 1, 2):
            raise ValueError(f"not a Yatzy state of {self.players} player(s): {text!r}")
        state = YatzyState(self, [Card.parse(self.rules, c) for c in cards])
        state.player, state.rolls_left = player, rolls
        if kept != "none":
            counts = np.zeros(6, dtype=np.int64) if kept == "-" else _counts(kept)
            state.kept = keep_index(counts)
        if dice != "-":
            state.roll = roll_index(parse_dice(dice))
        return state


def _counts(digits: str) -> np.ndarray:
    counts = np.zeros(6, dtype=np.int64)
    for ch in digits:
        if ch not in "123456":
            raise ValueError(f"kept dice are digits 1-6, got {digits!r}")
        counts[int(ch) - 1] += 1
    if counts.sum() >= DICE:
        raise ValueError(f"a reroll keeps at most four dice, got {digits!r}")
    return counts


class YatzyState:
    """Whose turn, the cards, and where the turn is: a roll due (``roll < 0``), or dice shown."""

    __slots__ = ("game", "cards", "player", "roll", "kept", "rolls_left")

    def __init__(self, game: YatzyGame, cards: list[Card]) -> None:
        self.game = game
        self.cards = cards
        self.player = 0
        self.roll = -1  # index of the dice shown, -1 while a roll is due
        self.kept = FRESH  # keep index rolled from (FRESH: a turn's first roll)
        self.rolls_left = 0

    @property
    def dice(self) -> np.ndarray | None:
        """The dice shown as counts per face, None while a roll is due."""
        return None if self.roll < 0 else ROLLS[self.roll]

    def current_player(self) -> int:
        if self.cards[-1].done:
            return TERMINAL
        return CHANCE if self.roll < 0 else self.player

    def is_terminal(self) -> bool:
        return self.cards[-1].done

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.roll >= 0 or self.is_terminal():
            return []
        if self.kept == FRESH:
            return [(r, float(ROLL_PROB[r])) for r in range(N_ROLLS)]
        lo, hi = KEEP_ROLL_START[self.kept], KEEP_ROLL_START[self.kept + 1]
        return [(int(KEEP_ROLL_INDEX[i]), float(KEEP_ROLL_PROB[i])) for i in range(lo, hi)]

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.roll < 0:
            return [a for a, _ in self.chance_outcomes()]
        if self.rolls_left > 0:
            return SUBKEEP_INDEX[SUBKEEP_START[self.roll] : SUBKEEP_START[self.roll + 1]].tolist()
        rules, card = self.game.rules, self.cards[self.player]
        boxes = sorted(rules.boxes.index(name) for name, _, _ in rules.placements(self.dice, card))
        return [N_KEEPS + b for b in boxes]

    def _is_legal(self, action: int) -> bool:
        """Whether `action` is legal here: a roll or a keep (a box is checked as it is filled)."""
        if self.is_terminal():
            return False
        if self.roll < 0:  # a chance node: any roll of five dice, or one the kept dice allow
            return (
                0 <= action < N_ROLLS if self.kept == FRESH else action in _ROLLS_AFTER[self.kept]
            )
        return self.rolls_left > 0 and action in _KEEPS_OF[self.roll]

    def apply(self, action: int) -> None:
        action = int(action)
        box = (
            self.roll >= 0
            and not self.rolls_left
            and 0 <= action - N_KEEPS < self.game.rules.n_boxes
        )
        if not box and not self._is_legal(action):
            raise illegal(action, self.legal_actions(), f"the Yatzy state {self.to_text()!r}")
        if self.roll < 0:
            self.roll = action
            self.rolls_left = 2 if self.kept == FRESH else self.rolls_left - 1
            return
        if not box:
            if KEEP_SIZE[action] == DICE:
                self.rolls_left = 0  # keeping all five stops rolling
            else:
                self.kept, self.roll = action, -1
            return
        try:  # the card refuses a filled box and one the joker rule forbids
            self.cards[self.player].fill(self.game.rules.boxes[action - N_KEEPS], self.dice)
        except ValueError:
            raise illegal(
                action, self.legal_actions(), f"the Yatzy state {self.to_text()!r}"
            ) from None
        self.player = (self.player + 1) % self.game.players
        self.roll, self.kept, self.rolls_left = -1, FRESH, 0

    def keep_action(self, keep) -> int:
        """The action keeping the dice `keep` (counts per face, among the dice shown)."""
        if not self.rolls_left:
            raise ValueError("no rerolls left: score the dice in a box ('box NAME')")
        return keep_index(keep)

    def scores(self) -> list[int]:
        return [card.total for card in self.cards]

    def returns(self) -> list[float]:
        scores = self.scores()
        if self.game.players == 1:
            return [float(scores[0])] if self.is_terminal() else [0.0]
        if not self.is_terminal() or scores[0] == scores[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if scores[0] > scores[1] else [-1.0, 1.0]

    def clone(self) -> YatzyState:
        cards = [Card(c.rules, list(c.entries), c.yahtzee_bonuses) for c in self.cards]
        out = YatzyState(self.game, cards)
        out.player, out.roll, out.kept, out.rolls_left = (
            self.player,
            self.roll,
            self.kept,
            self.rolls_left,
        )
        return out

    def _repr_html_(self) -> str:
        """The player's card, the dice and the rolls left in a notebook
        (:mod:`gamelab.yatzy.pictures`)."""
        from gamelab.yatzy.pictures import card_html

        card = self.cards[self.player]
        boxes = list(zip(self.game.rules.boxes, card.entries, strict=True))
        dice = (
            None
            if self.dice is None
            else [f + 1 for f, n in enumerate(self.dice) for _ in range(n)]
        )
        return card_html(boxes, dice, self.rolls_left)

    def to_text(self) -> str:
        kept = "none" if self.kept == FRESH else dice_text(KEEPS[self.kept])
        dice = "-" if self.roll < 0 else dice_text(ROLLS[self.roll])
        cards = "|".join(card.text() for card in self.cards)
        return f"player {self.player} rolls {self.rolls_left} kept {kept} dice {dice} cards {cards}"

    def action_to_string(self, action: int) -> str:
        if self.roll < 0:
            return f"roll {dice_text(ROLLS[action])}"
        if action < N_KEEPS:
            return f"keep {dice_text(KEEPS[action])}"
        return f"box {self.game.rules.box_label(action - N_KEEPS)}"

    def string_to_action(self, text: str) -> int:
        """The action `text` names here, in :meth:`action_to_string`'s notation (``roll 11345``
        at a chance node; ``keep 1114``, ``keep -``, ``keep all`` or ``box fours``, any box name
        or alias, at a player's); a ValueError says why it cannot be played here.

        >>> s = YatzyGame(get_rules("yatzy")).new_initial_state(); s.apply(s.string_to_action("roll 11114"))
        >>> s.action_to_string(s.string_to_action("keep 1111"))
        'keep 1111'
        >>> s.string_to_action("box fours")
        Traceback (most recent call last):
        ...
        ValueError: 2 rerolls left: keep all five dice first to score them ('keep all')
        """
        word, _, arg = str(text).strip().partition(" ")
        word = word.lower()
        if self.is_terminal():
            raise ValueError("the cards are full; the game is over")
        if self.roll < 0:
            if word != "roll":
                raise ValueError(f"the dice are to be rolled ('roll 11345'), not {text!r}")
            action = roll_index(parse_dice(arg))
            if not self._is_legal(action):
                raise ValueError(f"{dice_text(ROLLS[action])} does not keep the dice kept")
            return action
        dice = ROLLS[self.roll]
        if word == "keep":
            return self.keep_action(parse_keep(arg, dice))
        if word == "box":
            b, _, _ = self.cards[self.player].placement(arg, dice)
            if self.rolls_left:
                raise ValueError(
                    f"{self.rolls_left} reroll{'s' if self.rolls_left > 1 else ''} left: keep all "
                    "five dice first to score them ('keep all')"
                )
            return N_KEEPS + b
        raise ValueError(f"{text!r} is not a move: 'keep 1114', 'keep all' or 'box fours'")


__all__ = ["FRESH", "N_KEEPS", "YatzyGame", "YatzyState", "get_rules"]
