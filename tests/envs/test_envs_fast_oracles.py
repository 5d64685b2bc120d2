"""The oracles' fast paths (memos kept across steps and episodes, the steppers' flat state, the
per-card-state turn tables) give the values of a plain solve on random states of every game."""

from __future__ import annotations

import numpy as np
import pytest

from gamelab.voltorb.rules import VoltorbSetting
from gamelab.yatzy.rules import get_rules


# -- Yatzy -------------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["yatzy", "yahtzee"])
def test_yatzy_fast_oracle_equals_the_coach_on_random_games(rules):
    """Every legal action of every decision of random games (joker rules included): the fast
    path reads the stepper and the turn tables; the plain one asks the coach (``advise``) on the
    protocol's state. Equal to the last bit."""
    from gamelab.yatzy.oracle import YatzyOracle
    from gamelab.yatzy.state import YatzyGame
    from gamelab.yatzy.stepper import SolitaireStepper

    game = YatzyGame(get_rules(rules))
    stepper, oracle = SolitaireStepper(game), YatzyOracle(game.rules)
    rng, agent = np.random.default_rng(3), np.random.default_rng(4)
    decisions = 0
    for _ in range(2):
        stepper.reset(rng)
        while not stepper.done:
            plain = oracle.values(stepper.state())
            legal = np.flatnonzero(stepper.mask).tolist()
            assert sorted(plain) == legal
            assert [oracle.stepper_action_value(stepper, a) for a in legal] == [
                plain[a] for a in legal
            ]
            assert oracle.stepper_value(stepper) == max(plain.values())
            stepper.step(legal[int(agent.integers(len(legal)))])
            decisions += 1
    assert decisions > 60


def test_yatzy_turn_kernels_match_twins():
    from gamelab.yatzy._oracle_kernels import (
        box_options,
        box_options_python,
        new_turn_table,
        turn_tables,
        turn_tables_python,
    )
    from gamelab.yatzy._turn_kernels import new_workspace

    rules = get_rules("yahtzee")
    rng = np.random.default_rng(0)
    E = rng.random(rules.n_states) * 100  # any table: the arithmetic is what is compared
    ws, out = new_workspace(rules.n_boxes), new_turn_table()
    boxes = np.zeros(rules.n_boxes, dtype=np.int64)
    gains, after = np.zeros(rules.n_boxes, dtype=np.int64), np.zeros(rules.n_boxes)
    ybox = rules.boxes.index("yahtzee")
    for mask, m, f in [(0, 0, 0), (1 << ybox, 10, 1), (0b1010111, 63, 0), ((1 << 13) - 2, 40, 0)]:
        if f and not (mask >> ybox) & 1:
            continue
        turn_tables(E, mask, m, f, rules.kernel_rules(), ws, out)
        np.testing.assert_allclose(out, turn_tables_python(E, mask, m, f, rules), rtol=1e-12)
        for r in (0, 5, 100, 251):
            n = box_options(E, mask, m, f, r, rules.kernel_rules(), boxes, gains, after)
            got = [(int(boxes[i]), int(gains[i]), float(after[i])) for i in range(n)]
            assert got == box_options_python(E, mask, m, f, r, rules)


# -- Wordle ------------------------------------------------------------------------------------
def test_wordle_memoised_oracle_equals_a_plain_solve_on_random_states():
    """States of random games (several episodes through one oracle, so its memos of candidate
    sets and totals are used): every value equals the module's formula evaluated afresh, with
    the table's own partition and a new solver for every class."""
    from gamelab.wordle.oracle import WordleOracle
    from gamelab.wordle.solver.kernel_search import INF
    from gamelab.wordle.solver.optimal import OptimalSolver
    from gamelab.wordle.state import WordleGame
    from gamelab.wordle.stepper import GuessStepper

    game = WordleGame("gen1")
    table, limit = game.table, game.guess_limit
    memo = WordleOracle(game)

    def plain_total(cands, depth):
        if depth < 1:
            return INF
        if len(cands) <= 2:
            return 1 if len(cands) == 1 else (3 if depth >= 2 else INF)
        solver = OptimalSolver(game.setting.with_limit(None))
        return min(int(solver.best_guess(cands, depth)[0]), INF)

    def plain_action_value(cands, used, action):
        total = len(cands)
        for code, part in table.partition(action, cands).items():
            if code == table.green and table.is_answer(action, int(part[0])):
                continue
            total += plain_total(part, limit - used - 1)
            if total >= INF:
                return -float(limit + 1)
        return -(used + total / len(cands))

    rng = np.random.default_rng(5)
    checked = 0
    stepper = GuessStepper(game)  # the environment's path, beside the state's
    for answer in (3, 77, 3, 50):
        state = game.new_initial_state()
        state.apply(answer)
        stepper.reset(np.random.default_rng(0))
        stepper.answer = answer
        cands = table.all_answers()
        while not state.is_terminal():
            used = len(state.guesses)
            total = plain_total(cands, limit - used)
            plain = -float(limit + 1) if total >= INF else -(used + total / len(cands))
            assert memo.value(state) == plain == memo.stepper_value(stepper)
            for action in rng.integers(game.num_actions, size=3).tolist():
                want = plain_action_value(cands, used, action)
                assert memo.action_value(state, action) == want
                assert memo.stepper_action_value(stepper, action) == want
                checked += 1
            action = int(rng.integers(game.num_actions))
            state.apply(action)
            stepper.step(action)
            cands = table.filter(cands, action, state.codes[-1])
    assert checked >= 20


