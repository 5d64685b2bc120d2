"""Win play: exact laws, the solve's value realised by its own decisions, the study's bookkeeping."""

import numpy as np
import pytest
from numba import njit

from gamelab.core.parallel import Backend
from gamelab.core.serialise import to_plain
from gamelab.yatzy import winplay as wp
from gamelab.yatzy import winplay_study as study
from gamelab.yatzy._distribution_kernels import turn_outcomes
from gamelab.yatzy._play_kernels import UNIFORMS_PER_TURN
from gamelab.yatzy._turn_kernels import RI_OUT_B, RI_OUT_J, RI_OUT_S, W_ACC, W_ROLL_I, split_state
from gamelab.yatzy.distribution import score_distribution
from gamelab.yatzy.rules import JOKER_FORCED, RuleSet
from gamelab.yatzy.solver import solve, state_index


@njit(cache=True)
def _turn_outcomes(mask, m, f, rules, ws):
    """turn_outcomes (a kernel without a Python entry) called from Python: the outcomes are
    left in the workspace."""
    return turn_outcomes(mask, m, f, rules, ws)


BOXES = ("fours", "fives", "sixes", "three_kind", "full_house", "yahtzee", "chance")
MINI = RuleSet("mini-plain", BOXES, 35)
MINI_FORCED = RuleSet("mini-forced", BOXES, 35, 100, JOKER_FORCED)


@pytest.mark.parametrize("rules", [MINI, MINI_FORCED], ids=lambda r: r.name)
def test_final_score_law_from_the_start_is_the_distribution(rules):
    E = solve(rules).E
    lo, p = wp.final_score_law(rules, (0, 0, 0, 0), E)
    dist = score_distribution(rules, cap=rules.max_score)
    full = np.zeros(len(dist.probability))
    full[lo : lo + len(p)] = p
    assert np.allclose(full, dist.probability, atol=1e-14)
    # from a later state with a score: shifted by the score, mean = score + E[state]
    state = (0b0100101, 14, 0, 40)  # fours 8, sixes 6
    lo, p = wp.final_score_law(rules, state, E)
    mean = float(((lo + np.arange(len(p))) * p).sum())
    assert mean == pytest.approx(40 + E[state_index(rules, state[0], state[1], 0)], abs=1e-9)


def test_win_utility():
    law = (10, np.array([0.25, 0.5, 0.25]))
    u = wp.win_utility(law, np.array([5, 10, 11, 12, 13, 40]))
    assert u.tolist() == [0.0, 0.125, 0.5, 0.875, 1.0, 1.0]


def _policy_value(rules, sol, a_state, law, tie=0.5):
    """P(A wins) + tie P(tie) of the solve's decisions, by exact forward propagation."""
    bundle = rules.kernel_rules()
    scratch = wp.decision_scratch(rules.n_boxes)
    acc, roll_i = scratch[W_ACC], scratch[W_ROLL_I]
    ob, oj, os_ = roll_i[RI_OUT_B], roll_i[RI_OUT_J], roll_i[RI_OUT_S]
    mass = {(a_state[0], a_state[1], a_state[2], a_state[3]): 1.0}
    turns = len(sol.reach.layers) - 1
    for j in range(turns):
        nxt = {}
        for (mask, m, f, s), p in mass.items():
            sol.decisions(j, mask, m, f, s, scratch)  # left in the workspace
            n = _turn_outcomes(mask, m, f, bundle, scratch)
            for o in range(n):
                q = acc[ob[o], os_[o]]
                acc[ob[o], os_[o]] = 0.0
                key = (*(int(x) for x in split_state(oj[o], rules.bonus_flags)), s + int(os_[o]))
                nxt[key] = nxt.get(key, 0.0) + p * q
        mass = nxt
    scores = np.array([k[3] for k in mass])
    probs = np.array(list(mass.values()))
    return float(probs @ wp.win_utility(law, scores, tie=tie))


