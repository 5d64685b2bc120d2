"""Exact posterior over hidden boards given the clues and the revealed tiles.

Every consistent board is enumerated (:mod:`gamelab.voltorb._posterior_kernels`) and weighted by the chosen
generator's prior (:mod:`gamelab.voltorb.prior`): for ``hgss`` the configuration weights, the exact
valid-board counts and the free-multiplier test; for ``bulbapedia`` the same without the test; for
the i.i.d. generators the product of tile probabilities. Per tile this gives P(Voltorb), P(1),
P(2), P(3). Cost: about a millisecond per fresh enumeration at level 8 (median), then flips only
filter the board list (:meth:`Posterior.observe`).

While a round is still running the player also knows it is not won yet, so boards whose every 2
and 3 is already revealed are dropped (:meth:`Posterior.still_playing`).

    >>> from gamelab.voltorb.rules import Clues, VoltorbSetting, generate_board
    >>> import numpy as np
    >>> board, _ = generate_board(VoltorbSetting(8, "hgss"), np.random.default_rng(3))
    >>> post = Posterior.from_clues(Clues.from_board(board), VoltorbSetting(8, "hgss"))
    >>> bool(abs(post.tile_probabilities().sum(axis=1) - 1).max() < 1e-9)
    True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gamelab.core.tiers import Tiered, has_machine_code
from gamelab.voltorb._posterior_kernels import (
    ROW_PATTERNS,
    enumerate_boards,
    enumerate_boards_python,
)
from gamelab.voltorb.prior import weight_table
from gamelab.voltorb.rules import SIZE, TILES, BoardGenerator, Clues, VoltorbSetting

NO_BOARD = "no board is consistent with these clues"

#: the enumeration, run as Python while its kernel is not compiled (:class:`Tiered`) for 1.5
#: CPU-s per process (about its compiling's cost): a level-1 to 8 opening takes 0.06 CPU-s
#: (median), at most about 2 (`benchmarks/voltorb_interpreted.py --enumeration 150 --seed 5`)
ENUMERATION = Tiered(enumerate_boards, ("gamelab.voltorb._posterior_kernels",), budget=1.5)


def _enumeration_arguments(clues: Clues, revealed: dict[int, int]) -> tuple[np.ndarray, ...]:
    known = np.full(TILES, -1, dtype=np.int64)
    for tile, value in revealed.items():
        known[tile] = value
    return (
        ROW_PATTERNS,
        clues.row_sums,
        clues.row_voltorbs,
        clues.col_sums,
        clues.col_voltorbs,
        known,
    )


def compile_enumeration() -> None:
    """Compile the enumeration's kernel here, into numba's cache, unless its machine code is
    at hand (compiled in this process or cached). Called once before a run of many rounds
    (:mod:`gamelab.voltorb.simulate`): on an empty cache each worker process would otherwise run
    the enumeration as Python for its budget (:data:`ENUMERATION`, 1.5 CPU-s), then compile it
    for itself (about 1.6 CPU-s); now they load it."""
    board = np.ones(TILES, dtype=np.int64)
    board[0] = 0
    arguments = _enumeration_arguments(Clues.from_board(board), {})
    if not has_machine_code(ENUMERATION.kernel, arguments):
        ENUMERATION.kernel(*arguments)


def weighted_tile_sums(weights: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``weights @ mask`` for a (n,) vector of finite float weights and an (n, k) boolean mask,
    summed the same way on every machine: each column by numpy's own (pairwise) summation, never
    by a BLAS call, whose summation order depends on the number of BLAS threads. A strategy's
    choice between tiles of equal odds then never depends on the machine (the same seed gives
    the same game)."""
    mask_t = np.ascontiguousarray(np.asarray(mask, dtype=bool).T)
    return _column_sums(np.asarray(weights, dtype=np.float64), mask_t)


#: boards up to which :meth:`Posterior.tile_probabilities` sums the four values at once (an
#: array of 800 bytes a board; the same sums, bit for bit, as one value at a time)
_STACKED_SUMS = 4096


