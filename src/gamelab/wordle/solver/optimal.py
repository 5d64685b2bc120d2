"""Proven-optimal strategies: the fewest total guesses over all answers.

Computes f(H) = |H| + min_t sum_{s != green} f(P(H, t, s)) exactly (Bertsimas & Paskov's
recursion), searching every allowed guess t at every node, in the manner of Alex Selby's solver
(github.com/alex1770/wordle): depth-first with a budget (a node is abandoned as soon as its
partial sum plus lower bounds reaches the best total known), guesses ordered by their lower
bound, and memoisation of exact values and of proven lower bounds.

Admissible bound: a class of m answers needs at least 2m - 1 guesses in total (one of them can
be guessed at once, each other needs at least two), so guess t at a node of n answers costs at
least ``n + 2(n - c_t) - k_t`` where c_t = 1 if t is a candidate and k_t is its number of
non-green classes. The bound is exact when no class has more than 2 answers, which settles most
small nodes without recursion. One kernel call (guesses x candidates) per node gives every
guess's bound.

Options: a depth limit (no answer may need more than `max_guesses` guesses), hard mode (every
later guess must be consistent with the feedback so far: here, a full-length word that would have
shown the same colours), a time limit (then the proven lower and upper bounds are reported), and
tie enumeration at the root (all optimal first guesses). The result carries the lower bound; it
equals the total exactly when the search finished.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gamelab.wordle import _kernels
from gamelab.wordle.rules import Setting
from gamelab.wordle.solver._bound_kernels import class_bounds_kernel
from gamelab.wordle.solver._memo_kernels import UNLIMITED
from gamelab.wordle.solver.kernel_search import INF, KernelSearch, SearchTimeout
from gamelab.wordle.solver.tree import render_tree, strategy_arrays
from gamelab.wordle.table import Game

ENGINES = ("numba", "python")  # the kernel search, or its plain-Python twin (this class)


@dataclass
class OptimalResult:
    total: int | None  # best total found (upper bound); None if none within limits
    lower_bound: int  # proven: no strategy needs fewer guesses
    proven: bool  # lower_bound == total
    first_guesses: list[str]  # every first guess achieving `total` (when proven)
    distribution: dict[int, int] = field(default_factory=dict)
    worst: int | None = None
    seconds: float = 0.0
    nodes: int = 0
    root_bounds: dict[str, tuple[int, int | None]] = field(default_factory=dict)
    tree: dict[str, Any] | None = None  # the strategy's JSON document (a rendering of `strategy`)
    strategy: dict[str, np.ndarray] | None = None  # the Strategy arrays (solver/tree.py)


class OptimalSolver:
    """``OptimalSolver(setting).solve()`` -> :class:`OptimalResult`: the optimum of a
    :class:`~gamelab.wordle.rules.Setting` (its word list, rule, hard mode and guess limit;
    ``max_guesses`` None: no limit)."""

    # a first guess's first budget above a given lower bound (solve), doubled at each visit up
    # to ROOT_STEP_MAX, then none (an infeasible guess is proven so at last)
    ROOT_STEP = 8
    ROOT_STEP_MAX = 64

    def __init__(
        self,
        setting: Setting,
        *,
        time_limit: float | None = None,
        progress: Callable[[str], None] | None = None,
        engine: str = "numba",
        cpu_limit: float | None = None,
        memo_from: OptimalSolver | None = None,
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
        # 2m - 1, as before session 8, kept for the side-by-side benchmark)
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
        self.repaired: int | None = None  # the last solve's repaired upper bound (looser)

    @contextmanager
    def deadline(self, seconds: float | None) -> Iterator[None]:
        """Bound the searches made inside the block (``best_guess``, ``value``) to `seconds` of
        wall time: past it they raise :class:`SearchTimeout` (None: no bound)."""
        old = self._deadline
        self._deadline = time.monotonic() + seconds if seconds else float("inf")
        try:
            yield
        finally:
            self._deadline = old

    def load_kernels(self) -> float:
        """CPU seconds spent loading the compiled search kernels (0 if already loaded in this
        process, or with the Python engine); no search is done."""
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
        floor early in :func:`class_bounds_kernel`; the bounds do not depend on the order)."""
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
        best = class_bounds_kernel(
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

    # -- the root and the report -----------------------------------------------------------
    def _start(self) -> tuple[float, np.ndarray, np.ndarray | None, int | None]:
        """Start the clock; the root's candidates, pool (hard mode) and guesses left below it."""
        start = time.monotonic()
        self._deadline = start + self.time_limit if self.time_limit else float("inf")
        cpu = time.process_time()
        self._cpu_deadline = cpu + self.cpu_limit if self.cpu_limit else float("inf")
        pool = self.game.full_pool() if self.hard else None
        sub_depth = None if self.max_guesses is None else self.max_guesses - 1
        return start, self.game.all_answers(), pool, sub_depth

    def opening_bound(self, first: int) -> int:
        """A proven lower bound for opening with guess `first` (the two-level bound: the first
        guess's classes, each bounded by its best one-level bound), INF when the guess limit
        cannot be met after it."""
        _, cands, pool, sub_depth = self._start()
        return self.two_level_bound(first, cands, sub_depth, pool)

    def opening_cost(self, first: int, budget: int) -> int:
        """The exact total of opening with `first` then playing optimally, if it is below
        `budget`; else a proven lower bound >= `budget` (the search stops as soon as it knows)."""
        _, cands, pool, sub_depth = self._start()
        if self._kernel is not None and budget < INF and self.seed_class_bounds:
            self._seed_class_bounds(first, cands, pool, sub_depth)
        return self._guess_cost(first, cands, budget, sub_depth, pool)

    def solve(
        self,
        upper_bound: int | None = None,
        lower_bound: int | None = None,
        looser: OptimalSolver | None = None,
        openings: Sequence[int] = (),
    ) -> OptimalResult:
        """Solve from the full answer list; every optimal first guess is identified.

        `upper_bound`, if given, must be the total of a known strategy satisfying the same
        constraints (it only speeds up the search). `lower_bound`, if given, must be proven
        (e.g. the optimum under a looser guess limit): then, until a strategy is found, each
        first guess is searched with a budget a little above it, doubled for that guess at
        every visit (``ROOT_STEP`` .. ``ROOT_STEP_MAX``, then without a budget, as without
        `lower_bound`): a depth-limited search without a budget explores strategies far worse
        than the optimum. `looser`, a solver of the same game under a looser guess limit (or
        none), with `openings`, some first guesses: each opening played as `looser` plays, made
        to meet this limit (:meth:`repaired_opening`), is a strategy whose total is an upper
        bound too."""
        start, cands, pool, sub_depth = self._start()
        floor = 0 if lower_bound is None else lower_bound
        self.repaired = None
        if looser is not None:
            repaired = INF
            try:
                for first in dict.fromkeys(openings):
                    repaired = min(repaired, self.repaired_opening(first, looser))
            except SearchTimeout:
                pass
            if repaired < INF:
                self.repaired = repaired
                upper_bound = repaired if upper_bound is None else min(upper_bound, repaired)
        game = self.game
        # the first guess is free in hard mode too: the pool only constrains later guesses
        guesses, lbs, _ = self._ordered_moves(cands, self.max_guesses, None)
        lbs = lbs.astype(np.int64)  # the one-level bounds, raised to the two-level ones
        timed_out = False
        try:
            for i, g in enumerate(guesses.tolist()):
                if i % 16 == 0 and self._out_of_time():  # (931 hard-mode bounds: seconds)
                    raise SearchTimeout
                lbs[i] = max(int(lbs[i]), self.two_level_bound(g, cands, sub_depth, pool))
        except SearchTimeout:
            timed_out = True
        order = np.lexsort((np.arange(len(guesses)), lbs))
        guesses, lbs = guesses[order], lbs[order]
        bounds: dict[int, list] = {
            int(g): [int(b), None] for g, b in zip(guesses, lbs, strict=True)
        }
        # (a strategy with total upper_bound exists: a first guess bounded above it is out)
        best = INF if upper_bound is None else upper_bound
        # Best first over the first guesses: always raise the lowest bound a little (budget =
        # bound + step), so the proven lower bound climbs steadily if the time limit stops the
        # search; a guess whose cost is found below its budget is settled exactly.
        heap = [
            (max(b, floor), k, g)
            for k, (g, b) in enumerate(zip(guesses.tolist(), lbs.tolist(), strict=True))
        ]
        heapq.heapify(heap)
        settled = settled_exact = visits = 0
        step = dict.fromkeys(guesses.tolist(), self.ROOT_STEP)  # (with a lower bound)
        try:
            while not timed_out and heap and heap[0][0] <= best:
                b, k, g = heapq.heappop(heap)
                if lower_bound is not None and best >= INF and step[g] <= self.ROOT_STEP_MAX:
                    budget = min(b + step[g], best + 1)
                    step[g] *= 2
                else:
                    # the most promising first guesses are settled fully: strategies of our
                    # own, far better upper bounds than a heuristic's
                    full = settled_exact < 1 or visits < self.root_full
                    budget = best + 1 if full else min(b + self.root_step, best + 1)
                visits += 1
                cost = self._guess_cost(g, cands, budget, sub_depth, pool)
                if cost < budget:
                    bounds[g] = [cost, cost]
                    best = min(best, cost)
                    settled += 1
                    settled_exact += 1
                else:
                    bounds[g][0] = max(bounds[g][0], cost)
                    if bounds[g][0] <= best:
                        heapq.heappush(heap, (bounds[g][0], k, g))
                    else:
                        settled += 1
                if self.progress:
                    low = min(heap[0][0], best) if heap else best
                    self.progress(
                        f"{game.words.guesses[g]}: {'= ' if cost < budget else '>= '}{cost}; "
                        f"best {best}; proven lower bound {low}; "
                        f"{settled}/{len(guesses)} first guesses settled"
                    )
        except SearchTimeout:
            timed_out = True
        exact_totals = [v[1] for v in bounds.values() if v[1] is not None]
        total = min(exact_totals) if exact_totals else None
        if total is None and upper_bound is not None:
            total = upper_bound
        lower = max(min(v[0] for v in bounds.values()) if bounds else INF, floor)
        if total is not None:
            lower = min(lower, total)
        if total is None and not timed_out:
            lower = INF  # infeasible
        proven = not timed_out and total is not None and lower == total
        firsts = [g for g, v in bounds.items() if v[1] is not None and v[1] == total]
        result = OptimalResult(
            total=total,
            lower_bound=lower,
            proven=proven,
            first_guesses=[game.words.guesses[g] for g in sorted(firsts)],
            seconds=time.monotonic() - start,
            nodes=self.nodes,
            root_bounds={game.words.guesses[g]: (v[0], v[1]) for g, v in bounds.items()},
        )
        if firsts:
            self._attach_tree(result, sorted(firsts)[0])
        return result

    def repaired_opening(self, first: int, looser: OptimalSolver) -> int:
        """The total of a strategy within this solver's guess limit that opens with `first`
        and then plays as `looser` (a solver of the same game under a looser limit, or none)
        plays optimally, made to meet this limit bottom up: a node keeps `looser`'s guess over
        its repaired classes unless the node solved under this limit, with that sum as its
        budget, does better (its value is then exact; :attr:`resolved` lists these nodes:
        candidates -> value). INF if no repair meets the limit. Every node solved here stays in
        the memo for the search that follows; the clocks are those of the current search."""
        self.resolved: dict[tuple[int, ...], int] = {}
        clocks = looser._deadline, looser._cpu_deadline
        looser._deadline, looser._cpu_deadline = self._deadline, self._cpu_deadline
        try:
            cands = self.game.all_answers()
            pool = self.game.full_pool() if self.hard else None
            total = len(cands)
            for code, part, cpool in self._children(first, cands, pool):
                total += self._repair(looser, part, 1, cpool, [(first, code)])
                if total >= INF:
                    return INF
            return total
        finally:
            looser._deadline, looser._cpu_deadline = clocks

    def _repair(
        self,
        looser: OptimalSolver,
        cands: np.ndarray,
        level: int,
        pool: np.ndarray | None,
        history: list[tuple[int, int]],
    ) -> int:
        """:meth:`repaired_opening` at a node after `level` guesses."""
        n = len(cands)
        depth = None if self.max_guesses is None else self.max_guesses - level
        if depth is not None and depth < min(n, 2):
            return INF
        if n <= 2:
            return 2 * n - 1
        loose_depth = None if looser.max_guesses is None else looser.max_guesses - level
        loose, g = looser.best_guess(cands, loose_depth, pool, history)
        if loose >= INF:
            return INF  # (nor can a tighter limit do it)
        alt = n
        for code, part, cpool in self._children(g, cands, pool):
            alt += self._repair(looser, part, level + 1, cpool, [*history, (g, code)])
            if alt >= INF:
                return INF if depth is None else self._resolve(cands, INF, depth, pool, history)
        if alt == loose:
            return alt  # looser's play meets this limit below here
        return self._resolve(cands, alt, depth, pool, history)

    def _resolve(
        self,
        cands: np.ndarray,
        alt: int,
        depth: int | None,
        pool: np.ndarray | None,
        history: list[tuple[int, int]],
    ) -> int:
        value = self.value(cands, alt, depth, pool, history)
        if value >= alt:
            return alt
        self.resolved[tuple(cands.tolist())] = value
        return value

    def _attach_tree(self, result: OptimalResult, first: int) -> None:
        """The proven strategy below `first` (settled exactly, so its nodes are in the memo:
        no search, hence no time or CPU limit) with its distribution and worst case."""
        limits = self._deadline, self._cpu_deadline
        self._deadline = self._cpu_deadline = float("inf")
        try:
            self._tree_of(result, first)
        finally:
            self._deadline, self._cpu_deadline = limits

    def _tree_of(self, result: OptimalResult, first: int) -> None:
        result.strategy = strategy_arrays(self, first)
        tree = result.tree = render_tree(self.game.words, result.strategy)
        depths = answer_depths(tree)
        dist: dict[int, int] = {}
        for d in depths.values():
            dist[d] = dist.get(d, 0) + 1
        result.distribution = dict(sorted(dist.items()))
        result.worst = max(dist)
        if sum(depths.values()) != result.total:
            raise AssertionError("tree total differs from the search total")

    def solve_first(self, first: int) -> OptimalResult:
        """The exact total (and tree) of opening with guess `first`, then playing optimally:
        no other first guess is searched (as Selby's ``-w WORD``)."""
        start, cands, pool, sub_depth = self._start()
        game = self.game
        name = game.words.guesses[first]
        try:
            cost = self._guess_cost(first, cands, INF, sub_depth, pool)
        except SearchTimeout:
            return OptimalResult(
                total=None,
                lower_bound=0,
                proven=False,
                first_guesses=[],
                seconds=time.monotonic() - start,
                nodes=self.nodes,
                root_bounds={name: (0, None)},
            )
        if cost >= INF:  # no strategy after this opening meets the guess limit
            return OptimalResult(
                total=None,
                lower_bound=INF,
                proven=True,
                first_guesses=[],
                seconds=time.monotonic() - start,
                nodes=self.nodes,
                root_bounds={name: (INF, None)},
            )
        result = OptimalResult(
            total=cost,
            lower_bound=cost,
            proven=True,
            first_guesses=[name],
            nodes=self.nodes,
            root_bounds={name: (cost, cost)},
        )
        self._attach_tree(result, first)
        result.seconds = time.monotonic() - start
        result.nodes = self.nodes
        return result

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

    def tree(self, first: int) -> dict[str, Any]:
        """The strategy below `first` as nested dicts (JSON-ready): the rendering of its arrays
        (:func:`gamelab.wordle.solver.tree.strategy_arrays`)."""
        return render_tree(self.game.words, strategy_arrays(self, first))


def answer_depths(tree: dict[str, Any], depth: int = 1) -> dict[str, int]:
    """Answer -> guesses needed, for a tree from :meth:`OptimalSolver.tree`."""
    out: dict[str, int] = {}
    kids = tree.get("next", {})
    guess = tree["guess"]
    n_kids = sum(k["candidates"] for k in kids.values())
    if n_kids < tree["candidates"]:
        out[guess] = depth  # the guess itself was one of the candidates
    for child in kids.values():
        out.update(answer_depths(child, depth + 1))
    return out
