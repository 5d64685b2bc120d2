"""Voltorb Flip (Pokémon HeartGold/SoulSilver): boards, clues, flips, payout, level progression
and the four board generators.

A board is a 5x5 ``numpy.int8`` array of card values: 0 = Voltorb, 1, 2, 3. Tiles are numbered
row-major 0..24 (``tile = 5 * row + col``). The clues are, per row and per column, the sum of the
values and the number of Voltorbs (:class:`Clues`).

Generators (``GENERATORS``):

* ``hgss`` — the game's own (decompilation ``pret/pokeheartgold``, ``voltorb_flip_game.c``): one of
  the level's 10 configurations with probability 1/10, cards placed uniformly at random, the board
  rejected while ``free total >= MaxFreeTotal`` or some line has ``free >= MaxFreePerRowCol``
  (a *free* multiplier is a 2 or 3 whose row or column holds no Voltorb);
* ``bulbapedia`` — the same configurations without the rejection (Jaff & Bohrer 2021, blaine141);
* ``iid`` — every tile drawn independently with the level's average probabilities (the blog's
  intention: level 8 = V .40, 1 .248, 2 .176, 3 .176);
* ``iid-as-coded`` — what the blog's ``select()`` really drew: its thresholds were mis-ordered, so
  P(V) = p2, P(1) = pV, P(2) = p3, P(3) = 1 - pV - p2 - p3 (level 8: V .176, 1 .40, 2 .176, 3 .248).

The deal a round comes from is one :class:`VoltorbSetting` (level and generator), built once by
a shell from its input and validated in its constructor; library functions take it, never the
names.

    >>> import numpy as np
    >>> board, config = generate_board(VoltorbSetting(8, "hgss"), np.random.default_rng(1))
    >>> clues = Clues.from_board(board); int(clues.row_voltorbs.sum()) == CONFIGS[config].voltorbs
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from gamelab.core.choices import NamedChoice
from gamelab.core.typed import typed

SIZE = 5
TILES = SIZE * SIZE
LEVELS = tuple(range(1, 9))
GENERATORS = ("hgss", "bulbapedia", "iid", "iid-as-coded")
#: Tries before the game keeps a board that fails the free-multiplier test (``RetryBoardGen``).
MAX_GENERATION_TRIES = 1000


@dataclass(frozen=True)
class BoardConfig:
    """One entry of the game's ``sBoardConfigs`` table."""

    id: int
    level: int
    voltorbs: int
    twos: int
    threes: int
    max_free_per_line: int  # rejected when a line has this many free multipliers or more
    max_free_total: int  # rejected when the board has this many free multipliers or more

    @property
    def payout(self) -> int:
        return 2**self.twos * 3**self.threes

    @property
    def ones(self) -> int:
        return TILES - self.voltorbs - self.twos - self.threes

    @property
    def placements(self) -> int:
        """Number of boards with these card counts (multinomial coefficient)."""
        return math.factorial(TILES) // (
            math.factorial(self.voltorbs)
            * math.factorial(self.twos)
            * math.factorial(self.threes)
            * math.factorial(self.ones)
        )


