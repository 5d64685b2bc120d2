"""Endgame tablebases: the exact value of every board with at most N seeds, by retrograde analysis.

The value of a board (side to move first) is the mover's final seed difference over the seeds
still on the board under perfect play, -n..n, stored as one int8 per board. Boards with n seeds
are indexed by their rank among the C(n+11, 11) ways to place n seeds in 12 houses, seen from the
mover's row, so no side-to-move bit is needed; levels are concatenated (C(N+12, 12) bytes in
total: 2.7 MB for N = 12, 17 MB for N = 15).

Each level is solved after the smaller ones (a capture always moves to a smaller level): the
least and greatest fixed points of v(p) = max over moves (captured - v(child)) are computed by
sweeps, and endless capture-free play is valued as an even split (see
:func:`gamelab.oware._tablebase_kernels.build_level`). The stores are ignored: the table is the game of the
board seeds played until nobody can move, which decides the same winner as Abapa's stop at 25.
Under Abapa a capture-free cycle ends at its first repetition with each side keeping its own row,
which depends on the history; the table does not model that (neither does Aalina's search).

Cost: about C(N+11, 11)·6 move generations plus a few dozen sweeps per level; N = 12 builds in
seconds with numba (see ``benchmarks/oware_tablebase.py``). Built tables are cached through
:func:`gamelab.core.cache.cached_arrays`. The default table (N = 12, the engine's) ships with the
package (``data/tablebase-<key>.xz``, 0.7 MB: the values xz-compressed, made by
``tools/make_oware_tablebase.py``; a test compares it with a fresh build), so an engine's first
search loads it in milliseconds instead of compiling and running the builder;
``gamelab oware tablebase`` still builds (and caches) what it describes. Reference: Aalina's ``EGTBSolver`` ships N = 12;
Romein & Bal (2003) solved Awari by the same kind of retrograde analysis.
"""

from __future__ import annotations

import lzma
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from gamelab.core.cache import cache_key, cached_arrays
from gamelab.oware import _tablebase_kernels as K
from gamelab.oware.rules import ABAPA, TABLEBASE_SEEDS, Position, apply_move, legal_offsets

VERSION = 1
MAX_SUPPORTED = 16
#: the table that ships with the package: levels 0 to this
SHIPPED_SEEDS = TABLEBASE_SEEDS


@dataclass(frozen=True)
class Tablebase:
    """Values for every board with at most `max_seeds` seeds (empty when max_seeds < 0)."""

    max_seeds: int
    values: np.ndarray  # int8, concatenated levels
    offsets: np.ndarray  # int64, level n starts at offsets[n]
    build_seconds: tuple[float, ...] = ()

    @classmethod
    def empty(cls) -> Tablebase:
        return cls(-1, np.zeros(1, dtype=np.int8), np.zeros(1, dtype=np.int64))

    def covers(self, position: Position) -> bool:
        return position.rules.is_abapa and position.seeds_on_board() <= self.max_seeds

    def board_value(self, position: Position) -> int:
        """The mover's best final difference of the seeds on the board."""
        if not self.covers(position):
            raise ValueError(
                f"the tablebase covers Abapa boards with at most {self.max_seeds} seeds; "
                f"{position.to_text()} has {position.seeds_on_board()}"
            )
        b = np.array([*position.houses, *position.stores], dtype=np.int64)
        return int(K.tb_board_value(b, position.to_move, self.values, self.offsets, _binom()))

    def final_difference(self, position: Position) -> int:
        """Mover's final store difference under perfect play of the board seeds."""
        s = position.stores
        return s[position.to_move] - s[1 - position.to_move] + self.board_value(position)

    @property
    def size(self) -> int:
        return int(self.values.size) if self.max_seeds >= 0 else 0


@lru_cache(maxsize=1)
def _binom() -> np.ndarray:
    # the plain-Python table (equal to the kernel's, a test checks): nothing to compile
    return K.binomial_table_python()


def level_size(n: int) -> int:
    return int(_binom()[n + 11, 11])


def compute_tablebase(max_seeds: int) -> dict[str, np.ndarray]:
    """Solve every level 0..max_seeds; returns values, offsets and per-level build seconds."""
    if not 0 <= max_seeds <= MAX_SUPPORTED:
        raise ValueError(f"tablebase seeds must be between 0 and {MAX_SUPPORTED}, got {max_seeds}")
    binom = _binom()
    offsets = K.level_offsets_python(max_seeds, binom)
    values = np.zeros(int(offsets[-1]), dtype=np.int8)
    seconds = np.zeros(max_seeds + 1)
    sweeps = np.zeros(max_seeds + 1, dtype=np.int64)
    for n in range(max_seeds + 1):
        t0 = time.perf_counter()
        sweeps[n] = K.build_level(n, values, offsets, binom)
        seconds[n] = time.perf_counter() - t0
    return {"values": values, "offsets": offsets, "seconds": seconds, "sweeps": sweeps}


