"""Oware Abapa as OpenSpiel's ``oware`` and the Aualé (Aalina) engine play it.

Houses 0-5 belong to the first player (South, moves first), 6-11 to the second (North); seeds are
sown toward higher indices, skipping the house they came from. A move is the house offset 0-5
within the mover's row. The last seed landing in an opponent house that then holds 2 or 3
captures it, and the capture chains backwards over the opponent's houses holding 2 or 3. A grand
slam (capturing every opponent seed) is legal but captures nothing. If the opponent's row is empty
the mover must sow into it; if no move can, the game ends and each side takes the seeds on its
own row. The first repetition of (houses, side to move) since the last capture also ends the game
that way. More than 24 seeds wins; 24-24 is a draw. When the game ends the board is collected
into the stores (as OpenSpiel does), so the final stores always total 48.

Variants (for comparison with the Awari rules of Romein & Bal): ``grand_slam`` =
``"no-capture"`` (Abapa), ``"forbidden"`` (illegal unless every move is one; then it captures) or
``"capture-all"``; ``cycle`` = ``"own-row"`` (Abapa: first repetition, each keeps its row) or
``"split"`` (third occurrence, the board seeds are split evenly; the odd seed, which Awari halves,
goes to the side to move).

Text form: the 12 houses, the two stores and the side to move (``S`` = player 0, ``N`` = 1),
dash-separated, as Aalina writes positions::

    >>> Position.initial().to_text()
    '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S'
    >>> Position.initial().play(2).houses
    (4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4)

Moves are house letters: ``A``-``F`` for South's houses 0-5 and ``a``-``f`` for North's houses
6-11 (offsets 0-5 from each player's left), as OpenSpiel's board and Aualé's notation label them
(:func:`move_letter`, :func:`parse_move`).

Game record format (plain text, one ``key: value`` line each, ``#`` starts a comment)::

    # gamelab oware record v1
    rules: grand-slam=no-capture cycle=own-row
    start: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S
    south: human
    north: engine:time=1
    moves: C f A b E
    result: 25-23

The first line is the header; then each key at most once (``moves`` is required, ``rules`` and
``start`` default to Abapa from the initial position). ``start`` is the position's text form
(above); ``result`` is written for finished games and checked. A text
that is not such a record (any file with colons) is refused with the line that is wrong, and
every move must be legal where it is played.

This module is the readable twin of the move kernels in :mod:`gamelab.oware._move_kernels`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from gamelab.core.typed import typed

SEEDS = 48
HOUSES = 12
#: The endgame tablebase the engine, the page and the oracle use by default: boards of at most
#: 12 seeds (Aalina's EGTBSolver ships the same size; 2.7 MB, built in seconds, then cached).
#: Defined here, with the game's other numbers, so a shell can name it without loading numba.
TABLEBASE_SEEDS = 12
GRAND_SLAM_RULES = ("no-capture", "forbidden", "capture-all")
CYCLE_RULES = ("own-row", "split")
START_TEXT = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"


@dataclass(frozen=True)
class Rules:
    """Which variant is played (default: Abapa as OpenSpiel/Aualé)."""

    grand_slam: str = "no-capture"
    cycle: str = "own-row"

    def __post_init__(self) -> None:
        if self.grand_slam not in GRAND_SLAM_RULES:
            raise ValueError(
                f"grand slam rule must be one of {', '.join(GRAND_SLAM_RULES)}, got {self.grand_slam!r}"
            )
        if self.cycle not in CYCLE_RULES:
            raise ValueError(
                f"cycle rule must be one of {', '.join(CYCLE_RULES)}, got {self.cycle!r}"
            )

    @property
    def gs_code(self) -> int:
        """The grand-slam code used by the numba kernels."""
        return GRAND_SLAM_RULES.index(self.grand_slam)

    @property
    def is_abapa(self) -> bool:
        return self == ABAPA


ABAPA = Rules()


def sow(houses: list[int], side: int, offset: int) -> int:
    """Sow the seeds of the mover's house `offset` in place; return the last house sown."""
    start = 6 * side + offset
    seeds = houses[start]
    houses[start] = 0
    i = start
    while seeds:
        i = (i + 1) % HOUSES
        if i != start:
            houses[i] += 1
            seeds -= 1
    return i


