"""gamelab's games registered as OpenSpiel Python games: OpenSpiel's random-simulation test (with
serialisation) and its API checks on each, the observers (shapes, every player, nothing hidden
shown), ``rl_environment`` stepping every game, OpenSpiel's learners and bots on small settings,
and Owaré against OpenSpiel's own ``oware`` over random games."""

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
    "python_gamelab_nim": "python_gamelab_nim(heap=9)",  # the toy of tests/toy_nim.py
}
#: the observation tensor's shape, per game at its test setting (docs/envs.md lists the pieces)
SHAPES = {
    "python_gamelab_oware": [16],
    "python_gamelab_yatzy": [6 + 3 + 4 * 15 + 3 * 2],
    "python_gamelab_lattice": [8 + 7 * 4],
    "python_gamelab_voltorb": [20 + 125],
    "python_gamelab_wordle": [10 * 5 * (76 + 3)],
    "python_gamelab_nim": [10 + 2],
}
HIDDEN = ("python_gamelab_voltorb", "python_gamelab_wordle")


def _random_states(game, rng, count):
    """States along random games (chance sampled with its probabilities), non-chance only."""
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < count:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=np.array(probs) / sum(probs))))
                continue
            states.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))
        if state.is_terminal():
            states.append(state)
    return states


@pytest.mark.parametrize("name", NAMES)
def test_random_simulation_with_serialisation(name):
    game = pyspiel.load_game(SETTINGS[name])
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.fixture(scope="module")
def api_test():
    """OpenSpiel's own API battery (``open_spiel/integration_tests/api_test.py``)."""
    from absl import flags

    flags.FLAGS.mark_as_parsed()
    from open_spiel.integration_tests import api_test

    return api_test


@pytest.mark.parametrize("name", NAMES)
def test_openspiels_api_checks(name, api_test):
    """Its partial-tree checks: sequence lengths, observations on every player and errors on
    invalid ones, legal actions, private and public information (400 sampled states)."""
    import unittest

    base = api_test.EnforceAPIOnPartialTreeBase
    case = type(
        f"Api_{name}", (base,), {"game_name": name, "game": pyspiel.load_game(SETTINGS[name])}
    )
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(case).run(result)
    assert result.testsRun >= 5
    assert not result.failures and not result.errors, result.failures + result.errors


@pytest.mark.parametrize("name", NAMES)
def test_observers_on_every_player(name):
    game = pyspiel.load_game(SETTINGS[name])
    kind = game.get_type()
    assert kind.provides_observation_tensor and kind.provides_observation_string
    assert kind.provides_information_state_tensor == (name in HIDDEN)
    assert game.observation_tensor_shape() == SHAPES[name]
    for state in _random_states(game, np.random.default_rng(1), 30):
        for player in range(game.num_players()):
            tensor = np.array(state.observation_tensor(player))
            assert tensor.shape == (game.observation_tensor_size(),)
            assert tensor.min() >= 0 and tensor.max() <= 1
            assert isinstance(state.observation_string(player), str)
            assert isinstance(state.information_state_string(player), str)
            if name in HIDDEN:
                info = state.information_state_tensor(player)
                assert len(info) == game.information_state_tensor_size()


def test_two_player_observations_are_from_the_players_side():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_gamelab_oware")
    state = game.new_initial_state()
    state.apply_action(2)  # South sows house C: North's row gains seeds
    seen = make_observation(game)  # the named views of the tensor
    seen.set_from(state, 0)
    assert np.rint(seen.dict["houses"] * 48).tolist() == [[4, 4, 0, 5, 5, 5], [5, 4, 4, 4, 4, 4]]
    assert seen.dict["to_move"].tolist() == [0, 1]  # North to move
    seen.set_from(state, 1)
    assert np.rint(seen.dict["houses"] * 48).tolist() == [[5, 4, 4, 4, 4, 4], [4, 4, 0, 5, 5, 5]]
    assert seen.dict["to_move"].tolist() == [1, 0]
    assert np.array(state.observation_tensor(1)) == pytest.approx(seen.tensor)
    assert state.information_state_string(0) == "2"  # perfect information: the history


