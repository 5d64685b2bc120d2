"""The shipped expert pack: the 2D benchmarks with stars from the best known value, their proof
status, and folds that reach it (replayed with the rules)."""

import pytest

from gamelab.core.serialise import to_plain
from gamelab.lattice.bounds import contact_bounds
from gamelab.lattice.expert import check_record, load_expert_pack
from gamelab.lattice.instances import get_benchmark
from gamelab.lattice.rules import Chain, hh_score
from gamelab.lattice.stars import paper_thresholds


def test_expert_pack_levels_stars_and_proofs():
    pack = load_expert_pack()
    assert [lv.name for lv in pack.levels] == [f"S1-{k}" for k in range(1, 12)]
    for lv in pack.levels:
        b = get_benchmark(lv.name)
        assert (lv.sequence, lv.best_known) == (b.sequence, b.best_known)
        # the chain is typed when the shipped pack is read (issue 48), named by its benchmark
        assert isinstance(lv.sequence, Chain) and lv.sequence.name == lv.name
        assert lv.thresholds == paper_thresholds(b.best_known)
        # the bounds, lowered by the H-core certificate where it refutes something
        assert b.best_known <= lv.upper_bound <= contact_bounds(b.sequence).upper
        if lv.upper_bound == lv.best_known:
            assert lv.proven_by in ("bound", "cores")
    by_name = {lv.name: lv for lv in pack.levels}
    # S1-1 (20 residues) is exact by enumeration (research notes: optimum 9, verified there)
    assert by_name["S1-1"].proven_by == "enumeration"
    assert [lv.name for lv in pack.levels if lv.proven_by == "bound"] == [
        "S1-3", "S1-4", "S1-5", "S1-9"
    ]  # fmt: skip
    # S1-8 by the H-core certificate (recomputed by test_lattice_cores.py's slow
    # test_the_certificate_proves_h48_9_and_s1_8)
    assert [lv.name for lv in pack.levels if lv.proven_by == "cores"] == ["S1-8"]
    assert by_name["S1-8"].upper_bound == 42
    # every shipped fold reaches the best known value; the solutions are not in the document
    assert pack.solutions
    for seq, conformation in pack.solutions.items():
        assert hh_score(seq, conformation) == next(
            lv.best_known for lv in pack.levels if lv.sequence == seq
        )
    assert "solutions" not in to_plain(pack)


def test_expert_record_checks():
    b = get_benchmark("S1-4")
    good = {"name": "S1-4", "sequence": b.sequence, "solution": None}
    check_record(good)
    with pytest.raises(ValueError, match="not a known benchmark"):
        check_record({**good, "sequence": b.sequence[:-1]})
    with pytest.raises(ValueError, match="does not reach 14"):
        check_record({**good, "solution": "R" * (len(b.sequence) - 1)})
