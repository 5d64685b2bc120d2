"""Stepping speed of the environments without the oracle, against a plain Python loop over the
same rules, measured side by side in one process (one core).

* VoltorbFlip (level 8): ``env.step`` with random legal flips (``regret=False``) against a loop
  that deals with ``rules.generate_board`` and flips with ``rules.Round.flip``;
* YatzySolitaire: ``env.step`` with random legal actions against a loop that rolls with numpy,
  keeps random dice and fills a random legal box with ``Card.fill``;
* Owaré (PettingZoo AEC): ``env.step`` with random legal moves against ``Position.play``.

Counted steps are agent decisions (the environment's chance draws are part of a step). Prints
steps per second of both and their ratio; and, for Voltorb and Yatzy, the cost with the oracle.

    nice -n 10 .venv/bin/python benchmarks/envs_speed.py --seconds 3
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

import gamelab.envs  # noqa: F401


def _rate(run: Callable[[float], int], seconds: float) -> float:
    start = time.perf_counter()
    steps = run(seconds)
    return steps / (time.perf_counter() - start)


def gym_loop(env_id: str, skip: int | None = None, **kwargs) -> Callable[[float], int]:
    """Random legal actions through ``env.step`` (never `skip`, e.g. Voltorb's quit)."""
    import gymnasium

    env = gymnasium.make(env_id, **kwargs).unwrapped
    rng = np.random.default_rng(0)

    def run(seconds: float) -> int:
        end = time.perf_counter() + seconds
        steps, seed = 0, 0
        while time.perf_counter() < end:
            obs, info = env.reset(seed=seed)
            seed += 1
            done = False
            while not done:
                mask = info["action_mask"]
                if skip is not None:
                    mask[skip] = 0
                legal = np.flatnonzero(mask)
                obs, _, done, _, info = env.step(int(legal[rng.integers(len(legal))]))
                steps += 1
        return steps

    return run


def voltorb_plain(seconds: float) -> int:
    from gamelab.voltorb.rules import TILES, Round, generate_board

    rng = np.random.default_rng(0)
    end = time.perf_counter() + seconds
    steps = 0
    while time.perf_counter() < end:
        board, _ = generate_board("hgss", 8, rng)
        r = Round(board)
        while r.outcome is None:
            hidden = [t for t in range(TILES) if t not in r.revealed]
            r.flip(hidden[int(rng.integers(len(hidden)))])
            steps += 1
    return steps


def yatzy_plain(seconds: float) -> int:
    from gamelab.yatzy.card import Card
    from gamelab.yatzy.rules import get_rules

    rules = get_rules("yatzy")
    rng = np.random.default_rng(0)
    end = time.perf_counter() + seconds
    steps = 0
    while time.perf_counter() < end:
        card = Card.empty(rules)
        while not card.done:
            dice = rng.integers(1, 7, 5)
            for _ in range(2):
                keep = rng.random(5) < 0.5
                dice = np.where(keep, dice, rng.integers(1, 7, 5))
                steps += 1
            counts = np.bincount(dice - 1, minlength=6)
            boxes = rules.placements(counts, card)
            card.fill(boxes[int(rng.integers(len(boxes)))][0], counts)
            steps += 1
    return steps


def oware_env_loop(seconds: float) -> int:
    from gamelab.envs.multi import oware_env

    env = oware_env()
    rng = np.random.default_rng(0)
    end = time.perf_counter() + seconds
    steps = 0
    while time.perf_counter() < end:
        env.reset(seed=steps)
        while not env.state.is_terminal():
            mask = env.observe(env.agent_selection)["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps


def oware_plain(seconds: float) -> int:
    from gamelab.oware.rules import Position

    rng = np.random.default_rng(0)
    end = time.perf_counter() + seconds
    steps = 0
    while time.perf_counter() < end:
        p = Position.initial()
        while not p.is_over():
            legal = p.legal_moves()
            p = p.play(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rows = [
        (
            "VoltorbFlip level 8",
            gym_loop("gamelab/VoltorbFlip-v0", 25, level=8, regret=False),
            voltorb_plain,
        ),
        ("YatzySolitaire", gym_loop("gamelab/YatzySolitaire-v0", regret=False), yatzy_plain),
        ("Owaré (AEC)", oware_env_loop, oware_plain),
    ]
    print("| environment | env steps/s | plain loop steps/s | env / plain |")
    print("|---|---|---|---|")
    for name, env_run, plain_run in rows:
        env_run(0.2)  # warm up (imports, first tables)
        plain_run(0.2)
        e, p = _rate(env_run, args.seconds), _rate(plain_run, args.seconds)
        print(f"| {name} | {e:,.0f} | {p:,.0f} | {e / p:.2f} |")
    with_oracle = [
        ("VoltorbFlip level 3, regret on", gym_loop("gamelab/VoltorbFlip-v0", 25, level=3)),
        ("YatzySolitaire, regret on", gym_loop("gamelab/YatzySolitaire-v0")),
    ]
    for name, run in with_oracle:
        run(0.5)
        print(f"| {name} | {_rate(run, args.seconds):,.0f} | | |")


if __name__ == "__main__":
    main()
