"""Kernel speed before and after a refactoring: the same calls timed in two source trees, side by side.

    python benchmarks/kernels_before_after.py --before /path/to/old/src [--after src] [--reps 7]
                                              [--only voltorb,oware] [--cold] [--list]

Each tree runs in its own worker process (``PYTHONPATH=<tree>``, ``NUMBA_NUM_THREADS=1``, its own
``GAMELAB_CACHE``); the parent asks both for the same workloads alternately (the order flips every
repetition), each worker times its call in CPU seconds of its process, and the report gives per
workload the median seconds of each tree and the median and worst of the per-repetition ratios
after / before (1.00 = same speed; above 1.05 is more than 5 % slower). The first call of each
workload in a worker sets it up and compiles (or loads from the numba cache); it is reported
apart ("first call"; with ``--cold`` the numba caches start empty, so it measures compilation).
Both trees must compute the same value: each workload returns a checksum and the parent compares
them, so a faster wrong kernel does not pass.

The workloads call the kernels directly, with the same inputs, through a small adapter for the
calling convention (the Yatzy kernels took their rule tables as six arrays and their scratch
buffers one by one before the rules bundle and the workspace; see ``yatzy/_turn_kernels.py``).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

# ------------------------------------------------------------------------------------ worker side


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def _kernel(game: str, name: str, modules: tuple[str, ...]):
    """Kernel `name` of `game`: from the split modules if the tree has them, else `_kernels`."""
    for mod in modules:
        full = f"gamelab.{game}.{mod}"
        if _has(full):
            m = importlib.import_module(full)
            if hasattr(m, name):
                return getattr(m, name)
    return getattr(importlib.import_module(f"gamelab.{game}._kernels"), name)


def yk(name: str):
    return _kernel(
        "yatzy",
        name,
        (
            "_turn_kernels",
            "_widget_kernels",
            "_distribution_kernels",
            "_play_kernels",
            "_utility_kernels",
        ),
    )


def vk(name: str):
    return _kernel("voltorb", name, ("_posterior_kernels", "_bounds_kernels", "_search_kernels"))


NEW_YATZY = _has("gamelab.yatzy._turn_kernels")


def yatzy_tables(rules) -> tuple:
    """The rule-table arguments of a Yatzy kernel in this tree's convention."""
    if NEW_YATZY:
        return (rules.kernel_rules(),)
    tab = rules.kernel_tables()
    return (
        tab["base"],
        tab["upper_face"],
        tab["joker_value"],
        tab["upper_box_of_face"],
        tab["joker_fixed"],
        tab["params"],
    )


def yatzy_scratch(rules) -> tuple:
    """Scratch of widget / widget_policy / utility_decisions in this tree's convention."""
    if NEW_YATZY:
        return (yk("new_workspace")(rules.n_boxes),)
    nb = rules.n_boxes
    return {
        "V": np.empty(252),
        "VW": np.zeros(252),
        "K": np.empty(462),
        "KW": np.zeros(462),
        "M": np.empty(462),
        "A": np.empty(462, dtype=np.int64),
        "box3": np.empty(252, np.int64),
        "keep2": np.empty(252, np.int64),
        "keep1": np.empty(252, np.int64),
        "K1": np.empty(462),
        "K2": np.empty(462),
        "succ_s": np.zeros((nb, 7)),
        "succ_e": np.zeros((nb, 7)),
        "succ_w": np.zeros((nb, 7)),
    }


def _yatzy_states(rules, n, rng, full=False):
    from gamelab.yatzy.solver import upper_reach

    reach = upper_reach()
    uf = np.array([rules.upper_face(b) for b in range(rules.n_boxes)])
    out = []
    while len(out) < n:
        mask = int(rng.integers(0, (1 << rules.n_boxes) - 1))
        m = int(rng.integers(0, 64))
        u = sum(1 << (int(uf[b]) - 1) for b in range(rules.n_boxes) if (mask >> b) & 1 and uf[b])
        if reach[u, m]:
            f = int(rng.integers(0, 2)) if rules.has_bonus_flag else 0
            out.append((mask, m, f))
    return out


def _values(rules, rng):
    nf = 2 if rules.has_bonus_flag else 1
    E = rng.uniform(0, 200, (1 << rules.n_boxes) * 64 * nf)
    return E, E**2 + rng.uniform(0, 100, E.shape)


