"""`gamelab warmup [GAME...]`: compile every numba kernel of the chosen games ahead of time.

numba compiles a kernel on its first call and keeps the machine code in its on-disk cache
(``cache=True``), so only the first run of a command is slow (a cold ``gamelab voltorb solve``
about 20 s, warm about 2 s). ``warmup`` runs a small workload per game that calls its kernels,
then says for each game how many of its kernels are compiled and cached, and how long it took.

On a first run without warm-up the command line says "compiling fast kernels, once" when numba
starts compiling (a cache miss), so the wait is explained.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import pkgutil
import time
from dataclasses import dataclass, field
from typing import Any

from gamelab import GAMES

#: Small runs of each game's commands that between them call every kernel of the game.
#: (Each is an argv of `gamelab`; one worker so that the compiled code lands in numba's cache
#: from this process; no results store.)
WORKLOADS: dict[str, list[list[str]]] = {
    "voltorb": [
        [
            "voltorb",
            "solve",
            "--rows",
            "4,2 8,0 4,2 4,2 5,1",
            "--cols",
            "6,1 5,0 5,2 4,3 5,1",
            "--level",
            "2",
        ],
        [
            "voltorb",
            "evaluate",
            "--rows",
            "4,2 8,0 4,2 4,2 5,1",
            "--cols",
            "6,1 5,0 5,2 4,3 5,1",
            "--level",
            "2",
            "--strategy",
            "fom",
        ],
        [
            "voltorb",
            "simulate",
            "--level",
            "1",
            "--strategy",
            "minrisk",
            "--compare",
            "fom",
            "--games",
            "20",
            "--workers",
            "1",
            "--no-store",
            "--quiet",
        ],
        [
            "voltorb",
            "simulate",
            "--level",
            "1",
            "--strategy",
            "optimal",
            "--games",
            "3",
            "--workers",
            "1",
            "--no-store",
            "--quiet",
        ],
        [
            "voltorb",
            "campaign",
            "--strategy",
            "greedy-coins",
            "--rounds",
            "2",
            "--campaigns",
            "2",
            "--workers",
            "1",
            "--no-store",
            "--quiet",
        ],
    ],
    "wordle": [
        ["wordle", "rank", "--names", "gen1-4", "--rule", "blog", "--top", "3"],
        ["wordle", "chart", "--first", "レントラー"],
        ["wordle", "next", "--history", "レントラー:00000", "--json"],
        ["wordle", "solve-optimal", "--names", "gen1", "--rule", "blog", "--no-store", "--quiet"],
    ],
    "lattice": [
        ["lattice", "enumerate", "--length", "10"],
        ["lattice", "histogram", "--sequence", "HPHHPPHHPH"],
        ["lattice", "evolve", "--length", "10", "--generations", "2", "--population", "10"],
        ["lattice", "fold", "HPHPPHHPHPPHPHHPPHPH", "--seconds", "1"],
    ],
    "oware": [
        ["oware", "perft", "--depth", "4"],
        ["oware", "tablebase", "--seeds", "4"],
        ["oware", "analyse", "--position", "start", "--depth", "4", "--tablebase", "4"],
        [
            "oware",
            "match",
            "--a",
            "greedy",
            "--b",
            "blog:depth=2",
            "--games",
            "2",
            "--workers",
            "1",
            "--no-store",
            "--quiet",
        ],
    ],
    "yatzy": [
        ["yatzy", "solve", "--rules", "yatzy"],
        ["yatzy", "advise", "--rules", "yatzy", "--dice", "11114", "--rolls-left", "2"],
        [
            "yatzy",
            "simulate",
            "--rules",
            "yatzy",
            "--games",
            "50",
            "--workers",
            "1",
            "--no-store",
            "--quiet",
        ],
    ],
}


#: Library warm-up functions run after the workload, for kernels that only a large input
#: would reach through the commands (``module:function``, called with no arguments).
HOOKS: dict[str, list[str]] = {
    "voltorb": ["gamelab.voltorb.assistant:compile_reference_kernels"],
    "lattice": ["gamelab.lattice.enumeration:warm_up"],
    "oware": ["gamelab.oware.tablebase:warm_up"],
    "wordle": ["gamelab.wordle.kernel_search:warm_up"],
    "yatzy": ["gamelab.yatzy.warmup:compile_kernels"],
}


@dataclass
class GameWarmup:
    """What `warmup` did for one game."""

    game: str
    seconds: float
    kernels: int  # numba kernels defined by the game's modules
    compiled: int  # of which compiled (in this process or in numba's cache)
    not_compiled: list[str] = field(default_factory=list)
    #: kernels numba cannot cache (``cache=False``, e.g. recursive ones): compiled on first use
    #: in each process, so warm-up cannot help them; not counted in `kernels`
    per_process: list[str] = field(default_factory=list)


def game_kernels(game: str) -> dict[str, Any]:
    """Every numba dispatcher defined in the game's modules, by ``module.function`` name."""
    from numba.core.dispatcher import Dispatcher

    package = importlib.import_module(f"gamelab.{game}")
    found: dict[str, object] = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.name in ("cli", "report") or info.name.startswith("test"):
            continue
        module = importlib.import_module(f"gamelab.{game}.{info.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, Dispatcher) and obj.py_func.__module__ == module.__name__:
                found[f"{info.name}.{name}"] = obj
    return found


def _cached_on_disk(dispatcher: Any) -> bool:
    path = _index_path(dispatcher)
    return path is not None and os.path.exists(path)


def _index_path(dispatcher: Any) -> str | None:
    try:
        return dispatcher._cache._cache_file._index_path
    except AttributeError:  # cache=False: compiled in every process, nothing on disk
        return None


def warm_up(games: list[str] | None = None) -> list[GameWarmup]:
    """Run each game's workload (output discarded) and report its kernels' state."""
    from gamelab.cli import run_in_process

    chosen = list(games) if games else list(GAMES)
    unknown = [g for g in chosen if g not in GAMES]
    if unknown:
        raise ValueError(f"unknown game {unknown[0]!r}; choose from {', '.join(GAMES)}")
    done = []
    for game in chosen:
        start = time.perf_counter()
        for argv in WORKLOADS[game]:
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = run_in_process(argv)
            if code != 0:
                last = (err.getvalue().strip().splitlines() or ["?"])[-1]
                raise RuntimeError(f"warm-up command gamelab {' '.join(argv)} failed: {last}")
        for hook in HOOKS.get(game, []):
            module_name, function = hook.split(":")
            getattr(importlib.import_module(module_name), function)()
        kernels = game_kernels(game)
        per_process = sorted(n for n, d in kernels.items() if _index_path(d) is None)
        # inline="always" helpers are compiled into their callers, never on their own
        cached = {
            n: d
            for n, d in kernels.items()
            if n not in per_process and d.targetoptions.get("inline") != "always"
        }
        missing = [n for n, d in cached.items() if not d.signatures and not _cached_on_disk(d)]
        done.append(
            GameWarmup(
                game,
                time.perf_counter() - start,
                len(cached),
                len(cached) - len(missing),
                missing,
                per_process,
            )
        )
    return done