@pytest.mark.parametrize("rules", [MINI, MINI_FORCED], ids=lambda r: r.name)
def test_win_solve_value_is_realised_and_beats_expectation(rules):
    E = solve(rules).E
    yb = rules.boxes.index("yahtzee")
    a = ((1 << yb) | 0b0000001, 16, 1 if rules.has_bonus_flag else 0, 70)
    b = (0b0000110, 11, 0, 95)
    law = wp.final_score_law(rules, b, E)
    sol = wp.solve_win(rules, a, law)
    exp = wp.expectation_win_probability(rules, a, b, E)
    assert 0.0 < exp < 1.0
    assert sol.value >= exp - 1e-12
    assert sol.value - exp > 1e-3  # trailing by 25 with 5 turns left: risk helps here
    assert _policy_value(rules, sol, a, law) == pytest.approx(sol.value, abs=1e-12)
    # already out of reach of B's best: a sure win with any play
    lo, p = law
    sure = wp.solve_win(rules, (a[0], a[1], a[2], lo + len(p) + 5), law)
    assert sure.value == 1.0


@pytest.mark.parametrize("rules", [MINI, MINI_FORCED], ids=lambda r: r.name)
def test_win_solve_outcomes_are_those_of_its_decisions(rules):
    """P(win), P(tie), P(loss) apart (issue 25, Yatzy 1: the page showed win + half the tie as
    "P(bot wins)"): the paired solve's parts equal the played decisions' exact laws."""
    E = solve(rules).E
    a = (0b0010001, 12, 0, 60)
    b = (0b0001110, 11, 0, 64)
    law = wp.final_score_law(rules, b, E)
    plain = wp.solve_win(rules, a, law)
    sol = wp.solve_win(rules, a, law, outcomes=True)
    assert sol.value == plain.value  # the same utility vectors
    assert [v.tolist() for v in sol.vectors] == [v.tolist() for v in plain.vectors]
    win, tie, loss = sol.outcomes()
    assert tie > 0.005 and win > 0.01 and loss > 0.01
    assert win + tie + loss == pytest.approx(1.0, abs=1e-12)
    assert win + 0.5 * tie == pytest.approx(sol.value, abs=1e-12)
    assert win == pytest.approx(_policy_value(rules, sol, a, law, tie=0.0), abs=1e-12)
    assert win + tie == pytest.approx(_policy_value(rules, sol, a, law, tie=1.0), abs=1e-12)
    with pytest.raises(ValueError, match="outcomes"):
        plain.outcomes()


@pytest.mark.parametrize("rules", [MINI, MINI_FORCED], ids=lambda r: r.name)
def test_utility_pair_widget_matches_twin(rules):
    from gamelab.yatzy._utility_kernels import (
        new_pair_workspace,
        new_utility_workspace,
        utility_pair_widget,
        utility_pair_widget_python,
        utility_widget,
    )

    rng = np.random.default_rng(5)
    bundle = rules.kernel_rules()
    L = 7
    Pn = np.sort(rng.random((30, L)), axis=1)[:, ::-1].copy()
    Pn[:, 0] = 1.0
    Pn[3] = Pn[4]  # exact ties of the utility: the second value decides
    Wn = Pn * rng.random((30, L))
    row_of = rng.integers(0, 30, rules.n_states)
    yb = rules.boxes.index("yahtzee")
    for mask, m, f in [(0, 0, 0), (0b0000101, 8, 0), ((1 << yb) | 0b11, 30, 0), (0b1011010, 0, 0)]:
        u, w = utility_pair_widget(Pn, Wn, row_of, mask, m, f, bundle, new_pair_workspace(L))
        want_u, want_w = utility_pair_widget_python(Pn, Wn, row_of, mask, m, f, rules)
        assert np.allclose(u, want_u, atol=1e-13) and np.allclose(w, want_w, atol=1e-13)
        plain = utility_widget(Pn, row_of, mask, m, f, bundle, new_utility_workspace(L))
        assert np.array_equal(u, plain)


