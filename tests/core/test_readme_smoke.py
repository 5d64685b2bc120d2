"""Every command of the README's "A taste of each game" runs, in text and in --json mode.

The commands are read from README.md itself; the sizes of the slow ones are reduced by this
test's own arguments (the README is never edited for the test). Where the size is the README's,
the key figure its comment promises is checked; reduced runs check the result's shape. A README
command without an entry below fails the test, so a new example gets a smoke run the day it is
added. Cases marked "slow" (minutes on a cold cache) run with ``-m slow``.
"""

from __future__ import annotations

import io
import json
import re
import shlex
import sys
from pathlib import Path

import pytest
import typer

from gamelab.cli import app

README = Path(__file__).resolve().parents[2] / "README.md"


def taste_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    block = text.split("## A taste of each game", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    return [
        re.sub(r"\s+#.*$", "", line).strip()
        for line in block.splitlines()
        if line.startswith("gamelab ")
    ]


# README line -> (replacements {option: value} or extra args, text must contain, json check)
# `stdin`: what a person types into an interactive program.
CASES: dict[str, dict] = {
    'gamelab voltorb solve --rows "4,2 8,0 4,2 4,2 5,1" --cols "6,1 5,0 5,2 4,3 5,1" --level 2': {
        "text": "P(win)"
    },
    "gamelab voltorb assist": {"stdin": "quit\n"},
    "gamelab voltorb simulate --generator hgss --level 8 --strategy minrisk --compare fom --games 20000 --json": {
        "set": {"--games": "200"},
        "json": lambda d: d["simulation"]["games"] == 200 if "simulation" in d else True,
    },
    'gamelab voltorb evaluate --rows "4,2 8,0 4,2 4,2 5,1" --cols "6,1 5,0 5,2 4,3 5,1" --level 2 --strategy fom --json': {},
    "gamelab voltorb simulate --level 8 --strategy optimal --compare minrisk --games 1000 --seed 0": {
        "set": {"--games": "2", "--level": "1"}
    },
    "gamelab voltorb campaign --strategy greedy-coins --rounds 20 --campaigns 200": {
        "set": {"--rounds": "2", "--campaigns": "4"}
    },
    "gamelab wordle rank --names gen1-4 --rule blog --top 15": {"text": "4.15443"},
    "gamelab wordle chart --first レントラー --rule blog": {"text": "1028"},
    "gamelab wordle prune-search --names gen1-4 --rule blog": {"text": "964", "slow": True},
    "gamelab wordle solve-optimal --names gen1-4 --rule blog --tree tree.json": {"text": "964"},
    "gamelab wordle feasible --names gen1-4 --max-guesses 4": {
        "set": {"--max-guesses": "3"},
        "text": "infeasible (proven)",
        "json": lambda d: d["feasible"] is False and d["openings_checked"] == 493,
    },
    'gamelab wordle next --history "レントラー:00000" --json': {},
    "gamelab wordle assist": {"stdin": "quit\n"},
    "gamelab lattice enumerate --length 16 --json": {
        "text": "802,075",
        "json": lambda d: d["conformations"] == 802_075 and d["contact_sets"] == 31_940,
    },
    "gamelab lattice histogram --sequence HPHHHHHHPHHPHHPH": {},
    "gamelab lattice trials --length 16 --trials 25 --out fig3.png": {
        "set": {"--length": "10", "--trials": "2"},
        "files": ["fig3.png"],
    },
    "gamelab lattice pack --length 16 --count 30 --objective best-then-rarity --out levels.db": {
        "set": {"--length": "10", "--count": "3"},
        "add": ["--runs", "1"],
        "files": ["levels.db"],
    },
    "gamelab lattice show HPHHHHHHPHHPHHPH --out fold.png": {"files": ["fold.png"]},
    "gamelab lattice fold S1-36": {"add": ["--seconds", "1"]},
    "gamelab oware perft --depth 10 --json": {"set": {"--depth": "6"}},
    "gamelab oware analyse --position start --time 2 --json": {"set": {"--time": "0.2"}},
    "gamelab oware match --a engine:time=0.5 --b blog:depth=6 --games 100 --seed 1 --json": {
        "set": {"--a": "engine:time=0.02", "--b": "blog:depth=2", "--games": "2"}
    },
    "gamelab oware tablebase --seeds 12": {"set": {"--seeds": "6"}},
    "gamelab oware play --engine engine:time=1": {
        "set": {"--engine": "engine:time=0.05"},
        "stdin": "quit\n",
    },
    "gamelab yatzy solve --rules yatzy --json": {
        "text": "248.4399894",
        "json": lambda d: abs(d["expected_score"] - 248.4399894) < 1e-7,
    },
    'gamelab yatzy advise --rules yahtzee --card "ones=3,yahtzee=50" --dice 11114 --rolls-left 2': {},
    "gamelab yatzy simulate --rules yahtzee --strategy optimal --games 100000 --seed 1 --json": {
        "set": {"--games": "2000"}
    },
    "gamelab yatzy distribution --rules yahtzee": {"text": "254.5877"},
    "gamelab yatzy comeback --rules yahtzee": {"slow": True},
    "gamelab yatzy target --rules yahtzee": {"add": ["--targets", "20,40"], "slow": True},
    "gamelab yatzy winplay --rules yahtzee-no-bonus --turns-left 4 --games 200 --exact-only --json": {
        "set": {"--games": "4"}
    },
    "gamelab yatzy play --rules yatzy": {"stdin": "q\n"},
}


def _has_json(argv: list[str]) -> bool:
    command = typer.main.get_command(app)
    for word in argv:
        if word.startswith("-") or not hasattr(command, "commands") or word not in command.commands:
            break
        command = command.commands[word]
    return any("--json" in getattr(p, "opts", ()) for p in command.params)


def reduced_argv(line: str) -> list[str]:
    case = CASES[line]
    argv = shlex.split(line)[1:]
    for option, value in case.get("set", {}).items():
        argv[argv.index(option) + 1] = value
    return argv + case.get("add", [])


def test_every_taste_command_has_a_smoke_case():
    commands = taste_commands()
    assert len(commands) >= 25
    missing = [c for c in commands if c not in CASES]
    assert not missing, f"README commands without a smoke case in {__file__}: {missing}"


def _params() -> list:
    out = []
    for line in taste_commands():
        slow = CASES.get(line, {}).get("slow", False)
        out.append(
            pytest.param(
                line, id=" ".join(shlex.split(line)[1:3]), marks=[pytest.mark.slow] if slow else []
            )
        )
    return out


@pytest.mark.parametrize("mode", ["text", "json"])
@pytest.mark.parametrize("line", _params())
def test_readme_command_runs(line, mode, gamelab_cli, tmp_path, monkeypatch):
    case = CASES[line]
    argv = [a for a in reduced_argv(line) if a != "--json"]
    if mode == "json":
        if "stdin" in case or not _has_json(argv):
            pytest.skip("no --json mode")
        argv.append("--json")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(case.get("stdin", "")))
    r = gamelab_cli(*argv)
    assert r.returncode == 0, f"gamelab {' '.join(argv)}: {r.stderr[-2000:]}"
    assert "Traceback" not in r.stderr
    if mode == "json":
        data = json.loads(r.stdout)
        if "json" in case:
            assert case["json"](data), r.stdout[:2000]
    else:
        assert r.stdout.strip(), "no output"
    if "text" in case and mode == "text":
        assert case["text"] in r.stdout, r.stdout[:3000]
    for name in case.get("files", []):
        assert (tmp_path / name).stat().st_size > 0