def _cache_params(max_seeds: int) -> dict[str, object]:
    return {"max_seeds": max_seeds, "rules": "abapa"}


def built_tablebase(max_seeds: int) -> Tablebase:
    """The tablebase to `max_seeds` as built on this machine: from the gamelab cache, or built
    (and cached) now, with each level's build seconds."""
    arrays = cached_arrays(
        "oware-tablebase", _cache_params(max_seeds), VERSION, lambda: compute_tablebase(max_seeds)
    )
    return Tablebase(
        max_seeds, arrays["values"], arrays["offsets"], tuple(float(x) for x in arrays["seconds"])
    )


def shipped_tablebase_path() -> Path:
    """Where the package ships the table to SHIPPED_SEEDS: named by the cache's key, so a new
    format (VERSION) finds none and builds instead."""
    key = cache_key("oware-tablebase", _cache_params(SHIPPED_SEEDS), VERSION)
    return Path(__file__).parent / "data" / f"tablebase-{key}.xz"


@lru_cache(maxsize=1)
def _shipped_values() -> np.ndarray | None:
    """The shipped table's values (levels 0 to SHIPPED_SEEDS), or None when the file is missing
    or damaged (xz checks its own CRC; the length must be the levels')."""
    try:
        raw = lzma.decompress(shipped_tablebase_path().read_bytes())
    except (OSError, lzma.LZMAError):
        return None
    if len(raw) != K.level_offsets_python(SHIPPED_SEEDS, _binom())[-1]:
        return None
    # writable, as the cache's arrays are: the kernels take one array type
    return np.frombuffer(bytearray(raw), dtype=np.int8)


def load_tablebase(max_seeds: int = TABLEBASE_SEEDS) -> Tablebase:
    """The tablebase to `max_seeds`: the shipped table's first levels up to SHIPPED_SEEDS, else
    from the cache or built (and cached) now; past MAX_SUPPORTED seeds, memory-mapped from the
    endgame database on disk (:mod:`gamelab.oware.tablebase_disk`), which must have been built
    that far."""
    if max_seeds < 0:
        return Tablebase.empty()
    if max_seeds > MAX_SUPPORTED:
        return open_database(max_seeds)
    shipped = _shipped_values() if max_seeds <= SHIPPED_SEEDS else None
    if shipped is None:
        return built_tablebase(max_seeds)
    offsets = K.level_offsets_python(max_seeds, _binom())
    return Tablebase(max_seeds, shipped[: offsets[-1]], offsets)


def open_database(max_seeds: int, root: Path | None = None) -> Tablebase:
    """The table to `max_seeds` memory-mapped from the endgame database on disk (under the
    gamelab cache, or `root`): a ValueError saying how to build it when it does not reach."""
    from gamelab.oware.tablebase_disk import open_levels

    values, offsets, seconds = open_levels(max_seeds, root)
    return Tablebase(max_seeds, values, offsets, seconds)


def exact_reach() -> int:
    """The most seeds on the board for which this machine has exact values: the endgame
    database's reach where it has been built past the default table (``gamelab oware
    tablebase --seeds N``), else the default table's TABLEBASE_SEEDS. Reads the database's
    checksums when no verification stamp covers it as it is now (seconds for 1.25 GB, once per
    change of the file); :func:`ready_reach` never waits."""
    from gamelab.oware.tablebase_disk import database_reach

    return max(TABLEBASE_SEEDS, database_reach())


def ready_reach() -> int:
    """The best table at hand now, never waiting: the endgame database's reach once its
    checksums are verified for the file as it is (a stamp beside it, see
    :func:`gamelab.oware.tablebase_disk.database_levels`), else the default table's
    TABLEBASE_SEEDS while a background process verifies it (started here, once). What the web
    page's engine and exact verdicts use, and the engine's default everywhere a player asks:
    ``load_tablebase(ready_reach())``. A damaged level is never used: the reach stops below it."""
    from gamelab.oware.tablebase_disk import verified_reach
    from gamelab.oware.tablebase_verify import verify_in_background

    reach = verified_reach()
    if reach is None:
        verify_in_background()
        return TABLEBASE_SEEDS
    return max(TABLEBASE_SEEDS, reach)


