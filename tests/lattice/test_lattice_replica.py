"""Pull moves and replica exchange: completeness, reversibility, detailed balance, twins, the
standard benchmarks and their bounds."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from collections import Counter
from functools import cache

import numpy as np
import pytest
from test_lattice_generate import run_cli

from gamelab.core.parallel import Backend
from gamelab.lattice._move_kernels import apply_move_kernel, move_slots, rebridge_slots
from gamelab.lattice._replica_kernels import remc_kernel
from gamelab.lattice._replica_twins import apply_move_python, remc_python
from gamelab.lattice.bounds import contact_bounds, core_bound, max_core_edges
from gamelab.lattice.enumeration import contact_sets, enumerate_timed
from gamelab.lattice.fold import fold, resolve_chain
from gamelab.lattice.instances import STANDARD, get_benchmark, parse_chain
from gamelab.lattice.replica import (
    ReplicaSettings,
    conformation_of,
    new_state,
    remc_rounds,
    replica_fold,
)
from gamelab.lattice.rules import MOVES, Lattice, coordinates, hh_score


def _all_walks(n: int, lattice: str) -> list[str]:
    """Every self-avoiding walk of n residues as a move string (no symmetry reduction)."""
    out = []
    for moves in itertools.product(MOVES[lattice], repeat=n - 1):
        conf = "".join(moves)
        sites = coordinates(conf, lattice)
        if len(set(sites)) == n:
            out.append(conf)
    return out


@cache
def _move_graph(n: int, lattice: str) -> tuple[list[str], dict[str, Counter]]:
    """For every walk, how many move slots lead to each other walk (up to translation)."""
    ndim = 2 if lattice == "square" else 3
    walks = _all_walks(n, lattice)
    sites = {w: np.array(coordinates(w, lattice), dtype=np.int64) for w in walks}
    by_shape = {(p - p[0]).tobytes(): w for w, p in sites.items()}
    graph = {}
    for conf in walks:
        out: Counter = Counter()
        for slot in range(move_slots(n, ndim)):
            legal, new = apply_move_kernel(sites[conf], ndim, slot)
            if legal:
                out[by_shape[(new - new[0]).tobytes()]] += 1
        graph[conf] = out
    return walks, graph


@pytest.mark.parametrize(
    ("n", "lattice", "walks"),
    [
        (6, "square", 284),
        (4, "cubic", 150),
        # the larger chains prove the same on more folds (about 5 s): run with -m slow
        pytest.param(7, "square", 780, marks=pytest.mark.slow),
        pytest.param(5, "cubic", 726, marks=pytest.mark.slow),
    ],
)
def test_pull_moves_are_complete_and_reversible(n, lattice, walks):
    # walk counts: OEIS A001411 (square: 284 walks of 5 steps, 780 of 6), A001412 (cubic: 150 of
    # 3 steps, 726 of 4)
    all_walks, graph = _move_graph(n, lattice)
    assert len(all_walks) == walks
    for x, out in graph.items():
        for y, count in out.items():  # (y == x: a pull that only translates the chain)
            assert y in graph  # moves keep the chain self-avoiding
            assert graph[y][x] == count  # each move's inverse is a move, as many ways
    # complete: every fold reaches every other (breadth-first from the straight chain)
    seen = {all_walks[0]}
    frontier = [all_walks[0]]
    while frontier:
        frontier = [y for x in frontier for y in graph[x] if y not in seen and not seen.add(y)]
    assert len(seen) == walks
    # and up to symmetry that is exactly what the enumerator walks
    if lattice == "square":
        assert enumerate_timed(n, lattice).conformations == (walks + 4) // 8  # A046171


def _rebridge_graph(n: int, lattice: str) -> tuple[dict[str, Counter], Counter]:
    """For every walk, how many bond-rebridging slots lead to each other walk (up to
    translation), and how many legal moves of each kind (inner, at the last, at the first
    residue) there are in all."""
    ndim = 2 if lattice == "square" else 3
    first, inner = move_slots(n, ndim), n * 2 * ndim
    graph, kinds = {}, Counter()
    for conf in _all_walks(n, lattice):
        pos = np.array(coordinates(conf, lattice), dtype=np.int64)
        out: Counter = Counter()
        for t in range(rebridge_slots(n, ndim)):
            legal, new = apply_move_kernel(pos, ndim, first + t)
            twin = apply_move_python(pos, ndim, first + t)
            assert twin[0] == legal and np.array_equal(twin[1], new)  # kernel == twin
            if legal:  # the same sites, in another order
                assert sorted(map(tuple, new.tolist())) == sorted(map(tuple, pos.tolist()))
                out[conformation_of(new, ndim)] += 1
                kinds["inner" if t < inner else "last" if t < inner + 2 * ndim else "first"] += 1
        graph[conf] = out
    return graph, kinds


@pytest.mark.parametrize(("n", "lattice"), [(6, "square"), (5, "cubic")])
def test_rebridging_moves_are_reversible_and_keep_the_sites(n, lattice):
    graph, kinds = _rebridge_graph(n, lattice)
    for x, out in graph.items():
        for y, count in out.items():
            assert y != x and y in graph  # a real change, still a self-avoiding walk
            assert graph[y][x] == count  # the inverse is one rebridging move, as many ways
    # stretches reversed at the last or the first residue (as often: the walks are closed under
    # reversal); an inner stretch needs a longer chain (a loop of at least 5 residues between
    # the two parallel bonds; below)
    assert kinds["last"] == kinds["first"] > 0 and kinds["inner"] == 0


def test_an_inner_rebridging_move_in_2d():
    # the 9-residue spiral RRUULLDR: residue 7 at (0, 1) is next to residue 0, and residue 1 at
    # (1, 0) next to residue 8 at (1, 1), so the bonds (0, 1), (7, 8) become (0, 7), (1, 8):
    # residues 1 ... 7 run the other way round, which is the spiral UURRDDLU, and back
    slot = move_slots(9, 2) + 0 * 4 + 1  # (i = 0, e = up)
    pos = np.array(coordinates("RRUULLDR"), dtype=np.int64)
    legal, new = apply_move_kernel(pos, 2, slot)
    assert legal and conformation_of(new, 2) == "UURRDDLU"
    assert (
        apply_move_python(pos, 2, slot)[0]
        and conformation_of(apply_move_python(pos, 2, slot)[1], 2) == "UURRDDLU"
    )
    back = move_slots(9, 2) + 0 * 4 + 0  # (i = 0, e = right: residue 7 is now at (1, 0))
    legal, again = apply_move_kernel(new, 2, back)
    assert legal and np.array_equal(again, pos)


def test_detailed_balance_on_an_enumerable_chain():
    """The exact transition matrix of one replica (uniform slots, Metropolis) satisfies detailed
    balance for the Boltzmann distribution, and the kernel's samples follow it."""
    seq, n, temp = "HPHHPH", 6, 0.6  # contacts 0-3, 0-5, 2-5 possible
    walks, graph = _move_graph(n, "square")
    slots = move_slots(n, 2)
    score = {w: hh_score(seq, w) for w in walks}
    weight = {w: math.exp(score[w] / temp) for w in walks}
    for x, out in graph.items():
        for y, count in out.items():
            p_xy = count / slots * min(1.0, math.exp((score[y] - score[x]) / temp))
            p_yx = graph[y][x] / slots * min(1.0, math.exp((score[x] - score[y]) / temp))
            assert weight[x] * p_xy == pytest.approx(weight[y] * p_yx, rel=1e-12)
    z = sum(weight.values())
    exact = Counter()
    for w in walks:
        exact[score[w]] += weight[w] / z
    # sample: one replica, many short rounds
    is_h = np.array([c == "H" for c in seq])
    pos, grid = new_state(n, 2, 1)
    contacts, rep_at = np.zeros(1, np.int64), np.zeros(1, np.int64)
    rng, best, best_pos = np.array([7], np.uint64), np.zeros(1, np.int64), pos[0].copy()
    rounds = 20_000
    for rebridge in (0.0, 0.3):  # pull moves only, and with 30 % bond-rebridging moves
        seen: Counter = Counter()
        for k in range(rounds):
            remc_kernel(
                (is_h, 2, np.array([temp]), pos, grid, contacts, rep_at, rng), 1, 20, 99, best_pos,
                best, np.zeros(5, np.int64), (0.0, np.zeros((1, n + 1)), 0.0, rebridge, 0.0, 2, 1.0),
            )  # fmt: skip
            seen[int(contacts[0])] += 1
            if k % 1000 == 0:
                assert hh_score(seq, conformation_of(pos[0], 2)) == contacts[0]
        for s, p in exact.items():
            assert seen[s] / rounds == pytest.approx(p, abs=0.02)


