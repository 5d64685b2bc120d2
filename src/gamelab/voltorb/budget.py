"""How a Voltorb answer spends a time budget: the one policy every shell follows.

A shell with a budget (the web page: 2 s) asks :func:`solve_plan`, :func:`review_plan` or
:func:`practice_review_plan` for a :class:`gamelab.core.budget.Plan`: the exact call, capped at the states the
search may visit in that time (:data:`STATES_PER_SECOND`), so a hard position stops by itself
with a labelled answer, and the fallback that answers if the call still overruns its deadline
(the shell kills it). Each answer says which it is in its ``answer`` field: ``"optimal"``, or
``"fallback: minrisk, because …"`` (a review: ``"fallback: labelled rows, because …"``).
Positions, rounds and settings arrive parsed (:class:`~gamelab.voltorb.rules.Position`,
:class:`~gamelab.voltorb.rules.RoundRecord`, :class:`~gamelab.voltorb.rules.VoltorbSetting`,
:class:`~gamelab.voltorb.assistant.Policy`): a shell's malformed input is refused when it parses
it, before any job starts.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from gamelab.core.budget import Plan
from gamelab.voltorb.assistant import (
    BoardAnalysis,
    Policy,
    advise_objective,
    position_posterior,
    solve_position,
)
from gamelab.voltorb.expectimax import SearchLimitError
from gamelab.voltorb.objectives import Objective, ObjectiveDecision
from gamelab.voltorb.review import RoundReview, review_position, review_practice
from gamelab.voltorb.rules import Position, RoundRecord, VoltorbSetting

#: The state limit of a budget of s seconds is s times this. Measured on the
#: shared 2-core machine at load 4-5 over the 515 decisions of 10,000 states or more among
#: benchmarks/voltorb_optimal.py's 19,667 (400 deals per level): the search ran 49,000 / 77,000
#: / 139,000 states per CPU-second at its 1st / 10th / 50th percentile, and every decision that
#: needed at most 80,000 states took at most 1.19 CPU-s, so 40,000 leaves the board enumeration
#: and a loaded machine their share of the 2 s (it was 20,000, set for older, slower kernels:
#: the page gave up after about 0.3 s of search). benchmarks/voltorb_page_budget.py measures
#: the page's plan at several rates side by side (docs/experiments/voltorb.md, "The page gave up too early").
STATES_PER_SECOND = 40_000

DEADLINE = "did not finish within the time budget"

#: the fewest solver processes with which the exact job splits a long search
#: (:func:`exact_split_position`): split in two, the parts took 0.97-1.12 of one search's CPU
#: on their longest path (each re-solves much of the other's states) and the workers' start
#: came on top (benchmarks/voltorb_hard_openings.py --tables split), so two processes answer
#: no sooner; more were not measured (a 2-core machine)
SPLIT_PROCESSES_MIN = 3


def state_budget(seconds: float) -> int:
    """The states an exact search may visit in `seconds`."""
    return max(1, int(STATES_PER_SECOND * seconds))


def solve_fallback(position: Position, setting: VoltorbSetting, policy: Policy) -> BoardAnalysis:
    """The answer when the exact search overran its deadline: `policy`'s flip without P(win)
    (`policy` is without its search: :meth:`Policy.without_search`)."""
    out = solve_position(position, setting, policy)
    return replace(out, answer=f"fallback: {policy.name}, because the exact search {DEADLINE}")


def solve_plan(position: Position, setting: VoltorbSetting, policy: Policy, seconds: float) -> Plan:
    """The assistant's answer within `seconds`: the optimal search capped in states; past the
    cap MinRisk (or the chosen policy) without P(win), labelled in ``answer`` and ``note``."""
    args = (position, setting, policy, state_budget(seconds))
    cheap = policy.without_search()
    return Plan(
        solve_position,
        args,
        seconds,
        partial(solve_fallback, position, setting, cheap),
        "exact optimal search",
        "MinRisk" if cheap.name == "minrisk" else f"{cheap.name} without P(win)",
    )


def exact_call(
    position: Position, setting: VoltorbSetting, policy: Policy, processes: int = 1
) -> tuple[Any, tuple]:
    """The exact search :func:`solve_plan` caps, without a cap: ``(fn, args)`` for a background
    job. What it solves is kept for the deal (:mod:`gamelab.voltorb.solved`), so once it is
    done the rest of the round is answered exactly within the budget. With `processes` (a
    server's solver processes) of at least :data:`SPLIT_PROCESSES_MIN` a long search shares its
    first flips among that many processes (:func:`exact_split_position`)."""
    if processes < 1:
        raise ValueError(f"processes must be at least 1, got {processes}")
    if processes >= SPLIT_PROCESSES_MIN:
        return exact_split_position, (position, setting, policy, processes)
    return solve_position, (position, setting, policy)


def exact_split_position(
    position: Position, setting: VoltorbSetting, policy: Policy, processes: int
) -> BoardAnalysis:
    """:func:`solve_position`'s exact answer, its search split across `processes` local
    processes when it is long (:func:`gamelab.voltorb.solved.split_decide`: the same tile and
    P(win) as one search); the answer then reads the deal's solver, which holds the result."""
    from gamelab.voltorb import solved

    if not position.lost:  # (a lost round has nothing to search)
        solved.split_decide(position.clues, setting, position.shown, processes)
    return solve_position(position, setting, policy)


REVIEW_FALLBACK = "the quick review (P(Voltorb) and MinRisk's flip; the exact one follows)"


def _quick(review: RoundReview) -> RoundReview:
    return replace(review, answer=f"fallback: labelled rows, because the exact review {DEADLINE}")


def quick_review_position(record: RoundRecord, setting: VoltorbSetting) -> RoundReview:
    """The quick review of a round entered by hand (every row labelled)."""
    return _quick(review_position(record, setting, exact=False))


def quick_review_practice(
    setting: VoltorbSetting, seed: int, flips: tuple, quit: bool
) -> RoundReview:
    """The quick review of a practice round (every row labelled)."""
    return _quick(review_practice(setting, seed, list(flips), quit, exact=False))


def review_plan(record: RoundRecord, setting: VoltorbSetting, seconds: float) -> Plan:
    """A review within `seconds`: exact rows as far as the state budget goes (from the last
    flip back), the others labelled; past the deadline the quick review."""
    return _review(review_position, quick_review_position, (record, setting), seconds)


def practice_review_plan(
    setting: VoltorbSetting, seed: int, flips: tuple, quit: bool, seconds: float
) -> Plan:
    """:func:`review_plan` for a practice round (`flips` from
    :func:`~gamelab.voltorb.practice.practice_flips`)."""
    return _review(
        review_practice, quick_review_practice, (setting, seed, list(flips), quit), seconds
    )


def _review(exact: Any, quick: Any, round_: tuple, seconds: float) -> Plan:
    """``exact(*round_, True, states)`` within `seconds`, ``quick(*round_)`` past them."""
    args = (*round_, True, state_budget(seconds))
    return Plan(exact, args, seconds, partial(quick, *round_), "exact review", REVIEW_FALLBACK)


def objective_advice(
    position: Position,
    setting: VoltorbSetting,
    objective: Objective,
    state_limit: int | None,
) -> ObjectiveDecision:
    """:func:`gamelab.voltorb.assistant.advise_objective` capped at `state_limit` states; past
    it MinRisk's flip, labelled in ``answer`` and ``advice``."""
    try:
        return advise_objective(position, setting, objective, state_limit)
    except SearchLimitError:
        from gamelab.voltorb.strategies import minrisk_tile

        post = position_posterior(position, setting)
        return ObjectiveDecision(
            objective.name,
            objective.describe(setting.level),
            minrisk_tile(post),
            0.0,
            int(state_limit or 0),
            answer=f"fallback: minrisk, because the exact search stopped after "
            f"{state_limit:,} states",
        )


def objective_plan(
    position: Position, setting: VoltorbSetting, objective: Objective, seconds: float
) -> Plan:
    """The advice for a round objective within `seconds` (as :func:`solve_plan`)."""
    question = (position, setting, objective)
    return Plan(
        objective_advice,
        (*question, state_budget(seconds)),
        seconds,
        partial(objective_advice, *question, 1),
        "exact objective search",
        "MinRisk",
    )
