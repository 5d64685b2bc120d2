"""A terminal game against the optimal bot, with the coach's hints on request.

Input at a keep prompt: the dice to keep (e.g. ``1114``), ``all`` / empty line to stop rolling,
``-`` to reroll everything, ``h`` for the coach's ranking, ``best`` to take the coach's choice.
At a box prompt: a box name (or alias), ``h``, or ``best``. ``q`` quits.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamelab.yatzy.coach import advise, decision_tables
from gamelab.yatzy.rules import KEEPS, Card, RuleSet, dice_text, get_rules, parse_dice, roll_index
from gamelab.yatzy.solver import solve


def _roll(keep: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    counts = np.array(keep, dtype=np.int64)
    for face in rng.integers(0, 6, 5 - int(counts.sum())):
        counts[face] += 1
    return counts


def _parse_keep(text: str, dice: np.ndarray) -> np.ndarray:
    if text in ("", "all"):
        return dice.copy()
    if text == "-":
        return np.zeros(6, dtype=np.int64)
    keep = np.zeros(6, dtype=np.int64)
    for ch in text.replace(" ", ""):
        if ch not in "123456":
            raise ValueError(f"keep must be digits 1-6 from the dice, got {text!r}")
        keep[int(ch) - 1] += 1
    if (keep > dice).any():
        raise ValueError(f"cannot keep {text} from {dice_text(dice)}")
    return keep


def bot_turn(rules: RuleSet, E: np.ndarray, card: Card, rng: np.random.Generator) -> str:
    """Play one optimal turn on `card`; returns a one-line description."""
    tables = decision_tables(rules, E, card)
    dice = _roll(np.zeros(6), rng)
    seen = [dice_text(dice)]
    for stage in range(2):
        k = int((tables.keep1 if stage == 0 else tables.keep2)[roll_index(dice)])
        dice = _roll(KEEPS[k], rng)
        seen.append(dice_text(dice))
    box = rules.boxes[int(tables.box3[roll_index(dice)])]
    gain = card.fill(box, dice)
    return f"rolls {' -> '.join(seen)}; {box} for {gain}"


def play_game(rules: RuleSet | str, seed: int, ask: Callable[[str], str],
              say: Callable[[str], None], opponent: bool = True) -> tuple[int, int | None]:
    """Run one game; returns (your score, bot score or None)."""
    rules = get_rules(rules)
    E = solve(rules).E
    rng = np.random.default_rng(seed)
    you, bot = Card.empty(rules), Card.empty(rules)
    for turn in range(rules.n_boxes):
        say(f"--- turn {turn + 1}/{rules.n_boxes}: you {you.total}"
            + (f", bot {bot.total}" if opponent else ""))
        dice = _roll(np.zeros(6), rng)
        rolls_left = 2
        while True:
            if rolls_left == 0:
                prompt = f"dice {dice_text(dice)}, box? "
            else:
                prompt = f"dice {dice_text(dice)}, {rolls_left} rolls left, keep? "
            text = ask(prompt).strip().lower()
            if text == "q":
                raise ValueError("game abandoned")
            try:
                if text in ("h", "?", "best"):
                    opts = advise(rules, you, dice, rolls_left, E)
                    if text == "best":
                        text = opts[0].get("keep", opts[0].get("box"))
                        if text == "-" and rolls_left:
                            text = "-"
                        say(f"coach: {text}")
                    else:
                        for o in opts[:6]:
                            label = o.get("keep", o.get("box"))
                            say(f"  {label:>16}  expected {o['expected_score']:.2f}  "
                                f"loss {o['loss']:.2f}")
                        continue
                if rolls_left == 0:
                    gain = you.fill(text, dice)
                    say(f"you score {gain}")
                    break
                keep = _parse_keep(text, dice)
                if keep.sum() == 5:
                    rolls_left = 0
                    continue
                dice = _roll(keep, rng)
                rolls_left -= 1
            except ValueError as exc:
                say(f"  {exc}")
        if opponent:
            say("bot: " + bot_turn(rules, E, bot, rng))
    say(f"final: you {you.total}" + (f", bot {bot.total}" if opponent else ""))
    return you.total, (bot.total if opponent else None)


__all__ = ["play_game", "bot_turn", "parse_dice"]
