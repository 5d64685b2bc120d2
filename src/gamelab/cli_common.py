"""Options and output helpers shared by every `gamelab` command.

Every command follows the same conventions: `--seed` where randomness is involved, `--json` for
machine-readable output on stdout (and nothing else there), `--quiet` to silence progress bars,
`--workers` / `--cluster` where work runs through :mod:`gamelab.core.parallel`. Bad input raises
``ValueError``; :func:`gamelab.cli.main` turns it into one ``error:`` line on stderr and exit code 2.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:  # imported when used: `gamelab --help` needs none of them (issue 23)
    from rich.console import Console

    from gamelab.core.parallel import Backend
    from gamelab.core.results import ResultStore

Seed = Annotated[
    int,
    typer.Option(
        "--seed",
        min=0,
        max=2**63 - 1,
        help="Random seed; the same seed gives the same result on every backend.",
    ),
]
Json = Annotated[
    bool, typer.Option("--json", help="Print machine-readable JSON on stdout and nothing else.")
]
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

#: Human-readable output goes to stdout (``console``); progress bars and warnings to stderr
#: (``err_console``): rich consoles, made on first use (see ``__getattr__``).
console: Console
err_console: Console
_consoles: dict[str, Console] = {}


def __getattr__(name: str) -> Any:
    if name in ("console", "err_console"):
        if name not in _consoles:
            _consoles[name] = _whole_console(stderr=name == "err_console")
        return _consoles[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _whole_console(stderr: bool) -> Console:
    """A rich console that never cuts a table's values short: a cell too wide for its column
    wraps inside the cell (``overflow="fold"``) instead of ending in "…" (rich's default), so a
    narrow terminal shows every value whole."""
    from rich.console import Console
    from rich.table import Table

    class WholeConsole(Console):
        def print(self, *objects: Any, **kwargs: Any) -> None:
            for table in objects:
                if isinstance(table, Table):
                    for column in table.columns:
                        if column.overflow == "ellipsis":
                            column.overflow = "fold"
            super().print(*objects, **kwargs)

    return WholeConsole(stderr=stderr)


def backend(workers: int | None, cluster: str | None, quiet: bool) -> Backend:
    """The parallel backend chosen by the standard options (validated)."""
    from gamelab.core.parallel import Backend

    return Backend(workers=workers, cluster=cluster, quiet=quiet)


def result_store(enabled: bool) -> ResultStore | None:
    """The default results store when `enabled` (the ``--store/--no-store`` option), else None."""
    from gamelab.core.results import ResultStore

    return ResultStore() if enabled else None


def to_json(obj: Any) -> str:
    """JSON text for `obj` through the one serialiser (:mod:`gamelab.core.serialise`)."""
    from gamelab.core import serialise

    return serialise.to_json(obj)


def print_json(obj: Any) -> None:
    """Write `obj` as one JSON document on stdout."""
    sys.stdout.write(to_json(obj) + "\n")
    sys.stdout.flush()


#: Bounds every numeric option obeys unless it declares its own (``min=`` / ``max=``): sizes and
#: times beyond these are mistakes (or would not fit in memory), so they are refused before any
#: work starts. Floats must also be finite (``nan`` slips through a declared range).
MAX_INT_OPTION = 10**9
MAX_FLOAT_OPTION = 1e9


def _number_kind(param: Any) -> type | None:
    import types
    import typing

    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        annotation = next((a for a in typing.get_args(annotation) if a is not type(None)), None)
    return annotation if annotation in (int, float) else None


def check_number_options(ctx: typer.Context) -> None:
    """Refuse a numeric option outside the default bounds (see :data:`MAX_INT_OPTION`)."""
    import math

    params: list[Any] = list(ctx.command.params)  # typer's parameters (min, max) at run time
    for param in params:
        kind = _number_kind(param)
        value = ctx.params.get(param.name)
        if kind is None or value is None or isinstance(value, bool):
            continue
        if kind is float and not math.isfinite(value):
            raise typer.BadParameter(f"{value} is not a finite number", ctx=ctx, param=param)
        limit = MAX_INT_OPTION if kind is int else MAX_FLOAT_OPTION
        lo = 0 if param.min is None else param.min
        hi = limit if param.max is None else param.max
        if not lo <= value <= hi:  # the bound that was crossed, not an internal range
            side, bound = ("at least", lo) if value < lo else ("at most", hi)
            shown = f"{bound:,}" if kind is int else f"{bound:g}"
            raise typer.BadParameter(
                f"{value} is not allowed: {side} {shown}", ctx=ctx, param=param
            )


def _metavar(param: Any) -> str | None:
    """What the help shows for a parameter's value: a word a person understands (``N``,
    ``SECONDS``, ``FILE``, ``TEXT``), never a Python type tag; nothing for a flag."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return None
    if param.metavar:
        return str(param.metavar)
    kind = _number_kind(param)
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    text = str(annotation)
    name = param.name or ""
    if kind is int:
        word = "N"
    elif kind is float:
        word = "SECONDS" if any(t in name for t in ("time", "seconds", "budget")) else "X"
    elif "Path" in text:
        word = "FOLDER" if name == "out" and "report" in text else "FILE"
    else:
        word = "TEXT"
    return word + ("..." if "list" in text else "")


