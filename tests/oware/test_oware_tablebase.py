"""Endgame tablebases: retrograde values against exhaustive search."""

import numpy as np
import pytest

from gamelab.oware import _tablebase_kernels as K
from gamelab.oware import tablebase as T
from gamelab.oware.rules import Position
from gamelab.oware.tablebase import (
    SHIPPED_SEEDS,
    compute_tablebase,
    exhaustive_board_value,
    level_size,
    load_tablebase,
)


def test_rank_unrank_round_trip():
    binom = K.binomial_table()
    rng = np.random.default_rng(0)
    for n in (0, 1, 5, 12):
        size = level_size(n)
        for idx in rng.integers(0, size, 50):
            b = np.zeros(14, dtype=np.int64)
            K.unrank_board(n, int(idx), b, binom)
            assert b[:12].sum() == n and K.rank_board(b, 0, binom) == idx
            swapped = np.concatenate([b[6:12], b[:6], b[12:]])
            assert K.rank_board(swapped, 1, binom) == idx


def test_level_sizes():
    # C(n + 11, 11) ways to place n seeds in 12 houses (research notes §4: 1.35M for 12)
    assert [level_size(n) for n in (0, 1, 2, 12)] == [1, 12, 78, 1352078]


def test_tablebase_matches_exhaustive_search():
    tb = load_tablebase(8)
    assert tb.size == sum(level_size(n) for n in range(9))
    rng = np.random.default_rng(1)
    checked = 0
    for n in range(1, 6):
        for _ in range(10):
            houses = [0] * 12
            for h in rng.integers(0, 12, n):
                houses[h] += 1
            s0 = (48 - n) // 2
            p = Position(tuple(houses), (s0, 48 - n - s0), int(rng.integers(2)))
            try:
                exact = exhaustive_board_value(p, limit=40_000)
            except ValueError:
                continue  # too big for the plain search
            assert tb.board_value(p) == exact, p.to_text()
            checked += 1
    assert checked >= 20


def test_shipped_table_is_a_fresh_build():
    # the engine's default table ships with the package (tools/make_oware_tablebase.py): its
    # levels are the builder's of today (all of them: the slow test below)
    built = compute_tablebase(9)
    shipped = load_tablebase(9)
    assert shipped.build_seconds == ()  # loaded, not built
    assert np.array_equal(shipped.values, built["values"])
    assert np.array_equal(shipped.offsets, built["offsets"])
    assert shipped.values.flags.writeable  # the kernels' one array type, as a built table's


@pytest.mark.slow
def test_whole_shipped_table_is_a_fresh_build():
    built = compute_tablebase(SHIPPED_SEEDS)
    assert np.array_equal(load_tablebase(SHIPPED_SEEDS).values, built["values"])


@pytest.mark.parametrize("damage", ["missing", "garbage", "short"])
def test_table_is_built_when_the_shipped_one_is_unusable(damage, tmp_path, monkeypatch):
    import lzma

    path = tmp_path / "table.xz"
    if damage == "garbage":
        path.write_bytes(b"not xz at all")
    elif damage == "short":
        path.write_bytes(lzma.compress(bytes(1000)))
    monkeypatch.setattr(T, "shipped_tablebase_path", lambda: path)
    T._shipped_values.cache_clear()
    try:
        tb = load_tablebase(3)
        assert len(tb.build_seconds) == 4  # built (or from the gamelab cache), not shipped
        assert np.array_equal(tb.values, compute_tablebase(3)["values"])
    finally:
        T._shipped_values.cache_clear()


def test_tablebase_values_bounded_and_cached():
    arrays = compute_tablebase(4)
    values, offsets = arrays["values"], arrays["offsets"]
    for n in range(5):
        level = values[offsets[n] : offsets[n + 1]]
        assert level.min() >= -n and level.max() <= n
    again = load_tablebase(4)
    assert np.array_equal(again.values, values)


def test_tablebase_rejects_uncovered_positions():
    tb = load_tablebase(4)
    with pytest.raises(ValueError, match="at most 4 seeds"):
        tb.board_value(Position.initial())


def test_cli_tablebase_json():
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "gamelab.cli", "oware", "tablebase", "--seeds", "5", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert data["boards"] == sum(level_size(n) for n in range(6))
    assert [lv["boards"] for lv in data["levels"]] == [level_size(n) for n in range(6)]


def test_tablebase_summary_levels_add_up():
    from gamelab.oware.tablebase import tablebase_summary

    s = tablebase_summary(4)
    assert [lv.boards for lv in s.levels] == [level_size(n) for n in range(5)]
    assert s.boards == sum(lv.boards for lv in s.levels) and s.bytes == s.boards
    assert 0 <= s.mover_wins <= s.boards
    assert all(0 <= lv.mover_wins_share <= 1 for lv in s.levels)
    with pytest.raises(ValueError, match="between 0 and"):
        tablebase_summary(17)


def test_timed_perft_matches_reference():
    from gamelab.oware.perft import START_PERFT, timed_perft

    r = timed_perft(Position.initial(), 4)
    assert (r.depth, r.nodes) == (4, START_PERFT[3]) and r.seconds >= 0
