"""The proven optimum as a result: :func:`solve_summary` -> :class:`OptimalSummary`.

What ``gamelab wordle solve-optimal``, the report and the assistant's first move use: the search
of :class:`gamelab.wordle.solver.optimal.OptimalSolver` from the full answer list, with the total, the
proven lower bound, the first guesses, the distribution, the optimum under each tighter guess
limit and the decision tree. Proven results are kept in the results store (experiments
``wordle-optimal`` and ``wordle-optimal-first``) and read back with :meth:`OptimalSummary.from_plain`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gamelab.core import ahead
from gamelab.core.serialise import to_plain
from gamelab.wordle.rules import Setting, WordList
from gamelab.wordle.solver.kernel_search import compile_search_first, late_helpers
from gamelab.wordle.solver.optimal import INF, OptimalSolver
from gamelab.wordle.solver.precompile import AHEAD, HELPERS_AHEAD, ahead_kernels
from gamelab.wordle.table import Game

RESULT_VERSION = 2  # 2: hard mode by name (game / strict), the game's guess limit by default
SCOPE_ALL = "all first guesses"
SCOPE_FIRST = "first guess"


@dataclass
class DepthLimited:
    """The optimum when no answer may need more than `max_guesses` guesses."""

    max_guesses: int
    total: int | None  # None: infeasible, or not found within the time limit (else an upper bound)
    proven: bool  # the total is optimal, or the limit is proven infeasible
    lower_bound: int | None  # None: infeasible
    first_guesses: list[str]
    # is any strategy within the limit? True / False proven, None not settled within the limits
    feasible: bool | None = None
    # "exact" (the optimum), "bounds" (feasible, lower <= optimum <= upper), "infeasible",
    # "unknown" (feasibility not settled); derived from the fields above
    status: str = ""
    statement: str = ""  # the row in words, as the CLI prints it

    def __post_init__(self) -> None:
        if self.total is not None:
            self.feasible = True  # (a strategy was found)
        elif self.proven and self.lower_bound is None:
            self.feasible = False
        k, lo, up = self.max_guesses, self.lower_bound, self.total
        if self.feasible is False:
            self.status, text = "infeasible", "infeasible (proven: no strategy)"
        elif self.proven and up is not None:
            self.status, text = "exact", f"optimum {up} (proven)"
        elif self.feasible:
            self.status = "bounds"
            text = "feasible (proven); optimum not settled within the limits: " + (
                f"{lo} <= optimum <= {up} (a strategy with total {up} found)"
                if up is not None
                else f"optimum >= {lo} (no strategy's total found yet)"
            )
        else:
            self.status = "unknown"
            text = f"feasibility not settled within the limits; optimum >= {lo}"
        self.statement = f"at most {k} guesses: {text}"


@dataclass
class OptimalSummary:
    """The optimum of one word list, rule, hard mode and guess limit (see :func:`solve_summary`).

    ``tree`` (the strategy as nested ``{"guess", "candidates", "next": {colours: node}}``
    records, the format of ``solve-optimal --tree`` files, read back by
    :func:`gamelab.wordle.chart.tree_chart`) is not part of the printed document.
    """

    names: str
    rule: str
    hard_mode: str  # off, game or strict
    max_guesses: int | None  # None: no limit
    mode: str  # the three settings in words
    scope: str  # "all first guesses", or "first guess" (only `first` searched)
    answers: int
    guesses: int
    total: int | None  # best total found (upper bound); None if none within limits
    lower_bound: int | None  # proven; None when the opening is proven infeasible
    proven: bool
    average: float | None  # total / answers
    first_guesses: list[str]  # every optimal first guess (only when proven)
    best_known_first_guess: str | None
    distribution: dict[int, int]  # guesses needed -> answers
    worst: int | None
    nodes: int
    root_guesses_settled: int
    root_guesses: int
    statement: str  # what is proven, in one sentence
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # of the solve, without startup_cpu_seconds
    # loading the compiled kernels: numba's first call in a process (its runtime, then the
    # kernels from its cache), about a second whatever the problem; 0 once loaded
    startup_cpu_seconds: float = 0.0
    from_store: bool = False  # reused from the results store (the times are of that run)
    first: str | None = None  # the opening evaluated (scope "first guess")
    depth_limited: list[DepthLimited] | None = None  # None: not computed
    tree: dict[str, Any] | None = field(default=None, metadata={"json": False})

    def _repr_svg_(self) -> str:
        """The distribution of guesses as bars, with what is proven, in a notebook
        (:func:`gamelab.wordle.pictures.summary_svg`)."""
        from gamelab.wordle.pictures import summary_svg

        title = f"{self.names}, {self.mode}: total {self.total}, average " + (
            "—" if self.average is None else f"{self.average:.4f}"
        )
        return summary_svg(title, self.distribution, self.first_guesses, self.statement)

    def stored(self) -> dict[str, Any]:
        """The record kept in the results store: the document and the tree."""
        return {**to_plain(self), "tree": self.tree}

    @classmethod
    def from_plain(cls, record: Mapping[str, Any]) -> OptimalSummary:
        """The summary from its document (a results-store record, as :meth:`stored` wrote it)."""
        values = dict(record)
        values["distribution"] = {int(k): v for k, v in values.get("distribution", {}).items()}
        rows = values.get("depth_limited")
        values["depth_limited"] = None if rows is None else [DepthLimited(**r) for r in rows]
        values.setdefault("cpu_seconds", values.get("seconds", 0.0))
        values["from_store"] = True
        return cls(**values)


def setting_fields(game: Game, setting: Setting, max_guesses: int | None) -> dict[str, Any]:
    """What every summary says of its setting: the lists, the rule, hard mode, the guess
    limit, the mode in words and the lists' sizes."""
    return {
        "names": game.words.name,
        "rule": game.rule,
        "hard_mode": setting.hard_mode,
        "max_guesses": max_guesses,
        "mode": mode_text(setting),
        "answers": game.n_answers,
        "guesses": game.n_guesses,
    }