def _column_sums(weights: np.ndarray, mask_t: np.ndarray) -> np.ndarray:
    """Row i of the C-contiguous (k, n) boolean `mask_t`: the sum of `weights` where it holds,
    each row summed by numpy's pairwise summation of its n terms (the weight, or 0 where it does
    not hold: a finite weight times 1.0 or 0.0). One reduction along the last, contiguous axis of
    a (k, n) array: numpy sums each row with the pairwise routine it uses for a single vector, so
    every sum is bit for bit the one a loop over the columns gives, and tens of times faster
    (``tests/voltorb/test_voltorb_ties.py`` compares them)."""
    return np.add.reduce(np.multiply(mask_t, weights), axis=1)


class InconsistentCluesError(ValueError):
    """No board fits the clues and revealed tiles (or none has positive prior weight)."""


def _name_line(clues: Clues, revealed: dict[int, int]) -> str:
    """Which line breaks the clues, checked line by line with the revealed tiles."""
    for kind, sums, volts in (
        ("row", clues.row_sums, clues.row_voltorbs),
        ("column", clues.col_sums, clues.col_voltorbs),
    ):
        for i in range(SIZE):
            tiles = (
                [i * SIZE + c for c in range(SIZE)]
                if kind == "row"
                else [r * SIZE + i for r in range(SIZE)]
            )
            seen = [revealed[t] for t in tiles if t in revealed]
            hidden = SIZE - len(seen)
            rest_v = int(volts[i]) - seen.count(0)
            rest_s = int(sums[i]) - sum(seen)
            cards = hidden - rest_v
            if rest_v < 0 or rest_v > hidden or not cards <= rest_s <= 3 * cards:
                return (
                    f"{kind} {i + 1} (sum {int(sums[i])}, {int(volts[i])} Voltorbs) cannot hold "
                    f"the revealed cards {seen}"
                )
    return "the rows and columns cannot be satisfied together"


def _levels_hint(clues: Clues, generator: BoardGenerator, feats: np.ndarray) -> str:
    """At which levels the generator can deal one of the boards (features `feats`) that fit."""
    from gamelab.voltorb.rules import LEVELS

    ok = []
    for lv in LEVELS:
        table = weight_table(generator, lv, clues.voltorbs, clues.excess)
        w = table[feats[:, 0], feats[:, 1], np.minimum(feats[:, 2], table.shape[2] - 1)]
        if (w > 0).any():
            ok.append(lv)
    if not ok:
        return f"no level of the {generator} generator deals them"
    return (
        f"these clues are possible at level{'s' if len(ok) > 1 else ''} {', '.join(map(str, ok))}"
    )