@pytest.mark.parametrize(("ndim", "length"), [(2, 12), (2, 25), (3, 10), (3, 16)])
def test_remc_kernel_matches_python_twin(ndim, length):
    rng = np.random.default_rng(length + ndim)
    # without restarts, restarting straight after 2 idle rounds, from the best kicked 30 steps,
    # with 30 % of the steps at the chain's ends, with the flat-histogram penalty, with 30 %
    # bond-rebridging moves, and with fragment regrowth (alone, and with everything else)
    for seed, patience, kick, end_share, flat, rebridge, regrow, longest, grow_bias in [
        (0, 0, 0, 0.0, 0.0, 0.0, 0.0, 2, 1.0), (1, 2, 0, 0.0, 0.0, 0.0, 0.0, 2, 1.0),
        (2, 2, 30, 0.0, 0.0, 0.0, 0.0, 2, 1.0), (3, 0, 0, 0.3, 0.0, 0.0, 0.0, 2, 1.0),
        (4, 0, 0, 0.0, 0.01, 0.0, 0.0, 2, 1.0), (5, 2, 30, 0.0, 0.003, 0.0, 0.0, 2, 1.0),
        (6, 0, 0, 0.0, 0.0, 0.3, 0.0, 2, 1.0), (7, 2, 30, 0.2, 0.003, 0.3, 0.0, 2, 1.0),
        (8, 0, 0, 0.0, 0.0, 0.0, 0.3, 8, 1.0), (9, 2, 30, 0.2, 0.003, 0.3, 0.2, 5, 2.0),
        (10, 0, 0, 0.0, 0.0, 0.0, 0.5, 40, 0.0), (11, 0, 0, 0.0, 0.0, 0.0, 0.3, 10, 2.0),
    ]:  # fmt: skip
        is_h = rng.random(length) < 0.5
        temps = np.array([0.3, 0.5, 0.9])
        runs = []
        for fn in (remc_rounds, remc_python):  # (remc_kernel with kick_kernel's kicks)
            pos, grid = new_state(length, ndim, 3)
            contacts, rep_at = np.zeros(3, np.int64), np.arange(3, dtype=np.int64)
            state = np.array([seed * 1000 + 17], np.uint64)
            best, best_pos = np.zeros(1, np.int64), pos[0].copy()
            restart = np.array([patience, 0, 0, 0, kick], np.int64)
            bias = np.zeros((3, length + 1))
            done = fn(
                (is_h, ndim, temps, pos, grid, contacts, rep_at, state), 15, 60, 999, best_pos, best,
                restart, (end_share, bias, flat, rebridge, regrow, longest, grow_bias),
            )  # fmt: skip
            runs.append((done, pos.tolist(), contacts.tolist(), rep_at.tolist(), int(state[0]),
                         int(best[0]), best_pos.tolist(), restart.tolist(), bias.tolist()))  # fmt: skip
        assert runs[0] == runs[1]
        # the penalty grows by `flat` a step, at the contact count each step ends on
        assert sum(map(sum, runs[0][8])) == pytest.approx(flat * 15 * 60 * 3)
        assert (runs[0][7][3] > 0) == (patience > 0)  # restarts happened exactly when asked
        assert runs[0][5] == hh_score(
            "".join("H" if h else "P" for h in is_h), conformation_of(np.array(runs[0][6]), ndim),
            "square" if ndim == 2 else "cubic",
        )  # fmt: skip