def mode_text(setting: Setting) -> str:
    """'gen1-4, rule standard, hard mode (the game's rule: ...), at most 10 guesses'."""
    return f"{setting.words.name}, rule {setting.rule}, {setting.mode}, {setting.limit_text}"


def summary_params(setting: Setting) -> dict[str, Any]:
    """The results-store parameters of a summary (the store's key, not a result)."""
    words = setting.words
    return {
        "words": words.fingerprint(),
        "names": words.name,
        "rule": setting.rule,
        "hard": setting.hard,
        "max_guesses": setting.max_guesses,
        "version": RESULT_VERSION,
    }


def stored_optimum(setting: Setting, store: Any) -> OptimalSummary | None:
    """The summary over all first guesses kept in `store` for this setting, or None."""
    if store is None:
        return None
    done = store.finished("wordle-optimal", summary_params(setting))
    return OptimalSummary.from_plain(done[0]) if 0 in done else None


def start_ahead(words: WordList, rule: str) -> None:
    """Start ``solve-optimal``'s second process (normal mode, depth limits) for a game of
    `words` under `rule`. When a proof shipped with the package settles a guess limit of these
    lists (``gen1-4``, ``upto-gen8``, ``all``: the limit below the optimum's worst case), the
    depth limits stop there without a feasibility search, so the second process compiles the
    exact search's late helpers instead (which the search, compiling here, waits for one by
    one: :func:`gamelab.core.ahead.start`'s ``in_turn``), then the bounds' kernels; else the
    bounds' and the feasibility search's kernels, and the search compiles its helpers here."""
    from gamelab.wordle.solver.feasible import shipped_proofs

    fingerprint = words.fingerprint()
    if any((p["words"], p["rule"]) == (fingerprint, rule) for p in shipped_proofs()):
        ahead.start(HELPERS_AHEAD, ahead_kernels(feasibility=False), in_turn=late_helpers())
    else:
        ahead.start(AHEAD, ahead_kernels())


