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
        metavar="ADDRESS",
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


def _pipe_closed(console: Console) -> None:
    """A rich console's answer to a closed stdout (`gamelab ... | head -1`): stop printing and
    let `gamelab.cli.main` end the command quietly with exit 0, as `head` expects (rich's own
    answer exits 1). The error carries no errno, so click passes it on instead of exiting 1."""
    console.quiet = True
    raise BrokenPipeError()


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

        def on_broken_pipe(self) -> None:
            _pipe_closed(self)

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
        if kind is float and param.min is None and _is_duration(param) and value <= 0:
            # a duration without a declared minimum: 0 is no time at all
            raise typer.BadParameter(
                f"{value:g} is not allowed: more than 0 seconds", ctx=ctx, param=param
            )
        lo = 0 if param.min is None else param.min
        hi = limit if param.max is None else param.max
        if not lo <= value <= hi:  # the bound that was crossed, not an internal range
            side, bound = ("at least", lo) if value < lo else ("at most", hi)
            shown = f"{bound:,}" if kind is int else f"{bound:g}"
            raise typer.BadParameter(
                f"{value} is not allowed: {side} {shown}", ctx=ctx, param=param
            )


def _is_duration(param: Any) -> bool:
    """A float option that is a time in seconds (by its name: time, seconds, budget)."""
    name = param.name or ""
    return _number_kind(param) is float and any(t in name for t in ("time", "seconds", "budget"))


def _metavar(param: Any) -> str | None:
    """What the help shows for a parameter's value: a word only where the option's name does not
    say it all (``SECONDS`` for a time, ``FILE`` for a path, the option's own ``metavar=``);
    never a type tag (``TEXT``, ``N``, ``INTEGER``): a number's range is shown on its own."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return None
    if param.metavar:
        return str(param.metavar)
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    text = str(annotation)
    name = param.name or ""
    if _is_duration(param):
        word = "SECONDS"
    elif "Path" in text:
        word = "FILE"
    else:
        return None
    if word == name.upper():  # --seconds SECONDS says nothing more
        return None
    return word + ("..." if "list" in text else "")


def _reflow(text: str | None) -> str | None:
    """Help text with each paragraph on one line (rich help would keep the docstring's line
    breaks and print ragged lines); a paragraph marked ``\b`` keeps its lines."""
    if not text:
        return text
    import inspect

    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split()) for p in paragraphs)


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


def _usage_name(param: Any) -> str:
    """An argument in the usage line as help texts write it (``SEQUENCE``, ``[GAMES]...``),
    not typer's ``{SEQUENCE}``."""
    name = str(param.metavar or (param.name or "value").upper())
    name = name if param.required else f"[{name}]"
    return name + ("..." if param.nargs != 1 else "")


def _compact_options_panel(
    *, name: str, params: list[Any], ctx: Any, markup_mode: Any, console: Any
) -> None:
    """typer's options panel in three columns (the option with its short and negative forms,
    its value, its help), so that the help gets the width at 80 columns: typer's own gives
    the short and the ``--no-`` forms a column each and leaves the text a fifth of the line."""
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text
    from typer import rich_utils as ru

    rows: list[list[Any]] = []
    for param in params:
        if param.param_type_name == "argument":
            label = str(param.metavar or (param.name or "").upper())
        else:
            opts = sorted(param.opts, key=lambda o: not o.startswith("--"))
            label = ", ".join(opts)
            if param.secondary_opts:
                label += "\n" + ", ".join(param.secondary_opts)
        value = Text(style=ru.STYLE_TYPES, overflow="fold")
        shown = param.display_type_rich(ctx=ctx)
        if shown is not None:
            value.append(shown)
        range_text = param._get_number_range_help_str()
        if range_text:
            value.append(f"{' ' if shown else ''}[{range_text}]")
        if param.required:
            value.append(f"{' ' if value.plain else ''}{ru.REQUIRED_SHORT_STRING}")
        help_text = ru._get_parameter_help(param=param, ctx=ctx, markup_mode=markup_mode)
        for item in getattr(help_text, "renderables", []):
            if isinstance(item, Text):
                item.overflow = "fold"  # a long token wraps; it is never cut with "…"
        rows.append([ru.highlighter(label), ru.types_highlighter(value), help_text])
    if not rows:
        return
    table = Table(
        highlight=True, show_header=False, expand=True, box=None, pad_edge=False, padding=(0, 1)
    )
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(ratio=1, overflow="fold")
    for row in rows:
        table.add_row(*row)
    console.print(
        Panel(table, border_style=ru.STYLE_OPTIONS_PANEL_BORDER, title=name, title_align="left")
    )


def _compact_help(command: Any) -> None:
    """Draw `command`'s rich help with :func:`_compact_options_panel` (installed in typer's
    help module when a help is shown: importing it costs a tenth of a second)."""

    if getattr(command, "plain_help", False):  # `gamelab --help` draws its own, cheaply
        return
    format_help = command.format_help

    def format_compact_help(ctx: Any, formatter: Any) -> Any:
        from rich.console import Console
        from typer import rich_utils

        if hasattr(command, "rich_markup_mode") and command.rich_markup_mode is None:
            command.rich_markup_mode = "rich"  # a command of the root (report, serve, warmup)

        rich_utils._print_options_panel = _compact_options_panel
        Console.on_broken_pipe = _pipe_closed  # type: ignore[method-assign,assignment]
        return format_help(ctx, formatter)

    command.format_help = format_compact_help


def humane_help(command: Any) -> None:
    """Metavars and ranges in `command`'s help a person understands (see :func:`_metavar`),
    its text reflowed (see :func:`_reflow`)."""
    command.help = _reflow(command.help)
    command.short_help = _reflow(command.short_help)
    _compact_help(command)
    for param in command.params:
        if getattr(param, "help", None):
            param.help = _reflow(param.help)
        if param.param_type_name == "argument" and hasattr(param, "_usage_display_name"):
            param._usage_display_name = lambda param=param: _usage_name(param)
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
