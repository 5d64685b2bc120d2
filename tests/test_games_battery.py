"""One battery over every game (in the spirit of OpenSpiel's api_test): the same checks run on
all five packages, so a game that drifts from the common shape fails here.

* shape: a rules module, an ``__init__`` docstring naming the rules object and the entry
  points (which resolve, and each :func: entry point is annotated to return a dataclass), a
  CLI group registered by ``gamelab``, a report section (TITLE, build);
* determinism: a tiny seeded run gives the same result with 1 and 2 worker processes;
* kernels: one kernel of each game against its plain-Python twin (the per-game tests compare
  every kernel; this pins the convention that each kernel has a twin beside it);
* results: every entry-point result of the tiny runs is JSON-serialisable and round-trips.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import types
import typing

import numpy as np
import pytest

from gamelab import GAMES
from gamelab.core.parallel import Backend
from gamelab.core.serialise import to_json, to_plain
from gamelab.voltorb.rules import VoltorbSetting

REF = re.compile(r":(func|class|meth):`~?(gamelab\.[\w.]+)`")


def _section(doc: str, heading: str) -> str:
    """The text of the docstring paragraph(s) starting with `heading` up to a blank line
    followed by a line that does not continue the list."""
    start = doc.find(heading)
    assert start >= 0, f"no {heading!r} in the package docstring"
    rest = doc[start:]
    end = (
        rest.find("\n\n", rest.find("\n\n") + 2)
        if heading.startswith("Entry")
        else rest.find("\n\n")
    )
    return rest if end < 0 else rest[:end]


def _resolve(path: str) -> object:
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise AssertionError(f"{path} does not resolve")


def _is_dataclass_type(tp: object) -> bool:
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return True
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return all(_is_dataclass_type(a) for a in typing.get_args(tp) if a is not type(None))
    if origin in (list, tuple):
        return all(_is_dataclass_type(a) for a in typing.get_args(tp) if a is not Ellipsis)
    return False


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_the_same_shape(game):
    from gamelab.cli import game_group, root_command

    package = importlib.import_module(f"gamelab.{game}")
    importlib.import_module(f"gamelab.{game}.rules")
    doc = package.__doc__ or ""
    rules_refs = REF.findall(_section(doc, "Rules:"))
    assert rules_refs, f"{game}: the docstring's Rules: line names no class"
    for _, path in rules_refs:
        assert isinstance(_resolve(path), type | types.FunctionType), path
    entry = REF.findall(_section(doc, "Entry points"))
    assert len(entry) >= 3, f"{game}: fewer than three entry points listed"
    for kind, path in entry:
        obj = _resolve(path)
        assert callable(obj), path
        if kind == "func":
            returns = typing.get_type_hints(obj).get("return")
            assert _is_dataclass_type(returns), f"{path} returns {returns}, not a dataclass"
    cli = importlib.import_module(f"gamelab.{game}.cli")
    # `gamelab <game>` is the game's own typer app (loaded lazily by the root command)
    group = game_group(game)
    assert group is not None and group.name == game
    assert set(group.commands) == {
        c.name or c.callback.__name__ for c in cli.app.registered_commands
    }
    assert game in root_command().list_commands(None)
    report = importlib.import_module(f"gamelab.{game}.report")
    assert isinstance(report.TITLE, str) and report.TITLE and callable(report.build)


# ---------------------------------------------------------------- tiny seeded runs per game


def _voltorb(workers: int):
    from gamelab.voltorb.simulate import simulate_study

    return simulate_study(
        VoltorbSetting(2),
        "minrisk",
        24,
        seed=5,
        backend=Backend(workers=workers, quiet=True),
        compare_with="random",
    )


def _wordle(workers: int):
    # no parallel work in wordle: the seeded search must repeat exactly
    from gamelab.wordle.hillclimb import made_up_first_guess
    from gamelab.wordle.rules import load_word_list, parse_names
    from gamelab.wordle.table import Game

    return made_up_first_guess(
        Game(load_word_list(parse_names("gen1")), "blog"), seed=3, restarts=2, total=False
    )


def _lattice(workers: int):
    from gamelab.core.evolve import GAConfig
    from gamelab.lattice.experiments import compare_ga_random

    return compare_ga_random(
        8,
        trials=3,
        seed=2,
        config=GAConfig(generations=3),
        backend=Backend(workers=workers, quiet=True),
    )


def _oware(workers: int):
    from gamelab.oware.match import GreedySpec, RandomSpec, run_match

    return run_match(
        GreedySpec(),
        RandomSpec(),
        games=4,
        seed=2,
        use_store=False,
        backend=Backend(workers=workers, quiet=True),
    )


def _yatzy(workers: int):
    from gamelab.yatzy.rules import RULES
    from gamelab.yatzy.simulate import simulate

    return simulate(
        RULES["yahtzee-no-bonus"],
        "random",
        300,
        seed=4,
        chunk=100,
        backend=Backend(workers=workers, quiet=True),
    )


RUNS = {
    "voltorb": _voltorb,
    "wordle": _wordle,
    "lattice": _lattice,
    "oware": _oware,
    "yatzy": _yatzy,
}


def _without_timings(value):
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if "second" not in k}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def test_every_game_has_a_tiny_run():
    assert set(RUNS) == set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_results_do_not_depend_on_the_worker_count_and_round_trip(game):
    one, two = RUNS[game](1), RUNS[game](2)
    assert dataclasses.is_dataclass(one), f"{game}: the run returned {type(one).__name__}"
    plain = to_plain(one)
    assert _without_timings(plain) == _without_timings(to_plain(two))
    assert json.loads(to_json(one)) == plain  # JSON text round-trips to the same document
    assert to_plain(json.loads(to_json(one))) == plain


# ---------------------------------------------------------------- kernel against twin


def _voltorb_pair():
    from gamelab.voltorb import posterior
    from gamelab.voltorb.rules import Clues, generate_board

    board, _ = generate_board(VoltorbSetting(3), np.random.default_rng(1))
    c = Clues.from_board(board)
    known = np.full(25, -1, dtype=np.int64)
    known[7] = int(board.flat[7])
    args = (posterior.ROW_PATTERNS, c.row_sums, c.row_voltorbs, c.col_sums, c.col_voltorbs, known)
    return posterior.enumerate_boards(*args), posterior.enumerate_boards_python(*args)


def _wordle_pair():
    from gamelab.wordle import _kernels
    from gamelab.wordle.rules import load_word_list, parse_names

    words = load_word_list(parse_names("gen1"))
    gc, gl = words.encode(words.guesses[:40])
    ac, al = words.encode(words.answers)
    return (
        _kernels.feedback_table_kernel(gc, gl, ac, al, _kernels.RULE_BLOG),
        _kernels.feedback_table_python(gc, gl, ac, al, _kernels.RULE_BLOG),
    )


def _lattice_pair():
    from gamelab.lattice.fold import perm_kernel, perm_once, perm_python

    is_h = np.random.default_rng(3).random(12) < 0.5
    args = (is_h, 2, 2.5, 60, 1, 1.0, 999)
    return (perm_once(perm_kernel, *args), perm_once(perm_python, *args))


def _oware_pair():
    from gamelab.oware.perft import perft_count, perft_python
    from gamelab.oware.rules import random_positions

    p = random_positions(1, seed=4)[0]
    return perft_count(p, 4), perft_python(p, 4)


def _yatzy_pair():
    from gamelab.yatzy.rules import get_rules
    from gamelab.yatzy.simulate import draw_uniforms, play_game_python, play_scores

    r = get_rules("yahtzee-no-bonus")
    u = draw_uniforms(r, 3, np.random.default_rng(6))
    return play_scores(r, "greedy", u), [play_game_python(r, "greedy", g) for g in u]


PAIRS = {
    "voltorb": _voltorb_pair,
    "wordle": _wordle_pair,
    "lattice": _lattice_pair,
    "oware": _oware_pair,
    "yatzy": _yatzy_pair,
}


@pytest.mark.parametrize("game", GAMES)
def test_a_kernel_agrees_with_its_twin(game):
    fast, slow = PAIRS[game]()
    assert json.dumps(to_plain(fast)) == json.dumps(to_plain(slow))
