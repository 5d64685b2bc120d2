"""The dependency policy: ranges in pyproject.toml, exact pins in the CI lock file.

pyproject.toml states ranges so that gamelab installs beside other packages; requirements-ci.txt
(``uv pip compile pyproject.toml --extra test ...``, the command is in its header) pins the exact
set that CI and the README's test command install. These tests keep the two consistent.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
LOCK = ROOT / "requirements-ci.txt"

#: extras for the project's own development, not for users
DEVELOPER_EXTRAS = {"test"}


def _locked() -> dict[str, str]:
    pins = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version.strip()
    return pins


def test_user_facing_requirements_are_ranges_with_a_floor():
    optional = PROJECT["optional-dependencies"]
    user_facing = list(PROJECT["dependencies"])
    for extra, requirements in optional.items():
        if extra not in DEVELOPER_EXTRAS:
            user_facing += requirements
    assert user_facing
    for text in user_facing:
        requirement = Requirement(text)
        operators = {spec.operator for spec in requirement.specifier}
        assert "==" not in operators and "===" not in operators, text
        assert ">=" in operators, f"{text}: a lower bound the floor check can install"


def test_lock_pins_every_test_requirement_inside_its_range():
    pins = _locked()
    requirements = [*PROJECT["dependencies"], *PROJECT["optional-dependencies"]["test"]]
    for text in requirements:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in {LOCK.name}: run its header's command"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{LOCK.name} pins {name}=={pins[name]}, outside {text!r}"
        )


def test_the_readme_test_command_installs_from_the_lock():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if ".venv/bin/python -m pytest" in line)
    assert re.search(r"pip install [^&]*-c requirements-ci\.txt", command), command
