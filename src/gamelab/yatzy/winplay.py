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
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from gamelab.core.cache import cached_arrays
from gamelab.core.parallel import Backend, chunk_sizes, run_tasks
from gamelab.core.stats import Difference, Estimate, mean_interval, paired_difference
from gamelab.yatzy._distribution_kernels import forward_layer
from gamelab.yatzy._play_kernels import (
    UNIFORMS_PER_TURN,
    decided_turn,
    expectation_turn,
    play_to_round,
)
from gamelab.yatzy._turn_kernels import (
    KF_K1,
    KF_K2,
    W_KEEP_F,
    new_workspace,
    placement,
    split_state,
    state_index,
    upper_subset,
    workspace_decisions,
)
from gamelab.yatzy._utility_kernels import utility_decisions, utility_layer, utility_pair_layer
from gamelab.yatzy.card import Card
from gamelab.yatzy.rules import (
    KEEPS,
    RULES,
    SUBKEEP_INDEX,
    SUBKEEP_START,
    RuleSet,
    dice_text,
    roll_index,
)
from gamelab.yatzy.simulate import strategy_values
from gamelab.yatzy.solver import solve, upper_reach


def _expected_values(rules: RuleSet) -> np.ndarray:
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
    """Supersets of `mask` with the upper totals reachable from `m` and the possible flags."""
    nb = rules.n_boxes
    full = (1 << nb) - 1
    if mask & ~full or mask < 0:
        raise ValueError(f"mask {mask} is not a set of the {nb} boxes")
    if not 0 <= m <= 63:
        raise ValueError(f"upper total m must be 0..63, got {m}")
    tab = rules.kernel_tables()
    uf = tab["upper_face"]
    ybox = int(tab["params"][4])
    nf = rules.bonus_flags
    if f not in range(nf) or (f == 1 and not (mask >> ybox) & 1):
        raise ValueError(f"bonus flag {f} is impossible for this state")
    reach = upper_reach()
    u0 = int(upper_subset(mask, uf, nb))
    free = [b for b in range(nb) if not (mask >> b) & 1]
    k = len(free)
    per_layer: list[list[tuple[int, int, int]]] = [[] for _ in range(k + 1)]
    for sub in range(1 << k):
        msk = mask
        for i, b in enumerate(free):
            if (sub >> i) & 1:
                msk |= 1 << b
        new_upper = int(upper_subset(msk, uf, nb)) & ~u0
        sums = np.nonzero(reach[new_upper])[0]
        mset = sorted({min(63, m + int(s)) for s in sums})
        if nf == 1 or f == 1 or (mask >> ybox) & 1 or not (msk >> ybox) & 1:
            flags = [f]
        else:
            flags = [0, 1]
        layer = bin(sub).count("1")
        per_layer[layer].extend((msk, mm, ff) for mm in mset for ff in flags)
    row_of = np.full(rules.n_states, -1, dtype=np.int64)
    layers = []
    for rows in per_layer:
        arr = np.array(rows, dtype=np.int64).reshape(-1, 3)
        row_of[state_index(arr[:, 0].copy(), arr[:, 1].copy(), arr[:, 2].copy(), nf)] = np.arange(
            len(arr)
        )
        layers.append((arr[:, 0].copy(), arr[:, 1].copy(), arr[:, 2].copy()))
    return ReachableStates(rules, layers, row_of)


def _max_remaining(rules: RuleSet, turns: int) -> int:
    tab = rules.kernel_tables()
    tops = sorted(
        (
            max(int(rules.base_scores[b].max()), int(tab["joker_value"][b].max()))
            for b in range(rules.n_boxes)
        ),
        reverse=True,
    )
    return sum(tops[:turns]) + (rules.upper_bonus if turns else 0) + rules.yahtzee_bonus * turns


