"""The playout battery: random seeded games through every game's state protocol adapter,
checking the protocol's invariants at every step (in the spirit of OpenSpiel's
integration_tests/api_test.py and pgx's api_test).

At every state: the player is CHANCE, TERMINAL or a player index; a chance node lists distinct
outcomes with positive probabilities summing to 1 and its legal actions are those outcomes; a
player's node lists distinct legal actions in range; a terminal has no legal action and no
chance outcome; the text round trip gives the same text, player and legal actions; a clone is
independent of its original; an illegal action raises IllegalActionError and changes nothing.
At the end: one return per player, summing to 0 in a zero-sum game. The same seed plays the
same game.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gamelab.core.state import (
    CHANCE,
    TERMINAL,
    GameDef,
    GameState,
    IllegalActionError,
    sample_chance,
)
from gamelab.voltorb.rules import VoltorbSetting


def _games() -> dict[str, object]:
    """Every registered game with its default settings (under its name), and variants."""
    from gamelab.core.state import registered_games
    from gamelab.lattice.state import LatticeGame
    from gamelab.oware.rules import Rules
    from gamelab.oware.state import OwareGame
    from gamelab.voltorb.state import VoltorbGame
    from gamelab.wordle.state import WordleGame
    from gamelab.yatzy.rules import get_rules
    from gamelab.yatzy.state import YatzyGame

    return {
        **{info.name: info.make() for info in registered_games()},
        "voltorb-hgss-8": VoltorbGame(VoltorbSetting()),
        "voltorb-bulbapedia-1-coins": VoltorbGame(VoltorbSetting(1, "bulbapedia"), "coins"),
        "voltorb-iid-as-coded-5": VoltorbGame(VoltorbSetting(5, "iid-as-coded")),
        "wordle-gen1-blog": WordleGame("gen1", "blog"),
        "lattice-cubic": LatticeGame("HHPPHH", "cubic"),
        "oware-split": OwareGame(Rules(grand_slam="capture-all", cycle="split")),
        "yatzy-2-yahtzee": YatzyGame(get_rules("yahtzee"), players=2),
    }


GAMES = _games()
SEEDS = {"wordle": 3, "wordle-gen1-blog": 2, "yatzy-2-yahtzee": 1}


def _check_state(game, state, round_trip: bool = True) -> None:
    player = state.current_player()
    text = state.to_text()
    legal = state.legal_actions()
    if round_trip or player == TERMINAL:
        again = game.state_from_text(text)
        assert again.to_text() == text
        assert again.current_player() == player
        assert again.legal_actions() == legal
    if player == TERMINAL:
        assert state.is_terminal()
        assert legal == [] and state.chance_outcomes() == []
        return
    assert not state.is_terminal()
    assert legal, f"no legal action in a live state {text}"
    assert len(set(legal)) == len(legal)
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
        assert all(0 <= a < game.num_chance_outcomes for a in legal)
    else:
        assert 0 <= player < game.num_players
        assert state.chance_outcomes() == []
        assert all(0 <= a < game.num_actions for a in legal)
    assert len(state.returns()) == game.num_players


def _illegal_action(game, state) -> int | None:
    legal = set(state.legal_actions())
    top = game.num_chance_outcomes if state.current_player() == CHANCE else game.num_actions
    for a in range(top + 1):
        if a not in legal:
            return a
    return None


def _playout(game, seed: int, check: bool) -> list[str]:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    texts = [state.to_text()]
    steps = 0
    while True:
        if (
            check
        ):  # the text round trip replays a whole Owaré game: every step early, then every 4th
            _check_state(game, state, round_trip=steps < 24 or steps % 4 == 0)
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            action = int(legal[int(rng.integers(len(legal)))])
        if check and steps % 7 == 0:
            bad = _illegal_action(game, state)
            if bad is not None:
                with pytest.raises(IllegalActionError, match="not legal"):
                    state.apply(bad)
                assert state.to_text() == texts[-1]
            child = state.clone()
            child.apply(action)
            assert state.to_text() == texts[-1]
            assert child.to_text() != texts[-1]
        state.apply(action)
        texts.append(state.to_text())
        steps += 1
        assert steps < 10_000
    returns = state.returns()
    assert len(returns) == game.num_players
    assert all(math.isfinite(r) for r in returns)
    if game.zero_sum:
        assert sum(returns) == 0
    return texts


@pytest.mark.parametrize("name", list(GAMES))
def test_protocol_playouts(name):
    game = GAMES[name]
    assert isinstance(game, GameDef)
    assert isinstance(game.new_initial_state(), GameState)
    for seed in range(SEEDS.get(name, 4)):
        _playout(game, seed, check=True)


@pytest.mark.parametrize("name", list(GAMES))
def test_same_seed_same_game(name):
    game = GAMES[name]
    assert _playout(game, 11, check=False) == _playout(game, 11, check=False)
    assert _playout(game, 11, check=False) != _playout(game, 12, check=False)


def test_returns_follow_the_rules():
    """The returns are the rules' own results, seen from the end of a random game."""
    from gamelab.lattice.rules import hh_score

    rng = np.random.default_rng(5)
    lattice = GAMES["lattice"]
    for _ in range(20):
        state = lattice.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        if state.complete():
            assert state.returns() == [hh_score(lattice.sequence, state.conformation)]
        else:
            assert state.returns() == [-1.0]
    yatzy = GAMES["yatzy"]
    state = yatzy.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(state.legal_actions()[-1])
    assert state.returns() == [float(state.cards[0].total)]


def test_voltorb_deal_follows_the_generator():
    """Dealing every tile by the chance outcomes gives the configuration's card counts, and
    hgss deals again a board that fails the free-multiplier test."""
    from gamelab.voltorb.rules import CONFIGS, passes_free_test

    game = GAMES["voltorb-hgss-8"]
    for seed in range(5):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        cfg = CONFIGS[state.config]
        board = state.round.board
        assert int((board == 0).sum()) == cfg.voltorbs and int((board == 3).sum()) == cfg.threes
        assert passes_free_test(board, cfg) or state.tries == 1000


def test_bad_settings_raise_the_libraries_messages():
    from gamelab.lattice.state import LatticeGame
    from gamelab.voltorb.state import VoltorbGame
    from gamelab.wordle.state import WordleGame
    from gamelab.yatzy.state import YatzyGame

    with pytest.raises(ValueError, match="level must be an integer from 1 to 8"):
        VoltorbGame(VoltorbSetting(9))
    with pytest.raises(ValueError, match="unknown generator"):
        VoltorbGame(VoltorbSetting(8, "nope"))
    with pytest.raises(ValueError, match="unknown word list"):
        WordleGame("gen0x")
    with pytest.raises(ValueError, match="only H and P are allowed"):
        LatticeGame("HXP")
    with pytest.raises(ValueError, match="players must be 1 or 2"):
        from gamelab.yatzy.rules import get_rules

        YatzyGame(get_rules("yatzy"), players=3)
    assert TERMINAL != CHANCE
