"""Win play: maximise the probability of beating an expected-score opponent in the endgame.

Two players alternate turns; B plays the expected-score strategy throughout. A plays it too
until A has K turns left (the *switch*), then maximises E[u(A's final score)] with
u(s) = P(B_final < s) + 0.5 P(B_final = s), i.e. its win probability counting a tie as half.
B's final-score law is exact: a forward propagation of B's current (state, score) under the
expected-score decisions (see :mod:`gamelab.yatzy.distribution`), restricted to the states
reachable from B's state. B's policy ignores A, so the two futures are independent given the
states, and u is all A needs to know about B.

The solve is a backward DP over the states reachable from A's state (supersets of its filled
boxes, upper totals reachable from its own, the Yahtzee-bonus flag), layer by layer, with a
vector per state over t = the points A still needs to pass B's maximal final score:
U[state, t] = best E[U[next, max(0, t - points)]] (kernel
:func:`gamelab.yatzy._utility_kernels.utility_widget`, shared with target play). u only varies on B's
support [lo, hi], so the vector has L = hi + 2 - s_A entries (t = 0: A is above hi and has won,
U = 1; below lo nothing is clamped because A's score never decreases). The terminal vector is
U[full, t] = u(hi + 1 - t).

Policies measured from the switch (both players have played 13 - K rounds of expected-score play):

* ``expectation``: A keeps playing for the expectation; P(A wins) is exact from A's and B's
  exact final-score laws;
* ``single``: one win-play solve at the switch against B's law at that moment; its P(A wins) is
  exactly the solve's value (and at least the expectation's: it optimises over a superset of
  policies);
* ``retarget``: re-solves at each of A's K turns against B's then-current exact law (it sees B's
  later turns); simulated, paired with ``single`` on the same dice (B's dice, and so B's whole
  game, are the same in both because B ignores A).

Turn order: A moves first in each round (as in :mod:`gamelab.yatzy.risk`'s duels), so at A's
turn with k turns left B also has k turns left; ``a_first=False`` lets B move first.

Cost: one vector widget (L up to ~300; about 0.5 ms) per reachable state: at most 2^K masks
times the reachable upper totals; the re-targeting player solves K times per game (the first
solve is the single solve). See docs/yatzy.md for the measured seconds and memory.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from gamelab.yatzy._distribution_kernels import forward_layer
from gamelab.yatzy._turn_kernels import (
    KF_K1,
    KF_K2,
    W_KEEP_F,
    placement,
    state_index,
    workspace_arrays,
    workspace_decisions,
)
from gamelab.yatzy._utility_kernels import (
    utility_decisions,
    utility_layer,
    utility_pair_layer,
    utility_rows,
    utility_workspace_arrays,
)
from gamelab.yatzy._widget_kernels import new_lane_scratch
from gamelab.yatzy.card import Card
from gamelab.yatzy.rules import (
    KEEPS,
    R_JOKER_VALUE,
    R_UPPER_FACE,
    R_YAHTZEE_BOX,
    RULES,
    SUBKEEP_INDEX,
    SUBKEEP_START,
    RuleSet,
    dice_text,
    roll_index,
)
from gamelab.yatzy.simulate import strategy_values
from gamelab.yatzy.solver import solve, upper_reach


def expected_values(rules: RuleSet) -> np.ndarray:
    """E of the expected-score strategy (memoised per process for the named rule sets)."""
    if RULES.get(rules.name) is rules:
        return strategy_values(rules, "optimal")
    return solve(rules).E


@dataclass
class ReachableStates:
    """The states reachable from one state, by turns taken: layers[j] = (masks, ms, fs)."""

    rules: RuleSet
    layers: list[tuple[np.ndarray, np.ndarray, np.ndarray]]
    row_of: np.ndarray  # state index -> row within its layer (-1 elsewhere)


def reachable_states(rules: RuleSet, mask: int, m: int, f: int) -> ReachableStates:
    """Supersets of `mask` with the upper totals reachable from `m` and the possible flags.

    Each layer lists its states by superset (in the order of the subsets of the open boxes
    they fill), then upper total, then flag; numpy builds them all at once (a game's laws and
    solve call this twice, on threads that share the interpreter)."""
    nb = rules.n_boxes
    full = (1 << nb) - 1
    if mask & ~full or mask < 0:
        raise ValueError(f"mask {mask} is not a set of the {nb} boxes")
    if not 0 <= m <= 63:
        raise ValueError(f"upper total m must be 0..63, got {m}")
    bundle = rules.kernel_rules()
    uf = bundle[R_UPPER_FACE]
    ybox = int(bundle[R_YAHTZEE_BOX])
    nf = rules.bonus_flags
    if f not in range(nf) or (f == 1 and not (mask >> ybox) & 1):
        raise ValueError(f"bonus flag {f} is impossible for this state")
    free = np.array([b for b in range(nb) if not (mask >> b) & 1], dtype=np.int64)
    k = len(free)
    subs = np.arange(1 << k, dtype=np.int64)
    filled = (subs[:, None] >> np.arange(k)) & 1  # [subset, open box]: filled by the subset
    masks = mask | (filled << free).sum(axis=1)
    # the upper faces the subset fills (faces differ box by box, so the bits add up)
    faces = np.where(uf[free] > 0, np.left_shift(1, np.maximum(uf[free] - 1, 0)), 0)
    sums = upper_reach()[(filled * faces).sum(axis=1)]  # [subset, points the boxes may add]
    totals = np.zeros((len(subs), 64), dtype=bool)  # [subset, capped upper total reachable]
    totals[:, m:63] = sums[:, : 63 - m]
    totals[:, 63] = sums[:, 63 - m :].any(axis=1)
    if nf == 1 or f == 1 or (mask >> ybox) & 1:
        both = np.zeros(len(subs), dtype=bool)
    else:  # the Yahtzee box filled by the subset: scored 0 or 50 from here
        both = ((masks >> ybox) & 1).astype(bool)
    sub_of, mm = np.nonzero(totals)  # by subset, then upper total
    pair = np.repeat(np.arange(len(sub_of)), np.where(both[sub_of], 2, 1))
    first = np.concatenate(([True], pair[1:] != pair[:-1]))
    ff = np.where(both[sub_of[pair]], np.where(first, 0, 1), f)
    ms, mm = masks[sub_of[pair]], mm[pair].astype(np.int64)
    layer = filled.sum(axis=1)[sub_of[pair]]
    row_of = np.full(rules.n_states, -1, dtype=np.int64)
    layers = []
    for j in range(k + 1):
        rows = np.flatnonzero(layer == j)
        arr = (ms[rows], mm[rows], ff[rows].astype(np.int64))
        # numpy does the index's arithmetic on the arrays (the kernel would compile once more)
        row_of[state_index.py_func(*arr, nf)] = np.arange(len(rows))
        layers.append(arr)
    return ReachableStates(rules, layers, row_of)


@lru_cache(maxsize=16)
def _max_remaining(rules: RuleSet, turns: int) -> int:
    """The most points `turns` turns can still score (the width of a final-score law)."""
    joker_value = rules.kernel_rules()[R_JOKER_VALUE]
    tops = sorted(
        (
            max(int(rules.base_scores[b].max()), int(joker_value[b].max()))
            for b in range(rules.n_boxes)
        ),
        reverse=True,
    )
    return sum(tops[:turns]) + (rules.upper_bonus if turns else 0) + rules.yahtzee_bonus * turns


def final_score_law(
    rules: RuleSet,
    state: tuple[int, int, int, int],
    E: np.ndarray | None = None,
    reach: ReachableStates | None = None,
) -> tuple[int, np.ndarray]:
    """(offset, p): P(final score = offset + i) = p[i] under expected-score play from `state`.

    `state` = (mask, m, f, score). Exact (forward propagation over the reachable states;
    `reach`: :func:`reachable_states` of the state, when the caller has them already).
    """
    mask, m, f, score = (int(x) for x in state)
    if E is None:
        E = expected_values(rules)
    if reach is None:
        reach = reachable_states(rules, mask, m, f)
    turns = len(reach.layers) - 1
    width = _max_remaining(rules, turns) + 1
    bundle = rules.kernel_rules()
    ms, mm, ff = reach.layers[0]
    F = np.zeros((len(ms), width))
    F[0, 0] = 1.0
    overflow = np.zeros(2)
    ws, lanes = workspace_arrays(rules.n_boxes), new_lane_scratch(rules.n_boxes)
    for j in range(turns):
        ms2, mm2, ff2 = reach.layers[j + 1]
        F2 = np.zeros((len(ms2), width))
        forward_layer(E, F, len(ms), reach.row_of, F2, ms, mm, ff, bundle, overflow, E, ws, lanes)
        ms, mm, ff, F = ms2, mm2, ff2, F2
    assert overflow[0] == 0.0
    p = F.sum(axis=0)
    nz = np.nonzero(p)[0]
    return score + int(nz[0]), p[nz[0] : nz[-1] + 1].copy()


def win_utility(law: tuple[int, np.ndarray], scores: np.ndarray, tie: float = 0.5) -> np.ndarray:
    """u(s) = P(B < s) + tie P(B = s) for B ~ law (offset, p) (tie=0: P(A wins) with s)."""
    lo, p = law
    cdf = np.concatenate([[0.0], np.cumsum(p)])  # cdf[i] = P(B < lo + i)
    i = np.clip(np.asarray(scores) - lo, 0, len(p))
    below = cdf[i]
    at = np.where(
        (scores >= lo) & (scores < lo + len(p)), p[np.clip(scores - lo, 0, len(p) - 1)], 0.0
    )
    return below + tie * at


def expectation_win_probability(
    rules: RuleSet, a_state, b_state, E: np.ndarray | None = None
) -> float:
    """Exact P(A wins) + 0.5 P(tie) when both play the expected-score strategy from here."""
    return laws_win_probability(
        final_score_law(rules, a_state, E), final_score_law(rules, b_state, E)
    )


def laws_win_probability(law_a: tuple[int, np.ndarray], law_b: tuple[int, np.ndarray]) -> float:
    """P(A wins) + 0.5 P(tie) for independent final scores A ~ `law_a` and B ~ `law_b`."""
    scores = law_a[0] + np.arange(len(law_a[1]))
    return float(law_a[1] @ win_utility(law_b, scores))


@dataclass
class WinSolution:
    """Utility vectors of the win-play policy over the states reachable from A's state."""

    rules: RuleSet
    reach: ReachableStates
    vectors: list[np.ndarray]  # vectors[j]: [rows of layer j, L]
    score: int  # A's score when solved
    top: int  # hi + 1: the score from which A surely wins
    seconds: float
    #: P(A wins) from the solved state under the same decisions (solve_win(outcomes=True))
    win_only: float | None = None

    @property
    def length(self) -> int:
        return self.vectors[0].shape[1]

    @property
    def value(self) -> float:
        """P(A wins) + 0.5 P(tie) under this policy, from the solved state."""
        return float(self.vectors[0][0, self.length - 1])

    def outcomes(self) -> tuple[float, float, float]:
        """(P(A wins), P(tie), P(A loses)) under this policy, from the solved state (needs
        ``solve_win(..., outcomes=True)``): the value is P(win) + 0.5 P(tie)."""
        if self.win_only is None:
            raise ValueError("the outcomes need solve_win(..., outcomes=True)")
        win = min(max(self.win_only, 0.0), 1.0)
        tie = min(max(2.0 * (self.value - win), 0.0), 1.0 - win)
        return win, tie, max(0.0, 1.0 - win - tie)

    def t_of(self, score: int) -> int:
        return max(0, self.top - score)

    def decisions(self, turns_taken: int, mask: int, m: int, f: int, score: int, scratch):
        """(box3, keep2, keep1) of the policy at a reachable state with A's score `score`
        (views into `scratch`, a :func:`decision_scratch`)."""
        utility_decisions(
            self.vectors[turns_taken + 1],
            self.reach.row_of,
            mask,
            m,
            f,
            self.t_of(score),
            self.rules.kernel_rules(),
            scratch,
        )
        return workspace_decisions(scratch)


