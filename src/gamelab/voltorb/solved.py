"""Solved deals: one exact search per deal serves the rest of its round.

The exact win search (:class:`gamelab.voltorb.expectimax.OptimalSolver`) memoises every state it
solves by its revealed tiles, and every position later in the same round is such a state: after
the recommended flip, whatever it shows, the next decision is already solved (the search had to
solve it to value the flip), and after another flip the search goes on from what it knows. So
one solver is kept per deal (its clues, level and generator), searched from the deal's first
position whatever position asked first, and every decision, post-mortem and review of the deal
asks it (:func:`decide`, :func:`deal_solver`):

* in this process, for the last :data:`KEPT_DEALS` deals;
* on disk, for a deal whose searches cost at least :data:`STORE_MIN_STATES` states (the hard
  openings, about 1-10 CPU-s): the exact states of its table (a few MB) in the gamelab cache
  (:mod:`gamelab.core.cache`), so that any process (the web server's solver pool has several)
  answers the rest of the round at once; the last :data:`STORED_DEALS` deals are kept.

A search too long for one process is split (:func:`split_decide`): the first flips of the
position are shared among processes (each with its own solver of the deal), the parts raise a
lower bound they share so that each cuts off what another part's best tile already beats, and the
combination (:func:`gamelab.voltorb.search_parts.combine_parts`) picks the tile and value the whole
search picks; the parts' solved states join the deal's solver and its stored file, so the rest of
the round is answered as after a search in one process.

A state's value is a sum of the deal's prior weights, the same in every process (the posterior
of the same clues is computed the same way), and the file is checked against the deal (board
count and total weight) before use. Answers are the same with or without a stored deal: a
stored state is one the search would have found exact.
"""

from __future__ import annotations

import time
from multiprocessing import shared_memory
from pathlib import Path

import numpy as np

from gamelab.core.cache import cache_path, load_arrays, save_arrays
from gamelab.core.memo import Kept
from gamelab.voltorb.expectimax import OptimalSolver
from gamelab.voltorb.info_tree import revealed_code
from gamelab.voltorb.rules import Clues, VoltorbSetting
from gamelab.voltorb.search_parts import SearchPart, combine_parts

#: deals whose solver this process keeps (a level-8 deal's table is up to about 100 MB)
KEPT_DEALS = 2
#: a deal is stored on disk once its searches cost this many states (about half a CPU-s)
STORE_MIN_STATES = 50_000
#: deals kept on disk (the oldest file is removed beyond it)
STORED_DEALS = 12
#: the stored table's format and meaning; bump when either changes
VERSION = 1
TABLE = "voltorb-solved"

#: the deals this process keeps (:class:`gamelab.core.memo.Kept`)
DEALS: Kept[tuple, _Deal] = Kept(keep=KEPT_DEALS)


class _Deal:
    """A deal's solver and how much of its search is already on disk."""

    def __init__(self, key: tuple, solver: OptimalSolver, stored_nodes: int) -> None:
        self.key = key
        self.solver = solver
        self.searched = 0  # states searched in this process since the deal was last stored
        self.stored_nodes = stored_nodes


def _params(key: tuple) -> dict:
    clues, level, generator = key
    return {"clues": clues, "level": level, "generator": generator}


def _deal_key(clues: Clues, setting: VoltorbSetting) -> tuple:
    parts = (clues.row_sums, clues.row_voltorbs, clues.col_sums, clues.col_voltorbs)
    text = " ".join(",".join(str(int(x)) for x in part) for part in parts)
    return text, setting.level, str(setting.generator)


def _check(solver: OptimalSolver) -> np.ndarray:
    """What a stored table must match: the deal's board count and total prior weight."""
    return np.array([float(solver.boards.shape[0]), float(solver.weights.sum())])


def deal_solver(clues: Clues, setting: VoltorbSetting) -> OptimalSolver:
    """The deal's solver (kept: see the module doc), with the states stored on disk if any."""
    key = _deal_key(clues, setting)
    return DEALS.get_or_build(key, lambda progress: _new_deal(key, clues, setting)).solver


def _new_deal(key: tuple, clues: Clues, setting: VoltorbSetting) -> _Deal:
    """The deal's solver, with the states stored on disk if any."""
    from gamelab.voltorb.posterior import playing_posterior

    solver = OptimalSolver(playing_posterior(clues, {}, setting), keep_memo=True)
    stored = load_arrays(stored_path(clues, setting))
    states = 0
    check = None if stored is None else stored.get("check")
    if stored is not None and check is not None and np.array_equal(check, _check(solver)):
        solver.add_solved_states(stored["codes"], stored["values"], stored["tiles"])
        states = int(stored["codes"].size)
    return _Deal(key, solver, states)