@pytest.mark.parametrize(("ndim", "n"), [(2, 9), (3, 7)])
def test_apply_move_kernel_matches_python_twin(ndim, n):
    lattice = "square" if ndim == 2 else "cubic"
    walks = _all_walks(n, lattice)
    rng = np.random.default_rng(n)
    for conf in rng.choice(walks, size=40, replace=False):
        pos = np.array(coordinates(conf, lattice), dtype=np.int64)
        for slot in range(move_slots(n, ndim)):
            a, b = apply_move_kernel(pos, ndim, slot), apply_move_python(pos, ndim, slot)
            assert a[0] == b[0] and a[1].tolist() == b[1].tolist()


def test_benchmark_sequences_as_published():
    # Thachuk, Shmygelska & Hoos 2007, Table 1 (2D S1-1..S1-11: lengths and best known energies)
    # and Yue et al., PNAS 92:325 (1995) (3D: ten 48-mers of 24 H each; best known energies)
    two_d = [b for b in STANDARD if b.lattice == "square"]
    three_d = [b for b in STANDARD if b.lattice == "cubic"]
    assert [b.name for b in two_d] == [f"S1-{k}" for k in range(1, 12)]
    assert [len(b.sequence) for b in two_d] == [20, 24, 25, 36, 48, 50, 60, 64, 85, 100, 100]
    assert [b.best_known for b in two_d] == [9, 9, 8, 14, 23, 21, 36, 42, 53, 48, 50]
    assert [b.sequence.count("H") for b in two_d] == [10, 10, 9, 16, 25, 24, 43, 42, 59, 55, 56]
    assert [b.name for b in three_d] == [f"H48-{k}" for k in range(1, 11)]
    assert all(len(b.sequence) == 48 and b.sequence.count("H") == 24 for b in three_d)
    assert [b.best_known for b in three_d] == [32, 34, 34, 33, 32, 32, 32, 31, 34, 33]
    # the earlier length names are aliases of the same chains
    assert get_benchmark("S1-36") is get_benchmark("s1-4")
    assert get_benchmark("S1-100a").name == "S1-10"
    assert parse_chain("s1-36") is get_benchmark("S1-4").sequence  # the alias, resolved once
    with pytest.raises(ValueError, match=r"unknown benchmark 'S1-99'; known: S1-1, S1-2"):
        get_benchmark("S1-99")
    with pytest.raises(ValueError, match="cubic lattice, not square"):
        resolve_chain(parse_chain("H48-1"), Lattice.SQUARE)


