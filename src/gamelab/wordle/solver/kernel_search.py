"""The calling convention of the exact search kernel: its memo, hashes and restarts.

:class:`KernelSearch` holds, for one game and hard mode, what
:func:`gamelab.wordle.solver._search_kernels.search_kernel` needs between calls: the transposed
feedback table, the random words of the set hashes, and the memo
(:mod:`gamelab.wordle.solver._memo_kernels`), grown when the kernel reports it full. Its ``run`` calls
the kernel in chunks of nodes, so a time limit is checked between chunks
(:class:`SearchTimeout`); ``lookup`` reads a solved node back (the tree, the assistant).
:class:`gamelab.wordle.solver.optimal.OptimalSolver` uses it as its ``numba`` engine.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from gamelab.core import ahead
from gamelab.core.limits import OutOfBudget
from gamelab.core.tiers import has_machine_code
from gamelab.wordle.rules import FeedbackRule, WordList
from gamelab.wordle.solver import _search_kernels as sk
from gamelab.wordle.solver._memo_kernels import (
    EXACT,
    memo_find,
    memo_key,
    memo_record,
    memo_rehash,
)
from gamelab.wordle.table import Game

INF = 10**9  # the value of an infeasible node as Python code sees it (the kernel's is sk.INF)


class SearchTimeout(OutOfBudget):
    """The time limit ran out (the solver then reports its proven bounds)."""


class KernelSearch:
    """The memo and calling convention of :func:`gamelab.wordle.solver._search_kernels.search_kernel`
    for one game and hard mode: ``run(cands, budget, depth, pool, forced, deadline)`` ->
    (value, guess), exact when value < budget (else a lower bound >= budget)."""

    NODE_CHUNK = 200_000  # most nodes between two looks at the clocks
    # under a time or CPU limit a call is cut into chunks of about this many seconds (CPU or
    # wall, whichever is larger; the chunk of nodes follows the rate of the last call), so a
    # limit is overrun by about one chunk (a hard-mode node can cost 20 microseconds, and
    # 200,000 of them seconds)
    CHUNK_SECONDS = 0.2
    MIN_CHUNK = 500
    SMALL_N = 64  # sets up to this size first try the candidates alone (endgame check)
    ASPIRATION = 0  # first budget tried above a node's proven bound (0: none, measured slower)
    CHILD_N = 64  # classes up to this size get the endgame check when their guess is expanded
    # classes from this size get the one-level bound when their guess is expanded: measured,
    # it pays with few guesses (Pokémon `all`, 931: -15 % CPU per first guess) and costs with
    # many (English, 12,972: SALET +30 %), so it is on only below BIG_N_GUESSES guesses
    BIG_N = 10
    BIG_N_GUESSES = 2000

    def __init__(self, game: Game, hard: str | None, capacity: int = 1 << 18) -> None:
        self.sk = sk
        self.game = game
        self.hard = {None: 0, "game": 1, "strict": 2}[hard]
        self.table = game.table
        # answers x guesses: the node scan reads one contiguous row per candidate
        self.tt = game.by_answer if game.n_codes <= 256 else None
        # a table of more patterns than a byte holds is scanned guess by guess instead
        self.wide = game.table if self.tt is None else None
        self.gcodes, self.glens = game.guess_codes
        self.rule_id = game.rule_id
        self.pool_guess = game.full_length_index if hard else np.zeros(0, dtype=np.int32)
        rng = np.random.default_rng(20260101)  # fixed: hashes are part of the memo, not of results
        hi = np.iinfo(np.uint64).max
        self.rnd_a = [
            rng.integers(0, hi, game.n_answers, dtype=np.uint64, endpoint=True) for _ in range(2)
        ]
        self.rnd_p = [
            rng.integers(0, hi, max(1, len(self.pool_guess)), dtype=np.uint64, endpoint=True)
            for _ in range(2)
        ]
        n_alpha, length = len(game.words.alphabet), game.words.length
        self.rg = [
            rng.integers(0, hi, (length, n_alpha), dtype=np.uint64, endpoint=True) for _ in range(2)
        ]
        self.rn = [
            rng.integers(0, hi, (n_alpha, length + 1), dtype=np.uint64, endpoint=True)
            for _ in range(2)
        ]
        for r in self.rn:
            r[:, 0] = 0  # "no demand" adds nothing to a key
        self._alloc(capacity)
        self._arena: tuple[np.ndarray, ...] | None = None  # (see _new_arena)
        self.chunk = 10_000  # nodes per call under a limit (then adapted by `run`)
        # > 0: the memo also holds a search under a limit this many guesses looser (its
        # entries bound this search's nodes from below; sk.UNLIMITED: no limit); 0: none
        self.floor_shift = 0
        self.stats = np.zeros(4, dtype=np.int64)  # nodes, memo entries, scan steps, partitions

    def _alloc(self, capacity: int) -> None:
        self.mk1 = np.zeros(capacity, dtype=np.uint64)
        self.mk2 = np.zeros(capacity, dtype=np.uint64)
        self.mflag = np.zeros(capacity, dtype=np.uint8)
        self.mval = np.zeros(capacity, dtype=np.int64)
        self.mguess = np.full(capacity, -1, dtype=np.int32)

    def _grow(self) -> None:
        old = (self.mk1, self.mk2, self.mflag, self.mval, self.mguess)
        self._alloc(2 * len(self.mk1))
        memo_rehash(*old, self.mk1, self.mk2, self.mflag, self.mval, self.mguess)

    @property
    def nodes(self) -> int:
        return int(self.stats[0])

    @property
    def entries(self) -> int:
        return int(self.stats[1])

    def _depth(self, depth: int | None) -> int:
        return self.sk.UNLIMITED if depth is None else depth

    def _pool(self, pool: np.ndarray | None) -> np.ndarray:
        return np.zeros(0, dtype=np.int32) if pool is None else np.asarray(pool, dtype=np.int32)

    def _new_arena(self) -> tuple[np.ndarray, ...]:
        """A kernel call's scratch buffers: made once per search, reset before each call
        (``_search_kernels.reset_arena``: zeroing them costs less than making them anew)."""
        if self._arena is None:
            self._arena = self.sk.new_arena(
                self.table,
                self.game.n_codes,
                len(self.pool_guess),
                self.gcodes.shape[1],
                self.rn[0].shape[0],
            )
        else:
            self.sk.reset_arena(self._arena)
        return self._arena

    def _demands(self, history: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
        return self.game.hard_demands(history)

    def run(
        self,
        cands: np.ndarray,
        budget: int,
        depth: int | None,
        pool: np.ndarray | None,
        forced: int,
        deadline: float = float("inf"),
        history: Sequence[tuple[int, int]] = (),
        cpu_deadline: float = float("inf"),
    ) -> tuple[int, int]:
        """`deadline` is on the wall clock (``time.monotonic``), `cpu_deadline` on this
        process's CPU clock (``time.process_time``); both are looked at before every call of
        the kernel and between its chunks of nodes (:attr:`CHUNK_SECONDS`), so a search stops
        within about a chunk of its limit, however many calls it makes. `history` (guesses and colours that led to this node) fixes the game's hard-mode
        demands, the key of its pool; `pool` must be the words that meet them."""
        sk = self.sk
        cands = np.asarray(cands, dtype=np.int32)
        green, need = self._demands(history)
        budget = min(budget, sk.INF)
        limited = deadline < float("inf") or cpu_deadline < float("inf")
        while True:
            if limited:
                wall, cpu = time.monotonic(), time.process_time()
                if wall > deadline or cpu > cpu_deadline:
                    raise SearchTimeout
            chunk = min(self.chunk, self.NODE_CHUNK) if limited else self.NODE_CHUNK
            start_nodes = self.nodes
            status, value, guess = sk.search_kernel(
                *self.kernel_args(cands, pool, green, need, depth, budget, forced, chunk)
            )
            if limited and status in (sk.DONE, sk.NODE_LIMIT):
                # the next chunk: about CHUNK_SECONDS at this call's rate
                spent = max(time.monotonic() - wall, time.process_time() - cpu)
                nodes = self.nodes - start_nodes
                if spent > 0.01 and nodes > 0:
                    self.chunk = int(max(nodes / spent * self.CHUNK_SECONDS, self.MIN_CHUNK))
                elif status == sk.NODE_LIMIT:
                    self.chunk = 2 * chunk
            if status == sk.DONE:
                value = int(value)
                return (INF if value >= sk.INF else value), int(guess)
            if status == sk.MEMO_FULL:
                self._grow()
            elif status == sk.TOO_DEEP:
                raise ValueError(
                    f"the search went deeper than {sk.MAX_FRAMES} guesses; "
                    "set a guess limit (--max-guesses)"
                )

    def kernel_args(
        self,
        cands: np.ndarray,
        pool: np.ndarray | None,
        green: np.ndarray,
        need: np.ndarray,
        depth: int | None,
        budget: int,
        forced: int,
        chunk: int,
    ) -> tuple[object, ...]:
        """The arguments of one :func:`~gamelab.wordle.solver._search_kernels.search_kernel`
        call (`cands` int32, `green` and `need` from :meth:`Game.hard_demands`)."""
        return (
            self.table,
            self.tt,
            self.wide,
            self.game.answer_of_guess,
            self.game.guess_of_answer,
            self.game.n_codes,
            self.gcodes,
            self.glens,
            self.rule_id,
            self.pool_guess,
            self.hard or None,  # None: the kernel compiled for normal mode only
            cands,
            self._pool(pool),
            green,
            need,
            self._depth(depth),
            budget,
            forced,
            self.rnd_a[0],
            self.rnd_a[1],
            self.rnd_p[0],
            self.rnd_p[1],
            self.rg[0],
            self.rg[1],
            self.rn[0],
            self.rn[1],
            self.mk1,
            self.mk2,
            self.mflag,
            self.mval,
            self.mguess,
            self.entries,
            chunk,
            self.stats,
            self.SMALL_N,
            self.ASPIRATION,
            self.CHILD_N,
            self.BIG_N if self.game.n_guesses <= self.BIG_N_GUESSES else self.sk.INF,
            self._new_arena(),
            self.floor_shift,
        )

    def load(self) -> float:
        """Load the compiled kernels without searching (in a new process numba's first call
        starts its runtime and reads the kernels from its cache, about a second of CPU whatever
        the problem); returns the CPU seconds it took."""
        start = time.process_time()
        stats = self.stats.copy()
        one = self.game.all_answers()[:1]
        self.run(one, INF, None, None, -1)  # a single candidate: answered at once
        self.lookup(one, None, None)
        self.game.partition(0, one)  # (the tree's classes)
        self.stats[:] = stats
        return time.process_time() - start

    def best_guess(
        self,
        cands: np.ndarray,
        depth: int | None,
        pool: np.ndarray | None,
        history: Sequence[tuple[int, int]] = (),
    ) -> int:
        """The memo's best guess for a node already solved exactly (-1 if unknown)."""
        known = self.lookup(cands, depth, pool, history)
        return -1 if known is None else known[1]

    def lookup(
        self,
        cands: np.ndarray,
        depth: int | None,
        pool: np.ndarray | None,
        history: Sequence[tuple[int, int]] = (),
    ) -> tuple[int, int] | None:
        """(exact value, best guess) of a node from the memo, or None if not solved exactly."""
        slot = self._slot(cands, depth, pool, history)[0]
        if self.mflag[slot] != EXACT:
            return None
        value = int(self.mval[slot])
        return (INF if value >= self.sk.INF else value), int(self.mguess[slot])

    def record_lower(
        self,
        cands: np.ndarray,
        depth: int | None,
        pool: np.ndarray | None,
        history: Sequence[tuple[int, int]],
        bound: int,
    ) -> None:
        """Keep a proven lower bound of a node in the memo (as the search keeps its own), so a
        search that reaches the node starts from it: e.g. the one-level bounds of a first
        guess's classes, which give that guess's budgeted search tight child budgets."""
        if (self.entries + 1) * 10 >= len(self.mk1) * 7:
            self._grow()
        slot, k1, k2 = self._slot(cands, depth, pool, history)
        self.stats[1] += memo_record(
            self.mk1, self.mk2, self.mflag, self.mval, self.mguess, slot, k1, k2, False,
            min(int(bound), self.sk.INF), -1,
        )  # fmt: skip

    def _slot(
        self,
        cands: np.ndarray,
        depth: int | None,
        pool: np.ndarray | None,
        history: Sequence[tuple[int, int]],
    ) -> tuple[int, np.uint64, np.uint64]:
        """The memo slot of a node (found, or where it would go) and its key."""
        cands = np.asarray(cands, dtype=np.int32)
        pool_arr = self._pool(pool)
        h1 = self.rnd_a[0][cands].sum(dtype=np.uint64)
        h2 = self.rnd_a[1][cands].sum(dtype=np.uint64)
        p1 = p2 = np.uint64(0)
        if self.hard == 2:
            p1 = self.rnd_p[0][pool_arr].sum(dtype=np.uint64)
            p2 = self.rnd_p[1][pool_arr].sum(dtype=np.uint64)
        elif self.hard == 1:
            green, need = self._demands(history)
            pos = np.flatnonzero(green >= 0)
            letters = np.arange(len(need))
            mask = (1 << 64) - 1
            p1 = np.uint64(
                (
                    int(self.rg[0][pos, green[pos]].sum(dtype=np.uint64))
                    + int(self.rn[0][letters, need].sum(dtype=np.uint64))
                )
                & mask
            )
            p2 = np.uint64(
                (
                    int(self.rg[1][pos, green[pos]].sum(dtype=np.uint64))
                    + int(self.rn[1][letters, need].sum(dtype=np.uint64))
                )
                & mask
            )
        k1, k2 = memo_key(
            np.uint64(h1), np.uint64(h2), np.uint64(p1), np.uint64(p2), self._depth(depth)
        )
        k1, k2 = np.uint64(k1), np.uint64(k2)
        return int(memo_find(self.mk1, self.mk2, self.mflag, k1, k2)), k1, k2


