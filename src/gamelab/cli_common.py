"""Options and output helpers shared by every `gamelab` command.

Every command follows the same conventions: `--seed` where randomness is involved, `--json` for
machine-readable output on stdout (and nothing else there), `--quiet` to silence progress bars,
`--workers` / `--cluster` where work runs through :mod:`gamelab.core.parallel`. Bad input raises
``ValueError``; :func:`gamelab.cli.main` turns it into one ``error:`` line on stderr and exit code 2.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from rich.console import Console

from gamelab.core import serialise as _serialise
from gamelab.core.parallel import Backend
from gamelab.core.results import ResultStore

Seed = Annotated[int, typer.Option("--seed", help="Random seed; the same seed gives the same result on every backend.")]
Json = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout and nothing else.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars or chatter.")]
Workers = Annotated[
    int | None,
    typer.Option("--workers", min=1, help="Local worker processes (default: number of cores)."),
]
Cluster = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        envvar="GAMELAB_CLUSTER",
        help="Dask scheduler address (tcp://host:8786) or local:N for an in-process LocalCluster "
        "with N worker processes. Default: $GAMELAB_CLUSTER, else local processes.",
    ),
]

Store = Annotated[
    bool,
    typer.Option(
        "--store/--no-store",
        help="Save each finished task in the results store ($GAMELAB_RESULTS) so that an interrupted "
        "run resumes and a repeated run reuses its results.",
    ),
]

#: Human-readable output goes to stdout; progress bars and warnings to stderr.
console = Console()
err_console = Console(stderr=True)


def backend(workers: int | None, cluster: str | None, quiet: bool) -> Backend:
    """The parallel backend chosen by the standard options (validated)."""
    return Backend(workers=workers, cluster=cluster, quiet=quiet)


def result_store(enabled: bool) -> ResultStore | None:
    """The default results store when `enabled` (the ``--store/--no-store`` option), else None."""
    return ResultStore() if enabled else None


def to_json(obj: Any) -> str:
    """JSON text for `obj` through the one serialiser (:mod:`gamelab.core.serialise`)."""
    return _serialise.to_json(obj)


def print_json(obj: Any) -> None:
    """Write `obj` as one JSON document on stdout."""
    sys.stdout.write(to_json(obj) + "\n")
    sys.stdout.flush()
