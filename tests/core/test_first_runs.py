"""First runs and long runs (issue 11, item 14): warm-up, the compile notice, the heartbeat."""

from __future__ import annotations

import io
import time

import numba


def test_warmup_compiles_every_kernel_of_a_game(gamelab_cli):
    r = gamelab_cli("warmup", "lattice")
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith("lattice:"))
    compiled, total = (int(w) for w in line.split()[1:4:2])
    assert compiled == total > 0, line
    assert "not compiled" not in line


def test_yatzy_warmup_reaches_the_kernels_of_the_long_commands():
    """distribution, comeback, risk, target and win play take minutes; warm-up calls their
    kernels on a few states instead, so that none is left to compile on their first run."""
    from gamelab.warmup import _cached_on_disk, game_kernels
    from gamelab.yatzy.warmup import compile_kernels

    compile_kernels()
    kernels = game_kernels("yatzy")
    for name in (
        "forward_layer",
        "backward_layer",
        "play_games",
        "duel_games",
        "play_to_round",
        "utility_layer",
        "utility_rows",
        "utility_decisions",
        "expectation_turn",
        "decided_turn",
    ):
        found = [d for n, d in kernels.items() if n.endswith("." + name)]
        assert len(found) == 1, name
        assert found[0].signatures or _cached_on_disk(found[0]), name


def test_warmup_refuses_an_unknown_game(gamelab_cli):
    r = gamelab_cli("warmup", "chess")
    assert r.returncode == 2 and r.stderr.startswith("error: unknown game 'chess'")


def test_a_compiling_kernel_is_announced_once(monkeypatch):
    from gamelab import compile_notice

    monkeypatch.setattr(compile_notice, "_installed", None)
    stream = io.StringIO()
    notice = compile_notice.install(stream)
    assert stream.getvalue() == ""  # nothing compiled yet, nothing said

    @numba.njit
    def twice(x):
        return 2 * x

    @numba.njit
    def thrice(x):
        return 3 * x

    assert twice(2) == 4 and thrice(2) == 6  # two compilations, one notice
    assert notice.compiled >= 2
    assert stream.getvalue().count("compiling fast kernels, once") == 1


def test_the_notice_names_the_game_and_its_compile_time():
    from gamelab.compile_notice import compile_seconds, notice_text

    text = notice_text("gamelab.voltorb._search_kernels")
    assert text.startswith("compiling voltorb's fast kernels, once: only those this command calls")
    assert f"about {compile_seconds('voltorb'):.0f} s of CPU" in text


