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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gamelab.wordle.solver.kernel_search import INF, SearchTimeout
from gamelab.wordle.solver.node_search import ENGINES, NodeSearch
from gamelab.wordle.solver.tree import render_tree, strategy_arrays

__all__ = ["ENGINES", "INF", "OptimalResult", "OptimalSolver", "SearchTimeout", "answer_depths"]


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


class OptimalSolver(NodeSearch):
    """``OptimalSolver(setting).solve()`` -> :class:`OptimalResult`: the optimum of a
    :class:`~gamelab.wordle.rules.Setting` (its word list, rule, hard mode and guess limit;
    ``max_guesses`` None: no limit)."""

    # a first guess's first budget above a given lower bound (solve), doubled at each visit up
    # to ROOT_STEP_MAX, then none (an infeasible guess is proven so at last)
    ROOT_STEP = 8
    ROOT_STEP_MAX = 64

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
