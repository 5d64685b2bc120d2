"""Interactive sessions with injectable input and output: one loop for every front end.

A game's interactive program (``voltorb assist``, ``wordle assist``, ``oware play``,
``yatzy play``) is a :class:`Session`: it says what to show first (:meth:`Session.intro`), what
to ask next (:attr:`Session.prompt`) and what a typed line does (:meth:`Session.handle`, which
returns the text to show). :func:`run_session` drives a session with any two callables:
``read_line(prompt) -> str`` (raising ``EOFError`` at the end of input, like :func:`input`) and
``write(text)``. The command line wires them to the terminal; tests pass a script and a list.

The loop keeps the game whatever a command does: a command that raises ``ValueError`` or
``OSError`` (a typo, a file that cannot be written) shows one ``error: ...`` line and the same
prompt comes back; Ctrl-C during a long command cancels that command only. A session changes its
state only once a command has succeeded, so a failed command leaves the game as it was. Ctrl-C
at the prompt, Ctrl-D and the end of a script leave the program like ``quit`` (exit code 0),
with the session's :meth:`Session.end_of_input` text and a short goodbye.

>>> class Echo(Session):
...     def handle(self, line):
...         if line == "quit":
...             self.finished = True
...             return "bye"
...         return int(line) * 2
>>> script, shown = iter(["2", "x", "quit"]), []
>>> run_session(Echo(), lambda prompt: next(script), shown.append)
>>> shown
['4', "error: invalid literal for int() with base 10: 'x'", 'bye']
"""

from __future__ import annotations

import os
from collections.abc import Callable

ReadLine = Callable[[str], str]
Write = Callable[[str], None]

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("help", "h", "?")

#: Shown when the person leaves at a prompt with Ctrl-C or Ctrl-D (or a script ends).
GOODBYE = "bye"


class Session:
    """Base class of an interactive program: override :meth:`handle` (and usually the rest)."""

    #: Set by :meth:`handle` when the program is over; :func:`run_session` then returns.
    finished: bool = False

    #: A warm-up (``"module:function"``) that compiles the kernels the session will call:
    #: :func:`run_in_terminal` runs it in a background thread while a person types
    #: (:func:`gamelab.core.tiers.warm_in_background`), never for piped input.
    warm_while_typing: str | None = None

    @property
    def prompt(self) -> str:
        return "> "

    def intro(self) -> str:
        """Text shown once before the first prompt."""
        return ""

    def handle(self, line: str) -> object:
        """Run one typed line; return the text to show (None or "" shows nothing)."""
        raise NotImplementedError

    def leave_or_help(self, word: str, help_text: str) -> str | None:
        """The answer to the words every program knows: a quit word ends the session (""), a
        help word shows `help_text`; None for any other word."""
        if word in QUIT_WORDS:
            self.finished = True
            return ""
        if word in HELP_WORDS:
            return help_text
        return None

    def end_of_input(self) -> str:
        """Text shown when the person leaves before the session is over (Ctrl-C or Ctrl-D at
        the prompt, the end of a script), before the goodbye."""
        return ""


def describe_error(exc: BaseException) -> str:
    """One line for a failed command: the message of a ValueError, the reason and file of an OSError."""
    if isinstance(exc, OSError) and exc.strerror:
        where = f": {exc.filename}" if exc.filename else ""
        return f"{exc.strerror}{where}"
    return " ".join(str(exc).split()) or type(exc).__name__


def run_session(session: Session, read_line: ReadLine, write: Write) -> None:
    """Drive `session` until it is finished or the input ends."""
    text = session.intro()
    if text:
        write(text)
    while not session.finished:
        try:
            line = read_line(session.prompt)
        except (EOFError, KeyboardInterrupt):  # leaving, not a failure: exit code 0
            for text in (session.end_of_input(), GOODBYE):
                if text:
                    write(text)
            return
        try:
            out = session.handle(line)
        except (ValueError, OSError) as exc:
            out = f"error: {describe_error(exc)}"
        except KeyboardInterrupt:
            out = "interrupted: the command was cancelled; the game is kept"
        except Exception as exc:  # noqa: BLE001 - an unforeseen failure must not lose the game
            if os.environ.get("GAMELAB_DEBUG"):
                raise
            out = f"error: {type(exc).__name__}: {describe_error(exc)} (the game is kept)"
        if out is not None and out != "":
            write(str(out))


#: Longest input line an interactive program reads (a terminal's own limit is 4,096 bytes);
#: a longer one (``< /dev/zero``) ends the program with an error instead of filling memory.
MAX_LINE = 10_000


def read_capped_line(stream, prompt: str) -> str:  # type: ignore[no-untyped-def]
    """One line of `stream` without its newline, as :func:`input` would return it (EOFError at
    the end); ValueError past :data:`MAX_LINE` characters or for bytes that are not UTF-8."""
    import sys

    sys.stdout.write(prompt)
    sys.stdout.flush()
    try:
        line = stream.readline(MAX_LINE + 1)
    except UnicodeDecodeError:
        raise ValueError("the input is not UTF-8 text") from None
    if line == "":
        raise EOFError
    if len(line) > MAX_LINE and not line.endswith("\n"):
        raise ValueError(f"an input line is longer than {MAX_LINE:,} characters")
    return line.removesuffix("\n").removesuffix("\r")


def run_in_terminal(session: Session) -> None:
    """Run `session` on stdin/stdout: :func:`input` (with line editing) and plain printing."""
    import sys

    try:
        import readline  # noqa: F401 - gives input() line editing and history
    except ImportError:  # pragma: no cover - not on every platform
        pass

    def write(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    if session.warm_while_typing and sys.stdin.isatty():
        from gamelab.core.tiers import warm_in_background

        warm_in_background(session.warm_while_typing)

    def read_line(prompt: str) -> str:
        if not sys.stdin.isatty():  # a pipe or a file: no line editing, and a cap on a line
            return read_capped_line(sys.stdin, prompt)
        try:
            return input(prompt)
        except (EOFError, KeyboardInterrupt):
            write("")  # input() wrote the prompt without a newline: the goodbye goes below it
            raise

    run_session(session, read_line, write)


def run_scripted(session: Session, lines: list[str]) -> str:
    """Drive `session` with the scripted input `lines` (then end of input); returns everything
    it showed, prompts included, one piece a line. For tests and for replaying a typed session."""
    script, shown = iter(lines), []

    def read_line(prompt: str) -> str:
        shown.append(prompt)
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    run_session(session, read_line, shown.append)
    return "\n".join(shown)