def w_yatzy_widget(with_w: bool):
    def setup():
        from gamelab.yatzy.rules import get_rules

        rules = get_rules("yahtzee")
        rng = np.random.default_rng(1)
        E, W = _values(rules, rng)
        states = _yatzy_states(rules, 40, rng)
        tabs = yatzy_tables(rules)
        widget = yk("widget")
        if NEW_YATZY:
            scratch = yatzy_scratch(rules)
        else:
            s = yatzy_scratch(rules)
            scratch = (
                s["V"],
                s["VW"],
                s["K"],
                s["KW"],
                s["box3"],
                s["succ_s"],
                s["succ_e"],
                s["succ_w"],
                s["M"],
                s["A"],
            )

        def run():
            total = 0.0
            for _ in range(100):
                for mask, m, f in states:
                    e, w = widget(E, W, with_w, mask, m, f, *tabs, *scratch)
                    total += e + (w if with_w else 0.0)
            return total

        return run

    return setup


def _layer(rules, k):
    from gamelab.yatzy import distribution
    from gamelab.yatzy.solver import masks_by_popcount

    rows = getattr(distribution, "layer_rows", None) or distribution._layer_rows
    return rows(rules, masks_by_popcount(rules.n_boxes)[k])


def _settled_alike(rules, E, W):
    """E and W with the property of a solver's tables that solve_masks relies on: the states of
    a mask and flag whose upper bonus is settled (scored, or out of reach of the open upper
    boxes) are worth the same (the first one's values)."""
    nf = 2 if rules.has_bonus_flag else 1
    faces = [rules.upper_face(b) for b in range(rules.n_boxes)]
    for mask in range(1 << rules.n_boxes):
        room = sum(5 * face for b, face in enumerate(faces) if face and not (mask >> b) & 1)
        ms = [m for m in range(64) if m == 63 or m + room < 63]
        for f in range(nf):
            rows = [(mask * 64 + m) * nf + f for m in ms]
            E[rows], W[rows] = E[rows[0]], W[rows[0]]
    return E, W


def w_yatzy_solve_layer():
    from gamelab.yatzy.rules import get_rules
    from gamelab.yatzy.solver import masks_by_popcount, upper_reach

    rules = get_rules("yahtzee")
    rng = np.random.default_rng(2)
    E0, W0 = _settled_alike(rules, *_values(rules, rng))
    masks = masks_by_popcount(rules.n_boxes)[10]
    tabs = yatzy_tables(rules)
    solve_layer = yk("solve_layer")

    def run():
        E, W = E0.copy(), W0.copy()
        n = solve_layer(E, W, True, masks, upper_reach(), *tabs)
        return float(n) + float(E.sum()) + float(W.sum()) * 1e-6

    return run


def _rows_of(rules, ms, mm, ff):
    nf = 2 if rules.has_bonus_flag else 1
    row_of = np.full((1 << rules.n_boxes) * 64 * nf, -1, dtype=np.int64)
    row_of[(ms * 64 + mm) * nf + ff] = np.arange(len(ms))
    return row_of


def _scratch_args(kernel, count: int, make: Callable[[], tuple]) -> tuple:
    """The scratch buffers a kernel takes as arguments in this tree (it has `count`
    parameters), or none where it allocates them itself (older trees)."""
    return make() if kernel.py_func.__code__.co_argcount == count else ()


