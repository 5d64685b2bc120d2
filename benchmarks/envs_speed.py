"""Stepping speed of the environments without the oracle, against a plain Python loop over the
same rules, measured side by side in one process (one core), in steps per CPU-second.

* VoltorbFlip: ``env.step`` (boards from the batched dealer, the lean round of
  ``voltorb.stepper``) against a loop that deals with ``rules.generate_board`` and flips with
  ``rules.Round.flip``;
* YatzySolitaire: ``env.step`` (``yatzy.stepper``) against a loop that rolls with numpy and
  fills a legal box with ``Card.fill`` (``RuleSet.placements``);
* Owaré (PettingZoo AEC): ``env.step`` (``oware.stepper``) against ``Position.play``.

Both sides play the same cheap random agent: a legal action picked with one pre-drawn uniform
(the plain loops ask the rules for the legal actions, the environments' agent reads the mask).
Counted steps are agent decisions (chance draws are part of a step). Environments are seeded
once and then reset without a seed, as Gymnasium recommends; one row shows Voltorb reseeded
every episode (each reset then deals one board alone). The last rows are with the oracle
(``regret=True``). Prints the load average, since the machine may be shared.

    nice -n 10 .venv/bin/python benchmarks/envs_speed.py --seconds 3

``--only reseeded`` runs one row, e.g. side by side with an older tree:
``PYTHONPATH=<old checkout>/src python benchmarks/envs_speed.py --only reseeded``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

import gamelab.envs  # noqa: F401

Run = Callable[[float], int]


def _uniforms(n: int = 1 << 20) -> list[float]:
    return np.random.default_rng(0).random(n).tolist()


def gym_loop(env_id: str, skip: int | None = None, reseed: bool = False, **kwargs) -> Run:
    """Random legal actions through ``env.step`` (never `skip`, e.g. Voltorb's quit)."""
    import gymnasium

    env = gymnasium.make(env_id, **kwargs).unwrapped
    u = _uniforms()
    at = {"info": env.reset(seed=0)[1], "k": 0, "episode": 0}  # episodes go on across calls

    def run(seconds: float) -> int:
        end = time.process_time() + seconds
        steps, k, episode, info = 0, at["k"], at["episode"], at["info"]
        while time.process_time() < end:
            done = False
            while not done:
                mask = info["action_mask"]
                if skip is not None:
                    mask[skip] = 0
                legal = mask.nonzero()[0]
                obs, _, done, _, info = env.step(legal[int(u[k & 0xFFFFF] * len(legal))])
                k += 1
                steps += 1
            episode += 1
            obs, info = env.reset(seed=episode) if reseed else env.reset()
        at.update(info=info, k=k, episode=episode)
        return steps

    return run


def voltorb_plain(level: int) -> Run:
    from gamelab.voltorb.rules import TILES, Round, generate_board

    def run(seconds: float) -> int:
        rng, u = np.random.default_rng(0), _uniforms()
        end = time.process_time() + seconds
        steps, k = 0, 0
        while time.process_time() < end:
            board, _ = generate_board("hgss", level, rng)
            r = Round(board)
            while r.outcome is None:
                hidden = [t for t in range(TILES) if t not in r.revealed]
                r.flip(hidden[int(u[k & 0xFFFFF] * len(hidden))])
                k += 1
                steps += 1
        return steps

    return run


def yatzy_plain(name: str) -> Run:
    from gamelab.yatzy.card import Card
    from gamelab.yatzy.rules import KEEPS, SUBKEEP_INDEX, SUBKEEP_START, get_rules, roll_index

    rules = get_rules(name)

    def run(seconds: float) -> int:
        rng, u = np.random.default_rng(0), _uniforms()
        end = time.process_time() + seconds
        steps, k = 0, 0
        while time.process_time() < end:
            card = Card.empty(rules)
            while not card.done:
                counts = np.bincount(rng.integers(0, 6, 5), minlength=6)
                for _ in range(2):
                    r = roll_index(counts)
                    keeps = SUBKEEP_INDEX[SUBKEEP_START[r] : SUBKEEP_START[r + 1]]
                    keep = KEEPS[keeps[int(u[k & 0xFFFFF] * len(keeps))]]
                    k += 1
                    steps += 1
                    rest = 5 - int(keep.sum())
                    counts = keep + np.bincount(rng.integers(0, 6, rest), minlength=6)
                boxes = rules.placements(counts, card)
                card.fill(boxes[int(u[k & 0xFFFFF] * len(boxes))][0], counts)
                k += 1
                steps += 1
        return steps

    return run


def oware_env_loop(seconds: float) -> int:
    from gamelab.envs.multi import oware_env

    env = oware_env()
    u = _uniforms()
    end = time.process_time() + seconds
    steps, k = 0, 0
    env.reset(seed=0)
    while time.process_time() < end:
        env.reset()
        while not env.terminations[env.agent_selection]:
            legal = env.observe(env.agent_selection)["action_mask"].nonzero()[0]
            env.step(legal[int(u[k & 0xFFFFF] * len(legal))])
            k += 1
            steps += 1
    return steps


def oware_plain(seconds: float) -> int:
    from gamelab.oware.rules import Position

    u = _uniforms()
    end = time.process_time() + seconds
    steps, k = 0, 0
    while time.process_time() < end:
        p = Position.initial()
        while not p.is_over():
            legal = p.legal_moves()
            p = p.play(legal[int(u[k & 0xFFFFF] * len(legal))])
            k += 1
            steps += 1
    return steps


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
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU-seconds per side and row")
    parser.add_argument(
        "--only", help="run only the rows whose name contains this text (e.g. reseeded)"
    )
    args = parser.parse_args()
    print(f"load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    # each row's two sides, built only for the rows run (an environment is made at once)
    rows: list[tuple[str, Callable[[], Run], Callable[[], Run | None]]] = [
        (
            "VoltorbFlip level 8",
            lambda: gym_loop("gamelab/VoltorbFlip-v0", 25, level=8),
            lambda: voltorb_plain(8),
        ),
        (
            "VoltorbFlip level 1",
            lambda: gym_loop("gamelab/VoltorbFlip-v0", 25, level=1),
            lambda: voltorb_plain(1),
        ),
        (
            "VoltorbFlip level 8, reseeded every episode",
            lambda: gym_loop("gamelab/VoltorbFlip-v0", 25, reseed=True, level=8),
            lambda: voltorb_plain(8),
        ),
        (
            "YatzySolitaire yatzy",
            lambda: gym_loop("gamelab/YatzySolitaire-v0"),
            lambda: yatzy_plain("yatzy"),
        ),
        (
            "YatzySolitaire yahtzee",
            lambda: gym_loop("gamelab/YatzySolitaire-v0", rules="yahtzee"),
            lambda: yatzy_plain("yahtzee"),
        ),
        ("Owaré (AEC)", lambda: oware_env_loop, lambda: oware_plain),
        (
            "VoltorbFlip level 3, regret=True",
            lambda: gym_loop("gamelab/VoltorbFlip-v0", 25, level=3, regret=True),
            lambda: None,
        ),
        (
            "YatzySolitaire, regret=True",
            lambda: gym_loop("gamelab/YatzySolitaire-v0", regret=True),
            lambda: None,
        ),
    ]
    if args.only:
        rows = [row for row in rows if args.only in row[0]]
    print("| environment | env steps/CPU-s | plain loop steps/CPU-s | env / plain |")
    print("|---|---|---|---|")
    for name, make_env_run, make_plain_run in rows:
        env_run, plain_run = make_env_run(), make_plain_run()
        # warm up (imports, loading the kernels, first tables; the oracle's solver takes seconds)
        env_run(0.3 if plain_run is not None else args.seconds)
        if plain_run is None:
            print(f"| {name} | {rate(env_run, args.seconds):,.0f} | | |", flush=True)
            continue
        plain_run(0.3)
        e, p = rate(env_run, args.seconds), rate(plain_run, args.seconds)
        print(f"| {name} | {e:,.0f} | {p:,.0f} | {e / p:.1f} |", flush=True)
    print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
