"""Imported once by the solver pool's forkserver (as a preload module): runs the warm-up calls
named in ``$GAMELAB_WEB_PREFORK`` there, so that every solver process forked from it starts with
those kernels already loaded (a replacement for a killed process then serves at once instead of
after seconds of loading). Only for functions that start no threads: numba ``parallel=True``
kernels must not run here (a thread pool does not survive a fork)."""

import os

from gamelab.web.pool import PREFORK_ENV, call_by_name

for _spec in filter(None, os.environ.get(PREFORK_ENV, "").split(",")):
    try:
        call_by_name(_spec)
    except Exception:  # noqa: BLE001 - each worker's own warm-up reports the problem
        pass