def test_hidden_information_is_not_observed():
    """Wordle: two answers that colour a guess alike give the same observation and information
    state; Voltorb: two boards with the same clues and revealed tiles look the same."""
    game = pyspiel.load_game("python_gamelab_wordle(names=gen1)")
    table = game.inner.table.table
    guess = 0
    codes = table[guess]
    a, b = next(
        (i, j) for i in range(len(codes)) for j in range(i + 1, len(codes)) if codes[i] == codes[j]
    )
    seen = []
    for answer in (a, b):
        state = game.new_initial_state()
        state.apply_action(answer)
        state.apply_action(guess)
        seen.append(
            (
                state.observation_tensor(0),
                state.information_state_tensor(0),
                state.observation_string(0),
            )
        )
    assert seen[0] == seen[1]

    game = pyspiel.load_game("python_gamelab_voltorb(level=1)")
    # a 2x2 swap of a 1 and a 3 between rows 0-1 and columns 0-1 keeps every line's clues
    board = "1311131111110001110010010"
    swapped = "3111113111110001110010010"
    seen = []
    for cells in (board, swapped):
        inner = game.inner.state_from_text(f"config -1 tries 1 cells {cells} flips 4")
        state = game.new_initial_state()
        state.held.value = inner
        seen.append(
            (
                state.observation_tensor(0),
                state.information_state_tensor(0),
                state.observation_string(0),
            )
        )
    assert seen[0] == seen[1]
    assert "tiles ????1/" in seen[0][2]


@pytest.mark.parametrize("name", NAMES)
def test_rl_environment_steps_every_game(name):
    from open_spiel.python import rl_environment

    game = pyspiel.load_game(SETTINGS[name])
    env = rl_environment.Environment(game, chance_event_sampler=_chance(rl_environment, 3))
    size = game.observation_tensor_size()
    if name in HIDDEN:
        size = game.information_state_tensor_size()  # rl_environment's default when offered
    rng = np.random.default_rng(3)
    for _ in range(2):
        step = env.reset()
        steps = 0
        while not step.last():
            player = step.observations["current_player"]
            assert len(step.observations["info_state"][player]) == size
            legal = step.observations["legal_actions"][player]
            step = env.step([int(rng.choice(legal))])
            steps += 1
        assert steps >= 1 and len(step.rewards) == game.num_players()


def test_rl_environment_loads_the_games_by_name():
    """As a researcher writes it: the short name and the settings as keywords."""
    from open_spiel.python import rl_environment

    for name, settings, size in (
        ("python_gamelab_lattice", {}, 10 + 9 * 4),
        ("python_gamelab_yatzy", {"players": 2}, 75),
        ("python_gamelab_voltorb", {"level": 2}, 800),  # the information state, offered
    ):
        env = rl_environment.Environment(name, **settings)
        assert env.observation_spec()["info_state"] == (size,)
        step = env.reset()
        assert len(step.observations["info_state"][0]) == size


def _chance(rl_environment, seed):
    """rl_environment's chance sampler, seeded (its ``seed=`` keyword is a game setting)."""
    return rl_environment.ChanceEventSampler(seed=seed)


def _play(env, agents, episodes, learn):
    """Mean return of player 0 over `episodes` of `agents` in `env`."""
    returns = []
    for _ in range(episodes):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            step = env.step([agents[player].step(step, is_evaluation=not learn).action])
        for agent in agents:
            agent.step(step, is_evaluation=not learn)
        returns.append(step.rewards[0])
    return float(np.mean(returns))


@pytest.fixture
def seeded_numpy(monkeypatch):
    """OpenSpiel's tabular agents draw with ``np.random.choice``: give it a seeded generator."""
    rng = np.random.default_rng(0)
    monkeypatch.setattr(np.random, "choice", rng.choice)


def test_tabular_q_learning_folds_better_than_random(seeded_numpy):
    from open_spiel.python import rl_environment, rl_tools
    from open_spiel.python.algorithms import random_agent, tabular_qlearner

    from gamelab.lattice.completion import best_completion

    game = pyspiel.load_game("python_gamelab_lattice(sequence=HPPHPPHH)")
    env = rl_environment.Environment(game, chance_event_sampler=_chance(rl_environment, 0))
    n = env.action_spec()["num_actions"]
    random_return = _play(env, [random_agent.RandomAgent(0, n)], 100, learn=False)
    schedule = rl_tools.LinearSchedule(1.0, 0.05, 1500 * 7)  # explore first, then exploit
    learner = tabular_qlearner.QLearner(0, n, 1.0, schedule)  # no chance: step size 1
    _play(env, [learner], 1500, learn=True)
    learned_return = _play(env, [learner], 20, learn=False)
    optimum = best_completion("HPPHPPHH", "")  # 3, by the library's exact search
    assert random_return < 1.0  # contacts (-1 when trapped)
    assert optimum - 1 <= learned_return <= optimum  # often the optimum, depending on the seed


