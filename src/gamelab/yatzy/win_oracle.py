"""Exact move values of a two-player Yatzy state for the win, in the mover's last turns: the
probability of beating the opponent (a tie counting half) under win play against an
opponent who plays for the expected score from now on (the model of :mod:`gamelab.yatzy.winplay`).

At the start of each of the mover's last `turns` turns, :func:`gamelab.yatzy.winplay.solve_win`
solves the mover's endgame from its card against the opponent's exact final-score law
(:func:`~gamelab.yatzy.winplay.final_score_law` from the opponent's card at that moment, so
every turn re-targets, as the ``retarget`` policy does). Within the turn the value of each
action is then exact:

* a box: the solved value of the card it leads to, at the points still needed
  (:func:`gamelab.yatzy._turn_kernels.legal_moves_python`: the rules' placements, bonuses
  included);
* a keep with two rolls left / one roll left: the keep values the utility widget leaves after
  deciding (:func:`gamelab.yatzy._utility_kernels.utility_decisions`; K1 and K2 of
  :func:`gamelab.yatzy._widget_kernels.keep_decisions`);
* keeping all five dice stops rolling (the state protocol's rule): the best box of those dice.

The value of the state is the best action's; the regret of an action is the difference (in
probability of winning). Cost: one solve per turn (milliseconds to a second for ``turns`` 1-3,
see docs/yatzy.md), one scalar widget per decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamelab.core.oracle import TableOracle
from gamelab.yatzy.rules import DICE, KEEP_SIZE, N_KEEPS, SUBKEEP_INDEX, SUBKEEP_START, RuleSet
from gamelab.yatzy.state import YatzyState

if TYPE_CHECKING:
    from gamelab.yatzy.winplay import WinSolution

#: The last turns of a player measured for the win by default.
WIN_TURNS = 3


def check_turns(rules: RuleSet, turns: object) -> int:
    """`turns` if it is a number of a player's last turns under `rules` (0 for none)."""
    if not isinstance(turns, int) or isinstance(turns, bool) or not 0 <= turns <= rules.n_boxes:
        raise ValueError(f"win-play turns must be 0 to {rules.n_boxes}, got {turns!r}")
    return turns


def card_state(card: Any) -> tuple[int, int, int, int]:
    """(mask, capped upper total, bonus flag, score) of a card: the solver's state."""
    return card.mask, card.capped_upper, card.bonus_flag, card.total


class WinPlayOracle(TableOracle):
    """P(win) + 1/2 P(tie) of every action of the mover in its last `turns` turns (two players)."""

    def __init__(self, rules: RuleSet, turns: int = WIN_TURNS) -> None:
        from gamelab.yatzy._turn_kernels import workspace_arrays

        self.rules = rules
        self.turns = check_turns(rules, turns)
        self._ws = workspace_arrays(rules.n_boxes)
        self._key: tuple | None = None
        self._solution: WinSolution | None = None
        self._memo: dict[tuple, dict[int, float]] = {}
        self._keeps: tuple[list[float], list[float]] | None = None

    def applies(self, state: YatzyState) -> bool:
        """Whether the mover is in its last `turns` turns (and the game is not over)."""
        if state.is_terminal() or state.roll < 0 or state.game.players != 2:
            return False
        card = state.cards[state.player]
        return self.rules.n_boxes - card.filled_count <= self.turns

    def _solution_for(self, state: YatzyState) -> WinSolution:
        mover, other = state.cards[state.player], state.cards[1 - state.player]
        key = (state.player, card_state(mover), card_state(other))
        if key != self._key or self._solution is None:
            from gamelab.yatzy.winplay import final_score_law, solve_win

            law = final_score_law(self.rules, card_state(other))
            self._solution = solve_win(self.rules, card_state(mover), law)
            self._key, self._memo, self._keeps = key, {}, None
        return self._solution

    def values(self, state: YatzyState) -> dict[int, float]:
        """{action: P(win) + 1/2 P(tie)} of every legal action (see :meth:`applies`)."""
        if not self.applies(state):
            raise ValueError("win-play values are for the mover's last turns of a two-player game")
        from gamelab.yatzy._turn_kernels import KF_K1, KF_K2, W_KEEP_F, legal_moves_python
        from gamelab.yatzy._utility_kernels import utility_decisions

        solution = self._solution_for(state)
        memo_key = (state.roll, state.rolls_left)
        hit = self._memo.get(memo_key)
        if hit is not None:
            return hit
        mask, m, f, score = card_state(state.cards[state.player])
        t = solution.t_of(score)
        Pn, row_of = solution.vectors[1], solution.reach.row_of
        r = state.roll
        boxes = {
            N_KEEPS + b: float(Pn[row_of[j], max(0, t - s)])
            for b, s, j in legal_moves_python(self.rules, mask, m, f, r)
        }
        if state.rolls_left == 0:
            out = boxes
        else:
            if self._keeps is None:  # the same for every roll of the turn
                utility_decisions(Pn, row_of, mask, m, f, t, self.rules.kernel_rules(), self._ws)
                self._keeps = (
                    self._ws[W_KEEP_F][KF_K1].tolist(),
                    self._ws[W_KEEP_F][KF_K2].tolist(),
                )
            keeps = self._keeps[0 if state.rolls_left == 2 else 1]
            stop = max(boxes.values())
            out = {
                int(k): stop if KEEP_SIZE[k] == DICE else keeps[k]
                for k in SUBKEEP_INDEX[SUBKEEP_START[r] : SUBKEEP_START[r + 1]]
            }
        self._memo[memo_key] = out
        return out
