"""gamelab.core.tiers: Python copies of kernel modules that leave the originals alone, the
question whether a kernel would run without compiling, and the warm-ups' context."""

import importlib
import signal
import sys
import textwrap

import pytest

from gamelab.core.tiers import (
    Tiered,
    compiled_kernels,
    has_machine_code,
    interpreting,
    python_modules,
)


@pytest.fixture
def kernels(tmp_path, monkeypatch):
    """A package of two kernel modules in tmp_path (one calls the other's kernel, one has an
    intrinsic); numba caches them by their path."""
    package = tmp_path / "tierpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "inner.py").write_text(
        textwrap.dedent(
            """
            from numba import njit, types
            from numba.extending import intrinsic

            @intrinsic
            def ctpop(typingctx, x):
                def codegen(context, builder, signature, args):
                    return builder.ctpop(args[0])
                return types.int64(types.int64), codegen

            @njit(cache=True)
            def bits(x):
                return ctpop(x)
            """
        )
    )
    (package / "outer.py").write_text(
        textwrap.dedent(
            """
            from numba import njit
            from tierpkg.inner import bits

            @njit(cache=True)
            def twice_bits(x):
                return 2 * bits(x)
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    for name in ("tierpkg.outer", "tierpkg.inner", "tierpkg"):
        sys.modules.pop(name, None)


def test_python_copies_run_the_source_and_leave_the_modules_alone(kernels):
    from numba.core.dispatcher import Dispatcher

    outer = importlib.import_module("tierpkg.outer")
    inner = sys.modules["tierpkg.inner"]
    copies = python_modules(
        ("tierpkg.inner", "tierpkg.outer"), {"ctpop": lambda x: bin(x).count("1")}
    )
    copy = copies["tierpkg.outer"].twice_bits
    assert not isinstance(copy, Dispatcher) and copy(7) == 6
    # everyone else still imports the kernels
    assert sys.modules["tierpkg.outer"] is outer and sys.modules["tierpkg.inner"] is inner
    assert importlib.import_module("tierpkg").outer is outer
    assert isinstance(outer.twice_bits, Dispatcher) and outer.twice_bits(7) == 6
    # made once per process
    assert python_modules(("tierpkg.inner", "tierpkg.outer"))["tierpkg.outer"].twice_bits is copy


def test_a_copy_that_would_still_run_numba_is_refused(kernels):
    with pytest.raises(ValueError, match="tierpkg.outer.bits is still numba's"):
        python_modules(("tierpkg.outer",), {"ctpop": int.bit_count})
    with pytest.raises(ValueError, match="tierpkg.inner.ctpop is still numba's"):
        python_modules(("tierpkg.inner",))


def test_machine_code_is_at_hand_once_compiled_here_or_in_the_cache(kernels):
    outer = importlib.import_module("tierpkg.outer")
    assert not has_machine_code(outer.twice_bits, (7,))
    assert outer.twice_bits(7) == 6
    assert has_machine_code(outer.twice_bits, (7,))  # in this process
    assert not has_machine_code(outer.twice_bits, (7.0,))  # not for another type
    reloaded = importlib.reload(outer)  # a new dispatcher: nothing compiled in it yet
    assert not reloaded.twice_bits.overloads
    assert has_machine_code(reloaded.twice_bits, (7,))  # in numba's cache


def test_warm_ups_run_the_kernels():
    assert interpreting()
    with compiled_kernels():
        assert not interpreting()
    assert interpreting()

    @compiled_kernels()
    def warm_up():
        return interpreting()

    assert warm_up() is False and interpreting()


def test_a_background_warm_up_runs_its_kernels_in_a_daemon_thread(tmp_path, monkeypatch):
    (tmp_path / "warmmod.py").write_text(
        "from gamelab.core.tiers import interpreting\n"
        "seen = []\n"
        "def warm():\n"
        "    seen.append(interpreting())\n"
        "def broken():\n"
        "    raise RuntimeError('no')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    from gamelab.core.tiers import warm_in_background

    thread = warm_in_background("warmmod:warm")
    thread.join(30)
    assert thread.daemon and not thread.is_alive()
    assert sys.modules["warmmod"].seen == [False]  # inside compiled_kernels
    assert interpreting()  # not here
    broken = warm_in_background("warmmod:broken")  # a failure stays in its thread
    broken.join(30)
    assert not broken.is_alive()
    sys.modules.pop("warmmod", None)


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="threads cannot block signals")
def test_a_background_warm_up_leaves_ctrl_c_to_the_main_thread(tmp_path, monkeypatch):
    # a Ctrl-C taken by the compiling warm-up thread left the main thread asleep in input():
    # `voltorb assist` ignored it while its kernels compiled (the pseudo-terminal test hung)
    (tmp_path / "maskmod.py").write_text(
        "import signal\n"
        "blocked = []\n"
        "def warm():\n"
        "    blocked.append(signal.pthread_sigmask(signal.SIG_BLOCK, []))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    from gamelab.core.tiers import warm_in_background

    thread = warm_in_background("maskmod:warm")
    thread.join(30)
    (mask,) = sys.modules.pop("maskmod").blocked
    assert {signal.SIGINT, signal.SIGTERM} <= set(mask)
    here = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    assert signal.SIGINT not in here and signal.SIGTERM not in here


def test_the_terminal_warms_a_session_only_for_a_person_typing(monkeypatch):
    import io

    import gamelab.core.tiers as tiers
    from gamelab.core.interactive import Session, run_in_terminal
    from gamelab.voltorb.assistant import AssistSession

    started = []
    monkeypatch.setattr(tiers, "warm_in_background", started.append)

    class Once(Session):
        warm_while_typing = "somewhere:warm"

        def handle(self, line):
            self.finished = True
            return "done"

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stdin", io.StringIO("x\n"))  # piped: no warm-up
    run_in_terminal(Once())
    assert started == []
    monkeypatch.setattr(sys, "stdin", Tty("x\n"))
    monkeypatch.setattr("builtins.input", lambda prompt: "x")
    run_in_terminal(Once())
    assert started == ["somewhere:warm"]
    # the assistant names a warm-up that exists
    from gamelab.core.state import load

    assert callable(load(AssistSession.warm_while_typing))


def test_a_tiered_kernel_interprets_within_its_budget_then_compiles(kernels):
    inner = importlib.import_module("tierpkg.inner")
    stand_ins = {"ctpop": lambda x: bin(x).count("1")}
    tiered = Tiered(inner.bits, ("tierpkg.inner",), budget=1e-9, stand_ins=stand_ins)
    assert tiered(7) == 3 and tiered.spent > 0 and not inner.bits.overloads  # interpreted
    assert tiered(7) == 3 and inner.bits.overloads  # its budget spent: compiled
    again = Tiered(inner.bits, ("tierpkg.inner",), budget=10.0, stand_ins=stand_ins)
    assert again(5) == 2 and again.compiled and again.spent == 0.0  # at hand: no copy run
    warm = Tiered(inner.bits, ("tierpkg.inner",), budget=10.0, stand_ins=stand_ins)
    with compiled_kernels():
        assert warm(6) == 2 and warm.spent == 0.0
