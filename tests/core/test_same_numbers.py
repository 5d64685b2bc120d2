"""The same seed gives the same numbers under 1 and 2 BLAS threads and on Dask (issue 50).

A decision between tiles (or moves, or keeps) of equal value must not depend on the order in
which a BLAS call summed the probabilities, which depends on its number of threads: each
backend runs the fixed-seed simulations of every game (``same_numbers_runs.py``) in a fresh
process, with the BLAS threads set before numpy loads, and the documents must be identical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

RUNNER = Path(__file__).with_name("same_numbers_runs.py")
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _document(backend: str, threads: int) -> dict:
    env = {**os.environ, **{name: str(threads) for name in BLAS_THREADS}}
    done = subprocess.run(
        [sys.executable, str(RUNNER), backend],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_every_simulation_gives_the_same_document_on_every_backend():
    one = _document("local:1", threads=1)
    assert set(one) == {"voltorb", "wordle", "lattice", "oware", "yatzy"}
    assert one["voltorb"]["games"] == 120 and one["voltorb"]["compare"]["strategy"] == "scorefirst"
    assert _document("local:2", threads=2) == one
    assert _document("dask:1", threads=2) == one
