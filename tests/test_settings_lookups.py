"""A game's settings are parsed once, at the edge (DEVELOPERS.md, "A setting with parts is a
typed value parsed once at the edge"): library code takes the typed value (a Voltorb
``VoltorbSetting``, a Yatzy ``RuleSet``, a Wordle ``Setting``, ...) and never looks a setting
up by its name or checks its spelling again.

This test reads the source (no import) and counts the calls of the settings look-ups and
string checks below. They are allowed only in the shells, which parse their input (the
command line, the web request models, the environments' keyword arguments, the registry's
factories in ``games.py``, the report sections), and in the constructors that validate a
setting value (``PARSERS``). On the tree before the settings values (issue 48, commit
68a8290) it counted 38: check_generator 12, check_level 11, check_lattice 12, check_rule 2
(a third, in the Wordle ``Game`` constructor, is a value's own check), check_position 1.
An HP chain is a value too (``lattice.rules.Chain``, issue 48 item 1): its parser
``parse_sequence`` was called 20 times inside the library on that tree, and is called by the
shells alone now.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "gamelab"

#: look-ups of a setting by its name, and checks of a setting's spelling
LOOKUPS = frozenset(
    {
        "get_rules",
        "check_rule",
        "check_hard_mode",
        "check_generator",
        "check_level",
        "check_lattice",
        "check_position",
        "check_review",
        "check_practice_review",
        "parse_sequence",
    }
)

#: the constructors that validate a setting value: (module, function)
PARSERS = frozenset(
    {
        # a word list under one rule, made from a Setting (Game.of) or a shell's --rule
        ("wordle/table.py", "Game.__init__"),
    }
)


def is_shell(module: str) -> bool:
    """The modules that parse user input: CLI, web, environments, registry, report sections."""
    parts = module.split("/")
    return (
        parts[0] in ("web", "envs")
        or module in ("cli.py", "cli_common.py", "games.py", "report.py")
        or parts[-1] in ("cli.py", "report.py")
        or (len(parts) > 2 and parts[1] == "cli")
    )


def lookups(path: Path) -> list[tuple[str, str, str, int]]:
    """(module, enclosing function, look-up, line) of every counted call in one file."""
    module = path.relative_to(SRC).as_posix()
    found = []

    def visit(node: ast.AST, scope: tuple[str, ...]) -> None:
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = (*scope, child.name)
            if isinstance(child, ast.Call):
                f = child.func
                name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
                if name in LOOKUPS:
                    found.append((module, ".".join(scope) or "<module>", name, child.lineno))
            visit(child, inner)

    text = path.read_text(encoding="utf-8")
    if any(name in text for name in LOOKUPS):  # parse only the files that can hold one
        visit(ast.parse(text), ())
    return found


def library_lookups() -> list[tuple[str, str, str, int]]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        for module, function, name, line in lookups(path):
            if not is_shell(module) and (module, function) not in PARSERS:
                out.append((module, function, name, line))
    return out


def test_no_settings_lookups_inside_the_library_outside_the_parsers():
    found = [f"{m}:{line} {f}() calls {n}" for m, f, n, line in library_lookups()]
    assert not found, "a setting looked up or checked again inside the library:\n" + "\n".join(
        found
    )


def test_the_counter_sees_calls_in_methods_and_skips_shells(tmp_path, monkeypatch):
    (tmp_path / "voltorb").mkdir()
    (tmp_path / "voltorb" / "cli.py").write_text("def f():\n    check_level(3)\n")
    (tmp_path / "voltorb" / "deep.py").write_text(
        "class A:\n    def m(self):\n        rules.check_generator('x')\n"
    )
    monkeypatch.setattr(__import__(__name__), "SRC", tmp_path)
    assert library_lookups() == [("voltorb/deep.py", "A.m", "check_generator", 3)]
    assert is_shell("wordle/cli/options.py") and is_shell("web/api/voltorb.py")
