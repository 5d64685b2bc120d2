"""gamelab's games registered as OpenSpiel Python games: OpenSpiel's random-simulation test on
each, MCTS running on them, and Owaré against OpenSpiel's own ``oware`` over random games."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from gamelab.envs.openspiel import register  # noqa: E402

NAMES = register()
SETTINGS = {
    "python_gamelab_oware": "python_gamelab_oware",
    "python_gamelab_yatzy": "python_gamelab_yatzy(players=2)",
    "python_gamelab_lattice": "python_gamelab_lattice(sequence=HPPHPPHH)",
    "python_gamelab_voltorb": "python_gamelab_voltorb(level=2)",
    "python_gamelab_wordle": "python_gamelab_wordle(names=gen1)",
}


@pytest.mark.parametrize("name", NAMES)
def test_random_simulation(name):
    game = pyspiel.load_game(SETTINGS[name])
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_mcts_runs_on_the_games():
    from open_spiel.python.algorithms import mcts

    rng = np.random.RandomState(0)
    for setting, moves in (
        ("python_gamelab_oware", 4),
        ("python_gamelab_lattice(sequence=HPPHPPHH)", 7),
    ):
        game = pyspiel.load_game(setting)
        bot = mcts.MCTSBot(game, 2, 15, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        state = game.new_initial_state()
        for _ in range(moves):
            if state.is_terminal():
                break
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert state.is_terminal() and state.returns()[0] >= 0  # a complete fold (never trapped here)


def test_oware_agrees_with_openspiels_oware():
    ours, theirs = pyspiel.load_game("python_gamelab_oware"), pyspiel.load_game("oware")
    rng = np.random.default_rng(9)
    for _ in range(40):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while not b.is_terminal():
            assert not a.is_terminal()
            assert a.current_player() == b.current_player()
            assert a.legal_actions() == b.legal_actions()
            move = int(rng.choice(b.legal_actions()))
            if rng.random() < 0.1:
                a = a.clone()  # the clone goes on like the original
            a.apply_action(move)
            b.apply_action(move)
        assert a.is_terminal()
        assert a.returns() == b.returns()
        assert a.history() == b.history()
