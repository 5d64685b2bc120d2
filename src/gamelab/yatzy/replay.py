"""A seeded Yatzy game replayed from its moves through the state protocol: the dice streams of
:mod:`gamelab.yatzy.game` on a :class:`~gamelab.yatzy.state.YatzyState`.

The state (:mod:`gamelab.yatzy.state`) plays the rules: whose turn, the rerolls left, which keeps
and boxes are legal, the cards. A :class:`Replay` adds what a page shows and the protocol does
not know: each player's dice in slot order, drawn from the seed, which settle every chance node.
A turn's faces are fixed by the seed, the player, the turn and the take-backs before the roll
(:func:`turn_faces`); a page's move is one protocol action (``keep 1114``, ``hold 10110``) or
two (``box fours`` with rerolls left: keep all five, then the box).

>>> from gamelab.yatzy.rules import RULES
>>> game = Replay(RULES["yatzy"], Card.parse(RULES["yatzy"], "-"), seed=7)
>>> game.slots[0], game.state.rolls_left
([6, 4, 5, 6, 4], 2)
>>> game.play("keep -"), game.slots[0], game.rolls
([0], [5, 6, 2, 1, 2], ['44566', '12256'])
"""

from __future__ import annotations

import numpy as np

from gamelab.core.state import CHANCE
from gamelab.yatzy.card import Card
from gamelab.yatzy.rules import (
    DICE,
    FACES,
    KEEPS,
    N_KEEPS,
    ROLL_AS_KEEP,
    ROLLS,
    RuleSet,
    dice_text,
    parse_keep,
)
from gamelab.yatzy.state import FRESH, YatzyGame, YatzyState

MOVE_HELP = (
    "a move is 'keep 1114' (the dice to keep; 'keep -' rerolls all five), 'hold 10110' "
    "(keep the dice of the slots marked 1) or 'box fours' (score the dice in that box)"
)


# the roll index of five dice, by their sorted faces
_ROLL_OF = {tuple(f + 1 for f, n in enumerate(r) for _ in range(n)): i for i, r in enumerate(ROLLS)}


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


def hold_mask(text: str) -> list[bool]:
    """``hold 10110``: the slots marked 1 keep their dice."""
    mask = text.replace(" ", "")
    if len(mask) != DICE or any(ch not in "01" for ch in mask):
        raise ValueError(
            f"hold {text!r}: mark the five dice slots with 1 (hold) or 0 (reroll), e.g. hold 10110"
        )
    return [ch == "1" for ch in mask]


class Replay:
    """A seeded game of `players` (you, player 0, and the bot, player 1) from the card `start`:
    the protocol's :attr:`state`, each player's dice in slot order (:attr:`slots`) and the
    dice of the current turn's rolls (:attr:`rolls`).

    :attr:`draws` is the take-backs count of your last move: every roll is drawn from its
    stream (a reroll it makes, the bot's turn after it, your next turn's first roll)."""

    def __init__(self, rules: RuleSet, start: Card, seed: int, players: int = 1) -> None:
        cards = [Card(rules, list(start.entries), start.yahtzee_bonuses) for _ in range(players)]
        self.state = YatzyState(YatzyGame(rules, players), cards)
        self.seed = seed
        self.draws = 0
        self.slots = [[0] * DICE for _ in range(players)]
        self.rolls: list[str] = []
        self._held: list[bool] = [False] * DICE
        self._roll()

    def _roll(self) -> None:
        """Settle the chance node (if any) with the player's seeded dice."""
        s = self.state
        if s.current_player() != CHANCE:
            return
        slots = self.slots[s.player]
        faces = turn_faces(self.seed, s.player, s.cards[s.player].filled_count, self.draws)
        if s.kept == FRESH:
            slots[:] = (int(x) for x in faces[0])
            self.rolls = []
        else:
            row = faces[3 - s.rolls_left]
            for i, hold in enumerate(self._held):
                if not hold:
                    slots[i] = int(row[i])
        s.apply(_ROLL_OF[tuple(sorted(slots))])
        self.rolls.append(dice_text(s.dice))

    def actions(self, move: str) -> tuple[list[int], list[bool]]:
        """The protocol's actions of a page's `move` for the player to move, and the slots it
        holds; a ValueError says why the move cannot be played."""
        s = self.state
        if s.is_terminal():
            raise ValueError(f"move {move!r}: the card is full; the game is over")
        kind, arg = parse_move(move)
        slots = self.slots[s.player]
        if kind == "box":
            b = s.cards[s.player].placement(arg, s.dice)[0]
            stop = [int(ROLL_AS_KEEP[s.roll])] if s.rolls_left else []  # keep all five
            return [*stop, N_KEEPS + b], [True] * DICE
        if kind == "hold":
            held = hold_mask(arg)
            return [
                s.keep_action(counts_of(f for f, h in zip(slots, held, strict=True) if h))
            ], held
        action = s.keep_action(parse_keep(arg, ROLLS[s.roll]))
        return [action], held_slots(slots, KEEPS[action])

    def play(self, move: str) -> list[int]:
        """Play a page's `move` (what :meth:`actions` gives) and settle the dice; its actions."""
        actions, held = self.actions(move)
        for action in actions:
            self._held = held
            self.state.apply(action)
            self._roll()
        return actions
