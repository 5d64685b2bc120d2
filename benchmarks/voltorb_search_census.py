"""What the exact Voltorb win search spends its time on, and how often a proposed speed-up would
apply, measured on the deals that cost the regret oracle most, before anything is built.

The deals are those of ``benchmarks/envs_speed.py --tables episodes`` (level 3, its random agent,
its seed and uniforms, ``--episodes`` episodes; the deals do not depend on the oracle, so they are
found with ``regret=False``). Each deal's opening is solved by a fresh solver (CPU seconds and
states searched, as the oracle pays them), and the ``--deals`` slowest are examined:

* **states**: up to ``--sample`` of the states each search solved (seeded), by live boards
  (3-10, 11-62, 63-512, more: the closed form, the one-word, the multi-word and the general
  search), and in each class the share of states that
  - *factorise*: their live boards are a Cartesian product over two disjoint groups of the hidden
    tiles they disagree on (the groups: the components of the tiles' pairwise dependence, each
    checked against the rest by counting its distinct patterns), so that P(win) would be the
    product of two smaller searches' (weights permitting);
  - have a *dominated* first flip (``_search_kernels.drop_dominated_python``, states with no safe
    useful tile): the mean number of useful tiles before and after dropping them;
* **transpositions**: over every solved state, those whose set of live boards is an earlier
  state's under another revealed code (a memo keyed by the set would find them), by class;
* **first flips** of the slowest deal: each one's exact value (``expectimax.choice_value``) beside
  the optimum, and its children's sizes: first flips worth nearly the optimum need nearly the
  whole search of their subtrees to be ruled out, whatever the bounds.

    nice -n 10 python benchmarks/voltorb_search_census.py [--episodes 300] [--deals 3] [--sample 2000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from envs_speed import _uniforms  # noqa: E402  (the episodes table's agent)

from gamelab.core.tiers import compiled_kernels  # noqa: E402
from gamelab.voltorb._search_kernels import drop_dominated_python  # noqa: E402
from gamelab.voltorb.expectimax import OptimalSolver, choice_value  # noqa: E402
from gamelab.voltorb.posterior import posterior_for  # noqa: E402
from gamelab.voltorb.rules import TILES, Clues, VoltorbSetting  # noqa: E402

CLASSES = ((3, 10), (11, 62), (63, 512), (513, 10**9))


def episode_deals(episodes: int, level: int = 3) -> list[np.ndarray]:
    """The clues (4 x 5) of each episode of the episodes table, in order."""
    import gymnasium

    import gamelab.envs  # noqa: F401

    u = _uniforms()
    env = gymnasium.make("gamelab/VoltorbFlip-v0", level=level, regret=False)
    deals, k = [], 0
    for episode in range(episodes):
        _, info = env.reset(seed=0) if episode == 0 else env.reset()
        deals.append(env.unwrapped.stepper.clues.copy())
        done = False
        while not done:
            mask = info["action_mask"].copy()
            mask[25] = 0
            legal = mask.nonzero()[0]
            _, _, done, _, info = env.step(legal[int(u[k & 0xFFFFF] * len(legal))])
            k += 1
    return deals


def solver_for(clues: np.ndarray, level: int = 3) -> OptimalSolver:
    c = np.asarray(clues)
    posterior = posterior_for(Clues(c[0], c[1], c[2], c[3]), VoltorbSetting(level))
    return OptimalSolver(posterior, "win")


def live_boards(boards: np.ndarray, hm0: np.ndarray, code: int) -> np.ndarray:
    """Indices of the boards consistent with the revealed `code` and not yet won."""
    keep = np.ones(len(boards), bool)
    shown = 0
    for t in range(TILES):
        v = (code >> (2 * t)) & 3
        if v:
            keep &= boards[:, t] == v
            shown += v >= 2
    return np.flatnonzero(keep & (hm0 > shown))


def factorises(live: np.ndarray, tiles: list[int]) -> bool:
    """Whether the rows `live` (distinct on `tiles`) are a product over a group of `tiles` and
    the rest."""
    parent = {t: t for t in tiles}

    def root(t: int) -> int:
        while parent[t] != t:
            t = parent[t]
        return t

    values = {t: len(set(live[:, t].tolist())) for t in tiles}
    for i, t in enumerate(tiles):
        for u in tiles[i + 1 :]:
            if root(t) == root(u):
                continue
            pairs = len(set(zip(live[:, t].tolist(), live[:, u].tolist(), strict=True)))
            if pairs != values[t] * values[u]:
                parent[root(t)] = root(u)
    groups: dict[int, list[int]] = {}
    for t in tiles:
        groups.setdefault(root(t), []).append(t)
    if len(groups) < 2:
        return False
    n = len(live)
    for group in groups.values():
        rest = [t for t in tiles if t not in group]
        a = len({tuple(r) for r in live[:, group].tolist()})
        b = len({tuple(r) for r in live[:, rest].tolist()})
        if a * b == n:
            return True
    return False


def census(solver: OptimalSolver, sample: int, seed: int) -> dict[tuple[int, int], list[float]]:
    """Per class: [states, factorising, with a dominated tile, useful tiles, kept tiles,
    states with no safe tile]."""
    codes, _, _ = solver.solved_states()
    boards = solver._boards.astype(np.int64)
    hm0 = solver._hm0
    rng = np.random.default_rng(seed)
    pick = rng.choice(len(codes), size=min(sample, len(codes)), replace=False)
    out = {c: [0.0] * 6 for c in CLASSES}
    for code in codes[pick].tolist():
        idx = live_boards(boards, hm0, code)
        cls = next((c for c in CLASSES if c[0] <= idx.size <= c[1]), None)
        if cls is None:
            continue
        row = out[cls]
        row[0] += 1
        live = boards[idx]
        hidden = [t for t in range(TILES) if not (code >> (2 * t)) & 3]
        free = [t for t in hidden if (live[:, t] != live[0, t]).any()]
        row[1] += factorises(live, free)
        useful = [t for t in free if (live[:, t] >= 2).any()]
        if any((live[:, t] != 0).all() for t in useful):
            continue  # a safe useful tile: flipped with no alternative
        kept = drop_dominated_python(boards, idx, useful)
        row[2] += len(kept) < len(useful)
        row[3] += len(useful)
        row[4] += len(kept)
        row[5] += 1
    return out


def transpositions(solver: OptimalSolver) -> dict[tuple[int, int], list[int]]:
    """Per class: [solved states, states whose live set an earlier state (in code order) has]."""
    codes, _, _ = solver.solved_states()
    boards = solver._boards
    n = len(boards)
    masks = {(t, v): np.packbits(boards[:, t] == v) for t in range(TILES) for v in (1, 2, 3)}
    won = {h: np.packbits(solver._hm0 == h) for h in range(TILES + 1)}
    seen: set[bytes] = set()
    out = {c: [0, 0] for c in CLASSES}
    for code in np.sort(codes).tolist():
        m = np.full((n + 7) // 8, 255, np.uint8)
        shown = 0
        for t in range(TILES):
            v = (code >> (2 * t)) & 3
            if v:
                m &= masks[(t, v)]
                shown += v >= 2
        m &= ~won[shown]
        size = int(np.unpackbits(m)[:n].sum())
        cls = next((c for c in CLASSES if c[0] <= size <= c[1]), None)
        key = m.tobytes()
        if cls is not None:
            out[cls][0] += 1
            out[cls][1] += key in seen
        seen.add(key)
    return out


def _name(cls: tuple[int, int]) -> str:
    return f"{cls[0]}-{cls[1]}" if cls[1] < 10**9 else f"{cls[0]}+"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--deals", type=int, default=3, help="the slowest deals examined")
    parser.add_argument("--sample", type=int, default=2000, help="solved states per deal")
    args = parser.parse_args()
    deals = episode_deals(args.episodes)
    with compiled_kernels():
        # (loads the kernels: a search with the general search and one without, see win_search)
        sizes = [len(solver_for(clues).boards) for clues in deals[:20]]
        for clues in (deals[int(np.argmax(sizes))], deals[int(np.argmin(sizes))]):
            solver_for(clues).decide({})
        times = []
        for clues in deals:
            solver = solver_for(clues)
            start = time.process_time()
            solver.decide({})
            times.append((time.process_time() - start, solver.nodes))
        _examine(deals, times, args)


def _examine(deals: list[np.ndarray], times: list[tuple[float, int]], args) -> None:
    cpu = np.array([t for t, _ in times])
    slow = np.argsort(-cpu, kind="stable")[: args.deals]
    ranked = np.sort(cpu)[::-1]
    counts = [c for c in (1, 3, 10, 30) if c < len(deals)]
    print(f"{len(deals)} level-3 openings, CPU s of the slowest:")
    print()
    print("| " + " | ".join(f"slowest {c}" for c in counts) + " | all |")
    print("|---" * (len(counts) + 1) + "|")
    cells = [f"{ranked[:c].sum():.2f} ({100 * ranked[:c].sum() / cpu.sum():.0f} %)" for c in counts]
    print("| " + " | ".join(cells) + f" | {cpu.sum():.2f} |")
    print()
    print("| episode | boards | CPU s | share of all | states searched |")
    print("|---|---|---|---|---|")
    solvers = {}
    for e in slow.tolist():
        solver = solver_for(deals[e])
        solver.decide({})
        solvers[e] = solver
        print(
            f"| {e} | {len(solver.boards):,} | {cpu[e]:.2f} | {100 * cpu[e] / cpu.sum():.0f} % | "
            f"{times[e][1]:,} |",
            flush=True,
        )
    print()
    print(
        "| episode | live boards | states | factorise | with a dominated tile | "
        "useful tiles (mean) | after dropping the dominated | memo by live set would find |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for e, solver in solvers.items():
        rows = census(solver, args.sample, seed=e)
        dup = transpositions(solver)
        for cls in CLASSES:
            n, fac, dom, useful, kept, risky = rows[cls]
            if not n:
                continue
            total, found = dup[cls]
            mean = f"{useful / risky:.1f} | {kept / risky:.1f}" if risky else "- | -"
            print(
                f"| {e} | {_name(cls)} | {int(n)} | {100 * fac / n:.1f} % | "
                f"{100 * dom / max(risky, 1):.1f} % | {mean} | "
                f"{100 * found / max(total, 1):.0f} % of {total:,} |",
                flush=True,
            )
    e = int(slow[0])
    solver = solvers[e]
    tile, value = solver.decide({})
    print()
    print(f"First flips of episode {e}'s opening (optimum {value:.5f}, tile {tile}):")
    print()
    print("| tile | P(win) | / optimum | children's boards (value shown: boards) |")
    print("|---|---|---|---|")
    idx, _, hm = solver.state_for({})
    for t in solver.first_tiles({}):
        q = choice_value(solver, {}, t)
        sizes = ", ".join(f"{v}: {live.size:,}" for v, _, live, _ in solver.children(idx, hm, t))
        print(f"| {t} | {q:.5f} | {q / value:.4f} | {sizes} |", flush=True)


if __name__ == "__main__":
    main()
