"""The `gamelab` command: one sub-command group per game, plus `report`.

A game joins the command line by having a module ``gamelab.<game>.cli`` with a ``typer.Typer``
called ``app``; games without one are simply absent (no empty placeholder groups).
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from gamelab.cli_common import Cluster, Json, Quiet, Seed, Workers, guard_commands, heartbeat
from gamelab.core.state import game_info, load, registered_games


def game_group(game: str) -> Any:
    """The command group of `game` (imports the module its record names,
    :attr:`gamelab.core.state.GameInfo.cli`), its numeric options guarded; None for a game
    without a command line."""
    if game not in _loaded:
        spec = game_info(game).cli
        module_name = spec.partition(":")[0]
        try:
            app_of_game = load(spec) if spec else None
        except ModuleNotFoundError as exc:
            if exc.name not in (module_name, f"gamelab.{game}"):
                raise
            app_of_game = None  # this game has no command line yet
        if app_of_game is None:
            _loaded[game] = None
        else:
            # built as a sub-group of a root, exactly as `add_typer` on the root builds it
            holder = typer.Typer(add_completion=False)
            holder.add_typer(app_of_game, name=game)
            root = typer.main.get_command(holder)
            assert isinstance(root, TyperGroup)
            group = root.commands[game]
            guard_commands(group)
            _loaded[game] = group
    return _loaded[game]


_loaded: dict[str, Any] = {}


class _LazyGame(TyperGroup):
    """A game's group as ``gamelab --help`` lists it: its name and help, nothing imported. Used
    for a command, it hands over to the real group (:func:`game_group`)."""

    def __init__(self, game: str) -> None:
        # the record's summary: `gamelab --help` imports no game (a test checks it equals the
        # group's own help)
        super().__init__(name=game, help=game_info(game).summary, no_args_is_help=True)

    def _real(self) -> Any:
        group = game_group(str(self.name))
        if group is None:
            raise ValueError(f"no command line for {self.name}")
        return group

    def make_context(self, info_name, args, parent=None, **extra):
        return self._real().make_context(info_name, args, parent=parent, **extra)

    def list_commands(self, ctx: Any) -> list[str]:
        real = self._real()
        return real.list_commands(ctx) if isinstance(real, TyperGroup) else []

    def get_command(self, ctx: Any, name: str) -> Any:
        real = self._real()
        return real.get_command(ctx, name) if isinstance(real, TyperGroup) else None


def _panel(title: str, rows: list[tuple[str, str]], width: int) -> list[str]:
    """A titled box of (name, text) rows, drawn as typer's rich help draws its panels, in plain
    text (see :class:`_Gamelab`); the text column wraps at word boundaries."""
    import textwrap

    name_width = max(len(name) for name, _ in rows)
    inner = width - 4  # "│ " and " │"
    text_width = max(inner - name_width - 2, 20)
    lines = ["╭─ " + title + " " + "─" * max(width - len(title) - 5, 0) + "╮"]
    for name, text in rows:
        wrapped = textwrap.wrap(text, text_width) or [""]
        for i, part in enumerate(wrapped):
            cell = f"{name if i == 0 else '':{name_width}}  {part}"
            lines.append(f"│ {cell:{inner}} │")
    lines.append("╰" + "─" * (width - 2) + "╯")
    return lines


class _Gamelab(TyperGroup):
    """The root group: `report`, `serve`, `warmup`, then one lazily loaded group per game.

    Its own help (``gamelab --help``) is drawn in plain text in the same layout as the rich
    help of every command below it: typer's rich help imports rich's markdown and traceback
    machinery, which alone cost more than the 0.3 s that ``gamelab --help`` may take (the
    commands below draw typer's rich help when their own help is asked for:
    :func:`gamelab.cli_common.humane_help`)."""

    plain_help = True

    def format_help(self, ctx: Any, formatter: Any) -> None:
        import shutil

        width = max(min(shutil.get_terminal_size((80, 24)).columns, 100), 40)
        options = [
            (" ".join(param.opts), str(getattr(param, "help", "") or ""))
            for param in self.get_params(ctx)
        ]
        commands = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                text = command.short_help or (command.help or "").split("\n\n")[0]
                commands.append((name, " ".join(text.split())))
        lines = ["", f" Usage: {ctx.command_path} [OPTIONS] COMMAND [ARGS]...", ""]
        lines += [f" {line}" for line in _wrap(self.help or "", width - 2)] + [""]
        lines += _panel("Options", options, width)
        if commands:
            lines += _panel("Commands", commands, width)
        formatter.write("\n".join(lines) + "\n")

    def list_commands(self, ctx: Any) -> list[str]:
        own = super().list_commands(ctx)
        games = [info.name for info in registered_games()]
        return [*own, *(g for g in games if g not in own and _has_cli(g))]

    def get_command(self, ctx: Any, name: str) -> Any:
        found = super().get_command(ctx, name)
        if found is None and name in _game_names() and _has_cli(name):
            found = _LazyGame(name)
        return found


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(" ".join(text.split()), width)


def _game_names() -> list[str]:
    return [info.name for info in registered_games()]


def _has_cli(game: str) -> bool:
    from importlib.util import find_spec

    module = game_info(game).cli.partition(":")[0]
    try:
        return bool(module) and find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def root_command(load_games: bool = False) -> TyperGroup:
    """The `gamelab` command as click sees it; with `load_games`, every game's real group in
    place of its lazy stand-in (for tests that walk the whole tree)."""
    root = typer.main.get_command(app)
    assert isinstance(root, TyperGroup)
    if load_games:
        for game in _game_names():
            group = game_group(game)
            if group is not None:
                root.add_command(group, game)
    return root


app = typer.Typer(
    name="gamelab",
    cls=_Gamelab,
    rich_markup_mode=None,
    help="Solve, simulate and generate small games, and show the work.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        from gamelab import __version__

        typer.echo(f"gamelab {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Solve, simulate and generate small games, and show the work."""