def test_tabular_q_learning_beats_random_in_a_yatzy_endgame(seeded_numpy):
    """One open box (sixes): 756 information states, learnable in a few thousand decisions."""
    from open_spiel.python import rl_environment, rl_tools
    from open_spiel.python.algorithms import random_agent, tabular_qlearner

    from gamelab.yatzy.rules import get_rules
    from gamelab.yatzy.solver import solve, state_index

    game = pyspiel.load_game("python_gamelab_yatzy(open=sixes)")
    env = rl_environment.Environment(game, chance_event_sampler=_chance(rl_environment, 0))
    n = game.num_distinct_actions()
    random_score = _play(env, [random_agent.RandomAgent(0, n)], 300, learn=False)
    schedule = rl_tools.LinearSchedule(1.0, 0.05, 1500 * 3)
    learner = tabular_qlearner.QLearner(0, n, 0.2, schedule)
    _play(env, [learner], 1500, learn=True)
    learned_score = _play(env, [learner], 400, learn=False)
    rules = get_rules("yatzy")
    filled = sum(1 << b for b, name in enumerate(rules.boxes) if name != "sixes")
    optimum = float(solve(rules).E[state_index(rules, filled, 0, 0)])  # 12.64 points
    assert random_score + 0.5 <= learned_score <= optimum + 0.5  # 10.24 and 11.05 here


def test_tabular_q_learning_beats_random_on_fixed_voltorb_clues(seeded_numpy):
    """Level 1, every round dealt to the clues of one board (``deal``), scored in coins: the
    learner finds safe flips and quits, far from what the exact solver gets."""
    from open_spiel.python import rl_environment, rl_tools
    from open_spiel.python.algorithms import random_agent, tabular_qlearner

    from gamelab.voltorb.expectimax import OptimalSolver

    game = pyspiel.load_game("python_gamelab_voltorb(deal=0,objective=coins)")
    seen = rl_environment.ObservationType.OBSERVATION  # clues and tiles, not the flip order
    env = rl_environment.Environment(
        game, chance_event_sampler=_chance(rl_environment, 0), observation_type=seen
    )
    random_coins = _play(env, [random_agent.RandomAgent(0, 26)], 300, learn=False)
    learner = tabular_qlearner.QLearner(0, 26, 0.1, rl_tools.LinearSchedule(1.0, 0.05, 4500))
    _play(env, [learner], 1500, learn=True)
    learned_coins = _play(env, [learner], 300, learn=False)
    optimum = OptimalSolver(game.start.posterior, "coins").decide({})[1]  # 39.6 coins
    # random 0.35 coins, learned 1.0 here
    assert random_coins < 0.5 and random_coins + 0.5 <= learned_coins < optimum / 4


def test_small_settings_and_their_errors():
    for setting in (
        "python_gamelab_yatzy(open=sixes+chance,players=2)",
        "python_gamelab_voltorb(deal=3)",
    ):
        pyspiel.random_sim_test(
            pyspiel.load_game(setting), num_sims=2, serialize=True, verbose=False
        )
    state = pyspiel.load_game("python_gamelab_yatzy(open=sixes+chance)").new_initial_state()
    assert str(state).startswith("player 0 rolls 0 kept none dice - cards ones=0,")
    with pytest.raises(ValueError, match="open must name distinct boxes of yatzy.*boxes: ones"):
        pyspiel.load_game("python_gamelab_yatzy(open=sixes+poker)")
    with pytest.raises(ValueError, match="deal must be -1"):
        pyspiel.load_game("python_gamelab_voltorb(deal=-2)")
    with pytest.raises(ValueError, match="objective must be 'win' or 'coins'"):
        pyspiel.load_game("python_gamelab_voltorb(objective=cash)")


def test_mcts_beats_random_at_oware():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_gamelab_oware")
    random_state = np.random.RandomState(0)  # OpenSpiel's bots take a RandomState
    rng = np.random.default_rng(0)
    wins = 0
    for g in range(4):
        evaluator = mcts.RandomRolloutEvaluator(1, random_state)
        bot = mcts.MCTSBot(game, 2, 12, evaluator, random_state=random_state)
        side = g % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == side:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        wins += state.returns()[side] == 1.0
    assert wins >= 3


def test_mcts_folds_a_chain():
    from open_spiel.python.algorithms import mcts

    rng = np.random.RandomState(0)
    game = pyspiel.load_game("python_gamelab_lattice(sequence=HPPHPPHH)")
    bot = mcts.MCTSBot(game, 2, 15, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.returns()[0] >= 0  # a complete fold (never trapped here)


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


@pytest.mark.parametrize("name", ["python_gamelab_oware", "python_gamelab_lattice"])
def test_an_illegal_action_raises_and_changes_nothing(name):
    state = pyspiel.load_game(SETTINGS[name]).new_initial_state()
    before = str(state)
    with pytest.raises(ValueError, match="action 9 is not legal in .*legal actions: \\[0, 1"):
        state.apply_action(9)
    assert str(state) == before and state.history() == []