#: Win values closer than this count as equal; the expected final score then decides.
WIN_TIE = 1e-9


def win_play_move(
    sol: WinSolution, card: Card, counts: np.ndarray, rolls_left: int, E: np.ndarray, scratch
) -> str:
    """The win-play move at A's actual dice (card `card` as solved by `sol`, `rolls_left`
    rerolls left): among the options whose win value is within :data:`WIN_TIE` of the best,
    the one with the best expected final score under the table `E` (the coach's values), then
    the first box / smallest keep. So a player whose win is already sure (or equally likely
    either way) still scores the most it can, instead of taking the first option of a tie."""
    from gamelab.yatzy.coach import decision_tables

    rules = sol.rules
    state = (card.mask, card.capped_upper, card.bonus_flag)
    score = card.total  # as solved: the card changes only when the turn's box is filled
    sol.decisions(0, *state, score, scratch)  # leaves the keeps' win values in the scratch
    r = roll_index(counts)
    options: list[tuple[float, float, str]] = []  # (win value, expected score, move)
    if rolls_left:
        wins = scratch[W_KEEP_F][KF_K2 if rolls_left == 1 else KF_K1]
        tables = decision_tables(rules, E, card)
        expected = tables.keep_value_1 if rolls_left == 1 else tables.keep_value_2
        for i in range(SUBKEEP_START[r], SUBKEEP_START[r + 1]):
            k = int(SUBKEEP_INDEX[i])
            options.append((float(wins[k]), float(expected[k]), f"keep {dice_text(KEEPS[k])}"))
    else:
        after = sol.vectors[1]
        t = sol.t_of(score)
        bundle = rules.kernel_rules()
        for name, _points, _bonus in rules.placements(counts, card):
            b = rules.boxes.index(name)
            gain, j = placement(card.mask, card.capped_upper, card.bonus_flag, b, r, bundle)
            win = float(after[sol.reach.row_of[j], max(0, t - int(gain))])
            options.append((win, float(gain) + float(E[j]), f"box {name}"))
    best_win = max(o[0] for o in options)
    tied = [o for o in options if o[0] >= best_win - WIN_TIE]
    best_expected = max(o[1] for o in tied)
    return next(o[2] for o in tied if o[1] >= best_expected - WIN_TIE)