@dataclass
class Posterior:
    """Consistent boards (n x 25 int8) with normalised prior weights (n,), the revealed tiles and
    the clues they were enumerated from (kept by every posterior derived from this one)."""

    boards: np.ndarray
    weights: np.ndarray
    revealed: dict[int, int]
    clues: Clues
    _probabilities: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)
    _columns: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def from_clues(
        cls,
        clues: Clues,
        setting: VoltorbSetting,
        revealed: dict[int, int] | None = None,
        *,
        python: bool = False,
    ) -> Posterior:
        generator, level = setting.generator, setting.level
        revealed = dict(revealed or {})
        enum = enumerate_boards_python if python else ENUMERATION
        boards, feats = enum(*_enumeration_arguments(clues, revealed))
        if len(boards) == 0:
            raise InconsistentCluesError(f"{NO_BOARD}: {_name_line(clues, revealed)}")
        table = weight_table(generator, level, clues.voltorbs, clues.excess)
        weights = table[feats[:, 0], feats[:, 1], np.minimum(feats[:, 2], table.shape[2] - 1)]
        keep = weights > 0
        if not keep.any():
            fit = f"{len(boards)} board fits" if len(boards) == 1 else f"{len(boards)} boards fit"
            err = InconsistentCluesError(
                f"{NO_BOARD}: {fit} the lines, but none can come from the "
                f"{generator} generator at level {level} ({clues.voltorbs} Voltorbs, "
                f"#2s + 2x#3s = {clues.excess}); {_levels_hint(clues, generator, feats)}"
            )
            err.field = "level"  # type: ignore[attr-defined]
            raise err
        boards, weights = boards[keep], weights[keep]
        return cls(boards, weights / weights.sum(), revealed, clues)

    @property
    def count(self) -> int:
        """Number of consistent boards with positive weight."""
        return int(len(self.boards))

    def _tiles(self) -> np.ndarray:
        """The boards tile by tile (25 x n, C order), made once per posterior for its sums."""
        if self._columns is None:
            self._columns = np.ascontiguousarray(self.boards.T)
        return self._columns

    def tile_probabilities(self) -> np.ndarray:
        """(25, 4): P(value) per tile, value 0 = Voltorb (computed once per posterior: a
        strategy asks for them several times a flip)."""
        if self._probabilities is None:
            tiles, weights = self._tiles(), np.asarray(self.weights, dtype=np.float64)
            if tiles.shape[1] <= _STACKED_SUMS:  # the four values' sums in one reduction
                values = np.arange(4, dtype=tiles.dtype)[:, None, None]
                sums = np.add.reduce(np.multiply(tiles == values, weights), axis=2)
                self._probabilities = np.ascontiguousarray(sums.T)
            else:
                out = np.empty((TILES, 4))
                for v in range(4):
                    out[:, v] = _column_sums(weights, tiles == v)
                self._probabilities = out
        return self._probabilities.copy()

    def p_voltorb(self) -> np.ndarray:
        if self._probabilities is not None:  # the same sums, bit for bit
            return self._probabilities[:, 0].copy()
        return _column_sums(np.asarray(self.weights, dtype=np.float64), self._tiles() == 0)

    def p_multiplier(self) -> np.ndarray:
        """P(tile is a 2 or a 3)."""
        return _column_sums(np.asarray(self.weights, dtype=np.float64), self._tiles() >= 2)

    def observe(self, tile: int, value: int) -> Posterior:
        """The posterior after `tile` showed `value` (raises if impossible)."""
        mask = self.boards[:, tile] == value
        if not mask.any():
            raise InconsistentCluesError(
                f"{NO_BOARD}: tile row {tile // SIZE + 1}, column {tile % SIZE + 1} cannot be {value}"
            )
        w = self.weights[mask]
        return Posterior(self.boards[mask], w / w.sum(), {**self.revealed, tile: value}, self.clues)

    def won_mask(self) -> np.ndarray:
        """Boards whose every 2 and 3 is already revealed."""
        hidden = np.ones(TILES, dtype=bool)
        hidden[list(self.revealed)] = False
        return np.asarray(~((self.boards >= 2) & hidden).any(axis=1))

    def still_playing(self) -> Posterior:
        """Condition on the round not being won yet (the game ends as soon as it is)."""
        won = self.won_mask()
        if won.all():
            return self
        keep = ~won
        w = self.weights[keep]
        return Posterior(self.boards[keep], w / w.sum(), dict(self.revealed), self.clues)

    def candidates(self) -> np.ndarray:
        """Unrevealed tiles that can still be a 2 or a 3 (the only ones worth flipping)."""
        hidden = np.ones(TILES, dtype=bool)
        hidden[list(self.revealed)] = False
        return np.flatnonzero(hidden & (self.boards >= 2).any(axis=0))


def posterior_for(
    clues: Clues, setting: VoltorbSetting, revealed: dict[int, int] | None = None
) -> Posterior:
    """Posterior for an ongoing round (not yet won)."""
    return Posterior.from_clues(clues, setting, revealed).still_playing()


def playing_posterior(clues: Clues, revealed: dict[int, int], setting: VoltorbSetting) -> Posterior:
    """The posterior given the clues, the flips and that the round is not won yet."""
    post = Posterior.from_clues(clues, setting, revealed)
    if post.won_mask().all():
        raise ValueError(
            "every 2 and 3 is already revealed on every consistent board: the round is won"
        )
    return post.still_playing()
