"""The Yatzy turn, layer and play kernels against their plain-Python twins (placement with the
joker rules, turn law, layer pushes, decided turns, state index)."""

import numpy as np
import pytest
from numba import njit

from gamelab.yatzy._distribution_kernels import (
    backward_layer,
    backward_layer_python,
    forward_layer,
    forward_layer_python,
    take_outcome,
    turn_outcomes,
    turn_outcomes_python,
)
from gamelab.yatzy._play_kernels import (
    UNIFORMS_PER_TURN,
    decided_turn,
    decided_turn_python,
    expectation_turn,
    play_to_round,
    round_scratch,
)
from gamelab.yatzy._turn_kernels import (
    W_ACC,
    W_ROLL_I,
    YAHTZEE_ROLLS,
    decision_cache_arrays,
    legal_boxes,
    legal_moves_python,
    new_decision_cache,
    new_workspace,
    placement,
    split_state,
    state_index,
    workspace_arrays,
    workspace_decisions,
)
from gamelab.yatzy._widget_kernels import new_lane_scratch, widget_policy
from gamelab.yatzy.distribution import layer_rows
from gamelab.yatzy.rules import JOKER_FORCED, JOKER_FREE, RULES, RuleSet
from gamelab.yatzy.simulate import play_scores
from gamelab.yatzy.solver import masks_by_popcount

BOXES = ("fours", "fives", "sixes", "three_kind", "full_house", "yahtzee", "chance")
SMALL = [
    RuleSet("mini-forced", BOXES, 35, 100, JOKER_FORCED),
    RuleSet(
        "mini-free",
        ("fours", "fives", "sixes", "small_straight", "full_house", "yahtzee", "chance"),
        35,
        100,
        JOKER_FREE,
    ),
]
ALL_RULES = [*RULES.values(), *SMALL]


def _states(rules, rng, n):
    """Random states, half of them with the Yahtzee box filled (the extra-Yahtzee paths)."""
    nb = rules.n_boxes
    yb = rules.boxes.index("yahtzee") if "yahtzee" in rules.boxes else -1
    out = []
    for i in range(n):
        mask = int(rng.integers(0, (1 << nb) - 1))
        if yb >= 0 and i % 2:
            mask |= 1 << yb
        if mask == (1 << nb) - 1:
            mask &= ~1
        f = int(rng.integers(0, rules.bonus_flags)) if yb >= 0 and (mask >> yb) & 1 else 0
        out.append((mask, int(rng.integers(0, 64)), f))
    return out


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.name)
def test_placement_and_legal_boxes_match_the_rules_twin(rules):
    rng = np.random.default_rng(11)
    bundle = rules.kernel_rules()
    out = np.empty(rules.n_boxes, dtype=np.int64)
    rolls = [*YAHTZEE_ROLLS.tolist(), *rng.integers(0, 252, 12).tolist()]
    for mask, m, f in _states(rules, rng, 40):
        for r in rolls:
            want = legal_moves_python(rules, mask, m, f, r)
            n = legal_boxes(mask, f, r, bundle, out)
            assert out[:n].tolist() == [b for b, _, _ in want], (mask, m, f, r)
            for b, s, j in want:
                assert tuple(int(x) for x in placement(mask, m, f, b, r, bundle)) == (s, j)


@njit(cache=True)
def _turn_law(mask, m, f, rules, ws):
    """turn_outcomes and take_outcome (kernels without a Python entry) read out as arrays:
    (probability, next state index, points) per outcome."""
    n = turn_outcomes(mask, m, f, rules, ws)
    P = np.zeros(n)
    J = np.zeros(n, dtype=np.int64)
    S = np.zeros(n, dtype=np.int64)
    for o in range(n):
        P[o], J[o], S[o] = take_outcome(ws[W_ACC], ws[W_ROLL_I], o)
    return P, J, S


@pytest.mark.parametrize("rules", [RULES["yahtzee"], RULES["yatzy"], *SMALL], ids=lambda r: r.name)
def test_turn_outcomes_match_twin(rules):
    rng = np.random.default_rng(3)
    bundle = rules.kernel_rules()
    E = rng.uniform(0, 100, rules.n_states)
    ws = new_workspace(rules.n_boxes)
    for mask, m, f in _states(rules, rng, 3):
        widget_policy(E, mask, m, f, bundle, ws)
        P, J, S = _turn_law(mask, m, f, bundle, ws)
        got = {(int(j), int(s)): float(p) for p, j, s in zip(P, J, S, strict=True)}
        assert len(got) == len(P)  # each (next state, points) once
        want = turn_outcomes_python(mask, m, f, rules, *workspace_decisions(ws))
        assert got.keys() == want.keys()
        for key, p in want.items():
            assert got[key] == pytest.approx(p, abs=1e-14)
        assert sum(got.values()) == pytest.approx(1.0, abs=1e-12)


