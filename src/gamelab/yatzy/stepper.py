"""A lean game of Yatzy alone for the environments: the turn of :class:`gamelab.yatzy.state.
YatzyState` (roll, up to two keeps, a box) on precomputed tables and plain integers.

:class:`SolitaireStepper` keeps what an agent sees up to date — the dice (a roll index),
the rolls left, the card's entries, the extra-Yahtzee bonuses and the score — and ``mask``, the
legal actions as the state's ``legal_actions`` gives them (a keep among the roll's sub-keeps
while rolls are left, else a box the rule set allows). The dice are drawn with the rules' own
chance tables (:data:`~gamelab.yatzy.rules.ROLL_PROB`, :data:`~gamelab.yatzy.rules.KEEP_ROLL_PROB`)
the way :func:`gamelab.core.state.sample_chance` draws them: one uniform per roll, taken in
order from the generator (in blocks of :data:`UNIFORMS`), so the stepper and the state protocol
played with the same generator roll the same dice (the tests play both side by side). A box
scores ``RuleSet.base_scores``, or, after an extra Yahtzee under joker or bonus rules, what
``RuleSet.placements`` says; the upper bonus and the Yahtzee bonuses as ``Card.total`` counts
them. ``state()`` gives the same position as a :class:`YatzyState`.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from typing import Any

import numpy as np

from gamelab.yatzy.card import Card
from gamelab.yatzy.rules import (
    DICE,
    KEEP_ROLL_INDEX,
    KEEP_ROLL_PROB,
    KEEP_ROLL_START,
    KEEP_SIZE,
    N_KEEPS,
    N_ROLLS,
    ROLL_PROB,
    ROLL_YAHTZEE_FACE,
    ROLLS,
    SUBKEEP_INDEX,
    SUBKEEP_START,
    UPPER_CAP,
    RuleSet,
    dice_text,
)
from gamelab.yatzy.state import YatzyGame, YatzyState

UNIFORMS = 1024


@lru_cache(maxsize=1)
def chance_tables() -> tuple[list[list[float]], list[list[int]]]:
    """Per keep (and last, the fresh roll): the cumulative probabilities and the rolls, in the
    order of the state's chance outcomes."""
    cumulative, rolls = [], []
    for k in range(N_KEEPS):
        lo, hi = KEEP_ROLL_START[k], KEEP_ROLL_START[k + 1]
        cumulative.append(np.cumsum(KEEP_ROLL_PROB[lo:hi]).tolist())
        rolls.append(KEEP_ROLL_INDEX[lo:hi].tolist())
    cumulative.append(np.cumsum(ROLL_PROB).tolist())
    rolls.append(list(range(N_ROLLS)))
    return cumulative, rolls


@lru_cache(maxsize=8)
def keep_masks(n_actions: int) -> np.ndarray:
    """int8 [roll, action]: 1 for the roll's sub-keeps."""
    masks = np.zeros((N_ROLLS, n_actions), dtype=np.int8)
    for r in range(N_ROLLS):
        masks[r, SUBKEEP_INDEX[SUBKEEP_START[r] : SUBKEEP_START[r + 1]]] = 1
    return masks