def test_a_warm_command_says_nothing_about_compiling(tmp_path):
    """The README's first example, run twice as the `gamelab` program: the second run has
    every kernel in numba's cache, so it compiles nothing and must not say it does (each run
    counted numba's compile events: the per-process typed-dict helpers and the uncacheable
    recursive coin search used to compile on every run, issue 23)."""
    import os
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from numba.core import event\n"
        "class Count(event.Listener):\n"
        "    n = 0\n"
        "    def on_start(self, ev): Count.n += 1\n"
        "    def on_end(self, ev): pass\n"
        "event.register('numba:compile', Count())\n"
        "import atexit\n"
        "atexit.register(lambda: print('compiled', Count.n, file=sys.stderr))\n"
        "from gamelab.cli import main\n"
        "sys.argv = ['gamelab', *sys.argv[1:]]\n"
        "main()\n"
    )
    argv = [sys.executable, "-c", script, "voltorb", "solve", "--rows", "4,2 8,0 4,2 4,2 5,1"]
    argv += ["--cols", "6,1 5,0 5,2 4,3 5,1", "--level", "2"]
    env = {**os.environ, "GAMELAB_DEBUG": "1"}
    runs = [subprocess.run(argv, capture_output=True, text=True, env=env) for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
        compiled = int(r.stderr.strip().splitlines()[-1].split()[-1])
        assert ("compiling" in r.stderr) == (compiled > 0), r.stderr
    assert "compiled 0" in runs[1].stderr, runs[1].stderr  # warm: nothing compiles


def test_the_heartbeat_names_the_command_not_its_options():
    from gamelab.cli import _command_label, _finite

    assert _command_label(["serve", "--port", "8001"]) == "gamelab serve"
    assert _command_label(["voltorb", "solve", "--rows", "1,0"]) == "gamelab voltorb solve"
    assert not _finite(["serve", "--port", "8001"]) and _finite(["report", "--quick"])


def test_heartbeat_on_a_non_terminal(monkeypatch):
    import gamelab.cli_common as common

    monkeypatch.setattr(common, "HEARTBEAT_AFTER", 0.2)
    monkeypatch.setattr(common, "HEARTBEAT_EVERY", 0.1)
    stream = io.StringIO()
    start = time.monotonic()
    with common.heartbeat("gamelab x", stream=stream):
        # until the second line, however loaded the machine (a fixed sleep could see one)
        deadline = start + 60
        while stream.getvalue().count("\n") < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    elapsed = time.monotonic() - start
    lines = stream.getvalue().splitlines()
    assert len(lines) >= 2 and all("gamelab x: still running" in x for x in lines)
    assert len(lines) <= 1 + (elapsed - 0.2) / 0.1  # one line after 0.2 s, then one per 0.1 s
    quiet = io.StringIO()
    with common.heartbeat("gamelab x", enabled=False, stream=quiet):
        time.sleep(0.3)
    assert quiet.getvalue() == ""


def test_help_loads_no_game_and_no_heavy_library():
    """`gamelab --help` imports only what it needs (issue 23: at most 0.3 s); each game's group
    is loaded when one of its commands runs."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from gamelab.cli import run_in_process\n"
        "assert run_in_process(['--help']) == 0\n"
        "heavy = ('numpy', 'numba', 'scipy', 'matplotlib', 'fastapi', 'rich.markdown')\n"
        "print([m for m in sys.modules if m in heavy or m.endswith('.cli') and m.count('.') == 2])\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[]"
    for game in ("voltorb", "wordle", "lattice", "oware", "yatzy"):
        assert f"│ {game} " in r.stdout  # listed all the same


def test_the_games_listed_help_is_each_groups_own():
    import typer

    from gamelab.cli import game_group, root_command
    from gamelab.core.state import registered_games

    root = root_command()
    ctx = typer.Context(root)
    for info in registered_games():
        if not info.cli:
            continue
        game, text = info.name, info.summary
        group = game_group(game)
        assert group is not None and group.help == text, game
        assert root.get_command(ctx, game).help == text


def test_loading_kernels_does_not_import_scipy_linalg_and_blas_still_works():
    """numba's first kernel made it import scipy.linalg (about 1 CPU-s of every warm command,
    issue 23) to ask whether BLAS exists; gamelab answers that from the file system. A kernel
    that does use BLAS (np.dot) still compiles and gives the right answer."""
    import subprocess
    import sys

    script = (
        "import sys, gamelab, numba, numpy as np\n"
        "inc = numba.njit(lambda x: x + 1)\n"
        "assert inc(1) == 2\n"
        "import numba.np.arraymath as am\n"
        "print('linalg' if 'scipy.linalg' in sys.modules else 'no-linalg', am._HAVE_BLAS)\n"
        "dot = numba.njit(lambda a, b: np.dot(a, b))\n"
        "a = np.arange(6.0).reshape(2, 3)\n"
        "print(np.array_equal(dot(a, a.T), a @ a.T))\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["no-linalg", "True", "True"], r.stdout


def test_loading_a_cached_kernel_builds_no_registries_and_compiling_still_works(tmp_path):
    """Loading a cached kernel used to make numba build its whole typing and lowering
    registries first (about 0.15 CPU-s of every warm command, issue 23); gamelab loads with the
    runtime alone. The loaded kernel gives the right answer (it allocates, so it needs the
    runtime), and a kernel compiled afterwards in the same process (which needs the registries
    for np.sum and np.empty) still compiles and is right."""
    import os
    import subprocess
    import sys

    (tmp_path / "kern.py").write_text(
        "import numba, numpy as np\n"
        "@numba.njit(cache=True)\n"
        "def squares(n):\n"
        "    out = np.empty(n, np.int64)\n"
        "    for i in range(n):\n"
        "        out[i] = i * i\n"
        "    return out\n"
    )
    script = (
        "import sys, gamelab, numpy as np\n"
        "from kern import squares\n"
        "print(squares(5).tolist())\n"
        "print('registries' if 'numba.np.arraymath' in sys.modules else 'none')\n"
        "import numba\n"
        "total = numba.njit(lambda n: np.sum(np.arange(n)))\n"
        "print(total(10))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "NUMBA_CACHE_DIR": str(tmp_path / "nc")}
    runs = [
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
        for _ in range(2)
    ]
    for r in runs:
        assert r.returncode == 0, r.stderr
    # the first run compiles `squares` (the registries are built), the second loads it
    assert runs[0].stdout.split("\n")[:3] == ["[0, 1, 4, 9, 16]", "registries", "45"]
    assert runs[1].stdout.split("\n")[:3] == ["[0, 1, 4, 9, 16]", "none", "45"], runs[1].stdout


def test_a_kernel_called_with_a_constant_is_compiled_once_for_it_and_for_a_variable():
    """numba compiled a kernel called by another with a constant (``f(x, 0)``) again for the
    literal ``0`` beside its ``int64`` specialisation (issue 50 item 6: up to 2 CPU-s of a cold
    command); gamelab's kernels share one. A kernel that asks for the constant
    (``numba.literally``) still gets its literal specialisation."""
    import numba

    import gamelab  # noqa: F401  (installs the hook)

    def scaled(x, k):
        return x * k

    def pick(k):
        return numba.literally(k)

    for f in (scaled, pick):
        f.__module__ = "gamelab.tests_literal"  # the hook serves gamelab's kernels only
    scaled_k, pick_k = numba.njit(scaled), numba.njit(pick)

    @numba.njit
    def caller(x):
        return scaled_k(x, 2) + scaled_k(x, x) + pick_k(1)

    assert caller(3) == 3 * 2 + 3 * 3 + 1
    assert [str(s) for s in scaled_k.signatures] == ["(int64, int64)"]
    assert [str(s) for s in pick_k.signatures] == ["(Literal[int](1),)"]


def test_a_large_callee_is_linked_after_its_callers_optimisation(monkeypatch):
    """numba optimised a callee's code again inside each caller (issue 50 item 6: Voltorb's
    search kernels call each other three deep); a callee larger than LATE_LINK_BYTES is linked
    into the caller after the caller's optimisation (so it stays a call), a small one before it
    (so LLVM still inlines it). Both give the same answers."""
    import numba

    from gamelab import numba_hook

    def make_pair(name):
        def twice(x):
            return 2 * x

        twice.__name__ = twice.__qualname__ = name
        callee = numba.njit(twice)

        @numba.njit
        def caller(x):
            return callee(x) + 1

        return caller

    monkeypatch.setattr(numba_hook, "LATE_LINK_BYTES", 0)  # every callee is "large"
    late = make_pair("twice_late")
    assert late(20) == 41
    monkeypatch.undo()
    early = make_pair("twice_early")
    assert early(20) == 41

    def calls(kernel, name):
        ir = next(iter(kernel.inspect_llvm().values()))
        return [line for line in ir.splitlines() if " call " in line and name in line]

    assert calls(late, "twice_late")  # linked after: still a call
    assert not calls(early, "twice_early")  # linked before: inlined