def solve_summary(
    setting: Setting,
    *,
    time_limit: float | None = 600.0,
    depth_limits: bool = True,
    store: Any = None,
    progress: Callable[[str], None] | None = None,
    first: str | None = None,
    cpu_limit: float | None = None,
) -> OptimalSummary:
    """The optimum of `setting`: total, proven lower bound, first guesses, distribution, worst
    case, the optimum under each tighter depth limit (until infeasible), and the tree.

    The setting's hard mode (None normal, "game", "strict") and guess limit
    (``max_guesses``; None: no limit) are named in the result (``hard_mode``,
    ``max_guesses``, ``mode``).

    `time_limit` is wall seconds, `cpu_limit` seconds of this process's CPU (whatever the
    machine's load); past either the proven bounds are reported.

    `first`: evaluate only this first guess exactly (its total and tree; ``scope`` is then
    "first guess", and no other opening is compared).

    Proven results are kept in `store` (a :class:`gamelab.core.results.ResultStore`) under the
    experiment ``wordle-optimal`` and reused; unproven ones (time limit hit, in the
    search or one of its depth limits) are not stored.
    """
    game = Game.of(setting)
    hard, max_guesses = setting.hard, setting.max_guesses
    if first is not None:
        return _first_summary(setting, game.words.check_guess(first), time_limit, store, cpu_limit)
    known = stored_optimum(setting, store)
    if known is not None and (not depth_limits or known.depth_limited is not None):
        return known
    start = time.monotonic()
    cpu = time.process_time()
    if not hard and depth_limits and game.n_codes <= 256:
        # the greedy bound's and the depth limits' kernels compile beside the exact search's,
        # which compiles before the feedback table is built (the child builds a table first)
        start_ahead(game.words, game.rule)
        compile_search_first(game.words, game.rule, hard, tables=False)
    solver = OptimalSolver(setting, time_limit=time_limit, progress=progress, cpu_limit=cpu_limit)
    startup = solver.load_kernels()
    upper = None
    if not hard:
        from gamelab.wordle.entropy import greedy_tree, guess_counts

        opening = game.best_entropy_guess(game.all_answers())
        counts = guess_counts(game, greedy_tree(game, opening))
        if max_guesses is None or max(counts.values()) <= max_guesses:
            upper = sum(counts.values())
    res = solver.solve(upper_bound=upper)
    mode = mode_text(setting)
    if res.proven:
        statement = f"proven optimal: lower bound {res.lower_bound} == total {res.total} ({mode})"
    elif res.total is None and res.lower_bound >= INF:
        statement = f"infeasible: no strategy meets the guess limit ({mode})"
    else:
        statement = (
            f"not proven within the time or CPU limit: {res.lower_bound} <= optimum <= "
            f"{res.total} ({mode})"
        )
    out = OptimalSummary(
        **setting_fields(game, setting, max_guesses),
        scope=SCOPE_ALL,
        total=res.total,
        lower_bound=res.lower_bound,
        proven=res.proven,
        average=None if res.total is None else res.total / game.n_answers,
        # only proven optima name their first guesses; otherwise the best one found so far
        first_guesses=res.first_guesses if res.proven else [],
        best_known_first_guess=res.first_guesses[0] if res.first_guesses else None,
        distribution=dict(res.distribution),
        worst=res.worst,
        nodes=res.nodes,
        root_guesses_settled=sum(
            1
            for lo, ex in res.root_bounds.values()
            if ex is not None or (res.total is not None and lo > res.total)
        ),
        root_guesses=len(res.root_bounds),
        statement=statement,
        tree=res.tree,
    )
    if depth_limits and res.proven and res.worst is not None:
        out.depth_limited = _depth_limited(
            setting,
            res.worst,
            res.total,
            res.lower_bound,
            res.first_guesses,
            time_limit,
            start,
            store,
            None if cpu_limit is None else (cpu_limit, cpu),
            solver,
        )
    out.seconds = time.monotonic() - start
    out.cpu_seconds = time.process_time() - cpu - startup
    out.startup_cpu_seconds = startup
    settled = all(row.proven for row in out.depth_limited or [])
    if store is not None and res.proven and settled:  # (else a later run tries the rest again)
        store.put("wordle-optimal", summary_params(setting), 0, out.stored())
    return out