class SolitaireStepper:
    """Games of `game` (one player) on plain integers (see the module)."""

    PLAYERS = 1
    #: the attributes that describe the card (a two-player stepper keeps one set per player:
    #: a new card attribute is listed here)
    CARD_FIELDS = (
        "card",
        "entries",
        "_open_mask",
        "bonuses",
        "total",
        "upper_total",
        "filled",
        "filled_mask",
        "flag",
    )

    def __init__(self, game: YatzyGame) -> None:
        if game.players != self.PLAYERS:
            raise ValueError(f"this stepper plays {self.PLAYERS} player(s), not {game.players}")
        self.game = game
        rules: RuleSet = game.rules
        self.rules = rules
        self.n_boxes = rules.n_boxes
        self.n_actions = N_KEEPS + rules.n_boxes
        self._base = rules.base_scores.T.tolist()  # [roll][box]
        self._upper = [rules.upper_face(b) > 0 for b in range(self.n_boxes)]
        self._ybox = rules.boxes.index("yahtzee") if "yahtzee" in rules.boxes else -1
        self._special = self._ybox >= 0 and (rules.joker != 0 or rules.yahtzee_bonus > 0)
        self._keep_masks = keep_masks(self.n_actions)
        self._keep_size = KEEP_SIZE.tolist()
        self._yahtzee_face = ROLL_YAHTZEE_FACE.tolist()
        self._cumulative, self._rolls = chance_tables()
        self._rng: np.random.Generator | None = None
        self._u: list[float] = []
        self._ui = 0
        self.mask = np.zeros(self.n_actions, dtype=np.int8)
        self.card = np.full(self.n_boxes, -1, dtype=np.int64)
        self.entries: list[int | None] = [None] * self.n_boxes
        self._open_mask = np.zeros(self.n_actions, dtype=np.int8)
        self.roll = 0
        self.rolls_left = 0
        self.bonuses = 0
        self.total = 0
        self.upper_total = 0
        self.filled = 0
        self.filled_mask = 0  # the filled boxes as bits (the solver's state index)
        self.flag = 0  # 1 when the Yahtzee box holds 50 under a Yahtzee bonus
        self.done = True
        self.last_roll = -1

    def _uniform(self) -> float:
        if self._ui == len(self._u):
            assert self._rng is not None
            self._u = self._rng.random(UNIFORMS).tolist()
            self._ui = 0
        u = self._u[self._ui]
        self._ui += 1
        return u

    def _draw(self, table: int) -> int:
        """A roll from keep `table` (N_KEEPS: five fresh dice), as ``sample_chance`` draws it."""
        cumulative = self._cumulative[table]
        k = bisect_right(cumulative, self._uniform() * cumulative[-1])
        rolls = self._rolls[table]
        roll = rolls[min(k, len(rolls) - 1)]
        self.roll = self.last_roll = roll
        return roll

    def reset(self, rng: np.random.Generator) -> None:
        if rng is not self._rng:
            self._rng, self._u, self._ui = rng, [], 0
        self.card.fill(-1)
        self.entries = [None] * self.n_boxes
        self._open_mask.fill(0)
        self._open_mask[N_KEEPS:] = 1
        self.bonuses = self.total = self.upper_total = self.filled = 0
        self.filled_mask = self.flag = 0
        self.done = False
        self._new_turn()

    def _new_turn(self) -> None:
        self.mask[:] = self._keep_masks[self._draw(N_KEEPS)]
        self.rolls_left = 2

    def step(self, action: int) -> float:
        """Play a legal `action` (see ``mask``); the points it scored."""
        if action < N_KEEPS:
            self.last_roll = -1
            if self._keep_size[action] == DICE:
                self.rolls_left = 0
                self._box_mask()
            else:
                self._draw(action)
                self.rolls_left -= 1
                if self.rolls_left:
                    self.mask[:] = self._keep_masks[self.roll]
                else:
                    self._box_mask()
            return 0.0
        b = action - N_KEEPS
        r = self.roll
        points, bonus = self._base[r][b], 0
        if self._special and self._yahtzee_face[r] and self.entries[self._ybox] is not None:
            card = Card(self.rules, self.entries, self.bonuses)
            points, bonus = next(
                (pts, bon)
                for name, pts, bon in self.rules.placements(ROLLS[r], card)
                if name == self.rules.boxes[b]
            )
        before = self.total
        self.entries[b] = points
        self.card[b] = points
        self._open_mask[action] = 0
        self.filled += 1
        self.filled_mask |= 1 << b
        if b == self._ybox and points == 50 and self.rules.has_bonus_flag:
            self.flag = 1
        gained = points
        if self._upper[b]:
            if self.upper_total < UPPER_CAP <= self.upper_total + points:
                gained += self.rules.upper_bonus
            self.upper_total += points
        if bonus:
            self.bonuses += 1
            gained += self.rules.yahtzee_bonus
        self.total = before + gained
        self._end_turn()
        return float(gained)

    def _end_turn(self) -> None:
        """After a box: the next turn's roll, or the end of the game."""
        if self.filled == self.n_boxes:
            self.done = True
            self.last_roll = -1
            self.mask.fill(0)
        else:
            self._new_turn()

    def _box_mask(self) -> None:
        r = self.roll
        if self._special and self._yahtzee_face[r] and self.entries[self._ybox] is not None:
            card = Card(self.rules, self.entries, self.bonuses)
            self.mask.fill(0)
            for name, _, _ in self.rules.placements(ROLLS[r], card):
                self.mask[N_KEEPS + self.rules.boxes.index(name)] = 1
        else:
            self.mask[:] = self._open_mask

    def dice(self) -> np.ndarray:
        return ROLLS[self.roll]

    def state(self) -> YatzyState:
        """This position as a state of the protocol."""
        card = Card(self.rules, list(self.entries), self.bonuses)
        if self.done:
            return YatzyState(self.game, [card])
        text = (
            f"player 0 rolls {self.rolls_left} kept none dice {dice_text(ROLLS[self.roll])} "
            f"cards {card.text()}"
        )
        return self.game.state_from_text(text)

    def sync(self, state: YatzyState, action: int) -> None:
        """Apply to `state` the action just stepped and the dice it rolled."""
        state.apply(action)
        if self.last_roll >= 0 and not state.is_terminal():
            state.apply(self.last_roll)