def decide(
    clues: Clues,
    setting: VoltorbSetting,
    revealed: dict[int, int],
    state_limit: int | None = None,
) -> tuple[int, float]:
    """(best tile, optimal P(win)) at `revealed`, from the deal's solver; a search that needs
    more than `state_limit` new states raises SearchLimitError (what it solved is kept)."""
    solver = deal_solver(clues, setting)
    solver.state_limit = state_limit
    before = solver.nodes
    try:
        return solver.decide(revealed)
    finally:
        searched(solver, solver.nodes - before)


#: what the parts of the last split search did: (first tiles searched through, states searched,
#: CPU seconds with the deal's posterior), one per part (benchmarks/voltorb_hard_openings.py)
LAST_SPLIT: list[tuple[int, int, float]] = []

#: a position is split only when its search is worth more than this many processes' start (each
#: loads the kernels and the deal's posterior: about 1 CPU-s at level 8)
SPLIT_MIN_BOARDS = 2_000


def split_decide(
    clues: Clues, setting: VoltorbSetting, revealed: dict[int, int], processes: int
) -> tuple[int, float]:
    """:func:`decide` without a state limit, the search's first flips shared among `processes`
    local processes (:func:`gamelab.core.parallel.run_tasks`): the same tile and value, sooner
    on a machine with that many free cores. A position that is already solved, small (under
    :data:`SPLIT_MIN_BOARDS` live boards) or whose first flip is forced runs in this process."""
    from gamelab.core.parallel import Backend, run_tasks

    if processes < 1:
        raise ValueError(f"processes must be at least 1, got {processes}")
    solver = deal_solver(clues, setting)
    solver.state_limit = None
    idx, _, _ = solver.state_for(revealed)
    order = solver.first_tiles(revealed) if idx.size >= SPLIT_MIN_BOARDS else []
    if processes == 1 or len(order) < 2:
        return decide(clues, setting, revealed)
    LAST_SPLIT.clear()
    n = min(processes, len(order))
    bound = shared_memory.SharedMemory(create=True, size=24)
    try:
        start = np.ndarray(3, dtype=np.float64, buffer=bound.buf)
        start[0], start[1], start[2] = -1.0, 0.0, 25.0  # no bound, no tile taken (search_part)
        del start
        # every part may take every tile: each takes the next free one (see search_part)
        items = [(clues, setting, revealed, order, bound.name)] * n
        results = run_tasks(_search_part, items, backend=Backend(workers=n, quiet=True))
    finally:
        bound.close()
        bound.unlink()
    parts = []
    for part, (codes, values, tiles), states, cpu in results:
        solver.add_solved_states(codes, values, tiles)
        parts.append(part)
        searched(solver, states)
        LAST_SPLIT.append((len(part.values), states, cpu))
    tile, value = combine_parts(order, parts)
    code = np.array([revealed_code(revealed)], dtype=np.int64)
    solver.add_solved_states(code, np.array([value]), np.array([tile], dtype=np.int8))
    return decide(clues, setting, revealed)


def _search_part(item: tuple, _rng: np.random.Generator) -> tuple:
    """One part of :func:`split_decide`, in a worker process: its SearchPart, the exact states
    its solver holds, and the states it searched."""
    clues, setting, revealed, tiles, bound_name = item
    cpu = time.process_time()
    solver = deal_solver(clues, setting)
    bound = shared_memory.SharedMemory(name=bound_name)
    try:
        shared = np.ndarray(3, dtype=np.float64, buffer=bound.buf)
        before = solver.nodes
        part: SearchPart = solver.search_part(revealed, tiles, shared, order=tiles)
        del shared  # (the buffer is released before the memory is closed)
    finally:
        bound.close()
    return part, solver.solved_states(), solver.nodes - before, time.process_time() - cpu


def searched(solver: OptimalSolver, states: int) -> None:
    """Count `states` searched by the deal's solver; store the deal once they are worth it."""
    deal = next((d for d in DEALS.values() if d.solver is solver), None)
    if deal is None:
        return
    deal.searched += max(0, states)
    if deal.searched >= STORE_MIN_STATES:
        deal.searched = 0
        store(deal)


def store(deal: _Deal) -> None:
    """Write the deal's exact states to the cache (atomic), and keep the folder small."""
    codes, values, tiles = deal.solver.solved_states()
    path = cache_path(TABLE, _params(deal.key), VERSION)
    try:
        save_arrays(
            path,
            {"codes": codes, "values": values, "tiles": tiles, "check": _check(deal.solver)},
        )
        files = sorted(path.parent.glob("*.npz"), key=lambda p: p.stat().st_mtime)
        for old in files[:-STORED_DEALS]:
            old.unlink(missing_ok=True)
    except OSError:
        return  # a cache that cannot be written: the deal is still kept in this process
    deal.stored_nodes = int(codes.size)


def stored_path(clues: Clues, setting: VoltorbSetting) -> Path:
    """Where the deal is stored once its searches were costly (the file may not exist)."""
    return cache_path(TABLE, _params(_deal_key(clues, setting)), VERSION)


def forget() -> None:
    """Drop the deals kept in this process (tests; the stored files stay)."""
    DEALS.clear()
