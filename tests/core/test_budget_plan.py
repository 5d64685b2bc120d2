"""One plan type for a time budget (gamelab.core.budget.Plan): every game's plans are Plans, the
routes only carry them out, and a plan refuses what a shell could not run."""

from __future__ import annotations

import ast
import re
from functools import partial
from pathlib import Path

import pytest

from gamelab.core.budget import Plan

SRC = Path(__file__).resolve().parents[2] / "src" / "gamelab"


def test_plan_is_the_only_plan_type_and_every_plan_function_returns_it():
    classes, plans = [], []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Plan"):
                classes.append(f"{path.relative_to(SRC)}:{node.name}")
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_plan"):
                plans.append((f"{path.relative_to(SRC)}:{node.name}", ast.unparse(node.returns)))
    assert classes == ["core/budget.py:Plan"]
    assert len(plans) >= 10  # voltorb 4, oware 3, wordle 2, yatzy 2
    assert [name for name, returns in plans if returns != "Plan"] == []


def test_routes_carry_plans_out_and_build_no_fallback_of_their_own():
    """A fallback, its label and the seconds are the library's: no route makes a partial or
    calls the pool with a budget or a timeout of its own."""
    for path in sorted((SRC / "web" / "api").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\bpartial\b|\.budgeted\(|\.run\(|timeout=", text), path.name


def test_a_plan_refuses_what_a_shell_could_not_run():
    with pytest.raises(ValueError, match="positive"):
        Plan(max, (1, 2), 0.0)
    with pytest.raises(ValueError, match="instant plan has no fallback"):
        Plan(max, (1, 2), None, partial(min, 1, 2), "a", "b")
    with pytest.raises(ValueError, match="must pickle"):
        Plan(max, (1, 2), 1.0, lambda: 1, "a", "b")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="names what overran"):
        Plan(max, (1, 2), 1.0, partial(min, 1, 2))
    plan = Plan(max, (1, 2), 1.0, partial(min, 1, 2), "the maximum", "the minimum")
    assert (plan.run(), plan.fallback(), plan.instant) == (2, 1, False)
