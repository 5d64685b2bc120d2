"""GA / random / MAP-Elites on lattice puzzles, level packs, pictures and the command line."""

import json
import sqlite3
import subprocess
import sys

import numpy as np
import pytest

from gamelab.cli import main
from gamelab.core.evolve import GAConfig
from gamelab.core.parallel import Backend
from gamelab.lattice.enumeration import contact_sets
from gamelab.lattice.experiments import compare_ga_random, figure3, qd_figure
from gamelab.lattice.generate import (
    PuzzleFitness,
    ga_budget,
    ga_trial,
    qd_optimum,
    qd_search,
)
from gamelab.lattice.pack import choose_levels, read_pack, write_pack
from gamelab.lattice.rules import hh_score


def run_cli(args, capsys):
    """(exit code, stdout, stderr) of `gamelab args` run in this process."""
    code = 0
    try:
        main(args)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_puzzle_fitness_matches_histograms():
    f = PuzzleFitness(12, "best-score")
    seqs = ["HPHPPHHPHPPH", "PPPPPPPPPPPP"]
    values = f(seqs)
    assert values.tolist() == [len(contact_sets(12).histogram(s)) - 1 for s in seqs]
    assert set(f.seen) == set(seqs)
    with pytest.raises(ValueError, match="unknown objective"):
        PuzzleFitness(12, "nope")


def test_ga_trial_paper_budget_and_seeding():
    item = {"length": 12, "objective": "distinct-scores", "generations": 20}
    a = ga_trial(item, np.random.default_rng(3))
    b = ga_trial(item, np.random.default_rng(3))
    assert a["best"] == b["best"] and a["fitnesses"] == b["fitnesses"]
    assert a["evaluations"] == ga_budget(GAConfig(generations=20)) == 30 + 19 * 29
    assert a["best_fitness"] == len(contact_sets(12).histogram(a["best"])) - 1


def test_compare_ga_random_small():
    s = compare_ga_random(
        10, trials=3, seed=1, config=GAConfig(generations=8), backend=Backend(workers=1, quiet=True)
    )
    assert s.target_source == "exhaustive landscape"
    assert s.target == s.mean_max_per_generation[-1] or s.target >= max(s.mean_max_per_generation)
    assert len(s.mean_at_target_per_generation) == 8
    assert 0 <= s.ga_success.value <= 1 and s.budget == 30 + 7 * 29
    assert figure3(s) is not None


def test_trials_on_threads_equal_trials_in_order():
    # without a number of workers the trials run on threads of this process: the same numbers
    def run(backend):
        s = compare_ga_random(10, trials=5, seed=4, config=GAConfig(generations=6), backend=backend)
        return {k: v for k, v in vars(s).items() if k != "seconds_per_generation"}

    assert run(Backend(quiet=True)) == run(Backend(workers=1, quiet=True))


def test_trials_enumerate_once_before_their_workers(tmp_path, monkeypatch):
    # prepare_fitness (run_tasks' prepare) leaves the contact sets on disk, so that each worker
    # loads them instead of enumerating again
    from gamelab.lattice.experiments import prepare_fitness

    monkeypatch.setenv("GAMELAB_CACHE", str(tmp_path))
    monkeypatch.setenv("GAMELAB_COMPILE_AHEAD", "0")
    contact_sets.cache_clear()
    try:
        prepare_fitness(9, "square")
        contact_sets.cache_clear()
        assert contact_sets(9).from_cache
    finally:
        contact_sets.cache_clear()


def test_qd_search_archive_consistent():
    r = qd_search(12, seed=2, iterations=10)
    assert r.coverage[-1] > 0 and r.qd_score == sorted(r.qd_score)
    sets = contact_sets(12)
    for (h_cell, _), elite in r.archive.items():
        assert elite.genome.count("H") == h_cell
        assert elite.fitness == len(sets.histogram(elite.genome)) - 1
    assert qd_figure(r, 12) is not None
    # the exhaustive landscape bounds what any archive can hold
    perfect = qd_optimum(12)
    assert len(r.archive) <= perfect.cells and r.qd_score[-1] <= perfect.qd_score
    long_run = qd_search(12, seed=2, iterations=300)
    assert len(long_run.archive) >= 0.9 * perfect.cells


