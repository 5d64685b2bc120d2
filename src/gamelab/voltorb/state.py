"""Voltorb Flip through the common state protocol (:mod:`gamelab.core.state`).

Chance deals the board the way the generator does, one draw at a time, so every probability is
exact: first the level's configuration (each 1/10; the i.i.d. generators have none), then the
25 tiles row-major, each with the chance the generator gives it (a configuration's cards placed
uniformly: the cards of each value left over the tiles left; i.i.d.: the level's tile
probabilities). For ``hgss`` a dealt board failing the game's free-multiplier test is dealt again
with the same configuration, as the game retries, at most :data:`MAX_GENERATION_TRIES` times
(:func:`gamelab.voltorb.rules.passes_free_test`). Then the player (player 0) flips: actions
0-24 are the tiles, :data:`QUIT` keeps the coins (:class:`gamelab.voltorb.rules.Round`).

Returns: with ``objective="win"`` 1 for a cleared board and 0 otherwise (what
:class:`gamelab.voltorb.expectimax.OptimalSolver` maximises); with ``"coins"`` the coins won.

>>> g = VoltorbGame(VoltorbSetting(1)); s = g.new_initial_state(); s.chance_outcomes()[0]
(0, 0.1)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gamelab.core.state import CHANCE, TERMINAL, illegal
from gamelab.voltorb.rules import (
    CONFIGS,
    MAX_GENERATION_TRIES,
    TILES,
    BoardGenerator,
    Round,
    VoltorbSetting,
    generate_board,
    iid_tile_probabilities,
    level_configs,
    passes_free_test,
)

#: The action that ends the round keeping the coins.
QUIT = TILES
OBJECTIVES = ("win", "coins")


@dataclass(frozen=True)
class VoltorbGame:
    """One round of Voltorb Flip dealt under `setting` (level and generator)."""

    setting: VoltorbSetting = VoltorbSetting()
    objective: str = "win"
    name: str = field(default="voltorb", init=False)
    num_players: int = field(default=1, init=False)
    num_actions: int = field(default=TILES + 1, init=False)
    num_chance_outcomes: int = field(default=len(CONFIGS), init=False)
    zero_sum: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        if self.objective not in OBJECTIVES:
            raise ValueError(f"objective must be 'win' or 'coins', got {self.objective!r}")

    @property
    def level(self) -> int:
        return self.setting.level

    @property
    def generator(self) -> BoardGenerator:
        return self.setting.generator

    @property
    def iid(self) -> bool:
        return self.setting.iid

    def new_initial_state(self) -> VoltorbState:
        return VoltorbState(self)

    def dealt_state(self, board: np.ndarray) -> VoltorbState:
        """The state at the first flip of `board`, a board known already (a practice round's,
        one under review): its 25 tiles dealt, its configuration unknown (``config -1``, as
        :meth:`state_from_text` reads ``cells`` without ``config``)."""
        tiles = np.asarray(board).reshape(-1)
        if tiles.size != TILES or not 0 <= tiles.min() <= tiles.max() <= 3:
            raise ValueError(f"a board is 25 tiles of 0-3, got {np.asarray(board).tolist()!r}")
        state = VoltorbState(self)
        state.round = Round(tiles)
        state.cells = state.round.board.reshape(-1).tolist()
        return state

    def state_from_text(self, text: str) -> VoltorbState:
        """Parse :meth:`VoltorbState.to_text` (``config 72 tries 1 cells 0123... flips 3 7``)."""
        fields = text.split()
        state = VoltorbState(self)
        try:
            values = dict(zip(fields[::2], fields[1::2], strict=True))
            state.config = int(values.get("config", "-1"))
            state.tries = int(values.get("tries", "1"))
            cells = values.get("cells", "-")
            flips = values.get("flips", "-")
        except ValueError:
            raise ValueError(f"not a Voltorb state: {text!r}") from None
        if state.config != -1 and (self.iid or CONFIGS[state.config].level != self.level):
            raise ValueError(f"configuration {state.config} is not one of level {self.level}'s")
        if not 1 <= state.tries <= MAX_GENERATION_TRIES:
            raise ValueError(f"tries must be 1..{MAX_GENERATION_TRIES}, got {state.tries}")
        if cells != "-":
            if len(cells) > TILES or any(c not in "0123" for c in cells):
                raise ValueError(f"cells are up to 25 digits 0-3, got {cells!r}")
            state.cells = [int(c) for c in cells]
            if len(state.cells) == TILES:
                state.round = Round(np.array(state.cells, dtype=np.int8))
        if flips != "-":
            for token in flips.split(","):
                state.apply(QUIT if token == "quit" else int(token))
        return state


class VoltorbState:
    """The deal so far (configuration, tiles), then the round being played."""

    __slots__ = ("game", "config", "tries", "cells", "round", "flips")

    def __init__(self, game: VoltorbGame) -> None:
        self.game = game
        self.config = -1
        self.tries = 1
        self.cells: list[int] = []
        self.round: Round | None = None
        self.flips: list[int] = []

    def current_player(self) -> int:
        if self.round is None:
            return CHANCE
        return TERMINAL if self.round.outcome is not None else 0

    def is_terminal(self) -> bool:
        return self.round is not None and self.round.outcome is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.round is not None:
            return []
        game = self.game
        if game.iid:
            p = iid_tile_probabilities(game.generator, game.level)
            return [(v, float(p[v])) for v in range(4) if p[v] > 0]
        if self.config < 0:
            return [(c.id, 0.1) for c in level_configs(game.level)]
        cfg = CONFIGS[self.config]
        left = TILES - len(self.cells)
        have = np.bincount(np.array(self.cells, dtype=np.int64), minlength=4)
        want = (cfg.voltorbs, cfg.ones, cfg.twos, cfg.threes)
        return [(v, (want[v] - have[v]) / left) for v in range(4) if want[v] > have[v]]

    def legal_actions(self) -> list[int]:
        if self.round is None:
            return [a for a, _ in self.chance_outcomes()]
        if self.round.outcome is not None:
            return []
        return [t for t in range(TILES) if t not in self.round.revealed] + [QUIT]

    def apply(self, action: int) -> None:
        action = int(action)
        if self.round is None:
            outcomes = [a for a, _ in self.chance_outcomes()]
            if action not in outcomes:
                raise illegal(action, outcomes, "the deal")
            if not self.game.iid and self.config < 0:
                self.config = action
                return
            self.cells.append(action)
            if len(self.cells) == TILES:
                self._dealt()
            return
        rnd = self.round  # legal_actions(), without building the list
        if rnd.outcome is not None or not (
            action == QUIT or (0 <= action < TILES and action not in rnd.revealed)
        ):
            raise illegal(action, self.legal_actions(), f"the round ({self.to_text()})")
        if action == QUIT:
            rnd.quit()
        else:
            rnd.flip(action)
        self.flips.append(action)

    def resolve_chance(self, rng: np.random.Generator) -> None:
        """Deal the whole board at once with the library's generator
        (:func:`gamelab.voltorb.rules.generate_board`: the same law as the chance nodes, one
        call instead of 26 draws); only from the start of the deal."""
        if self.round is not None or self.cells or self.config >= 0 or self.tries > 1:
            return
        board, config = generate_board(self.game.setting, rng)
        self.config = config
        self.cells = [int(v) for v in board.reshape(-1)]
        self.round = Round(board)

    def _dealt(self) -> None:
        board = np.array(self.cells, dtype=np.int8)
        if (
            self.game.generator == "hgss"
            and self.tries < MAX_GENERATION_TRIES
            and not passes_free_test(board, CONFIGS[self.config])
        ):
            self.cells, self.tries = [], self.tries + 1  # the game deals again
            return
        self.round = Round(board)

    def returns(self) -> list[float]:
        if self.round is None or self.round.outcome is None:
            return [0.0]
        if self.game.objective == "win":
            return [1.0 if self.round.outcome == "won" else 0.0]
        return [float(self.round.coins)]

    def _repr_svg_(self) -> str:
        """The board in a notebook: clues and flipped tiles (:mod:`gamelab.voltorb.pictures`)."""
        from gamelab.voltorb.pictures import state_svg

        revealed = dict(self.round.revealed) if self.round is not None else {}
        return state_svg(self.round.clues if self.round else None, revealed, len(self.cells))

    def clone(self) -> VoltorbState:
        out = VoltorbState(self.game)
        out.config, out.tries, out.cells, out.flips = (
            self.config,
            self.tries,
            list(self.cells),
            list(self.flips),
        )
        if self.round is not None:
            r = self.round
            out.round = Round(r.board, dict(r.revealed), r.coins, r.outcome, r.cards_flipped)
            out.round.multipliers_left = r.multipliers_left
        return out

    def to_text(self) -> str:
        cells = "".join(str(v) for v in self.cells) or "-"
        flips = ",".join("quit" if t == QUIT else str(t) for t in self.flips) or "-"
        return f"config {self.config} tries {self.tries} cells {cells} flips {flips}"

    def action_to_string(self, action: int) -> str:
        if self.round is None:
            if not self.game.iid and self.config < 0:
                return f"configuration {action}"
            return f"tile {len(self.cells)} = {action}"
        if action == QUIT:
            return "quit"
        row, col = divmod(int(action), 5)
        return f"flip {row + 1},{col + 1}"
