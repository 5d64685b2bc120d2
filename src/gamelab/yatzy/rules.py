"""Yahtzee / Scandinavian Yatzy: dice multisets, the five rule sets and box scoring (the score
card: :mod:`gamelab.yatzy.card`).

Five dice are handled as multisets (count vectors ``(c1, ..., c6)``): 252 five-dice rolls and
462 keeps (sub-multisets of 0 to 5 dice). The rule sets, by name (see ``docs/yatzy.md``):

* ``yahtzee`` - 13 boxes, upper bonus 35 at 63, Yahtzee bonus 100, official forced joker;
* ``yahtzee-free-joker`` - same, with Verhoeff's free joker (the rules behind "254.5896");
* ``yahtzee-no-bonus`` - 13 boxes, no Yahtzee bonus and no joker (Glenn's 2^19-widget game);
* ``yatzy`` - Scandinavian Yatzy: 15 boxes, bonus 50 at 63, no joker;
* ``yatzy-ls2012`` - Yatzy with Larsson & Sjoberg's (KTH 2012) two-pairs scoring.

>>> r = get_rules("yatzy")
>>> r.score("two_pairs", "22335")
10
>>> from gamelab.yatzy.card import Card
>>> get_rules("yahtzee").placements(parse_dice("44444"), Card.parse(get_rules("yahtzee"), "yahtzee=50"))[:1]
[('fours', 20, 100)]

This module is pure: no strategy and no I/O.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from gamelab.core.typed import typed

FACES = 6
DICE = 5
UPPER_CAP = 63  # the upper bonus threshold; the state only tracks min(63, upper total)


class CardEntries(Protocol):
    """What the rules read of a score card (:class:`gamelab.yatzy.card.Card`, which builds on
    these rules): the entry of every box, None for an open box."""

    @property
    def entries(self) -> Sequence[int | None]: ...


# ---------------------------------------------------------------------------------------------
# dice multisets


def _count_vectors(total_max: int, exact: bool) -> list[tuple[int, ...]]:
    out = []
    for n in range(total_max + 1):
        if exact and n != total_max:
            continue
        for combo in itertools.combinations_with_replacement(range(FACES), n):
            c = [0] * FACES
            for face in combo:
                c[face] += 1
            out.append(tuple(c))
    return out


#: The 252 five-dice rolls as count vectors, in a fixed order.
ROLLS: np.ndarray = np.array(_count_vectors(DICE, exact=True), dtype=np.int64)
#: The 462 keeps (0..5 dice) as count vectors, ordered by size (empty keep first).
KEEPS: np.ndarray = np.array(_count_vectors(DICE, exact=False), dtype=np.int64)
_ROLL_TUPLES = [tuple(int(x) for x in r) for r in ROLLS]
N_ROLLS = len(ROLLS)
N_KEEPS = len(KEEPS)
KEEP_SIZE: np.ndarray = KEEPS.sum(axis=1)
_KEEP_INDEX = {tuple(int(x) for x in k): i for i, k in enumerate(KEEPS)}
_ROLL_INDEX = {tuple(int(x) for x in r): i for i, r in enumerate(ROLLS)}


def keep_index(counts) -> int:
    return _KEEP_INDEX[tuple(int(x) for x in counts)]


def roll_index(counts) -> int:
    return _ROLL_INDEX[tuple(int(x) for x in counts)]


def _multinomial_probability(counts) -> float:
    n = int(sum(counts))
    ways = math.factorial(n)
    for c in counts:
        ways //= math.factorial(int(c))
    return ways / FACES**n


#: P(roll) for five fresh dice.
ROLL_PROB: np.ndarray = np.array([_multinomial_probability(r) for r in ROLLS])
#: The keep index of each roll taken as a whole (keeping all five dice = stopping).
ROLL_AS_KEEP: np.ndarray = np.array([keep_index(r) for r in ROLLS], dtype=np.int64)
#: KEEP_ADD[k, f] = index of keep k plus one die showing face f+1 (-1 when k has 5 dice).
KEEP_ADD: np.ndarray = np.full((N_KEEPS, FACES), -1, dtype=np.int64)
for _k, _counts in enumerate(KEEPS):
    if _counts.sum() < DICE:
        for _f in range(FACES):
            _c = _counts.copy()
            _c[_f] += 1
            KEEP_ADD[_k, _f] = keep_index(_c)


def _sub_keeps(counts) -> list[int]:
    ranges = [range(int(c) + 1) for c in counts]
    return sorted(keep_index(sub) for sub in itertools.product(*ranges))


#: CSR lists roll -> its distinct sub-keeps (4368 entries in all).
_subs = [_sub_keeps(r) for r in ROLLS]
SUBKEEP_START: np.ndarray = np.array(
    [0] + list(itertools.accumulate(len(s) for s in _subs)), dtype=np.int64
)
SUBKEEP_INDEX: np.ndarray = np.array([k for s in _subs for k in s], dtype=np.int64)
del _subs
#: CSR lists keep -> keeps with one die fewer (the sub-keep closure is built from these).
_minus = []
for _counts in KEEPS:
    _row = []
    for _f in range(FACES):
        if _counts[_f] > 0:
            _c = _counts.copy()
            _c[_f] -= 1
            _row.append(keep_index(_c))
    _minus.append(_row)
KEEP_MINUS_START: np.ndarray = np.array(
    [0] + list(itertools.accumulate(len(s) for s in _minus)), dtype=np.int64
)
KEEP_MINUS_INDEX: np.ndarray = np.array([k for s in _minus for k in s], dtype=np.int64)
del _minus
#: CSR lists keep -> (roll, probability) of rerolling the other dice (4368 entries).
# (vectorised: a loop over the 462 x 252 pairs cost a second of every import; the values are
# the same, exact integer counts of ways over 6**n, one correctly rounded division each)
_rest_all = ROLLS[None, :, :] - KEEPS[:, None, :]
_fits = (_rest_all >= 0).all(axis=2)
_keep_of, _roll_of = np.nonzero(_fits)  # row-major: by keep, then roll, as the loop was
_rest = _rest_all[_keep_of, _roll_of]
_factorial = np.array([math.factorial(n) for n in range(DICE + 1)], dtype=np.int64)
_ways = _factorial[_rest.sum(axis=1)] // np.prod(_factorial[_rest], axis=1)
KEEP_ROLL_START: np.ndarray = np.concatenate(([0], np.cumsum(_fits.sum(axis=1)))).astype(np.int64)
KEEP_ROLL_INDEX: np.ndarray = _roll_of.astype(np.int64)
KEEP_ROLL_PROB: np.ndarray = _ways.astype(np.float64) / (float(FACES) ** _rest.sum(axis=1)).astype(
    np.float64
)
del _rest_all, _fits, _keep_of, _roll_of, _rest, _ways
#: Base-6 code of a count vector (sum c_f 6^f) -> keep index (-1 if not a keep).
CODE_TO_KEEP: np.ndarray = np.full(FACES**FACES, -1, dtype=np.int64)
for _k, _counts in enumerate(KEEPS):
    CODE_TO_KEEP[int(sum(int(c) * FACES**f for f, c in enumerate(_counts)))] = _k
#: Keep indices with fewer than five dice, largest keeps first (order of the keep recursion).
KEEP_RECURSION_ORDER: np.ndarray = np.array(
    sorted((k for k in range(N_KEEPS) if KEEP_SIZE[k] < DICE), key=lambda k: -KEEP_SIZE[k]),
    dtype=np.int64,
)
#: Face (1..6) of a five-of-a-kind roll, 0 for other rolls.
ROLL_YAHTZEE_FACE: np.ndarray = np.array(
    [int(np.argmax(r)) + 1 if r.max() == DICE else 0 for r in ROLLS], dtype=np.int64
)


def parse_dice(text: str) -> np.ndarray:
    """Five dice like ``"11114"`` (any order, spaces/commas ignored) -> count vector."""
    digits = [ch for ch in typed(str(text)) if ch not in " ,"]
    if len(digits) != DICE or any(ch not in "123456" for ch in digits):
        raise ValueError(f"dice must be five digits 1-6 like 11114, got {text!r}")
    counts = np.zeros(FACES, dtype=np.int64)
    for ch in digits:
        counts[int(ch) - 1] += 1
    return counts


def parse_keep(text: str, dice: np.ndarray) -> np.ndarray:
    """The dice to keep from `dice` (a count vector) -> count vector: digits (``1114``, any
    order, spaces/commas ignored), ``all`` (keep the five) or ``-`` (reroll all five). The one
    keep notation of the terminal game, the page's moves and the review.

    >>> parse_keep("41 1", parse_dice("11114")).tolist(), int(parse_keep("-", parse_dice("11114")).sum())
    ([2, 0, 0, 1, 0, 0], 0)
    """
    word = typed(str(text)).strip().lower()
    if word == "all":
        return np.array(dice, dtype=np.int64)
    keep = np.zeros(FACES, dtype=np.int64)
    if word == "-":
        return keep
    digits = word.replace(" ", "").replace(",", "")
    if not digits or len(digits) > DICE or any(ch not in "123456" for ch in digits):
        raise ValueError(
            f"keep {text!r} not understood: give the dice to keep as up to five digits 1-6 "
            f"(e.g. 1114), 'all' to keep the five, or '-' to reroll all five"
        )
    for ch in digits:
        keep[int(ch) - 1] += 1
    if (keep > dice).any():
        raise ValueError(f"cannot keep {digits} from the dice {dice_text(dice)}")
    return keep


def dice_text(counts) -> str:
    """Count vector -> sorted digits, e.g. ``[4,0,0,1,0,0] -> '11114'`` ('-' for no dice)."""
    s = "".join(str(f + 1) * int(c) for f, c in enumerate(counts))
    return s or "-"


# ---------------------------------------------------------------------------------------------
# boxes


# Box kinds. Upper boxes are 'ones'..'sixes'; the rest are scored by `_base_score`.
UPPER_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")
_ALIASES = {
    "1s": "ones",
    "2s": "twos",
    "3s": "threes",
    "4s": "fours",
    "5s": "fives",
    "6s": "sixes",
    "3k": "three_kind",
    "4k": "four_kind",
    "fh": "full_house",
    "ss": "small_straight",
    "ls": "large_straight",
    "y": "yahtzee",
    "c": "chance",
    "1p": "one_pair",
    "2p": "two_pairs",
    "pair": "one_pair",
    "yatzy": "yahtzee",
    "3ofakind": "three_kind",
    "4ofakind": "four_kind",
}


def _runs(counts) -> tuple[bool, bool]:
    present = [c > 0 for c in counts]
    small = any(all(present[i : i + 4]) for i in range(3))
    large = all(present[0:5]) or all(present[1:6])
    return small, large


def _base_score(kind: str, counts, scandinavian: bool, ls_two_pairs: bool) -> int:
    """Points of a box for five dice, without any joker rule."""
    total = sum((f + 1) * int(c) for f, c in enumerate(counts))
    if kind in UPPER_NAMES:
        face = UPPER_NAMES.index(kind) + 1
        return face * int(counts[face - 1])
    top = max(counts)
    pairs = [f + 1 for f in range(FACES) if counts[f] >= 2]  # faces with a pair, ascending
    small, large = _runs(counts)
    if kind == "chance":
        return total
    if kind == "yahtzee":
        return 50 if top == DICE else 0
    if not scandinavian:
        if kind == "three_kind":
            return total if top >= 3 else 0
        if kind == "four_kind":
            return total if top >= 4 else 0
        if kind == "full_house":
            return 25 if sorted(c for c in counts if c) == [2, 3] else 0
        if kind == "small_straight":
            return 30 if small else 0
        if kind == "large_straight":
            return 40 if large else 0
    else:
        if kind == "one_pair":
            return 2 * pairs[-1] if pairs else 0
        if kind == "two_pairs":
            if ls_two_pairs:  # L&S 2012 code: 2 x highest pair + 2 x second pair (or 0)
                return 2 * pairs[-1] + (2 * pairs[-2] if len(pairs) > 1 else 0) if pairs else 0
            return 2 * (pairs[-1] + pairs[-2]) if len(pairs) >= 2 else 0
        if kind == "three_kind":
            face = next((f + 1 for f in range(FACES) if counts[f] >= 3), 0)
            return 3 * face
        if kind == "four_kind":
            face = next((f + 1 for f in range(FACES) if counts[f] >= 4), 0)
            return 4 * face
        if kind == "small_straight":
            return 15 if list(counts) == [1, 1, 1, 1, 1, 0] else 0
        if kind == "large_straight":
            return 20 if list(counts) == [0, 1, 1, 1, 1, 1] else 0
        if kind == "full_house":
            return total if sorted(c for c in counts if c) == [2, 3] else 0
    raise ValueError(f"unknown box {kind!r}")


@functools.cache
def _base_row(kind: str, scandinavian: bool, ls_two_pairs: bool) -> tuple[int, ...]:
    """A box's points for each of the 252 rolls (shared by the rule sets that have the box;
    the rolls as plain tuples: numpy scalars made this a second of every import)."""
    return tuple(_base_score(kind, r, scandinavian, ls_two_pairs) for r in _ROLL_TUPLES)


#: Joker values of the fixed-score lower boxes (American rules).
_JOKER_FIXED = {"full_house": 25, "small_straight": 30, "large_straight": 40}

JOKER_NONE, JOKER_FORCED, JOKER_FREE = 0, 1, 2
_JOKER_NAMES = {JOKER_NONE: "none", JOKER_FORCED: "forced", JOKER_FREE: "free"}


#: Layout of :meth:`RuleSet.kernel_rules`: tuple position of each field (kernels index with these).
KERNEL_RULES = (
    "base",
    "upper_face",
    "joker_value",
    "upper_box_of_face",
    "joker_fixed",
    "n_boxes",
    "upper_bonus",
    "yahtzee_bonus",
    "joker",
    "yahtzee_box",
    "bonus_flags",
)
(
    R_BASE,
    R_UPPER_FACE,
    R_JOKER_VALUE,
    R_UPPER_BOX_OF_FACE,
    R_JOKER_FIXED,
    R_N_BOXES,
    R_UPPER_BONUS,
    R_YAHTZEE_BONUS,
    R_JOKER,
    R_YAHTZEE_BOX,
    R_BONUS_FLAGS,
) = range(len(KERNEL_RULES))


@dataclass(frozen=True)
class RuleSet:
    """One rule set. Build with :func:`get_rules` (or directly, for a reduced test game)."""

    name: str
    boxes: tuple[str, ...]
    upper_bonus: int
    yahtzee_bonus: int = 0  # points per extra Yahtzee (American), 0 = none
    joker: int = JOKER_NONE
    scandinavian: bool = False
    ls_two_pairs: bool = False
    description: str = ""
    _base: np.ndarray = field(init=False, repr=False, compare=False)
    _bundle: tuple | None = field(default=None, init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple:
        """A named rule set travels to a worker process by name and arrives as the registry's
        own object (its kernel bundle and the per-process tables keyed by it are reused)."""
        if RULES.get(self.name) is self:
            return (_named_rules, (self.name,))
        return (
            _rebuilt,
            (
                self.name,
                self.boxes,
                self.upper_bonus,
                self.yahtzee_bonus,
                self.joker,
                self.scandinavian,
                self.ls_two_pairs,
                self.description,
            ),
        )

    def __post_init__(self) -> None:
        if len(set(self.boxes)) != len(self.boxes) or not self.boxes:
            raise ValueError(f"boxes must be distinct and non-empty, got {self.boxes}")
        for b in self.boxes:
            _base_score(b, [1, 1, 1, 1, 1, 0], self.scandinavian, self.ls_two_pairs)  # validates
        if (self.yahtzee_bonus or self.joker != JOKER_NONE) and "yahtzee" not in self.boxes:
            raise ValueError("a Yahtzee bonus or joker needs a yahtzee box")
        base = np.array(
            [_base_row(b, self.scandinavian, self.ls_two_pairs) for b in self.boxes],
            dtype=np.int64,
        )
        object.__setattr__(self, "_base", base)

    # -- structure used by the solvers ----------------------------------------------------
    @property
    def n_boxes(self) -> int:
        return len(self.boxes)

    @property
    def has_bonus_flag(self) -> bool:
        """Whether the state carries f = 'the Yahtzee box holds 50' (only with a Yahtzee bonus)."""
        return self.yahtzee_bonus > 0

    @property
    def bonus_flags(self) -> int:
        """How many values f takes in a state: 2 with a Yahtzee bonus, else 1."""
        return 2 if self.has_bonus_flag else 1

    @property
    def n_states(self) -> int:
        """Length of a table indexed by state (see :func:`gamelab.yatzy._turn_kernels.state_index`)."""
        return (1 << self.n_boxes) * 64 * self.bonus_flags

    @property
    def base_scores(self) -> np.ndarray:
        """int64 [n_boxes, 252]: box points of each roll without joker rules."""
        return self._base

    def upper_face(self, box: int) -> int:
        """Face 1..6 of an upper box position, 0 for a lower box."""
        name = self.boxes[box]
        return UPPER_NAMES.index(name) + 1 if name in UPPER_NAMES else 0

    def box_index(self, name: str) -> int:
        key = name.strip().lower().replace("-", "_").replace(" ", "_")
        key = _ALIASES.get(key, key)
        if key not in self.boxes:
            raise ValueError(
                f"unknown box {name!r} for rules {self.name}; boxes: "
                f"{', '.join(self.box_label(b) for b in range(self.n_boxes))}"
            )
        return self.boxes.index(key)

    def box_label(self, box: str | int) -> str:
        """A box's name as players of this rule set say it (Yatzy's five of a kind is "yatzy").

        >>> get_rules("yatzy").box_label("yahtzee"), get_rules("yahtzee").box_label(11)
        ('yatzy', 'yahtzee')
        """
        name = self.boxes[box] if isinstance(box, int) else self.boxes[self.box_index(box)]
        return "yatzy" if self.scandinavian and name == "yahtzee" else name

    def kernel_tables(self) -> dict[str, np.ndarray]:
        """The rule tables by name (the kernels take them as :meth:`kernel_rules`)."""
        upper_face = np.array([self.upper_face(b) for b in range(self.n_boxes)], dtype=np.int64)
        joker_value = np.zeros((self.n_boxes, FACES + 1), dtype=np.int64)
        for b, name in enumerate(self.boxes):
            for face in range(1, FACES + 1):
                if name in _JOKER_FIXED:
                    joker_value[b, face] = _JOKER_FIXED[name]
                elif name in ("three_kind", "four_kind", "chance"):
                    joker_value[b, face] = 5 * face
                elif name in UPPER_NAMES:
                    joker_value[b, face] = 5 * face if upper_face[b] == face else 0
                else:
                    joker_value[b, face] = 0 if name != "yahtzee" else 50
        ybox = self.boxes.index("yahtzee") if "yahtzee" in self.boxes else -1
        upper_box_of_face = np.full(FACES + 1, -1, dtype=np.int64)
        for b in range(self.n_boxes):
            if upper_face[b]:
                upper_box_of_face[upper_face[b]] = b
        joker_fixed = np.array([name in _JOKER_FIXED for name in self.boxes], dtype=np.int64)
        return {
            "upper_box_of_face": upper_box_of_face,
            "joker_fixed": joker_fixed,
            "base": self._base,
            "upper_face": upper_face,
            "joker_value": joker_value,
            "params": np.array(
                [
                    self.n_boxes,
                    self.upper_bonus,
                    self.yahtzee_bonus,
                    self.joker,
                    ybox,
                    self.bonus_flags,
                ],
                dtype=np.int64,
            ),
        }

    def kernel_rules(self) -> tuple:
        """The rules bundle every Yatzy kernel takes: a tuple laid out as :data:`KERNEL_RULES`
        (a plain tuple, not a namedtuple: numba types it in C on every call, see DEVELOPERS.md).
        Built once per rule set; the kernels only read it."""
        if self._bundle is None:
            tab = self.kernel_tables()
            params = [int(x) for x in tab["params"]]
            object.__setattr__(
                self,
                "_bundle",
                (
                    tab["base"],
                    tab["upper_face"],
                    tab["joker_value"],
                    tab["upper_box_of_face"],
                    tab["joker_fixed"],
                    *params,
                ),
            )
        assert self._bundle is not None
        return self._bundle

    # -- scoring -----------------------------------------------------------------------------
    def score(self, box: str, dice) -> int:
        """Plain points of `box` for `dice` (digits or counts), without joker or bonuses."""
        counts = parse_dice(dice) if isinstance(dice, str) else np.asarray(dice)
        return int(self._base[self.box_index(box), roll_index(counts)])

    def placements(self, counts, card: CardEntries) -> list[tuple[str, int, int]]:
        """Legal (box, points, yahtzee_bonus) for the final dice `counts` on `card`.

        Points are the box's entry; the bonus is the extra-Yahtzee bonus earned (American
        rules with a bonus). The upper bonus is not included (see :meth:`Card.upper_bonus_gain`).
        """
        counts = np.asarray(counts)
        r = roll_index(counts)
        open_boxes = [b for b in range(self.n_boxes) if card.entries[b] is None]
        if not open_boxes:
            raise ValueError("the card is full; the game is over")
        face = int(ROLL_YAHTZEE_FACE[r])
        ybox = self.boxes.index("yahtzee") if "yahtzee" in self.boxes else -1
        extra = face > 0 and ybox >= 0 and card.entries[ybox] is not None
        if not extra or (self.joker == JOKER_NONE and not self.yahtzee_bonus):
            return [(self.boxes[b], int(self._base[b, r]), 0) for b in open_boxes]
        bonus = self.yahtzee_bonus if card.entries[ybox] == 50 else 0
        if self.joker == JOKER_NONE:
            return [(self.boxes[b], int(self._base[b, r]), bonus) for b in open_boxes]
        tables = self.kernel_tables()
        jv = tables["joker_value"]
        upper_of_face = next((b for b in range(self.n_boxes) if self.upper_face(b) == face), -1)
        upper_open = upper_of_face >= 0 and card.entries[upper_of_face] is None
        if self.joker == JOKER_FORCED:
            if upper_open:
                return [(self.boxes[upper_of_face], 5 * face, bonus)]
            lower = [b for b in open_boxes if self.upper_face(b) == 0]
            if lower:
                return [(self.boxes[b], int(jv[b, face]), bonus) for b in lower]
            return [(self.boxes[b], 0, bonus) for b in open_boxes]
        # free joker: any open box; the fixed lower values only once the matching upper box is filled
        out = []
        for b in open_boxes:
            pts = int(self._base[b, r])
            if self.boxes[b] in _JOKER_FIXED and not upper_open:
                pts = int(jv[b, face])
            out.append((self.boxes[b], pts, bonus))
        return out

    @property
    def max_score(self) -> int:
        """An upper bound on the final score (used to size score distributions)."""
        jv = self.kernel_tables()["joker_value"] if self.joker != JOKER_NONE else None
        best = 0
        for b in range(self.n_boxes):
            top = int(self._base[b].max())
            if jv is not None:
                top = max(top, int(jv[b].max()))
            best += top
        return best + self.upper_bonus + self.yahtzee_bonus * max(0, self.n_boxes - 1)


AMERICAN_BOXES = UPPER_NAMES + (
    "three_kind",
    "four_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
SCANDINAVIAN_BOXES = UPPER_NAMES + (
    "one_pair",
    "two_pairs",
    "three_kind",
    "four_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "chance",
    "yahtzee",
)

RULES: dict[str, RuleSet] = {
    r.name: r
    for r in (
        RuleSet(
            "yahtzee",
            AMERICAN_BOXES,
            35,
            100,
            JOKER_FORCED,
            description="Yahtzee, official forced joker, 100-point bonus",
        ),
        RuleSet(
            "yahtzee-free-joker",
            AMERICAN_BOXES,
            35,
            100,
            JOKER_FREE,
            description="Yahtzee, Verhoeff's free joker, 100-point bonus",
        ),
        RuleSet(
            "yahtzee-no-bonus",
            AMERICAN_BOXES,
            35,
            0,
            JOKER_NONE,
            description="Yahtzee without Yahtzee bonus or joker",
        ),
        RuleSet(
            "yatzy",
            SCANDINAVIAN_BOXES,
            50,
            scandinavian=True,
            description="Scandinavian Yatzy, 15 boxes, bonus 50",
        ),
        RuleSet(
            "yatzy-ls2012",
            SCANDINAVIAN_BOXES,
            50,
            scandinavian=True,
            ls_two_pairs=True,
            description="Yatzy with Larsson & Sjoberg's (2012) two-pairs scoring",
        ),
    )
}


def _named_rules(name: str) -> RuleSet:
    return RULES[name]


def _rebuilt(*fields) -> RuleSet:
    return RuleSet(*fields)


class UnknownRules(ValueError):
    """A rule-set name that is not one of :data:`RULES` (the web names the field)."""

    field = "rules"


def get_rules(name: str) -> RuleSet:
    """The rule set called `name` (one of :data:`RULES`): what a shell calls on its input; the
    library takes the :class:`RuleSet`."""
    try:
        return RULES[name]
    except KeyError:
        raise UnknownRules(f"unknown rules {name!r}; allowed: {', '.join(RULES)}") from None
