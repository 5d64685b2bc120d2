"""Owaré's notations: house letters, and the game record that ``oware play`` saves and loads.

Moves are house letters: ``A``-``F`` for South's houses 0-5 and ``a``-``f`` for North's houses
6-11 (offsets 0-5 from each player's left), as OpenSpiel's board and Aualé's notation label them.

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
(see :mod:`gamelab.oware.rules`); ``result`` is written for finished games and checked. A text
that is not such a record (any file with colons) is refused with the line that is wrong, and
every move must be legal where it is played.
"""

from __future__ import annotations

from pathlib import Path

from gamelab.core.files import read_text_file
from gamelab.oware.rules import Position, Rules

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
    t = token.strip()
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


def read_record(path: Path) -> tuple[Position, list[int], dict[str, str]]:
    """:func:`parse_record` of the file `path` (a regular file of at most
    :data:`MAX_RECORD_CHARS` bytes); a ValueError naming `path` otherwise."""
    text = read_text_file(path, "game record", max_bytes=MAX_RECORD_CHARS)
    try:
        return parse_record(text)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
