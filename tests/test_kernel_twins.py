"""The kernel registry (gamelab.kernel_twins): every numba kernel has a plain-Python twin named by
the convention and a test comparing them, or is a helper called from other kernels; and the
comparisons for the pairs that had no test of their own."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from numba.core.dispatcher import Dispatcher

from gamelab.core.state import registered_games
from gamelab.kernel_twins import HELPERS, TWINS
from gamelab.warmup import game_kernels

ROOT = Path(__file__).resolve().parents[1]
#: every registered game with numba kernels (a game without kernels has nothing to pair)
GAMES = [info.name for info in registered_games() if info.kernels]


@cache
def _kernels(game: str) -> dict:
    return game_kernels(game)


def _resolve(path: str) -> object:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("game", GAMES)
def test_every_kernel_is_registered_once(game):
    found = set(_kernels(game))
    twins, helpers = set(TWINS[game]), set(HELPERS[game])
    assert not twins & helpers, f"{game}: both a twin and a helper: {sorted(twins & helpers)}"
    assert not found - twins - helpers, (
        f"{game}: kernels without a twin or a helper entry in gamelab/kernel_twins.py: "
        f"{sorted(found - twins - helpers)}"
    )
    assert not (twins | helpers) - found, (
        f"{game}: stale entries: {sorted((twins | helpers) - found)}"
    )


@pytest.mark.parametrize("game", GAMES)
def test_twins_are_plain_python_and_named_by_the_convention(game):
    kernels = _kernels(game)
    for name, entry in TWINS[game].items():
        twin = _resolve(entry.twin)
        assert callable(twin) and not isinstance(twin, Dispatcher), (
            f"{entry.twin} is not plain Python"
        )
        module, _, fn = name.rpartition(".")  # module: "_kernels" or "solver._search_kernels"
        twin_module, _, twin_name = entry.twin.rpartition(".")
        stem = (entry.variant_of.rpartition(".")[2] if entry.variant_of else fn).removesuffix(
            "_kernel"
        )
        if twin_module == f"gamelab.{game}.{module}":
            assert twin_name == f"{stem}_python", (
                f"{game}.{name}: a twin beside its kernel is named {stem}_python, not {twin_name}"
            )
        else:  # readable code elsewhere: the kernel's docstring or its module's names it
            kernel = kernels[name]
            docs = (kernel.py_func.__doc__ or "") + (
                inspect.getmodule(kernel.py_func).__doc__ or ""
            )
            if entry.variant_of in kernels:
                docs += kernels[entry.variant_of].py_func.__doc__ or ""
            assert twin_name in docs or twin_module in docs, (
                f"{game}.{name}: neither its docstring nor its module's names the twin {entry.twin}"
            )
        if entry.variant_of and entry.variant_of in TWINS[game]:
            assert TWINS[game][entry.variant_of].twin == entry.twin, name


@cache
def _test_functions(path: str) -> dict[str, str]:
    text = (ROOT / path).read_text(encoding="utf-8")
    return {
        node.name: ast.get_source_segment(text, node) or ""
        for node in ast.parse(text).body
        if isinstance(node, ast.FunctionDef)
    }


@pytest.mark.parametrize("game", GAMES)
def test_each_pair_names_a_test_that_calls_the_kernel_or_the_twin(game):
    for name, entry in TWINS[game].items():
        path, _, test = entry.test.partition("::")
        functions = _test_functions(path)
        assert test in functions, f"{game}.{name}: no {test} in {path}"
        body = functions[test]
        words = {name.rpartition(".")[2], entry.twin.rpartition(".")[2]}
        assert any(re.search(rf"\b{w}\b", body) for w in words) or entry.variant_of, (
            f"{game}.{name}: {entry.test} calls neither the kernel nor {entry.twin}"
        )


@pytest.mark.parametrize("game", GAMES)
def test_helpers_are_called_from_other_kernels(game):
    kernels = _kernels(game)
    sources = {n: inspect.getsource(d.py_func) for n, d in kernels.items()}
    for name, reason in HELPERS[game].items():
        assert reason.strip(), f"{game}.{name}: say why it has no twin"
        fn = name.rpartition(".")[2]
        callers = [n for n, s in sources.items() if n != name and re.search(rf"\b{fn}\(", s)]
        assert callers, f"{game}.{name} is listed as a helper but no kernel calls it"


@pytest.mark.parametrize("game", GAMES)
def test_only_helpers_are_compiled_without_a_python_entry(game):
    # a kernel without numba's Python wrapper crashes the interpreter when Python calls it, so
    # only a kernel that other kernels alone call (a HELPERS entry) may leave it out
    for name, kernel in _kernels(game).items():
        if kernel.targetoptions.get("no_cpython_wrapper"):
            assert name in HELPERS[game], f"{game}.{name} has no Python entry but is no helper"


# ------------------------------------------------------------- pairs compared here


def test_wordle_memo_kernels_match_twins():
    from gamelab.wordle.solver import _memo_kernels as M

    rng = np.random.default_rng(5)
    hi = np.iinfo(np.uint64).max
    for _ in range(50):
        h1, h2, p1, p2 = (rng.integers(0, hi, dtype=np.uint64, endpoint=True) for _ in range(4))
        depth = int(rng.choice([0, 3, M.UNLIMITED]))
        fast = M.memo_key(h1, h2, p1, p2, depth)
        assert tuple(int(x) for x in fast) == M.memo_key_python(
            int(h1), int(h2), int(p1), int(p2), depth
        )
    cap = 16
    tables = [
        np.zeros(cap, np.uint64),
        np.zeros(cap, np.uint64),
        np.zeros(cap, np.uint8),
        np.zeros(cap, np.int64),
        np.full(cap, -1, np.int32),
    ]
    keys = [
        (int(a), int(b)) for a, b in rng.integers(0, hi, (11, 2), dtype=np.uint64, endpoint=True)
    ]
    for value, (k1, k2) in enumerate(keys):
        slot = M.memo_find(*tables[:3], np.uint64(k1), np.uint64(k2))
        assert slot == M.memo_find_python(*tables[:3], k1, k2)
        M.memo_record(*tables, slot, np.uint64(k1), np.uint64(k2), value % 2 == 0, value, value)
    grown = [[np.zeros(2 * cap, t.dtype) for t in tables] for _ in range(2)]
    for g in grown:
        g[4][:] = -1
    M.memo_rehash(*tables, *grown[0])
    M.memo_rehash_python(*tables, *grown[1])
    for a, b in zip(*grown, strict=True):
        assert a.tolist() == b.tolist()
    for value, (k1, k2) in enumerate(keys):  # every entry is found again in the new table
        slot = M.memo_find(*grown[0][:3], np.uint64(k1), np.uint64(k2))
        assert grown[0][3][slot] == value


def test_lattice_histograms_kernels_match_twin():
    from gamelab.lattice import _kernels as K
    from gamelab.lattice.enumeration import contact_sets

    sets = contact_sets(12)
    pi, pj, _ = K.pair_table(12)
    codes = np.random.default_rng(8).integers(0, 2**12, size=6).astype(np.int64)
    rows = K.hh_rows_from_codes(codes, pi, pj, sets.words)
    want = K.histograms_python(sets.keys, sets.counts, rows, sets.max_contacts + 1)
    got = K.histograms_kernel(sets.keys, sets.counts, rows, sets.max_contacts + 1)
    assert got.tolist() == want.tolist()


def test_oware_small_kernels_match_twins():
    from gamelab.oware import _search_kernels as S
    from gamelab.oware import _tablebase_kernels as T
    from gamelab.oware import evaluation

    binom = T.binomial_table()
    assert binom.tolist() == T.binomial_table_python().tolist()
    assert T.level_offsets(10, binom).tolist() == T.level_offsets_python(10, binom).tolist()
    rng = np.random.default_rng(3)
    zob = rng.integers(0, 2**62, size=(14, 49), dtype=np.int64)
    for _ in range(20):
        b = rng.integers(0, 10, size=14)
        side = int(rng.integers(2))
        assert int(S.zobrist_key(b, side, zob)) == S.zobrist_key_python(b, side, zob)
    for kind in (S.EVAL_BLOG, S.EVAL_AUALE):
        for diff in (-7, 0, 3):
            for ply in (0, 5):
                assert S.final_score_kernel(diff, ply, kind) == evaluation.final_score(
                    diff, ply, kind
                )


def test_yatzy_layer_kernels_match_twins():
    """solve_layer, utility_layer and utility_rows: a whole layer of widgets against the
    widgets' twins."""
    from gamelab.yatzy._utility_kernels import (
        utility_layer,
        utility_rows,
        utility_widget_python,
        utility_workspace_arrays,
    )
    from gamelab.yatzy._widget_kernels import solve_layer, widget_python
    from gamelab.yatzy.rules import get_rules
    from gamelab.yatzy.solver import masks_by_popcount, state_index, upper_reach

    rules = get_rules("yahtzee-no-bonus")
    bundle = rules.kernel_rules()
    rng = np.random.default_rng(4)
    E = rng.uniform(0, 100, rules.n_states)
    W = E**2 + rng.uniform(0, 50, rules.n_states)
    # random successor values, but as in a solver's tables, the states of a mask whose upper
    # bonus is settled (scored, or out of reach: 63 - m more than the open upper boxes can
    # make) are worth the same: solve_masks solves one of them and copies it
    upper = [b for b in range(rules.n_boxes) if rules.upper_face(b)]
    for mask in range(1 << rules.n_boxes):
        room = sum(5 * rules.upper_face(b) for b in upper if not (mask >> b) & 1)
        rows = [state_index(rules, mask, m, 0) for m in range(64) if m == 63 or m + room < 63]
        E[rows], W[rows] = E[rows[0]], W[rows[0]]
    before_e, before_w = E.copy(), W.copy()
    masks = masks_by_popcount(rules.n_boxes)[rules.n_boxes - 2]
    E1, W1 = E.copy(), W.copy()
    count = solve_layer(E, W, True, masks, upper_reach(), bundle, threads=3)
    # the layer's chunks side by side give the tables of one thread, bit for bit
    assert solve_layer(E1, W1, True, masks, upper_reach(), bundle, threads=1) == count > 0
    assert np.array_equal(E, E1) and np.array_equal(W, W1)
    # the ones and twos open, the ones and the chance (the bonus settled below 58), the last
    # two lower boxes (every upper total settled: all but the first are copies)
    full = (1 << rules.n_boxes) - 1
    chance = rules.boxes.index("chance")
    for mask in (full ^ 0b11, full ^ 1 ^ (1 << chance), int(masks[0])):
        u = sum(1 << (rules.upper_face(b) - 1) for b in upper if (mask >> b) & 1)
        for m in (0, 5, 40, 57, 58, 63):
            if upper_reach()[u, m]:
                i = state_index(rules, mask, m, 0)
                assert (E[i], W[i]) == pytest.approx(
                    widget_python(before_e, before_w, mask, m, 0, rules), rel=1e-12
                )
    L = 6
    Pn = np.sort(rng.random((30, L)), axis=1)[:, ::-1].copy()
    Pn[:, 0] = 1.0
    row_of = rng.integers(0, 30, rules.n_states)
    ms = masks[:3].astype(np.int64)
    mm = np.array([0, 10, 63], dtype=np.int64)
    ff = np.zeros(3, dtype=np.int64)
    P = np.zeros((3, L))
    utility_layer(Pn, row_of, P, ms, mm, ff, bundle, 2)
    for row in range(3):
        want = utility_widget_python(Pn, row_of, int(ms[row]), int(mm[row]), 0, rules)
        assert np.allclose(P[row], want, atol=1e-13)
    # the serial rows of one thread (the win-play study's games): the same layer, bit for bit
    P1 = np.zeros((3, L))
    utility_rows(Pn, row_of, P1, ms, mm, ff, bundle, utility_workspace_arrays(L))
    assert np.array_equal(P1, P)


def test_yatzy_roll_dice_matches_twin():
    from gamelab.yatzy._turn_kernels import roll_dice, roll_dice_python
    from gamelab.yatzy.rules import KEEPS, N_KEEPS, roll_index

    rng = np.random.default_rng(12)
    for keep in range(N_KEEPS):
        u = rng.random(8)
        assert roll_dice(keep, u, 3) == roll_index(roll_dice_python(KEEPS[keep], u[3:]))