def reach_settled() -> bool:
    """False while the database waits for its verification (:func:`ready_reach` will rise):
    answers found meanwhile with the default table are not to be memoised."""
    from gamelab.oware.tablebase_disk import verified_reach

    return verified_reach() is not None


def engine_seeds(tablebase_seeds: int | None) -> int:
    """The table an engine probes: `tablebase_seeds` as given (-1 for none), or with None the
    best at hand (:func:`ready_reach`)."""
    return ready_reach() if tablebase_seeds is None else tablebase_seeds


def warm_up() -> None:
    """Compile the look-up kernel (``gamelab warmup oware``) with the 4-seed table on a
    position of 2 seeds (the search kernels probe the table inside their own code)."""
    load_tablebase(4).board_value(Position((1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0), (23, 23)))


@dataclass(frozen=True)
class TablebaseLevel:
    """One level of a tablebase: boards with exactly `seeds` seeds."""

    seeds: int
    boards: int
    build_seconds: float
    mover_wins_share: float
    sweeps: int | None = None


@dataclass(frozen=True)
class TablebaseSummary:
    """Size and build cost of a tablebase, level by level (`gamelab oware tablebase`)."""

    max_seeds: int
    boards: int
    bytes: int
    build_seconds: float
    load_seconds: float
    mover_wins: int
    levels: list[TablebaseLevel] = field(default_factory=list)


def tablebase_levels(
    values: np.ndarray,
    offsets: np.ndarray,
    seconds: np.ndarray | tuple[float, ...],
    sweeps: np.ndarray | None = None,
) -> list[TablebaseLevel]:
    """Per-level boards, build seconds and share of boards the mover wins."""
    out = []
    for n in range(len(offsets) - 1):
        level = values[offsets[n] : offsets[n + 1]]
        out.append(
            TablebaseLevel(
                seeds=n,
                boards=int(level.size),
                build_seconds=round(float(seconds[n]), 3),
                mover_wins_share=round(float(np.mean(level > 0)), 3) if level.size else 0.0,
                sweeps=None if sweeps is None else int(sweeps[n]),
            )
        )
    return out


def tablebase_summary(max_seeds: int = TABLEBASE_SEEDS) -> TablebaseSummary:
    """Load (or build and cache) the tablebase to `max_seeds` and describe it."""
    if not 0 <= max_seeds <= MAX_SUPPORTED:
        raise ValueError(f"tablebase seeds must be between 0 and {MAX_SUPPORTED}, got {max_seeds}")
    t0 = time.perf_counter()
    tb = built_tablebase(max_seeds)
    seconds = time.perf_counter() - t0
    return TablebaseSummary(
        max_seeds=max_seeds,
        boards=tb.size,
        bytes=int(tb.values.nbytes),
        build_seconds=round(sum(tb.build_seconds), 2),
        load_seconds=round(seconds, 2),
        mover_wins=int(np.count_nonzero(tb.values > 0)),
        levels=tablebase_levels(tb.values, tb.offsets, tb.build_seconds),
    )


def exhaustive_board_value(position: Position, limit: int = 2_000_000) -> int:
    """Board-seed value by plain exhaustive search with the game's own history (for checking).

    Plays the stores-free game (no stop at 25) with Abapa moves; a repetition of (houses, side)
    on the current line ends the game with the board split evenly, as the table assumes. Raises
    if more than `limit` nodes would be needed."""
    nodes = [0]

    def value(houses: tuple[int, ...], side: int, path: set) -> int:
        nodes[0] += 1
        if nodes[0] > limit:
            raise ValueError(f"exhaustive search needs more than {limit} nodes")
        n = sum(houses)
        moves = [] if n == 0 else legal_offsets(houses, side)
        if not moves:
            own = sum(houses[6 * side : 6 * side + 6])
            return own - (n - own)
        best = -(10**9)
        for m in moves:
            h = list(houses)
            stores = [0, 0]
            captured = apply_move(h, stores, side, m, ABAPA)
            key = (tuple(h), 1 - side)
            if captured:
                v = captured - value(tuple(h), 1 - side, {key})
            elif key in path:
                v = 0
            else:
                path.add(key)
                v = -value(tuple(h), 1 - side, path)
                path.discard(key)
            best = max(best, v)
        return best

    start = (position.houses, position.to_move)
    return value(position.houses, position.to_move, {start})
