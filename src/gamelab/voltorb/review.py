"""Review of a played round: every flip against the win-maximising policy, exactly.

For each flip, with S the information state before it (the clues and the flips so far):

* ``p_before`` — P(win) of optimal play from S (:class:`gamelab.voltorb.expectimax.OptimalSolver`);
* ``p_choice`` — P(win) of flipping the chosen tile and playing optimally afterwards, the
  expectation over what the tile can show: ``sum_v P(v) * P(win | S + tile=v)`` (a Voltorb
  counts 0, a value that clears the board 1);
* ``loss = p_before - p_choice`` (0 for an optimal move) and the best alternative;
* ``p_after`` — P(win) of optimal play once the value was seen.

These are :class:`gamelab.core.review.Decision`'s values in P(win) (``before``, ``chosen``,
``after``; loss and luck as there). Skill and luck then add up exactly: the round's result (1 won, 0 otherwise) minus the optimal
P(win) from the clues equals the total luck ``sum (p_after - p_choice)`` minus the total loss
``sum (p_before - p_choice)``, because each flip's ``p_after`` is the next flip's ``p_before``.
``p_start`` — how likely optimal play was to win this deal — is the round's luck of the deal.

A practice round's flips are played on its dealt state by the protocol's actions
(:class:`gamelab.voltorb.state.VoltorbState`, as :mod:`gamelab.voltorb.practice` plays them), and so
is optimal play on that board (:func:`optimal_outcome`).

Cost: one optimal search for the round plus one per flip outcome (they share the memo), so about
the cost of the assistant's answers during the round.

    >>> from gamelab.voltorb.rules import VoltorbSetting, clues_from_text
    >>> clues = clues_from_text("4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1")
    >>> rv = review_round(clues, [(5, 1)], VoltorbSetting(2))
    >>> m = rv.moves[0]; (m.tile, m.best, round(m.loss, 12))
    ([2, 1], [2, 1], 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from gamelab.core.review import Decision, Totals
from gamelab.voltorb import solved
from gamelab.voltorb.assistant import playing_posterior
from gamelab.voltorb.expectimax import OptimalSolver, SearchLimitError, choice_value
from gamelab.voltorb.posterior import Posterior
from gamelab.voltorb.rules import SIZE, Clues, Round, RoundRecord, VoltorbSetting
from gamelab.voltorb.state import VoltorbGame, VoltorbState

__all__ = [
    "MoveReview",
    "RoundReview",
    "optimal_outcome",
    "quick_review",
    "review_position",
    "review_practice",
    "review_round",
]


@dataclass(frozen=True)
class MoveReview:
    """One flip; tiles are ``[row, col]`` from 1."""

    tile: list[int]
    value: int  # what it showed (0 = Voltorb)
    p_before: float | None  # optimal P(win) before the flip (None: not exact, see `exact`)
    p_choice: float | None  # P(win) of this flip followed by optimal play
    loss: float | None  # p_before - p_choice (0 for an optimal move)
    best: list[int]  # the optimal policy's flip here (MinRisk's when not exact)
    luck: float | None  # p_after - p_choice: how much the value shown helped (negative: hurt)
    p_after: float | None  # optimal P(win) after the value was seen
    p_voltorb: float  # the chosen tile's P(Voltorb) before the flip (always exact)
    exact: bool = True  # False: a quick row (no optimal search), labelled so on the page


@dataclass(frozen=True)
class RoundReview:
    """A round's review: every flip, totals, and the round's luck beside its skill."""

    moves: list[MoveReview]
    p_start: float | None  # optimal P(win) from the clues: how winnable the deal was
    outcome: str  # "won", "lost", "quit" (a practice round quit) or "unfinished" (stopped)
    total_loss: float | None  # sum of the losses: win probability given away by the choices
    total_luck: float | None  # sum of the moves' luck
    optimal_would_win: bool | None  # would optimal play have cleared this very board (if known)
    note: str | None = None
    exact: bool = True  # False: the quick review (every row labelled), see quick_review
    # "optimal" (every row exact) or "fallback: labelled rows, because ..." (gamelab.voltorb.budget)
    answer: str = "optimal"
    #: the figures above in the vocabulary every game's review shares (core.review.Totals)
    totals: dict[str, Totals] = field(default_factory=dict)


def _state_mass(solver: OptimalSolver, revealed: dict[int, int]) -> float:
    idx, _, _ = solver.state_for(revealed)
    return float(solver.weights[idx].sum())


def _value(solver: OptimalSolver, revealed: dict[int, int]) -> tuple[int, float]:
    """(best tile, optimal P(win)) at `revealed`; P = 1 when every board left is won."""
    idx, _, _ = solver.state_for(revealed)
    if idx.size == 0:
        return -1, 1.0
    return solver.decide(revealed)


def round_totals(moves: list[MoveReview], outcome: str) -> Totals:
    """A round's review in the shared vocabulary, in P(win): the result is 1 for a cleared
    board, 0 for a lost or quit round, None for one still going on."""
    result = {"won": 1.0, "lost": 0.0, "quit": 0.0}.get(outcome)
    start = moves[0].p_before if moves else None
    return Totals.of("P(win)", start, [m.loss for m in moves], [m.luck for m in moves], result)


def _round(state: VoltorbState) -> Round:  # a dealt state's figures, read only
    assert state.round is not None, "the review plays a dealt round"
    return state.round


def optimal_outcome(
    board: np.ndarray, setting: VoltorbSetting, state_limit: int | None = None
) -> bool | None:
    """Whether the win-maximising policy clears this board (it sees only clues and flips).

    Each decision is the assistant's (a fresh search from the position, as
    :func:`gamelab.voltorb.assistant.analyse_position` makes it): where several flips tie for
    the best P(win), that is the one the page recommended, so the answer matches it.
    With a `state_limit` per decision, None if a search does not finish within it.
    """
    return _optimal_outcome(VoltorbGame(setting).dealt_state(board), state_limit)


def _optimal_outcome(dealt: VoltorbState, state_limit: int | None) -> bool | None:
    """:func:`optimal_outcome` of a dealt state: its round played by the protocol's actions."""
    state = dealt.clone()
    setting = state.game.setting
    while not state.is_terminal():
        rnd = _round(state)
        try:
            tile, _ = solved.decide(rnd.clues, setting, dict(rnd.revealed), state_limit)
        except SearchLimitError:
            return None
        state.apply(tile)
    return _round(state).outcome == "won"