# (Voltorbs, 2s, 3s, MaxFreePerRowCol, MaxFreeTotal) for ids 0..79, 10 per level; source:
# research note voltorb.md section 2 (pret/pokeheartgold sBoardConfigs).
_CONFIG_ROWS = (
    (6, 3, 1, 3, 3),
    (6, 0, 3, 2, 2),
    (6, 5, 0, 3, 4),
    (6, 2, 2, 3, 3),
    (6, 4, 1, 3, 4),
    (6, 3, 1, 3, 3),
    (6, 0, 3, 2, 2),
    (6, 5, 0, 3, 4),
    (6, 2, 2, 3, 3),
    (6, 4, 1, 3, 4),
    (7, 1, 3, 2, 3),
    (7, 6, 0, 3, 4),
    (7, 3, 2, 2, 3),
    (7, 0, 4, 2, 3),
    (7, 5, 1, 3, 4),
    (7, 1, 3, 2, 2),
    (7, 6, 0, 3, 3),
    (7, 3, 2, 2, 2),
    (7, 0, 4, 2, 2),
    (7, 5, 1, 3, 3),
    (8, 2, 3, 2, 3),
    (8, 7, 0, 3, 4),
    (8, 4, 2, 3, 4),
    (8, 1, 4, 2, 3),
    (8, 6, 1, 4, 3),
    (8, 2, 3, 2, 2),
    (8, 7, 0, 3, 3),
    (8, 4, 2, 3, 3),
    (8, 1, 4, 2, 2),
    (8, 6, 1, 3, 3),
    (8, 3, 3, 4, 3),
    (8, 0, 5, 2, 3),
    (10, 8, 0, 4, 5),
    (10, 5, 2, 3, 4),
    (10, 2, 4, 3, 4),
    (8, 3, 3, 3, 3),
    (8, 0, 5, 2, 2),
    (10, 8, 0, 4, 4),
    (10, 5, 2, 3, 3),
    (10, 2, 4, 3, 3),
    (10, 7, 1, 4, 5),
    (10, 4, 3, 3, 4),
    (10, 1, 5, 3, 4),
    (10, 9, 0, 4, 5),
    (10, 6, 2, 4, 5),
    (10, 7, 1, 4, 4),
    (10, 4, 3, 3, 3),
    (10, 1, 5, 3, 3),
    (10, 9, 0, 4, 4),
    (10, 6, 2, 4, 4),
    (10, 3, 4, 3, 4),
    (10, 0, 6, 3, 4),
    (10, 8, 1, 4, 5),
    (10, 5, 3, 4, 5),
    (10, 2, 5, 3, 4),
    (10, 3, 4, 3, 3),
    (10, 0, 6, 3, 3),
    (10, 8, 1, 4, 4),
    (10, 5, 3, 4, 4),
    (10, 2, 5, 3, 3),
    (10, 7, 2, 4, 5),
    (10, 4, 4, 4, 5),
    (13, 1, 6, 3, 4),
    (13, 9, 1, 5, 6),
    (10, 6, 3, 4, 5),
    (10, 7, 2, 4, 4),
    (10, 4, 4, 4, 4),
    (13, 1, 6, 3, 3),
    (13, 9, 1, 5, 5),
    (10, 6, 3, 4, 4),
    (10, 0, 7, 3, 4),
    (10, 8, 2, 5, 6),
    (10, 5, 4, 4, 5),
    (10, 2, 6, 4, 5),
    (10, 7, 3, 5, 6),
    (10, 0, 7, 3, 3),
    (10, 8, 2, 5, 5),
    (10, 5, 4, 4, 4),
    (10, 2, 6, 4, 4),
    (10, 7, 3, 5, 5),
)

