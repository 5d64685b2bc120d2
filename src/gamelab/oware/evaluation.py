"""Static evaluations of an Oware position, for the side to move (higher is better).

* ``blog`` — the seed blog's heuristic ("AI implementation for Owaré, part 1"): each player's
  gains are its captured seeds plus half the number of vulnerable houses (1 or 2 seeds) on the
  opponent's row; the blog doubles the difference to stay in integers, so
  ``2·(own store − opponent store) + opponent's vulnerable houses − own vulnerable houses``.
  (The blog's sign convention is "lower is better" for the player evaluated; this is negated.)
* ``auale`` — the weights of Aalina's ``Oware.java`` (the engine of the Aualé GUI, research
  notes §3): 25 per stored seed, +28 per house holding more than 12 seeds (a kroo), −36 per
  house with 1-2 seeds, −54 per empty house, own row minus opponent's row.

Both are plain Python here; the search uses the numba versions in
:mod:`gamelab.oware._search_kernels` (tests compare them).
"""

from __future__ import annotations

from gamelab.oware import _search_kernels as K
from gamelab.oware.rules import Position

EVALUATIONS = {"blog": K.EVAL_BLOG, "auale": K.EVAL_AUALE}
#: Points per captured seed in each evaluation (converts scores to seeds).
SEED_UNIT = {"blog": 2, "auale": 25}


def evaluation_code(name: str) -> int:
    if name not in EVALUATIONS:
        raise ValueError(f"evaluation must be one of {', '.join(EVALUATIONS)}, got {name!r}")
    return EVALUATIONS[name]


def blog_evaluation(houses, stores, side: int) -> int:
    own = houses[6 * side : 6 * side + 6]
    opp = houses[6 * (1 - side) : 6 * (1 - side) + 6]
    vulnerable_own = sum(1 for x in own if x in (1, 2))
    vulnerable_opp = sum(1 for x in opp if x in (1, 2))
    return 2 * (stores[side] - stores[1 - side]) + vulnerable_opp - vulnerable_own


def _row_terms(row) -> int:
    score = 0
    for x in row:
        if x > 12:
            score += 28
        elif x == 0:
            score -= 54
        elif x <= 2:
            score -= 36
    return score


def auale_evaluation(houses, stores, side: int) -> int:
    own = houses[6 * side : 6 * side + 6]
    opp = houses[6 * (1 - side) : 6 * (1 - side) + 6]
    return 25 * (stores[side] - stores[1 - side]) + _row_terms(own) - _row_terms(opp)


def evaluate(position: Position, name: str = "auale") -> int:
    """The named evaluation of `position` for its side to move."""
    evaluation_code(name)
    fn = blog_evaluation if name == "blog" else auale_evaluation
    return fn(position.houses, position.stores, position.to_move)


def final_score(diff: int, ply: int, kind: int) -> int:
    """Twin of :func:`gamelab.oware._search_kernels.final_score`."""
    unit = 2 if kind == K.EVAL_BLOG else 25
    if diff > 0:
        return K.WIN - ply + unit * diff
    if diff < 0:
        return -K.WIN + ply + unit * diff
    return 0
