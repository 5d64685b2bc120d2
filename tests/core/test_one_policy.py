"""One policy for each recurring job (issue 48, "the house, step 3"): one plan type for a time
budget (gamelab.core.budget.Plan) that every page's routes carry out, a page's warm-up declared
once in its game's warmup.py, and every source file at most 650 lines."""

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
        text = path.read_text(encoding="utf-8")
        if "Plan" not in text and "_plan" not in text:
            continue  # (parsing every file would take seconds)
        tree = ast.parse(text)
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


def test_every_page_declares_its_warm_up_once_in_its_games_warmup_module():
    import dataclasses

    from gamelab.core.warm import PageWarmup
    from gamelab.web.app import discover_games
    from gamelab.web.common import GamePage

    warm_fields = [f.name for f in dataclasses.fields(GamePage) if "warm" in f.name]
    assert len(warm_fields) <= 2, warm_fields
    pages = [page for page, _ in discover_games()]
    assert {p.game for p in pages} >= {"voltorb", "wordle", "lattice", "oware", "yatzy"}
    for page in pages:
        module = __import__(f"gamelab.{page.game}.warmup", fromlist=["PAGE_WARMUP"])
        assert page.warmup is module.PAGE_WARMUP and isinstance(page.warmup, PageWarmup)
        w = page.warmup
        called = [*w.pool, *w.prefork, *w.server]
        assert called and all(s.startswith(f"gamelab.{page.game}.warmup:") for s in called)
        # every name `gamelab serve` calls exists (a missing build left Yatzy cold for good)
        for spec in [*called, *w.build]:
            module, _, name = spec.partition(":")
            assert callable(getattr(__import__(module, fromlist=[name]), name, None)), spec


#: The most lines a source file may have (issue 48, item 5; no exceptions).
MOST_LINES = 650


def test_every_source_file_is_at_most_650_lines():
    long = {
        str(path.relative_to(SRC)): n
        for path in SRC.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, f"over {MOST_LINES} lines (split by concern): {long}"