def w_yatzy_forward_layer():
    from gamelab.yatzy.rules import get_rules

    rules = get_rules("yahtzee")
    rng = np.random.default_rng(3)
    E, W = _values(rules, rng)
    ms, mm, ff = _layer(rules, 9)
    ms2, mm2, ff2 = _layer(rules, 10)
    row_of = _rows_of(rules, ms2, mm2, ff2)
    F = rng.random((len(ms), 120))
    tabs = yatzy_tables(rules)
    forward_layer = yk("forward_layer")
    scratch = _scratch_args(forward_layer, 12, lambda: (yk("workspace_arrays")(rules.n_boxes),))
    if forward_layer.py_func.__code__.co_argcount == 13:  # and the vector widget's scratch
        lanes = yk("new_lane_scratch")(rules.n_boxes)
        scratch = (yk("workspace_arrays")(rules.n_boxes), lanes)

    def run():
        F2 = np.zeros((len(ms2), 150))
        overflow = np.zeros(3)
        forward_layer(E, F, len(ms) // 8, row_of, F2, ms, mm, ff, *tabs, overflow, W, *scratch)
        return float(F2.sum()) + float(overflow.sum())

    return run


def w_yatzy_backward_layer():
    from gamelab.yatzy.rules import get_rules

    rules = get_rules("yahtzee")
    rng = np.random.default_rng(4)
    E, _ = _values(rules, rng)
    ms, mm, ff = _layer(rules, 10)
    ms2, mm2, ff2 = _layer(rules, 9)
    row_of = _rows_of(rules, ms, mm, ff)
    D = rng.random((len(ms), 100))
    tabs = yatzy_tables(rules)
    backward_layer = yk("backward_layer")

    def run():
        D2 = np.zeros((len(ms2), 160))
        backward_layer(E, D2, len(ms2) // 8, D, row_of, ms2, mm2, ff2, *tabs)
        return float(D2.sum())

    return run


def w_yatzy_play_games():
    from gamelab.yatzy.rules import get_rules

    rules = get_rules("yahtzee")
    rng = np.random.default_rng(5)
    E, _ = _values(rules, rng)
    u = rng.random((3000, rules.n_boxes, 18))
    tabs = yatzy_tables(rules)
    play_games = yk("play_games")

    def run():
        total = 0
        for strategy in (0, 2):  # optimal (decision tables from E) and random
            scores = np.empty(u.shape[0], dtype=np.int64)
            play_games(E, strategy, u, *tabs, scores)
            total += int(scores.sum())
        return float(total)

    return run


def w_yatzy_duel_games():
    from gamelab.yatzy.rules import get_rules

    rules = get_rules("yahtzee")
    rng = np.random.default_rng(6)
    E, _ = _values(rules, rng)
    tabs = yatzy_tables(rules)
    play_to_round, duel_games = yk("play_to_round"), yk("duel_games")
    takes_scratch = play_to_round.py_func.__code__.co_argcount >= 7  # (8: and the lanes)
    n = 2000
    u0 = rng.random((n, rules.n_boxes, 18))
    ua = rng.random((n, rules.n_boxes, 18))
    ub = rng.random((n, rules.n_boxes, 18))

    def run():
        pos = np.zeros((n, 1, 4), dtype=np.int64)
        # a fresh decision cache each call, as the kernel made one itself before
        scratch = yk("round_scratch")(rules.n_boxes, len(E)) if takes_scratch else ()
        play_to_round(E, u0, np.array([7], dtype=np.int64), *tabs, pos, *scratch)
        diff = np.empty(n // 2, dtype=np.int64)
        duel_games(E, pos[: n // 2, 0], pos[n // 2 :, 0], ua, ub, 20, 2, *tabs, diff)
        return float(pos.sum()) + float(diff.sum())

    return run


def w_yatzy_utility_layer():
    from gamelab.yatzy.rules import get_rules

    rules = get_rules("yahtzee")
    rng = np.random.default_rng(7)
    ms, mm, ff = _layer(rules, 12)
    ms2, mm2, ff2 = _layer(rules, 11)
    row_of = _rows_of(rules, ms, mm, ff)
    L = 20
    Pn = np.sort(rng.random((len(ms), L)), axis=1)[:, ::-1].copy()
    Pn[:, 0] = 1.0
    tabs = yatzy_tables(rules)
    utility_layer = yk("utility_layer")

    def run():
        P = np.zeros((len(ms2), L))
        utility_layer(Pn, row_of, P, ms2, mm2, ff2, *tabs, 4)
        return float(P.sum())

    return run


def w_yatzy_small_calls():
    """The kernels called once per decision from Python: coach, winplay's turn loop."""
    from gamelab.yatzy.rules import get_rules

    rules = get_rules("yahtzee")
    rng = np.random.default_rng(8)
    E, _ = _values(rules, rng)
    states = _yatzy_states(rules, 30, rng)
    tabs = yatzy_tables(rules)
    widget_policy, placement = yk("widget_policy"), yk("placement")
    expectation_turn, decided_turn = yk("expectation_turn"), yk("decided_turn")
    utility_decisions = yk("utility_decisions")
    nf = 2 if rules.has_bonus_flag else 1
    L = 40
    Pn = np.sort(rng.random((64, L)), axis=1)[:, ::-1].copy()
    Pn[:, 0] = 1.0
    row_of = rng.integers(0, 64, (1 << rules.n_boxes) * 64 * nf)
    s = yatzy_scratch(rules)
    u = rng.random((len(states), 18))

    workspace_decisions = yk("workspace_decisions") if NEW_YATZY else None

    def policy(mask, m, f):
        if NEW_YATZY:
            ws = s[0]
            v = widget_policy(E, mask, m, f, *tabs, ws)
            return (v, *workspace_decisions(ws))  # (looked up once: yk() searches modules)
        v = widget_policy(
            E,
            mask,
            m,
            f,
            *tabs,
            s["V"],
            s["VW"],
            s["K"],
            s["KW"],
            s["M"],
            s["A"],
            s["succ_s"],
            s["succ_e"],
            s["succ_w"],
            s["box3"],
            s["keep2"],
            s["keep1"],
            s["K1"],
            s["K2"],
        )
        return v, s["box3"], s["keep2"], s["keep1"]

    def decisions(mask, m, f, t):
        if NEW_YATZY:
            return utility_decisions(Pn, row_of, mask, m, f, t, *tabs, s[0])
        return utility_decisions(
            Pn,
            row_of,
            mask,
            m,
            f,
            t,
            *tabs,
            s["V"],
            s["VW"],
            s["K"],
            s["KW"],
            s["M"],
            s["A"],
            s["box3"],
            s["keep2"],
            s["keep1"],
            s["K1"],
            s["K2"],
        )

    ws_if_new = s if NEW_YATZY else ()
    from gamelab.yatzy.rules import ROLL_YAHTZEE_FACE

    plain_rolls = [r for r in range(0, 252, 7) if ROLL_YAHTZEE_FACE[r] == 0]

    def run():
        total = 0.0
        for i, (mask, m, f) in enumerate(states * 8):
            i = i % len(states)
            v, box3, keep2, keep1 = policy(mask, m, f)
            total += v
            for _ in range(20):
                pts, j = decided_turn(box3, keep2, keep1, u[i], mask, m, f, *tabs)
                total += pts + j
            for b in range(rules.n_boxes):
                if not (mask >> b) & 1:
                    for r in plain_rolls:  # (placement is only defined for a legal box)
                        pts, j = placement(mask, m, f, b, r, *tabs)
                        total += pts + j
            pts, j = expectation_turn(E, mask, m, f, u[i], *tabs, *ws_if_new)
            total += pts + j
            total += decisions(mask, m, f, 17)
        return total

    return run


def _voltorb_deal(level, rng):
    """A board of `level` (hgss) and the deal's setting, in either tree's calling convention
    (a tree before the typed ``VoltorbSetting`` took the generator's name and the level)."""
    from gamelab.voltorb import rules

    if hasattr(rules, "VoltorbSetting"):
        setting = rules.VoltorbSetting(level)
        return rules.generate_board(setting, rng)[0], (setting,)
    return rules.generate_board("hgss", level, rng)[0], ("hgss", level)


def w_voltorb_enumerate():
    from gamelab.voltorb.rules import Clues

    rng = np.random.default_rng(9)
    enumerate_boards = vk("enumerate_boards")
    patterns = vk("ROW_PATTERNS")
    cases = []
    for level in (1, 4, 8):
        for _ in range(8):
            board, _ = _voltorb_deal(level, rng)
            c = Clues.from_board(board)
            cases.append((c.row_sums, c.row_voltorbs, c.col_sums, c.col_voltorbs))
    known = np.full(25, -1, dtype=np.int64)

    def run():
        total = 0
        for rs, rv, cs, cv in cases * 10:
            boards, feats = enumerate_boards(patterns, rs, rv, cs, cv, known)
            total += int(boards.sum()) + int(feats.sum())
        return float(total)

    return run


def _voltorb_posteriors(n, level, seed):
    from gamelab.voltorb.posterior import posterior_for
    from gamelab.voltorb.rules import Clues

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        board, setting = _voltorb_deal(level, rng)
        out.append(posterior_for(Clues.from_board(board), *setting))
    return out


def w_voltorb_bounds():
    posts = _voltorb_posteriors(10, 6, 10)
    flip_bounds, pair_bound, board_bits = vk("flip_bounds"), vk("pair_bound"), vk("board_bits")
    symmetry_classes = vk("symmetry_classes")
    from gamelab.voltorb.expectimax import clue_array

    data = [
        (
            p.boards,
            p.weights,
            (p.boards >= 2).sum(axis=1),
            board_bits(p.boards),
            clue_array(p.boards[0]),
        )
        for p in posts
    ]

    def run():
        total = 0.0
        for boards, w, hm, bits, clue in data:
            for _ in range(12):
                mass, won, bound = flip_bounds(boards, w, hm, np.zeros(25, dtype=np.bool_))
                total += float(bound.sum())
                total += pair_bound(bits, w, np.arange(len(boards)))
            for code in range(0, 3000, 2):
                total += float(symmetry_classes(clue, np.int64(code * 4)).sum())
        return total

    return run


def w_voltorb_win_search():
    posts = _voltorb_posteriors(12, 5, 11)
    from gamelab.voltorb.expectimax import OptimalSolver

    def run():
        return float(sum(OptimalSolver(p, "win").win_probability() for p in posts))

    return run


def w_voltorb_small_win_search():
    # level-1 openings: 2 to 492 boards, each searched by the bit-mask kernels whole (the win
    # search's general=None specialisation); level 5's include larger ones
    posts = _voltorb_posteriors(12, 1, 11)
    from gamelab.voltorb.expectimax import OptimalSolver

    def run():
        return float(sum(OptimalSolver(p, "win").win_probability() for p in posts))

    return run


def w_voltorb_coin_search():
    posts = _voltorb_posteriors(2, 2, 12)
    from gamelab.voltorb.expectimax import OptimalSolver

    def run():
        return float(sum(OptimalSolver(p, "coins").decide(dict(p.revealed))[1] for p in posts))

    return run


def _bits(values) -> float:
    """A checksum of `values` that any change in a last bit alters: (a CRC of their reprs) mod
    10^6, an integer the parent's tolerance cannot blur."""
    import zlib

    return float(zlib.crc32(";".join(map(repr, values)).encode()) % 1_000_000)


def w_voltorb_coin_openings():
    """The coin search on eight openings of levels 5-8 (the deals of seeds with 30,000 to 470,000
    states; about 3 CPU-s) and the position after each one's first card: the values and tiles to
    the last bit (:func:`_bits`)."""
    seeds = ((5, 13), (5, 14), (6, 13), (7, 11), (7, 13), (7, 14), (8, 11), (8, 13))
    cases = [(level, _voltorb_posteriors(1, level, seed)[0]) for level, seed in seeds]
    from gamelab.voltorb.expectimax import OptimalSolver

    def run():
        out = []
        for _level, p in cases:
            solver = OptimalSolver(p, "coins")
            out.extend(solver.decide(dict(p.revealed)))
            board = p.boards[0]
            tile = int(np.flatnonzero(board > 0)[0])
            if not p.observe(tile, int(board[tile])).won_mask().all():
                out.extend(solver.decide({**p.revealed, tile: int(board[tile])}))
        return _bits(out)

    return run


def w_lattice_replica(chain: str, settings: str | None = None, steps: int = 400_000):
    """One replica set of `chain` for `steps` steps per replica (a pure function of the seed):
    the default settings of its lattice, or `settings` (``ReplicaSettings.parse``'s fields, e.g.
    with kicks, end moves, the flat histogram and bond rebridging on)."""

    def setup():
        from gamelab.lattice.instances import get_benchmark
        from gamelab.lattice.replica import ReplicaSettings, replica_fold

        b = get_benchmark(chain)
        s = None if settings is None else ReplicaSettings.parse(settings)

        def run():
            total = 0.0
            for seed in (1, 2):
                r = replica_fold(b.sequence, b.lattice, seed=seed, settings=s, max_steps=steps)
                total += r.contacts + r.restarts + sum(map(ord, r.conformation)) / 1e6
            return total

        return run

    return setup


def w_lattice_moves():
    """Every numbered move (pull moves and rebridging) of random-walk folds, 2D and 3D."""
    apply_move = _kernel("lattice", "apply_move_kernel", ("_move_kernels", "_replica_kernels"))
    from gamelab.lattice.replica import replica_fold

    cases = []
    for ndim, chain in ((2, "HPHPPHHPHPPHPHHPPHPH" * 2), (3, "HPHPPHHPHPPHPHHPPHPH" * 2)):
        fold = replica_fold(chain, "square" if ndim == 2 else "cubic", seed=3, max_steps=20_000)
        pos = np.zeros((len(chain), 3), dtype=np.int64)
        steps = {"R": 0, "U": 1, "L": 2, "D": 3, "F": 4, "B": 5}
        dx, dy, dz = (1, 0, -1, 0, 0, 0), (0, 1, 0, -1, 0, 0), (0, 0, 0, 0, 1, -1)
        for i, m in enumerate(fold.conformation, start=1):
            e = steps[m]
            pos[i] = pos[i - 1] + (dx[e], dy[e], dz[e])
        n, nd = len(chain), 2 * ndim
        slots = 2 * n * (nd - 2) + 2 * nd * (nd - 1) + 2 * (nd - 1) + (n + 2) * nd
        cases.append((pos, ndim, slots))

    def run():
        total = 0.0
        for pos, ndim, slots in cases * 20:
            for slot in range(slots):
                legal, out = apply_move(pos, ndim, slot)
                if legal:
                    total += 1 + int(out.sum()) * 1e-6
        return total

    return run


def w_lattice_landscape():
    """Every sequence of length 16 scored exactly (a landscape): 65,536 histograms in batches of
    8,192 through the library's batch path (each batch on the threads numba would use: one
    here; the same rows whatever kernel scores them)."""
    from gamelab.lattice.enumeration import contact_sets

    sets = contact_sets(16, use_cache=False)
    codes = np.arange(1 << 16, dtype=np.int64)

    def run():
        total = 0
        for start in range(0, codes.size, 8192):
            hists = sets.histograms_for_codes(codes[start : start + 8192])
            total += int((hists * np.arange(1, hists.shape[1] + 1)).sum()) + start
        return float(total)

    return run


def w_voltorb_objective_search():
    """The general objective search (``objective_search``) on openings of levels 4, 6 and 8, for
    two objectives (about 0.6 CPU-s): the sum of values, tiles and states."""
    cases = [(level, _voltorb_posteriors(1, level, 13)[0]) for level in (4, 6, 8)]
    cases.append((6, _voltorb_posteriors(1, 6, 14)[0]))
    from gamelab.voltorb.objectives import Objective, objective_decision

    objectives = [Objective.parse(name) for name in ("survive", "coins>=100")]

    def run():
        total = 0.0
        for level, p in cases:
            for objective in objectives:
                d = objective_decision(p, dict(p.revealed), objective, level)
                total += d.value + d.tile + d.states
        return total

    return run


def w_voltorb_objective_values():
    """The objective search's workload (:func:`w_voltorb_objective_search`), its values and tiles
    to the last bit (:func:`_bits`) and not its states, which a better-pruned search lowers."""
    cases = [(level, _voltorb_posteriors(1, level, 13)[0]) for level in (4, 6, 8)]
    cases.append((6, _voltorb_posteriors(1, 6, 14)[0]))
    from gamelab.voltorb.objectives import Objective, objective_decision

    objectives = [Objective.parse(name) for name in ("survive", "coins>=100")]

    def run():
        out = []
        for level, p in cases:
            for objective in objectives:
                d = objective_decision(p, dict(p.revealed), objective, level)
                out.extend((d.value, d.tile))
        return _bits(out)

    return run


def w_voltorb_vector_env(objective: str):
    """The native vector environment (64 rounds of level 1 side by side) under a random agent
    whose action priorities are drawn once: 300 steps (deals, flips, wins, quits, autoresets)."""

    def setup():
        from gamelab.envs.vector import VoltorbFlipVectorEnv

        env = VoltorbFlipVectorEnv(64, level=1, objective=objective)
        priority = np.random.default_rng(5).random((300, 64, 26))
        priority[:, :, 25] *= 0.3  # quit now and then

        def run():
            env.reset(seed=4)
            total = 0.0
            for k in range(300):
                actions = np.argmax(env.action_masks() * priority[k], axis=1)
                _, rewards, terminated, _, _ = env.step(actions)
                total += float(rewards.sum()) + int(terminated.sum())
            return total

        return run

    return setup


def w_oware_perft():
    from gamelab.oware.perft import perft_count
    from gamelab.oware.rules import Position

    start = Position.initial()

    def run():
        return float(perft_count(start, 9))

    return run


def w_oware_search():
    from gamelab.oware.rules import Position
    from gamelab.oware.search import Engine

    start = Position.initial()
    eng = Engine(tablebase_seeds=-1, tt_bits=18)

    def run():
        eng.clear()
        score, move, nodes, _ = eng.search_depth(start, 12)
        return float(score + move + nodes)

    return run


def w_oware_tablebase():
    from gamelab.oware.tablebase import compute_tablebase

    def run():
        t = compute_tablebase(9)
        return float(t["values"].astype(float).sum() + t["sweeps"].sum())

    return run


def _six_letter_game():
    """A clustered six-letter list (729 patterns: the kernel's guess-by-guess table scan)."""
    from gamelab.wordle.rules import WordList
    from gamelab.wordle.table import Game

    rng = np.random.default_rng(11)
    letters = list("abcdefghijklmnop")
    answers = []
    for _ in range(8):
        base, pos = list(rng.choice(letters, 6)), int(rng.integers(6))
        for ch in rng.choice(letters, 8, replace=False):
            answers.append("".join(base[:pos] + [str(ch)] + base[pos + 1 :]))
    answers = list(dict.fromkeys(answers))
    guesses = list(dict.fromkeys(["".join(rng.choice(letters, 6)) for _ in range(120)] + answers))
    return Game(WordList("six", tuple(guesses), tuple(answers)), "standard")


def _wordle_solver(game, hard: str | None, limit: int | None):
    """The tree's OptimalSolver for a game, a hard mode and a limit: a rules.Setting since
    an earlier run, before that the game and the two options (so both trees run the same call)."""
    import inspect

    from gamelab.wordle.solver.optimal import OptimalSolver

    if "setting" in inspect.signature(OptimalSolver).parameters:
        from gamelab.wordle.rules import Setting

        return OptimalSolver(Setting(game.words, game.rule, hard, limit))
    return OptimalSolver(game, hard=hard, max_guesses=limit)


def w_wordle_search(names: str, hard: str | None, limit: int | None = None):
    """The exact search from the root (a fresh memo each call): sum of totals and nodes."""

    def setup():
        from gamelab.wordle.rules import load_word_list, parse_names
        from gamelab.wordle.table import Game

        game = (
            _six_letter_game()
            if names == "six"
            else Game(load_word_list(parse_names(names)), "standard")
        )

        def run():
            res = _wordle_solver(game, hard, limit).solve()
            return float((res.total or -1) + res.nodes)

        return run

    return setup


def w_wordle_feasible(hard: str | None, limit: int, every: int):
    """The feasibility search (normal mode, or a hard mode's specialisation of the same kernel)
    over gen1-4's first guesses (every `every`-th, a fresh memo each call): the number of
    first guesses that can finish within `limit` guesses, and the kernel's node count."""

    def setup():
        from gamelab.wordle.rules import load_word_list, parse_names
        from gamelab.wordle.solver.feasible import FeasibleSearch, HardFeasibleSearch
        from gamelab.wordle.table import Game

        rule = "blog" if hard is None else "standard"
        game = Game(load_word_list(parse_names("gen1-4")), rule)

        def run():
            search = FeasibleSearch(game) if hard is None else HardFeasibleSearch(game, hard)
            ok = sum(search.opening(g, limit)[0] for g in range(0, game.n_guesses, every))
            return float(ok * 1_000_000 + int(search.stats[0]))

        return run

    return setup


ENGLISH = (
    Path(__file__).resolve().parents[2] / "shared/data/wordle-english"
)  # benchmark data beside the repository, not in it


def w_wordle_english(first: str):
    """English Wordle (12,972 guesses, 2,315 answers, at most 6 guesses): one opening searched
    exactly with a fresh memo, then the two-level bound of every 64th opening."""

    def setup():
        from gamelab.wordle.rules import load_word_list
        from gamelab.wordle.table import Game

        words = load_word_list(
            guesses_file=ENGLISH / "guesses.txt", answers_file=ENGLISH / "answers.txt"
        )
        game = Game(words, "standard")
        g = words.check_guess(first)

        def run():
            solver = _wordle_solver(game, None, 6)
            total = solver.solve_first(g).total or -1
            bounds = sum(solver.opening_bound(h) for h in range(0, game.n_guesses, 64))
            return float(total + solver.nodes + bounds)

        return run

    return setup


WORKLOADS = {
    "yatzy.widget (E)": w_yatzy_widget(False),
    "yatzy.widget (E, W)": w_yatzy_widget(True),
    "yatzy.solve_layer": w_yatzy_solve_layer,
    "yatzy.forward_layer": w_yatzy_forward_layer,
    "yatzy.backward_layer": w_yatzy_backward_layer,
    "yatzy.play_games": w_yatzy_play_games,
    "yatzy.play_to_round+duel_games": w_yatzy_duel_games,
    "yatzy.utility_layer": w_yatzy_utility_layer,
    "yatzy.per-decision calls": w_yatzy_small_calls,
    "voltorb.enumerate_boards": w_voltorb_enumerate,
    "voltorb.bounds+symmetry": w_voltorb_bounds,
    "voltorb.win_search": w_voltorb_win_search,
    "voltorb.win_search (small positions)": w_voltorb_small_win_search,
    "voltorb.coin_search": w_voltorb_coin_search,
    "voltorb.coin_search (5-8, bits)": w_voltorb_coin_openings,
    "voltorb.objective_search": w_voltorb_objective_search,
    "voltorb.objective_search (bits)": w_voltorb_objective_values,
    "voltorb.vector_env (win)": w_voltorb_vector_env("win"),
    "voltorb.vector_env (coins)": w_voltorb_vector_env("coins"),
    "lattice.replica (S1-8)": w_lattice_replica("S1-8"),
    "lattice.replica (H48-1)": w_lattice_replica("H48-1"),
    "lattice.replica (S1-8, kicks, ends, flat, rebridging)": w_lattice_replica(
        "S1-8", "2,0.25,0.4,500,4000,20,0.1,0.05,0.1"
    ),
    "lattice.moves": w_lattice_moves,
    "lattice.landscape (L=16)": w_lattice_landscape,
    "oware.perft": w_oware_perft,
    "oware.search_root": w_oware_search,
    "oware.build_level": w_oware_tablebase,
    "wordle.search (gen1-4)": w_wordle_search("gen1-4", None),
    "wordle.search (gen1-4, game hard)": w_wordle_search("gen1-4", "game"),
    "wordle.search (gen1-4, strict)": w_wordle_search("gen1-4", "strict"),
    "wordle.search (six letters, game hard, 5)": w_wordle_search("six", "game", 5),
    "wordle.search (six letters, strict)": w_wordle_search("six", "strict"),
    "wordle.feasible (gen1-4, 5)": w_wordle_feasible(None, 5, 25),
    "wordle.feasible (gen1-4, game hard, 5)": w_wordle_feasible("game", 5, 7),
    "wordle.feasible (gen1-4, strict, 5)": w_wordle_feasible("strict", 5, 7),
    "wordle.feasible (gen1-4, game hard, 6)": w_wordle_feasible("game", 6, 1),
    **(
        {"wordle.search (English, salet, 6)": w_wordle_english("salet")} if ENGLISH.is_dir() else {}
    ),
}


def worker() -> None:
    """Answer workload names on stdin with {"cpu", "check"} on stdout. The first answer for a
    name includes its set-up and numba compilation (or cache load)."""
    runs = {}
    for line in sys.stdin:
        name = line.strip()
        if not name:
            continue
        t0 = time.process_time()
        if name not in runs:
            runs[name] = WORKLOADS[name]()
        check = runs[name]()
        cpu = time.process_time() - t0
        print(json.dumps({"cpu": cpu, "check": check}), flush=True)


# ------------------------------------------------------------------------------------ parent side


def start(tree: Path, cache: Path, cold: bool) -> subprocess.Popen:
    env = dict(
        os.environ,
        PYTHONPATH=str(tree),
        NUMBA_NUM_THREADS="1",
        GAMELAB_CACHE=str(cache),
        GAMELAB_RESULTS=str(cache / "results.sqlite"),
    )
    if cold:  # an empty numba cache: the first call of each workload compiles
        env["NUMBA_CACHE_DIR"] = str(cache / "numba")
    return subprocess.Popen(
        [sys.executable, __file__, "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def ask(proc: subprocess.Popen, name: str) -> dict:
    proc.stdin.write(name + "\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    if not line:
        raise RuntimeError(f"worker died on {name}")
    return json.loads(line)


def side_by_side(
    ap: argparse.ArgumentParser, workloads: list[str], worker: Callable[[], None]
) -> tuple[argparse.Namespace, list[str]] | None:
    """Parse a side-by-side benchmark's arguments (``--before``, ``--only``, ``--list`` and the
    hidden ``--worker`` among them): the arguments and the workloads ``--only`` names, or None
    when the run is already over (a worker served its parent, or ``--list`` printed the names)."""
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker()
        return None
    prefixes = [p for p in args.only.split(",") if p] or [""]
    names = [n for n in workloads if any(n.startswith(p) for p in prefixes)]
    if args.list:
        print("\n".join(names))
        return None
    if args.before is None:
        ap.error("--before is required (the src folder of the baseline tree)")
    return args, names


def main() -> None:
    here = Path(__file__).resolve().parents[1] / "src"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="src folder of the baseline tree")
    ap.add_argument("--after", type=Path, default=here, help="src folder of the new tree")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument(
        "--only",
        default="",
        help="comma-separated name prefixes of the workloads to run (e.g. voltorb,oware)",
    )
    ap.add_argument("--list", action="store_true")
    ap.add_argument(
        "--cold",
        action="store_true",
        help="empty numba caches: the first-call column is then compile time",
    )
    chosen = side_by_side(ap, list(WORKLOADS), worker)
    if chosen is None:
        return
    args, names = chosen
    with tempfile.TemporaryDirectory() as tmp:
        procs = {}
        for side, tree in (("before", args.before), ("after", args.after)):
            cache = Path(tmp) / side
            cache.mkdir()
            procs[side] = start(tree.resolve(), cache, args.cold)
        times = {n: {"before": [], "after": []} for n in names}
        checks, first = {}, {}
        for rep in range(args.reps + 1):  # rep 0: set-up and compile (or cache load)
            for n in names:
                order = ("before", "after") if rep % 2 else ("after", "before")
                for side in order:
                    ans = ask(procs[side], n)
                    if rep == 0:
                        checks.setdefault(n, {})[side] = ans["check"]
                        first.setdefault(n, {})[side] = ans["cpu"]
                        continue
                    times[n][side].append(ans["cpu"])
        for p in procs.values():
            p.stdin.close()
            p.wait()
    print(
        f"CPU seconds per call, median of {args.reps} alternating repetitions "
        f"(NUMBA_NUM_THREADS=1); before = {args.before}, after = {args.after}"
    )
    print(
        f"first call = set-up + {'compilation (empty numba cache)' if args.cold else 'cache load'}"
        " + one call, CPU seconds"
    )
    print(
        f"{'workload':34s} {'before s':>9s} {'after s':>9s} {'ratio':>7s} {'worst':>7s}  same"
        f"  {'first before':>12s} {'first after':>11s}"
    )
    for n in names:
        b, a = times[n]["before"], times[n]["after"]
        ratios = [x / y for x, y in zip(a, b, strict=True)]
        cb, ca = checks[n]["before"], checks[n]["after"]
        same = abs(cb - ca) <= 1e-9 * max(1.0, abs(cb))
        print(
            f"{n:34s} {statistics.median(b):9.4f} {statistics.median(a):9.4f} "
            f"{statistics.median(ratios):7.3f} {max(ratios):7.3f}  {'yes' if same else 'NO ':3s}"
            f"  {first[n]['before']:12.2f} {first[n]['after']:11.2f}"
        )


if __name__ == "__main__":
    main()