def final_score_law(
    rules: RuleSet, state: tuple[int, int, int, int], E: np.ndarray | None = None
) -> tuple[int, np.ndarray]:
    """(offset, p): P(final score = offset + i) = p[i] under expected-score play from `state`.

    `state` = (mask, m, f, score). Exact (forward propagation over the reachable states).
    """
    mask, m, f, score = (int(x) for x in state)
    if E is None:
        E = _expected_values(rules)
    reach = reachable_states(rules, mask, m, f)
    turns = len(reach.layers) - 1
    width = _max_remaining(rules, turns) + 1
    bundle = rules.kernel_rules()
    ms, mm, ff = reach.layers[0]
    F = np.zeros((len(ms), width))
    F[0, 0] = 1.0
    overflow = np.zeros(2)
    for j in range(turns):
        ms2, mm2, ff2 = reach.layers[j + 1]
        F2 = np.zeros((len(ms2), width))
        forward_layer(E, F, len(ms), reach.row_of, F2, ms, mm, ff, bundle, overflow, E)
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
    la = final_score_law(rules, a_state, E)
    lb = final_score_law(rules, b_state, E)
    scores = la[0] + np.arange(len(la[1]))
    return float(la[1] @ win_utility(lb, scores))


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
    return new_workspace(n_boxes)


def solve_win(
    rules: RuleSet,
    a_state,
    b_law: tuple[int, np.ndarray],
    keep_all: bool = True,
    outcomes: bool = False,
) -> WinSolution:
    """The policy maximising P(A wins) + 0.5 P(tie) from A's `a_state` = (mask, m, f, score)
    against an opponent whose final score has the law `b_law` = (offset, p).

    keep_all=False keeps only two layers at a time (the value only, for long solves); the
    decisions then need keep_all=True. outcomes=True also carries P(A wins) through the same
    decisions (:func:`gamelab.yatzy._utility_kernels.utility_pair_layer`, about twice the work),
    so :meth:`WinSolution.outcomes` can give P(win), P(tie) and P(loss) apart (between choices
    of equal value it takes the one winning more often; the played decisions break such exact
    ties by the first box and the smallest keep)."""
    t0 = time.perf_counter()
    mask, m, f, score = (int(x) for x in a_state)
    lo, p = b_law
    top = lo + len(p)  # u = 1 from here on
    L = max(1, top - score + 1)
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
    for j in range(turns - 1, -1, -1):
        ms, mm, ff = reach.layers[j]
        P = np.empty((len(ms), L))
        nblocks = min(blocks, len(ms))
        if W is None:
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


# ---------------------------------------------------------------------------------------------
# measurement


def _split(j: int, nf: int) -> tuple[int, int, int]:
    mask, m, f = split_state(j, nf)
    return int(mask), int(m), int(f)


def switch_states(rules: RuleSet, turns_left: int, ua: np.ndarray, ub: np.ndarray):
    """(A, B) states [games, 4] after 13 - K rounds of expected-score play on the uniforms."""
    E = _expected_values(rules)
    rounds = np.array([rules.n_boxes - turns_left], dtype=np.int64)
    out = []
    for u in (ua, ub):
        pos = np.zeros((u.shape[0], 1, 4), dtype=np.int64)
        play_to_round(E, u, rounds, rules.kernel_rules(), pos)
        out.append(pos[:, 0, :])
    return out[0], out[1]