def test_bounds_hold_and_certify():
    rng = np.random.default_rng(3)
    sets = contact_sets(14)
    for _ in range(60):
        seq = "".join(rng.choice(["H", "P"], size=14))
        best = len(sets.histogram(seq)) - 1
        b = contact_bounds(seq)
        assert b.upper >= best and b.matching <= b.free_face
    cubic = contact_sets(10, "cubic")
    for _ in range(40):
        seq = "".join(rng.choice(["H", "P"], size=10))
        assert contact_bounds(seq, "cubic").upper >= len(cubic.histogram(seq)) - 1
    # Harary & Harborth: a 4x4 square of 16 sites has 24 edges; 3D: a 2x2x2 cube has 12
    assert max_core_edges(16, 2) == 24 and max_core_edges(8, 3) == 12
    assert max_core_edges(27, 3) == 54  # the 3x3x3 cube
    for b in STANDARD:
        assert contact_bounds(b.sequence, b.lattice).upper >= b.best_known
    proven = [
        b.name for b in STANDARD if contact_bounds(b.sequence, b.lattice).upper == b.best_known
    ]
    assert proven == ["S1-3", "S1-4", "S1-5", "S1-9", "H48-2", "H48-10"]
    assert core_bound(get_benchmark("S1-9").sequence) == 53


@pytest.mark.parametrize("name", ["S1-2", "S1-3", "S1-4"])
def test_short_benchmarks_reach_their_optima(name):
    # best known 9 (S1-2, 24-mer), 8 (S1-3, 25-mer), 14 (S1-4, 36-mer): Thachuk et al. 2007
    b = get_benchmark(name)
    r = fold(parse_chain(name), seed=0, seconds=None, max_steps=4_000_000)
    assert r.score == b.best_known == r.known_optimum and r.name == name
    assert hh_score(b.sequence, r.conformation) == r.score
    assert r.method == "remc" and r.steps <= 4_000_000


