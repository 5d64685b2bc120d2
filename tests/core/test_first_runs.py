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


def test_a_compiling_kernel_is_announced_once(capsys):
    import gamelab.cli as cli

    cli._install_compile_notice([])

    @numba.njit
    def twice(x):
        return 2 * x

    @numba.njit
    def thrice(x):
        return 3 * x

    assert twice(2) == 4 and thrice(2) == 6  # two compilations, one notice
    err = capsys.readouterr().err
    assert err.count("compiling fast kernels, once") == 1


def test_heartbeat_on_a_non_terminal(monkeypatch):
    import gamelab.cli_common as common

    monkeypatch.setattr(common, "HEARTBEAT_AFTER", 0.2)
    monkeypatch.setattr(common, "HEARTBEAT_EVERY", 0.1)
    stream = io.StringIO()
    with common.heartbeat("gamelab x", stream=stream):
        time.sleep(0.55)
    lines = stream.getvalue().splitlines()
    assert 2 <= len(lines) <= 5 and all("gamelab x: still running" in x for x in lines)
    quiet = io.StringIO()
    with common.heartbeat("gamelab x", enabled=False, stream=quiet):
        time.sleep(0.3)
    assert quiet.getvalue() == ""