def test_pack_round_trip(tmp_path):
    levels = choose_levels(
        ["HPHPPHHPHPPH", "HPPHPHHPPHPH", "PPPPPPPPPPPP", "HHHHHHHHHHHH"], "top-rarity", 5
    )
    # the reversed duplicate and the unplayable all-P sequence are dropped
    assert len(levels) == 2
    for lv in levels:
        assert sum(lv.counts) == lv.total == contact_sets(12).conformations
        assert hh_score(lv.sequence, lv.best_conformation) == lv.best
        assert lv.stars["paper"].thresholds[2] == lv.best
        assert lv.objective == lv.objectives["top-rarity"]
    path = write_pack(tmp_path / "p.db", levels, {"length": 12})
    meta, back = read_pack(path)
    assert meta == {"length": 12}
    assert [lv["sequence"] for lv in back] == [lv.sequence for lv in levels]
    assert back[0]["histogram"] == levels[0].counts
    assert back[0]["thresholds"]["paper"] == list(levels[0].stars["paper"].thresholds)
    assert not list(tmp_path.glob(".*tmp"))


def test_cli_enumerate_histogram_json(capsys):
    code, out, _ = run_cli(["lattice", "enumerate", "--length", "10", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["conformations"] == 2034 and data["contact_sets"] == 212
    code, out, _ = run_cli(
        ["lattice", "histogram", "--sequence", "HPHHHHHHPHHPHHPH", "--json"], capsys
    )
    data = json.loads(out)
    # research notes: the paper's L=16 level, counts per score
    assert data["best"] == 9 and data["counts"]["9"] == 2 and data["counts"]["0"] == 188278
    code, out, _ = run_cli(
        ["lattice", "enumerate", "--length", "6", "--lattice", "cubic", "--json"], capsys
    )
    assert json.loads(out)["conformations"] == contact_sets(6, "cubic").conformations


def test_cli_errors_are_one_line(capsys):
    code, _, err = run_cli(["lattice", "histogram", "--sequence", "HPZ"], capsys)
    assert code == 2 and err.startswith("error:") and "only H and P" in err
    code, _, err = run_cli(["lattice", "enumerate", "--length", "99"], capsys)
    assert code == 2 and "allowed: 2..22" in err
    code, _, err = run_cli(["lattice", "evolve", "--length", "10", "--objective", "x"], capsys)
    assert code == 2 and "unknown objective" in err


def test_cli_evolve_pack_show(tmp_path, capsys):
    code, out, _ = run_cli(
        ["lattice", "evolve", "--length", "12", "--seed", "4", "--generations", "10", "--json"],
        capsys,
    )
    data = json.loads(out)
    assert code == 0 and len(data["history"]) == 10 and data["best_fitness"] <= 6
    assert data["seconds_per_generation"] > 0
    db = tmp_path / "levels.db"
    code, out, _ = run_cli(
        [
            "lattice",
            "pack",
            "--length",
            "12",
            "--count",
            "5",
            "--runs",
            "1",
            "--objective",
            "unique-optimum",
            "--out",
            str(db),
            "--json",
        ],
        capsys,
    )
    assert code == 0 and json.loads(out)["levels"] == 5
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM levels").fetchone()[0] == 5
    png = tmp_path / "fold.png"
    code, out, _ = run_cli(
        [
            "lattice",
            "show",
            "HPHHPPHH",
            "--out",
            str(png),
            "--histogram",
            str(tmp_path / "h.png"),
            "--json",
        ],
        capsys,
    )
    assert code == 0 and png.stat().st_size > 1000 and json.loads(out)["score"] == 3
    code, _, err = run_cli(["lattice", "show", "HPPH", "-c", "RRL", "--out", str(png)], capsys)
    assert code == 2 and "self-avoiding" in err


def test_cli_as_subprocess():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamelab.cli",
            "lattice",
            "histogram",
            "--sequence",
            "HPPH",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["counts"] == {"0": 4, "1": 1}


def test_quick_report_section(tmp_path):
    from gamelab.core.report import Report, ReportContext
    from gamelab.core.results import ResultStore
    from gamelab.lattice import report

    rep = Report(tmp_path)
    section = rep.section("lattice", report.TITLE)
    with ResultStore(tmp_path / "r.sqlite") as store:
        report.build(
            section,
            ReportContext(quick=True, seed=0, backend=Backend(workers=1, quiet=True), store=store),
        )
    from gamelab.lattice.landscape import landscape_histograms, landscape_summary

    rows = section.data["tables"]["enumeration"]["rows"]
    assert [r[2] for r in rows if r[0] == "square"][:3] == [272, 740, 2034]  # OEIS A046171
    kernels = landscape_summary(landscape_histograms(12))  # the numba path, the same figure
    assert section.data["landscape_12"].distinct_equals_best == kernels.distinct_equals_best
    assert "15,037 conformations" in section.headline


def test_library_pipelines_behind_the_cli(tmp_path):
    from gamelab.core.serialise import to_json, to_plain
    from gamelab.lattice.enumeration import resolve_fold
    from gamelab.lattice.generate import evolve_once, qd_study
    from gamelab.lattice.pack import analyse_level, make_pack

    pack = make_pack(tmp_path / "p.db", length=10, count=3, objective="top-rarity", runs=1)
    meta, rows = read_pack(pack.out)
    assert [r["sequence"] for r in rows] == [lv.sequence for lv in pack.levels]
    assert meta["candidates"] == pack.candidates and len(pack.levels) == 3
    assert json.loads(to_json(pack))["sequences"] == [lv.sequence for lv in pack.levels]
    level = analyse_level("HPPH")
    assert level.counts == [4, 1] and level.best == 1 and level.total == 5
    assert to_plain(level)["stars"]["paper"]["thresholds"] == list(level.stars["paper"].thresholds)
    a, b = (
        evolve_once(10, seed=5, config=GAConfig(generations=4)),
        evolve_once(10, seed=5, config=GAConfig(generations=4)),
    )
    assert a.best == b.best and len(a.history) == 4
    assert "fitnesses" not in to_plain(a)["history"][0]
    study = qd_study(10, seed=1, iterations=3)
    assert study.optimum is not None and len(study.result.archive) <= study.optimum.cells
    assert len(to_plain(study)["elites"]) == len(study.result.archive)
    fold = resolve_fold("HPPH")
    assert fold.score == 1
    with pytest.raises(ValueError, match="too long to enumerate"):
        resolve_fold("H" * 30)


@pytest.mark.parametrize(
    ("argv", "what"),
    [
        (["lattice", "trials", "--trials", "1000000000", "--no-store"], "1,000,000,000 trials"),
        (["lattice", "qd", "--iterations", "1000000000"], "1,000,000,000 MAP-Elites iterations"),
    ],
)
def test_8_a_size_beyond_memory_is_refused_with_its_bound(argv, what, capsys):
    """Issue 29 item 8: every lattice size option has an upper bound derived from memory (the GA's
    population and generations: tests/core/test_limits.py); before, these ran on, holding ever
    more memory."""
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == "", err
    line = err.strip()
    assert line.startswith(f"error: {what} needs about ") and " fit in half of this machine" in line


def test_8_a_pack_of_a_billion_ga_runs_is_refused_with_its_bound(tmp_path, capsys):
    """Issue 29 item 8: `lattice pack --runs 1000000000` ran on silently (each GA run up to about
    a CPU-second); now the CLI and the library refuse it at once, naming the bound, and write
    nothing."""
    from gamelab.lattice.pack import MAX_RUNS, make_pack

    out_file = tmp_path / "levels.db"
    code, out, err = run_cli(
        ["lattice", "pack", "--runs", "1000000000", "--out", str(out_file)], capsys
    )
    assert code == 2 and out == "" and "--runs" in err and f"1–{MAX_RUNS}" in err, err
    with pytest.raises(ValueError, match=f"at most {MAX_RUNS:,}"):
        make_pack(out_file, runs=MAX_RUNS + 1)
    assert not out_file.exists()


def test_a_pack_of_no_level_is_refused_by_its_option(tmp_path, capsys):
    """`lattice pack --count 0` answered with the library's "count and runs must be at least
    1, got 0 and 4" (a --runs nobody gave); the option says it, as --runs does."""
    out_file = tmp_path / "levels.db"
    code, out, err = run_cli(["lattice", "pack", "--count", "0", "--out", str(out_file)], capsys)
    assert code == 2 and out == "" and "'--count'" in err and "runs" not in err, err
    assert not out_file.exists()
