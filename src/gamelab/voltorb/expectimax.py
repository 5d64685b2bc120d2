"""Exact expectimax over information states: the win-maximising policy, the coin-maximising
policy with quitting, and the exact win probability of any deterministic policy.

An information state is the set of revealed (tile, value) pairs; with the posterior's board list it
fixes the set of boards still possible. Values are kept *unnormalised* (sums of prior weight), so

    U(S) = max over tiles t of  sum_{v in 1,2,3} [ W(boards of S with t = v that are now won)
                                                  + U(boards of S with t = v not yet won) ]

is the prior mass of the boards the policy clears (P(win) = U / W(S)); the round ends as soon as
every 2 and 3 is revealed, so won boards leave the recursion. States are memoised by their revealed
set (transpositions merge). Pruning that keeps the result exact:

* only tiles that can still be a 2 or 3 are flipped (1s and Voltorbs never help);
* tiles that are a Voltorb on no remaining board are flipped at once, with no alternative tried:
  their information is free, so flipping them first is never worse (Tobs40's solver does the same
  one tile at a time; the kernel flips all of them together, one node instead of a chain);
* symmetry: two rows (or columns) with the same Voltorb count, the same hidden cells, the same sum
  still hidden and as many revealed multipliers on free cells can swap their hidden cells without
  changing any board's prior weight, so only one tile of each class is tried
  (:func:`gamelab.voltorb._bounds_kernels.symmetry_classes`; Tobs40's solver skips such squares too),
  in the general search and in the mid-size-state kernel below (not in the small-state one:
  there the test costs about what it saves);
* branch and bound with fail-low cut-offs, from two upper bounds on a state's value:
  - first flip: flipping t can win at most W(S) - W(t is a Voltorb), and after it each child at
    most its mass less its own least risky flip;
  - inseparable boards (:func:`gamelab.voltorb._bounds_kernels.pair_bound`): two boards whose every
    difference is a Voltorb on one of them, each with a multiplier among the differences, cannot
    both be cleared (the first flip that tells them apart loses one), so a cover of the boards by
    groups of pairwise inseparable boards bounds the value by the sum of each group's heaviest
    board. It is often exactly the optimum; a state whose bound cannot beat the best sibling is
    cut at once, and a state stops trying tiles as soon as one reaches its bound;
* a flip's children are searched fewest boards first
  (:func:`gamelab.voltorb._small_kernels.light_first`): the small ones are cheap and their
  values narrow the window of the large one (the 1s, usually), which is then often cut; the
  flip's value is still summed in the order 1, 2, 3, so it is the same to the last bit.

States with at most 62 live boards go to the bit-mask search of
:mod:`gamelab.voltorb._small_kernels`, and states with at most 512 to its multi-word version
:mod:`gamelab.voltorb._wide_kernels` (same value, memoised by the set of live boards as well as by
the revealed code; ``small_max=0, wide_max=0`` turn them off). A state of two live boards is
solved in closed form (both are cleared unless they are inseparable, then the heavier one). The
kernels number the boards heaviest first, and the inseparable pairs are listed once per solver
(:func:`gamelab.voltorb._bounds_kernels.inseparable_lists`), so a large state's pair bound walks
each group leader's partners instead of testing every pair.

A search that stays within the bit-mask searches (at most 512 live boards) runs *interpreted*
while its kernels are not compiled: the kernels' own source run by Python
(:mod:`gamelab.core.tiers`), about 0.4 ms a state, so the README's level-2 position (62 states) is
answered in a tenth of a second instead of after about 20 CPU-s of compiling, with the same
tile, value and memo. A search that needs more than :data:`INTERPRETED_SEARCH_STATES` states,
or a process that has interpreted :data:`INTERPRETED_STATES` in all, runs the kernels (compiled
then, once); so does everything inside :func:`gamelab.core.tiers.compiled_kernels` (the
warm-ups).

The Python twin (``python=True``) keeps the plain recursion (first-flip bound, one safe tile at a
time, no symmetry, no pair bound), so the tests compare two independent routes to the same value.

The coin objective (``objective="coins"``) maximises expected coins, with quitting allowed after the
first card: with H(S) = W(S) * (expected final coins / current coins),
``H(S) = max(W(S), max_t sum_v v * [W(won_v) + H(rest_v)])``; a flip's children stop once those
searched and the payout bound of the others cannot beat the best flip so far
(:func:`gamelab.voltorb._coin_kernels.coin_search`).

References: Tobs40/rust-voltorb-flip-solver (exact win-maximising solver with the game's
generator); blog.khyman.dev (quit-or-continue analysis of expected coins).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamelab.core.limits import OutOfBudget
from gamelab.core.tiers import has_machine_code, interpreting
from gamelab.voltorb._bounds_kernels import (
    LISTS_MAX,
    board_bits,
    flip_bounds,
    inseparable_lists,
)
from gamelab.voltorb._coin_kernels import coin_search, memo_entry, new_memos
from gamelab.voltorb._search_kernels import WHOLE, win_search
from gamelab.voltorb._small_kernels import SMALL_MAX
from gamelab.voltorb._table_kernels import table_entry, table_new, table_rehash
from gamelab.voltorb._wide_kernels import WIDE_MAX
from gamelab.voltorb.info_tree import InfoTree, key_add, revealed_code
from gamelab.voltorb.interpreted import inseparable_lists_numpy, python_search
from gamelab.voltorb.posterior import Posterior, weighted_tile_sums
from gamelab.voltorb.rules import TILES, Clues
from gamelab.voltorb.search_parts import SearchPart
from gamelab.voltorb.symmetries import clue_symmetries

_MASS_EPS = 1e-15


def clue_array(board: np.ndarray) -> np.ndarray:
    """4 x 5 int64: row sums, row Voltorbs, column sums, column Voltorbs of a board."""
    return _clue_rows(Clues.from_board(np.asarray(board).reshape(-1)))


def _clue_rows(clues: Clues) -> np.ndarray:
    rows = [clues.row_sums, clues.row_voltorbs, clues.col_sums, clues.col_voltorbs]
    return np.ascontiguousarray(np.stack(rows).astype(np.int64))


#: a search runs interpreted for at most this many states (about 0.4 ms each), then the kernels
#: take it over (the README's level-2 position: 62 states; 300 random positions of levels 1-8
#: with at most 512 boards: median 16, at most 1,230; benchmarks/voltorb_interpreted.py)
INTERPRETED_SEARCH_STATES = 2_000
#: states a process interprets at most in all (a few CPU-s, a fraction of compiling the
#: search), then every search runs in the kernels
INTERPRETED_STATES = 5_000
#: the most boards of a deal whose searches may run interpreted (its inseparable-boards lists
#: are computed in numpy, n^2 pair tests)
INTERPRETED_BOARDS = 5_000
#: states this process has searched interpreted
_interpreted = [0]
#: whether the compiled search (general=None) was found at hand in this process: then every
#: later search runs it at once (it stays loaded), without asking numba's cache again
_compiled = [False]


class SearchLimitError(OutOfBudget):
    """The exact search reached its state limit before finishing."""


class OptimalSolver(InfoTree):
    """Exact P(win)-maximising (``objective="win"``) or coin-maximising (``"coins"``) policy."""

    def __init__(
        self,
        posterior: Posterior,
        objective: str = "win",
        python: bool = False,
        symmetry: bool = True,
        state_limit: int | None = None,
        pair_bounds: bool = True,
        small_max: int = SMALL_MAX,
        keep_memo: bool = False,
        wide_max: int = WIDE_MAX,
    ) -> None:
        if objective not in ("win", "coins"):
            raise ValueError(f"objective must be 'win' or 'coins', got {objective!r}")
        super().__init__(posterior)
        self.objective = objective
        self.memo: dict[int, tuple[float, int]] = {}
        # both objectives run in numba kernels unless python=True (the twins)
        self.use_kernel = not python
        if self.use_kernel:
            # the coin search's memo (typed dicts made in compiled code; made for that objective
            # only: a kernel fewer to compile); the win search's is a hash table in one array
            # (table_slot)
            if objective == "coins":
                self._memo_val, self._memo_tile, self._memo_exact = new_memos()
            self._table = table_new()
            # searched states, the limit for the current search, the "stopped" flag, the win
            # memo's entries, the "win memo full" flag
            self._counter = np.zeros(5, dtype=np.int64)
            self.state_limit = state_limit
            # the kernels number the boards heaviest first (ties in their order here), the order
            # in which the pair bound's greedy cover takes them (inseparable_lists)
            self._perm = np.argsort(-self.weights, kind="stable")
            self._rank = np.empty(self._perm.size, dtype=np.int64)
            self._rank[self._perm] = np.arange(self._perm.size)
            self._boards = np.ascontiguousarray(self.boards[self._perm], dtype=np.int8)
            self._weights = np.ascontiguousarray(self.weights[self._perm], dtype=np.float64)
            self._hm0 = np.ascontiguousarray(self.hidden_mult[self._perm], dtype=np.int64)
            self._clue = _clue_rows(posterior.clues)
            self._bits = board_bits(self._boards)
            # the inseparable-boards lists, made by the first win search (None: not yet)
            self._lists: tuple[np.ndarray, np.ndarray] | None = None
            self._symmetry = bool(symmetry)
            # the deal's symmetries for the memo (memo_find): only from a first position, where
            # the boards and their weights are the same under each of them
            no_map = np.arange(TILES, dtype=np.int64).reshape(1, TILES)
            self._perms = (
                clue_symmetries(posterior.clues) if symmetry and not self.root_revealed else no_map
            )
            self._pairs = bool(pair_bounds)
            if not 0 <= small_max <= SMALL_MAX:
                raise ValueError(f"small_max must be from 0 to {SMALL_MAX}, got {small_max}")
            self._small_max = int(small_max)
            if not 0 <= wide_max <= WIDE_MAX:
                raise ValueError(f"wide_max must be from 0 to {WIDE_MAX}, got {wide_max}")
            self._wide_max = int(wide_max)
            # keep the win memo after a search stopped by the state limit (its entries are
            # exact values or proven upper bounds), for a caller that tries several positions
            self._keep_memo = bool(keep_memo)

    def _kernel_value(
        self,
        revealed: dict[int, int],
        idx: np.ndarray,
        first_tiles: int = WHOLE,
        shared: np.ndarray | None = None,
        root_out: np.ndarray | None = None,
    ) -> tuple[float, int]:
        code = revealed_code(revealed)
        read_entry = table_entry
        nrev = sum(1 for t, v in revealed.items() if t not in self.root_revealed and v >= 2)
        limit = self.state_limit if self.state_limit is not None else 2**62
        self._counter[1] = self._counter[0] + min(limit, 2**62)
        live = np.ascontiguousarray(np.sort(self._rank[idx]), dtype=np.int64)
        # both searches start from the deal (boards, weights, multipliers) and this state
        state = (self._boards, self._weights, self._hm0, live, np.int64(code), np.int64(nrev))
        if self.objective == "coins":
            may_quit = any(v > 0 for v in revealed.values())
            code_key = (code << 1) | int(may_quit)
            memo = (self._memo_val, self._memo_tile, self._counter)
            value = coin_search(*state, may_quit, *memo)
        else:
            if shared is None:
                shared = np.array([-1.0, 0.0, 25.0])
            if root_out is None:
                root_out = np.full((3, TILES), -1.0)
            # None: no state of this search needs the general search, so a first search on a
            # small position does not compile it (see win_search)
            general = None if live.size <= max(2, self._small_max, self._wide_max) else True
            interpreted = None
            if general is None and not _compiled[0]:
                interpreted = self._interpreted_win_value(
                    state, first_tiles, shared, root_out, limit
                )
            if interpreted is not None:
                value, read_entry = interpreted
            else:
                self._counter[1] = self._counter[0] + min(limit, 2**62)
                kernels = (win_search, table_rehash, self._inseparable_lists())
                value = self._win_search(kernels, state, first_tiles, shared, root_out, general)
        self.nodes = int(self._counter[0])
        if self._counter[2] and self._keep_memo and self.objective == "win":
            self._counter[2] = 0
            raise SearchLimitError(
                f"the optimal search gave up after {self.state_limit:,} states (state_limit)"
            )
        if self._counter[2]:
            # drop the unfinished search's memo (its entries are valid, but a limited search
            # should leave the solver as it found it)
            self._counter[2] = 0
            self._counter[3] = 0
            if self.objective == "coins":
                self._memo_val, self._memo_tile, self._memo_exact = new_memos()
            self._table = table_new()
            raise SearchLimitError(
                f"the optimal search gave up after {self.state_limit:,} states (state_limit)"
            )
        if self.objective == "coins":
            _, tile = memo_entry(self._memo_val, self._memo_tile, np.int64(code_key))
            return float(value), int(tile)
        if first_tiles >= 0:
            return float(value), -1  # a part: the root is not stored (see search_part)
        entry = read_entry(self._table, code)
        assert entry is not None and entry[1]
        return float(value), entry[2]

    def _win_search(
        self,
        kernels: tuple,
        state: tuple,
        first_tiles: int,
        shared: np.ndarray,
        root_out: np.ndarray,
        general: bool | None,
    ) -> float:
        """Run the win search (`kernels`: the search, the memo's rehash and the inseparable
        lists, compiled or their Python copies) until it finishes with the memo large enough."""
        search, rehash, lists = kernels
        mark = np.zeros(self._boards.shape[0] + 1, dtype=np.int64)
        pos = np.full(self._boards.shape[0], -1, dtype=np.int64)
        while True:
            args = self._search_args(state, lists, mark, pos, first_tiles, shared, root_out)
            value = search(*args, general)
            if not self._counter[4]:
                return float(value)
            # the memo is 70 % full: every entry is exact or a proven upper bound, so keep
            # them in a table 4x as large and search again (the solved part is found at once)
            bigger = table_new(4 * self._table.shape[0])
            rehash(self._table, bigger)
            self._table = bigger
            self._counter[2] = self._counter[4] = 0

    def _search_args(
        self,
        state: tuple,
        lists: tuple[np.ndarray, np.ndarray],
        mark: np.ndarray,
        pos: np.ndarray,
        first_tiles: int,
        *shared_and_out: np.ndarray,
    ) -> tuple:
        """The win search's arguments but `general` (see win_search)."""
        adj_start, adj = lists
        return (
            *state,
            -1.0,
            self._table,
            self._counter,
            self._clue,
            self._symmetry,
            self._bits,
            self._pairs,
            np.int64(self._small_max),
            adj_start,
            adj,
            mark,
            np.int64(self._wide_max),
            pos,
            np.int64(first_tiles),
            *shared_and_out,
            self._perms,
        )

    def _interpreted_win_value(
        self,
        state: tuple,
        first_tiles: int,
        shared: np.ndarray,
        root_out: np.ndarray,
        limit: int,
    ) -> tuple[float, Callable] | None:
        """The win search run by the Python interpreter (the kernels' own source, see
        :mod:`gamelab.core.tiers`), when the compiled search is not at hand yet and this search
        is short: the same value, memo and tile as the kernels', without their compiling (about
        20 CPU-s). None when that does not apply (the caller then runs the kernels): the kernel
        is compiled or cached for these arguments, this process has interpreted
        :data:`INTERPRETED_STATES` states already, the deal has more than
        :data:`INTERPRETED_BOARDS` boards, or the search needed more than
        :data:`INTERPRETED_SEARCH_STATES` states (it is then undone: the memo and counters as
        before it). Only for a search that never reaches the general search (general=None).
        With the value, the memo's reader (:func:`gamelab.voltorb._table_kernels.table_entry`'s
        copy)."""
        left = INTERPRETED_STATES - _interpreted[0]
        if _compiled[0] or left <= 0 or not interpreting():
            return None
        if self._boards.shape[0] > INTERPRETED_BOARDS:
            return None
        scratch = np.zeros(1, dtype=np.int64)  # (the types of the lists, mark and pos)
        lists = (scratch, scratch)
        probe = self._search_args(state, lists, scratch, scratch, first_tiles, shared, root_out)
        if has_machine_code(win_search, (*probe, None)):
            _compiled[0] = True
            return None
        copies = python_search()
        if copies is None:
            return None
        budget = min(left, INTERPRETED_SEARCH_STATES)
        before = (self._table.copy(), self._counter.copy(), shared.copy(), root_out.copy())
        self._counter[1] = self._counter[0] + min(limit, budget)
        if self._lists is None:
            self._lists = inseparable_lists_numpy(self._bits, self._boards.shape[0], self._pairs)
        kernels = (copies.win_search, copies.table_rehash, self._lists)
        try:
            with np.errstate(over="ignore"):  # int64 products wrap, as in the kernels
                value = self._win_search(kernels, state, first_tiles, shared, root_out, None)
        except BaseException:
            # Ctrl-C can stop Python between two writes of a memo row (never a kernel): the
            # solver goes back to what it was, as after an interrupted kernel call
            self._table, self._counter[:] = before[0], before[1]
            shared[:], root_out[:] = before[2], before[3]
            raise
        _interpreted[0] += int(self._counter[0] - before[1][0])
        if self._counter[2] and budget < limit:
            # stopped by the budget, not by the caller's limit: undo, the kernels search it
            self._table, self._counter[:] = before[0], before[1]
            shared[:], root_out[:] = before[2], before[3]
            return None
        return value, copies.table_entry

    def first_tiles(self, revealed: dict[int, int]) -> list[int]:
        """The first tiles the exact search of `revealed` tries, in its order (one of each
        symmetry class, useful ones only), or [] when the state is not one the search can be
        split at (already solved, a safe tile to flip, or a state small enough for the
        bit-mask searches): the tiles to share among :meth:`search_part` calls."""
        return list(self.search_part(revealed, []).order)

    def search_part(
        self,
        revealed: dict[int, int],
        tiles: list[int],
        shared: np.ndarray | None = None,
        order: list[int] | None = None,
    ) -> SearchPart:
        """Part of the exact search at `revealed`: the first flip restricted to `tiles`.

        Parts can run in separate processes, each with a solver of the same posterior, and
        :func:`gamelab.voltorb.search_parts.combine_parts` gives the exact value and tile of the whole search from them:
        parts over disjoint tiles that together cover :meth:`first_tiles`, each with its own
        `shared`, or parts with the same tiles and one `shared` (they then take the tiles one
        by one as each is free). `shared` is three floats, in memory the parts share (None: a
        part alone): a lower bound on the state's value (-1: none yet), which each part raises
        to the best tile it has searched to the end and which cuts off the tiles that cannot
        beat another part's best (so the parts together search about what one search would),
        the next position of the order to take (0 at the start), and the first position of a
        tile found worth the state's ceiling (25 at the start). The children's values
        stay in this solver's memo (:meth:`solved_states`); the state itself is not stored
        (:meth:`add_solved_states` with the combination stores it). `order`: the whole search's
        order of first tiles (:meth:`first_tiles` of the solver that combines the parts), which
        the parts then share (their own solvers might order them otherwise)."""
        if not self.use_kernel or self.objective != "win":
            raise ValueError("a search is split by the win objective's kernel search")
        idx, _, _ = self.state_for(revealed)
        mask = 0
        for t in tiles:
            mask |= 1 << int(t)
        root_out = np.full((3, TILES), -1.0)  # (see win_search)
        if order is not None:
            root_out[0, : len(order)] = order
        if idx.size == 0:
            return SearchPart((), {}, 0.0)
        if shared is None:
            shared = np.array([-1.0, 0.0, 25.0])
        self._kernel_value(revealed, idx, mask, shared, root_out)
        tried = tuple(int(t) for t in root_out[0] if t >= 0)
        values = {t: float(root_out[1, t]) for t in tried if root_out[1, t] >= 0.0}
        return SearchPart(tried, values, float(self._weights[np.sort(self._rank[idx])].sum()))

    def solved_states(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The states the win search has solved exactly: (revealed codes, values, best tiles).

        Values are unnormalised, in this solver's prior weights (see the module doc), so they
        serve a solver of the same posterior (:meth:`add_solved_states`)."""
        if not self.use_kernel or self.objective != "win":
            raise ValueError("solved states are kept by the win objective's kernel search")
        rows = self._table[(self._table[:, 0] >= 0.0) & (self._table[:, 2] % 2 == 1)]
        tiles = (rows[:, 2].astype(np.int64) >> 1) - 1
        return rows[:, 0].astype(np.int64), rows[:, 1].copy(), tiles.astype(np.int8)

    def add_solved_states(self, codes: np.ndarray, values: np.ndarray, tiles: np.ndarray) -> None:
        """Add states solved exactly by a solver of the same posterior (:meth:`solved_states`):
        a later search finds them at once, and a decision at one of them costs no search."""
        if not self.use_kernel or self.objective != "win":
            raise ValueError("solved states are kept by the win objective's kernel search")
        n = int(codes.size)
        if not (values.size == n and tiles.size == n):
            raise ValueError("codes, values and tiles must have the same length")
        rows = np.empty((n, 3))
        rows[:, 0] = codes
        rows[:, 1] = values
        rows[:, 2] = 2.0 * (tiles.astype(np.int64) + 1) + 1.0
        used = int(self._counter[3])
        capacity = self._table.shape[0]
        while (used + n) * 10 > capacity * 6:
            capacity *= 2
        bigger = table_new(capacity)
        table_rehash(self._table, bigger)
        table_rehash(rows, bigger)  # (rows need not be a hash table: every row is inserted)
        self._table = bigger
        self._counter[3] = int((bigger[:, 0] >= 0.0).sum())

    def _inseparable_lists(self) -> tuple[np.ndarray, np.ndarray]:
        """The inseparable-boards lists of the kernel's boards, made once per solver (about
        0.2 s at 14,000 boards); above LISTS_MAX boards (or without the pair bound) an empty
        pair, and the kernels test the pairs directly."""
        if self._lists is None:
            n = self._boards.shape[0]
            if self._pairs and n <= LISTS_MAX:
                self._lists = inseparable_lists(self._bits, np.int64(n))
            else:
                self._lists = (np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64))
        return self._lists

    def _value(self, idx: np.ndarray, key: int, hm: np.ndarray, may_quit: bool) -> float:
        """U (win) or H (coins) of a live state; stores the best tile (-1 = quit) in the memo."""
        memo_key = key if may_quit or self.objective == "win" else ~key
        hit = self.memo.get(memo_key)
        if hit is not None:
            return hit[0]
        self.nodes += 1
        if self.objective == "win":
            return self._win_value(idx, key, hm, memo_key)
        return self._coin_value(idx, key, hm, may_quit, memo_key)

    def _coin_value(
        self, idx: np.ndarray, key: int, hm: np.ndarray, may_quit: bool, memo_key: int
    ) -> float:
        total = float(self.weights[idx].sum())
        tiles, v_mass = self.candidate_tiles(idx, key)
        best, best_tile = -1.0, int(tiles[0])
        if may_quit:
            best, best_tile = total, -1
        if v_mass[0] <= _MASS_EPS * total:
            # a safe tile: flip it, nothing else to compare (it also beats quitting: the
            # multiplier is at least 1, and one can still quit afterwards)
            best_tile = int(tiles[0])
            best = self._exact_flip(idx, key, hm, best_tile)
        else:
            # perfect-information bound: flipping t can at most collect, on every board where t
            # is safe, the product of that board's hidden multipliers
            sub = self.boards[idx]
            hidden = np.array([not (key >> (3 * t)) & 7 for t in range(TILES)])
            best_product = np.where((sub >= 2) & hidden, sub, 1).astype(float).prod(axis=1)
            w = self.weights[idx]
            flip_bound = weighted_tile_sums(w * best_product, sub[:, tiles] != 0)
            for i in np.lexsort((tiles, -flip_bound)):
                if flip_bound[i] <= best + 1e-12 * total:
                    break
                val = self._exact_flip(idx, key, hm, int(tiles[i]))
                if val > best + 1e-12 * total:
                    best, best_tile = val, int(tiles[i])
        self.memo[memo_key] = (best, best_tile)
        return best

    def _win_value(self, idx: np.ndarray, key: int, hm: np.ndarray, memo_key: int) -> float:
        w = self.weights[idx]
        total = float(w.sum())
        if idx.size == 1:
            tile = int(np.flatnonzero(self.boards[idx[0]] >= 2)[0])
            for t in np.flatnonzero(self.boards[idx[0]] >= 2):
                if not (key >> (3 * int(t))) & 7:
                    tile = int(t)
                    break
            self.memo[memo_key] = (total, tile)
            return total
        revealed_mask = np.array([(key >> (3 * t)) & 7 != 0 for t in range(TILES)])
        mass, won, bound = flip_bounds(self.boards[idx], w, hm[idx], revealed_mask)
        useful = (mass[:, 2] + mass[:, 3] > 0) & ~revealed_mask
        tiles = np.flatnonzero(useful)
        safe = tiles[mass[tiles, 0] <= _MASS_EPS * total]
        if safe.size:
            tile = int(safe[0])
            best = self._exact_flip(idx, key, hm, tile)
            self.memo[memo_key] = (best, tile)
            return best
        tile_bound = (won[tiles, 1:] + bound[tiles, 1:]).sum(axis=1)
        order = np.lexsort((tiles, -tile_bound))
        best, best_tile = -1.0, int(tiles[order[0]])
        for i in order:
            tile = int(tiles[i])
            if tile_bound[i] <= best + 1e-12 * total:
                break
            val = self._flip_value(idx, key, hm, tile, float(tile_bound[i]), best, bound[tile])
            if val is not None and val > best + 1e-12 * total:
                best, best_tile = val, tile
        self.memo[memo_key] = (best, best_tile)
        return best

    def _exact_flip(self, idx: np.ndarray, key: int, hm: np.ndarray, tile: int) -> float:
        """:meth:`_flip_value` without a bound (it is never cut off)."""
        value = self._flip_value(idx, key, hm, tile)
        assert value is not None
        return value

    def _flip_value(
        self, idx, key, hm, tile, bound=None, best=None, child_bounds=None
    ) -> float | None:
        """Value of flipping `tile`; with a `bound` and the children's bounds (win objective)
        None as soon as the children seen so far prove it cannot beat `best`."""
        acc = 0.0
        for v, won_mass, live, hm_new in self.children(idx, hm, tile):
            child = self._value(live, key_add(key, tile, v), hm_new, True) if live.size else 0.0
            gain = won_mass + child
            acc += v * gain if self.objective == "coins" else gain
            if bound is not None:
                bound -= child_bounds[v] - child
                if bound <= best:
                    return None
        return acc

    def decide(self, revealed: dict[int, int]) -> tuple[int, float]:
        """(best tile or -1 to quit, value) at the state `revealed` (a superset of the root's).

        The value is P(win) for ``"win"``, the expected multiplier of the current coins for
        ``"coins"`` (coins before the first card count as 1 and quitting is not allowed then).
        """
        idx, key, hm = self.state_for(revealed)
        if idx.size == 0:
            return -1, 1.0
        if self.use_kernel:
            value, tile = self._kernel_value(revealed, idx)
            return tile, value / float(self.weights[idx].sum())
        may_quit = any(v > 0 for t, v in revealed.items()) and self.objective == "coins"
        value = self._value(idx, key, hm, may_quit)
        memo_key = key if may_quit or self.objective == "win" else ~key
        tile = self.memo[memo_key][1]
        return tile, value / float(self.weights[idx].sum())

    def win_probability(self) -> float:
        """P(win) of this policy from the root (boards already won count as won)."""
        idx, key = self.root_state()
        won = float(self.weights[self.root_won].sum())
        if idx.size == 0:
            return won
        if self.objective != "win":
            raise ValueError("win_probability is defined for the win objective")
        if self.use_kernel:
            return won + self._kernel_value(self.root_revealed, idx)[0]
        return won + self._value(idx, key, self.hidden_mult, False)


def choice_value(solver: OptimalSolver, revealed: dict[int, int], tile: int) -> float:
    """P(win) of flipping `tile` at `revealed`, then playing optimally."""
    idx, _, hm = solver.state_for(revealed)
    total = float(solver.weights[idx].sum())
    acc = 0.0
    for v, won_mass, live, _hm in solver.children(idx, hm, tile):
        acc += won_mass
        if live.size:
            _, p = solver.decide({**revealed, tile: v})
            acc += p * float(solver.weights[live].sum())
    return acc / total
