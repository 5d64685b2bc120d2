"""The HP lattice protein model: sequences, conformations, self-avoidance and HH contacts.

A *sequence* is a string over ``H`` (hydrophobic) and ``P`` (polar). A *conformation* of a chain
of L residues is a string of L - 1 moves, one per bond, on the 2D square lattice (``R L U D``) or
the 3D cubic lattice (``R L U D F B``, with ``F``/``B`` = +z/-z). It is valid when the walk never
visits a site twice (self-avoiding). The score of a sequence in a conformation is the number of
*HH contacts*: pairs of H residues on neighbouring sites that are not consecutive in the chain
(Lau & Dill's HP model; the game of the seed paper counts them as the player's score).

>>> contacts("RULU", "square")     # 5 residues, a U-turn brings 0 and 3 together
[(0, 3)]
>>> hh_score("HPPHP", "RULU")
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamelab.core.choices import NamedChoice

#: The lattices and the move letters each allows, in the order the enumerator uses.
MOVES = {"square": "RULD", "cubic": "RULDFB"}
_VECTORS = {
    "R": (1, 0, 0),
    "L": (-1, 0, 0),
    "U": (0, 1, 0),
    "D": (0, -1, 0),
    "F": (0, 0, 1),
    "B": (0, 0, -1),
}
_OPPOSITE = {"R": "L", "L": "R", "U": "D", "D": "U", "F": "B", "B": "F"}
LATTICES = tuple(MOVES)


class Lattice(NamedChoice, noun="lattice"):
    """The lattice a chain folds on, by its name (``LATTICES``): the lattice's setting, parsed
    once by a shell (``Lattice("cubic")``; an unknown name is a ValueError listing the allowed
    ones) and passed on. A member is its name as a string (JSON, keys, comparisons).

    >>> Lattice("cubic").dimensions, Lattice("square").moves
    (3, 'RULD')
    """

    SQUARE = "square"
    CUBIC = "cubic"

    @property
    def moves(self) -> str:
        """The move letters, in the order the enumerator uses."""
        return MOVES[self]

    @property
    def dimensions(self) -> int:
        """2 for the square lattice, 3 for the cubic one."""
        return 2 if self is Lattice.SQUARE else 3


def dimensions(lattice: Lattice) -> int:
    """2 for the square lattice, 3 for the cubic one."""
    return 2 if lattice == Lattice.SQUARE else 3


class Chain(str):
    """An HP chain: its residues as the letters H and P, parsed and validated once, where the
    text comes in (a command's argument, a request, a pack's row; :func:`parse_sequence`; a
    benchmark's name by :func:`gamelab.lattice.instances.parse_chain`), then passed on as a
    value that nothing checks again. Like a :class:`Lattice`, a chain is its notation as a
    string (JSON, keys, comparisons, slicing), so code that reads its letters reads them as
    before; ``name`` is the benchmark it was named by (``S1-4`` for ``S1-36``), if any.

    ``Chain(text)`` parses text (case-insensitive, surrounding spaces ignored) and refuses
    anything but H and P, or fewer than `min_length` residues; a chain is taken as it is.

    >>> c = Chain(" hpph "); c, c.length, c.notation, c.name
    ('HPPH', 4, 'HPPH', None)
    >>> Chain("HPX")
    Traceback (most recent call last):
    ...
    ValueError: sequence 'HPX' contains 'X'; only H and P are allowed
    """

    name: str | None

    def __new__(cls, text: str, *, min_length: int = 1, name: str | None = None) -> Chain:
        if isinstance(text, Chain) and name is None:
            return at_least(text, min_length)
        seq = str(text).strip().upper()
        bad = sorted({c for c in seq if c not in "HP"})
        if bad:
            raise ValueError(
                f"sequence {text!r} contains {', '.join(repr(c) for c in bad)}; only H and P "
                "are allowed"
            )
        if len(seq) < min_length:
            raise ValueError(
                f"sequence {text!r} has length {len(seq)}; at least {min_length} needed"
            )
        chain = super().__new__(cls, seq)
        chain.name = name
        return chain

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:  # pickling: as made
        return (str(self),), {"name": self.name}

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """A chain in a web API's models: a string, parsed by :class:`Chain` when read."""
        from pydantic_core import core_schema

        return core_schema.no_info_after_validator_function(cls, core_schema.str_schema())

    @property
    def length(self) -> int:
        """The number of residues."""
        return len(self)

    @property
    def notation(self) -> str:
        """The chain written as its H and P letters (a plain string)."""
        return str(self)


def at_least(chain: Chain, min_length: int) -> Chain:
    """`chain` itself if it has at least `min_length` residues (what an algorithm needs), else
    the ValueError a parser gives for a chain that short."""
    if len(chain) < min_length:
        raise ValueError(
            f"sequence {str(chain)!r} has length {len(chain)}; at least {min_length} needed"
        )
    return chain


def parse_sequence(text: str, *, min_length: int = 1) -> Chain:
    """An HP chain from text (case-insensitive, surrounding spaces ignored), validated: the
    shells' parser (:class:`Chain`).

    >>> parse_sequence(" hpph ")
    'HPPH'
    """
    return Chain(text, min_length=min_length)


def coordinates(conformation: str, lattice: Lattice = Lattice.SQUARE) -> list[tuple[int, int, int]]:
    """The site of every residue (residue 0 at the origin); raises ValueError on a bad letter.

    Does not check self-avoidance (see :func:`parse_conformation`).
    """
    allowed = MOVES[lattice]
    x = y = z = 0
    sites = [(0, 0, 0)]
    for k, move in enumerate(conformation):
        if move not in allowed:
            raise ValueError(
                f"move {move!r} at position {k} of {conformation!r} is not a {lattice} lattice move; "
                f"allowed: {', '.join(allowed)}"
            )
        dx, dy, dz = _VECTORS[move]
        x, y, z = x + dx, y + dy, z + dz
        sites.append((x, y, z))
    return sites


def is_self_avoiding(conformation: str, lattice: Lattice = Lattice.SQUARE) -> bool:
    """Whether the walk visits every site at most once."""
    sites = coordinates(conformation, lattice)
    return len(set(sites)) == len(sites)


def parse_conformation(
    text: str, lattice: Lattice = Lattice.SQUARE, length: int | None = None
) -> str:
    """A validated conformation (upper-cased): lattice moves only, self-avoiding, and L - 1 moves
    long when the chain `length` L is given.

    >>> parse_conformation("ruld")
    Traceback (most recent call last):
    ...
    ValueError: conformation 'RULD' is not self-avoiding: residue 4 lands on the site of residue 0
    """
    conf = text.strip().upper()
    if length is not None and len(conf) != length - 1:
        raise ValueError(
            f"conformation {conf!r} has {len(conf)} moves; a chain of {length} residues needs {length - 1}"
        )
    sites = coordinates(conf, lattice)
    seen: dict[tuple[int, int, int], int] = {}
    for k, site in enumerate(sites):
        if site in seen:
            raise ValueError(
                f"conformation {conf!r} is not self-avoiding: residue {k} lands on the site of "
                f"residue {seen[site]}"
            )
        seen[site] = k
    return conf


def contacts(conformation: str, lattice: Lattice = Lattice.SQUARE) -> list[tuple[int, int]]:
    """All topological contacts (i, j), i < j - 1, of a valid conformation, sorted."""
    conf = parse_conformation(conformation, lattice)
    sites = coordinates(conf, lattice)
    where = {site: k for k, site in enumerate(sites)}
    found = []
    for j, (x, y, z) in enumerate(sites):
        for dx, dy, dz in (_VECTORS[m] for m in MOVES[lattice]):
            i = where.get((x + dx, y + dy, z + dz))
            if i is not None and i < j - 1:
                found.append((i, j))
    return sorted(found)


def hh_contacts(
    sequence: str, conformation: str, lattice: Lattice = Lattice.SQUARE
) -> list[tuple[int, int]]:
    """The contacts whose two residues are both H (`sequence`: a :class:`Chain`, or its first
    residues)."""
    seq = sequence
    conf = parse_conformation(conformation, lattice, length=len(seq))
    return [(i, j) for i, j in contacts(conf, lattice) if seq[i] == "H" and seq[j] == "H"]


def hh_score(sequence: str, conformation: str, lattice: Lattice = Lattice.SQUARE) -> int:
    """The player's score: the number of HH contacts."""
    return len(hh_contacts(sequence, conformation, lattice))


def reverse_move(move: str) -> str:
    return _OPPOSITE[move]


@dataclass(frozen=True)
class Fold:
    """A sequence in a conformation on a lattice, validated at construction.

    >>> Fold("HPPHP", "RULU").score
    1
    """

    sequence: Chain
    conformation: str
    lattice: Lattice = Lattice.SQUARE

    def __post_init__(self) -> None:
        object.__setattr__(self, "lattice", Lattice(self.lattice))
        seq = Chain(self.sequence)  # a chain as it is; text parsed
        object.__setattr__(self, "sequence", seq)
        object.__setattr__(
            self, "conformation", parse_conformation(self.conformation, self.lattice, len(seq))
        )

    @property
    def score(self) -> int:
        return hh_score(self.sequence, self.conformation, self.lattice)

    @property
    def sites(self) -> list[tuple[int, int, int]]:
        return coordinates(self.conformation, self.lattice)

    def __str__(self) -> str:
        return f"{self.sequence} {self.conformation or '-'} ({self.lattice}, {self.score} HH)"
