"""Stepping speed of the environments, in steps per CPU-second of one process (one core),
measured side by side in one run; the machine may be shared, so read the ratios.

Three tables:

* **oracle**: each environment with ``regret=False`` and with ``regret=True`` (the exact regret
  of every move), and CartPole-v1 in the same run as the yardstick: on / off and on / CartPole
  (all as ``gymnasium.make`` returns them, with Gymnasium's wrappers, as a user steps them).
  The oracle's memos persist across steps and episodes (that is the design), so a warm-up of
  ``--warmup`` CPU-seconds runs first with the oracle on and the rate is the next ``--seconds``;
  VoltorbFlip level 3 and 8, YatzySolitaire, PokemonWordle gen1 (``-v1``), LatticeFold at 12,
  18 and 20 residues (pack levels 5, 17, 21);
* **vector**: the native vector environments (``gymnasium.make_vec(...,
  vectorization_mode="vector_entry_point")``, :mod:`gamelab.envs.vector`) against Gymnasium's
  ``SyncVectorEnv`` of the same environment at the same number of sub-environments, without
  the oracle, random legal actions from the action-mask array (the same numpy code on both
  sides: the legal action of highest priority, from tables of random priorities drawn once);
* **plain**: each environment without the oracle against a plain Python loop over the same
  rules and the same agent (Voltorb: ``generate_board`` + ``Round.flip``; Yatzy: numpy dice +
  ``Card.fill``; Owaré: ``Position.play``);
* **openings**: what a new Voltorb deal costs the oracle, the exact solve of its opening, over
  ``--deals`` random level-3 deals (median, mean, tail): the floor of the Voltorb rows of the
  oracle table, since a random agent plays only a few flips per deal;
* **episodes**: VoltorbFlip with ``regret=True`` over a fixed set of episodes, ``--deals`` at
  level 3 and a third as many at level 8 (seeded once, as the oracle table): steps per
  CPU-second over the same deals in any tree. A time slice (the oracle table) reaches further
  into the deal sequence on a faster tree, and one deal can take seconds, so side by side
  compare this table.

The single-environment agent is a cheap random one: a legal action picked with one pre-drawn
uniform (the plain loops ask the rules for the legal actions, the environments' agent reads the
mask); Voltorb's agent never quits. Counted steps are agent decisions (chance draws are part of a
step). Environments are seeded once and then reset without a seed, as Gymnasium recommends; one
plain row shows Voltorb reseeded every episode. Prints the load average before and after.

    nice -n 10 .venv/bin/python benchmarks/envs_speed.py --seconds 3

``--tables oracle`` (or ``vector``, ``plain``; comma-separated) runs some tables, ``--only TEXT``
the rows whose name contains TEXT (any case; several texts comma-separated), e.g. side by side
with an older tree:
``PYTHONPATH=<old checkout>/src python benchmarks/envs_speed.py --tables plain --only lattice,Voltorb``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

import gamelab.envs  # noqa: F401
from gamelab.voltorb.rules import VoltorbSetting

Run = Callable[[float], int]


def _uniforms(n: int = 1 << 20) -> list[float]:
    return np.random.default_rng(0).random(n).tolist()


def gym_loop(
    env_id: str, skip: int | None = None, reseed: bool = False, wrapped: bool = False, **kwargs
) -> Run:
    """Random legal actions through ``env.step`` (never `skip`, e.g. Voltorb's quit); the
    environment as ``gymnasium.make`` gives it (`wrapped`, with Gymnasium's checker and order
    wrappers, as CartPole is measured) or unwrapped."""
    import gymnasium

    env = gymnasium.make(env_id, **kwargs)
    if not wrapped:
        env = env.unwrapped
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


def lattice_plain(level: int) -> Run:
    """Random self-avoiding moves by the rules' unit steps (a site list and a set of taken
    sites, as the protocol's state keeps them), on pack level `level`'s chain."""
    from gamelab.lattice.puzzle import lattice_game
    from gamelab.lattice.rules import coordinates

    game = lattice_game(level=level)
    steps_of = [coordinates(m, game.lattice)[1] for m in game.lattice.moves]
    n = game.length

    def run(seconds: float) -> int:
        u = _uniforms()
        end = time.process_time() + seconds
        steps, k = 0, 0
        while time.process_time() < end:
            sites = [(0, 0, 0)]
            taken = {sites[0]}
            while len(sites) < n:
                x, y, z = sites[-1]
                free = [
                    (x + dx, y + dy, z + dz)
                    for dx, dy, dz in steps_of
                    if (x + dx, y + dy, z + dz) not in taken
                ]
                if not free:
                    break
                site = free[int(u[k & 0xFFFFF] * len(free))]
                sites.append(site)
                taken.add(site)
                k += 1
                steps += 1
        return steps

    return run


def wanted(name: str, only: str | None) -> bool:
    """Whether a row runs under ``--only`` (texts comma-separated, any case)."""
    return not only or any(text.strip().lower() in name.lower() for text in only.split(","))


def voltorb_plain(level: int) -> Run:
    from gamelab.voltorb.rules import TILES, Round, generate_board

    def run(seconds: float) -> int:
        rng, u = np.random.default_rng(0), _uniforms()
        end = time.process_time() + seconds
        steps, k = 0, 0
        while time.process_time() < end:
            board, _ = generate_board(VoltorbSetting(level), rng)
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


def cartpole_loop() -> Run:
    """CartPole-v1 (``gymnasium.make``, with its wrappers) under a random agent."""
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
                _, _, term, trunc, _ = env.step(int(u[k & 0xFFFFF] * 2))
                done = term or trunc
                k += 1
                steps += 1
            env.reset()
        at["k"] = k
        return steps

    return run


def rate(run: Run, seconds: float, rounds: int = 3) -> float:
    """Steps per CPU-second over `rounds` slices of `seconds` / `rounds`."""
    steps, cpu = 0, 0.0
    for _ in range(rounds):
        start = time.process_time()
        steps += run(seconds / rounds)
        cpu += time.process_time() - start
    return steps / cpu


#: the oracle table: name, environment id, skip (an action the agent never takes), settings
ORACLE_ROWS: list[tuple[str, str, int | None, dict]] = [
    ("VoltorbFlip level 3", "gamelab/VoltorbFlip-v0", 25, {"level": 3}),
    ("VoltorbFlip level 8", "gamelab/VoltorbFlip-v0", 25, {"level": 8}),
    ("YatzySolitaire yatzy", "gamelab/YatzySolitaire-v0", None, {}),
    ("PokemonWordle gen1", "gamelab/PokemonWordle-v1", None, {}),
    ("LatticeFold 12 residues (level 5)", "gamelab/LatticeFold-v0", None, {"level": 5}),
    ("LatticeFold 18 residues (level 17)", "gamelab/LatticeFold-v0", None, {"level": 17}),
    ("LatticeFold 20 residues (level 21)", "gamelab/LatticeFold-v0", None, {"level": 21}),
]


def oracle_table(seconds: float, warmup: float, only: str | None) -> None:
    cartpole = cartpole_loop()
    cartpole(0.3)
    base = rate(cartpole, seconds)
    print("| environment | steps/CPU-s, regret=False | regret=True | on / off | on / CartPole |")
    print("|---|---|---|---|---|")
    print(f"| CartPole-v1 | {base:,.0f} | | | |", flush=True)
    for name, env_id, skip, kwargs in ORACLE_ROWS:
        if not wanted(name, only):
            continue
        off = gym_loop(env_id, skip, wrapped=True, **kwargs)
        off(0.3)
        on = gym_loop(env_id, skip, wrapped=True, regret=True, **kwargs)
        on(warmup)  # the oracle's tables and memos (a solve, the first widgets)
        r_off, r_on = rate(off, seconds), rate(on, seconds)
        print(
            f"| {name} | {r_off:,.0f} | {r_on:,.0f} | {r_on / r_off:.2f} | {r_on / base:.3f} |",
            flush=True,
        )


def plain_table(seconds: float, only: str | None) -> None:
    # each row's two sides, built only for the rows run (an environment is made at once)
    rows: list[tuple[str, Callable[[], Run], Callable[[], Run]]] = [
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
            "LatticeFold 18 residues (level 17)",
            lambda: gym_loop("gamelab/LatticeFold-v0", level=17),
            lambda: lattice_plain(17),
        ),
        (
            "LatticeFold 18 residues (level 17), grid observation",
            lambda: gym_loop("gamelab/LatticeFold-v0", level=17, observation="grid"),
            lambda: lattice_plain(17),
        ),
    ]
    print("| environment | env steps/CPU-s | plain loop steps/CPU-s | env / plain |")
    print("|---|---|---|---|")
    for name, make_env_run, make_plain_run in rows:
        if not wanted(name, only):
            continue
        env_run, plain_run = make_env_run(), make_plain_run()
        env_run(0.3)  # warm up (imports, loading the kernels)
        plain_run(0.3)
        e, p = rate(env_run, seconds), rate(plain_run, seconds)
        print(f"| {name} | {e:,.0f} | {p:,.0f} | {e / p:.2f} |", flush=True)


def openings_table(deals: int, only: str | None) -> None:
    """What a new Voltorb deal costs the oracle: the exact opening solve (posterior and
    search, as the oracle makes them) of `deals` random level-3 deals, timed one by one."""
    from gamelab.voltorb.expectimax import OptimalSolver
    from gamelab.voltorb.posterior import posterior_for
    from gamelab.voltorb.rules import Clues, generate_board

    print(
        "| level | deals | median ms | mean ms | 90th percentile ms | slowest ms | "
        "share of the time in the slowest tenth |"
    )
    print("|---|---|---|---|---|---|---|")
    for level in (3,):
        if not wanted(f"VoltorbFlip level {level}", only):
            continue
        rng = np.random.default_rng(7)
        times = []
        for _ in range(deals):
            board, _ = generate_board(VoltorbSetting(level), rng)
            start = time.process_time()
            solver = OptimalSolver(
                posterior_for(Clues.from_board(board), VoltorbSetting(level)), "win"
            )
            solver.decide({})
            times.append(1000 * (time.process_time() - start))
        t = np.sort(np.array(times))
        top = t[-max(1, deals // 10) :].sum() / t.sum()
        print(
            f"| {level} | {deals} | {np.median(t):.1f} | {t.mean():.1f} | "
            f"{np.quantile(t, 0.9):.1f} | {t[-1]:,.0f} | {100 * top:.0f} % |",
            flush=True,
        )


def episodes_table(deals: int, only: str | None) -> None:
    """VoltorbFlip with the regret over `deals` episodes at level 3 (a third at level 8), the
    random agent of the oracle table: the same deals in every tree."""
    import gymnasium

    print("| environment | episodes | steps | CPU s | steps/CPU-s | slowest episode's share |")
    print("|---|---|---|---|---|---|")
    u = _uniforms()
    warm = gymnasium.make("gamelab/VoltorbFlip-v0", level=1, regret=True)
    warm.reset(seed=1)
    warm.step(0)  # (loads the search's kernels, which no side should time)
    for level, episodes in ((3, deals), (8, max(1, deals // 3))):
        name = f"VoltorbFlip level {level}, regret=True"
        if only and only not in name:
            continue
        env = gymnasium.make("gamelab/VoltorbFlip-v0", level=level, regret=True)
        k, steps, times = 0, 0, []
        for episode in range(episodes):
            start = time.process_time()
            _, info = env.reset(seed=0) if episode == 0 else env.reset()
            done = False
            while not done:
                mask = info["action_mask"].copy()
                mask[25] = 0  # never quit
                legal = mask.nonzero()[0]
                _, _, done, _, info = env.step(legal[int(u[k & 0xFFFFF] * len(legal))])
                k += 1
                steps += 1
            times.append(time.process_time() - start)
        cpu = sum(times)
        print(
            f"| {name} | {episodes} | {steps} | {cpu:.1f} | {steps / cpu:,.0f} | "
            f"{100 * max(times) / cpu:.0f} % |",
            flush=True,
        )


TABLES = ("oracle", "vector", "plain", "openings", "episodes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU-seconds per side and row")
    parser.add_argument(
        "--warmup",
        type=float,
        default=None,
        help="CPU-seconds of warm-up with the oracle on before measuring (default: --seconds)",
    )
    parser.add_argument("--tables", default=",".join(TABLES), help="tables to run, comma-separated")
    parser.add_argument(
        "--only",
        help="run only the rows whose name contains one of these texts (comma-separated, any case)",
    )
    parser.add_argument(
        "--envs", type=int, default=1024, help="sub-environments of the vector table"
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=300,
        help="Voltorb deals of the openings table, and level-3 episodes of the episodes table",
    )
    args = parser.parse_args()
    tables = [t.strip() for t in args.tables.split(",") if t.strip()]
    unknown = [t for t in tables if t not in TABLES]
    if unknown or args.seconds <= 0 or args.envs < 1:
        parser.error(f"--tables takes {', '.join(TABLES)}; --seconds and --envs must be positive")
    warmup = args.seconds if args.warmup is None else args.warmup
    print(f"load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for table in tables:
        print(f"\n{table}:\n")
        if table == "oracle":
            oracle_table(args.seconds, warmup, args.only)
        elif table == "vector":
            vector_table(args.seconds, args.envs, args.only)
        elif table == "openings":
            openings_table(args.deals, args.only)
        elif table == "episodes":
            episodes_table(args.deals, args.only)
        else:
            plain_table(args.seconds, args.only)
    print(f"\nload average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


def vector_loop(env_id: str, n_envs: int, mode: str, **kwargs) -> Run:
    """Random legal actions for every sub-environment, drawn from the action-mask array by the
    same numpy code for both vectorisations (a finished sub-environment's all-zero mask gives
    action 0, which the next-step autoreset ignores)."""
    import gymnasium

    envs = gymnasium.make_vec(env_id, num_envs=n_envs, vectorization_mode=mode, **kwargs)
    # random priorities drawn once (16 tables of int8), so the agent costs a product and an
    # argmax per step, not a fresh uniform per action
    shape = (n_envs, envs.single_action_space.n)
    priorities = np.random.default_rng(0).integers(1, 127, (16, *shape), dtype=np.int8)
    at = {"info": envs.reset(seed=0)[1], "k": 0}

    def run(seconds: float) -> int:
        end = time.process_time() + seconds
        steps, info, k = 0, at["info"], at["k"]
        while time.process_time() < end:
            actions = np.argmax(info["action_mask"] * priorities[k & 15], axis=1)
            _, _, _, _, info = envs.step(actions)
            steps += n_envs
            k += 1
        at.update(info=info, k=k)
        return steps

    return run


#: the vector table: name, environment id, settings
VECTOR_ROWS: list[tuple[str, str, dict]] = [
    ("VoltorbFlip level 8", "gamelab/VoltorbFlip-v0", {"level": 8}),
    ("VoltorbFlip level 1", "gamelab/VoltorbFlip-v0", {"level": 1}),
    ("YatzySolitaire yatzy", "gamelab/YatzySolitaire-v0", {}),
    ("YatzySolitaire yahtzee", "gamelab/YatzySolitaire-v0", {"rules": "yahtzee"}),
]


def vector_table(seconds: float, n_envs: int, only: str | None) -> None:
    print(
        f"| environment, {n_envs} sub-environments | native vector steps/CPU-s "
        "| SyncVectorEnv steps/CPU-s | native / sync |"
    )
    print("|---|---|---|---|")
    for name, env_id, kwargs in VECTOR_ROWS:
        if not wanted(name, only):
            continue
        native = vector_loop(env_id, n_envs, "vector_entry_point", **kwargs)
        sync = vector_loop(env_id, n_envs, "sync", **kwargs)
        native(0.3)
        sync(0.3)
        v, s = rate(native, seconds), rate(sync, seconds)
        print(f"| {name} | {v:,.0f} | {s:,.0f} | {v / s:.1f} |", flush=True)


if __name__ == "__main__":
    main()