def play_endgame(
    rules: RuleSet,
    a_state,
    b_state,
    ua,
    ub,
    policy: str,
    a_first: bool,
    single: WinSolution | None = None,
    E: np.ndarray | None = None,
) -> dict:
    """Finish one game from the switch; ua/ub [13, 18] uniforms, turns from the switch on.

    policy: 'expectation', 'single' (needs `single`) or 'retarget' (reuses `single` while B's
    state is still the switch state). Returns A's and B's final scores, A's win value
    (1, 0.5, 0) and the seconds spent in solves.
    """
    if policy not in ("expectation", "single", "retarget"):
        raise ValueError(f"policy must be expectation, single or retarget, got {policy!r}")
    if policy == "single" and single is None:
        raise ValueError("the single policy needs the switch solve (single=...)")
    if E is None:
        E = _expected_values(rules)
    bundle = rules.kernel_rules()
    nf = rules.bonus_flags
    nb = rules.n_boxes
    full = (1 << nb) - 1
    ma, mma, fa, sa = (int(x) for x in a_state)
    mb, mmb, fb, sb = (int(x) for x in b_state)
    start_b = (mb, mmb, fb, sb)
    scratch = decision_scratch(nb)
    solve_seconds = 0.0
    taken = 0

    def b_turn():
        nonlocal mb, mmb, fb, sb
        pts, j = expectation_turn(E, mb, mmb, fb, ub[bin(mb).count("1")], bundle, scratch)
        sb += int(pts)
        mb, mmb, fb = _split(int(j), nf)

    while ma != full or mb != full:
        if not a_first and mb != full:
            b_turn()
        if ma != full:
            u = ua[bin(ma).count("1")]  # the uniforms of A's turn number
            if policy == "expectation":
                pts, j = expectation_turn(E, ma, mma, fa, u, bundle, scratch)
            else:
                if policy == "single":
                    sol, jt = single, taken
                elif taken == 0 and (mb, mmb, fb, sb) == start_b and single is not None:
                    sol, jt = single, 0
                else:
                    law = final_score_law(rules, (mb, mmb, fb, sb), E)
                    sol = solve_win(rules, (ma, mma, fa, sa), law)
                    solve_seconds += sol.seconds
                    jt = 0
                assert sol is not None
                box3, keep2, keep1 = sol.decisions(jt, ma, mma, fa, sa, scratch)
                pts, j = decided_turn(box3, keep2, keep1, u, ma, mma, fa, bundle)
            sa += int(pts)
            ma, mma, fa = _split(int(j), nf)
            taken += 1
        if a_first and mb != full:
            b_turn()
    win = 1.0 if sa > sb else (0.5 if sa == sb else 0.0)
    return {"a": sa, "b": sb, "win": win, "solve_seconds": solve_seconds}


def winplay_chunk(item: tuple, rng: np.random.Generator) -> list[dict]:
    """run_tasks worker: item = (rules, K, games, a_first, simulate) -> one record per game.

    simulate=False records only the exact values (no endgame simulations)."""
    rules, turns_left, games, a_first, simulate = item
    E = _expected_values(rules)
    ua = rng.random((games, rules.n_boxes, UNIFORMS_PER_TURN))
    ub = rng.random((games, rules.n_boxes, UNIFORMS_PER_TURN))
    sa, sb = switch_states(rules, turns_left, ua, ub)
    out = []
    for g in range(games):
        a = (int(sa[g][0]), int(sa[g][1]), int(sa[g][2]), int(sa[g][3]))
        b = (int(sb[g][0]), int(sb[g][1]), int(sb[g][2]), int(sb[g][3]))
        law_b = final_score_law(rules, b, E)
        t0 = time.perf_counter()
        single = solve_win(rules, a, law_b, keep_all=simulate)
        solve_s = time.perf_counter() - t0
        exp_exact = expectation_win_probability(rules, a, b, E)
        if single.value < exp_exact - 1e-9:
            raise AssertionError(f"win-play value {single.value} below expectation {exp_exact}")
        rec = {
            "a": list(a),
            "b": list(b),
            "exp_exact": exp_exact,
            "single_exact": single.value,
            "single_seconds": solve_s,
            "L": single.length,
            "states": int(sum(len(x[0]) for x in single.reach.layers)),
        }
        if not simulate:
            out.append(rec)
            continue
        t0 = time.perf_counter()
        for policy in ("expectation", "single", "retarget"):
            res = play_endgame(rules, a, b, ua[g], ub[g], policy, a_first, single, E)
            rec[policy] = res["win"]
        rec["retarget_seconds"] = time.perf_counter() - t0
        out.append(rec)
    return out