class DuelStepper(SolitaireStepper):
    """Games of `game` for two players, who take turns (player 0 first), each on a card of its
    own: the solitaire's turn on the card of the player to move (``to_move``), the other card
    kept aside. The dice come from the same stream in the same order as the state protocol
    draws them (a turn's first roll as soon as the previous turn's box is filled)."""

    PLAYERS = 2

    def __init__(self, game: YatzyGame) -> None:
        super().__init__(game)
        self.to_move = 0
        self._aside = self._blank_card()

    def _blank_card(self) -> list[Any]:
        """A fresh card's fields (:data:`CARD_FIELDS`), as ``reset`` leaves them."""
        open_mask = np.zeros(self.n_actions, dtype=np.int8)
        open_mask[N_KEEPS:] = 1
        blank = {
            "card": np.full(self.n_boxes, -1, dtype=np.int64),
            "entries": [None] * self.n_boxes,
        }
        blank["_open_mask"] = open_mask
        return [blank.get(name, 0) for name in self.CARD_FIELDS]

    def _swap(self) -> None:
        """Put the mover's card aside and take the other player's."""
        fields = self.CARD_FIELDS
        mine = [getattr(self, name) for name in fields]
        for name, value in zip(fields, self._aside, strict=True):
            setattr(self, name, value)
        self._aside = mine
        self.to_move = 1 - self.to_move

    def reset(self, rng: np.random.Generator) -> None:
        self.to_move = 0
        self._aside = self._blank_card()
        super().reset(rng)

    def _end_turn(self) -> None:
        self._swap()
        if self.filled == self.n_boxes:  # both cards full: player 1 filled the last box
            self.done = True
            self.last_roll = -1
            self.mask.fill(0)
        else:
            self._new_turn()

    def card_of(self, player: int) -> np.ndarray:
        """The card of `player`: points per box, -1 open."""
        return self.card if player == self.to_move else self._aside[self.CARD_FIELDS.index("card")]

    def totals(self) -> tuple[int, int]:
        mine, other = self.total, self._aside[self.CARD_FIELDS.index("total")]
        return (mine, other) if self.to_move == 0 else (other, mine)

    def returns(self) -> tuple[float, float]:
        """(+1, -1), (-1, +1) or (0, 0) at the end, as the state protocol's returns."""
        if not self.done:
            return (0.0, 0.0)
        a, b = self.totals()
        if a == b:
            return (0.0, 0.0)
        return (1.0, -1.0) if a > b else (-1.0, 1.0)

    def state(self) -> YatzyState:
        """This position as a state of the protocol."""
        fields = self.CARD_FIELDS
        cards = [
            Card(self.rules, list(self.entries), self.bonuses),
            Card(
                self.rules,
                list(self._aside[fields.index("entries")]),
                self._aside[fields.index("bonuses")],
            ),
        ]
        if self.to_move == 1:
            cards.reverse()
        if self.done:
            return YatzyState(self.game, cards)
        text = (
            f"player {self.to_move} rolls {self.rolls_left} kept none "
            f"dice {dice_text(ROLLS[self.roll])} cards {'|'.join(c.text() for c in cards)}"
        )
        return self.game.state_from_text(text)
