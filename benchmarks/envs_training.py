"""A short, real training example: tabular Q-learning (numpy only) on LatticeFold, with the
regret the environment reports falling as the agent learns.

The agent sees the moves so far (its state is the move string), chooses among the legal moves
(the action mask) epsilon-greedily, and learns from the end reward (the fold's HH contacts, -1
if trapped) by one-step Q-learning. The environment measures every decision against the exact
best completion (``info["regret"]``); the episode's loss is their sum. Prints the mean loss per
block of episodes and writes the curve as a PNG.

    nice -n 10 .venv/bin/python benchmarks/envs_training.py --episodes 3000 --plot docs/envs-training.png
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import gamelab.envs  # noqa: F401


def train(sequence: str, episodes: int, seed: int, block: int) -> list[float]:
    env = gymnasium.make("gamelab/LatticeFold-v0", sequence=sequence, regret=True).unwrapped
    rng = np.random.default_rng(seed)
    q: dict[str, np.ndarray] = {}
    alpha = 0.3
    losses: list[float] = []
    for episode in range(episodes):
        epsilon = max(0.02, 1.0 - episode / (0.6 * episodes))
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            key = env.state.conformation
            legal = np.flatnonzero(info["action_mask"])
            values = q.setdefault(key, np.zeros(env.action_space.n))
            if rng.random() < epsilon:
                action = int(rng.choice(legal))
            else:
                best = values[legal].max()
                action = int(rng.choice(legal[values[legal] == best]))
            obs, reward, done, _, info = env.step(action)
            if done:
                target = reward
            else:
                nxt = q.setdefault(env.state.conformation, np.zeros(env.action_space.n))
                target = reward + nxt[np.flatnonzero(info["action_mask"])].max()
            values[action] += alpha * (target - values[action])
        losses.append(info["summary"]["loss"])
    return [float(np.mean(losses[i : i + block])) for i in range(0, episodes, block)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sequence", default="HPHPPHHPHH")
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--block", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", help="write the curve to this PNG")
    args = parser.parse_args()
    curve = train(args.sequence, args.episodes, args.seed, args.block)
    for k, loss in enumerate(curve):
        print(
            f"episodes {k * args.block:>5}-{(k + 1) * args.block - 1:>5}: mean loss {loss:.3f} contacts"
        )
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 3.2))
        x = (np.arange(len(curve)) + 0.5) * args.block
        ax.plot(x, curve, marker="o", ms=3)
        ax.set_xlabel("episode")
        ax.set_ylabel("expected loss per episode\n(HH contacts vs the optimum)")
        ax.set_title(f"Tabular Q-learning on LatticeFold {args.sequence}")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)


if __name__ == "__main__":
    main()
