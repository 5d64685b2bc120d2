"""Where the inseparable-boards ceiling is above the value: the greedy cover against the best
possible pairwise bound and against triples, on small states of a hard opening.

A policy's cleared boards form a set that one policy can clear, and any such set is cleared by
some policy, so the value of a state is the heaviest *clearable* subset of its live boards. The
greedy cover (``pair_bound``, the search's ceiling) bounds it through pairs only. For each sampled
state this prints, against the exact value (``small_solve``):

* the greedy cover;
* the heaviest set of pairwise separable boards (an exact maximum-weight independent set of the
  inseparability graph): the tightest bound any cover by inseparable groups can give, so the
  share of the cover's excess above it is what a better cover could remove at most;
* the heaviest set whose pairs *and triples* are clearable (states of at most ``--triples-max``
  boards): what a bound that also knew the triples could reach;
* two greedy covers that know the triples (same states; a group in which no three boards are
  clearable together contributes its heaviest clearable pair): groups grown heaviest first while
  no clearable triple forms, and the greedy cover's groups merged while no transversal triple
  is clearable. They measure what a cover-style triple bound, cheap enough for the search,
  would remove.

States: seeded random walks from the opening (a random useful tile, then a random value among
those the live boards show) until at most ``--max-boards`` boards are live; not the search's own
distribution of states, a sample of the positions it meets.

    python benchmarks/voltorb_bound_gap.py [--states 300] [--max-boards 40] [--seed 0]
        [--rows "5,2 8,1 5,3 7,1 3,3" --cols "6,2 7,2 6,2 5,2 4,2" --level 8]
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np

from gamelab.voltorb._bounds_kernels import _inseparable, board_bits
from gamelab.voltorb._small_kernels import small_solve
from gamelab.voltorb._table_kernels import table_new
from gamelab.voltorb.assistant import position_posterior
from gamelab.voltorb.rules import TILES, Position, VoltorbSetting


def clearable(boards: np.ndarray, ids: list[int]) -> bool:
    """Whether one policy clears every board of `ids`: flip every tile safe on all of them (none
    is lost), drop the boards that are then won, and the rest must split on those tiles, each
    part again clearable."""
    if len(ids) <= 1:
        return True
    sub = boards[ids]
    safe = (sub != 0).all(axis=0)
    rest = [b for b in ids if ((boards[b] >= 2) & ~safe).any()]
    if len(rest) <= 1:
        return True
    parts: dict[tuple[int, ...], list[int]] = {}
    for b in rest:
        parts.setdefault(tuple(boards[b, safe]), []).append(b)
    if len(parts) == 1:
        return len(rest) < len(ids) and clearable(boards, rest)
    return all(clearable(boards, p) for p in parts.values())


def heaviest(w: np.ndarray, ok_pair: np.ndarray, bad_triples: set) -> float:
    """The heaviest set with every pair ok and no triple in `bad_triples` (branch and bound)."""
    k = len(w)
    best = 0.0

    def grow(chosen: list[int], cand: list[int], acc: float) -> None:
        nonlocal best
        best = max(best, acc)
        if not cand or acc + w[cand].sum() <= best + 1e-15:
            return
        i, rest = cand[0], cand[1:]
        if all((a, b, i) not in bad_triples for a, b in itertools.combinations(chosen, 2)):
            grow(chosen + [i], [j for j in rest if ok_pair[i, j]], acc + w[i])
        grow(chosen, rest, acc)

    grow([], list(range(k)), 0.0)
    return best


def greedy_groups(ok: np.ndarray) -> list[list[int]]:
    """Boards 0..k-1 (heaviest first) grouped greedily: each group takes every later board that
    no member can be cleared together with (ok[a, b] False for every member a)."""
    groups, rem = [], list(range(len(ok)))
    while rem:
        group = [rem.pop(0)]
        for b in list(rem):
            if all(not ok[a, b] for a in group):
                group.append(b)
                rem.remove(b)
        groups.append(group)
    return groups


def triple_covers(w: np.ndarray, ok: np.ndarray, bad: set) -> tuple[float, float]:
    """Two covers by groups with no clearable triple (a triple is clearable when its pairs are
    and it is not in `bad`): each group contributes its heaviest clearable subset, at most a pair.
    First: groups grown from the heaviest remaining board, adding each board (heaviest first)
    that forms no clearable triple. Second: the greedy cover's groups of pairwise inseparable
    boards, each merged with the later ones while every triple of the union stays unclearable."""
    k = len(w)

    def clear3(a: int, b: int, c: int) -> bool:
        x, y, z = sorted((a, b, c))
        return bool(ok[x, y] and ok[x, z] and ok[y, z]) and (x, y, z) not in bad

    def worth(group: list[int]) -> float:
        best = max(w[g] for g in group)
        for a, b in itertools.combinations(group, 2):
            if ok[a, b]:
                best = max(best, w[a] + w[b])
        return best

    grown, rem = 0.0, list(range(k))
    while rem:
        group = [rem.pop(0)]
        for c in list(rem):
            if not any(clear3(a, b, c) for a, b in itertools.combinations(group, 2)):
                group.append(c)
                rem.remove(c)
        grown += worth(group)
    cliques = greedy_groups(ok)
    merged, taken = 0.0, [False] * len(cliques)
    for i, first in enumerate(cliques):
        if taken[i]:
            continue
        union = list(first)
        for j in range(i + 1, len(cliques)):
            if not taken[j]:
                trial = union + cliques[j]
                if not any(clear3(*t) for t in itertools.combinations(trial, 3)):
                    union, taken[j] = trial, True
        merged += worth(union)
    return grown, merged


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="5,2 8,1 5,3 7,1 3,3")
    ap.add_argument("--cols", default="6,2 7,2 6,2 5,2 4,2")
    ap.add_argument("--level", type=int, default=8)
    ap.add_argument("--states", type=int, default=300)
    ap.add_argument("--max-boards", type=int, default=40)
    ap.add_argument("--triples-max", type=int, default=24)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    post = position_posterior(Position.parse(args.rows, args.cols), VoltorbSetting(args.level))
    order = np.argsort(-post.weights, kind="stable")
    boards = np.ascontiguousarray(post.boards[order], dtype=np.int8)
    weights = np.ascontiguousarray(post.weights[order], dtype=np.float64)
    bits = board_bits(boards)
    rng = np.random.default_rng(args.seed)
    rows = []
    while len(rows) < args.states:
        idx, revealed = np.arange(len(boards)), set()
        while True:
            playing = [
                (boards[b, [t for t in range(TILES) if t not in revealed]] >= 2).any() for b in idx
            ]
            idx = idx[np.array(playing, dtype=bool)]
            if len(idx) <= args.max_boards:
                break
            useful = [
                t
                for t in range(TILES)
                if t not in revealed
                and (boards[idx, t] >= 2).any()
                and len(set(boards[idx, t])) > 1
            ]
            t = int(rng.choice(useful))
            v = int(rng.choice(sorted(set(boards[idx, t]) - {0})))
            idx, revealed = idx[boards[idx, t] == v], revealed | {t}
        k = len(idx)
        if k < 3:
            continue
        w = weights[idx]
        ok = np.array(
            [
                [a != b and not _inseparable(bits, idx[a], idx[b]) for b in range(k)]
                for a in range(k)
            ]
        )
        # the greedy cover, heaviest first (as pair_bound)
        cover = sum(w[group[0]] for group in greedy_groups(ok))
        pairwise = heaviest(w, ok, set())
        triples = grown = merged = np.nan
        if k <= args.triples_max:
            bad = set()
            for a, b, c in itertools.combinations(range(k), 3):
                if ok[a, b] and ok[a, c] and ok[b, c]:
                    if not clearable(boards, [int(idx[a]), int(idx[b]), int(idx[c])]):
                        bad.add((a, b, c))
            triples = heaviest(w, ok, bad)
            grown, merged = triple_covers(w, ok, bad)
        counter = np.array([0, 2**62, 0, 0, 0], np.int64)
        live = np.ascontiguousarray(np.sort(idx), dtype=np.int64)
        no_symmetry = np.arange(25, dtype=np.int64).reshape(1, 25)
        value = small_solve(
            boards, weights, bits, live, np.int64(0), -1.0, table_new(), counter, no_symmetry
        )[0]
        rows.append((k, cover, pairwise, triples, grown, merged, value))
    a = np.array(rows)
    k, cover, pairwise, triples, grown, merged, value = a.T
    tol = 1e-12 * cover
    assert (cover >= pairwise - tol).all() and (pairwise >= value - tol).all()
    print(
        f"{len(a)} states of 3-{args.max_boards} live boards (mean {k.mean():.1f}), random walks "
        f"from the opening, seed {args.seed}"
    )
    print(f"  greedy cover equal to the value on {np.mean(cover <= value + tol):.1%}")
    print(f"  best pairwise bound equal to the value on {np.mean(pairwise <= value + tol):.1%}")
    excess = (cover - value).sum()
    print(
        f"  share of the cover's excess a perfect pairwise bound would remove: "
        f"{(cover - pairwise).sum() / excess:.1%}"
    )
    small = ~np.isnan(triples)
    if small.any():
        ex = (cover[small] - value[small]).sum()
        print(
            f"  states of at most {args.triples_max} boards ({small.sum()}): pairs and triples "
            f"equal to the value on {np.mean(triples[small] <= value[small] + tol[small]):.1%}; "
            f"share of the cover's excess removed: pairs "
            f"{(cover[small] - pairwise[small]).sum() / ex:.1%}, pairs and triples "
            f"{(cover[small] - triples[small]).sum() / ex:.1%}"
        )
        assert (grown[small] >= value[small] - tol[small]).all()
        assert (merged[small] >= value[small] - tol[small]).all()
        both = np.minimum(cover, np.minimum(grown, merged))[small]
        for name, c in (
            ("grown triple-free groups", grown[small]),
            ("merged pair groups", merged[small]),
            ("the least of the three covers", both),
        ):
            print(
                f"  {name}: equal to the value on {np.mean(c <= value[small] + tol[small]):.1%}; "
                f"share of the cover's excess removed {(cover[small] - c).sum() / ex:.1%}"
            )


if __name__ == "__main__":
    main()
