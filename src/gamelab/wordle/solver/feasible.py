"""Is there a strategy within a guess limit at all? Settled for every first guess, in parallel.

``prove_feasible(setting)`` (a normal-mode :class:`~gamelab.wordle.rules.Setting` with
``max_guesses`` 5, say) answers "can every answer be found within 5 guesses?" exactly: for each
first guess, its classes are checked largest first with the feasibility search
(:func:`gamelab.wordle.solver._feasible_kernels.feasible_kernel`), and a first guess is refuted by the
first class that no strategy finds within the guesses left. This is far cheaper than the
optimum under the limit (:class:`gamelab.wordle.solver.optimal.OptimalSolver` with ``max_guesses``),
which must also value every feasible node; that solver then gives the optimum over the feasible
first guesses only (``solve-optimal --first``).

The first guesses are split into tasks run by :func:`gamelab.core.parallel.run_tasks`, locally or
on Dask; with a result store each finished task is kept, so an interrupted run continues where
it stopped. Normal mode only (any guess allowed); :class:`HardFeasibleSearch` (the same
kernel's hard-mode specialisation, twin :func:`hard_feasible_python`) answers the same
question in both hard modes, for :func:`feasible_within` (the depth limits of
``solve-optimal``).

:func:`feasible_python` is the plain-Python twin of the kernel.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from gamelab.core import ahead
from gamelab.core.parallel import Backend, run_tasks
from gamelab.core.tiers import has_machine_code
from gamelab.wordle import _kernels
from gamelab.wordle.rules import FeedbackRule, Setting, WordList
from gamelab.wordle.solver import _feasible_kernels as fk
from gamelab.wordle.solver import _hard_feasible_kernels as hk
from gamelab.wordle.solver.precompile import AHEAD, HELPERS_AHEAD
from gamelab.wordle.table import Game

EXPERIMENT = "wordle-feasible"
VERSION = 1  # of the stored per-first-guess results
#: proofs shipped with the package (made by tools/make_wordle_feasibility.py): each names the
#: word list's fingerprint, the rule and the limit, and whether any strategy meets it
SHIPPED = "data/feasibility.json"


def settled(n: int, depth: int) -> bool | None:
    """Whether `n` candidates are feasible within `depth` guesses when no search is needed:
    none or one candidate (one guess finds it), or a single guess left for several; else None."""
    if n <= 1:
        return n == 0 or depth >= 1
    if depth <= 1:
        return False
    return None


#: a search's kept scratch: (its guesses, pair-bit words, answers, codes), levels, buffers
Scratch = tuple[tuple[int, int, int, int], int, tuple[np.ndarray, ...]]


def new_memo(capacity: int) -> tuple[np.ndarray, ...]:
    """A feasibility search's memo, the kernels' last six arguments: the two halves of each
    entry's key, its flags, the depth known infeasible, the depth known feasible, and the counters
    (nodes, memo hits, entries, guesses, candidates, pairs)."""
    return (
        np.zeros(capacity, dtype=np.uint64),
        np.zeros(capacity, dtype=np.uint64),
        np.zeros(capacity, dtype=np.uint8),
        np.zeros(capacity, dtype=np.int8),
        np.full(capacity, fk.NO_FEASIBLE, dtype=np.int8),
        np.zeros(6, dtype=np.int64),
    )


class FeasibleSearch:
    """The kernel's tables and memo for one game: ``feasible(cands, depth) -> bool``."""

    def __init__(
        self,
        game: Game,
        capacity: int = 1 << 22,
        pair_bits: Callable[[np.ndarray, np.ndarray], np.ndarray] = fk.pair_bits_kernel,
    ) -> None:
        if game.n_codes > 256:
            raise ValueError("the feasibility search needs words of at most 5 letters")
        self.game = game
        self.tab = np.ascontiguousarray(game.table)
        self.guesses = np.arange(game.n_guesses, dtype=np.int32)
        self.bits = np.zeros((0, 0, 0), dtype=np.uint64)
        self._pair_bits = pair_bits  # (a stand-in search's: zeros, nothing compiled)
        self.use_guesses(self.guesses)
        rng = np.random.default_rng(20261201)  # fixed: hashes belong to the memo, not results
        hi = np.iinfo(np.uint64).max
        self.rnd1 = rng.integers(0, hi, game.n_answers, dtype=np.uint64, endpoint=True)
        self.rnd2 = rng.integers(0, hi, game.n_answers, dtype=np.uint64, endpoint=True)
        self.memo = new_memo(capacity)
        self.mk1, self.mk2, self.mflag, self.minf, self.mfeas, self.stats = self.memo
        self._scratch: Scratch | None = None  # (see _scratch)

    #: largest table of pair bits built (bytes): answers^2 x guesses / 8
    MAX_PAIR_BYTES = 1 << 29

    def use_guesses(self, guesses: np.ndarray) -> None:
        """Search with these guesses only (the memo is cleared)."""
        self.guesses = np.ascontiguousarray(guesses, dtype=np.int32)
        n = self.game.n_answers
        if n * n * ((len(self.guesses) + 63) // 64) * 8 <= self.MAX_PAIR_BYTES:
            self.bits = self._pair_bits(self.tab, self.guesses)
        else:
            self.bits = np.zeros((0, 0, 0), dtype=np.uint64)
        if hasattr(self, "mflag"):
            self.mflag[:] = 0

    def feasible(self, cands: np.ndarray, depth: int) -> bool:
        """Can every candidate be found within `depth` guesses (any guess allowed)?"""
        # normal mode: no pool (numba compiles the kernel without the hard-mode code)
        return _ask_kernel(self, cands, depth, self.guesses, (None, None, None, None))

    def opening(self, guess: int, depth: int) -> tuple[bool, np.ndarray | None]:
        """(feasible?, the class that refutes it) for first guess `guess` and `depth` guesses in
        all: its classes (largest first) must each be feasible within depth - 1."""
        cands = self.game.all_answers()
        if depth < 1:
            return False, cands
        parts = sorted(self.game.partition(guess, cands).values(), key=len, reverse=True)
        for part in parts:
            if len(part) == 1 and self.game.is_answer(guess, int(part[0])):
                continue
            if not self.feasible(part, depth - 1):
                return False, part
        return True, None


def _ask_kernel(
    search: FeasibleSearch | HardFeasibleSearch,
    cands: np.ndarray,
    depth: int,
    guesses: np.ndarray,
    hard: tuple[np.ndarray | None, ...],
) -> bool:
    """:func:`~gamelab.wordle.solver._feasible_kernels.feasible_kernel` on a search's tables and
    memo; `hard`: the pool mask, the allowed-word masks and the pool hash's two salts (four
    Nones in normal mode)."""
    return bool(fk.feasible_kernel(*_kernel_args(search, cands, depth, guesses, hard)))


def _kernel_args(
    search: FeasibleSearch | HardFeasibleSearch,
    cands: np.ndarray,
    depth: int,
    guesses: np.ndarray,
    hard: tuple[np.ndarray | None, ...],
) -> tuple[Any, ...]:
    """:func:`_ask_kernel`'s arguments of the kernel."""
    if depth > 100:
        raise ValueError(f"depth must be at most 100, got {depth}")
    cands = np.ascontiguousarray(cands, dtype=np.int32)
    args = (search.game.n_codes, search.bits, search.rnd1, search.rnd2, *search.memo, *hard)
    scratch = _scratch(search, depth, guesses)
    return (search.tab, cands, depth, guesses, *args, scratch)


#: what a first feasibility proof on an empty cache compiles in a second process while this one
#: compiles the feasibility search (:func:`compile_feasible_first`): the feedback table's, the
#: partitions' and the pair bits' kernels (:func:`gamelab.wordle.warmup.warm_feasible_tables`)
TABLES_AHEAD = "gamelab.wordle.warmup:warm_feasible_tables"


def table_kernels() -> tuple[object, ...]:
    """The kernels :func:`gamelab.wordle.warmup.warm_feasible_tables` compiles."""
    return (_kernels.feedback_table_kernel, _kernels.partition_kernel, fk.pair_bits_kernel)


def stand_in_search(words: WordList, rule: FeedbackRule) -> FeasibleSearch:
    """A :class:`FeasibleSearch` of a game whose feedback table and pair bits are zeros of the
    real ones' types and shapes: :func:`_kernel_args` of it have the types of the game's,
    nothing computed (a tiny memo)."""
    stand_in = Game(words, rule)
    shape = (stand_in.n_guesses, stand_in.n_answers)
    stand_in.__dict__["table"] = np.zeros(shape, dtype=np.uint8)  # (a cached property, set)

    def zero_bits(tab: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        n = tab.shape[1]
        return np.zeros((n, n, (len(guesses) + 63) // 64), dtype=np.uint64)

    return FeasibleSearch(stand_in, capacity=16, pair_bits=zero_bits)


def compile_feasible_first(words: WordList, rule: FeedbackRule) -> bool:
    """On an empty numba cache, compile the feasibility search (normal mode) for a game now,
    before its feedback table is built, while a second process compiles the table's, the
    partitions' and the pair bits' kernels (:data:`TABLES_AHEAD`): the two groups compile side
    by side on two cores, and the others are then loaded from the cache. Returns whether it
    compiled (False: compiled or cached already, or words of more than 5 letters)."""
    if Game(words, rule).n_codes > 256:
        return False  # (the search refuses such words)
    search = stand_in_search(words, rule)
    args = _kernel_args(search, search.game.all_answers()[:1], 1, search.guesses, (None,) * 4)
    if has_machine_code(fk.feasible_kernel, args):
        return False
    ahead.start(TABLES_AHEAD, table_kernels())
    fk.feasible_kernel.compile(tuple(fk.feasible_kernel.typeof_pyval(a) for a in args))
    ahead.wait(TABLES_AHEAD)
    return True


def _scratch(
    search: FeasibleSearch | HardFeasibleSearch, depth: int, guesses: np.ndarray
) -> tuple[np.ndarray, ...]:
    """The kernel's scratch buffers for a call: kept by the search for its largest depth so far
    (room for every guess of its game, and its pair bits), zeroed by the kernel where a call
    reads first (cheaper than making them: a proof makes thousands of short calls)."""
    kept = search._scratch
    n_w = search.bits.shape[2]
    if kept is not None and kept[1] >= depth and kept[0][0] >= len(guesses) and kept[0][1] == n_w:
        return kept[2]
    game = search.game
    shape = (max(len(guesses), game.n_guesses), n_w, game.n_answers, game.n_codes)
    levels = max(depth, 1 if kept is None or kept[0] != shape else kept[1])
    scratch = fk.new_scratch(levels, shape[2], shape[0], shape[3], shape[1])
    search._scratch = (shape, levels, scratch)
    return scratch


def feasible_python(
    table: np.ndarray, cands: np.ndarray, depth: int, guesses: np.ndarray, memo: dict | None = None
) -> bool:
    """The kernel's twin, written plainly: some guess splits the set into classes that are all
    feasible with one guess fewer. `table` is guesses x answers."""
    memo = {} if memo is None else memo
    known = settled(len(cands), depth)
    if known is not None:
        return known
    key = (depth, tuple(sorted(int(c) for c in cands)))
    if key in memo:
        return memo[key]
    result = False
    for g in guesses:
        classes: dict[int, list[int]] = {}
        for a in cands:
            classes.setdefault(int(table[g, a]), []).append(int(a))
        if len(classes) < 2:
            continue
        if all(
            len(part) == 1 or feasible_python(table, np.array(part), depth - 1, guesses, memo)
            for part in classes.values()
        ):
            result = True
            break
    memo[key] = result
    return result


HARD_IDS = {"game": hk.HARD_GAME, "strict": hk.HARD_STRICT}


def present_codes(game: Game) -> np.ndarray:
    """present[g, c]: some answer shows colours c to guess g (the classes that can occur)."""
    present = np.zeros((game.n_guesses, game.n_codes), dtype=np.bool_)
    present[np.arange(game.n_guesses)[:, None], game.table] = True
    return present


def allow_masks_python(game: Game, hard: str) -> np.ndarray:
    """Twin of :func:`~gamelab.wordle.solver._hard_feasible_kernels.allow_masks_kernel`, from the
    readable hard-mode rule (:meth:`Game.hard_pool`), one guess and colours at a time."""
    n_f = len(game.full_length_guesses)
    allow = np.zeros((game.n_guesses, game.n_codes, (n_f + 63) // 64), dtype=np.uint64)
    present = present_codes(game)
    for g in range(game.n_guesses):
        for c in np.flatnonzero(present[g]).tolist():
            for p in game.hard_pool(g, c, game.full_pool(), hard).tolist():
                allow[g, c, p // 64] |= np.uint64(1 << (p % 64))
    return allow


def pool_mask(pool: np.ndarray, n_words: int) -> np.ndarray:
    """Positions in the full-length guesses as a bit mask of `n_words` uint64 words."""
    mask = np.zeros(n_words, dtype=np.uint64)
    for p in np.asarray(pool).tolist():
        mask[p // 64] |= np.uint64(1 << (p % 64))
    return mask


def hard_feasibility_fits(game: Game) -> bool:
    """Whether :class:`HardFeasibleSearch` can be built for `game` (its tables' size; every
    answer is a full-length guess, as :class:`~gamelab.wordle.rules.WordList` checks)."""
    n_w = (len(game.full_length_guesses) + 63) // 64
    size = (game.n_answers**2 + game.n_guesses * game.n_codes) * n_w * 8
    return game.n_codes <= 256 and size <= HardFeasibleSearch.MAX_BYTES


class HardFeasibleSearch:
    """``feasible(cands, depth, pool)`` in hard mode (the game's rule or strict): every guess
    from the pool the colours so far allow (:func:`._feasible_kernels.feasible_kernel` with a
    pool)."""

    #: largest tables built (bytes): the pair bits and the allowed-word masks
    MAX_BYTES = 1 << 28

    def __init__(self, game: Game, hard: str, capacity: int = 1 << 21) -> None:
        if hard not in HARD_IDS:
            raise ValueError(f"hard mode must be game or strict, got {hard!r}")
        if not hard_feasibility_fits(game):
            raise ValueError(
                "the hard-mode feasibility search needs words of at most 5 letters and "
                f"tables of at most {self.MAX_BYTES >> 20} MB: these lists are too large"
            )
        fl = game.full_length_index
        n_w = (len(fl) + 63) // 64
        self.game, self.hard = game, hard
        self.tab = np.ascontiguousarray(game.table)
        self.fl_guess = np.ascontiguousarray(fl, dtype=np.int32)
        self.n_words = n_w
        self.bits = fk.pair_bits_kernel(self.tab, self.fl_guess)
        gcodes, glens = game.guess_codes
        fcodes, flens = gcodes[fl], glens[fl]
        self.allow = hk.allow_masks_kernel(
            gcodes, glens, fcodes, flens, present_codes(game), HARD_IDS[hard], game.rule_id,
            game.n_codes,
        )  # fmt: skip
        rng = np.random.default_rng(20261202)  # fixed: hashes belong to the memo, not results
        hi = np.iinfo(np.uint64).max
        self.rnd1 = rng.integers(0, hi, game.n_answers, dtype=np.uint64, endpoint=True)
        self.rnd2 = rng.integers(0, hi, game.n_answers, dtype=np.uint64, endpoint=True)
        self.salt1 = rng.integers(0, hi, n_w, dtype=np.uint64, endpoint=True)
        self.salt2 = rng.integers(0, hi, n_w, dtype=np.uint64, endpoint=True)
        self._scratch: Scratch | None = None  # (see _scratch)
        self.memo = new_memo(capacity)
        self.mk1, self.mk2, self.mflag, self.minf, self.mfeas, self.stats = self.memo
        self.full = pool_mask(game.full_pool(), n_w)

    def feasible(self, cands: np.ndarray, depth: int, pool: np.ndarray | None = None) -> bool:
        """Can every candidate be found within `depth` guesses, each from the pool and the
        pools its colours leave? `pool`: a mask (:func:`pool_mask`); None: every word."""
        mask = self.full if pool is None else np.ascontiguousarray(pool, dtype=np.uint64)
        return _ask_kernel(
            self, cands, depth, self.fl_guess, (mask, self.allow, self.salt1, self.salt2)
        )

    def opening(self, guess: int, depth: int) -> tuple[bool, np.ndarray | None]:
        """(feasible?, the class that refutes it) for first guess `guess` (any guess: the
        first is free) and `depth` guesses in all. Its classes are tried smallest first: the
        small ones are settled in microseconds and often refute it (upto-gen5 in the game's
        hard mode within 5 guesses, all 931 first guesses refuted: 148 CPU-s this way against
        about 233 s largest first, scratch runs at load 6-9; then 54 s with the kernel's own
        classes smallest first too)."""
        game = self.game
        cands = game.all_answers()
        if depth < 1:
            return False, cands
        parts = sorted(game.partition(guess, cands).items(), key=lambda kv: len(kv[1]))
        for code, part in parts:
            if len(part) == 1 and game.is_answer(guess, int(part[0])):
                continue
            if not self.feasible(part, depth - 1, self.full & self.allow[guess, code]):
                return False, part
        return True, None


def hard_feasible_python(
    game: Game,
    cands: np.ndarray,
    depth: int,
    pool: np.ndarray,
    hard: str,
    memo: dict | None = None,
) -> bool:
    """Twin of :func:`~gamelab.wordle.solver._feasible_kernels.feasible_kernel` in hard mode, written
    plainly: some guess of `pool` (positions in the full-length guesses) splits the set into
    classes that are all feasible with one guess fewer, each from the pool its colours leave
    (:meth:`Game.hard_pool`)."""
    memo = {} if memo is None else memo
    known = settled(len(cands), depth)
    if known is not None:
        return known
    key = (depth, tuple(sorted(int(c) for c in cands)), tuple(sorted(int(p) for p in pool)))
    if key in memo:
        return memo[key]
    result = False
    for g in game.full_length_index[pool].tolist():
        classes: dict[int, list[int]] = {}
        for a in cands:
            classes.setdefault(int(game.table[g, a]), []).append(int(a))
        if len(classes) < 2:
            continue
        if all(
            len(part) == 1
            or hard_feasible_python(
                game,
                np.array(part),
                depth - 1,
                game.hard_pool(g, code, pool, hard),
                hard,
                memo,
            )
            for code, part in classes.items()
        ):
            result = True
            break
    memo[key] = result
    return result


@dataclass
class OpeningResult:
    """One first guess under the limit: feasible, or refuted by the class named."""

    guess: str
    feasible: bool
    refuting_class: list[str] = field(default_factory=list)


@dataclass
class Feasibility:
    """Whether any strategy finds every answer within `max_guesses` guesses."""

    names: str
    rule: str
    max_guesses: int
    answers: int
    guesses: int
    feasible: bool
    feasible_first_guesses: list[str]
    openings_checked: int
    statement: str
    smallest_refuting_class: list[str] = field(default_factory=list)
    seconds: float = 0.0
    openings: list[OpeningResult] = field(default_factory=list, metadata={"json": False})


@lru_cache(maxsize=4)
def _search_for(words: WordList, rule: FeedbackRule) -> FeasibleSearch:
    """One search (and its memo) per worker process and game."""
    return FeasibleSearch(Game(words, rule))


def _openings_task(
    item: tuple[WordList, FeedbackRule, int, list[int]], rng: Any
) -> list[list[Any]]:
    """[[guess index, feasible, refuting class]] for a chunk of first guesses."""
    words, rule, depth, chunk = item
    search = _search_for(words, rule)
    out = []
    for g in chunk:
        ok, part = search.opening(g, depth)
        out.append([g, ok, [] if part is None else [int(a) for a in part]])
    return out


def feasible_within(setting: Setting, out_of_time: Callable[[], bool]) -> bool | None:
    """:func:`feasible_opening`'s answer alone."""
    return feasible_opening(setting, out_of_time)[0]


def feasible_opening(
    setting: Setting, out_of_time: Callable[[], bool]
) -> tuple[bool | None, int | None]:
    """(whether a strategy within the setting's guess limit exists, the first guess of one if
    so). Whether a strategy within the setting's guess limit exists (normal mode, or either hard
    mode), in this process: the first guesses are tried most classes first (a feasible one is
    usually found at once), each by :meth:`FeasibleSearch.opening` (hard mode:
    :meth:`HardFeasibleSearch.opening`); `out_of_time` is asked before each, and True stops
    the proof (None: not settled). What ``solve-optimal``'s depth limits ask first: proving a
    limit infeasible this way is far cheaper than by the optimal search (upto-gen3 within 4
    guesses: 1.7 s of CPU; docs/wordle.md). Hard mode on lists too large for its tables
    (:attr:`HardFeasibleSearch.MAX_BYTES`) raises ValueError."""
    if setting.max_guesses is None:
        raise ValueError("the feasibility proof needs a guess limit")
    max_guesses = setting.max_guesses
    game = Game.of(setting)
    for target in (AHEAD, HELPERS_AHEAD):  # solve-optimal's second process (one of them)
        ahead.wait(target)
    search: FeasibleSearch | HardFeasibleSearch
    if setting.hard is None:
        search = FeasibleSearch(game)
    else:
        search = HardFeasibleSearch(game, setting.hard)
    guesses = np.arange(game.n_guesses, dtype=np.int32)  # (the first guess is free)
    classes, _, _ = _kernels.split_stats_kernel(
        game.table,
        game.all_answers(),
        guesses,
        game.green,
        game.n_codes,
        game.answer_of_guess,
    )
    for g in np.argsort(-classes, kind="stable").tolist():
        if out_of_time():
            return None, None
        if search.opening(int(guesses[g]), max_guesses)[0]:
            return True, int(guesses[g])
    return False, None


def _limit(setting: Setting) -> int:
    """The guess limit `setting` asks about (normal mode, a limit)."""
    if setting.hard is not None:
        raise ValueError("the feasibility proof is for normal mode (any guess allowed)")
    if setting.max_guesses is None:
        raise ValueError("the feasibility proof needs a guess limit")
    return setting.max_guesses


def prove_feasible(
    setting: Setting,
    *,
    backend: Backend | None = None,
    store: Any = None,
    chunk: int = 16,
) -> Feasibility:
    """Settle whether a strategy within the setting's guess limit exists (normal mode): every
    first guess is checked (in tasks of `chunk` first guesses, on `backend`, kept in `store` if
    given)."""
    max_guesses = _limit(setting)
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    start = time.monotonic()
    game = Game.of(setting)
    items, params = _job(game, max_guesses, chunk)
    rows = run_tasks(
        _openings_task,
        items,
        seed=0,
        backend=backend,
        label=f"first guesses within {max_guesses}",
        store=store,
        experiment=EXPERIMENT,
        params=params if store is not None else None,
        prepare=lambda: _compile_once(game.words, game.rule),
    )
    return _assemble(game, max_guesses, rows, time.monotonic() - start)


def _compile_once(words: WordList, rule: FeedbackRule) -> None:
    """Before the workers start: compile their kernels here, in two processes
    (:func:`compile_feasible_first`), so each worker loads them instead of compiling them all."""
    compile_feasible_first(words, rule)


def shipped_proofs() -> list[dict[str, Any]]:
    """The shipped proofs (see :data:`SHIPPED`)."""
    text = resources.files("gamelab.wordle").joinpath(SHIPPED).read_text(encoding="utf-8")
    return list(json.loads(text)["proofs"])


def shipped_feasibility(setting: Setting) -> bool | None:
    """Whether a strategy within the setting's guess limit exists, if a shipped proof settles
    it (normal mode, this word list and rule), else None."""
    max_guesses = _limit(setting)
    words = setting.words.fingerprint()
    for proof in shipped_proofs():
        if (proof["words"], proof["rule"], proof["max_guesses"]) == (
            words,
            setting.rule,
            max_guesses,
        ):
            return bool(proof["feasible"])
    return None


def stored_feasibility(setting: Setting, store: Any, chunk: int = 16) -> Feasibility | None:
    """The answer of a finished :func:`prove_feasible` run kept in `store`, else None."""
    if store is None:
        return None
    max_guesses = _limit(setting)
    game = Game.of(setting)
    items, params = _job(game, max_guesses, chunk)
    done = store.finished(EXPERIMENT, {**params, "seed": 0}, len(items))
    if len(done) < len(items):
        return None
    return _assemble(game, max_guesses, [done[i] for i in range(len(items))], 0.0)


def _job(game: Game, max_guesses: int, chunk: int) -> tuple[list, dict[str, Any]]:
    """The tasks (chunks of first guesses) and the stored run's parameters."""
    words = game.words
    order = list(range(game.n_guesses))
    chunks = [order[i : i + chunk] for i in range(0, len(order), chunk)]
    items = [(words, game.rule, max_guesses, c) for c in chunks]
    params = {
        "words": words.fingerprint(),
        "rule": game.rule,
        "max_guesses": max_guesses,
        "chunk": chunk,
        "version": VERSION,
    }
    return items, params


def _assemble(game: Game, max_guesses: int, rows: list, seconds: float) -> Feasibility:
    words = game.words
    openings = []
    for task in rows:
        for g, ok, part in task:
            openings.append(
                OpeningResult(
                    guess=words.guesses[g],
                    feasible=bool(ok),
                    refuting_class=[words.answers[a] for a in part],
                )
            )
    good = [o.guess for o in openings if o.feasible]
    refuting = [o.refuting_class for o in openings if not o.feasible]
    smallest = min(refuting, key=len) if refuting else []
    mode = f"at most {max_guesses} guesses, {game.rule} rule, normal mode"
    if good:
        statement = (
            f"feasible: {len(good)} of {len(openings)} first guesses find every answer within "
            f"{max_guesses} guesses ({mode})"
        )
    else:
        statement = (
            f"infeasible (proven): after each of the {len(openings)} first guesses some answers "
            f"cannot all be found within {max_guesses} guesses ({mode})"
        )
    return Feasibility(
        names=words.name,
        rule=game.rule,
        max_guesses=max_guesses,
        answers=game.n_answers,
        guesses=game.n_guesses,
        feasible=bool(good),
        feasible_first_guesses=good,
        openings_checked=len(openings),
        statement=statement,
        smallest_refuting_class=smallest,
        seconds=seconds,
        openings=openings,
    )