def capture_run(houses: list[int], side: int, last: int) -> list[int]:
    """The opponent houses captured when the last seed landed in `last` (before the slam rule)."""
    lo = 6 * (1 - side)
    run = []
    i = last
    while lo <= i < lo + 6 and houses[i] in (2, 3):
        run.append(i)
        i -= 1
    return run


def apply_move(houses: list[int], stores: list[int], side: int, offset: int, rules: Rules) -> int:
    """Play a move in place on plain lists; return the seeds captured."""
    last = sow(houses, side, offset)
    run = capture_run(houses, side, last)
    if not run:
        return 0
    captured = sum(houses[i] for i in run)
    opp_total = sum(houses[6 * (1 - side) : 6 * (1 - side) + 6])
    if captured == opp_total and rules.grand_slam == "no-capture":
        return 0
    for i in run:
        houses[i] = 0
    stores[side] += captured
    return captured


def is_grand_slam(houses: tuple[int, ...], side: int, offset: int) -> bool:
    board = list(houses)
    last = sow(board, side, offset)
    run = capture_run(board, side, last)
    return bool(run) and sum(board[i] for i in run) == sum(
        board[6 * (1 - side) : 6 * (1 - side) + 6]
    )


def legal_offsets(houses: tuple[int, ...], side: int, rules: Rules = ABAPA) -> list[int]:
    """Legal house offsets for `side` (feeding obligation and grand-slam rule applied)."""
    own = houses[6 * side : 6 * side + 6]
    opp_empty = sum(houses[6 * (1 - side) : 6 * (1 - side) + 6]) == 0
    moves = [o for o in range(6) if own[o] > 0 and (not opp_empty or own[o] > 5 - o)]
    if rules.grand_slam == "forbidden":
        ordinary = [o for o in moves if not is_grand_slam(houses, side, o)]
        if ordinary:
            moves = ordinary
    return moves


def parse_side(token: str) -> int:
    t = token.strip().upper()
    if t in ("S", "0"):
        return 0
    if t in ("N", "1"):
        return 1
    raise ValueError(
        f"side to move must be S (first player, 0) or N (second player, 1), got {token!r}"
    )


#: Why a game ends: a side holds more than half the seeds (or both half); a position came back
#: without a capture (the cycle rule); the side to move cannot move.
END_REASONS = ("score", "repetition", "no moves")


@dataclass(frozen=True)
class Outcome:
    """How a game ended (:meth:`Position.outcome`), like python-chess's ``Board.outcome()``."""

    reason: str  # one of END_REASONS
    result: tuple[int, int]  # the final stores, the seeds left on the board assigned
    board: tuple[int, ...]  # the houses before the seeds left were assigned
    stores: tuple[int, int]  # the stores then