def test_replica_sets_are_a_function_of_the_seed():
    """The cheap default twin of the slow test below: with a step budget, several replica sets
    (each seeded from (seed, its index)) give the same fold on every call, and they differ."""
    kw = {"seed": 5, "seconds": None, "max_steps": 5_000, "sets": 3, "target": 99}
    one = fold(parse_chain("S1-4"), backend=Backend(workers=1, quiet=True), **kw)
    again = fold(parse_chain("S1-4"), backend=Backend(workers=1, quiet=True), **kw)
    assert (one.score, one.conformation, one.steps) == (
        again.score,
        again.conformation,
        again.steps,
    )
    assert one.steps == 3 * 5_000 and one.sets == 3
    other = fold(parse_chain("S1-4"), backend=Backend(workers=1, quiet=True), **{**kw, "seed": 6})
    assert other.conformation != one.conformation


@pytest.mark.slow  # starts worker processes (7 s on 2 busy cores)
def test_replica_sets_identical_on_one_and_two_workers():
    kw = {"seed": 5, "seconds": None, "max_steps": 20_000, "sets": 3, "target": 99}
    one = fold(parse_chain("S1-4"), backend=Backend(workers=1, quiet=True), **kw)
    two = fold(parse_chain("S1-4"), backend=Backend(workers=2, quiet=True), **kw)
    assert (one.score, one.conformation, one.steps) == (two.score, two.conformation, two.steps)
    assert one.steps == 3 * 20_000 and one.sets == 3


def test_cli_fold_by_name_says_proven_or_gap(capsys):
    code, out, _ = run_cli(["lattice", "fold", "S1-36", "--steps", "3000000"], capsys)
    conformation = out.splitlines()[-1]
    assert hh_score(get_benchmark("S1-4").sequence, conformation) == 14  # printed whole
    out = " ".join(out.split())
    assert code == 0 and "S1-4 " in out and "14 HH contacts (best known 14)" in out
    assert "optimal (proven by bound)" in out and "core 14" in out
    code, out, _ = run_cli(["lattice", "fold", "S1-2", "--steps", "20000", "--json"], capsys)
    doc = json.loads(out)
    assert doc["name"] == "S1-2" and doc["upper_bound"] == 11
    assert doc["verdict"] == f"gap {11 - doc['score']}" and doc["bounds"]["core"] == 11
    code, _, err = run_cli(["lattice", "fold", "S1-99"], capsys)
    assert code == 2 and err.startswith("error: unknown benchmark 'S1-99'; known: S1-1,")
    code, _, err = run_cli(["lattice", "fold", "HPPH", "--dim", "3", "--lattice", "square"], capsys)
    assert code == 2 and "contradicts" in err


def test_settings_parse_and_the_cli_takes_them(capsys):
    s = ReplicaSettings.parse("3, 0.2,0.5,100,0,0,0,1e-6")
    assert s == ReplicaSettings(replicas=3, t_min=0.2, t_max=0.5, phi=100, flat=1e-6)
    assert ReplicaSettings.parse("2,0.25,0.4,500,0") == ReplicaSettings()
    assert ReplicaSettings.parse("2,0.25,0.4,500,0,0,0,0,0.1").rebridge == 0.1
    s = ReplicaSettings.parse("2,0.25,0.4,500,0,0,0,0,0,0,0.02,12,2")
    assert (s.regrow, s.regrow_max, s.regrow_bias) == (0.02, 12, 2.0)
    for bad, says in [("2,0.25", "5 to 13"), ("2,0.5,0.4,500,0", "t_min <= t_max"),
                      ("2,0.25,0.4,500,0,0,0,-1", "flat must be"), ("x,0.25,0.4,500,0", "int"),
                      ("2,0.25,0.4,500,0,0,0,0,0,0,1.5", "regrow must be"),
                      ("2,0.25,0.4,500,0,0,0,0,0,0,0.1,1", "regrow_max must be")]:  # fmt: skip
        with pytest.raises(ValueError, match=says):
            ReplicaSettings.parse(bad)
    argv = ["lattice", "fold", "S1-2", "--steps", "2000", "--json", "--no-certify"]
    code, out, _ = run_cli([*argv, "--settings", "3,0.3,0.6,300,0,0,0,0.001"], capsys)
    doc = json.loads(out)
    # phi 300: whole rounds of 300 steps, so 2000 steps per replica become 2100
    assert code == 0 and doc["steps"] == 2100
    assert hh_score(doc["sequence"], doc["conformation"]) == doc["score"]
    code, _, err = run_cli([*argv, "--settings", "2,0.25"], capsys)
    assert code == 2 and err.startswith("error: --settings R,T_MIN,T_MAX,PHI,PATIENCE")


