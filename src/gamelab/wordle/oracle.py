"""Exact move values of a Pokémon Wordle state (:mod:`gamelab.core.oracle`) from the proven
optimum: the fewest expected guesses that still solve every remaining candidate within the
game's guess limit (:class:`gamelab.wordle.solver.optimal.OptimalSolver`, whose memo the oracle keeps).

Values are in the state's returns (minus the guesses of the whole game): at a state with
``u`` guesses made and candidates ``C``, the value is ``-(u + f(C) / |C|)`` with ``f`` the
optimal total guesses; a guess ``g`` is worth ``-(u + (|C| + sum_k f(C_k)) / |C|)`` over the
classes ``C_k`` of the colours it shows (the all-green class of an answer needs no more guess).
A guess after which some candidate cannot be solved within the limit is worth a failed game,
``-(limit + 1)``. Normal mode (every guess allowed).
"""

from __future__ import annotations

import numpy as np

from gamelab.wordle.solver.kernel_search import INF
from gamelab.wordle.solver.optimal import OptimalSolver
from gamelab.wordle.state import WordleGame, WordleState


class WordleOracle:
    """Expected total guesses under optimal play, as (negative) returns."""

    def __init__(self, game: WordleGame) -> None:
        self.game = game
        # no limit of its own: each search is given the guesses left
        self.solver = OptimalSolver(game.setting.with_limit(None))

    def _candidates(self, state: WordleState) -> np.ndarray:
        table = self.game.table
        cands = table.all_answers()
        for g, code in state.history():
            cands = table.filter(cands, g, code)
        return cands

    def _total(self, cands: np.ndarray, depth: int) -> int:
        """f(cands) within `depth` guesses (INF when impossible)."""
        n = len(cands)
        if depth < 1:
            return INF
        if n == 1:
            return 1
        if n == 2:
            return 3 if depth >= 2 else INF
        return int(self.solver.best_guess(cands, depth)[0])

    def _failed(self) -> float:
        return -float(self.game.guess_limit + 1)

    def value(self, state: WordleState) -> float:
        cands = self._candidates(state)
        used = len(state.guesses)
        total = self._total(cands, self.game.guess_limit - used)
        return self._failed() if total >= INF else -(used + total / len(cands))

    def action_value(self, state: WordleState, action: int) -> float:
        table = self.game.table
        cands = self._candidates(state)
        used = len(state.guesses)
        left = self.game.guess_limit - used - 1
        total = len(cands)
        for code, part in table.partition(int(action), cands).items():
            if code == table.green and table.is_answer(int(action), int(part[0])):
                continue
            total += self._total(part, left)
            if total >= INF:
                return self._failed()
        return -(used + total / len(cands))

    def best_action(self, state: WordleState) -> int:
        cands = self._candidates(state)
        if len(cands) <= 2:
            return int(self.game.table.guess_of_answer[cands[0]])
        left = self.game.guess_limit - len(state.guesses)
        return int(self.solver.best_guess(cands, left)[1])
