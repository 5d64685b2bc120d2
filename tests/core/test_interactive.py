"""The shared interactive loop: every failed command keeps the session going."""

import pytest

from gamelab.core.interactive import Session, run_session


class Counter(Session):
    """Adds numbers; 'boom', 'disk', 'ctrl-c' fail in different ways; the state moves only on success."""

    def __init__(self):
        self.total = 0
        self.finished = False

    @property
    def prompt(self):
        return f"[{self.total}]> "

    def intro(self):
        return "hello"

    def handle(self, line):
        if line == "quit":
            self.finished = True
            return "bye"
        if line == "boom":
            raise RuntimeError("unexpected")
        if line == "disk":
            raise PermissionError(13, "Permission denied", "/root/x")
        if line == "ctrl-c":
            raise KeyboardInterrupt
        if line == "":
            return None
        self.total += int(line)
        return str(self.total)

    def end_of_input(self):
        return "input ended"


def drive(lines):
    script, shown = iter(lines), []

    def read_line(prompt):
        shown.append(prompt)
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    session = Counter()
    run_session(session, read_line, shown.append)
    return session, shown


def test_failures_keep_the_session_and_its_state():
    s, shown = drive(["2", "x", "boom", "disk", "ctrl-c", "", "3", "quit", "never read"])
    assert shown[0] == "hello" and s.total == 5 and s.finished
    assert "error: invalid literal for int() with base 10: 'x'" in shown
    assert "error: RuntimeError: unexpected (the game is kept)" in shown
    assert "error: Permission denied: /root/x" in shown
    assert "interrupted: the command was cancelled; the game is kept" in shown
    assert shown[-1] == "bye" and "[2]> " in shown and "[5]> " in shown
    assert "" not in shown  # a command with no output prints nothing


def test_end_of_input_ends_quietly():
    s, shown = drive(["1"])
    assert shown[-2:] == ["input ended", "bye"] and not s.finished


def test_ctrl_c_at_the_prompt_leaves_like_quit():
    # Ctrl-C while a command runs cancels the command; at the prompt it leaves the program
    # (issue 11: exit code 0 and a goodbye, not "error: interrupted" and 130).
    prompts = []

    def read_line(prompt):
        prompts.append(prompt)
        if len(prompts) == 1:
            return "4"
        raise KeyboardInterrupt

    session, shown = Counter(), []
    run_session(session, read_line, shown.append)  # returns: no KeyboardInterrupt escapes
    assert shown == ["hello", "4", "input ended", "bye"] and session.total == 4


def test_debug_shows_unexpected_errors(monkeypatch):
    monkeypatch.setenv("GAMELAB_DEBUG", "1")
    with pytest.raises(RuntimeError):
        drive(["boom"])
