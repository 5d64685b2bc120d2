"""Every game's state, and the assistants' main answers, show themselves in a notebook.

A state has ``_repr_svg_`` (or ``_repr_html_``) drawn by a pure function of its game's
``pictures`` module; the test plays each registered game a few random moves and checks the
picture is well-formed SVG (or HTML) that shows what the state holds.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from gamelab.core.state import CHANCE, game_info, registered_games
from gamelab.voltorb.assistant import Policy
from gamelab.voltorb.rules import Position, VoltorbSetting

GAMES = [info.name for info in registered_games() if info.name in (
    "voltorb", "wordle", "lattice", "oware", "yatzy")]  # fmt: skip


def _advance(state, moves: int, rng: np.random.Generator) -> None:
    for _ in range(200):
        if state.is_terminal() or moves == 0:
            return
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            probs = np.array([p for _, p in outcomes])
            state.apply(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0])
            continue
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        moves -= 1


@pytest.mark.parametrize("game", GAMES)
def test_a_state_draws_itself(game):
    info = game_info(game)
    state = info.new_game(**dict(info.params)).new_initial_state()
    _advance(state, 2, np.random.default_rng(4))
    if hasattr(state, "_repr_svg_"):
        svg = state._repr_svg_()
        root = ET.fromstring(svg)  # well-formed
        assert root.tag.endswith("svg") and len(root) > 3
    else:
        page = state._repr_html_()
        assert page.startswith("<div") and "<table" in page and page.count("<tr>") > 5


def test_the_voltorb_assistant_answer_draws_its_odds():
    from gamelab.voltorb.assistant import solve_position

    answer = solve_position(
        Position.parse("4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"),
        VoltorbSetting(2),
        Policy.parse(None, False),
    )
    svg = answer._repr_svg_()
    ET.fromstring(svg)
    assert f"{answer.p_voltorb[0][0]:.2f}" in svg and svg.count("<rect") == 25
