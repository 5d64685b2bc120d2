"""Pokémon Wordle through the common state protocol (:mod:`gamelab.core.state`).

Chance draws the answer (each of the list's answers with the same probability, the measure the
proven optimum is an average over); then the player (player 0) guesses: action ``g`` is the
index of a name in ``WordList.guesses``, every guess of the list is legal (normal mode). The
colours come from the game's feedback table (:class:`gamelab.wordle.table.Game`, the setting's
rule). The game ends when a guess shows all green or the guess limit is used up. Returns: minus
the guesses used when solved, ``-(limit + 1)`` when not (one more than any solved game).

>>> g = WordleGame("gen1"); s = g.new_initial_state(); len(s.chance_outcomes()) == g.n_answers
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from gamelab.core.state import CHANCE, TERMINAL, illegal
from gamelab.wordle.rules import Setting, parse_setting, pattern_text
from gamelab.wordle.table import Game


@dataclass(frozen=True)
class WordleGame:
    """Pokémon Wordle on the word list `names` (``gen1``, ``gen1-4``, ``all``...) under `rule`."""

    names: str = "gen1"
    rule: str = "standard"
    name: str = field(default="wordle", init=False)
    num_players: int = field(default=1, init=False)
    zero_sum: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        _ = self.table  # validates the names and the rule (ValueError with the CLI's message)

    @cached_property
    def setting(self) -> Setting:
        """The protocol's parameters (spec strings, as OpenSpiel's) parsed once, here."""
        return parse_setting(self.names, self.rule)

    @cached_property
    def table(self) -> Game:
        return Game.of(self.setting)

    @property
    def num_actions(self) -> int:
        return self.table.n_guesses

    @property
    def num_chance_outcomes(self) -> int:
        return self.table.n_answers

    @property
    def n_answers(self) -> int:
        return self.table.n_answers

    @property
    def guess_limit(self) -> int:
        return self.table.words.guess_limit

    def new_initial_state(self) -> WordleState:
        return WordleState(self)

    def state_from_text(self, text: str) -> WordleState:
        """Parse ``answer NAME guesses NAME NAME ...`` (:meth:`WordleState.to_text`)."""
        parts = text.split()
        if len(parts) < 3 or parts[0] != "answer" or parts[2] != "guesses":
            raise ValueError(f"a Wordle state reads 'answer NAME|- guesses NAME ...', got {text!r}")
        words = self.table.words
        state = WordleState(self)
        if parts[1] != "-":
            if parts[1] not in words.answer_index:
                raise ValueError(f"{parts[1]!r} is not an answer of the list {self.names}")
            state.apply(words.answer_index[parts[1]])
        for name in parts[3:]:
            state.apply(words.check_guess(name))
        return state


class WordleState:
    """The answer (once drawn) and the guesses made."""

    __slots__ = ("game", "answer", "guesses", "codes")

    def __init__(self, game: WordleGame) -> None:
        self.game = game
        self.answer = -1
        self.guesses: list[int] = []
        self.codes: list[int] = []  # the colours each guess showed (pattern codes)

    def solved(self) -> bool:
        return (
            bool(self.codes)
            and self.codes[-1] == self.game.table.green
            and (self.game.table.is_answer(self.guesses[-1], self.answer))
        )

    def is_terminal(self) -> bool:
        return self.answer >= 0 and (self.solved() or len(self.guesses) >= self.game.guess_limit)

    def current_player(self) -> int:
        if self.answer < 0:
            return CHANCE
        return TERMINAL if self.is_terminal() else 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.answer >= 0:
            return []
        n = self.game.n_answers
        return [(a, 1.0 / n) for a in range(n)]

    def legal_actions(self) -> list[int]:
        if self.answer < 0:
            return list(range(self.game.n_answers))
        if self.is_terminal():
            return []
        return list(range(self.game.num_actions))

    def apply(self, action: int) -> None:
        action = int(action)
        if self.answer < 0:
            if not 0 <= action < self.game.n_answers:
                raise illegal(action, range(self.game.n_answers), "the draw of the answer")
            self.answer = action
            return
        if self.is_terminal() or not 0 <= action < self.game.num_actions:
            raise illegal(action, self.legal_actions(), f"the Wordle state {self.to_text()!r}")
        self.guesses.append(action)
        self.codes.append(int(self.game.table.table[action, self.answer]))

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0]
        if self.solved():
            return [-float(len(self.guesses))]
        return [-float(self.game.guess_limit + 1)]

    def history(self) -> list[tuple[int, int]]:
        """[(guess index, pattern code)]: what the player has seen."""
        return list(zip(self.guesses, self.codes, strict=True))

    def clone(self) -> WordleState:
        out = WordleState(self.game)
        out.answer, out.guesses, out.codes = self.answer, list(self.guesses), list(self.codes)
        return out

    def _repr_svg_(self) -> str:
        """The guesses as coloured tiles in a notebook (:mod:`gamelab.wordle.pictures`)."""
        from gamelab.wordle.pictures import history_svg

        rows = [self.row_text(k).rsplit(":", 1) for k in range(len(self.guesses))]
        note = "" if rows else "no guess yet"
        return history_svg([(word, colours) for word, colours in rows], note)

    def to_text(self) -> str:
        words = self.game.table.words
        answer = words.answers[self.answer] if self.answer >= 0 else "-"
        return " ".join(["answer", answer, "guesses", *(words.guesses[g] for g in self.guesses)])

    def action_to_string(self, action: int) -> str:
        words = self.game.table.words
        if self.answer < 0:
            return f"answer {words.answers[action]}"
        return words.guesses[action]

    def row_text(self, k: int) -> str:
        """Guess k with its colours, as the assistant writes it (``name:00120``)."""
        name = self.game.table.words.guesses[self.guesses[k]]
        return f"{name}:{pattern_text(self.codes[k], len(name))}"
