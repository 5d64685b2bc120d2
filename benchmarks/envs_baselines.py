"""The environments' leaderboard: baseline agents scored against the exact optimum.

For each Gymnasium environment of gamelab.envs, four agents play the same seeded episodes
(episode k is ``env.reset(seed=k)``): ``random`` (a uniformly random legal action), a simple
``heuristic``, gamelab's ``strong`` published policy where the library has one, and the
``optimal`` policy (the oracle's best action). Per agent: the mean return and the mean percent
of optimal (per episode ``(V0 - loss) / V0``, the luck-free measure of the episode summary:
V0 the optimum expected at the start, loss the sum of the decisions' regrets), each with a 95%
t interval (gamelab.core.stats.mean_interval). Episodes are stored in the results store (a
second run reuses them; --no-store recomputes).

Agents are clients of the environments, written here over the library (voltorb's published
MinRisk/ScoreFirst tiles from gamelab.voltorb.strategies, Wordle's best-entropy guess from the
game table, the oracles' best actions); the environments themselves hold no policy.

    nice -n 10 .venv/bin/python benchmarks/envs_baselines.py --episodes 60 --markdown docs/envs-table.md
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

import gamelab.envs  # noqa: F401  (registers the environments)
from gamelab.core.parallel import Backend, run_tasks
from gamelab.core.results import ResultStore
from gamelab.core.stats import mean_interval

#: environment name -> (gymnasium id, keyword arguments)
ENVS: dict[str, tuple[str, dict[str, Any]]] = {
    "VoltorbFlip level 3": ("gamelab/VoltorbFlip-v0", {"level": 3}),
    "YatzySolitaire yatzy": ("gamelab/YatzySolitaire-v0", {"rules": "yatzy"}),
    "PokemonWordle gen1": ("gamelab/PokemonWordle-v0", {"names": "gen1"}),
    "LatticeFold HPHPPHHPHPPH": (
        "gamelab/LatticeFold-v0",
        {"sequence": "HPHPPHHPHPPH"},
    ),
}
AGENTS = ("random", "heuristic", "strong", "optimal")


def _voltorb(env: Any, agent: str, rng: np.random.Generator) -> int:
    from gamelab.voltorb.posterior import posterior_for
    from gamelab.voltorb.strategies import minrisk_tile, scorefirst_tile

    r = env.state.round
    post = posterior_for(r.clues, env.game.generator, env.game.level, r.revealed)
    return int(scorefirst_tile(post) if agent == "heuristic" else minrisk_tile(post))


def _yatzy(env: Any, agent: str, rng: np.random.Generator) -> int:
    """heuristic: keep the most common face (ties: the higher), then the box scoring most."""
    from gamelab.yatzy.rules import N_KEEPS, keep_index

    state = env.state
    dice = state.dice
    if state.rolls_left > 0:
        face = int(max(range(6), key=lambda f: (dice[f], f)))
        keep = np.zeros(6, dtype=np.int64)
        keep[face] = dice[face]
        return keep_index(keep)
    rules, card = env.game.rules, state.cards[0]
    placements = rules.placements(dice, card)
    name, _points, _bonus = max(placements, key=lambda p: (p[1], -rules.boxes.index(p[0])))
    return N_KEEPS + rules.boxes.index(name)


def _candidates(env: Any) -> np.ndarray:
    table = env.game.table
    cands = table.all_answers()
    for g, code in env.state.history():
        cands = table.filter(cands, g, code)
    return cands


def _wordle(env: Any, agent: str, rng: np.random.Generator) -> int:
    """heuristic: a random remaining candidate; strong: the best-entropy guess."""
    table = env.game.table
    cands = _candidates(env)
    if agent == "heuristic" or len(cands) <= 2:
        return int(table.guess_of_answer[int(rng.choice(cands))])
    return int(table.best_entropy_guess(cands))


def _lattice(env: Any, agent: str, rng: np.random.Generator) -> int:
    """heuristic: the move that makes the most contacts now (ties: random)."""
    from gamelab.lattice.rules import MOVES, hh_score

    state, game = env.state, env.game
    legal = state.legal_actions()
    k = len(state.conformation) + 2

    def gain(a: int) -> int:
        return hh_score(
            game.sequence[:k], state.conformation + MOVES[game.lattice][a], game.lattice
        )

    best = max(gain(a) for a in legal)
    return int(rng.choice([a for a in legal if gain(a) == best]))


POLICIES = {
    "VoltorbFlip": _voltorb,
    "YatzySolitaire": _yatzy,
    "PokemonWordle": _wordle,
    "LatticeFold": _lattice,
}
#: agents without a policy of their own in the library play as follows
STRONG_IS = {"YatzySolitaire": "optimal", "LatticeFold": "heuristic"}


def play_episode(item: tuple[str, str, int], rng: np.random.Generator) -> dict[str, Any]:
    import gymnasium

    name, agent, seed = item
    env_id, kwargs = ENVS[name]
    env = gymnasium.make(env_id, regret=True, **kwargs).unwrapped
    family = name.split()[0]
    if agent == "strong":
        agent = STRONG_IS.get(family, "strong")
    obs, info = env.reset(seed=seed)
    done = False
    while not done:
        mask = info["action_mask"]
        if agent == "random":
            action = int(rng.choice(np.flatnonzero(mask)))
        elif agent == "optimal":
            action = int(env.oracle.best_action(env.state))
        else:
            action = POLICIES[family](env, agent, rng)
        obs, reward, done, _, info = env.step(action)
    summary = info["summary"]
    return {
        "return": summary["episode_return"],
        "percent": summary["percent_of_optimal"],
        "loss": summary["loss"],
        "optimal": summary["optimal"],
    }


def leaderboard(episodes: int, store: ResultStore | None, workers: int) -> list[dict[str, Any]]:
    rows = []
    for name in ENVS:
        # version 3 of the Voltorb rows: boards dealt by the batched dealer (voltorb/stepper.py)
        version = 3 if name.startswith("VoltorbFlip") else 2
        for agent in AGENTS:
            items = [(name, agent, k) for k in range(episodes)]
            start = time.perf_counter()
            results = run_tasks(
                play_episode,
                items,
                seed=0,
                backend=Backend(workers=workers, quiet=True),
                label=f"{name} {agent}",
                store=store,
                experiment="envs-baselines",
                params={"env": name, "agent": agent, "episodes": episodes, "version": version},
            )
            rows.append(
                {
                    "env": name,
                    "agent": agent,
                    "return": mean_interval([r["return"] for r in results]),
                    "percent": mean_interval([r["percent"] for r in results]),
                    "loss": float(np.mean([r["loss"] for r in results])),
                    "seconds": time.perf_counter() - start,
                }
            )
    return rows


def markdown(rows: list[dict[str, Any]], episodes: int) -> str:
    lines = [
        "| environment | agent | mean return (95% CI) | % of optimal (95% CI) | loss per episode |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        ret, pct = r["return"], r["percent"]
        lines.append(
            f"| {r['env']} | {r['agent']} | {ret.value:.3f} [{ret.lo:.3f}, {ret.hi:.3f}] "
            f"| {pct.value:.1f} [{pct.lo:.1f}, {pct.hi:.1f}] | {r['loss']:.3f} |"
        )
    lines.append("")
    lines.append(f"{episodes} seeded episodes per row (episode k: `env.reset(seed=k)`).")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=60)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--no-store", action="store_true")
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args()
    store = None if args.no_store else ResultStore()
    rows = leaderboard(args.episodes, store, args.workers)
    text = markdown(rows, args.episodes)
    print(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")


if __name__ == "__main__":
    main()
