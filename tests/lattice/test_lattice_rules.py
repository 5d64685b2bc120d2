"""The HP model itself: parsing, self-avoidance, contacts, scores."""

import pytest

from gamelab.lattice.rules import (
    Fold,
    Lattice,
    contacts,
    coordinates,
    hh_score,
    is_self_avoiding,
    parse_conformation,
    parse_sequence,
)


def test_parse_sequence_normalises_and_rejects():
    assert parse_sequence(" hPpH\n") == "HPPH"
    with pytest.raises(ValueError, match="only H and P"):
        parse_sequence("HPX")
    with pytest.raises(ValueError, match="at least 2"):
        parse_sequence("H", min_length=2)


def test_conformation_letters_and_self_avoidance():
    assert coordinates("RU")[-1] == (1, 1, 0)
    assert coordinates("FB", "cubic")[1] == (0, 0, 1)
    with pytest.raises(ValueError, match="not a square lattice move"):
        coordinates("RF", "square")
    with pytest.raises(ValueError, match="unknown lattice 'hex'; allowed: square, cubic"):
        Lattice("hex")  # the lattice is parsed once, by the shells (coordinates takes a Lattice)
    assert Lattice("cubic") == "cubic" and Lattice("cubic").dimensions == 3
    assert not is_self_avoiding("RL")
    with pytest.raises(ValueError, match="residue 4 lands on the site of residue 0"):
        parse_conformation("RULD")
    with pytest.raises(ValueError, match="needs 4"):
        parse_conformation("RUL", length=5)
    assert parse_conformation("rul", length=4) == "RUL"


def test_contacts_exclude_chain_neighbours():
    # a U-turn: 0 and 3 touch; 1 and 2 are bonded, not a contact
    assert contacts("RUL") == [(0, 3)]
    # 2x3 block: 0-3 and 0-5? path R U L U R visits (0,0)(1,0)(1,1)(0,1)(0,2)(1,2)
    assert contacts("RULUR") == [(0, 3), (2, 5)]
    assert contacts("RRR") == []
    # 2x2x2 cube, a Hamiltonian walk: every non-bonded lattice neighbour is a contact
    cube = contacts("RULFRDL", "cubic")
    assert len(cube) == 12 - 7
    assert all(j - i >= 3 and (j - i) % 2 == 1 for i, j in cube)


def test_hh_score_and_fold():
    assert hh_score("HPPH", "RUL") == 1
    assert hh_score("HPPP", "RUL") == 0
    assert hh_score("HPPHPH", "RULUR") == 1  # (0,3) is HH, (2,5) is PH
    fold = Fold("hpph", "rul")
    assert fold.score == 1 and fold.sequence == "HPPH"
    with pytest.raises(ValueError, match="needs 4"):
        Fold("HPPHH", "RUL")
    with pytest.raises(ValueError, match="not a cubic lattice move|unknown"):
        Fold("HPPH", "RUX", "cubic")


def _random_walk(rng, length, lattice):
    """A random self-avoiding walk (restarts when it gets stuck)."""
    from gamelab.lattice.rules import MOVES

    while True:
        walk = ""
        for _ in range(length - 1):
            options = [m for m in MOVES[lattice] if is_self_avoiding(walk + m, lattice)]
            if not options:
                break
            walk += options[rng.integers(len(options))]
        if len(walk) == length - 1:
            return walk


@pytest.mark.parametrize("lattice", ["square", "cubic"])
def test_scores_invariant_under_rotation_and_reversal(lattice):
    import numpy as np

    from gamelab.lattice.rules import reverse_move

    rng = np.random.default_rng(11)
    rotate = {"R": "U", "U": "L", "L": "D", "D": "R", "F": "F", "B": "B"}  # 90 degrees about z
    mirror = {"R": "R", "L": "L", "U": "D", "D": "U", "F": "B", "B": "F"}
    for _ in range(25):
        length = int(rng.integers(4, 18))
        walk = _random_walk(rng, length, lattice)
        seq = "".join(rng.choice(["H", "P"], size=length))
        score = hh_score(seq, walk, lattice)
        assert hh_score(seq, "".join(rotate[m] for m in walk), lattice) == score
        assert hh_score(seq, "".join(mirror[m] for m in walk), lattice) == score
        back = "".join(reverse_move(m) for m in reversed(walk))
        assert hh_score(seq[::-1], back, lattice) == score
        n = length - 1
        assert contacts(back, lattice) == sorted((n - j, n - i) for i, j in contacts(walk, lattice))
        assert str(Fold(seq, walk, lattice)).startswith(seq)