#: what a first exact search on an empty cache compiles in a second process while this one
#: compiles the search (:func:`compile_search_first`): the table's kernels
#: (:func:`gamelab.wordle.warmup.warm_tables`), in normal mode the search's late helpers first
#: (:func:`gamelab.wordle.warmup.warm_search_helpers`)
TABLES_AHEAD = "gamelab.wordle.warmup:warm_tables"
HELPERS_AHEAD = "gamelab.wordle.warmup:warm_search_helpers"


def table_kernels() -> tuple[object, ...]:
    """The kernels :func:`gamelab.wordle.warmup.warm_tables` compiles (the feedback table, the
    entropies and the partitions: what the assistant calls besides the search)."""
    from gamelab.wordle import _kernels

    return (_kernels.feedback_table_kernel, _kernels.entropy_kernel, _kernels.partition_kernel)


@lru_cache(maxsize=16)
def compile_search_first(
    words: WordList, rule: FeedbackRule, hard: str | None, tables: bool = True
) -> bool:
    """On an empty numba cache, compile the exact search for a game now, before its feedback
    table is built, while a second process compiles the table's kernels
    (:data:`TABLES_AHEAD`, :mod:`gamelab.core.ahead`): the two groups compile side by side on
    two cores, and the table's kernels are then loaded from the cache. The search's argument
    types are those of a stand-in game with a table of the same type and shape (zeros), so
    nothing is computed. `tables` False: start no second process (the caller has started its
    own). Returns whether it compiled (False: the search was compiled or cached already, and
    nothing is started); asked once per game and mode in a process."""
    search = stand_in_search(words, rule, hard)
    stand_in = search.game
    args = stand_in_args(search)
    if has_machine_code(sk.search_kernel, args):
        return False
    target = None
    if tables and stand_in.n_codes <= 256:  # (the second process's types: byte-sized tables)
        target = HELPERS_AHEAD if hard is None else TABLES_AHEAD
        # normal mode: the search waits for each late helper until it is in the cache
        ahead.start(target, table_kernels(), in_turn=late_helpers() if hard is None else ())
    sk.search_kernel.compile(tuple(sk.search_kernel.typeof_pyval(a) for a in args))
    if target is not None:
        ahead.wait(target)  # (its last work, the table's kernels, is needed next)
    return True


