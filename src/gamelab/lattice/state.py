"""HP lattice folding through the common state protocol (:mod:`gamelab.core.state`).

One player builds a conformation move by move: action ``k`` appends the lattice's ``k``-th move
letter (:data:`gamelab.lattice.rules.MOVES`: ``R U L D`` on the square lattice, then ``F B`` on
the cubic one) and is legal while the new residue's site is free (self-avoidance, as
:func:`gamelab.lattice.rules.parse_conformation` checks). No chance. The fold ends when every
residue is placed (return: its HH contacts, :func:`gamelab.lattice.rules.hh_score`) or when the
chain is trapped before that (return :data:`TRAPPED`, below any complete fold's score).

>>> g = LatticeGame("HPPHPPH"); s = g.new_initial_state()
>>> for a in (0, 1, 2, 2, 3, 3): s.apply(a)
>>> s.to_text(), s.returns()
('HPPHPPH square RULLDD', [1.0])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamelab.core.state import TERMINAL, illegal
from gamelab.lattice.rules import (
    MOVES,
    Chain,
    Lattice,
    coordinates,
    parse_conformation,
)

#: The return of a chain trapped before its last residue.
TRAPPED = -1.0


@dataclass(frozen=True)
class LatticeGame:
    """Folding `sequence` (a chain of at least 2 residues) on `lattice` ("square" or "cubic").
    Text is parsed (:class:`gamelab.lattice.rules.Chain`) and a chain taken as it is, as the
    lattice's name or value; a shell's settings (a sequence or a pack level) name their game
    through :func:`gamelab.lattice.puzzle.lattice_game`."""

    sequence: Chain
    lattice: Lattice = Lattice.SQUARE
    name: str = field(default="lattice", init=False)
    num_players: int = field(default=1, init=False)
    num_chance_outcomes: int = field(default=0, init=False)
    zero_sum: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sequence", Chain(self.sequence, min_length=2))
        object.__setattr__(self, "lattice", Lattice(self.lattice))

    @property
    def num_actions(self) -> int:
        return len(MOVES[self.lattice])

    @property
    def length(self) -> int:
        return len(self.sequence)

    def new_initial_state(self) -> LatticeState:
        return LatticeState(self, "")

    def state_from_text(self, text: str) -> LatticeState:
        """Parse ``SEQUENCE LATTICE MOVES`` (:meth:`LatticeState.to_text`; ``-`` for no move)."""
        parts = text.split()
        if len(parts) != 3 or parts[0] != self.sequence or parts[1] != self.lattice:
            raise ValueError(
                f"a state of this game reads '{self.sequence} {self.lattice} MOVES', got {text!r}"
            )
        conf = "" if parts[2] == "-" else parse_conformation(parts[2], self.lattice)
        if len(conf) > self.length - 1:
            raise ValueError(f"{conf!r} has more moves than a chain of {self.length} allows")
        return self.state_after(conf)

    def state_after(self, moves: str) -> LatticeState:
        """The state reached by playing `moves` (a parsed conformation, at most L - 1 letters of
        this lattice) one action at a time, as every shell moves: the pages' puzzle too."""
        state = LatticeState(self, "")
        for letter in moves:
            state.apply(MOVES[self.lattice].index(letter))
        return state


#: the unit step of each move letter, per lattice
_STEPS = {lattice: [coordinates(m, lattice)[1] for m in lattice.moves] for lattice in Lattice}


class LatticeState:
    """The moves made so far (a self-avoiding prefix of a conformation)."""

    __slots__ = ("game", "conformation", "_sites", "_taken")

    def __init__(self, game: LatticeGame, conformation: str) -> None:
        self.game = game
        self.conformation = conformation
        self._sites = coordinates(conformation, game.lattice)
        self._taken = set(self._sites)

    def _free_moves(self) -> list[int]:
        x, y, z = self._sites[-1]
        taken = self._taken
        return [
            k
            for k, (dx, dy, dz) in enumerate(_STEPS[self.game.lattice])
            if (x + dx, y + dy, z + dz) not in taken
        ]

    def complete(self) -> bool:
        return len(self.conformation) == self.game.length - 1

    @property
    def sites(self) -> list[tuple[int, int, int]]:
        """The site of every residue placed so far (residue 0 at the origin)."""
        return list(self._sites)

    def contacts(self) -> list[tuple[int, int]]:
        """The HH contacts (i, j), i < j - 1, among the residues placed so far, sorted: a
        complete fold's are :func:`gamelab.lattice.rules.hh_contacts`."""
        where = {site: k for k, site in enumerate(self._sites)}
        seq = self.game.sequence
        found = []
        for j, (x, y, z) in enumerate(self._sites):
            if seq[j] != "H":
                continue
            for dx, dy, dz in _STEPS[self.game.lattice]:
                i = where.get((x + dx, y + dy, z + dz))
                if i is not None and i < j - 1 and seq[i] == "H":
                    found.append((i, j))
        return sorted(found)

    def is_terminal(self) -> bool:
        return self.complete() or not self._free_moves()

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else 0

    def legal_actions(self) -> list[int]:
        return [] if self.complete() else self._free_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def apply(self, action: int) -> None:
        legal = self.legal_actions()
        if action not in legal:
            raise illegal(action, legal, f"the fold {self.to_text()!r}")
        x, y, z = self._sites[-1]
        dx, dy, dz = _STEPS[self.game.lattice][int(action)]
        site = (x + dx, y + dy, z + dz)
        self.conformation += MOVES[self.game.lattice][int(action)]
        self._sites.append(site)  # this state's own list (a clone makes its own)
        self._taken.add(site)

    def returns(self) -> list[float]:
        if self.complete():
            return [float(len(self.contacts()))]
        return [TRAPPED] if self.is_terminal() else [0.0]

    def clone(self) -> LatticeState:
        return LatticeState(self.game, self.conformation)

    def _repr_svg_(self) -> str:
        """The chain folded so far in a notebook (:mod:`gamelab.lattice.pictures`)."""
        from gamelab.lattice.pictures import fold_svg

        placed = self.game.sequence[: len(self._sites)]
        return fold_svg(placed, self._sites, f"{len(self._sites)} of {self.game.length} placed")

    def to_text(self) -> str:
        return f"{self.game.sequence} {self.game.lattice} {self.conformation or '-'}"

    def action_to_string(self, action: int) -> str:
        return MOVES[self.game.lattice][int(action)]
