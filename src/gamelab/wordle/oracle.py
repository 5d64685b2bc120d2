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

from gamelab.wordle._kernels import partition_kernel
from gamelab.wordle.solver.kernel_search import INF
from gamelab.wordle.solver.optimal import OptimalSolver
from gamelab.wordle.state import WordleGame, WordleState
from gamelab.wordle.stepper import GuessStepper

#: entries the oracle's memos keep before they are cleared (candidate sets of the states met,
#: and the optimal totals of the candidate sets the partitions made)
MEMO_ENTRIES = 200_000


class WordleOracle:
    """Expected total guesses under optimal play, as (negative) returns.

    The candidates of a state are found from its parent's (one filter per step, memoised by the
    history), and every total the search proves is memoised by (candidate set, guesses left):
    the classes a move's value sums are the states of the next step, so the next step's value
    is a lookup, and the first guesses of later episodes meet the same sets again."""

    def __init__(self, game: WordleGame) -> None:
        self.game = game
        # no limit of its own: each search is given the guesses left
        self.solver = OptimalSolver(game.setting.with_limit(None))
        self._cands: dict[tuple[tuple[int, int], ...], np.ndarray] = {}
        self._totals: dict[tuple[bytes, int], int] = {}

    def _candidates(self, state: WordleState) -> np.ndarray:
        return self._candidates_after(tuple(zip(state.guesses, state.codes, strict=True)))

    def _candidates_after(self, history: tuple[tuple[int, int], ...]) -> np.ndarray:
        hit = self._cands.get(history)
        if hit is None:
            if not history:
                hit = self.game.table.all_answers()
            else:
                g, code = history[-1]
                hit = self.game.table.filter(self._candidates_after(history[:-1]), g, code)
            if len(self._cands) >= MEMO_ENTRIES:
                self._cands.clear()
            self._cands[history] = hit
        return hit

    def _total(self, cands: np.ndarray, depth: int) -> int:
        """f(cands) within `depth` guesses (INF when impossible)."""
        n = len(cands)
        if depth < 1:
            return INF
        if n == 1:
            return 1
        if n == 2:
            return 3 if depth >= 2 else INF
        key = (cands.tobytes(), depth)
        hit = self._totals.get(key)
        if hit is None:
            # the search's value alone (no guess wanted): f, or INF when the limit cannot hold
            hit = min(int(self.solver.value(cands, INF, depth)), INF)
            if len(self._totals) >= MEMO_ENTRIES:
                self._totals.clear()
            self._totals[key] = hit
        return hit

    def _failed(self) -> float:
        return -float(self.game.guess_limit + 1)

    def value(self, state: WordleState) -> float:
        return self._value(self._candidates(state), len(state.guesses))

    def action_value(self, state: WordleState, action: int) -> float:
        return self._action_value(self._candidates(state), len(state.guesses), action)

    # The environments' lean game (gamelab.wordle.stepper.GuessStepper) carries its history as
    # the memo's key: no protocol state is built or read.
    def stepper_value(self, stepper: GuessStepper) -> float:
        """:meth:`value` of the game a stepper holds (not over)."""
        return self._value(self._stepper_candidates(stepper), len(stepper.guesses))

    def stepper_action_value(self, stepper: GuessStepper, action: int) -> float:
        """:meth:`action_value` of `action` in the game a stepper holds."""
        cands = self._stepper_candidates(stepper)
        return self._action_value(cands, len(stepper.guesses), action)

    _last: tuple[tuple, np.ndarray] | None = None

    def _stepper_candidates(self, stepper: GuessStepper) -> np.ndarray:
        # a step asks twice for the same history (the state's value, the guess's): the second
        # time the very same tuple, so no hashing of the history
        last = self._last
        if last is not None and last[0] is stepper.history:
            return last[1]
        cands = self._candidates_after(stepper.history)
        self._last = (stepper.history, cands)
        return cands

    def _value(self, cands: np.ndarray, used: int) -> float:
        total = self._total(cands, self.game.guess_limit - used)
        return self._failed() if total >= INF else -(used + total / len(cands))

    def _action_value(self, cands: np.ndarray, used: int, action: int) -> float:
        table = self.game.table
        left = self.game.guess_limit - used - 1
        total = len(cands)
        codes, starts, members = partition_kernel(table.table, int(action), cands, table.n_codes)
        bounds = starts.tolist()
        for j, code in enumerate(codes.tolist()):
            lo, hi = bounds[j], bounds[j + 1]
            if code == table.green and table.is_answer(int(action), int(members[lo])):
                continue  # the guess was the answer
            if left < 1:
                total = INF
            elif hi - lo <= 2:  # one guess finds one candidate; two take 1 + 2
                total += 1 if hi - lo == 1 else (3 if left >= 2 else INF)
            else:
                total += self._total(members[lo:hi], left)
            if total >= INF:
                return self._failed()
        return -(used + total / len(cands))

    def best_action(self, state: WordleState) -> int:
        cands = self._candidates(state)
        if len(cands) <= 2:
            return int(self.game.table.guess_of_answer[cands[0]])
        left = self.game.guess_limit - len(state.guesses)
        return int(self.solver.best_guess(cands, left)[1])