def test_state_index_round_trip_and_bonus_flags():
    for rules in ALL_RULES:
        nf = rules.bonus_flags
        assert nf == (2 if rules.yahtzee_bonus else 1)
        assert rules.n_states == (1 << rules.n_boxes) * 64 * nf
        j = int(state_index(0b1011, 37, nf - 1, nf))
        assert tuple(int(x) for x in split_state(j, nf)) == (0b1011, 37, nf - 1)
    ms, mm, ff = np.array([1, 5]), np.array([0, 63]), np.array([1, 0])
    assert state_index(ms, mm, ff, 2).tolist() == [(1 * 64 + 0) * 2 + 1, (5 * 64 + 63) * 2]


def test_decision_cache_and_workspace_from_numpy_are_the_kernels():
    # simulate makes its decision cache by numpy (no allocation to compile): the same arrays
    made = decision_cache_arrays(10, 4)
    kernel = new_decision_cache(10, 4)
    assert [(a.shape, a.dtype, a.flags.c_contiguous) for a in made] == [
        (a.shape, a.dtype, a.flags.c_contiguous) for a in kernel
    ]
    assert np.array_equal(made[0], kernel[0]) and np.array_equal(made[2], kernel[2])
    # and its workspace (play_games_cached takes it from the caller)
    assert [(a.shape, a.dtype) for a in workspace_arrays(13)] == [
        (a.shape, a.dtype) for a in new_workspace(13)
    ]


def _layer_setup(rules, k, rng):
    ms, mm, ff = layer_rows(rules, masks_by_popcount(rules.n_boxes)[k])
    ms2, mm2, ff2 = layer_rows(rules, masks_by_popcount(rules.n_boxes)[k + 1])
    row_of = np.full(rules.n_states, -1, dtype=np.int64)
    row_of[state_index(ms2, mm2, ff2, rules.bonus_flags)] = np.arange(len(ms2))
    E = rng.uniform(0, 100, rules.n_states)
    return (ms, mm, ff), len(ms2), row_of, E


@pytest.mark.parametrize("rules", SMALL, ids=lambda r: r.name)
def test_layer_kernels_match_twins(rules):
    rng = np.random.default_rng(5)
    (ms, mm, ff), n2, row_of, E = _layer_setup(rules, 5, rng)
    rows = min(len(ms), 12)
    bundle = rules.kernel_rules()
    W = E**2 + 1.0
    F = rng.random((len(ms), 40))
    got, want = np.zeros((n2, 60)), np.zeros((n2, 60))  # narrow: some mass overflows
    over_got, over_want = np.zeros(3), np.zeros(3)
    ws = workspace_arrays(rules.n_boxes)
    lanes = new_lane_scratch(rules.n_boxes)
    forward_layer(E, F, rows, row_of, got, ms, mm, ff, bundle, over_got, W, ws, lanes)
    forward_layer_python(E, F, rows, row_of, want, ms, mm, ff, rules, over_want, W)
    assert np.allclose(got, want, atol=1e-12) and np.allclose(over_got, over_want, rtol=1e-12)
    assert over_got[0] > 0
    D2 = rng.random((n2, 30))
    got, want = np.zeros((len(ms), 50)), np.zeros((len(ms), 50))
    backward_layer(E, got, rows, D2, row_of, ms, mm, ff, bundle)
    backward_layer_python(E, want, rows, D2, row_of, ms, mm, ff, rules)
    assert np.allclose(got, want, atol=1e-12)


@pytest.mark.parametrize("rules", [RULES["yahtzee"], *SMALL], ids=lambda r: r.name)
def test_turn_kernels_match_twins(rules):
    rng = np.random.default_rng(9)
    bundle = rules.kernel_rules()
    E = rng.uniform(0, 100, rules.n_states)
    ws = new_workspace(rules.n_boxes)
    for mask, m, f in _states(rules, rng, 6):
        u = rng.random(UNIFORMS_PER_TURN)
        u[:15] = u[:15] / 6.0 + (u[0] > 0.5) * 5 / 6  # many five-of-a-kinds
        widget_policy(E, mask, m, f, bundle, ws)
        box3, keep2, keep1 = (a.copy() for a in workspace_decisions(ws))
        want = decided_turn_python(box3, keep2, keep1, u, mask, m, f, rules)
        assert (
            tuple(int(x) for x in decided_turn(box3, keep2, keep1, u, mask, m, f, bundle)) == want
        )
        assert tuple(int(x) for x in expectation_turn(E, mask, m, f, u, bundle, ws)) == want


def test_play_to_round_ends_at_the_game_kernel_scores():
    rules = SMALL[0]
    rng = np.random.default_rng(2)
    E = rng.uniform(0, 100, rules.n_states)
    u = rng.random((20, rules.n_boxes, UNIFORMS_PER_TURN))
    out = np.zeros((20, 2, 4), dtype=np.int64)
    rounds = np.array([3, rules.n_boxes], dtype=np.int64)
    play_to_round(E, u, rounds, rules.kernel_rules(), out, *round_scratch(rules.n_boxes, len(E)))
    assert out[:, 1, 3].tolist() == play_scores(rules, "optimal", u, E=E).tolist()
    assert (out[:, 1, 0] == (1 << rules.n_boxes) - 1).all()
    assert all(bin(int(x)).count("1") == 3 for x in out[:, 0, 0])
