"""The optimal expected score of a small rule set, by the same dynamic programme as
:mod:`gamelab.yatzy.solver` written in whole-array numpy: no numba kernel, so nothing compiles.

For the quick report (issue 23): on a fresh machine numba needs tens of CPU-seconds to compile
the solver's kernels, while a game of a few boxes has so few states that numpy solves it in a
fraction of a second. A state is (filled boxes, capped upper total); one layer of states (equal
number of filled boxes) is solved at once: the value of each final roll (the best open box,
its points, the upper bonus when the total reaches 63, and the next state's value), then twice
the best keep of each roll (the keep's expected value over the rerolled dice), then the
expected value of the first roll. Same recursion as Glenn (2006), without the kernel's tricks.

Cost: about 20 k array operations per state (a layer at a time, in chunks): 4,096 states for
the six upper boxes (about 0.1 s), 64 per single-box game. Rule sets with a Yahtzee bonus or
joker rules are refused (they need the bonus flag and joker scoring of the kernel solver).
:func:`gamelab.yatzy.solver.solve` gives the same value for every rule set this accepts
(``tests/yatzy/test_yatzy_array_solver.py``).

>>> from gamelab.yatzy.rules import RuleSet
>>> round(solve_by_arrays(RuleSet("yahtzee-alone", ("yahtzee",), 0)).expected_score, 4)
2.3014
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from gamelab.yatzy.rules import (
    JOKER_NONE,
    KEEP_ROLL_INDEX,
    KEEP_ROLL_PROB,
    KEEP_ROLL_START,
    ROLL_PROB,
    SUBKEEP_INDEX,
    SUBKEEP_START,
    UPPER_CAP,
    RuleSet,
)

#: the largest rule set solved here (the upper section: 6 boxes); more would take seconds
MAX_BOXES = 8
_CHUNK = 2048  # states per array operation (a chunk's keep table is 2048 x 4368 floats)


@dataclass(frozen=True)
class ArraySolution:
    """The optimal expected final score of a small rule set (from the empty card)."""

    rules: str
    boxes: tuple[str, ...]
    upper_bonus: int
    expected_score: float
    states: int  # states solved (filled boxes x capped upper total)
    seconds: float


def check_small(rules: RuleSet) -> RuleSet:
    """`rules` if :func:`solve_by_arrays` can solve it, else ValueError saying why."""
    if rules.n_boxes > MAX_BOXES:
        raise ValueError(
            f"rules {rules.name} have {rules.n_boxes} boxes; the array solver takes at most "
            f"{MAX_BOXES} (use gamelab.yatzy.solver.solve)"
        )
    if rules.yahtzee_bonus or rules.joker != JOKER_NONE:
        raise ValueError(
            f"rules {rules.name} have a Yahtzee bonus or joker rules; the array solver takes "
            "neither (use gamelab.yatzy.solver.solve)"
        )
    return rules


@lru_cache(maxsize=1)
def _reroll_matrix() -> np.ndarray:
    """[252, 462]: P(roll | keep), the keep's other dice rerolled (a dense product is faster
    than gathering the 4368 (keep, roll) pairs)."""
    matrix = np.zeros((len(SUBKEEP_START) - 1, len(KEEP_ROLL_START) - 1))
    keeps = np.repeat(np.arange(len(KEEP_ROLL_START) - 1), np.diff(KEEP_ROLL_START))
    matrix[KEEP_ROLL_INDEX, keeps] = KEEP_ROLL_PROB
    return matrix


def _best_keep(values: np.ndarray) -> np.ndarray:
    """[states, 252] value of each roll -> [states, 252] value of that roll's best keep."""
    kept = values @ _reroll_matrix()
    return np.maximum.reduceat(kept[:, SUBKEEP_INDEX], SUBKEEP_START[:-1], axis=1)


def _turn_values(
    rules: RuleSet, V: np.ndarray, masks: np.ndarray, totals: np.ndarray
) -> np.ndarray:
    """Expected value of each state (masks[i], totals[i]) at the start of its turn, from the
    values V [2^n, 64] of the states after it."""
    base = rules.base_scores
    final = np.full((len(masks), base.shape[1]), -np.inf)
    for b in range(rules.n_boxes):
        open_ = ((masks >> b) & 1) == 0
        if not open_.any():
            continue
        nxt = masks[open_] | (1 << b)
        m = totals[open_, None]
        points = np.broadcast_to(base[b], (len(nxt), base.shape[1]))
        if rules.upper_face(b):
            after = np.minimum(UPPER_CAP, m + points)
            gain = points + np.where((m < UPPER_CAP) & (after >= UPPER_CAP), rules.upper_bonus, 0)
        else:
            after = np.broadcast_to(m, points.shape)
            gain = points
        final[open_] = np.maximum(final[open_], gain + V[nxt[:, None], after])
    return _best_keep(_best_keep(final)) @ ROLL_PROB


def _reachable_totals(rules: RuleSet) -> list[np.ndarray]:
    """Per mask of filled boxes, the capped upper totals its boxes can add up to."""
    reach = [0] * (1 << rules.n_boxes)  # bit m set: total m reachable
    reach[0] = 1
    full = (1 << (UPPER_CAP + 1)) - 1
    for mask in range(1, 1 << rules.n_boxes):
        b = (mask & -mask).bit_length() - 1  # the lowest filled box, added last
        before, face = reach[mask & ~(1 << b)], rules.upper_face(b)
        if not face:
            reach[mask] = before
            continue
        spread = 0
        for count in range(6):
            spread |= before << (face * count)
        capped = spread & full
        if spread >> UPPER_CAP:  # totals of 63 and more are one state
            capped |= 1 << UPPER_CAP
        reach[mask] = capped
    return [np.array([m for m in range(UPPER_CAP + 1) if bits >> m & 1]) for bits in reach]


def solve_by_arrays(rules: RuleSet) -> ArraySolution:
    """The optimal expected final score of `rules` (at most :data:`MAX_BOXES` boxes, no Yahtzee
    bonus or joker), by numpy over every (filled boxes, capped upper total) state."""
    check_small(rules)
    started = time.perf_counter()
    n = rules.n_boxes
    V = np.zeros((1 << n, UPPER_CAP + 1))  # the full card is worth nothing more
    reach = _reachable_totals(rules)
    states = 0
    for k in range(n - 1, -1, -1):
        layer = [mask for mask in range(1 << n) if bin(mask).count("1") == k]
        masks = np.concatenate([np.full(len(reach[mask]), mask) for mask in layer])
        totals = np.concatenate([reach[mask] for mask in layer])
        for lo in range(0, len(masks), _CHUNK):
            part = slice(lo, lo + _CHUNK)
            V[masks[part], totals[part]] = _turn_values(rules, V, masks[part], totals[part])
        states += len(masks)
    return ArraySolution(
        rules=rules.name,
        boxes=rules.boxes,
        upper_bonus=rules.upper_bonus,
        expected_score=float(V[0, 0]),
        states=states,
        seconds=time.perf_counter() - started,
    )