@app.command("report")
def report_command(
    quick: Annotated[
        bool, typer.Option("--quick", help="Small sample sizes: a few minutes on 2 cores.")
    ] = False,
    out: Annotated[
        Path,
        typer.Option(
            "--out", metavar="FOLDER", help="Folder for index.html, results.json and plots."
        ),
    ] = Path("report"),
    only: Annotated[
        str | None, typer.Option("--only", help="Comma-separated games to include (default: all).")
    ] = None,
    seed: Seed = 0,
    workers: Workers = None,
    cluster: Cluster = None,
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    """Run every game's report section and write report/index.html and report/results.json."""
    from gamelab.core.files import check_output_folder
    from gamelab.report import run_report

    check_output_folder(out)
    run_report(
        out=out,
        quick=quick,
        only=only,
        seed=seed,
        workers=workers,
        cluster=cluster,
        json_out=json_out,
        quiet=quiet,
    )


@app.command("serve")
def serve_command(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (default: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8000,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Solver processes for heavy requests.")
    ] = 2,
    budget: Annotated[
        float,
        typer.Option(
            "--budget",
            min=0.1,
            help="Seconds a heavy request may take before a labelled cheaper answer.",
        ),
    ] = 2.0,
    pack: Annotated[
        Path | None,
        typer.Option(
            "--pack",
            help="Level pack for the lattice game (from `gamelab lattice pack`; default: the shipped pack).",
        ),
    ] = None,
) -> None:
    """Serve the web app (a page per game, JSON API under /api) until Ctrl-C."""
    from gamelab.web.server import serve

    serve(host=host, port=port, workers=workers, budget=budget, pack=pack)


@app.command("warmup")
def warmup_command(
    games: Annotated[
        list[str] | None, typer.Argument(help="Games to warm up (default: all).")
    ] = None,
    json_out: Json = False,
) -> None:
    """Compile every fast (numba) kernel ahead, so that no later command pays for it."""
    from gamelab.cli_common import print_json
    from gamelab.warmup import warm_up

    done = warm_up(games)
    if json_out:
        print_json(done)
        return
    for g in done:
        extra = f"; not compiled: {', '.join(g.not_compiled)}" if g.not_compiled else ""
        if g.per_process:
            extra += f"; compiled in each process on first use: {', '.join(g.per_process)}"
        typer.echo(
            f"{g.game}: {g.compiled} of {g.kernels} kernels compiled and cached in "
            f"{g.seconds:.1f} s ({g.cpu_seconds:.1f} CPU-s){extra}"
        )
    total, cpu = sum(g.seconds for g in done), sum(g.cpu_seconds for g in done)
    typer.echo(f"total {total:.1f} s ({cpu:.1f} CPU-s)")


def _one_line(text: str) -> str:
    """An error message as one readable line: whitespace collapsed, and a very long value (a
    pasted file, a 100 KB argument) shortened to its ends and its length."""

    def shorten(m: re.Match) -> str:
        word = m.group(0)
        if "/" in word and len(word) <= 4096:  # a file's path is kept whole: the reader needs it
            return word
        return f"{word[:24]}…({len(word):,} characters)…{word[-8:]}"

    return re.sub(r"\S{120,}", shorten, " ".join(str(text).split()))


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that finished work is kept and workers are stopped."""


def _raise_terminated(signum: int, frame: object) -> None:
    # Once: a second SIGTERM during the clean-up that the first started (workers stopped,
    # results committed) would otherwise interrupt that clean-up with a traceback.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated()


#: Narrower than this (or ``COLUMNS=0``, or not a number), the output is laid out for
#: :data:`FALLBACK_COLUMNS` instead: rich would print nothing at 0 and cut values short ("4…")
#: in a few columns; a terminal narrower than the layout wraps its lines, and nothing is lost.
MIN_COLUMNS = 40
FALLBACK_COLUMNS = 80


def readable_columns() -> None:
    """Replace an unreadable ``COLUMNS`` (see :data:`MIN_COLUMNS`) for this process."""
    value = os.environ.get("COLUMNS")
    if value is None:
        return
    try:
        width = int(value)
    except ValueError:
        width = 0
    if width < MIN_COLUMNS:
        os.environ["COLUMNS"] = str(FALLBACK_COLUMNS)


def _quiet_broken_pipe() -> None:
    """The reader of stdout went away (``gamelab ... | head -1``): stop quietly with exit 0, as
    ``head`` expects; what is still buffered goes nowhere instead of raising again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; turn bad input into one `error:` line and exit code 2."""
    args = sys.argv[1:] if argv is None else argv
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    readable_columns()
    if argv is None:  # the `gamelab` program itself (in-process callers keep their stderr)
        _install_compile_notice(args)
        global _heartbeat_wanted
        _heartbeat_wanted = "--quiet" not in args
    try:
        try:
            _run(args)
        except BrokenPipeError:
            _quiet_broken_pipe()
            raise SystemExit(0) from None
        except Terminated:  # arrived outside a command (while its module loaded, say)
            print("error: terminated", file=sys.stderr)
            raise SystemExit(143) from None
    except SystemExit as exc:
        if argv is None:
            _exit_now(_exit_code(exc.code))
        raise
    else:
        if argv is None:
            _exit_now(0)
    finally:
        if previous is not None:  # called in-process (tests): leave the caller's handler
            signal.signal(signal.SIGTERM, previous)


def _exit_code(code: object) -> int:
    """The process's exit status for ``SystemExit(code)``, as the interpreter would give it (a
    message is printed to stderr and gives 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _exit_now(code: int) -> None:
    """End the `gamelab` program at once when its command is done, without the interpreter's
    own teardown of numba and its modules: 0.15-0.2 s of a warm 0.8 s command, 2 s after an
    interrupted long one (issue 23 goal 2; issue 29 item 14). By now every `finally` has run
    (results stored and committed, workers stopped, files written aside and renamed), so what
    is skipped frees memory only. Kept: the exit handlers (`atexit`, e.g. logging's flush) and
    the flush of stdout and stderr. Skipped, leaving the normal exit, while anything could
    still need it: a child process of `multiprocessing` (a Dask LocalCluster's are stopped by
    the normal exit) or a thread that is not a daemon (a pool's worker finishing a task)."""
    mp = sys.modules.get("multiprocessing")
    if mp is not None and mp.active_children():
        return
    main_thread = threading.main_thread()
    if any(t is not main_thread and t.is_alive() and not t.daemon for t in threading.enumerate()):
        return
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def run_in_process(args: list[str]) -> int:
    """Run `gamelab ARGS` in this process and return its exit code (stdout as usual)."""
    try:
        _run(args)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


_heartbeat_wanted = False  # only for the `gamelab` program itself, see main()


def _install_compile_notice(args: list[str]) -> None:
    """Say "compiling <game>'s fast kernels, once" (and how long) when numba really compiles a
    kernel (a cache miss: the first run of a command after installing); loading from numba's
    cache is silent (:mod:`gamelab.compile_notice`)."""
    if "--quiet" in args or "-q" in args:
        return
    from gamelab import compile_notice

    compile_notice.install()


def _command_label(args: list[str]) -> str:
    """``gamelab voltorb solve`` for the heartbeat: the command's words, not its options."""
    words: list[str] = []
    for arg in args:
        if arg.startswith("-") or len(words) == 2:
            break
        words.append(arg)
    return " ".join(["gamelab", *words])


def _finite(args: list[str]) -> bool:
    """False for a command that runs until stopped (``serve``): no "still running" lines."""
    return _command_label(args) != "gamelab serve"


class _Stopped(Exception):
    """A Ctrl-C or SIGTERM carried past typer, which in ``standalone_mode=False`` would turn it
    into a returned 130 that nobody sees (the command would then exit 0 with nothing done)."""

    def __init__(self, interrupt: KeyboardInterrupt) -> None:
        super().__init__()
        self.interrupt = interrupt


class _PipeClosed(Exception):
    """The reader of stdout left, carried past click (which would exit 1 on it)."""


def _keep_interrupts(command: typer.core.TyperGroup) -> None:
    """Carry an interrupt or a closed pipe past typer from the parsing of the arguments
    (``make_context``: typer imports its converters there on first use) and from the run."""
    invoke, make_context = command.invoke, command.make_context

    def invoke_keeping_interrupts(ctx: typer.Context) -> object:
        try:
            return invoke(ctx)
        except KeyboardInterrupt as exc:
            raise _Stopped(exc) from exc
        except BrokenPipeError as exc:
            raise _PipeClosed() from exc

    def make_context_keeping_interrupts(*args: Any, **kwargs: Any) -> Any:
        try:
            return make_context(*args, **kwargs)
        except KeyboardInterrupt as exc:
            raise _Stopped(exc) from exc

    command.invoke = invoke_keeping_interrupts  # type: ignore[method-assign,assignment]
    command.make_context = make_context_keeping_interrupts  # type: ignore[method-assign]


def _input_of(exc: BaseException) -> str | None:
    """The value the person typed, from the option parser's validation error behind `exc`."""
    errors = getattr(exc.__cause__, "errors", None)
    try:
        value = errors()[0].get("input") if callable(errors) else None
    except (IndexError, TypeError, AttributeError):
        return None
    return value if isinstance(value, str) else None


_NUMBER = re.compile(r"[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?")


def _typed_number(arg: str) -> str:
    """A number typed in full-width digits (``３``) as ASCII, as every game's text input reads
    it (:func:`gamelab.core.typed.typed`); a superscript or circled sign is refused as not a
    digit. Any other argument is left as it is."""
    if arg.isascii():
        return arg
    import unicodedata

    from gamelab.core.typed import typed

    if not _NUMBER.fullmatch(unicodedata.normalize("NFKC", arg)):
        return arg
    return typed(arg)


def _run(args: list[str]) -> None:
    command = root_command()
    guard_commands(command)  # numeric options within bounds before any work starts (each
    # game's group is guarded when it is loaded)
    _keep_interrupts(command)
    try:
        args = [_typed_number(arg) for arg in args]
        try:
            with heartbeat(
                _command_label(args), enabled=None if _heartbeat_wanted and _finite(args) else False
            ):
                command.main(args=args, prog_name="gamelab", standalone_mode=False)
        except _Stopped as stopped:
            raise stopped.interrupt from None
        except _PipeClosed:
            raise BrokenPipeError() from None
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        print("error: aborted", file=sys.stderr)
        sys.exit(130)
    except typer.TyperException as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            ctx = getattr(exc, "ctx", None)
            if ctx is not None:
                print(ctx.get_help())
            sys.exit(0)
        message = _one_line(exc.format_message())
        param = getattr(exc, "param", None)
        lo, hi = getattr(param, "min", None), getattr(param, "max", None)
        if hi is not None and hi >= 2**62:  # a seed's 2^63 - 1: no bound a person meets
            hi = None
        if lo is not None and hi is not None:  # both ends of a declared range, as in the help
            message = re.sub(
                r"Input should be (greater|less) than or equal to \S+",
                f"allowed: {lo}–{hi}",
                message,
            )
        else:  # one declared end: the value and the bound it crossed, as check_number_options
            given = _input_of(exc)
            message = re.sub(
                r"Input should be (greater|less) than or equal to (\S+)",
                lambda m: (
                    (f"{given} is not allowed: " if given is not None else "allowed: ")
                    + ("at least " if m.group(1) == "greater" else "at most ")
                    + m.group(2)
                ),
                message,
            )
        ctx = getattr(exc, "ctx", None)
        hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        print(f"error: {message}{hint}", file=sys.stderr)
        sys.exit(2)
    except ValueError as exc:
        if os.environ.get("GAMELAB_DEBUG"):
            raise
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:
        raise  # the reader of stdout left: main() ends quietly
    except OSError as exc:  # a file or folder the user named cannot be read or written
        if os.environ.get("GAMELAB_DEBUG"):
            raise
        where = f": {exc.filename}" if getattr(exc, "filename", None) else ""
        print(_one_line(f"error: {exc.strerror or exc}{where}"), file=sys.stderr)
        sys.exit(2)
    except MemoryError as exc:  # a size no check foresaw: still one line, and the reason
        if os.environ.get("GAMELAB_DEBUG"):
            raise
        detail = f" ({_one_line(str(exc))})" if str(exc) else ""
        print(
            f"error: not enough memory for the sizes given{detail}; choose smaller values",
            file=sys.stderr,
        )
        sys.exit(2)
    except Terminated:
        print("error: terminated", file=sys.stderr)
        sys.exit(143)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
