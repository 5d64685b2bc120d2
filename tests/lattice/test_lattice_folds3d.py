"""The shipped 3D folds (the Harvard 48-mers' best folds, tools/make_3d_folds.py): each replays
with the rules, is what the seeded folder gives again, and is drawn in 3D for the report."""

import inspect

import pytest
from test_lattice_generate import run_cli

from gamelab.core.report import Section
from gamelab.lattice import CERTIFY_SECONDS
from gamelab.lattice.bounds import contact_bounds
from gamelab.lattice.fold import fold
from gamelab.lattice.folds3d import check_record, load_folds3d
from gamelab.lattice.instances import get_benchmark, parse_chain
from gamelab.lattice.report import _folds3d
from gamelab.lattice.rules import Chain, coordinates, hh_contacts, hh_score


def test_shipped_3d_folds_replay_and_match_the_benchmarks():
    shipped = load_folds3d()
    assert [f.name for f in shipped.folds] == [f"H48-{k}" for k in range(1, 11)]
    assert shipped.command.startswith("python tools/make_3d_folds.py")
    for f in shipped.folds:
        b = get_benchmark(f.name)
        assert (f.sequence, f.best_known, b.lattice) == (b.sequence, b.best_known, "cubic")
        assert isinstance(f.sequence, Chain) and f.sequence.name == f.name  # typed when read
        assert hh_score(f.sequence, f.conformation, "cubic") == f.contacts <= f.upper_bound
        assert f.upper_bound <= contact_bounds(f.sequence, "cubic").upper
        assert f.sites == [list(s) for s in coordinates(f.conformation, "cubic")]
        assert f.pairs == [list(p) for p in hh_contacts(f.sequence, f.conformation, "cubic")]
        assert len({tuple(s) for s in f.sites}) == 48  # self-avoiding
        if f.proven_by is not None:
            assert f.upper_bound == f.best_known
    # proven here (docs/lattice.md): H48-2 and H48-10 by the bounds, H48-1 and H48-9 by cores
    by = {f.name: f.proven_by for f in shipped.folds}
    assert by["H48-2"] == by["H48-10"] == "bound"
    assert by["H48-1"] == by["H48-9"] == "cores"


def test_a_shipped_3d_fold_is_what_the_seeded_folder_gives():
    # a run stopped at the target is a pure function of its seed (replica.py); the fastest one
    f = min(
        (f for f in load_folds3d().folds if f.contacts == f.best_known), key=lambda f: f.cpu_seconds
    )
    r = fold(parse_chain(f.name), seed=f.seed, seconds=60, exhaustive=False, certify=False)
    assert (r.score, r.conformation) == (f.contacts, f.conformation)


@pytest.mark.slow
def test_every_shipped_3d_fold_is_what_the_seeded_folder_gives():
    for f in load_folds3d().folds:
        if f.contacts == f.best_known:  # else the clock ended the run: not reproducible
            r = fold(parse_chain(f.name), seed=f.seed, seconds=120, exhaustive=False, certify=False)
            assert (r.score, r.conformation) == (f.contacts, f.conformation), f.name


def test_3d_record_checks():
    b = get_benchmark("H48-2")
    good = load_folds3d().folds[1]
    record = {
        "name": "H48-2",
        "sequence": b.sequence,
        "contacts": good.contacts,
        "upper_bound": good.upper_bound,
        "conformation": good.conformation,
    }
    check_record(record)
    with pytest.raises(ValueError, match="not a known benchmark"):
        check_record({**record, "name": "S1-4"})
    with pytest.raises(ValueError, match="contacts, not the recorded"):
        check_record({**record, "contacts": good.contacts + 1})
    with pytest.raises(ValueError):  # not a fold at all (crosses itself)
        check_record({**record, "conformation": "RL" * 23 + "R"})


def test_report_draws_every_3d_benchmark(tmp_path):
    section = Section("lattice", "Lattice", tmp_path)
    _folds3d(section)
    figures = section.data["figures"]
    assert sorted(figures) == sorted(f"fold3d_H48-{k}" for k in range(1, 11))
    for name, figure in figures.items():
        assert (tmp_path / f"{name}.png").stat().st_size > 10_000
        assert "HH contacts" in figure["caption"]


def test_cli_certify_help_says_the_library_default(capsys):
    default = inspect.signature(fold).parameters["certify_seconds"].default
    assert default == CERTIFY_SECONDS
    code, out, _ = run_cli(["lattice", "fold", "--help"], capsys)
    assert code == 0 and f"up to {CERTIFY_SECONDS:g} CPU s" in " ".join(
        out.replace("│", " ").split()
    )