def _range(param: Any) -> str | None:
    """The help's range of a numeric parameter, as the person may type it: a bound of 2**63 or
    more (a seed's) is no real bound and is not shown."""
    lo, hi = getattr(param, "min", None), getattr(param, "max", None)
    if hi is not None and hi >= 2**62:
        hi = None
    if lo is None and hi is None:
        return None
    if hi is None:
        return f"≥ {lo:,}"
    if lo is None:
        return f"≤ {hi:,}"
    return f"{lo:,}–{hi:,}"


def humane_help(command: Any) -> None:
    """Metavars and ranges in `command`'s help a person understands (see :func:`_metavar`)."""
    for param in command.params:
        label = _metavar(param)
        param.display_type_rich = lambda ctx, label=label: label
        if _number_kind(param) is not None:
            param._get_number_range_help_str = lambda param=param: _range(param)
    help_option = command.get_help_option

    def get_help_option(ctx: Any) -> Any:  # --help itself is a flag: no type shown
        option = help_option(ctx)
        if option is not None:
            option.display_type_rich = lambda ctx: None
        return option

    command.get_help_option = get_help_option


def guard_commands(command: Any) -> None:
    """Make every leaf command under `command` check its numeric options before it runs."""
    subcommands = getattr(command, "commands", None)
    if subcommands is not None:
        humane_help(command)
        for sub in subcommands.values():
            guard_commands(sub)
        return
    if getattr(command, "_gamelab_guarded", False):
        return
    humane_help(command)
    invoke = command.invoke

    def guarded_invoke(ctx: typer.Context) -> Any:
        check_number_options(ctx)
        return invoke(ctx)

    command.invoke = guarded_invoke
    command._gamelab_guarded = True


#: A run longer than this, with stderr not a terminal, says every HEARTBEAT_EVERY seconds that
#: it is still working (a log or CI would otherwise show nothing for minutes).
HEARTBEAT_AFTER = 30.0
HEARTBEAT_EVERY = 10.0


class heartbeat:
    """Context manager: "still running (N s)" lines on stderr while a long command runs.

    Only when stderr is not a terminal (a terminal has progress bars and spinners).
    """

    def __init__(self, label: str, enabled: bool | None = None, stream: Any = None) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = not getattr(self.stream, "isatty", lambda: False)()
        self.enabled = enabled
        self._stop: threading.Event | None = None

    def __enter__(self) -> heartbeat:
        if self.enabled:
            import threading
            import time

            self._stop = threading.Event()
            start = time.monotonic()

            stop = self._stop

            def beat() -> None:
                wait = HEARTBEAT_AFTER
                while not stop.wait(wait):
                    elapsed = time.monotonic() - start
                    print(
                        f"{self.label}: still running ({elapsed:.0f} s)",
                        file=self.stream,
                        flush=True,
                    )
                    wait = HEARTBEAT_EVERY

            threading.Thread(target=beat, name="gamelab-heartbeat", daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._stop is not None:
            self._stop.set()
