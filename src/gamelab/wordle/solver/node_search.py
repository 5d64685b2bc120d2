"""The exact search's node recursion in plain Python, with its lower bounds (the base of
:class:`gamelab.wordle.solver.optimal.OptimalSolver`).

:class:`NodeSearch` holds a solver's setting, memo and limits and values one node: ``value``
(the recursion f(S) = |S| + min_t sum f(class), with a budget: exact below it, else a proven
lower bound at least the budget), ``best_guess`` and the bounds that order and cut the search
(``node_bound``: the best one-level bound; ``two_level_bound``: a guess's classes each bounded
by theirs). With ``engine="numba"`` a node goes to the kernel search
(:class:`gamelab.wordle.solver.kernel_search.KernelSearch`) and the Python recursion here is
its plain-Python twin; :class:`~gamelab.wordle.solver.optimal.OptimalSolver` adds the root (every
first guess, ties, time limits) and the report.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from gamelab.wordle import _kernels
from gamelab.wordle.rules import Setting
from gamelab.wordle.solver._bound_kernels import class_bounds
from gamelab.wordle.solver._memo_kernels import UNLIMITED
from gamelab.wordle.solver.kernel_search import INF, KernelSearch, SearchTimeout
from gamelab.wordle.table import Game

ENGINES = ("numba", "python")  # the kernel search, or its plain-Python twin (this class)


class NodeSearch:
    """The node-level search of a :class:`~gamelab.wordle.rules.Setting` (its word list, rule,
    hard mode and guess limit; ``max_guesses`` None: no limit); see the module docstring."""

    def __init__(
        self,
        setting: Setting,
        *,
        time_limit: float | None = None,
        progress: Callable[[str], None] | None = None,
        engine: str = "numba",
        cpu_limit: float | None = None,
        memo_from: NodeSearch | None = None,
    ) -> None:
        if not isinstance(setting, Setting):
            raise TypeError(f"a rules.Setting is needed, not {type(setting).__name__}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time_limit must be positive, got {time_limit}")
        if cpu_limit is not None and cpu_limit <= 0:
            raise ValueError(f"cpu_limit must be positive, got {cpu_limit}")
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}; allowed: {', '.join(ENGINES)}")
        self.setting = setting
        self.game = game = Game.of(setting)
        self.hard = setting.hard  # (the Setting checked it against the rule)
        self.engine = engine
        self._kernel: KernelSearch | None = (
            KernelSearch(game, self.hard) if engine == "numba" else None
        )
        self.floor_shift = 0  # (memo_from: how many guesses looser its limit is)
        if memo_from is not None:
            # one memo for the limits of one game: a node's entries are keyed by the guesses
            # left, and a looser limit's entry bounds this limit's from below
            if (memo_from.game.words.fingerprint(), memo_from.game.rule, memo_from.hard) != (
                game.words.fingerprint(),
                game.rule,
                self.hard,
            ) or memo_from.engine != engine:
                raise ValueError("memo_from must solve the same words, rule, mode and engine")
            self._kernel = memo_from._kernel
            mine, theirs = setting.max_guesses, memo_from.setting.max_guesses
            if theirs is None or mine is None:
                shift = UNLIMITED if mine is not None else 0
            else:
                shift = max(theirs - mine, 0)
            self.floor_shift = shift
            if self._kernel is not None:
                self._kernel.floor_shift = shift  # (any looser limit's entry is a bound)
        self.max_guesses = setting.max_guesses
        self.time_limit = time_limit
        self.cpu_limit = cpu_limit
        self._cpu_deadline = float("inf")
        self.progress = progress
        self.all_guesses = np.arange(game.n_guesses, dtype=np.int32)
        self._splitters: np.ndarray | None = None
        # a budgeted opening search starts from its classes' one-level bounds (False: from
        # 2m - 1, as earlier, kept for the side-by-side benchmark)
        self.seed_class_bounds = True
        # the last one-pass two-level bound: (first guess, guesses left, classes, their bounds)
        self._class_bounds: tuple[int, int | None, list[np.ndarray], list[int]] | None = None
        if self.hard:
            self.pool_guess = game.full_length_index
        self.exact: dict[bytes, tuple[int, int]] = {} if memo_from is None else memo_from.exact
        self.lower: dict[bytes, int] = {} if memo_from is None else memo_from.lower
        self.nodes = 0
        self.bound_min_size = 20
        # how far one visit raises a first guess's bound (the kernel settles each first guess
        # in one visit, in order of bound: fastest, and the lower bound still climbs)
        self.root_step = 8 if engine == "python" else INF
        self.root_full = 5  # first guesses (by bound) searched to the end before that
        self._deadline = float("inf")
        self._kernels_loaded = False  # (deadline: compiled before its clock starts)
        self.repaired: int | None = None  # the last solve's repaired upper bound (looser)

    @contextmanager
    def deadline(self, seconds: float | None) -> Iterator[None]:
        """Bound the searches made inside the block (``best_guess``, ``value``) to `seconds` of
        wall time: past it they raise :class:`SearchTimeout` (None: no bound). The clock starts
        once the search kernels are compiled: a first call on a cold cache spends its compiling
        outside the bound, so a cold first answer is not a fallback for want of time."""
        if seconds and not self._kernels_loaded:
            self.load_kernels()
        old = self._deadline
        self._deadline = time.monotonic() + seconds if seconds else float("inf")
        try:
            yield
        finally:
            self._deadline = old

    def load_kernels(self) -> float:
        """CPU seconds spent loading the compiled search kernels (0 if already loaded in this
        process, or with the Python engine); no search is done."""
        self._kernels_loaded = True
        return 0.0 if self._kernel is None else self._kernel.load()

    # -- helpers ---------------------------------------------------------------------------
    def _out_of_time(self) -> bool:
        """Past the wall-clock `time_limit` or the CPU `cpu_limit` (``process_time``: what this
        process spent, whatever the machine's load) of the current search."""
        return time.monotonic() > self._deadline or time.process_time() > self._cpu_deadline

    def _key(self, cands: np.ndarray, depth: int | None, pool: np.ndarray | None) -> bytes:
        d = -1 if depth is None else depth
        key = d.to_bytes(2, "little", signed=True) + cands.tobytes()
        if pool is not None:
            key += b"|" + pool.tobytes()
        return key

    def _guesses(self, pool: np.ndarray | None) -> np.ndarray:
        return self.all_guesses if pool is None else self.pool_guess[pool]

    @staticmethod
    def _min_cost(m: int) -> int:
        return 2 * m - 1

    def _child_lb(self, part: np.ndarray, depth: int | None, pool: np.ndarray | None) -> int:
        m = len(part)
        if depth is not None and (depth < 1 or (depth == 1 and m > 1)):
            return INF
        if m <= 2:
            if depth is not None and ((m == 1 and depth < 1) or (m == 2 and depth < 2)):
                return INF
            return 2 * m - 1
        key = self._key(part, depth, pool)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        return max(self.lower.get(key, 0), 2 * m - 1, self._unlimited_floor(part, depth, pool))

    def _unlimited_floor(
        self, cands: np.ndarray, depth: int | None, pool: np.ndarray | None
    ) -> int:
        """What the shared memo proves of the node under `memo_from`'s looser limit, at the
        same level (``floor_shift`` guesses more left): a lower bound here, as a strategy
        within this limit is one within the looser; 0 if nothing (twin of the kernel's
        ``floor_shift``)."""
        if depth is None or not self.floor_shift:
            return 0
        looser = None if self.floor_shift >= UNLIMITED else depth + self.floor_shift
        key = self._key(cands, looser, pool)
        hit = self.exact.get(key)
        return hit[0] if hit is not None else self.lower.get(key, 0)

    def _children(self, guess: int, cands: np.ndarray, pool: np.ndarray | None):
        """[(code, candidates, pool)] of the non-green classes, largest first."""
        out = []
        for code, part in self.game.partition(guess, cands).items():
            if len(part) == 1 and self.game.is_answer(guess, part[0]):
                continue
            child_pool = None
            if pool is not None and len(part) > 1:  # (a single candidate needs no pool)
                child_pool = self.game.hard_pool(guess, code, pool, self.hard)
            out.append((code, part, child_pool))
        out.sort(key=lambda x: -len(x[1]))
        return out

    def _ordered_moves(self, cands: np.ndarray, depth: int | None, pool: np.ndarray | None):
        """(guesses, lower bounds, exact flags) sorted by bound (ties: candidates, then index)."""
        guesses = self._guesses(pool)
        classes, hit, largest = _kernels.split_stats_kernel(
            self.game.table,
            cands,
            guesses,
            self.game.green,
            self.game.n_codes,
            self.game.answer_of_guess,
        )
        n = len(cands)
        lb = n + 2 * (n - hit) - classes
        useful = (classes >= 2) | (hit == 1)
        if depth is not None:
            rem = depth - 1
            if rem <= 0:
                useful &= n == 1
            elif rem == 1:
                useful &= largest <= 1
        exact = largest <= 2 if (depth is None or depth - 1 >= 2) else largest <= 1
        idx = np.flatnonzero(useful)
        order = idx[np.lexsort((idx, -hit[idx], lb[idx]))]
        return guesses[order], lb[order], exact[order]

    # -- the search ------------------------------------------------------------------------
    def value(
        self,
        cands: np.ndarray,
        budget: int,
        depth: int | None = None,
        pool: np.ndarray | None = None,
        history: Sequence[tuple[int, int]] = (),
    ) -> int:
        """f(cands) if it is < budget, else a proven lower bound >= budget. (`history`, the
        guesses and colours that led here, is needed by the kernel in the game's hard mode.)"""
        if self._kernel is not None:
            return self._kernel_call(cands, budget, depth, pool, -1, history)[0]
        n = len(cands)
        if depth is not None and depth < 1:
            return INF
        if n == 1:
            return 1
        if n == 2:
            return 3 if depth is None or depth >= 2 else INF
        key = self._key(cands, depth, pool)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        lower = max(self.lower.get(key, 0), 2 * n - 1, self._unlimited_floor(cands, depth, pool))
        if lower >= budget:
            return lower
        self.nodes += 1
        if self.nodes & 255 == 0 and self._out_of_time():
            raise SearchTimeout
        best, best_guess = budget, -1
        guesses, lbs, exact = self._ordered_moves(cands, depth, pool)
        if len(guesses) == 0:
            self.exact[key] = (INF, -1)
            return INF
        lower = max(lower, int(lbs[0]))
        sub_depth = None if depth is None else depth - 1
        for g, lb_g, ex in zip(guesses.tolist(), lbs.tolist(), exact.tolist(), strict=True):
            if lb_g >= best:
                break
            if ex:
                best, best_guess = lb_g, g
                break  # exact and minimal among the remaining bounds
            cost = self._guess_cost(g, cands, best, sub_depth, pool)
            if cost < best:
                best, best_guess = cost, g
        if best_guess >= 0:
            self.exact[key] = (best, best_guess)
            return best
        self.lower[key] = max(lower, budget)
        return max(lower, budget)

    def _guess_cost(
        self, g: int, cands: np.ndarray, budget: int, sub_depth: int | None, pool: np.ndarray | None
    ) -> int:
        """Cost of guess g at this node if < budget, else a lower bound >= budget."""
        if self._kernel is not None:
            depth = None if sub_depth is None else sub_depth + 1
            return self._kernel_call(cands, budget, depth, pool, g)[0]
        n = len(cands)
        children = self._children(g, cands, pool)
        child_lbs = [
            self.node_bound(p, sub_depth, cp)
            if len(p) >= self.bound_min_size
            else self._child_lb(p, sub_depth, cp)
            for _, p, cp in children
        ]
        rest = sum(child_lbs)
        acc = n
        if acc + rest >= budget:
            return acc + rest
        for (_, part, cpool), clb in zip(children, child_lbs, strict=True):
            rest -= clb
            v = self.value(part, budget - acc - rest, sub_depth, cpool)
            acc += v
            if acc + rest >= budget:
                return acc + rest
        return acc

    def node_bound(self, cands: np.ndarray, depth: int | None, pool: np.ndarray | None) -> int:
        """A proven lower bound for a node: the best one-level bound over its guesses."""
        n = len(cands)
        if n <= 2:
            return self._child_lb(cands, depth, pool)
        key = self._key(cands, depth, pool)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        known = self.lower.get(key, 0)
        if known:
            return known
        rem = -1 if depth is None else depth - 1
        bound = _kernels.min_bound_kernel(
            self.game.table,
            cands,
            self._guesses(pool),
            self.game.n_codes,
            self.game.answer_of_guess,
            rem,
        )
        bound = min(max(int(bound), 2 * n - 1), INF)
        self.lower[key] = bound
        return bound

    def two_level_bound(
        self, g: int, cands: np.ndarray, sub_depth: int | None, pool: np.ndarray | None
    ) -> int:
        """Lower bound for playing g here: n + the node bounds of its classes (in normal mode
        the numba engine bounds every class in one pass over the table, the same bounds:
        :mod:`gamelab.wordle.solver._bound_kernels`)."""
        if self._kernel is not None and pool is None:
            return self._two_level_one_pass(g, cands, sub_depth)
        total = len(cands)
        for _, part, cpool in self._children(g, cands, pool):
            total += self.node_bound(part, sub_depth, cpool)
            if total >= INF:
                return INF
        return total

    def _splitters_first(self) -> np.ndarray:
        """Every guess, best one-level bound on all answers first (classes then reach their
        floor early in :func:`class_bounds`; the bounds do not depend on the order)."""
        if self._splitters is None:
            guesses, _, _ = self._ordered_moves(self.game.all_answers(), None, None)
            rest = np.setdiff1d(self.all_guesses, guesses)  # (guesses that split nothing)
            self._splitters = np.concatenate([guesses, rest]).astype(np.int32)
        return self._splitters

    def _two_level_one_pass(self, g: int, cands: np.ndarray, sub_depth: int | None) -> int:
        """:meth:`two_level_bound` in normal mode, every class of 3 or more in one kernel call."""
        total = len(cands)
        big: list[np.ndarray] = []
        self._class_bounds = (g, sub_depth, [], [])
        for _, part, _ in self._children(g, cands, None):
            if len(part) <= 2:
                total += self._child_lb(part, sub_depth, None)
            else:
                big.append(part)
            if total >= INF:
                return INF
        if not big:
            return total
        sizes = np.array([len(p) for p in big], dtype=np.int64)
        members = np.concatenate(big)
        order = np.argsort(members, kind="stable")  # each guess's row read in order
        cls = np.repeat(np.arange(len(big), dtype=np.int64), sizes)[order]
        rem = -1 if sub_depth is None else sub_depth - 1
        best = class_bounds(
            self.game.table,
            members[order],
            cls,
            sizes,
            self._splitters_first(),
            self.game.n_codes,
            self.game.answer_of_guess,
            rem,
        )
        pairs = zip(sizes.tolist(), best.tolist(), strict=True)
        bounds = [min(max(int(b), 2 * m - 1), INF) for m, b in pairs]
        self._class_bounds = (g, sub_depth, big, bounds)
        return min(total + sum(bounds), INF)

    def _seed_class_bounds(
        self, first: int, cands: np.ndarray, pool: np.ndarray | None, sub_depth: int | None
    ) -> None:
        """Keep the one-level bounds of `first`'s classes in the kernel's memo, so its budgeted
        search gives each class a budget of its bound plus the slack the other bounds leave,
        and a refutation stops at the first class that exceeds it (instead of solving the
        classes before it exactly). Normal mode: the bounds of the last one-pass two-level
        bound; hard mode: each class's node bound over its own pool (memoised by
        :meth:`two_level_bound`), keyed by the class's history."""
        assert self._kernel is not None
        if pool is None:
            known = self._class_bounds
            if known is None or known[0] != first or known[1] != sub_depth:
                self._two_level_one_pass(first, cands, sub_depth)
                known = self._class_bounds
            assert known is not None
            for part, bound in zip(known[2], known[3], strict=True):
                if bound > 2 * len(part) - 1:  # (the search knows 2m - 1 itself)
                    self._kernel.record_lower(part, sub_depth, None, (), bound)
            return
        for code, part, cpool in self._children(first, cands, pool):
            if len(part) >= 3:
                bound = self.node_bound(part, sub_depth, cpool)
                if bound > 2 * len(part) - 1:
                    self._kernel.record_lower(part, sub_depth, cpool, [(first, code)], bound)

    def best_guess(
        self,
        cands: np.ndarray,
        depth: int | None = None,
        pool: np.ndarray | None = None,
        history: Sequence[tuple[int, int]] = (),
    ) -> tuple[int, int]:
        """(optimal total, an optimal guess) for a node, solving it if needed."""
        n = len(cands)
        if n <= 2:
            return (1 if n == 1 else 3), int(self.game.guess_of_answer[cands[0]])
        if self._kernel is not None:
            known = self._kernel.lookup(cands, depth, pool, history)
            if known is not None:
                return known
            value = self.value(cands, INF, depth, pool, history)
            return value, self._kernel.best_guess(cands, depth, pool, history)
        self.value(cands, INF, depth, pool)
        return self.exact[self._key(cands, depth, pool)]

    def _kernel_call(
        self,
        cands: np.ndarray,
        budget: int,
        depth: int | None,
        pool: np.ndarray | None,
        forced: int,
        history: Sequence[tuple[int, int]] = (),
    ) -> tuple[int, int]:
        assert self._kernel is not None
        value, guess = self._kernel.run(
            cands, budget, depth, pool, forced, self._deadline, history, self._cpu_deadline
        )
        self.nodes = self._kernel.nodes
        return value, guess
