"""The one review (gamelab.core.review): loss, luck and totals over any game's oracle, and the
identities they keep (result = start - loss + luck)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from gamelab.core.oracle import TableOracle
from gamelab.core.review import Decision, review_play, totals
from gamelab.core.state import CHANCE, TERMINAL, game_info, sample_chance


@dataclass(frozen=True)
class GambleGame:
    """One player: take 1 point, or gamble (chance: 0 or 3 points, even odds); twice."""

    name: str = field(default="gamble", init=False)
    num_players: int = field(default=1, init=False)
    num_actions: int = field(default=2, init=False)
    num_chance_outcomes: int = field(default=2, init=False)
    zero_sum: bool = field(default=False, init=False)

    def new_initial_state(self):
        return GambleState()


class GambleState:
    def __init__(self, rounds=2, points=0, gambling=False):
        self.rounds, self.points, self.gambling = rounds, points, gambling

    def current_player(self):
        return CHANCE if self.gambling else (TERMINAL if self.rounds == 0 else 0)

    def legal_actions(self):
        return [0, 1] if self.current_player() != TERMINAL else []

    def chance_outcomes(self):
        return [(0, 0.5), (1, 0.5)] if self.gambling else []

    def apply(self, action):
        if self.gambling:
            self.points += 3 * action
            self.gambling = False
        elif action == 0:
            self.points += 1
        else:
            self.gambling = True
        if not self.gambling:
            self.rounds -= 1

    def is_terminal(self):
        return self.current_player() == TERMINAL

    def returns(self):
        return [float(self.points)]

    def clone(self):
        return GambleState(self.rounds, self.points, self.gambling)

    def action_to_string(self, action):
        return ("take", "gamble")[action]


class GambleOracle(TableOracle):
    def values(self, state):  # 1.5 expected for a gamble, 1 for a sure point, every round
        return {
            0: state.points + 1 + 1.5 * (state.rounds - 1),
            1: state.points + 1.5 * state.rounds,
        }


def test_a_decision_is_its_loss_and_luck():
    d = Decision.of(before=-3.0, chosen=-3.5, after=-3.0)
    assert (d.loss, d.luck) == (0.5, 0.5)
    assert Decision.of(0.1 + 0.2, 0.3, 0.3).loss == 0.0  # rounding is not a loss
    assert totals([d, d]) == (1.0, 1.0)


def test_one_player_with_chance_result_is_start_minus_loss_plus_luck():
    game, oracle = GambleGame(), GambleOracle()
    for seed in range(6):
        rng = np.random.default_rng(seed)
        state, actions = game.new_initial_state(), []
        while not state.is_terminal():
            a = (
                sample_chance(state, rng)
                if state.current_player() == CHANCE
                else int(rng.integers(2))
            )
            actions.append(a)
            state.apply(a)
        review = review_play(game, oracle, actions)
        assert review.start == [3.0]
        assert review.result == [state.points]
        assert review.result[0] == pytest.approx(
            review.start[0] - review.total_loss[0] + review.total_luck[0]
        )
        for move in review.moves:
            assert move.decision.loss == (0.5 if move.action == 0 else 0.0)
            assert move.best_move == "gamble"


def test_two_player_zero_sum_through_the_registry():
    info = game_info("nim")
    game = info.make(heap=9)  # a multiple of 4 is lost for the player to move
    actions = [0, 0, 2, 0, 0]  # 9 -> 8 -> 7 -> 4 -> 3 -> 2: only the last move throws the win
    review = review_play(game, info.new_oracle(game), actions)
    assert review.start == [1.0, -1.0]
    assert [m.move for m in review.moves] == ["take 1", "take 1", "take 3", "take 1", "take 1"]
    assert [m.decision.loss for m in review.moves] == [0.0, 0.0, 0.0, 0.0, 2.0]
    assert review.moves[-1].best_move == "take 3" and review.total_luck == [0.0, 0.0]
    assert review.result is None  # heap 2, the second player to move
    review = review_play(game, info.new_oracle(game), [*actions, 1])
    assert review.result == [-1.0, 1.0] and review.total_loss == [2.0, 0.0]
    for p in (0, 1):
        other = 1 - p
        assert review.result[p] == review.start[p] - review.total_loss[p] + review.total_loss[other]


def test_refusals():
    info = game_info("nim")
    game = info.make(heap=2)
    with pytest.raises(ValueError, match="after the end"):
        review_play(game, info.new_oracle(game), [1, 0])
    with pytest.raises(ValueError, match="not legal"):
        review_play(game, info.new_oracle(game), [2])

    @dataclass
    class ThreePlayers:
        num_players: int = 3
        zero_sum: bool = True

    with pytest.raises(ValueError, match="one-player game or a two-player zero-sum"):
        review_play(ThreePlayers(), None, [])


def test_every_games_review_has_the_shared_totals_by_player():
    """One result shape: each game's review carries its figures as core.review.Totals by player
    (the identities per game are checked by each game's review tests)."""
    from typing import get_type_hints

    from gamelab.core.review import Totals
    from gamelab.oware.game_review import GameReview
    from gamelab.voltorb.review import RoundReview
    from gamelab.wordle.review import Review as WordleReview
    from gamelab.yatzy.review import Review as YatzyReview

    for result in (RoundReview, WordleReview, YatzyReview, GameReview):
        assert get_type_hints(result)["totals"] == dict[str, Totals], result
    t = Totals.of("points", 10.0, [0.0, 2.0, None], [1.0, -1.0, 0.5], None)
    assert (t.loss, t.luck, t.costliest) == (None, 0.5, [2])
