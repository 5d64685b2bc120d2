"""Move values of an Owaré state (:mod:`gamelab.core.oracle`), in seeds for the side to move.

Where the board holds at most ``tablebase_seeds`` seeds (Abapa rules), the value is exact: the
mover's final store difference under perfect play (:meth:`gamelab.oware.tablebase.Tablebase.
final_difference`; like the tablebase it ignores the history that Abapa's repetition rule
reads). Elsewhere it is the engine's estimate at a stated fixed ``depth``
(:meth:`gamelab.oware.search.Engine.search_depth`, ``auale`` evaluation: its score over the
evaluation's seed unit; a decided score, ``10000 - plies + unit x margin``, gives the margin to
within ``depth / unit`` seed). A move's value is minus the value of the position it leads to (or
the final margin when it ends the game). ``exact(state)`` says which of the two applies.
"""

from __future__ import annotations

from functools import cached_property

from gamelab.oware.evaluation import SEED_UNIT
from gamelab.oware.rules import TABLEBASE_SEEDS, Position
from gamelab.oware.state import OwareState

_WIN = 10_000
_DECIDED = _WIN // 2


class OwareOracle:
    """Tablebase values at most `tablebase_seeds` seeds, engine values at `depth` elsewhere."""

    def __init__(self, tablebase_seeds: int = TABLEBASE_SEEDS, depth: int = 6) -> None:
        if not 1 <= depth <= 20:
            raise ValueError(f"depth must be between 1 and 20, got {depth}")
        self.tablebase_seeds = tablebase_seeds
        self.depth = depth
        self.unit = SEED_UNIT["auale"]
        self._memo: dict[tuple, float] = {}

    @cached_property
    def engine(self):
        from gamelab.oware.search import Engine

        return Engine(tablebase_seeds=self.tablebase_seeds, tt_bits=16)

    def exact(self, state: OwareState) -> bool:
        return self.engine.tablebase.covers(state.position)

    def _seeds(self, score: int) -> float:
        if abs(score) >= _DECIDED:
            return (score - _WIN if score > 0 else score + _WIN) / self.unit
        return score / self.unit

    def _position_value(self, position: Position, depth: int) -> float:
        if position.is_over():
            a, b = position.result()
            return float(a - b if position.to_move == 0 else b - a)
        key = (position.houses, position.stores, position.to_move, position.history, depth)
        hit = self._memo.get(key)
        if hit is None:
            if self.engine.tablebase.covers(position):
                hit = float(self.engine.tablebase.final_difference(position))
            else:
                self.engine.clear()
                hit = self._seeds(self.engine.search_depth(position, depth)[0])
            if len(self._memo) > 100_000:
                self._memo.clear()
            self._memo[key] = hit
        return hit

    def value(self, state: OwareState) -> float:
        return max(self.action_value(state, a) for a in state.legal_actions())

    def action_value(self, state: OwareState, action: int) -> float:
        child = state.position.play(int(action))
        v = self._position_value(child, max(1, self.depth - 1))
        if child.is_over():
            # the margin from the mover's side: result() is South-North
            a, b = child.result()
            return float(a - b if state.position.to_move == 0 else b - a)
        return -v

    def best_action(self, state: OwareState) -> int:
        legal = state.legal_actions()
        return max(legal, key=lambda a: (self.action_value(state, a), -a))