#: ranges of A's exact expectation-play win chance over which the win-play gain is averaged
GAIN_BUCKETS = ((0.0, 0.1), (0.1, 0.3), (0.3, 0.7), (0.7, 0.9), (0.9, 1.01))


@dataclass(frozen=True)
class GainBucket:
    """The mean exact win-play gain over the games whose expectation-play chance lies in
    `chance` = [lo, hi)."""

    chance: tuple[float, float]
    games: int
    mean_gain: float | None


@dataclass(frozen=True)
class WinPlayStudy:
    """Win rates (ties half) of expectation play, one win-play solve at the switch, and (when
    simulated) re-targeting win play, over sampled switch positions; exact values per game."""

    rules: str
    turns_left: int
    games: int
    a_first: bool
    seed: int
    expectation_exact: Estimate
    single_exact: Estimate
    single_minus_expectation: Difference
    gain_quantiles: dict[str, float]
    gain_by_expectation_chance: list[GainBucket]
    seconds_per_single_solve: float
    max_seconds_single_solve: float
    mean_vector_length: float
    mean_states_per_solve: float
    wall_seconds: float
    expectation_simulated: Estimate | None = None
    single_simulated: Estimate | None = None
    retarget_simulated: Estimate | None = None
    retarget_minus_single: Difference | None = None
    retarget_differs_from_single: float | None = None
    retarget_minus_expectation_simulated: Difference | None = None
    seconds_per_game_endgames: float | None = None

    def __json__(self) -> dict[str, Any]:
        # the simulated quantities are absent (not null) in an exact-only study
        return {
            f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None
        }


def winplay_study(
    rules: RuleSet = RULES["yahtzee-no-bonus"],
    turns_left: int = 5,
    games: int = 1000,
    seed: int = 0,
    a_first: bool = True,
    chunk: int = 20,
    backend: Backend | None = None,
    store=None,
    simulate: bool = True,
) -> WinPlayStudy:
    """Win rates (ties count half) of expectation, single-solve and re-targeting win play.

    simulate=False: only the exact per-game values (expectation and single solve)."""
    if not 1 <= turns_left <= rules.n_boxes:
        raise ValueError(f"turns_left must be 1..{rules.n_boxes}, got {turns_left}")
    if games < 2:
        raise ValueError(f"games must be at least 2, got {games}")
    _expected_values(rules)  # build the cached table before workers load it
    items = [(rules, turns_left, n, a_first, simulate) for n in chunk_sizes(games, chunk)]
    params = {
        "rules": rules.name,
        "turns_left": turns_left,
        "games": games,
        "seed": seed,
        "a_first": a_first,
        "chunk": chunk,
    }
    if not simulate:
        params["simulate"] = False
    t0 = time.perf_counter()
    results = run_tasks(
        winplay_chunk,
        items,
        seed=seed,
        backend=backend,
        label=f"yatzy win play K={turns_left}",
        store=store,
        experiment="yatzy-winplay" if store is not None else None,
        params=params,
    )
    wall = time.perf_counter() - t0
    recs = [r for chunk_recs in results for r in chunk_recs]
    keys = ["exp_exact", "single_exact", "single_seconds", "L", "states"]
    if simulate:
        keys += ["expectation", "single", "retarget", "retarget_seconds"]
    col = {k: np.array([r[k] for r in recs], dtype=float) for k in keys}

    gain = col["single_exact"] - col["exp_exact"]
    simulated: dict[str, Any] = {}
    if simulate:
        simulated = dict(
            expectation_simulated=mean_interval(col["expectation"]),
            single_simulated=mean_interval(col["single"]),
            retarget_simulated=mean_interval(col["retarget"]),
            retarget_minus_single=paired_difference(col["retarget"], col["single"]),
            retarget_differs_from_single=float((col["retarget"] != col["single"]).mean()),
            retarget_minus_expectation_simulated=paired_difference(
                col["retarget"], col["expectation"]
            ),
            seconds_per_game_endgames=float(col["retarget_seconds"].mean()),
        )
    return WinPlayStudy(
        rules=rules.name,
        turns_left=turns_left,
        games=len(recs),
        a_first=a_first,
        seed=seed,
        expectation_exact=mean_interval(col["exp_exact"]),
        single_exact=mean_interval(col["single_exact"]),
        single_minus_expectation=paired_difference(col["single_exact"], col["exp_exact"]),
        gain_quantiles={str(q): float(np.quantile(gain, q)) for q in (0.0, 0.5, 0.9, 0.99, 1.0)},
        gain_by_expectation_chance=[
            GainBucket((lo, hi), int(sel.sum()), float(gain[sel].mean()) if sel.any() else None)
            for lo, hi in GAIN_BUCKETS
            for sel in [(col["exp_exact"] >= lo) & (col["exp_exact"] < hi)]
        ],
        seconds_per_single_solve=float(col["single_seconds"].mean()),
        max_seconds_single_solve=float(col["single_seconds"].max()),
        mean_vector_length=float(col["L"].mean()),
        mean_states_per_solve=float(col["states"].mean()),
        wall_seconds=wall,
        **simulated,
    )