CONFIGS: tuple[BoardConfig, ...] = tuple(
    BoardConfig(i, i // 10 + 1, *row) for i, row in enumerate(_CONFIG_ROWS)
)


def level_configs(level: int) -> tuple[BoardConfig, ...]:
    """The 10 configurations of a level 1-8 (each drawn with probability 1/10)."""
    return CONFIGS[10 * (level - 1) : 10 * level]


class BoardGenerator(NamedChoice, noun="generator"):
    """A board generator by its name (``GENERATORS``); ``BoardGenerator("x")`` is a ValueError
    listing the names. A member is its name as a string (JSON, keys, comparisons)."""

    HGSS = "hgss"
    BULBAPEDIA = "bulbapedia"
    IID = "iid"
    IID_AS_CODED = "iid-as-coded"

    @property
    def iid(self) -> bool:
        """Whether tiles are drawn independently (``iid``, ``iid-as-coded``)."""
        return self in (BoardGenerator.IID, BoardGenerator.IID_AS_CODED)


@dataclass(frozen=True, init=False)
class VoltorbSetting:
    """The deal of a round: its level (1-8) and board generator. Frozen and hashable, validated
    here and nowhere else: shells build it once from their input (``VoltorbSetting(8, "iid")``;
    the generator's name becomes a :class:`BoardGenerator`) and pass it on.

    >>> VoltorbSetting(9)
    Traceback (most recent call last):
    ValueError: level must be an integer from 1 to 8, got 9
    """

    level: int
    generator: BoardGenerator

    def __init__(self, level: int = 8, generator: str = "hgss") -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be an integer from 1 to 8, got {level!r}")
        object.__setattr__(self, "level", int(level))
        object.__setattr__(self, "generator", BoardGenerator(generator))

    @property
    def iid(self) -> bool:
        return self.generator.iid


def level_tile_probabilities(level: int) -> np.ndarray:
    """Average probabilities (P(V), P(1), P(2), P(3)) of a tile over the level's configurations.

    Level 8 gives (.40, .248, .176, .176), the blog's numbers; level 2 gives (.28, .52, .12, .08).
    """
    cfgs = level_configs(level)
    v = sum(c.voltorbs for c in cfgs) / (10 * TILES)
    t2 = sum(c.twos for c in cfgs) / (10 * TILES)
    t3 = sum(c.threes for c in cfgs) / (10 * TILES)
    return np.array([v, 1.0 - v - t2 - t3, t2, t3])


def iid_tile_probabilities(generator: str, level: int) -> np.ndarray:
    """(P(V), P(1), P(2), P(3)) of the ``iid`` or ``iid-as-coded`` generator."""
    p_v, _p1, p2, p3 = level_tile_probabilities(level)
    if generator == "iid":
        return np.array([p_v, 1.0 - p_v - p2 - p3, p2, p3])
    if generator == "iid-as-coded":
        # The blog's select(): u > pV+p2+p3 -> 3; u > pV+p2 -> 2; u > pV -> 0; else 1.
        return np.array([p2, p_v, p3, 1.0 - p_v - p2 - p3])
    raise ValueError(f"{generator!r} is not an i.i.d. generator; allowed: iid, iid-as-coded")


def free_multiplier_counts(board: np.ndarray) -> tuple[int, int]:
    """(free total, largest number of free multipliers in one row or column).

    A multiplier (2 or 3) is free when its row or its column has no Voltorb; it counts in both its
    row's and its column's tally, as in the game's ``GenerateBoard``.
    """
    b = np.asarray(board).reshape(SIZE, SIZE)
    free_row = ~(b == 0).any(axis=1)
    free_col = ~(b == 0).any(axis=0)
    free = (b >= 2) & (free_row[:, None] | free_col[None, :])
    per_line = max(int(free.sum(axis=1).max()), int(free.sum(axis=0).max()))
    return int(free.sum()), per_line


def passes_free_test(board: np.ndarray, config: BoardConfig) -> bool:
    """Whether the game keeps this board for `config` (strict inequalities)."""
    total, per_line = free_multiplier_counts(board)
    return total < config.max_free_total and per_line < config.max_free_per_line


def place_cards(config: BoardConfig, rng: np.random.Generator) -> np.ndarray:
    """Uniform random placement of the configuration's cards (all other tiles 1)."""
    cells = rng.permutation(TILES)
    flat = np.ones(TILES, dtype=np.int8)
    v, t2, t3 = config.voltorbs, config.twos, config.threes
    flat[cells[:v]] = 0
    flat[cells[v : v + t2]] = 2
    flat[cells[v + t2 : v + t2 + t3]] = 3
    return flat.reshape(SIZE, SIZE)


def generate_board(setting: VoltorbSetting, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """A new board of the setting's deal and its configuration id (-1 for the i.i.d.
    generators)."""
    generator, level = setting.generator, setting.level
    if setting.iid:
        p = iid_tile_probabilities(generator, level)
        flat = rng.choice(4, size=TILES, p=p).astype(np.int8)
        return flat.reshape(SIZE, SIZE), -1
    config = CONFIGS[10 * (level - 1) + int(rng.integers(10))]
    board = place_cards(config, rng)
    if generator == "hgss":
        tries = 1
        while not passes_free_test(board, config) and tries < MAX_GENERATION_TRIES:
            board = place_cards(config, rng)
            tries += 1
    return board, config.id


def check_line_clues(kind: str, sums, volts) -> None:
    """Raise ValueError unless each line's (sum, Voltorbs) can hold five cards (kind: row or column)."""
    for i, (s, v) in enumerate(zip(sums, volts, strict=True)):
        s, v = int(s), int(v)
        if not 0 <= v <= SIZE:
            raise ValueError(
                f"no board is consistent with these clues: {kind} {i + 1} has {v} Voltorbs; "
                "a line holds 0 to 5"
            )
        cards = SIZE - v
        if not cards <= s <= 3 * cards:
            raise ValueError(
                f"no board is consistent with these clues: {kind} {i + 1} has sum {s} with "
                f"{v} Voltorbs, but its {cards} other cards sum to between {cards} and "
                f"{3 * cards}"
            )


#: each clue array of :class:`Clues` in words, for its errors
_CLUE_WORDS = {
    "row_sums": "row sums",
    "row_voltorbs": "row Voltorb counts",
    "col_sums": "column sums",
    "col_voltorbs": "column Voltorb counts",
}


@dataclass(frozen=True)
class Clues:
    """Per-line sums and Voltorb counts: rows top to bottom, columns left to right."""

    row_sums: np.ndarray
    row_voltorbs: np.ndarray
    col_sums: np.ndarray
    col_voltorbs: np.ndarray

    def __post_init__(self) -> None:
        for name, words in _CLUE_WORDS.items():
            try:
                arr = np.asarray(getattr(self, name), dtype=np.int64).reshape(-1)
            except OverflowError:
                raise ValueError(
                    f"{words}: a clue is a small whole number (a line's sum is 0-15)"
                ) from None
            if arr.size != SIZE:
                raise ValueError(f"the {words} need {SIZE} numbers, got {arr.size}")
            object.__setattr__(self, name, arr)
        check_line_clues("row", self.row_sums, self.row_voltorbs)
        check_line_clues("column", self.col_sums, self.col_voltorbs)
        if self.row_voltorbs.sum() != self.col_voltorbs.sum():
            raise ValueError(
                "no board is consistent with these clues: the rows hold "
                f"{int(self.row_voltorbs.sum())} Voltorbs but the columns "
                f"{int(self.col_voltorbs.sum())}"
            )
        if self.row_sums.sum() != self.col_sums.sum():
            raise ValueError(
                "no board is consistent with these clues: the row sums add up to "
                f"{int(self.row_sums.sum())} but the column sums to {int(self.col_sums.sum())}"
            )

    @classmethod
    def from_board(cls, board: np.ndarray) -> Clues:
        b = np.asarray(board).reshape(SIZE, SIZE)
        return cls(b.sum(axis=1), (b == 0).sum(axis=1), b.sum(axis=0), (b == 0).sum(axis=0))

    @property
    def voltorbs(self) -> int:
        return int(self.row_voltorbs.sum())

    @property
    def excess(self) -> int:
        """Total of (value - 1) over non-Voltorb cards = #2s + 2 * #3s."""
        return int(self.row_sums.sum()) - (TILES - self.voltorbs)

    def key(self) -> tuple:
        return tuple(
            int(x)
            for x in np.concatenate(
                [self.row_sums, self.row_voltorbs, self.col_sums, self.col_voltorbs]
            )
        )

    def as_text(self) -> tuple[str, str]:
        """(rows, cols) in the CLI's ``"S,V S,V ..."`` form."""
        rows = " ".join(f"{s},{v}" for s, v in zip(self.row_sums, self.row_voltorbs, strict=True))
        cols = " ".join(f"{s},{v}" for s, v in zip(self.col_sums, self.col_voltorbs, strict=True))
        return rows, cols


class ClueError(ValueError):
    """Clues that cannot be read. `field` names the input for a front end: ``rows`` or
    ``cols`` (the five clues), or ``rows.3`` / ``cols.3`` for one line's clue (from 1)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)  # args == (message,): it pickles (a solver process raises it)
        self.field = field


def parse_lines(text: str, what: str, label: str | None = None) -> tuple[list[int], list[int]]:
    """Parse ``"S,V S,V S,V S,V S,V"`` (sum, Voltorbs per line; full-width digits too) into
    two lists. `what` is ``rows`` or ``cols``; errors (:class:`ClueError`) name the line in
    words (``row 3 clue``) and the input in their ``field``; `label` names the five clues
    (default ``row clues`` / ``column clues``).
    """
    kind = "row" if what == "rows" else "column"
    label = label or f"{kind} clues"
    parts = text.replace(";", " ").replace("；", " ").split()
    for i, part in enumerate(parts, 1):
        try:
            parts[i - 1] = typed(part)
        except ValueError as exc:  # the line named, as for any other bad entry
            raise ClueError(f"{kind} {i} clue: {exc}", f"{what}.{i}") from None
    if len(parts) != SIZE:
        raise ClueError(
            f"the {label} need 5 entries 'sum,Voltorbs' separated by spaces, got {text!r}", what
        )
    sums, volts = [], []
    for i, part in enumerate(parts, 1):
        bits = part.split(",")
        if len(bits) != 2 or not all(b.strip().lstrip("-").isdigit() for b in bits):
            raise ClueError(
                f"{kind} {i} clue: each entry must look like '7,2' (sum,Voltorbs), got {part!r}",
                f"{what}.{i}",
            )
        sums.append(int(bits[0]))
        volts.append(int(bits[1]))
    return sums, volts


def clues_from_text(rows: str, cols: str) -> Clues:
    rs, rv = parse_lines(rows, "rows")
    cs, cv = parse_lines(cols, "cols")
    return Clues(np.array(rs), np.array(rv), np.array(cs), np.array(cv))


def parse_revealed(items: list[str] | None) -> dict[int, int]:
    """Parse ``["r,c=v", ...]`` (rows and columns from 1) into {tile: value}."""
    out: dict[int, int] = {}
    for item in items or []:
        for piece in typed(item).replace(";", " ").split():
            try:
                rc, val = piece.split("=")
                r, c = (int(x) for x in rc.split(","))
                v = int(val)
            except ValueError:
                raise ValueError(
                    f"--revealed entries look like 'row,col=value' with rows/cols 1-5, got {piece!r}"
                ) from None
            if not (1 <= r <= SIZE and 1 <= c <= SIZE and 0 <= v <= 3):
                raise ValueError(
                    f"--revealed {piece!r}: rows and columns are 1-5 and values 0-3 (0 = Voltorb)"
                )
            tile = (r - 1) * SIZE + (c - 1)
            if out.get(tile, v) != v:
                raise ValueError(
                    f"--revealed gives tile {r},{c} two values ({out[tile]} and {v}); a tile "
                    "shows one value"
                )
            out[tile] = v
    return out


@dataclass(frozen=True)
class Position:
    """A round as the player sees it: the clues and the tiles revealed so far (``(tile,
    value)`` pairs in the order given; 0 = Voltorb). Parsed once from the text forms the CLI and the
    web take (:meth:`parse`), then passed on; a malformed text is a ValueError (a
    :class:`ClueError` naming the line for a clue).

    >>> p = Position.parse("4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1", ["1,2=3"])
    >>> p.shown
    {1: 3}
    """

    clues: Clues
    revealed: tuple[tuple[int, int], ...] = ()

    @classmethod
    def parse(cls, rows: str, cols: str, revealed: list[str] | None = None) -> Position:
        clues = clues_from_text(rows, cols)
        return cls(clues, tuple(parse_revealed(revealed).items()))

    @property
    def shown(self) -> dict[int, int]:
        """The revealed tiles as {tile: value} (a new dict)."""
        return dict(self.revealed)

    @property
    def lost(self) -> bool:
        """Whether a Voltorb is among the revealed tiles."""
        return any(v == 0 for _, v in self.revealed)


@dataclass(frozen=True)
class RoundRecord:
    """A round as played, for a review: the clues and every flip as ``(tile, value)`` in the
    order played. Parsed once from the text forms (:meth:`parse`)."""

    clues: Clues
    flips: tuple[tuple[int, int], ...]

    @classmethod
    def parse(cls, rows: str, cols: str, flips: list[str]) -> RoundRecord:
        """From clues ``"S,V ..."`` and flips ``["row,col=value", ...]`` in the order played."""
        clues = clues_from_text(rows, cols)
        if not flips:
            raise ValueError("no flips to review: play at least one tile")
        played: list[tuple[int, int]] = []
        for item in flips:
            parsed = parse_revealed([item])
            if len(parsed) != 1:
                raise ValueError(f"each flip is one 'row,col=value', got {item!r}")
            played.extend(parsed.items())
        return cls(clues, tuple(played))


@dataclass
class Round:
    """One round being played: the hidden board, what has been flipped, the coins.

    ``flip`` returns the card; a Voltorb ends the round lost with 0 coins; revealing every 2 and 3
    ends it won with the full payout; ``quit`` keeps the current coins.
    """

    board: np.ndarray
    revealed: dict[int, int] = field(default_factory=dict)
    coins: int = 0
    outcome: str | None = None  # None while playing, else "won", "lost", "quit"
    cards_flipped: int = 0  # non-Voltorb cards, 1s included (drives the level progression)

    def __post_init__(self) -> None:
        self.board = np.asarray(self.board, dtype=np.int8).reshape(SIZE, SIZE)
        self._flat = self.board.reshape(-1)
        self.clues = Clues.from_board(self.board)
        self.multipliers_left = int((self._flat >= 2).sum())
        self.payout = int(np.prod(np.where(self._flat >= 2, self._flat, 1).astype(np.int64)))
        if self.multipliers_left == 0:
            self.outcome = "won"

    def flip(self, tile: int) -> int:
        if self.outcome is not None:
            raise ValueError(f"the round is over ({self.outcome}); no more flips")
        if not 0 <= tile < TILES:
            raise ValueError(f"tile must be 0..24, got {tile}")
        if tile in self.revealed:
            raise ValueError(f"tile {divmod(tile, SIZE)} is already revealed")
        value = int(self._flat[tile])
        self.revealed[tile] = value
        if value == 0:
            self.coins = 0
            self.outcome = "lost"
            return value
        self.cards_flipped += 1
        self.coins = value if self.coins == 0 else min(self.coins * value, 50_000)
        if value >= 2:
            self.multipliers_left -= 1
            if self.multipliers_left == 0:
                self.outcome = "won"
        return value

    def quit(self) -> None:
        if self.outcome is None:
            self.outcome = "quit"


#: rounds in a row that :func:`counts_toward_eight` needs for level 8 (from level 5 or more)
EIGHT_STREAK = 5


def counts_toward_eight(outcome: str, cards_flipped: int) -> bool:
    """A round on the road to level 8: no Voltorb, and at least 8 cards flipped (1s count)."""
    return outcome != "lost" and cards_flipped >= 8


def next_level(level: int, outcome: str, cards_flipped: int, history: list[tuple[str, int]]) -> int:
    """The game's ``CalcNextLevel``: the level of the next round.

    `history` holds (outcome, cards flipped) of the last rounds, the one just played last; only the
    last 5 count (a ring buffer zeroed on entering the minigame, so fewer than 5 never reach 8).
    `level` is a setting's (1-8).
    """
    if outcome == "won" and level == 8:
        return 8
    recent = history[-EIGHT_STREAK:]
    if (
        level >= 5
        and len(recent) == EIGHT_STREAK
        and all(counts_toward_eight(o, n) for o, n in recent)
    ):
        return 8
    if outcome == "won":
        return min(level + 1, 7)
    return max(1, min(level, cards_flipped, 7))