# -- Voltorb -----------------------------------------------------------------------------------
def test_voltorb_cached_solver_equals_a_fresh_solve_of_each_state():
    """Rounds of random flips (the same deal twice, so the kept solver is reused): the value of
    every state and of every candidate flip from the stepper equals a solve started afresh from
    that state's own posterior."""
    from gamelab.voltorb.expectimax import OptimalSolver, choice_value
    from gamelab.voltorb.oracle import VoltorbOracle
    from gamelab.voltorb.posterior import posterior_for
    from gamelab.voltorb.state import VoltorbGame
    from gamelab.voltorb.stepper import RoundStepper

    game = VoltorbGame(VoltorbSetting(3), "win")
    stepper, oracle = RoundStepper(game), VoltorbOracle(VoltorbSetting(3))
    agent = np.random.default_rng(1)
    checked = 0
    for seed in (0, 1, 0):
        stepper.reset(np.random.default_rng(seed))
        while not stepper.done:
            state = stepper.state()
            revealed = dict(state.round.revealed)
            fresh = OptimalSolver(
                posterior_for(state.round.clues, VoltorbSetting(3), revealed), "win"
            )
            assert oracle.stepper_value(stepper) == pytest.approx(fresh.decide(revealed)[1])
            assert oracle.value(state) == oracle.stepper_value(stepper)
            hidden = np.flatnonzero(stepper.revealed < 0)
            for tile in hidden[:6].tolist():
                assert oracle.stepper_action_value(stepper, tile) == pytest.approx(
                    choice_value(fresh, revealed, tile), abs=1e-12
                )
            assert oracle.stepper_action_value(stepper, 25) == 0.0  # quitting wins nothing
            stepper.step(int(agent.choice(hidden)))
            checked += 1
    assert checked >= 3
    assert len(oracle._solvers) == 2  # the repeated deal reused its solver


def _voltorb_hard_deal_check(deals: tuple[int, ...]) -> int:
    """Deals of `benchmarks/envs_speed.py --tables openings` (level 3, numpy seed 7; the index
    is the deal's place in that sequence), played by random flips through one oracle: every
    state's value and several flips' values equal a solve started afresh from that state's own
    posterior. Returns the states checked."""
    from gamelab.voltorb.expectimax import OptimalSolver, choice_value
    from gamelab.voltorb.oracle import VoltorbOracle
    from gamelab.voltorb.posterior import posterior_for
    from gamelab.voltorb.rules import generate_board
    from gamelab.voltorb.state import VoltorbGame

    game, oracle = VoltorbGame(VoltorbSetting(3), "win"), VoltorbOracle(VoltorbSetting(3))
    agent = np.random.default_rng(3)
    checked = 0
    for deal in deals:
        rng = np.random.default_rng(7)
        for _ in range(deal):
            generate_board(VoltorbSetting(3), rng)
        state = game.new_initial_state()
        state.resolve_chance(rng)
        while not state.is_terminal():
            revealed = dict(state.round.revealed)
            fresh = OptimalSolver(
                posterior_for(state.round.clues, VoltorbSetting(3), revealed), "win"
            )
            assert oracle.value(state) == pytest.approx(fresh.decide(revealed)[1], abs=1e-12)
            hidden = [t for t in range(25) if t not in revealed]
            for tile in hidden[:3]:
                assert oracle.action_value(state, tile) == pytest.approx(
                    choice_value(fresh, revealed, tile), abs=1e-12
                )
            state.apply(int(agent.choice(hidden)))
            checked += 1
    return checked


def test_voltorb_oracle_equals_a_fresh_solve_on_harder_openings():
    """One of the slower tenth of level-3 openings (about 0.13 CPU-s to solve)."""
    assert _voltorb_hard_deal_check((47,)) >= 1


@pytest.mark.slow
def test_voltorb_oracle_equals_a_fresh_solve_on_the_hardest_openings():
    """The three slowest of the 300 level-3 openings (2-4 CPU-s each, twice)."""
    assert _voltorb_hard_deal_check((69, 211, 66)) >= 3


# -- lattice -----------------------------------------------------------------------------------
def test_lattice_memoised_oracle_equals_the_plain_search_on_random_folds():
    """Random folds of a 12-residue pack chain through one oracle (kernel search, memo kept
    across episodes): every state's and move's value equals the plain Python search's."""
    from gamelab.lattice.completion import best_completion
    from gamelab.lattice.oracle import LatticeOracle
    from gamelab.lattice.rules import MOVES
    from gamelab.lattice.state import TRAPPED, LatticeGame

    game = LatticeGame("HHHHHHHPHHPH", "square")
    oracle = LatticeOracle(game)
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            for action in state.legal_actions():
                prefix = state.conformation + MOVES["square"][action]
                plain = best_completion(game.sequence, prefix, python=True)
                assert oracle.action_value(state, action) == (
                    float(plain) if plain is not None else TRAPPED
                )
                checked += 1
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
    assert checked > 30