@dataclass(frozen=True)
class Position:
    """An Oware position plus what the repetition rule needs (boards seen since the last capture).

    Immutable: :meth:`play` returns a new position."""

    houses: tuple[int, ...]
    stores: tuple[int, int] = (0, 0)
    to_move: int = 0
    rules: Rules = ABAPA
    history: tuple[tuple[tuple[int, ...], int], ...] = field(default=(), compare=False, repr=False)
    ended: bool = False
    #: how an ended game ended: the reason, the board and the stores before the seeds left on
    #: the board were assigned (set by :meth:`play`; see :meth:`outcome`)
    ending: tuple[str, tuple[int, ...], tuple[int, int]] | None = field(
        default=None, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        houses = tuple(int(x) for x in self.houses)
        stores = tuple(int(x) for x in self.stores)
        if len(houses) != HOUSES:
            raise ValueError(f"a position has 12 houses, got {len(houses)}")
        if len(stores) != 2:
            raise ValueError(f"a position has 2 stores, got {len(stores)}")
        if min(houses) < 0 or min(stores) < 0:
            raise ValueError(f"seed counts cannot be negative: houses {houses}, stores {stores}")
        total = sum(houses) + sum(stores)
        if total != SEEDS:
            raise ValueError(f"houses and stores must hold 48 seeds in total, got {total}")
        if self.to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1, got {self.to_move!r}")
        if not isinstance(self.rules, Rules):
            raise ValueError("rules must be a gamelab.oware.rules.Rules")
        object.__setattr__(self, "houses", houses)
        object.__setattr__(self, "stores", stores)
        if not self.history:
            object.__setattr__(self, "history", ((houses, self.to_move),))

    # ------------------------------------------------------------------ construction

    @classmethod
    def initial(cls, rules: Rules = ABAPA) -> Position:
        return cls(houses=(4,) * HOUSES, stores=(0, 0), to_move=0, rules=rules)

    @classmethod
    def from_text(cls, text: str, rules: Rules = ABAPA) -> Position:
        """Parse ``h0-…-h11-s0-s1-S|N`` (or ``start``); spaces or commas may replace dashes."""
        t = text.strip()
        if t.lower() == "start":
            return cls.initial(rules)
        # a dash after a digit or letter separates fields; any other dash is a minus sign
        tokens = re.sub(r"(?<=\w)-", " ", t).replace(",", " ").replace("|", " ").split()
        if len(tokens) != 15:
            raise ValueError(
                f"a position is 12 houses, 2 stores and the side to move (e.g. {START_TEXT}), "
                f"got {len(tokens)} fields in {text!r}"
            )
        try:
            numbers = [int(x) for x in tokens[:14]]
        except ValueError:
            raise ValueError(f"houses and stores must be whole numbers, got {text!r}") from None
        return cls(
            houses=tuple(numbers[:12]),
            stores=(numbers[12], numbers[13]),
            to_move=parse_side(tokens[14]),
            rules=rules,
        )

    def to_text(self) -> str:
        return "-".join(str(x) for x in (*self.houses, *self.stores)) + "-" + "SN"[self.to_move]

    def __str__(self) -> str:
        return self.to_text()

    # ------------------------------------------------------------------ rules

    def legal_moves(self) -> list[int]:
        """Legal house offsets (0-5 within the mover's row); empty when the game is over."""
        if self.ended or self.score_decided():
            return []
        return legal_offsets(self.houses, self.to_move, self.rules)

    def score_decided(self) -> bool:
        s0, s1 = self.stores
        return s0 > SEEDS // 2 or s1 > SEEDS // 2 or s0 == s1 == SEEDS // 2

    def is_over(self) -> bool:
        return self.ended or self.score_decided() or not self.legal_moves()

    def result(self) -> tuple[int, int]:
        """Final stores (each side takes the seeds left on its own row); only when over."""
        if not self.is_over():
            raise ValueError(f"the game is not over in {self.to_text()}")
        return (self.stores[0] + sum(self.houses[:6]), self.stores[1] + sum(self.houses[6:]))

    def winner(self) -> int | None:
        """0 or 1 for the winner of an ended game, None for a draw."""
        a, b = self.result()
        return None if a == b else (0 if a > b else 1)

    def seeds_on_board(self) -> int:
        return sum(self.houses)

    def play(self, move: int) -> Position:
        """The position after the mover sows house offset `move` (0-5)."""
        legal = self.legal_moves()
        if move not in legal:
            if self.is_over():
                raise ValueError(f"the game is over in {self.to_text()}; no move can be played")
            raise ValueError(
                f"move {move!r} is not legal in {self.to_text()}; legal moves: {legal}"
            )
        houses = list(self.houses)
        stores = list(self.stores)
        captured = apply_move(houses, stores, self.to_move, move, self.rules)
        nxt = 1 - self.to_move
        key = (tuple(houses), nxt)
        history = (key,) if captured else (*self.history, key)
        child = Position(tuple(houses), (stores[0], stores[1]), nxt, self.rules, history)
        if not captured:
            seen = self.history.count(key)
            if self.rules.cycle == "own-row" and seen >= 1:
                return child._collected("repetition")
            if self.rules.cycle == "split" and seen >= 2:
                return child._split()
        if child.score_decided():
            return child._collected("score")
        if not child.legal_moves():
            return child._collected("no moves")
        return child

    def outcome(self) -> Outcome | None:
        """Why and how the game ended (None while it goes on): the reason, the final stores, and
        the board and stores before the rule assigned the seeds left on the board.

        >>> p = Position((0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0), (23, 24), 0).play(5)
        >>> p.outcome()
        Outcome(reason='no moves', result=(23, 25), board=(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0), stores=(23, 24))
        """
        if not self.is_over():
            return None
        if self.ending is not None:
            reason, board, stores = self.ending
        else:  # a position given already over (not reached by a move)
            reason = "score" if self.score_decided() else "no moves"
            board, stores = self.houses, (self.stores[0], self.stores[1])
        return Outcome(reason, self.result(), board, stores)

    def _ended(self, stores: tuple[int, int], reason: str) -> Position:
        ending = (reason, self.houses, (self.stores[0], self.stores[1]))
        return Position((0,) * HOUSES, stores, self.to_move, self.rules, self.history, True, ending)

    def _collected(self, reason: str) -> Position:
        a, b = self.stores[0] + sum(self.houses[:6]), self.stores[1] + sum(self.houses[6:])
        return self._ended((a, b), reason)

    def _split(self) -> Position:
        n = sum(self.houses)
        half = n // 2
        stores = [self.stores[0] + half, self.stores[1] + half]
        stores[self.to_move] += n - 2 * half
        return self._ended((stores[0], stores[1]), "repetition")

    # ------------------------------------------------------------------ display

    def draw(self, labels: bool = True) -> str:
        """A two-row board: North's houses (f..a, 11..6) on top, South's (A..F, 0..5) below."""
        top = " ".join(f"{x:>2}" for x in reversed(self.houses[6:]))
        bottom = " ".join(f"{x:>2}" for x in self.houses[:6])
        mover = "South (S, player 0)" if self.to_move == 0 else "North (N, player 1)"
        lines = []
        if labels:
            lines.append("        f  e  d  c  b  a")
        lines.append(f"  N {self.stores[1]:>2} [{top}]")
        lines.append(f"  S {self.stores[0]:>2} [{bottom}]")
        if labels:
            lines.append("        A  B  C  D  E  F")
        lines.append(
            f"  to move: {mover}" if not self.is_over() else f"  game over: {self.result()}"
        )
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# notation: house letters, moves and the game record (the one parser of each)

HEADER = "# gamelab oware record v1"
#: The lines a record may have, in the order they are written.
KEYS = ("rules", "start", "south", "north", "moves", "result")
#: Longest record read (the web API's limit too): a game of the longest allowed length is far
#: shorter (a move is two characters).
MAX_RECORD_CHARS = 50_000
_SIDES = ("South", "North")


def move_letter(side: int, offset: int) -> str:
    """A house letter: ``A``-``F`` for South's houses 0-5, ``a``-``f`` for North's 6-11."""
    return ("ABCDEF" if side == 0 else "abcdef")[offset]


def parse_move(token: str, position: Position, digits: bool = True) -> int:
    """The house offset of a move typed as a letter (A-F South, a-f North) or, with `digits`, a
    digit 1-6 (the mover's houses, as the terminal game accepts); a ValueError says why a move
    cannot be played (whose move it is, an empty house, the feeding or grand-slam rule). The one
    move parser of every shell (records, the terminal game, the page).

    >>> parse_move("C", Position.initial()), parse_move("3", Position.initial())
    (2, 2)
    """
    t = typed(token).strip()
    side = _SIDES[position.to_move]
    own = "ABCDEF" if position.to_move == 0 else "abcdef"
    if position.is_over():
        a, b = position.result()
        raise ValueError(f"the game is over ({a}-{b}); no move can be played")
    if digits and len(t) == 1 and t in "123456":
        t = own[int(t) - 1]
    if len(t) != 1 or t not in "ABCDEFabcdef":
        also = " or 1-6 (your houses)" if digits else ""
        raise ValueError(
            f"a move is a house letter (A-F for South, a-f for North){also}; "
            f"{_quote(token)} is not a house"
        )
    if t not in own:
        raise ValueError(
            f"{t} is a {_SIDES[1 - position.to_move]} house, but it is {side}'s move: play one "
            f"of {own[0]}-{own[-1]} ({side}'s houses)"
        )
    offset = own.index(t)
    if position.houses[offset + 6 * position.to_move] == 0:
        raise ValueError(f"house {t} is empty")
    if offset not in position.legal_moves():
        theirs = position.houses[6:] if position.to_move == 0 else position.houses[:6]
        if sum(theirs) == 0:
            other = _SIDES[1 - position.to_move]
            raise ValueError(
                f"{other} has no seeds left: a move must sow into {other}'s row "
                f"(the feeding rule), and house {t} does not reach it"
            )
        raise ValueError(
            f"house {t} would capture every seed of the opponent (a grand slam), "
            f"which the {position.rules.grand_slam} rule forbids while another move exists"
        )
    return offset


def format_record(start: Position, moves: list[int], south: str = "?", north: str = "?") -> str:
    p = start
    letters = []
    for m in moves:
        letters.append(move_letter(p.to_move, m))
        p = p.play(m)
    lines = [
        HEADER,
        f"rules: grand-slam={start.rules.grand_slam} cycle={start.rules.cycle}",
        f"start: {start.to_text()}",
        f"south: {south}",
        f"north: {north}",
        f"moves: {' '.join(letters)}",
    ]
    if p.is_over():
        lines.append("result: {}-{}".format(*p.result()))
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= 60 else text[:50] + "…")


