"""Exact move values of a partial fold (:mod:`gamelab.core.oracle`): the most HH contacts a
complete fold can still reach from it (:func:`gamelab.lattice.completion.best_completion`,
bounded by the sequence's best score over all folds from the exact enumeration,
:func:`gamelab.lattice.enumeration.histogram`); a move after which the chain is always trapped
is worth :data:`gamelab.lattice.state.TRAPPED`.

Each search is one kernel call (:func:`gamelab.lattice._completion_kernels.completion_search`),
and the value of every fold prefix met is memoised (up to :data:`MEMO_ENTRIES`, then the memo
starts again): a move's value is the value of the state it leads to, so the next step's value
is a lookup, and the short prefixes every episode starts with are searched once.
"""

from __future__ import annotations

from functools import cached_property

from gamelab.lattice.completion import best_completion
from gamelab.lattice.enumeration import histogram
from gamelab.lattice.rules import MOVES
from gamelab.lattice.state import TRAPPED, LatticeGame, LatticeState

#: prefix values the oracle keeps before its memo starts again
MEMO_ENTRIES = 1_000_000


class LatticeOracle:
    """Best reachable score of every move."""

    def __init__(self, game: LatticeGame) -> None:
        self.game = game
        self._memo: dict[str, float] = {}

    @cached_property
    def best(self) -> int:
        """The sequence's best score over all folds (the value of the empty fold)."""
        return len(histogram(self.game.sequence, self.game.lattice)) - 1

    def _value_of(self, conformation: str) -> float:
        hit = self._memo.get(conformation)
        if hit is None:
            if len(conformation) <= 1:
                hit = float(self.best)  # every first move is the same fold turned
            else:
                found = best_completion(
                    self.game.sequence, conformation, self.game.lattice, cap=self.best
                )
                hit = TRAPPED if found is None else float(found)
            if len(self._memo) >= MEMO_ENTRIES:
                self._memo.clear()
            self._memo[conformation] = hit
        return hit

    def value(self, state: LatticeState) -> float:
        return self._value_of(state.conformation)

    def action_value(self, state: LatticeState, action: int) -> float:
        return self._value_of(state.conformation + MOVES[self.game.lattice][int(action)])

    def best_action(self, state: LatticeState) -> int:
        legal = state.legal_actions()
        return max(legal, key=lambda a: (self.action_value(state, a), -a))