def not_settled(max_guesses: int, bound: int, feasible: bool | None = None) -> DepthLimited:
    """A depth limit the time or CPU limit left unsettled: the lower bound known (and whether
    a strategy within it exists, if that was settled)."""
    return DepthLimited(
        max_guesses=max_guesses,
        total=None,
        proven=False,
        lower_bound=bound,
        first_guesses=[],
        feasible=feasible,
    )


def _depth_limited(
    setting: Setting,
    worst: int,
    total: int | None,
    lower: int,
    firsts: list[str],
    time_limit: float | None,
    start: float,
    store: Any = None,
    cpu: tuple[float, float] | None = None,
    looser: OptimalSolver | None = None,
) -> list[DepthLimited]:
    """The optimum at `worst` guesses (given) and under each tighter limit, until infeasible.

    A limit that a finished ``gamelab wordle feasible`` run in `store`, or a proof shipped with
    the package, shows infeasible (normal mode) is taken from it: that proof can take far
    longer than the optimum (``all`` within 5 guesses: about 25 CPU-minutes per rule). Else
    the limit's feasibility is asked first (:func:`feasible_within`, both hard modes too): an
    infeasible limit is proven so, a feasible one solved from the looser limit's bound. `cpu`:
    (the CPU limit, the ``process_time`` it counts from), shared with the main search.
    `looser`: the solver that proved the optimum at `worst` guesses. Each limit's search shares
    its memo (a node's optimum without a limit bounds its optimum under one from below) and
    starts from an upper bound: the feasibility search's first guess played as the looser
    limit's solver plays, made to meet the limit (``OptimalSolver.solve(looser=...,
    openings=...)``); then the next limit from this one."""
    from gamelab.wordle.solver.feasible import (
        feasible_opening,
        hard_feasibility_fits,
        shipped_feasibility,
        stored_feasibility,
    )

    hard = setting.hard
    rows = [
        DepthLimited(
            max_guesses=worst, total=total, proven=True, lower_bound=lower, first_guesses=firsts
        )
    ]
    k = worst - 1
    while k >= 1:
        limited = setting.with_limit(k)
        known = None if hard else stored_feasibility(limited, store)
        if not hard and (
            (known is not None and not known.feasible) or shipped_feasibility(limited) is False
        ):
            rows.append(
                DepthLimited(
                    max_guesses=k, total=None, proven=True, lower_bound=None, first_guesses=[]
                )
            )
            break
        # (a tighter limit cannot do better than the looser one: its proven bound is one)
        floor = rows[-1].lower_bound or 0
        remaining = None if time_limit is None else time_limit - (time.monotonic() - start)
        cpu_left = None if cpu is None else cpu[0] - (time.process_time() - cpu[1])
        if (remaining is not None and remaining <= 0) or (cpu_left is not None and cpu_left <= 0):
            rows.append(not_settled(k, floor))  # the limits are spent: the bound so far
            break
        # bounds first: is any strategy within k guesses at all? (hard mode: if its tables fit)
        if not hard or hard_feasibility_fits(Game.of(limited)):
            wall_end = time.monotonic() + (float("inf") if remaining is None else remaining)
            cpu_end = time.process_time() + (float("inf") if cpu_left is None else cpu_left)

            def out_of_time(wall_end: float = wall_end, cpu_end: float = cpu_end) -> bool:
                return time.monotonic() > wall_end or time.process_time() > cpu_end

            # (most classes first: the looser limit's first guess may be costly to refute,
            # as upto-gen8's ランドロス within 5 guesses)
            exists, opening = feasible_opening(limited, out_of_time)
            if exists is not True:
                rows.append(
                    DepthLimited(
                        max_guesses=k,
                        total=None,
                        proven=exists is False,
                        lower_bound=None if exists is False else floor,  # None: infeasible
                        first_guesses=[],
                    )
                )
                break
            if remaining is not None:
                remaining = wall_end - time.monotonic()
            if cpu_left is not None:
                cpu_left = cpu_end - time.process_time()
            if (remaining is not None and remaining <= 0) or (
                cpu_left is not None and cpu_left <= 0
            ):
                rows.append(not_settled(k, floor, feasible=True))
                break
            known_feasible: bool | None = True
        else:
            known_feasible, opening = None, None
        sub_solver = OptimalSolver(
            limited, time_limit=remaining, cpu_limit=cpu_left, memo_from=looser
        )
        openings = [] if opening is None else [opening]
        sub = sub_solver.solve(lower_bound=floor or None, looser=looser, openings=openings)
        looser = sub_solver
        feasible = sub.total is not None or not sub.proven and sub.lower_bound < INF
        rows.append(
            DepthLimited(
                max_guesses=k,
                total=sub.total,
                proven=sub.proven or sub.lower_bound >= INF,
                lower_bound=None if sub.lower_bound >= INF else max(sub.lower_bound, floor),
                first_guesses=sub.first_guesses,
                feasible=known_feasible,
            )
        )
        if not feasible or sub.total is None or not sub.proven:
            break
        k -= 1
    return rows


