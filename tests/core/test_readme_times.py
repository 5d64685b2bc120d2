"""Issue 29 item 22: every time the README states is measured by a command.

``benchmarks/readme_times.py`` runs the command behind each stated time and prints the
measured figure beside it. This test keeps the two in step: a time in the README that no claim
of the script covers fails, and so does a claim whose words have left the README."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: a duration: "about a second", "seconds to build", "205 s", "3635 CPU-s", "330 core-s",
#: "3.5 minutes", "6 min", "10 ms"
DURATION = re.compile(
    r"\ba (?:second|minute)\b|\b(?:seconds|minutes) to\b"
    r"|\b\d[\d,.]*\s*(?:s|ms|min|minutes?|seconds?|hours?|CPU-s|core-s)\b"
)

#: README lines with a duration that is a setting, not a measurement
SETTINGS = ("(default 2 s)",)


def _claims():
    spec = importlib.util.spec_from_file_location(
        "readme_times", ROOT / "benchmarks/readme_times.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["readme_times"] = module  # (its dataclass looks itself up there)
    spec.loader.exec_module(module)
    return module.CLAIMS


def test_22_every_time_in_the_readme_is_a_measured_claim():
    claims = _claims()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    unmeasured = [
        line.strip()
        for line in readme.splitlines()
        if DURATION.search(line)
        and not any(claim.readme in line for claim in claims)
        and not any(setting in line for setting in SETTINGS)
    ]
    assert unmeasured == []
    assert [c.readme for c in claims if c.readme not in readme] == []


def test_22_the_duration_pattern_finds_the_old_wordings():
    # the README's wording before this test: "about a second" was 7 s of wall time
    for text in ("in about a second", "seconds to build", "about 205 s of CPU", "6 min"):
        assert DURATION.search(text), text
    assert not DURATION.search("Wilson CIs, 20000 games, level 8")
