"""A lean Pokémon Wordle game for the environments: :class:`gamelab.wordle.state.WordleState`'s
rules on plain integers.

:class:`GuessStepper` plays one game after another from a seeded generator: ``reset(rng)``
draws the answer exactly as the state protocol's chance node is drawn (one uniform, through the
same cumulative probabilities as :func:`gamelab.core.state.sample_chance`), ``step(guess)``
appends the guess and its colours (the feedback table's code) and returns the reward (-1 a
guess, and -1 more when the limit is used up unsolved: the return is the state's). It keeps
``guesses``, ``codes``, ``history`` (the (guess, code) pairs as a tuple, the key of the
oracle's candidate memo, :meth:`gamelab.wordle.oracle.WordleOracle.stepper_value`), ``mask``
(every guess is legal until the game is over; with ``repeats=False``, every guess not yet made)
and ``done``; ``state()`` gives the same game as
a :class:`~gamelab.wordle.state.WordleState` (for the text, the picture and the planes) and
``sync`` keeps one in step. ``tests/envs/test_envs_steppers.py`` plays both side by side.
"""

from __future__ import annotations

import numpy as np

from gamelab.wordle.state import WordleGame, WordleState


class GuessStepper:
    """Games of `game` (normal mode: every guess allowed), one after another; with
    ``repeats=False`` a guess already made is masked (it would reveal nothing new)."""

    def __init__(self, game: WordleGame, repeats: bool = True) -> None:
        table = game.table
        self.game = game
        self.repeats = repeats
        self.limit = int(game.guess_limit)
        self.n_answers = int(game.n_answers)
        self._codes = table.table
        self._green = int(table.green)
        self._answer_of_guess = table.answer_of_guess.tolist()
        # sample_chance's cumulative probabilities of the draw of the answer (uniform)
        self._cumulative = np.cumsum([1.0 / self.n_answers] * self.n_answers)
        self.mask = np.ones(int(game.num_actions), dtype=np.int8)
        self._open = self.mask.copy()
        self.answer = -1
        self.guesses: list[int] = []
        self.codes: list[int] = []
        self.history: tuple[tuple[int, int], ...] = ()
        self.done = True
        self.solved = False

    def reset(self, rng: np.random.Generator) -> None:
        cumulative = self._cumulative
        k = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
        self.answer = min(k, self.n_answers - 1)
        self.guesses, self.codes, self.history = [], [], ()
        self.done = self.solved = False
        self.mask[:] = self._open

    def step(self, guess: int) -> float:
        """Play a legal `guess`; the reward."""
        code = int(self._codes[guess, self.answer])
        self.guesses.append(guess)
        self.codes.append(code)
        self.history += ((guess, code),)
        self.solved = code == self._green and self._answer_of_guess[guess] == self.answer
        if self.solved:
            self.done = True
        elif len(self.guesses) >= self.limit:
            self.done = True
            self.mask[:] = 0
            return -2.0  # the last guess, and the failure
        if self.done:
            self.mask[:] = 0
        elif not self.repeats:
            self.mask[guess] = 0
        return -1.0

    def state(self) -> WordleState:
        """This game as a state of the protocol."""
        state = WordleState(self.game)
        state.answer, state.guesses, state.codes = self.answer, list(self.guesses), list(self.codes)
        return state

    def sync(self, state: WordleState, action: int) -> None:
        """Apply to `state` the guess just stepped."""
        state.apply(action)