def decision_scratch(n_boxes: int = 13) -> tuple:
    """The kernel workspace :meth:`WinSolution.decisions` fills (and the turn kernels use)."""
    return workspace_arrays(n_boxes)


def solve_win(
    rules: RuleSet,
    a_state,
    b_law: tuple[int, np.ndarray],
    keep_all: bool = True,
    outcomes: bool = False,
    reach: ReachableStates | None = None,
    parallel: bool = True,
) -> WinSolution:
    """The policy maximising P(A wins) + 0.5 P(tie) from A's `a_state` = (mask, m, f, score)
    against an opponent whose final score has the law `b_law` = (offset, p).

    keep_all=False keeps only two layers at a time (the value only, for long solves); the
    decisions then need keep_all=True. outcomes=True also carries P(A wins) through the same
    decisions (:func:`gamelab.yatzy._utility_kernels.utility_pair_layer`, about twice the work),
    so :meth:`WinSolution.outcomes` can give P(win), P(tie) and P(loss) apart (between choices
    of equal value it takes the one winning more often; the played decisions break such exact
    ties by the first box and the smallest keep).

    `reach`: :func:`reachable_states` of A's state, when the caller has them already.
    parallel=False solves each layer in this thread, without holding the GIL (for callers that
    solve several games side by side on threads); the vectors are the same bit for bit. It
    needs outcomes=False."""
    if outcomes and not parallel:
        raise ValueError("the outcomes are solved in parallel only (parallel=True)")
    t0 = time.perf_counter()
    mask, m, f, score = (int(x) for x in a_state)
    lo, p = b_law
    top = lo + len(p)  # u = 1 from here on
    L = max(1, top - score + 1)
    if reach is None:
        reach = reachable_states(rules, mask, m, f)
    turns = len(reach.layers) - 1
    finals = top - np.arange(L)  # score for each t
    terminal = win_utility(b_law, finals)
    terminal[0] = 1.0
    vectors: list[np.ndarray] = [np.empty((0, L))] * (turns + 1)
    vectors[turns] = np.tile(terminal, (len(reach.layers[turns][0]), 1))
    W = None
    if outcomes:
        wins = win_utility(b_law, finals, tie=0.0)
        wins[0] = 1.0
        W = np.tile(wins, (len(reach.layers[turns][0]), 1))
    bundle = rules.kernel_rules()
    blocks = 4 * (os.cpu_count() or 1)
    uws = None
    for j in range(turns - 1, -1, -1):
        ms, mm, ff = reach.layers[j]
        P = np.empty((len(ms), L))
        nblocks = min(blocks, len(ms))
        if not parallel:
            uws = utility_workspace_arrays(L) if uws is None else uws
            utility_rows(vectors[j + 1], reach.row_of, P, ms, mm, ff, bundle, uws)
        elif W is None:
            utility_layer(vectors[j + 1], reach.row_of, P, ms, mm, ff, bundle, nblocks)
        else:
            W2 = np.empty((len(ms), L))
            utility_pair_layer(vectors[j + 1], W, reach.row_of, P, W2, ms, mm, ff, bundle, nblocks)
            W = W2
        vectors[j] = P
        if not keep_all:
            vectors[j + 1] = np.empty((0, L))
    win_only = None if W is None else float(W[0, L - 1])
    return WinSolution(rules, reach, vectors, score, top, time.perf_counter() - t0, win_only)
