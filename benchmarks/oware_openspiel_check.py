"""Rules cross-check against OpenSpiel's oware on many random games (needs open-spiel).

After every ply the side to move, both stores, the 12 houses and the legal moves must agree;
at the end the final scores and the returns. Also counts how games ended, so the rare rules
(grand slams, repetitions, no-feed endings) are known to have been exercised.
Run: .venv/bin/python benchmarks/oware_openspiel_check.py [--games 5000] [--seed 0]
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from gamelab.oware.rules import Position, apply_move, is_grand_slam


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    import pyspiel

    game = pyspiel.load_game("oware")
    rng = np.random.default_rng(args.seed)
    counts = {
        "games": 0,
        "plies": 0,
        "grand_slam_moves": 0,
        "ended_by_score": 0,
        "ended_by_repetition": 0,
        "ended_without_moves": 0,
        "mismatches": 0,
    }
    for _ in range(args.games):
        state = game.new_initial_state()
        p = Position.initial()
        while not state.is_terminal():
            side, scores, houses = state.observation_string(0).split("|")
            ok = (
                int(side) == p.to_move
                and tuple(map(int, scores.split())) == p.stores
                and tuple(map(int, houses.split())) == p.houses
                and list(state.legal_actions()) == p.legal_moves()
            )
            counts["mismatches"] += not ok
            m = int(rng.choice(p.legal_moves()))
            counts["grand_slam_moves"] += is_grand_slam(p.houses, p.to_move, m)
            before = p
            state.apply_action(m)
            p = p.play(m)
            counts["plies"] += 1
        _, scores, _ = state.observation_string(0).split("|")
        counts["mismatches"] += tuple(map(int, scores.split())) != p.result()
        w = p.winner()
        counts["mismatches"] += state.returns()[0] != (0 if w is None else (1 if w == 0 else -1))
        counts["games"] += 1
        after_move = list(before.houses)
        stores = list(before.stores)
        captured = apply_move(after_move, stores, before.to_move, m, before.rules)
        if max(stores) > 24 or stores == [24, 24]:
            counts["ended_by_score"] += 1
        elif not captured and (tuple(after_move), 1 - before.to_move) in before.history:
            counts["ended_by_repetition"] += 1
        else:
            counts["ended_without_moves"] += 1
    print(json.dumps(counts, indent=2))


if __name__ == "__main__":
    main()
