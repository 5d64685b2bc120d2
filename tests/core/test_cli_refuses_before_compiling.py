"""Bad input is refused at the edge, before any numba kernel is compiled: on a cold cache a
wrong value must not cost the user a kernel compile (up to half a minute) before its error.

One fresh process with an empty ``NUMBA_CACHE_DIR`` runs each bad command in turn (the
command's own ``main``); every one must end with one ``error:`` line and exit 2, and the cache
folder must hold no file: no kernel was compiled on the way to the refusal."""

from __future__ import annotations

import json
import os
import subprocess
import sys

#: one bad value each, where a kernel used to compile before the error (or could: a command
#: that reaches an engine, a tablebase or an enumeration once its input is read)
BAD = [
    ["lattice", "score", "HPHP", "RRRR"],  # 4 moves for 3 bonds
    ["lattice", "show", "HPHP", "--conformation", "RRRR", "--out", "never.png"],
    ["oware", "analyse", "--move", "9"],  # the tablebase was looked up first
    # the boards were counted before the strategy's name was read
    ["voltorb", "evaluate", "--rows", "1,4 1,4 1,4 1,4 1,4", "--cols", "1,4 1,4 1,4 1,4 1,4"]
    + ["--level", "1", "--strategy", "clever"],
]

RUN_ALL = """
import contextlib, io, json, sys
from gamelab.cli import main
out = []
for args in json.loads(sys.argv[1]):
    err = io.StringIO()
    code = 0
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()) as so:
        try:
            main(args)
        except SystemExit as exc:
            code = exc.code or 0
    out.append([code, err.getvalue(), so.getvalue()])
print(json.dumps(out))
"""


def test_bad_input_is_refused_before_any_kernel_compiles(tmp_path):
    cache = tmp_path / "numba"
    cache.mkdir()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", RUN_ALL, json.dumps(BAD)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    for args, (code, err, out) in zip(BAD, json.loads(done.stdout), strict=True):
        assert code == 2, (args, err)
        assert err.startswith("error:") and err.count("\n") == 1, (args, err)
        assert "compiling" not in err and out == "", (args, err, out)
    # numba makes a module's folder when it imports it; a compiled kernel would be a file
    assert [p for p in cache.rglob("*") if p.is_file()] == []
    assert list(tmp_path.glob("*.png")) == []
