"""docs/envs.md's first example runs and shows what its comment says (a reader copies it first)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("gymnasium")


def test_the_first_gymnasium_example_gives_the_regret_it_promises():
    text = (Path(__file__).resolve().parents[2] / "docs" / "envs.md").read_text(encoding="utf-8")
    block = text.split("## Gymnasium (one player)", 1)[1].split("```python", 1)[1].split("```")[0]
    assert 'info["regret"] == 0' in block
    scope: dict = {}
    exec(compile(block, "docs/envs.md", "exec"), scope)
    info = scope["info"]
    assert info["regret"] == 0  # the optimal move costs nothing
    assert "optimal_action" in info