def parse_record(text: str) -> tuple[Position, list[int], dict[str, str]]:
    """(start position, moves as offsets, headers); a ValueError naming the wrong line otherwise."""
    if len(text) > MAX_RECORD_CHARS:
        raise ValueError(
            f"a game record is at most {MAX_RECORD_CHARS:,} characters, got {len(text):,}"
        )
    lines = text.splitlines()
    first = next((n for n, raw in enumerate(lines, 1) if raw.strip()), None)
    if first is None:
        raise ValueError(f"the game record is empty; a record starts with {HEADER!r}")
    if lines[first - 1].strip() != HEADER:
        raise ValueError(
            f"not a game record: line {first} is {_quote(lines[first - 1])}, "
            f"a record starts with {HEADER!r}"
        )
    headers: dict[str, str] = {}
    line_of: dict[str, int] = {}
    for number, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep or key not in KEYS:
            raise ValueError(
                f"record line {number} is {_quote(raw)}; a record's lines are "
                + ", ".join(f"'{k}: …'" for k in KEYS)
            )
        if key in headers:
            raise ValueError(f"record line {number}: a second '{key}:' line")
        headers[key], line_of[key] = value.strip(), number
    if "moves" not in headers:
        raise ValueError("the game record has no 'moves:' line")
    rules_kw = {}
    for item in headers.get("rules", "").split():
        k, _, v = item.partition("=")
        if k not in ("grand-slam", "cycle"):
            raise ValueError(
                f"record line {line_of['rules']}: unknown rule {_quote(k)}; "
                "the rules are grand-slam=... cycle=..."
            )
        rules_kw["grand_slam" if k == "grand-slam" else "cycle"] = v
    try:
        rules = Rules(**rules_kw)
    except ValueError as exc:
        raise ValueError(f"record line {line_of['rules']}: {exc}") from None
    try:
        start = Position.from_text(headers.get("start", "start"), rules)
    except ValueError as exc:
        raise ValueError(f"record line {line_of['start']}: {exc}") from None
    p, moves = start, []
    for i, token in enumerate(headers["moves"].split(), 1):
        try:
            m = parse_move(token, p)
        except ValueError as exc:
            raise ValueError(
                f"record line {line_of['moves']}, record move {i} ({_quote(token)}): {exc}"
            ) from None
        moves.append(m)
        p = p.play(m)
    if "result" in headers:
        if not p.is_over() or "{}-{}".format(*p.result()) != headers["result"]:
            raise ValueError(
                f"record line {line_of['result']}: record result {_quote(headers['result'])} "
                "does not match its moves"
            )
    return start, moves, headers


def perft(position: Position, depth: int) -> int:
    """Move sequences of length `depth` from `position` (plain Python, with the repetition rule)."""
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.play(m), depth - 1) for m in moves)


def random_positions(count: int, seed: int, max_plies: int = 30) -> list[Position]:
    """`count` unfinished positions reached by 0..max_plies-1 random legal moves (seeded)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    out: list[Position] = []
    while len(out) < count:
        p = Position.initial()
        for _ in range(int(rng.integers(0, max_plies))):
            if p.is_over():
                break
            p = p.play(int(rng.choice(p.legal_moves())))
        if not p.is_over():
            out.append(Position(p.houses, p.stores, p.to_move))
    return out
