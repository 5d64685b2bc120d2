"""Every example in a module docstring under src/gamelab runs and gives what it shows.

The modules are found by walking the package, so a new example is run without being listed
here; a module that cannot be imported (an optional dependency missing) fails loudly instead
of being skipped silently.
"""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import gamelab

SRC = Path(gamelab.__file__).parent


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages([str(SRC)], prefix="gamelab."):
        spec = importlib.util.find_spec(info.name)
        origin = Path(spec.origin) if spec and spec.origin else None
        if origin and origin.suffix == ".py" and ">>>" in origin.read_text(encoding="utf-8"):
            names.append(info.name)
    return sorted(names)


MODULES = _modules_with_examples()


def test_examples_are_found():
    files = [p for p in SRC.rglob("*.py") if ">>>" in p.read_text(encoding="utf-8")]
    assert len(MODULES) == len(files) >= 15


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