@dataclass(frozen=True)
class WinFromStart:
    """Win play from the empty card (K = all turns): A's best P(win) (`single`) against the
    expected-score player, and expectation play's (`expectation`, exactly one half)."""

    rules: str
    turns_left: int
    single: float
    expectation: float
    seconds: float
    states: float
    length: float


def win_from_start(
    rules: RuleSet = RULES["yahtzee-no-bonus"], use_cache: bool = True
) -> WinFromStart:
    """K = all turns: A plays for the win from the empty card against B's whole-game law.

    Both players start from the same state, so nothing is sampled: expectation play wins
    exactly half (ties counting half) and the solve's value is A's best win probability when
    it does not watch B's turns (cached; a few core-minutes without the Yahtzee bonus).
    """

    def compute() -> dict[str, np.ndarray]:
        E = _expected_values(rules)
        law = final_score_law(rules, (0, 0, 0, 0), E)
        sol = solve_win(rules, (0, 0, 0, 0), law, keep_all=False)
        exp = expectation_win_probability(rules, (0, 0, 0, 0), (0, 0, 0, 0), E)
        states = sum(len(x[0]) for x in sol.reach.layers)
        return {
            "single": np.array(sol.value),
            "expectation": np.array(exp),
            "seconds": np.array(sol.seconds),
            "states": np.array(states),
            "length": np.array(sol.length),
        }

    params = {"rules": rules.name, "boxes": list(rules.boxes)}
    arrays = cached_arrays("yatzy-winplay-start", params, 1, compute) if use_cache else compute()
    return WinFromStart(
        rules.name,
        rules.n_boxes,
        float(arrays["single"]),
        float(arrays["expectation"]),
        float(arrays["seconds"]),
        float(arrays["states"]),
        float(arrays["length"]),
    )


#: The measurement in docs/yatzy.md and the report (resumed from the result store).
REPORT_STUDY: dict[str, Any] = {
    "rules": RULES["yahtzee-no-bonus"],
    "turns_left": 8,
    "games": 1000,
    "seed": 1,
    "a_first": True,
    "chunk": 20,
}


#: The exact-only measurements at other K (docs/yatzy.md), resumed from the result store.
REPORT_EXACT_STUDIES: tuple[dict[str, Any], ...] = tuple(
    {
        "rules": RULES["yahtzee-no-bonus"],
        "turns_left": k,
        "games": n,
        "seed": 1,
        "a_first": True,
        "chunk": c,
        "simulate": False,
    }
    for k, n, c in (
        (1, 1000, 50),
        (2, 1000, 50),
        (3, 1000, 50),
        (4, 1000, 50),
        (5, 1000, 50),
        (6, 1000, 50),
        (7, 1000, 50),
        (10, 100, 10),
    )
)
