"""Win-play regret of two-player Yatzy (issue 28.2): the oracle's action values against a
direct computation from the rules' chance tables, the solve's own value, and the duel
environment's ``win_regret`` in each player's last turns."""

from __future__ import annotations

import numpy as np
import pytest

from gamelab.core.state import CHANCE, sample_chance
from gamelab.yatzy.rules import (
    DICE,
    KEEP_ROLL_INDEX,
    KEEP_ROLL_PROB,
    KEEP_ROLL_START,
    KEEP_SIZE,
    N_KEEPS,
    N_ROLLS,
    ROLL_PROB,
    SUBKEEP_INDEX,
    SUBKEEP_START,
    get_rules,
)
from gamelab.yatzy.state import YatzyGame
from gamelab.yatzy.win_oracle import WinPlayOracle, card_state


def _state_with_open(rules_name: str, open_boxes: int, seed: int):
    """A random two-player game played until player 0 has `open_boxes` boxes open, dice rolled."""
    game = YatzyGame(get_rules(rules_name), players=2)
    state, rng = game.new_initial_state(), np.random.default_rng(seed)
    while True:
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        card = state.cards[0]
        if (
            state.player == 0
            and state.rolls_left == 2
            and game.rules.n_boxes - card.filled_count == open_boxes
        ):
            return state
        legal = state.legal_actions()
        state.apply(legal[-1] if legal[0] >= N_KEEPS else legal[int(rng.integers(len(legal)))])


def _outcomes(keep: int):
    lo, hi = KEEP_ROLL_START[keep], KEEP_ROLL_START[keep + 1]
    return zip(KEEP_ROLL_INDEX[lo:hi].tolist(), KEEP_ROLL_PROB[lo:hi].tolist(), strict=True)


def test_last_turn_values_are_the_direct_sums():
    """One box left: every action's P(win) + P(tie)/2 computed straight from the opponent's
    final-score law and the chance tables equals the oracle's."""
    from gamelab.yatzy.winplay import final_score_law, win_utility

    state = _state_with_open("yatzy", 1, 5)
    rules, oracle = state.game.rules, WinPlayOracle(state.game.rules, 1)
    law = final_score_law(rules, card_state(state.cards[1]))
    me = state.cards[0]
    box = [b for b in range(rules.n_boxes) if me.entries[b] is None][0]

    def stop(r):  # the final score with roll r in the last box
        card = type(me)(rules, list(me.entries), me.yahtzee_bonuses)
        gain = card.fill(
            rules.boxes[box], np.bincount(np.repeat(np.arange(6), _dice(r)), minlength=6)
        )
        return float(win_utility(law, np.array([me.total + gain]))[0])

    stops = [stop(r) for r in range(N_ROLLS)]
    one_left = [  # a keep with one roll left
        sum(p * stops[r2] for r2, p in _outcomes(k)) if KEEP_SIZE[k] < DICE else None
        for k in range(N_KEEPS)
    ]

    def best_one_left(r):
        subs = SUBKEEP_INDEX[SUBKEEP_START[r] : SUBKEEP_START[r + 1]].tolist()
        return max(stops[r], *(one_left[k] for k in subs if one_left[k] is not None))

    r = state.roll
    for k, v in oracle.values(state).items():
        want = (
            stops[r]
            if KEEP_SIZE[k] == DICE
            else sum(p * best_one_left(r2) for r2, p in _outcomes(k))
        )
        assert v == pytest.approx(want, abs=1e-12)
    state.rolls_left = 1
    oracle = WinPlayOracle(rules, 1)
    for k, v in oracle.values(state).items():
        assert v == pytest.approx(stops[r] if one_left[k] is None else one_left[k], abs=1e-12)
    state.rolls_left = 0
    assert oracle.values(state) == pytest.approx({N_KEEPS + box: stops[r]})


def _dice(r):
    from gamelab.yatzy.rules import ROLLS

    return ROLLS[r]


@pytest.mark.parametrize("rules_name, open_boxes", [("yatzy", 3), ("yahtzee", 2)])
def test_first_roll_values_average_to_the_solved_value(rules_name, open_boxes):
    """Over the turn's first roll, the best action's value averages to the solve's P(win)."""
    state = _state_with_open(rules_name, open_boxes, 2)
    oracle = WinPlayOracle(state.game.rules, open_boxes)
    total = 0.0
    for r in range(N_ROLLS):
        state.roll = r
        values = oracle.values(state)
        assert min(values.values()) >= 0.0 and max(values.values()) <= 1.0 + 1e-12
        total += float(ROLL_PROB[r]) * max(values.values())
    assert total == pytest.approx(oracle._solution_for(state).value, abs=1e-9)


def test_duel_env_reports_win_regret_in_the_last_turns():
    from gamelab.envs.multi import yatzy_duel_env

    env = yatzy_duel_env(regret=True, win_turns=2)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    seen = {a: [] for a in env.possible_agents}
    while not all(env.terminations.values()):
        agent = env.agent_selection
        state = env.state
        open_boxes = state.game.rules.n_boxes - state.cards[state.player].filled_count
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        best = env._win.best_action(state) if open_boxes <= 2 else None
        action = best if best is not None and rng.random() < 0.5 else int(rng.choice(legal))
        env.step(action)
        info = env.infos[agent]
        assert ("win_regret" in info) == (open_boxes <= 2)
        if "win_regret" in info:
            assert 0.0 <= info["win_regret"] <= 1.0
            if action == best:
                assert info["win_regret"] == 0.0
            seen[agent].append(info["win_regret"])
    assert all(len(v) >= 4 for v in seen.values())
    assert sum(sum(v) for v in seen.values()) > 0  # random moves cost some P(win)
    with pytest.raises(ValueError, match="win-play turns must be 0 to 15"):
        yatzy_duel_env(win_turns=16)
