"""The `gamelab` command: one sub-command group per game, plus `report`.

A game joins the command line by having a module ``gamelab.<game>.cli`` with a ``typer.Typer``
called ``app``; games without one are simply absent (no empty placeholder groups).
"""

from __future__ import annotations

import importlib
import os
import re
import signal
import sys
import threading
from pathlib import Path
from typing import Annotated

import typer

from gamelab import GAMES, __version__
from gamelab.cli_common import Cluster, Json, Quiet, Seed, Workers, guard_commands, heartbeat

app = typer.Typer(
    name="gamelab",
    help="Solve, simulate and generate small games, and show the work.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
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
        Path, typer.Option("--out", help="Directory for index.html, results.json and plots.")
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
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
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
            f"{g.seconds:.1f} s{extra}"
        )
    typer.echo(f"total {sum(g.seconds for g in done):.1f} s")


def _add_game_groups() -> None:
    for game in GAMES:
        module_name = f"gamelab.{game}.cli"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name in (module_name, f"gamelab.{game}"):
                continue  # this game has no command line yet
            raise
        app.add_typer(module.app, name=game)


_add_game_groups()


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
    raise Terminated()


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; turn bad input into one `error:` line and exit code 2."""
    args = sys.argv[1:] if argv is None else argv
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    if argv is None:  # the `gamelab` program itself (in-process callers keep their stderr)
        _install_compile_notice(args)
        global _heartbeat_wanted
        _heartbeat_wanted = "--quiet" not in args
    try:
        _run(args)
    finally:
        if previous is not None:  # called in-process (tests): leave the caller's handler
            signal.signal(signal.SIGTERM, previous)


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


def _keep_interrupts(command: typer.core.TyperGroup) -> None:
    invoke = command.invoke

    def invoke_keeping_interrupts(ctx: typer.Context) -> object:
        try:
            return invoke(ctx)
        except KeyboardInterrupt as exc:
            raise _Stopped(exc) from exc

    command.invoke = invoke_keeping_interrupts  # type: ignore[method-assign,assignment]


def _run(args: list[str]) -> None:
    command = typer.main.get_command(app)
    guard_commands(command)  # numeric options within bounds before any work starts
    _keep_interrupts(command)  # type: ignore[arg-type]
    try:
        try:
            with heartbeat(
                _command_label(args), enabled=None if _heartbeat_wanted and _finite(args) else False
            ):
                command.main(args=args, prog_name="gamelab", standalone_mode=False)
        except _Stopped as stopped:
            raise stopped.interrupt from None
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
        ctx = getattr(exc, "ctx", None)
        hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        print(f"error: {message}{hint}", file=sys.stderr)
        sys.exit(2)
    except ValueError as exc:
        if os.environ.get("GAMELAB_DEBUG"):
            raise
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        sys.exit(2)
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
