"""What starting local workers through the fork server costs, against plain fork, side by side.

`core.parallel` starts its local pool with the fork server (spawn where there is none) because
fork() from a process that ran a numba parallel kernel aborts the child under GNU OpenMP. This
script times, in one run, the same small batch of tasks through `run_tasks` (fork server, with
its preload) and through a plain-fork ProcessPoolExecutor: first pool of the process (fork
server start included) and a second pool (server already running).

    .venv/bin/python benchmarks/core_pool_start.py
"""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from gamelab.core.parallel import Backend, run_tasks


def small_task(item: int, rng: np.random.Generator) -> float:
    return float(rng.random() + item)


def _plain(item: int) -> float:
    return float(item)


def fork_pool(n: int, workers: int) -> float:
    start = time.perf_counter()
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        list(pool.map(_plain, range(n)))
    return time.perf_counter() - start


def server_pool(n: int, workers: int) -> float:
    start = time.perf_counter()
    run_tasks(small_task, range(n), seed=0, backend=Backend(workers=workers, quiet=True))
    return time.perf_counter() - start


def main() -> None:
    n, workers = 8, 2
    first_server = server_pool(n, workers)
    first_fork = fork_pool(n, workers)
    later_server = min(server_pool(n, workers) for _ in range(3))
    later_fork = min(fork_pool(n, workers) for _ in range(3))
    print(f"{n} tasks on {workers} workers")
    print(
        f"first pool:  fork server {first_server:.2f} s, fork {first_fork:.2f} s, "
        f"ratio {first_server / first_fork:.1f}x, extra {first_server - first_fork:.2f} s"
    )
    print(
        f"later pools: fork server {later_server:.2f} s, fork {later_fork:.2f} s, "
        f"ratio {later_server / later_fork:.1f}x, extra {later_server - later_fork:.2f} s"
    )


if __name__ == "__main__":
    main()