def review_round(
    clues: Clues,
    flips: list[tuple[int, int]],
    setting: VoltorbSetting,
    dealt: VoltorbState | None = None,
    state_limit: int | None = None,
) -> RoundReview:
    """Review `flips` (``[(tile, value), ...]`` in the order played) from `clues`.

    With the round's `dealt` state (a practice round, :func:`gamelab.voltorb.practice.
    practice_state`: its board known), the flips are played on it by the protocol's actions and
    the review also says whether optimal play would have cleared it. ValueError if a flip repeats a tile, follows the end of the round, or
    contradicts the clues.

    With a `state_limit` (the searched states the whole review may spend) the review always
    comes back: the rows are solved from the last flip back to the first (each later position
    is a part of the earlier ones, so its solved states help them), each search capped at the
    states left, and a row whose search does not finish keeps its quick figures (exact
    P(Voltorb), MinRisk's flip) and ``exact=False``; ``note`` says how many rows are exact.
    """
    quick = quick_review(clues, flips, setting, dealt)
    solver = solved.deal_solver(clues, setting)  # what the page's searches solved
    start = solver.nodes
    states = [dict(flips[:i]) for i in range(len(flips) + 1)]

    def limited(call, *args):
        solver.state_limit = None
        if state_limit is not None:
            left = state_limit - (solver.nodes - start)
            if left <= 0:
                raise SearchLimitError("the review's state budget is spent")
            solver.state_limit = left
        before = solver.nodes
        try:
            return call(*args)
        finally:
            solved.searched(solver, solver.nodes - before)

    rows: list[MoveReview | None] = [None] * len(flips)
    after_value: float | None = None  # P(win) after the row's flip (the next row's p_before)
    if quick.outcome == "won":
        after_value = 1.0
    elif quick.outcome == "lost":
        after_value = 0.0
    elif state_limit is None or state_limit > 0:
        try:
            after_value = limited(_value, solver, states[-1])[1]
        except SearchLimitError:
            after_value = None
    for i in range(len(flips) - 1, -1, -1):
        tile, value = flips[i]
        q = quick.moves[i]
        if after_value is None:
            break  # no later row is exact: nor can this one be (its p_after is unknown)
        try:
            best, p_before = limited(_value, solver, states[i])
            p_choice = limited(choice_value, solver, states[i], tile)
        except SearchLimitError:
            break
        decision = Decision.of(p_before, p_choice, after_value)  # in P(win)
        rows[i] = replace(
            q,
            p_before=p_before,
            p_choice=p_choice,
            loss=decision.loss,
            best=[best // SIZE + 1, best % SIZE + 1],
            luck=decision.luck,
            p_after=after_value,
            exact=True,
        )
        after_value = p_before
    moves = [r if r is not None else q for r, q in zip(rows, quick.moves, strict=True)]
    exact = all(m.exact for m in moves)
    n_exact = sum(m.exact for m in moves)
    return RoundReview(
        moves=moves,
        p_start=moves[0].p_before,
        outcome=quick.outcome,
        total_loss=float(sum(m.loss or 0.0 for m in moves)) if exact else None,
        total_luck=float(sum(m.luck or 0.0 for m in moves)) if exact else None,
        optimal_would_win=(
            None if dealt is None or not exact else _optimal_outcome(dealt, state_limit)
        ),
        note=None
        if exact
        else (
            f"{n_exact} of {len(moves)} rows exact within the budget of {state_limit:,} "
            "states; the others are labelled (P(Voltorb) exact, MinRisk's flip)"
        ),
        exact=exact,
        answer="optimal"
        if exact
        else f"fallback: labelled rows, because {len(moves) - n_exact} row(s) needed more than "
        f"the {state_limit:,} states of the budget",
        totals={"you": round_totals(moves, quick.outcome)},
    )


def quick_review(
    clues: Clues,
    flips: list[tuple[int, int]],
    setting: VoltorbSetting,
    dealt: VoltorbState | None = None,
) -> RoundReview:
    """The review without any optimal search (milliseconds): each flip's exact P(Voltorb)
    and MinRisk's flip beside it, every row marked ``exact=False`` with its P(win) figures None.
    What a front end shows when the exact review (:func:`review_round`) overruns its time
    budget, while the exact one is completed in the background. Same checks of the flips."""
    from gamelab.voltorb.strategies import minrisk_tile

    if not flips:
        raise ValueError("no flips to review: play at least one tile")
    played = dealt.clone() if dealt is not None else None  # the round, when its board is known
    revealed: dict[int, int] = {}
    moves: list[MoveReview] = []
    outcome = "unfinished"
    for i, (tile, value) in enumerate(flips):
        where = f"flip {i + 1} (row {tile // SIZE + 1}, column {tile % SIZE + 1})"
        if outcome != "unfinished":
            raise ValueError(f"{where}: the round was already over ({outcome})")
        if tile in revealed:
            raise ValueError(f"{where}: that tile is already revealed")
        post = playing_posterior(clues, revealed, setting)
        column = post.boards[:, tile]
        if not (column == value).any():
            raise ValueError(
                f"no board is consistent with these clues: {where} cannot be {value} "
                "after the flips before it"
            )
        if played is not None:
            played.apply(tile)
            shown = _round(played).revealed[tile]
            if shown != value:
                raise ValueError(f"{where}: the board shows {shown} there, not {value}")
        best = minrisk_tile(post)
        after = {**revealed, tile: value}
        if value == 0:
            outcome = "lost"
        elif (played is not None and _round(played).outcome == "won") or bool(
            Posterior.from_clues(clues, setting, after).won_mask().all()
        ):
            outcome = "won"
        moves.append(
            MoveReview(
                tile=[tile // SIZE + 1, tile % SIZE + 1],
                value=int(value),
                p_before=None,
                p_choice=None,
                loss=None,
                best=[best // SIZE + 1, best % SIZE + 1],
                luck=None,
                p_after=None,
                p_voltorb=float(post.weights[column == 0].sum()),
                exact=False,
            )
        )
        revealed = after
    return RoundReview(
        moves,
        None,
        outcome,
        None,
        None,
        None,
        exact=False,
        answer="fallback: labelled rows",
        totals={"you": round_totals(moves, outcome)},
    )


def review_position(
    record: RoundRecord,
    setting: VoltorbSetting,
    exact: bool = True,
    state_limit: int | None = None,
) -> RoundReview:
    """:func:`review_round` of a round entered in the assistant (its clues and flips, parsed
    from their text forms by :meth:`RoundRecord.parse`)."""
    played = list(record.flips)
    if not exact:
        return quick_review(record.clues, played, setting)
    return review_round(record.clues, played, setting, state_limit=state_limit)


def review_practice(
    setting: VoltorbSetting,
    seed: int,
    flips: list,
    quit: bool = False,
    exact: bool = True,
    state_limit: int | None = None,
) -> RoundReview:
    """:func:`review_round` of a practice round (:mod:`gamelab.voltorb.practice`) from its seed
    and flips ``[[row, col], ...]``; knowing the board, it also says whether optimal play
    would have cleared it. With `quit` (the player quit, keeping the coins) a round still
    going after the flips has the outcome ``quit``, not ``unfinished``."""
    from gamelab.voltorb.practice import play_practice, practice_state

    state = play_practice(setting, seed, flips)  # the flips checked, with the page's messages
    dealt = practice_state(setting, seed)
    played = [((r - 1) * SIZE + (c - 1), v) for r, c, v in state.revealed]
    clues = _round(dealt).clues
    if exact:
        out = review_round(clues, played, setting, dealt=dealt, state_limit=state_limit)
    else:
        out = quick_review(clues, played, setting, dealt=dealt)
    if quit and out.outcome == "unfinished":
        out = replace(out, outcome="quit", totals={"you": round_totals(out.moves, "quit")})
    return out
