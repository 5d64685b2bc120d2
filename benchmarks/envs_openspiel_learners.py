"""OpenSpiel's own learners and bots on gamelab's registered games, on the small settings of
docs/envs.md (the same seeds and budgets as ``tests/envs/test_envs_openspiel.py``): a random
agent, the trained agent and the exact optimum from gamelab's solvers, side by side.

* lattice HPPHPPHH: the tabular Q-learner (step size 1, exploration 1 -> 0.05);
* Yatzy with only sixes open (``open=sixes``): the tabular Q-learner (step size 0.2);
* Voltorb level 1, every round dealt to the clues of seed 0's board, in coins
  (``deal=0,objective=coins``): the tabular Q-learner on the observation tensor (step 0.1);
* Owaré: MCTS (12 simulations, one random rollout each) against a random player, 4 games.

Chance is drawn by ``rl_environment.ChanceEventSampler(seed)``; OpenSpiel's tabular agents draw
with ``np.random.choice``, given a seeded generator here. Needs open-spiel.

    nice -n 10 .venv/bin/python benchmarks/envs_openspiel_learners.py [--episodes 1500]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np


def play(env, agents, episodes: int, learn: bool) -> float:
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


def q_learning(
    setting: str,
    step_size: float,
    moves: int,
    episodes: int,
    evaluation: int,
    random_episodes: int = 300,
    observation_type=None,
):
    """(the game, a random agent's mean return, the trained Q-learner's) on `setting`."""
    import pyspiel
    from open_spiel.python import rl_environment, rl_tools
    from open_spiel.python.algorithms import random_agent, tabular_qlearner

    np.random.choice = np.random.default_rng(0).choice  # type: ignore[assignment]
    game = pyspiel.load_game(setting)
    sampler = rl_environment.ChanceEventSampler(seed=0)
    env = rl_environment.Environment(
        game, chance_event_sampler=sampler, observation_type=observation_type
    )
    n = game.num_distinct_actions()
    random_return = play(env, [random_agent.RandomAgent(0, n)], random_episodes, False)
    schedule = rl_tools.LinearSchedule(1.0, 0.05, episodes * moves)
    learner = tabular_qlearner.QLearner(0, n, step_size, schedule)
    play(env, [learner], episodes, True)
    return game, random_return, play(env, [learner], evaluation, False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=1500, help="training episodes per game")
    args = parser.parse_args()
    if not 1 <= args.episodes <= 1_000_000:
        print("error: --episodes must be 1 to 1,000,000", file=sys.stderr)
        raise SystemExit(2)
    try:
        import pyspiel
    except ImportError:
        print(
            "error: open-spiel is not installed (pip install 'gamelab[openspiel]')", file=sys.stderr
        )
        raise SystemExit(2) from None
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import mcts

    from gamelab.envs.openspiel import register
    from gamelab.lattice.completion import best_completion
    from gamelab.voltorb.expectimax import OptimalSolver
    from gamelab.yatzy.rules import get_rules
    from gamelab.yatzy.solver import solve, state_index

    register()
    n = args.episodes
    rows = []
    start = time.process_time()
    _, r, q = q_learning("python_gamelab_lattice(sequence=HPPHPPHH)", 1.0, 7, n, 20, 100)
    rows.append(("lattice HPPHPPHH", "tabular Q-learner", r, q, best_completion("HPPHPPHH", "")))
    _, r, q = q_learning("python_gamelab_yatzy(open=sixes)", 0.2, 3, n, 400)
    rules = get_rules("yatzy")
    filled = sum(1 << b for b, name in enumerate(rules.boxes) if name != "sixes")
    best = float(solve(rules).E[state_index(rules, filled, 0, 0)])
    rows.append(("Yatzy, open=sixes (points)", "tabular Q-learner", r, q, best))
    seen = rl_environment.ObservationType.OBSERVATION
    game, r, q = q_learning(
        "python_gamelab_voltorb(deal=0,objective=coins)", 0.1, 3, n, 300, observation_type=seen
    )
    best = OptimalSolver(game.start.posterior, "coins").decide({})[1]
    rows.append(("Voltorb level 1, deal=0 (coins)", "tabular Q-learner", r, q, best))

    game = pyspiel.load_game("python_gamelab_oware")
    random_state, rng, wins = np.random.RandomState(0), np.random.default_rng(0), 0
    for g in range(4):
        evaluator = mcts.RandomRolloutEvaluator(1, random_state)
        bot = mcts.MCTSBot(game, 2, 12, evaluator, random_state=random_state)
        side, state = g % 2, game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == side:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        wins += state.returns()[side] == 1.0
    cpu = time.process_time() - start
    print(f"training episodes per game: {n}; {cpu:.1f} CPU-s in all\n")
    print("| game, setting | agent | random agent | trained | exact optimum |")
    print("|---|---|---|---|---|")
    for name, agent, r, q, best in rows:
        print(f"| {name} | {agent} | {r:.2f} | {q:.2f} | {best:.2f} |")
    print(f"| Owaré | MCTS, 12 simulations | | won {wins} of 4 against random | |")


if __name__ == "__main__":
    main()