def stand_in_search(words: WordList, rule: FeedbackRule, hard: str | None) -> KernelSearch:
    """A :class:`KernelSearch` of a game whose feedback table is zeros of the real one's type and
    shape: its :meth:`KernelSearch.kernel_args` have the types of the game's, nothing computed."""
    stand_in = Game(words, rule)
    dtype = np.uint8 if stand_in.n_codes <= 256 else np.uint16
    shape = (stand_in.n_guesses, stand_in.n_answers)
    stand_in.__dict__["table"] = np.zeros(shape, dtype=dtype)  # (cached properties, set)
    stand_in.__dict__["by_answer"] = np.zeros(shape[::-1], dtype=dtype)
    return KernelSearch(stand_in, hard, capacity=16)


def stand_in_args(search: KernelSearch) -> tuple[object, ...]:
    """The arguments of a one-candidate search call of `search` (their types are what count)."""
    green, need = search._demands(())
    one = search.game.all_answers()[:1]
    return search.kernel_args(one, None, green, need, None, sk.INF, -1, 1)


def late_helpers() -> tuple[object, ...]:
    """The kernels of :func:`helper_calls`, in the order :func:`search_kernel`'s compile types
    its calls to them (what a second process compiles first, one by one, while the search
    compiles: :func:`gamelab.core.ahead.start`'s ``in_turn``)."""
    from gamelab.wordle.solver import _node_kernels as nk
    from gamelab.wordle.solver import _scan_kernels as sc

    return (
        sc.sort_moves,
        nk.partition_node,
        nk.child_bounds,
        nk.big_class_bounds,
        nk.sort_children,
    )


