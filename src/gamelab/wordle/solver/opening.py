"""The best first guess, proven: every opening evaluated exactly or refuted by a bound.

``prove_opening(setting)`` -> :class:`OpeningProof`: the ranking of every first guess of a
:class:`~gamelab.wordle.rules.Setting` (its list, rule, hard mode and guess limit) by its total over all answers when it opens and optimal play follows. Each opening
is **evaluated exactly** when its total is below the *budget*, else **refuted** by a proven lower
bound at or above the budget; as the budget is one more than the best total found (plus an
optional `margin`, which makes the top of the table exact), the best opening is proven.

The budget comes first: a few openings (the best by the one-level bound, or the given `seed`
words) are evaluated exactly in this process and the best of them, plus `margin`, plus one, is
the budget every chunk is searched against; so chunks are independent (no shared incumbent)
and can run anywhere. An opening is then settled by the cheapest of, in order:

1. its one-level bound (``n + 2(n - hit) - classes``, one table pass for a whole chunk);
2. its two-level bound (each class bounded by its best one-level bound,
   :meth:`gamelab.wordle.solver.optimal.OptimalSolver.opening_bound`);
3. the exact search with the budget (:meth:`~gamelab.wordle.solver.optimal.OptimalSolver.opening_cost`),
   which stops as soon as the opening's bound reaches the budget.

The job runs through :func:`gamelab.core.parallel.run_tasks` (local workers or a Dask
cluster), keeps every finished chunk in the results store (experiment ``wordle-opening``) and
resumes after an interruption; each row carries the CPU seconds it took (``process_time`` of the
worker, whatever the machine's load), the output their sum and, while unfinished, the CPU the
rest is expected to need at the same rate. `cpu_budget` stops a run after about that much CPU
(the chunks done so far are kept; the same call resumes).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from gamelab.core.parallel import Backend, run_tasks
from gamelab.wordle import _kernels
from gamelab.wordle.rules import Setting
from gamelab.wordle.solver.optimal import INF, OptimalSolver
from gamelab.wordle.solver.summary import mode_text
from gamelab.wordle.table import Game

__all__ = ["EXPERIMENT", "OpeningProof", "OpeningRow", "prove_opening"]

EXPERIMENT = "wordle-opening"
VERSION = 1
SEEDS = 3  # openings evaluated exactly to set the budget (best by the one-level bound)
SETTLED_BY = ("bound", "two-level bound", "search")


@dataclass(frozen=True)
class OpeningRow:
    """One first guess: `value` is its exact total when `exact`, else a proven lower bound
    (INF-free: None when no strategy after it meets the guess limit); `settled_by` names the
    step that settled it, `cpu_seconds` what that cost."""

    guess: str
    value: int | None
    exact: bool
    settled_by: str
    cpu_seconds: float


@dataclass
class OpeningProof:
    names: str
    rule: str
    hard_mode: str
    mode: str
    max_guesses: int | None
    answers: int
    guesses: int
    margin: int
    budget: int  # every opening was searched against this total
    complete: bool  # every chunk done (else resume: the same call continues)
    proven: bool  # complete, and the best total is below every refuting bound
    best: int | None  # the optimal total (when proven), else the best found so far
    best_guesses: list[str]
    openings_done: int
    settled: dict[str, int]  # how many openings each step settled
    cpu_seconds: float  # CPU of the openings done (all runs), plus the seeds of this run
    cpu_seconds_left: float | None  # expected CPU for the rest, at the rate so far
    seconds: float  # wall time of this run
    statement: str
    rows: list[OpeningRow] = field(default_factory=list)  # the ranking: exact first, then bounds


@lru_cache(maxsize=4)
def _solver_for(setting: Setting) -> OptimalSolver:
    """One solver (its memo kept across openings) per worker process and setting."""
    return OptimalSolver(setting)


def _chunk_task(item: tuple, rng: Any) -> list[list[Any]]:
    """[[guess index, value (INF: infeasible), exact, step, cpu seconds]] for a chunk."""
    setting, budget, chunk = item
    solver = _solver_for(setting)
    game = solver.game
    cands = game.all_answers()
    n = len(cands)
    start = time.process_time()
    guesses = np.asarray(chunk, dtype=np.int32)
    classes, hit, _ = _kernels.split_stats_kernel(
        game.table, cands, guesses, game.green, game.n_codes, game.answer_of_guess
    )
    one_level = (n + 2 * (n - hit) - classes).tolist()
    share = (time.process_time() - start) / max(1, len(chunk))  # the table pass, split evenly
    out: list[list[Any]] = []
    for g, lb1 in zip(chunk, one_level, strict=True):
        c0 = time.process_time()
        if lb1 >= budget:
            out.append([g, int(lb1), False, 0, share])
            continue
        lb2 = solver.opening_bound(g)
        if lb2 >= budget:
            out.append([g, min(int(lb2), INF), False, 1, share + time.process_time() - c0])
            continue
        cost = solver.opening_cost(g, budget)
        exact = cost < budget
        value = cost if exact else max(cost, lb2)
        out.append([g, min(int(value), INF), exact, 2, share + time.process_time() - c0])
    return out


def _seed_budget(
    solver: OptimalSolver, seeds: Sequence[int], margin: int, progress: Callable[[str], None] | None
) -> tuple[int, float]:
    """(budget, CPU seconds): the best exact total of the seed openings + margin + 1."""
    start = time.process_time()
    best = INF
    for g in seeds:
        cost = solver.opening_cost(g, best + 1 if best < INF else INF)
        best = min(best, cost)
        if progress:
            progress(
                f"seed opening {solver.game.words.guesses[g]}: {cost if cost < INF else 'infeasible'}"
            )
    budget = INF if best >= INF else best + margin + 1
    return budget, time.process_time() - start


def _seed_guesses(game: Game, seed: Sequence[str] | None) -> list[int]:
    if seed:
        return [game.words.check_guess(w) for w in seed]
    cands = game.all_answers()
    every = np.arange(game.n_guesses, dtype=np.int32)
    classes, hit, _ = _kernels.split_stats_kernel(
        game.table, cands, every, game.green, game.n_codes, game.answer_of_guess
    )
    n = len(cands)
    lb = n + 2 * (n - hit) - classes
    return [int(g) for g in np.lexsort((every, lb))[:SEEDS]]


def prove_opening(
    setting: Setting,
    *,
    margin: int = 0,
    seed: Sequence[str] | None = None,
    chunk: int = 64,
    backend: Backend | None = None,
    store: Any = None,
    cpu_budget: float | None = None,
    progress: Callable[[str], None] | None = None,
) -> OpeningProof:
    """Rank every first guess of `setting` (see the module doc). `margin`: every opening within
    `margin` of the best is evaluated exactly too (the budget is the seeds' best + margin + 1,
    so perhaps a few more). `seed`: the openings that set the budget
    (default: the best :data:`SEEDS` by the one-level bound). `cpu_budget`: stop after about
    this many CPU seconds of openings (kept in `store`; call again to resume)."""
    if margin < 0:
        raise ValueError(f"margin must be 0 or more, got {margin}")
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    if cpu_budget is not None and cpu_budget <= 0:
        raise ValueError(f"the CPU budget must be positive, got {cpu_budget}")
    t0 = time.monotonic()
    game = Game.of(setting)
    hard, limit = setting.hard, setting.max_guesses
    words = game.words
    solver = _solver_for(setting)
    budget, seed_cpu = _seed_budget(solver, _seed_guesses(solver.game, seed), margin, progress)
    order = list(range(game.n_guesses))
    chunks = [order[i : i + chunk] for i in range(0, len(order), chunk)]
    items = [(setting, budget, c) for c in chunks]
    params = {
        "words": words.fingerprint(),
        "rule": game.rule,
        "hard": hard,
        "max_guesses": limit,
        "budget": budget,
        "chunk": chunk,
        "version": VERSION,
        "seed": 0,
    }
    done: dict[int, Any] = store.finished(EXPERIMENT, params, len(items)) if store else {}
    pending = [i for i in range(len(items)) if i not in done]
    workers = (backend or Backend()).worker_count()
    results: dict[int, Any] = dict(done)
    spent = 0.0
    while pending:
        # with a CPU budget, a few chunks per worker at a time; else everything at once
        take = len(pending) if cpu_budget is None else max(1, workers)
        batch, pending = pending[:take], pending[take:]
        if store is not None:  # a prefix of the job: its stored chunks are skipped
            rows = run_tasks(
                _chunk_task,
                items[: batch[-1] + 1],
                seed=0,
                backend=backend,
                label="first guesses",
                store=store,
                experiment=EXPERIMENT,
                params=params,
            )
            got = {i: rows[i] for i in batch}
        else:
            rows = run_tasks(
                _chunk_task,
                [items[i] for i in batch],
                seed=0,
                backend=backend,
                label="first guesses",
            )
            got = dict(zip(batch, rows, strict=True))
        for i, value in got.items():
            results[i] = value
            spent += sum(r[4] for r in value)
        if cpu_budget is not None and spent >= cpu_budget:
            break
    return _assemble(setting, margin, budget, items, results, seed_cpu, t0)


def _assemble(setting, margin, budget, items, results, seed_cpu, t0) -> OpeningProof:
    game = Game.of(setting)
    words = game.words
    rows: list[OpeningRow] = []
    settled = dict.fromkeys(SETTLED_BY, 0)
    for i in sorted(results):
        for g, value, exact, step, cpu in results[i]:
            rows.append(
                OpeningRow(
                    words.guesses[g],
                    None if value >= INF else int(value),
                    bool(exact),
                    SETTLED_BY[step],
                    float(cpu),
                )
            )
            settled[SETTLED_BY[step]] += 1
    rows.sort(key=lambda r: (not r.exact, INF if r.value is None else r.value, r.guess))
    exact = [r for r in rows if r.exact]
    best = exact[0].value if exact else None
    complete = len(results) == len(items)
    proven = complete and best is not None
    cpu = sum(r.cpu_seconds for r in rows)
    left = None
    if not complete and rows:
        left = cpu / len(rows) * (game.n_guesses - len(rows))
    mode = mode_text(setting)
    if proven:
        firsts = [r.guess for r in exact if r.value == best]
        statement = (
            f"proven best first guess: {', '.join(firsts)} with total {best}; the other "
            f"{game.n_guesses - len(firsts)} openings are worse ({len(exact)} evaluated exactly, "
            f"{len(rows) - len(exact)} refuted by a bound >= {budget}) ({mode})"
        )
    elif complete:
        statement = f"infeasible: no opening meets the guess limit ({mode})"
    else:
        statement = (
            f"unfinished: {len(rows)} of {game.n_guesses} openings settled, best so far "
            f"{best if best is not None else '-'}; run again to resume (about {left:.0f} s of CPU "
            f"left) ({mode})"
        )
    return OpeningProof(
        names=words.name,
        rule=game.rule,
        hard_mode=setting.hard_mode,
        mode=mode,
        max_guesses=setting.max_guesses,
        answers=game.n_answers,
        guesses=game.n_guesses,
        margin=margin,
        budget=budget,
        complete=complete,
        proven=proven,
        best=best,
        best_guesses=[r.guess for r in exact if r.value == best],
        openings_done=len(rows),
        settled=settled,
        cpu_seconds=cpu + seed_cpu,
        cpu_seconds_left=left,
        seconds=time.monotonic() - t0,
        statement=statement,
        rows=rows,
    )