def _first_summary(
    setting: Setting,
    first: int,
    time_limit: float | None,
    store: Any,
    cpu_limit: float | None = None,
) -> OptimalSummary:
    """solve_summary(..., first=WORD): one opening evaluated exactly."""
    game = Game.of(setting)
    max_guesses = setting.max_guesses
    params = {**summary_params(setting), "first": game.words.guesses[first]}
    if store is not None:
        done = store.finished("wordle-optimal-first", params)
        if 0 in done:
            return OptimalSummary.from_plain(done[0])
    cpu = time.process_time()
    solver = OptimalSolver(setting, time_limit=time_limit, cpu_limit=cpu_limit)
    startup = solver.load_kernels()
    res = solver.solve_first(first)
    name = game.words.guesses[first]
    mode = mode_text(setting)
    if res.total is not None:
        statement = (
            f"exact: first guess {name} needs {res.total} guesses in total, then "
            f"optimal play ({mode}); other first guesses not compared"
        )
    elif res.proven:
        statement = f"infeasible: after {name} no strategy meets the guess limit ({mode})"
    else:
        statement = f"not finished within the time or CPU limit: first guess {name} ({mode})"
    out = OptimalSummary(
        **setting_fields(game, setting, max_guesses),
        scope=SCOPE_FIRST,
        first=name,
        total=res.total,
        lower_bound=None if res.lower_bound >= INF else res.lower_bound,
        proven=res.proven,
        average=None if res.total is None else res.total / game.n_answers,
        first_guesses=res.first_guesses,
        best_known_first_guess=name if res.total else None,
        distribution=dict(res.distribution),
        worst=res.worst,
        nodes=res.nodes,
        root_guesses_settled=1 if res.proven else 0,
        root_guesses=1,
        statement=statement,
        seconds=res.seconds,
        cpu_seconds=time.process_time() - cpu - startup,
        startup_cpu_seconds=startup,
        tree=res.tree,
    )
    if store is not None and res.proven:
        store.put("wordle-optimal-first", params, 0, out.stored())
    return out
