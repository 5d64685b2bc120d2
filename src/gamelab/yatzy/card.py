"""A Yahtzee / Yatzy score card: the entry of every box, the Yahtzee bonuses, and the card as
text (``"ones=3,fours=16,yahtzee=50,bonus=1"``), checked against its rule set.

>>> from gamelab.yatzy.rules import get_rules
>>> card = Card.parse(get_rules("yatzy"), "ones=3, 6s=24")
>>> card.text(), card.upper_total, card.filled_count
('ones=3,sixes=24', 27, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from gamelab.yatzy.rules import JOKER_NONE, UPPER_CAP, RuleSet


def _possible_points(rules: RuleSet, box: int) -> set[int]:
    pts = {int(x) for x in rules.base_scores[box]}
    if rules.joker != JOKER_NONE:
        pts |= {int(x) for x in rules.kernel_tables()["joker_value"][box, 1:]}
    return pts


@dataclass
class Card:
    """A score card: the entry of every box (None = open) and the extra-Yahtzee bonus count.

    CARD syntax (``Card.parse``): comma-separated ``box=points`` for the filled boxes, e.g.
    ``"ones=3,fours=16,full_house=25,yahtzee=50,bonus=1"``; an empty string or ``-`` is a fresh
    card. Box names as in :attr:`RuleSet.boxes` (short aliases: 1s..6s, 3k, 4k, fh, ss, ls, y, c,
    1p, 2p); ``bonus=N`` is the number of 100-point Yahtzee bonuses already earned. The upper
    bonus is implied by the upper entries.
    """

    rules: RuleSet
    entries: list[int | None]
    yahtzee_bonuses: int = 0

    @classmethod
    def empty(cls, rules: RuleSet) -> Card:
        return cls(rules, [None] * rules.n_boxes, 0)

    @classmethod
    def parse(cls, rules: RuleSet, text: str) -> Card:
        card = cls.empty(rules)
        text = (text or "").strip()
        if text in ("", "-"):
            return card
        for part in text.split(","):
            if not part.strip():
                continue
            if "=" not in part:
                raise ValueError(f"card entry {part.strip()!r} must be box=points, e.g. fours=16")
            key, value = (s.strip() for s in part.split("=", 1))
            try:
                points = int(value)
            except ValueError:
                raise ValueError(f"points of {key!r} must be an integer, got {value!r}") from None
            if key.lower() in ("bonus", "yahtzee_bonus", "ybonus"):
                if not rules.yahtzee_bonus:
                    raise ValueError(f"rules {rules.name} have no Yahtzee bonus")
                if points < 0 or points > rules.n_boxes - 1:
                    raise ValueError(f"bonus count must be 0..{rules.n_boxes - 1}, got {points}")
                card.yahtzee_bonuses = points
                continue
            b = rules.box_index(key)
            if card.entries[b] is not None:
                raise ValueError(f"box {rules.boxes[b]} is given twice")
            if points not in _possible_points(rules, b):
                allowed = sorted(_possible_points(rules, b))
                raise ValueError(
                    f"{rules.box_label(b)}={points} is impossible; possible points: {allowed}"
                )
            card.entries[b] = points
        if card.yahtzee_bonuses:
            yb = rules.boxes.index("yahtzee")
            if card.entries[yb] != 50:
                raise ValueError("a Yahtzee bonus needs yahtzee=50 on the card")
            if card.yahtzee_bonuses > card.filled_count - 1:
                raise ValueError("more Yahtzee bonuses than boxes filled after the Yahtzee")
        return card

    def text(self) -> str:
        parts = [
            f"{self.rules.box_label(b)}={v}" for b, v in enumerate(self.entries) if v is not None
        ]
        if self.yahtzee_bonuses:
            parts.append(f"bonus={self.yahtzee_bonuses}")
        return ",".join(parts) or "-"

    @property
    def filled_count(self) -> int:
        return len(self.entries) - self.entries.count(None)

    @property
    def mask(self) -> int:
        return sum(1 << b for b, v in enumerate(self.entries) if v is not None)

    @property
    def upper_total(self) -> int:
        return sum(
            v for b, v in enumerate(self.entries) if v is not None and self.rules.upper_face(b)
        )

    @property
    def capped_upper(self) -> int:
        return min(UPPER_CAP, self.upper_total)

    @property
    def bonus_flag(self) -> int:
        if not self.rules.has_bonus_flag:
            return 0
        yb = self.rules.boxes.index("yahtzee")
        return int(self.entries[yb] == 50)

    @property
    def total(self) -> int:
        """Points so far, upper bonus and Yahtzee bonuses included."""
        base = sum(v for v in self.entries if v is not None)
        upper = self.rules.upper_bonus if self.upper_total >= UPPER_CAP else 0
        return base + upper + self.rules.yahtzee_bonus * self.yahtzee_bonuses

    @property
    def done(self) -> bool:
        return self.filled_count == self.rules.n_boxes

    def placement(self, box: str, counts) -> tuple[int, int, int]:
        """Where `box` (a name or alias) takes the dice `counts` on this card: (the box's
        index, its entry, the Yahtzee bonus earned); a ValueError says why it cannot."""
        b = self.rules.box_index(box)
        if self.entries[b] is not None:
            raise ValueError(f"box {self.rules.box_label(b)} is already filled")
        for name, pts, bonus in self.rules.placements(counts, self):
            if name == self.rules.boxes[b]:
                return b, pts, bonus
        raise ValueError(
            f"box {self.rules.box_label(b)} is not allowed for these dice (joker rule)"
        )

    def fill(self, box: str, counts) -> int:
        """Score `counts` in `box` (must be legal); returns the points gained including bonuses."""
        before = self.total
        b, pts, bonus = self.placement(box, counts)
        self.entries[b] = pts
        if bonus:
            self.yahtzee_bonuses += 1
        return self.total - before
