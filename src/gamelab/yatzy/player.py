"""A player's seeded dice and card while a Yatzy game is replayed from its moves (the dice
streams of :mod:`gamelab.yatzy.game`: a turn's faces are fixed by the seed, the player, the
turn and the take-backs before the roll).

>>> from gamelab.yatzy.rules import RULES
>>> p = Player(RULES["yatzy"], Card.parse(RULES["yatzy"], "-"), seed=7, player=0)
>>> p.play("keep -"); p.rolls_left
1
"""

from __future__ import annotations

import numpy as np

from gamelab.yatzy.card import Card
from gamelab.yatzy.rules import DICE, FACES, RuleSet, dice_text, parse_keep

MOVE_HELP = (
    "a move is 'keep 1114' (the dice to keep; 'keep -' rerolls all five), 'hold 10110' "
    "(keep the dice of the slots marked 1) or 'box fours' (score the dice in that box)"
)


def turn_faces(seed: int, player: int, turn: int, draws: int = 0) -> np.ndarray:
    """[3, 5] faces 1..6: what each slot shows when rolled at roll r of this turn, for a roll
    made after `draws` take-backs (0: the seed's own dice)."""
    key = [seed, player, turn] if draws == 0 else [seed, player, turn, draws]
    return np.random.default_rng(key).integers(1, FACES + 1, size=(3, DICE))


def counts_of(slots) -> np.ndarray:
    c = np.zeros(FACES, dtype=np.int64)
    for face in slots:
        c[int(face) - 1] += 1
    return c


def held_slots(slots, keep: np.ndarray) -> list[bool]:
    """Which slots hold the kept dice: the leftmost slots showing each kept face."""
    need = np.array(keep, dtype=np.int64)
    held = []
    for face in slots:
        take = need[int(face) - 1] > 0
        if take:
            need[int(face) - 1] -= 1
        held.append(bool(take))
    return held


def parse_move(text: str) -> tuple[str, str]:
    parts = str(text).strip().split(None, 1)
    if len(parts) != 2 or parts[0].lower() not in ("keep", "hold", "box"):
        raise ValueError(f"move {text!r} not understood: {MOVE_HELP}")
    return parts[0].lower(), parts[1].strip()


class Player:
    """One player's card and current turn during a replay."""

    def __init__(self, rules: RuleSet, card: Card, seed: int, player: int, draws: int = 0) -> None:
        self.rules, self.card, self.seed, self.player = rules, card, seed, player
        #: take-backs before the move being played: which stream the dice it rolls come from
        self.draws = draws
        self.turns_done = 0
        self.moves_in_turn = 0
        if not card.done:
            self._start_turn()

    def _faces(self, draws: int) -> np.ndarray:
        return turn_faces(self.seed, self.player, self.card.filled_count, draws)

    def _start_turn(self) -> None:
        self.turn_draws = self.draws
        self.slots = [int(x) for x in self._faces(self.draws)[0]]
        self.rolls_left = 2
        self.rolls = [dice_text(self.counts)]
        self.moves_in_turn = 0

    def redraw_turn(self, draws: int) -> None:
        """Roll this turn's first dice again from the stream of `draws` take-backs (the bot's
        turn follows your move that ended yours: its dice are drawn with that move's)."""
        self.draws = draws
        if not self.card.done and self.moves_in_turn == 0 and self.turn_draws != draws:
            self._start_turn()

    @property
    def counts(self) -> np.ndarray:
        return counts_of(self.slots)

    @property
    def turn(self) -> int:
        return self.card.filled_count + (0 if self.card.done else 1)

    def hold_mask(self, text: str) -> list[bool]:
        """``hold 10110``: the slots marked 1 keep their dice."""
        mask = text.replace(" ", "")
        if len(mask) != DICE or any(ch not in "01" for ch in mask):
            raise ValueError(
                f"hold {text!r}: mark the five dice slots with 1 (hold) or 0 "
                "(reroll), e.g. hold 10110"
            )
        return [ch == "1" for ch in mask]

    def keep(self, keep: np.ndarray, held: list[bool] | None = None) -> None:
        if self.rolls_left == 0:
            raise ValueError("no rerolls left: score the dice in a box ('box NAME')")
        if int(keep.sum()) == DICE:
            self.rolls_left = 0
        else:
            roll = 3 - self.rolls_left
            held = held_slots(self.slots, keep) if held is None else held
            faces = self._faces(self.draws)
            for i, hold in enumerate(held):
                if not hold:
                    self.slots[i] = int(faces[roll][i])
            self.rolls_left -= 1
            self.rolls.append(dice_text(self.counts))
        self.moves_in_turn += 1

    def score(self, box: str) -> int:
        gain = self.card.fill(box, self.counts)
        self.turns_done += 1
        if not self.card.done:
            self._start_turn()
        return gain

    def play(self, move: str) -> None:
        if self.card.done:
            raise ValueError(f"move {move!r}: the card is full; the game is over")
        kind, arg = parse_move(move)
        if kind == "keep":
            self.keep(parse_keep(arg, self.counts))
        elif kind == "hold":
            held = self.hold_mask(arg)
            self.keep(counts_of(f for f, h in zip(self.slots, held, strict=True) if h), held)
        else:
            self.score(arg)

    def choice(self, move: str) -> tuple[str, np.ndarray | str]:
        """(kind, keep counts or box name) of a move in the current position ('hold' is a keep)."""
        kind, arg = parse_move(move)
        if kind == "hold":
            held = self.hold_mask(arg)
            return "keep", counts_of(f for f, h in zip(self.slots, held, strict=True) if h)
        return kind, (parse_keep(arg, self.counts) if kind == "keep" else arg)
