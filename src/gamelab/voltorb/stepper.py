"""A lean Voltorb Flip round for the environments: the rules of :class:`gamelab.voltorb.rules.
Round` on flat arrays, with boards dealt in batches (:mod:`gamelab.voltorb._deal_kernels`).

:class:`RoundStepper` plays one round after another from a seeded generator: ``reset(rng)``
takes the next dealt board, ``flip(tile)`` / ``quit()`` play it and keep ``revealed`` (-1
hidden, else the card), ``mask`` (1 for a legal action: the hidden tiles and quitting),
``coins`` and ``outcome`` up to date, as ``Round.flip`` does (a Voltorb loses with 0 coins, the
last 2 or 3 wins, coins multiply up to 50,000). ``state()`` gives the same round as a
:class:`gamelab.voltorb.state.VoltorbState` (for the oracle and the text form); the tests play
both side by side.

Boards come from a queue dealt in batches that double from 1 to :data:`MAX_BATCH` after each
new generator (a reseeded round costs one board), from the generator's uniforms taken in order
(``rng.random``, a block at a time, the rest kept for the next batch), so the sequence of
boards depends only on the generator, not on the batches.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamelab.voltorb._deal_kernels import deal_boards, level_tables
from gamelab.voltorb.rules import TILES, VoltorbSetting
from gamelab.voltorb.state import QUIT, VoltorbGame, VoltorbState

MAX_BATCH = 256
#: uniforms drawn per board wanted (a level-8 hgss board takes about 22: a configuration, up to
#: 18 cards, about 1.2 tries)
UNIFORMS_PER_BOARD = 32
#: uniforms drawn from a new generator for its first board: enough for three level-8 tries, so
#: a reseeded round (one board per generator) almost never needs a second draw and kernel call
FIRST_UNIFORMS = 64
MAX_COINS = 50_000


class BoardQueue:
    """Boards of one level and generator, dealt ahead from the generator last given.

    A stream may also start from its first uniforms alone (:meth:`take_fresh`: a reseeded
    environment computes them from the seed without building the generator); the generator
    that continues it is asked for (``source()``) only when the queue needs more, or when
    :meth:`take` is next called with it."""

    def __init__(self, setting: VoltorbSetting) -> None:
        self.generator, self.level = setting.generator, setting.level
        self._tables = level_tables(setting.generator, setting.level)
        self._rng: np.random.Generator | None = None
        self._source: Callable[[], np.random.Generator] | None = None
        self._batch = 1
        self._next = 0
        self._boards = np.ones((MAX_BATCH, TILES), dtype=np.int8)
        self._configs = np.zeros(MAX_BATCH, dtype=np.int64)
        self._clues = np.zeros((MAX_BATCH, 4, 5), dtype=np.int64)
        self._filled = 0
        self._u = np.zeros(0)
        self._pos = 0

    def take(self, rng: np.random.Generator) -> int:
        """The slot of the next board dealt from `rng` (valid until the next call)."""
        if rng is not self._rng:
            if self._source is not None and rng is self._source():  # the fresh stream goes on
                self._rng, self._source = rng, None
            else:
                self._restart(rng, None, rng.random(FIRST_UNIFORMS))
        if self._next == self._filled:
            self._deal()
        slot = self._next
        self._next += 1
        return slot

    def take_fresh(self, first: np.ndarray, source: Callable[[], np.random.Generator]) -> int:
        """The slot of the first board of a new stream: a generator whose first
        :data:`FIRST_UNIFORMS` draws of ``random`` are `first`; ``source()`` returns that
        generator positioned after them, and is called only if the queue needs more."""
        self._restart(None, source, first)
        self._deal()
        self._next = 1
        return 0

    def _restart(
        self,
        rng: np.random.Generator | None,
        source: Callable[[], np.random.Generator] | None,
        first: np.ndarray,
    ) -> None:
        self._rng, self._source = rng, source
        self._batch, self._next, self._filled = 1, 0, 0
        self._u, self._pos = first, 0

    def _deal(self) -> None:
        """Deal the next batch of boards from the uniforms left, drawing more as needed."""
        mode, counts, limits, cumulative = self._tables
        n = self._batch
        while True:
            dealt, self._pos = deal_boards(
                self._u,
                self._pos,
                n,
                mode,
                counts,
                limits,
                cumulative,
                self._boards,
                self._configs,
                self._clues,
            )
            if dealt:
                break
            # the uniforms left cannot finish a board: keep them, draw the next ones
            if self._rng is None:
                assert self._source is not None
                self._rng, self._source = self._source(), None
            more = self._rng.random(UNIFORMS_PER_BOARD * n)
            self._u, self._pos = np.concatenate((self._u[self._pos :], more)), 0
        self._next, self._filled = 0, dealt
        self._batch = min(2 * n, MAX_BATCH)

    def config_id(self, slot: int) -> int:
        c = int(self._configs[slot])
        return -1 if c < 0 else 10 * (self.level - 1) + c


class RoundStepper:
    """Rounds of `game` (a :class:`VoltorbGame`) played on flat arrays (see the module)."""

    #: uniforms a new generator's first board is dealt from (:meth:`reset_fresh`)
    fresh_uniforms = FIRST_UNIFORMS

    def __init__(self, game: VoltorbGame) -> None:
        self.game = game
        self.queue = BoardQueue(game.setting)
        self.board: list[int] = [1] * TILES
        self.revealed = np.full(TILES, -1, dtype=np.int64)
        self.mask = np.zeros(TILES + 1, dtype=np.int8)
        self.clues = np.zeros((4, 5), dtype=np.int64)
        self.coins = 0
        self.outcome: str | None = None
        self.config = -1
        self.multipliers_left = 0
        self.flips: list[int] = []

    def reset(self, rng: np.random.Generator) -> None:
        """Start the next round, on the next board dealt from `rng`."""
        self._start(self.queue.take(rng))

    def reset_fresh(self, first: np.ndarray, source: Callable[[], np.random.Generator]) -> None:
        """Start a round on the first board of a new generator, given its first uniforms (see
        :meth:`BoardQueue.take_fresh`)."""
        self._start(self.queue.take_fresh(first, source))

    def _start(self, slot: int) -> None:
        q = self.queue
        self.board = board = q._boards[slot].tolist()
        self.clues = q._clues[slot]  # a view: the queue deals again only at a later reset
        self.config = q.config_id(slot)
        self.revealed.fill(-1)
        self.mask.fill(1)
        self.coins = 0
        self.flips = []
        self.multipliers_left = board.count(2) + board.count(3)
        self.outcome = None if self.multipliers_left else "won"
        if self.outcome is not None:
            self.mask.fill(0)

    def flip(self, tile: int) -> int:
        value = self.board[tile]
        self.revealed[tile] = value
        self.mask[tile] = 0
        self.flips.append(tile)
        if value == 0:
            self.coins = 0
            self._end("lost")
            return 0
        self.coins = value if self.coins == 0 else min(self.coins * value, MAX_COINS)
        if value >= 2:
            self.multipliers_left -= 1
            if self.multipliers_left == 0:
                self._end("won")
        return value

    @property
    def done(self) -> bool:
        return self.outcome is not None

    def step(self, action: int) -> float:
        """Play a legal `action` (a tile, or :data:`QUIT`); the reward (the return at the end)."""
        if action == QUIT:
            self.quit()
        else:
            self.flip(action)
        return self.returns()

    def sync(self, state: VoltorbState, action: int) -> None:
        """Apply to `state` the action just stepped."""
        state.apply(action)

    def quit(self) -> None:
        self.flips.append(QUIT)
        self._end("quit")

    def _end(self, outcome: str) -> None:
        self.outcome = outcome
        self.mask.fill(0)

    def returns(self) -> float:
        """The return of the finished round (0 while it goes on), as the state protocol's."""
        if self.outcome is None:
            return 0.0
        if self.game.objective == "win":
            return 1.0 if self.outcome == "won" else 0.0
        return float(self.coins)

    def state(self) -> VoltorbState:
        """This round as a state of the protocol (the deal, then the flips so far)."""
        cells = "".join(str(v) for v in self.board)
        flips = ",".join("quit" if t == QUIT else str(t) for t in self.flips) or "-"
        text = f"config {self.config} tries 1 cells {cells} flips {flips}"
        return self.game.state_from_text(text)
