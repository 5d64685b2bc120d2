"""Game-tree search: the blog's plain alpha-beta and the engine (negamax, PVS, TT, ordering, time).

* :func:`blog_alphabeta` — the seed blog's player: fixed-depth alpha-beta over moves in house
  order, no table, with the blog's evaluation. Cost ~b^(d/2)..b^d nodes (b ≤ 6).
* :class:`Engine` — negamax with iterative deepening, principal-variation search, a
  transposition table with Zobrist keys (always-replace, 2^20 entries by default), move ordering
  (hash move, captures by size, history heuristic) and time control; boards with at most N seeds
  are looked up in the endgame tablebase. The design follows Aalina, the engine of the Aualé
  GUI (research notes §3). The kernel is :func:`gamelab.oware._search_kernels.search_root`.
* :func:`twin_negamax` — the readable plain-Python twin of the kernel (same terminal scores,
  evaluation and tablebase probes, no table): at a fixed depth it returns the same value.

Scores are for the side to move: the evaluation's units (25 per seed for ``auale``), and
``±(10000 − ply) + 25·margin`` for a decided game. The search ignores the repetition rule (as
Aalina does); the game itself applies it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from gamelab.core.serialise import attributes
from gamelab.core.stoppable import run_stoppable
from gamelab.oware import _search_kernels as K
from gamelab.oware._tablebase_kernels import binomial_table_python
from gamelab.oware.evaluation import (
    auale_evaluation,
    blog_evaluation,
    evaluation_code,
    final_score,
)
from gamelab.oware.rules import TABLEBASE_SEEDS, Position, apply_move, legal_offsets
from gamelab.oware.tablebase import Tablebase, load_tablebase


def board_array(position: Position) -> np.ndarray:
    return np.array([*position.houses, *position.stores], dtype=np.int64)


@lru_cache(maxsize=1)
def _binom() -> np.ndarray:
    # the plain-Python table (equal to the kernel's, a test checks): nothing to compile
    return binomial_table_python()


@lru_cache(maxsize=1)
def zobrist_table() -> np.ndarray:
    """Random 64-bit keys: rows 0-11 houses (by seed count), 12 South's store, 13 side to move."""
    rng = np.random.default_rng(20260311)
    return rng.integers(0, 2**63 - 1, size=(14, 49), dtype=np.int64).astype(np.uint64)


def _require_playable(position: Position) -> None:
    if position.is_over():
        raise ValueError(f"the game is over in {position.to_text()}; there is nothing to search")


# --------------------------------------------------------------------------- blog baseline


def blog_alphabeta(position: Position, depth: int) -> tuple[int, int, int]:
    """(best move, score, nodes) of the blog's plain alpha-beta at `depth` with its evaluation."""
    if depth < 1:
        raise ValueError(f"search depth must be at least 1, got {depth}")
    _require_playable(position)
    counters = np.zeros(4, dtype=np.int64)
    counters[1] = 2**62
    empty = Tablebase.empty()
    tt = np.zeros(1, dtype=np.uint64)
    small = np.zeros(1, dtype=np.int32)
    score = run_stoppable(  # without the GIL: a signal stops it at once
        K.search_root,
        board_array(position),
        position.to_move,
        depth,
        K.EVAL_BLOG,
        position.rules.gs_code,
        tt,
        small,
        small.astype(np.int16),
        small.astype(np.int8),
        small.astype(np.int8),
        zobrist_table(),
        np.zeros((2, 6), dtype=np.int64),
        counters,
        empty.values,
        empty.offsets,
        _binom(),
        False,
        True,
        stop=lambda: counters.__setitem__(1, 0),  # the node limit: the search returns
    )
    return int(counters[3]), int(score), int(counters[0])


# --------------------------------------------------------------------------- twin


def twin_negamax(
    position: Position,
    depth: int,
    evaluation: str = "auale",
    tablebase: Tablebase | None = None,
    nodes: list[int] | None = None,
) -> int:
    """Plain-Python negamax alpha-beta with the kernel's scores (fixed depth, no table).

    `nodes`, if given, is a one-element list incremented per node visited."""
    counter = nodes if nodes is not None else [0]
    kind = evaluation_code(evaluation)
    tb = tablebase if tablebase is not None and tablebase.max_seeds >= 0 else None
    rules = position.rules
    evaluate = blog_evaluation if kind == K.EVAL_BLOG else auale_evaluation

    def diff_if_ended(houses, stores, side):
        own = sum(houses[6 * side : 6 * side + 6])
        return stores[side] + own - (stores[1 - side] + sum(houses) - own)

    def search(houses, stores, side, depth, alpha, beta, ply):
        counter[0] += 1
        if max(stores) > 24 or stores[0] == stores[1] == 24:
            return final_score(diff_if_ended(houses, stores, side), ply, kind)
        if ply > 0 and tb is not None and sum(houses) <= tb.max_seeds:
            p = Position(tuple(houses), tuple(stores), side)
            return final_score(tb.final_difference(p), ply, kind)
        moves = legal_offsets(tuple(houses), side, rules)
        if not moves:
            return final_score(diff_if_ended(houses, stores, side), ply, kind)
        if depth == 0:
            return evaluate(houses, stores, side)
        best = -K.INF
        for m in moves:
            h, s = list(houses), list(stores)
            apply_move(h, s, side, m, rules)
            v = -search(h, s, 1 - side, depth - 1, -beta, -alpha, ply + 1)
            best = max(best, v)
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return best

    _require_playable(position)
    return search(
        list(position.houses), list(position.stores), position.to_move, depth, -K.INF, K.INF, 0
    )


# --------------------------------------------------------------------------- engine


