"""Cross-check against OpenSpiel's oware (optional dependency: skipped without open-spiel)."""

import numpy as np
import pytest

from gamelab.oware.rules import Position

pyspiel = pytest.importorskip("pyspiel")


def test_random_games_agree_with_openspiel():
    # research notes §2: OpenSpiel's oware is the reference implementation of these rules
    game = pyspiel.load_game("oware")
    rng = np.random.default_rng(5)
    endings = 0
    for _ in range(150):
        state = game.new_initial_state()
        p = Position.initial()
        while not state.is_terminal():
            to_move, scores, houses = state.observation_string(0).split("|")
            assert int(to_move) == p.to_move
            assert tuple(int(x) for x in scores.split()) == p.stores
            assert tuple(int(x) for x in houses.split()) == p.houses
            assert list(state.legal_actions()) == p.legal_moves()
            m = int(rng.choice(p.legal_moves()))
            state.apply_action(m)
            p = p.play(m)
        assert p.is_over()
        _, scores, _ = state.observation_string(0).split("|")
        assert tuple(int(x) for x in scores.split()) == p.result()
        returns = state.returns()
        w = p.winner()
        assert returns[0] == (0 if w is None else (1 if w == 0 else -1))
        endings += 1
    assert endings == 150


def test_mcts_player_moves_are_legal():
    from gamelab.oware.match import make_player, parse_player

    player = make_player(parse_player("mcts:sims=20"), seed=3)
    rng = np.random.default_rng(0)
    p, moves = Position.initial(), []
    for _ in range(6):
        m = player.choose(p, moves, rng)
        assert m in p.legal_moves()
        p = p.play(m)
        moves.append(m)
