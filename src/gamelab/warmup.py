"""Compile every numba kernel of the chosen games ahead of time (`gamelab warmup [GAME...]`,
and `gamelab serve` in the background).

numba compiles a kernel on its first call and keeps the machine code in its on-disk cache
(``cache=True``), so only the first run of a command is slow. Each game has one library
function, ``gamelab.<game>.warmup.warm_up()``, that calls its entry points on small inputs and
so reaches every kernel; :func:`warm_up` runs them and says for each game how many of its
kernels are compiled and cached, and how long it took (wall and CPU seconds).

On a first run without warm-up the command line says "compiling <game>'s fast kernels, once"
when numba really starts compiling (:mod:`gamelab.compile_notice`), so the wait is explained.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import time
from dataclasses import dataclass, field
from typing import Any

from gamelab.core.state import game_info, load, registered_games


@dataclass
class GameWarmup:
    """What `warmup` did for one game."""

    game: str
    seconds: float
    cpu_seconds: float  # of this process (the warm-up runs here, one worker)
    kernels: int  # numba kernels defined by the game's modules
    compiled: int  # of which compiled (in this process or in numba's cache)
    not_compiled: list[str] = field(default_factory=list)
    #: kernels numba cannot cache (``cache=False``, e.g. recursive ones): compiled on first use
    #: in each process, so warm-up cannot help them; not counted in `kernels`
    per_process: list[str] = field(default_factory=list)


def game_kernels(game: str) -> dict[str, Any]:
    """Every numba dispatcher defined in the game's modules, by ``module.function`` name."""
    from numba.core.dispatcher import Dispatcher

    found: dict[str, object] = {}
    # the game's modules and those of its packages (wordle.solver), never its shells
    todo = [(f"gamelab.{game}", "")]
    while todo:
        package_name, rel = todo.pop()
        package = importlib.import_module(package_name)
        for info in pkgutil.iter_modules(package.__path__):
            if info.name in ("cli", "report", "warmup") or info.name.startswith("test"):
                continue
            name = f"{package_name}.{info.name}"
            if info.ispkg:
                todo.append((name, f"{rel}{info.name}."))
                continue
            module = importlib.import_module(name)
            for attr, obj in vars(module).items():
                if isinstance(obj, Dispatcher) and obj.py_func.__module__ == module.__name__:
                    found[f"{rel}{info.name}.{attr}"] = obj
    return found


def _cached_on_disk(dispatcher: Any) -> bool:
    path = _index_path(dispatcher)
    return path is not None and os.path.exists(path)


def _index_path(dispatcher: Any) -> str | None:
    try:
        return dispatcher._cache._cache_file._index_path
    except AttributeError:  # cache=False: compiled in every process, nothing on disk
        return None


def warm_game(game: str) -> None:
    """Run the game's warm-up (its record's ``warmup``, ``gamelab.<game>.warmup:warm_up``):
    every kernel of `game` compiled or loaded."""
    load(game_info(game).warmup)()


def warm_up(games: list[str] | None = None) -> list[GameWarmup]:
    """Run each chosen game's warm-up (:func:`warm_game`) and report its kernels' state."""
    known = [info.name for info in registered_games() if info.warmup]
    chosen = list(games) if games else known
    unknown = [g for g in chosen if g not in known]
    if unknown:
        raise ValueError(f"unknown game {unknown[0]!r}; choose from {', '.join(known)}")
    done = []
    for game in chosen:
        start, cpu = time.perf_counter(), time.process_time()
        warm_game(game)
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
                time.process_time() - cpu,
                len(cached),
                len(cached) - len(missing),
                missing,
                per_process,
            )
        )
    return done