@dataclass
class SearchResult:
    best_move: int
    score: int
    pv: list[int]
    depth: int
    nodes: int
    seconds: float
    tablebase_hit: bool = False

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def __json__(self) -> dict[str, Any]:
        return {
            **attributes(self, "best_move", "score", "pv", "depth", "nodes"),
            "nps": round(self.nps, 1),
            "seconds": round(self.seconds, 4),
        }


@dataclass
class Engine:
    """The strong player. `tablebase_seeds` < 0 disables the tablebase; `tt_bits` sizes the table.

    >>> Engine(tablebase_seeds=-1).search(Position.initial(), depth=4).depth
    4
    """

    evaluation: str = "auale"
    tablebase_seeds: int = TABLEBASE_SEEDS
    tt_bits: int = 20
    use_tt: bool = True
    tablebase: Tablebase = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.kind = evaluation_code(self.evaluation)
        if not 10 <= self.tt_bits <= 26:
            raise ValueError(f"tt_bits must be between 10 and 26, got {self.tt_bits}")
        self.tablebase = load_tablebase(self.tablebase_seeds)
        size = 1 << self.tt_bits
        self.tt_keys = np.zeros(size, dtype=np.uint64)
        self.tt_vals = np.zeros(size, dtype=np.int32)
        self.tt_depth = np.zeros(size, dtype=np.int16)
        self.tt_flag = np.zeros(size, dtype=np.int8)
        self.tt_move = np.zeros(size, dtype=np.int8)
        self.history = np.zeros((2, 6), dtype=np.int64)
        # compile (or load) the kernel now, so the first timed search is not charged for it
        self.search_depth(Position.initial(), 1)
        self.clear()

    def clear(self) -> None:
        for a in (
            self.tt_keys,
            self.tt_vals,
            self.tt_depth,
            self.tt_flag,
            self.tt_move,
            self.history,
        ):
            a[:] = 0

    def _tb_arrays(self, position: Position):
        if position.rules.is_abapa and self.tablebase.max_seeds >= 0:
            return self.tablebase.values, self.tablebase.offsets
        return Tablebase.empty().values, Tablebase.empty().offsets

    def search_depth(
        self, position: Position, depth: int, node_limit: int = 2**62
    ) -> tuple[int, int, int, bool]:
        """One fixed-depth search: (score, best move, nodes, finished)."""
        counters = np.zeros(4, dtype=np.int64)
        counters[1] = node_limit
        values, offsets = self._tb_arrays(position)
        score = run_stoppable(  # without the GIL: a signal stops it at once
            K.search_root,
            board_array(position),
            position.to_move,
            depth,
            self.kind,
            position.rules.gs_code,
            self.tt_keys,
            self.tt_vals,
            self.tt_depth,
            self.tt_flag,
            self.tt_move,
            zobrist_table(),
            self.history,
            counters,
            values,
            offsets,
            _binom(),
            self.use_tt,
            False,
            stop=lambda: counters.__setitem__(1, 0),
        )
        return int(score), int(counters[3]), int(counters[0]), counters[2] == 0

    def search(
        self,
        position: Position,
        time_limit: float | None = None,
        depth: int | None = None,
        max_depth: int = 60,
        node_limit: int | None = None,
    ) -> SearchResult:
        """Iterative deepening to `depth`, or until `time_limit` seconds are (about to be) used,
        or `node_limit` nodes: a budget of nodes stops the search exactly as a budget of time
        does (a depth left unfinished does not count; none is begun once 45 % of the budget is
        spent), but gives the same answer on any machine under any load."""
        if time_limit is None and depth is None and node_limit is None:
            raise ValueError("give a time limit (seconds), a node limit or a depth")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time limit must be positive, got {time_limit}")
        if node_limit is not None and not node_limit >= 1:
            raise ValueError(f"node limit must be positive, got {node_limit}")
        if depth is not None and not 1 <= depth <= K.MAX_PLY:
            raise ValueError(f"depth must be between 1 and {K.MAX_PLY}, got {depth}")
        _require_playable(position)
        target = depth if depth is not None else max_depth
        start = time.perf_counter()
        nodes = 0
        best: SearchResult | None = None
        nps_guess = 1.0e6
        previous_nodes = -1
        for d in range(1, target + 1):
            limit = 2**62
            if time_limit is not None and best is not None:
                remaining = time_limit - (time.perf_counter() - start)
                limit = max(1000, int(remaining * nps_guess))
            if node_limit is not None and best is not None:
                limit = min(limit, max(1, node_limit - nodes))
            score, move, n, finished = self.search_depth(position, d, limit)
            nodes += n
            elapsed = time.perf_counter() - start
            if elapsed > 0.01:
                nps_guess = nodes / elapsed
            if not finished:
                break
            best = SearchResult(move, score, [], d, nodes, elapsed)
            if abs(score) > K.DECIDED and d >= 2:
                break  # decided: deeper search cannot change the outcome
            if n == previous_nodes and depth is None:
                break  # every line ends (game over or tablebase) within this depth
            previous_nodes = n
            if time_limit is not None and elapsed > 0.45 * time_limit:
                break
            if node_limit is not None and nodes > 0.45 * node_limit:
                break
        assert best is not None
        best.nodes = nodes
        best.seconds = time.perf_counter() - start
        best.pv = self.principal_variation(position, best.best_move, best.depth)
        return best

    def principal_variation(self, position: Position, first: int, length: int) -> list[int]:
        pv = [first]
        p = position.play(first)
        zob = zobrist_table()
        mask = self.tt_keys.shape[0] - 1
        while len(pv) < length and not p.is_over():
            key = K.zobrist_key(board_array(p), p.to_move, zob)
            slot = int(key) & mask
            if self.tt_keys[slot] != key:
                break
            m = int(self.tt_move[slot])
            if m not in p.legal_moves():
                break
            pv.append(m)
            p = p.play(m)
        return pv