def test_study_records_and_pairing():
    res = study.winplay_study(
        MINI, turns_left=3, games=6, seed=3, chunk=3, backend=Backend(workers=1)
    )
    assert res.games == 6
    assert res.single_minus_expectation.value >= -1e-12
    for key in ("expectation_exact", "single_exact", "retarget_simulated"):
        assert 0.0 <= getattr(res, key).value <= 1.0
    # one A turn left, A first: re-targeting sees nothing new, so it plays the single solve
    res1 = study.winplay_study(
        MINI, turns_left=1, games=4, seed=1, chunk=4, backend=Backend(workers=1)
    )
    assert res1.retarget_minus_single.value == 0.0
    # exact-only: the same switch positions and exact values, no simulations
    ex = study.winplay_study(
        MINI, turns_left=3, games=6, seed=3, chunk=3, backend=Backend(workers=1), simulate=False
    )
    assert ex.single_exact == res.single_exact and ex.retarget_simulated is None
    assert "retarget_simulated" not in to_plain(ex) and "retarget_simulated" in to_plain(res)


def test_study_games_on_threads_give_the_same_records():
    """The default study plays a chunk's games side by side on threads (each game's solves in
    its thread, solve_win(parallel=False)): the records of one thread, bit for bit."""
    timings = ("single_seconds", "retarget_seconds")

    def records(threads):
        item = (MINI, 3, 5, True, True, threads)
        recs = study.winplay_chunk(item, np.random.default_rng(8))
        return [{k: v for k, v in r.items() if k not in timings} for r in recs]

    assert records(3) == records(1)
    default = study.winplay_study(MINI, turns_left=3, games=6, seed=3, chunk=3)
    one = study.winplay_study(MINI, turns_left=3, games=6, seed=3, chunk=3, backend=Backend(1))
    for key in ("single_exact", "expectation_exact", "retarget_simulated", "gain_quantiles"):
        assert getattr(default, key) == getattr(one, key)


def test_b_ignores_a():
    rng = np.random.default_rng(5)
    ua = rng.random((8, MINI.n_boxes, UNIFORMS_PER_TURN))
    ub = rng.random((8, MINI.n_boxes, UNIFORMS_PER_TURN))
    E = solve(MINI).E
    sa, sb = study.switch_states(MINI, 2, ua, ub)
    for g in range(8):
        law = wp.final_score_law(MINI, sb[g], E)
        single = wp.solve_win(MINI, sa[g], law)
        serial = wp.solve_win(MINI, sa[g], law, parallel=False)  # one thread: the same vectors
        assert all(
            np.array_equal(x, y) for x, y in zip(serial.vectors, single.vectors, strict=True)
        )
        r1 = study.play_endgame(MINI, sa[g], sb[g], ua[g], ub[g], "single", True, single, E)
        r2 = study.play_endgame(MINI, sa[g], sb[g], ua[g], ub[g], "retarget", True, single, E)
        assert r1["b"] == r2["b"]  # B ignores A
        r3 = study.play_endgame(MINI, sa[g], sb[g], ua[g], ub[g], "expectation", True, single, E)
        assert r3["b"] == r1["b"]


def test_bad_input():
    with pytest.raises(ValueError, match="turns left"):
        study.winplay_study(MINI, turns_left=0, games=4)
    with pytest.raises(ValueError, match="bonus flag"):
        wp.reachable_states(MINI_FORCED, 0, 0, 1)
    with pytest.raises(ValueError, match="policy"):
        study.play_endgame(MINI, (0, 0, 0, 0), (0, 0, 0, 0), None, None, "bold", True)


def test_win_from_start_mini():
    res = study.win_from_start(MINI, use_cache=False)
    assert res.expectation == pytest.approx(0.5, abs=1e-12)  # symmetric players
    assert res.single > 0.5