def test_restarts_are_part_of_the_seeded_run():
    # after `patience` steps per replica without a new best since the last start, every replica
    # starts again from the straight chain; a step-limited run stays a pure function of its seed
    s = ReplicaSettings(replicas=2, t_min=0.25, t_max=0.4, phi=50, patience=500)
    seq = get_benchmark("S1-4").sequence
    runs = [replica_fold(seq, seed=3, settings=s, max_steps=100_000) for _ in range(2)]
    assert runs[0].restarts > 0
    assert [(r.contacts, r.conformation, r.restarts) for r in runs] == [
        (runs[0].contacts, runs[0].conformation, runs[0].restarts)
    ] * 2
    assert hh_score(seq, runs[0].conformation) == runs[0].contacts
    assert ReplicaSettings(patience=0).patience == 0
    with pytest.raises(ValueError, match="patience"):
        ReplicaSettings(patience=-1)


def test_kicked_restarts_start_from_the_best_fold():
    # with a kick, a restart puts every replica on the run's best fold perturbed by `kick` steps
    # at infinite temperature: still a pure function of the seed, never losing the best
    s = ReplicaSettings(replicas=2, t_min=0.25, t_max=0.4, phi=50, patience=500, kick=40)
    seq = get_benchmark("S1-4").sequence
    runs = [replica_fold(seq, seed=3, settings=s, max_steps=100_000) for _ in range(2)]
    assert runs[0].restarts > 0
    assert runs[0] == dataclasses.replace(runs[1], seconds=runs[0].seconds,
        seconds_to_best=runs[0].seconds_to_best, improvements=runs[0].improvements)  # fmt: skip
    assert hh_score(seq, runs[0].conformation) == runs[0].contacts
    with pytest.raises(ValueError, match="kick 5 needs restarts"):
        ReplicaSettings(kick=5)
    with pytest.raises(ValueError, match="kick must be 0"):
        ReplicaSettings(patience=10, kick=-1)


def test_epochs_restart_from_the_straight_chain_at_fixed_steps():
    # every `epoch` steps per replica the replicas start again straight, the stream going on: a
    # step-limited run stays a pure function of its seed, and its first attempt is the plain run
    seq = get_benchmark("S1-4").sequence
    s = ReplicaSettings(replicas=2, t_min=0.3, t_max=0.5, phi=50, epoch=1000)
    a, b = (replica_fold(seq, seed=3, settings=s, max_steps=4000) for _ in range(2))
    assert (a.contacts, a.conformation, a.restarts, a.steps) == (
        b.contacts, b.conformation, b.restarts, b.steps,
    )  # fmt: skip
    assert a.restarts == 3 and a.steps == 4000
    plain = replica_fold(seq, seed=3, settings=dataclasses.replace(s, epoch=0), max_steps=1000)
    first = replica_fold(seq, seed=3, settings=s, max_steps=1000)
    assert (first.contacts, first.conformation, first.restarts) == (
        plain.contacts, plain.conformation, 0,
    )  # fmt: skip
    assert a.contacts >= first.contacts
    with pytest.raises(ValueError, match="epoch must be"):
        ReplicaSettings(epoch=-1)


@pytest.mark.slow
def test_the_regrowth_compiled_ahead_is_the_specialisation_remc_kernel_calls(tmp_path):
    # a cold fold compiles the fragment regrowth in a second process with the signature of
    # replica.replica_helpers; remc_kernel must ask for that one, or the work is lost (~8 CPU-s)
    import os
    import subprocess
    import sys

    script = (
        "from gamelab.lattice._replica_kernels import _regrow\n"
        "from gamelab.lattice.replica import replica_fold\n"
        "from gamelab.lattice.warmup import compile_replica_helpers\n"
        "compile_replica_helpers()\n"
        "replica_fold('HPHPPHHPHPPHPHHPPHPH', seed=0, max_steps=500)\n"
        "print(len(_regrow.signatures))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "GAMELAB_COMPILE_AHEAD": "0"}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1"]
