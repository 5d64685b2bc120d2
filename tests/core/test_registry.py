"""The registry of games (gamelab.core.state.GameInfo, gamelab.games): every tool reads it, and
a game registered in one place (tests/toy_nim.py, imported by conftest.py) is found by all."""

from __future__ import annotations

from importlib.util import find_spec

import pytest

from gamelab import GAMES
from gamelab.core.state import (
    TERMINAL,
    GameInfo,
    game_info,
    load,
    register_game,
    registered_games,
)


def test_the_package_games_come_first_in_order_and_their_places_exist():
    names = [info.name for info in registered_games()]
    assert tuple(names[:5]) == GAMES == ("voltorb", "wordle", "lattice", "oware", "yatzy")
    for name in GAMES:
        info = game_info(name)
        assert info.kernels and info.compile_seconds > 0
        for spec in (info.cli, info.page, info.warmup, info.report, info.settings):
            if spec:
                assert find_spec(spec.partition(":")[0]) is not None, spec
        if info.settings:
            assert isinstance(load(info.settings), type)


def test_an_unknown_game_names_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown game 'chess'; choose from voltorb, wordle"):
        game_info("chess")


def test_a_record_is_checked_and_a_name_registered_once():
    with pytest.raises(ValueError, match="lower-case letters"):
        GameInfo("Tic-Tac-Toe", "t", "s", dict)
    with pytest.raises(ValueError, match="perfect or imperfect"):
        GameInfo("tictactoe", "t", "s", dict, information="partial")
    nim = game_info("nim")
    assert register_game(nim) is nim  # the same record again: nothing happens
    with pytest.raises(ValueError, match="registered already"):
        register_game(GameInfo("nim", "Nim", "another", dict))


def test_the_toy_game_is_found_where_it_has_something_and_absent_elsewhere(gamelab_cli):
    from gamelab.web.app import discover_games

    assert "nim" in [info.name for info in registered_games()]
    assert [page.game for page, _ in discover_games()] == [
        g for g in GAMES if game_info(g).page
    ]  # no page: no entry (never an empty one)
    listed = gamelab_cli("--help").stdout
    assert "yatzy" in listed and "nim" not in listed  # no command line: no group
    with pytest.raises(ValueError, match="unknown game 'nim'; choose from voltorb"):
        from gamelab.warmup import warm_up

        warm_up(["nim"])  # no kernels: nothing to warm


def _minimax(state) -> float:
    """The mover's result in a live state, by searching the whole game through the protocol."""
    assert state.current_player() != TERMINAL
    best = -2.0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        if child.is_terminal():
            value = child.returns()[state.current_player()]
        else:
            value = -_minimax(child)
        best = max(best, value)
    return best


def test_the_toy_oracle_is_exact():
    info = game_info("nim")
    game = info.make(heap=13)
    oracle = info.new_oracle(game)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert oracle.value(state) == _minimax(state) == (-1.0 if state.heap % 4 == 0 else 1.0)
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            expected = child.returns()[state.player] if child.is_terminal() else -_minimax(child)
            assert oracle.action_value(state, action) == expected
        state.apply(oracle.best_action(state) if state.heap % 4 else 0)
    with pytest.raises(ValueError, match="heap must be an integer from 1 to 100"):
        info.make(heap=0)
