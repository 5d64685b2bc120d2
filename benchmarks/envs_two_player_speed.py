"""Speed of the two-player games as a researcher steps them, measured side by side in one process
(one core), in steps per CPU-second, without the oracle:

* the PettingZoo AEC environments (Owaré, the Yatzy duel) in PettingZoo's own loop
  (``for agent in env.agent_iter(): ... env.last() ... env.step(action)``, the action read from
  ``observation["action_mask"]``) against ``gymnasium.make("CartPole-v1")`` stepped by the same
  cheap random agent;
* random playouts of the registered OpenSpiel Owaré (``python_gamelab_oware``) against
  OpenSpiel's own C++ ``oware`` (``legal_actions``, ``apply_action``, ``is_terminal`` from
  Python), and against a Python game that does nothing (six legal actions, 100 moves a game):
  the floor of any Python game, what OpenSpiel's C++ layer costs per move when it calls back
  into Python (``current_player``, ``is_terminal``, ``_legal_actions``, ``_apply_action``).

The agent picks a legal action with one pre-drawn uniform, so the loop costs little beside the
environment. Prints the load average, since the machine may be shared.

    nice -n 10 .venv/bin/python benchmarks/envs_two_player_speed.py --seconds 3
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

import numpy as np

Run = Callable[[float], int]
MASK = (1 << 20) - 1


def _uniforms() -> list[float]:
    return np.random.default_rng(0).random(MASK + 1).tolist()


def cartpole() -> Run:
    import gymnasium

    env = gymnasium.make("CartPole-v1")
    u = _uniforms()
    env.reset(seed=0)
    at = {"k": 0}

    def run(seconds: float) -> int:
        end = time.process_time() + seconds
        steps, k = 0, at["k"]
        while time.process_time() < end:
            done = False
            while not done:
                _, _, term, trunc, _ = env.step(int(u[k & MASK] * 2))
                done = term or trunc
                k += 1
                steps += 1
            env.reset()
        at["k"] = k
        return steps

    return run


def aec(make: Callable[[], object]) -> Run:
    """PettingZoo's loop over `make()`'s environment."""
    env = make()
    u = _uniforms()
    env.reset(seed=0)  # type: ignore[attr-defined]
    at = {"k": 0}

    def run(seconds: float) -> int:
        end = time.process_time() + seconds
        steps, k = 0, at["k"]
        while time.process_time() < end:
            env.reset()  # type: ignore[attr-defined]
            for _agent in env.agent_iter():  # type: ignore[attr-defined]
                obs, _, term, trunc, _ = env.last()  # type: ignore[attr-defined]
                if term or trunc:
                    env.step(None)  # type: ignore[attr-defined]
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(legal[int(u[k & MASK] * len(legal))])  # type: ignore[attr-defined]
                k += 1
                steps += 1
        at["k"] = k
        return steps

    return run


def spiel_playouts(name: str) -> Run:
    import pyspiel

    from gamelab.envs.openspiel import register

    register()
    game = pyspiel.load_game(name)
    u = _uniforms()
    at = {"k": 0}

    def run(seconds: float) -> int:
        end = time.process_time() + seconds
        steps, k = 0, at["k"]
        while time.process_time() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(u[k & MASK] * len(legal))])
                k += 1
                steps += 1
        at["k"] = k
        return steps

    return run


def _register_idle_game() -> str:
    """A Python game that does nothing: 100 moves of 6 legal actions, then over."""
    import pyspiel

    name = "python_idle_benchmark"
    game_type = pyspiel.GameType(
        short_name=name,
        long_name="a Python game that does nothing",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=6,
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=100,
    )
    legal = [0, 1, 2, 3, 4, 5]

    class IdleState(pyspiel.State):
        def __init__(self, game: object) -> None:
            super().__init__(game)
            self.moves = 0

        def current_player(self) -> int:
            return -4 if self.moves >= 100 else self.moves & 1

        def _legal_actions(self, player: int) -> list[int]:
            return legal

        def _apply_action(self, action: int) -> None:
            self.moves += 1

        def is_terminal(self) -> bool:
            return self.moves >= 100

        def returns(self) -> list[float]:
            return [0.0, 0.0]

    class IdleGame(pyspiel.Game):
        def __init__(self, params: object = None) -> None:
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> IdleState:
            return IdleState(self)

    pyspiel.register_game(game_type, IdleGame)
    return name


def rate(run: Run, seconds: float, rounds: int = 3) -> float:
    """Steps per CPU-second over `rounds` slices of `seconds` / `rounds`."""
    steps, cpu = 0, 0.0
    for _ in range(rounds):
        start = time.process_time()
        steps += run(seconds / rounds)
        cpu += time.process_time() - start
    return steps / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU-seconds per row")
    args = parser.parse_args()
    if not 0 < args.seconds <= 600:
        print("error: --seconds must be more than 0 and at most 600", file=sys.stderr)
        raise SystemExit(2)
    from gamelab.envs.multi import oware_env, yatzy_duel_env

    print(f"load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    runs = {"CartPole-v1": cartpole(), "Owaré (AEC)": aec(oware_env)}
    runs["Yatzy duel (AEC)"] = aec(yatzy_duel_env)
    for run in runs.values():
        run(0.3)  # warm up
    rates = {name: rate(run, args.seconds) for name, run in runs.items()}
    base = rates["CartPole-v1"]
    print("\n| environment | steps/CPU-s | / CartPole-v1 |")
    print("|---|---|---|")
    for name, value in rates.items():
        print(f"| {name} | {value:,.0f} | {value / base:.2f} |")

    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("\nopen-spiel is not installed: no OpenSpiel rows")
        return
    spiel = {
        "oware (OpenSpiel, C++)": spiel_playouts("oware"),
        "python_gamelab_oware": spiel_playouts("python_gamelab_oware"),
        "a Python game doing nothing": spiel_playouts(_register_idle_game()),
    }
    for run in spiel.values():
        run(0.3)
    rates = {name: rate(run, args.seconds) for name, run in spiel.items()}
    base = rates["oware (OpenSpiel, C++)"]
    print("\n| random playouts | moves/CPU-s | C++ oware / this |")
    print("|---|---|---|")
    for name, value in rates.items():
        print(f"| {name} | {value:,.0f} | {base / value:.1f} |")
    print(f"\nload average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
