"""The docs, the benchmarks and the sources speak to users (issue 50, item 8): no work diary
("session 12", "the session-8 store") and no absolute path of a developer's machine; each
game's document points at the history of its measurements in docs/experiments/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("docs", "benchmarks", "src/gamelab", "tools")
SUFFIXES = {".md", ".py", ".js", ".html", ".patch", ".ipynb"}
DIARY = re.compile(r"\bsessions?[ -]\d+", re.IGNORECASE)
MACHINE_PATH = re.compile(r"(?<![\w$.])/(?:work|home|Users|tmp)/")


def _files() -> list[Path]:
    return sorted(
        p
        for top in SCANNED
        for p in (ROOT / top).rglob("*")
        if p.suffix in SUFFIXES and "__pycache__" not in p.parts and p.is_file()
    )


def test_no_work_diary_and_no_machine_paths():
    found = []
    for path in _files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if DIARY.search(line) or MACHINE_PATH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", ["lattice", "wordle", "yatzy", "voltorb", "oware", "envs"])
def test_a_games_document_points_at_its_experiments(game):
    text = (ROOT / "docs" / f"{game}.md").read_text(encoding="utf-8")
    assert (
        f"experiments/{game}.md" in text
        and (ROOT / "docs" / "experiments" / f"{game}.md").is_file()
    )