def helper_calls(args: tuple[object, ...]) -> list[tuple[object, tuple[object, ...]]]:
    """[(kernel, example arguments)] of the helpers that :func:`search_kernel` (normal mode, a
    byte-sized table: `args` of such a call) types last, with the types of its calls to them:
    compiled in a second process while the search compiles, the search then loads them from
    the cache (``tests/wordle/test_wordle_compile_first.py`` compares the types with a real
    compile's)."""
    from gamelab.wordle.solver import _node_kernels as nk
    from gamelab.wordle.solver import _scan_kernels as sc

    (table, tt, _, answer_of_guess, guess_of_answer, n_codes, _, _, _, pool_guess) = args[:10]
    rnd_a1, rnd_a2 = args[18], args[19]
    mk1, mk2, mflag, mval, mguess = args[26:31]
    arena: tuple[np.ndarray, ...] = args[38]  # type: ignore[assignment]
    cand, pool, alive, moves_g, moves_lb, moves_ex = arena[0:6]
    cls_start, cls_size, cls_code, cls_lb, cls_h1, cls_h2, cls_p1, cls_p2 = arena[6:14]
    counts, _, _, offs, seen, ch1, ch2, goa_mark, bits, scan_state, need_bound = arena[18:29]
    sort_i, sort_g, sort_e = arena[33:36]
    i, i32 = 0, np.int32(0)
    cls = (cls_size, cls_start, cls_h1, cls_h2, cls_p1, cls_p2, cls_lb)
    memo = (mk1, mk2, mflag, mval, mguess)
    scan = (tt, alive, goa_mark, guess_of_answer, answer_of_guess, i, bits, scan_state,
            moves_g, moves_lb, moves_ex, i)  # fmt: skip
    return [
        (sc.sort_moves, (moves_g, moves_lb, moves_ex, i, i, i, sort_i, sort_g, sort_e)),
        (
            nk.partition_node,
            (
                table,
                i32,
                cand,
                i,
                i,
                i,
                i,
                counts,
                offs,
                seen,
                ch1,
                ch2,
                rnd_a1,
                rnd_a2,
                i32,
                (cls_code, cls_start, cls_size, cls_h1, cls_h2),
            ),
        ),  # fmt: skip
        (
            nk.child_bounds,
            (
                i,
                i,
                i,
                cls,
                memo,
                i,
                (need_bound, i, True, i, i),
                table,
                guess_of_answer,
                cand,
                seen,
            ),
        ),  # fmt: skip
        (
            nk.big_class_bounds,
            (
                i,
                i,
                i,
                i,
                i,
                i,
                cls,
                memo,
                i,
                (need_bound, i, i, pool_guess, pool, i, i),
                scan,
                cand,
            ),
        ),  # fmt: skip
        (
            nk.sort_children,
            (
                i,
                i,
                (cls_start, cls_size, cls_code, cls_lb),
                (cls_h1, cls_h2, cls_p1, cls_p2),
            ),
        ),  # fmt: skip
    ]


def compile_helpers(words: WordList, rule: FeedbackRule) -> None:
    """Compile (into numba's cache) the helpers of :func:`helper_calls` for a game in normal
    mode, without compiling the search itself."""
    for kernel, example in helper_calls(stand_in_args(stand_in_search(words, rule, None))):
        kernel.compile(tuple(kernel.typeof_pyval(a) for a in example))  # type: ignore[attr-defined]


def warm_up() -> None:
    """Compile the kernels that ``gamelab warmup``'s commands do not reach: the guess-by-guess
    scan (lists of six or more letters: more patterns than a byte holds) and the memo's growth
    (a tiny memo here)."""
    from itertools import islice, permutations

    words = tuple("".join(p) for p in islice(permutations("abcdef"), 0, 720, 12))  # 60 words
    game = Game(WordList("warm-up", words, words), FeedbackRule.STANDARD)
    search = KernelSearch(game, None, capacity=4)  # grows to 64 entries
    search.run(game.all_answers(), sk.INF, None, None, -1)
