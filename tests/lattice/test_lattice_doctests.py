"""The examples in the lattice (and core.evolve) docstrings run and give what they show."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", [
    "gamelab.lattice.rules",
    "gamelab.lattice.enumeration",
    "gamelab.lattice.stars",
    "gamelab.lattice.objectives",
    "gamelab.core.evolve",
])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
