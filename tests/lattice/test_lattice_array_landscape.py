"""The quick report's plain-Python enumeration and numpy landscape against the kernels'."""

from __future__ import annotations

import numpy as np
import pytest

from gamelab.lattice.array_landscape import (
    contact_matrix,
    enumerate_by_arrays,
    landscape_by_arrays,
)
from gamelab.lattice.enumeration import contact_sets
from gamelab.lattice.landscape import landscape_histograms


@pytest.mark.parametrize("length, lattice", [(8, "square"), (11, "square"), (7, "cubic")])
def test_enumeration_equals_the_kernels(length, lattice):
    sets = contact_sets(length, lattice)
    e = enumerate_by_arrays(length, lattice)
    assert (e.conformations, e.contact_sets, e.max_contacts) == (
        sets.conformations,
        sets.size,
        sets.max_contacts,
    )


@pytest.mark.parametrize("length, lattice", [(4, "square"), (10, "square"), (8, "cubic")])
def test_landscape_equals_the_kernels(length, lattice):
    hists = landscape_by_arrays(length, lattice)
    assert np.array_equal(hists, landscape_histograms(length, lattice))
    assert (hists.sum(axis=1) == contact_matrix(length, lattice).conformations).all()


def test_refuses_long_chains():
    with pytest.raises(ValueError, match="at most 14"):
        contact_matrix(15)
