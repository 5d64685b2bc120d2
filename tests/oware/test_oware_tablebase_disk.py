"""The endgame database on disk: equal to the in-memory tables, parallel, resumable, checked."""

import json
import os
import shutil
import time

import numpy as np
import pytest

from gamelab.core.parallel import Backend
from gamelab.oware import _tablebase_kernels as K
from gamelab.oware import tablebase_disk as D
from gamelab.oware.rules import Position
from gamelab.oware.tablebase import (
    compute_tablebase,
    exhaustive_board_value,
    level_size,
    open_database,
)

ONE = Backend(workers=1, quiet=True)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Levels 0-8 built in small chunks (several per level from level 6 on)."""
    root = tmp_path_factory.mktemp("endgame")
    summary = D.build_database(8, backend=ONE, chunk=5000, root=root)
    return root, summary


def test_database_equals_the_memory_table(built):
    root, summary = built
    reference = compute_tablebase(8)
    tb = open_database(8, root)
    assert np.array_equal(tb.values, reference["values"])
    assert np.array_equal(tb.offsets, reference["offsets"])
    assert summary.complete and summary.reached == 8 and D.database_reach(root) == 8
    assert [r.boards for r in summary.levels] == [level_size(n) for n in range(9)]
    assert summary.bytes == summary.boards == int(reference["values"].size)


def test_database_matches_exhaustive_search_on_random_boards(built):
    tb = open_database(8, built[0])
    rng = np.random.default_rng(7)
    checked = 0
    for n in range(1, 7):
        for _ in range(8):
            houses = [0] * 12
            for h in rng.integers(0, 12, n):
                houses[h] += 1
            s0 = (48 - n) // 2
            p = Position(tuple(houses), (s0, 48 - n - s0), int(rng.integers(2)))
            try:
                exact = exhaustive_board_value(p, limit=30_000)
            except ValueError:
                continue  # too big for the plain search
            assert tb.board_value(p) == exact, p.to_text()
            checked += 1
    assert checked >= 20


def test_next_board_walks_the_rank_order():
    binom = K.binomial_table()
    for n in (0, 1, 3, 5):
        b = np.zeros(14, dtype=np.int64)
        K.unrank_board(n, 0, b, binom)
        houses = [int(x) for x in b[:12]]
        for idx in range(level_size(n)):
            assert K.rank_board(b, 0, binom) == idx == K.rank_board_python(houses, 0)
            assert K.rank_board(b, 1, binom) == K.rank_board_python(houses, 1)
            more = K.next_board(b)
            assert more == K.next_board_python(houses) and houses == list(b[:12])
        assert not more


def test_level_kernels_match_twins():
    n = 5
    table = compute_tablebase(n)
    values, offsets = table["values"], table["offsets"]
    binom = K.binomial_table()
    size = level_size(n)
    start, count = 700, size - 900
    fixed = np.empty(count, np.int8)
    free = np.empty(count, np.uint8)
    lo = np.empty(count, np.int8)
    hi = np.empty(count, np.int8)
    K.level_captures_kernel(n, start, count, values, offsets, binom, fixed, free, lo, hi)
    twin = K.level_captures_python(n, start, count, values, offsets)
    assert [list(a) for a in (fixed, free, lo, hi)] == [list(t) for t in twin]
    # one sweep from bounds of the whole level (the chunk's first bounds, open elsewhere)
    whole_lo = np.full(size, -n, np.int8)
    whole_hi = np.full(size, n, np.int8)
    whole_lo[start : start + count], whole_hi[start : start + count] = lo, hi
    py_lo, py_hi = [int(x) for x in whole_lo], [int(x) for x in whole_hi]
    got = K.level_sweep_kernel(n, start, count, fixed, free, whole_lo, whole_hi, binom)
    want = K.level_sweep_python(n, start, count, list(fixed), list(free), py_lo, py_hi)
    assert tuple(got) == want and want[0] > 0
    assert list(whole_lo) == py_lo and list(whole_hi) == py_hi


def _level_bytes(root):
    folder = D.database_dir(root)
    index = json.loads((folder / "index.json").read_text())["levels"]
    return (folder / "values.i8").read_bytes(), [r["sha256"] for r in index]


def _rebuild_level(tmp_path, built, name, n, chunk, **kwargs):
    """Level n of `built` again, in chunks of `chunk` boards, with build_database's `kwargs`."""
    root = tmp_path / name
    shutil.copytree(built[0], root)
    folder = D.database_dir(root)
    with open(folder / "values.i8", "r+b") as f:
        f.truncate(sum(level_size(k) for k in range(n)))  # keep the levels below n
    index = json.loads((folder / "index.json").read_text())
    index["levels"] = index["levels"][:n]
    (folder / "index.json").write_text(json.dumps(index))
    D.build_database(n, chunk=chunk, root=root, **kwargs)
    return _level_bytes(root)


def test_shared_and_merged_bounds_give_the_same_bytes(tmp_path, built):
    """Level 7 in 11 chunks: bounds shared in one file, or merged after each round (a remote
    cluster's way), give the table built in one piece."""
    shared = _rebuild_level(tmp_path, built, "shared", 7, 3000, backend=ONE)
    merged = _rebuild_level(tmp_path, built, "merged", 7, 3000, backend=ONE, share_memory=False)
    whole = _level_bytes(built[0])
    assert shared == merged and shared[0] == whole[0][: len(shared[0])]
    assert shared[1] == whole[1][:8]


@pytest.mark.slow
def test_one_worker_two_workers_and_dask_give_the_same_bytes(tmp_path, built):
    """Level 3 in 2 chunks on three backends (each of its 8 rounds starts the workers: about
    1 s a round locally and 10-20 s on a local Dask cluster, so this is a slow test)."""
    runs = [
        _rebuild_level(tmp_path, built, name, 3, 200, backend=backend, local_sweeps=1000)
        for name, backend in (
            ("one", ONE),
            ("two", Backend(workers=2, quiet=True)),
            ("dask", Backend(cluster="local:2", quiet=True)),
        )
    ]
    assert runs[0] == runs[1] == runs[2]
    assert runs[0][0] == _level_bytes(built[0])[0][: len(runs[0][0])]


def test_damaged_level_is_detected_and_rebuilt(tmp_path, built):
    root = tmp_path / "db"
    shutil.copytree(built[0], root)
    path = D.database_dir(root) / "values.i8"
    good = path.read_bytes()
    data = bytearray(good)
    at = sum(level_size(n) for n in range(6)) + 17  # a board of level 6
    data[at] = (data[at] + 1) % 256
    path.write_bytes(bytes(data))
    levels, damaged = D.database_levels(root)
    assert len(levels) == 6 and damaged == [6] and D.database_reach(root) == 5
    with pytest.raises(ValueError, match="level 6 is damaged"):
        open_database(8, root)
    lines = []
    D.build_database(8, backend=ONE, chunk=5000, root=root, progress=lines.append)
    assert path.read_bytes() == good
    assert lines[0].startswith("level 6 failed its checksum")


def test_interrupted_level_resumes(tmp_path, built):
    root = tmp_path / "db"
    shutil.copytree(built[0], root)
    folder = D.database_dir(root)
    end = sum(level_size(n) for n in range(8))
    with open(folder / "values.i8", "r+b") as f:
        f.truncate(end)
    index = json.loads((folder / "index.json").read_text())
    index["levels"] = index["levels"][:8]
    (folder / "index.json").write_text(json.dumps(index))

    def stop(line):
        if "round 2" in line:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        D.build_database(8, backend=ONE, chunk=5000, root=root, progress=stop)
    state = json.loads((folder / "work-08" / "state.json").read_text())
    assert state["rounds"] == 2 and D.database_reach(root) == 7
    lines = []
    D.build_database(8, backend=ONE, chunk=5000, root=root, progress=lines.append)
    assert "round 3" in lines[1]  # went on from the saved round
    assert _level_bytes(root) == _level_bytes(built[0])
    assert not (folder / "work-08").exists()


def test_too_many_seeds_is_refused_with_the_figure(monkeypatch):
    monkeypatch.setattr("gamelab.core.limits.physical_memory", lambda: 24 << 30)
    D.check_build_size(24)
    with pytest.raises(ValueError, match=r"needs about 19\.1 GiB .* at most 28 seeds fit"):
        D.check_build_size(30)
    with pytest.raises(ValueError, match="between 0 and 48"):
        D.check_build_size(49)
    assert D.build_memory(24) == 4 * level_size(24) + sum(level_size(n) for n in range(24))


def test_cli_refuses_a_database_beyond_memory(gamelab_cli, monkeypatch):
    monkeypatch.setattr("gamelab.core.limits.physical_memory", lambda: 24 << 30)
    r = gamelab_cli("oware", "tablebase", "--seeds", "32")
    assert r.returncode == 2 and r.stderr.startswith("error: the endgame database to 32 seeds")
    assert not (D.database_dir() / "work-00").exists()


def test_cli_builds_the_database_on_disk(gamelab_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELAB_CACHE", str(tmp_path))
    r = gamelab_cli("oware", "tablebase", "--seeds", "4", "--on-disk", "--json", "--workers", "1")
    doc = json.loads(r.stdout)
    assert r.returncode == 0 and doc["reached"] == 4 and doc["complete"]
    assert doc["boards"] == sum(level_size(n) for n in range(5))
    assert [lv["seeds"] for lv in doc["levels"]] == [0, 1, 2, 3, 4]


def test_exact_reach_is_the_default_table_without_a_database(tmp_path, monkeypatch):
    from gamelab.oware.rules import TABLEBASE_SEEDS
    from gamelab.oware.tablebase import exact_reach

    monkeypatch.setenv("GAMELAB_CACHE", str(tmp_path))
    assert exact_reach() == TABLEBASE_SEEDS and D.database_reach() == -1


def test_engine_probes_the_database_memory_mapped(tmp_path, monkeypatch, built):
    """Past MAX_SUPPORTED the engine's table is the database on disk (here made to start at
    7 seeds): the same search as with the in-memory table."""
    from gamelab.oware import tablebase as T
    from gamelab.oware.search import Engine

    position = Position((1, 2, 0, 2, 0, 2, 0, 1, 0, 0, 0, 0), (20, 20), 0)  # South wins 28-20
    in_memory = Engine(tablebase_seeds=8).search(position, depth=3)
    shutil.copytree(D.database_dir(built[0]), D.database_dir(tmp_path))
    monkeypatch.setenv("GAMELAB_CACHE", str(tmp_path))
    monkeypatch.setattr(T, "MAX_SUPPORTED", 6)
    engine = Engine(tablebase_seeds=8)
    assert isinstance(engine.tablebase.values.base, np.memmap | memoryview) or not (
        engine.tablebase.values.flags.owndata
    )
    on_disk = engine.search(position, depth=3)
    assert (on_disk.best_move, on_disk.score) == (in_memory.best_move, in_memory.score)
    assert abs(on_disk.score) > 5000  # decided: the table answered
    monkeypatch.setattr(T, "MAX_SUPPORTED", 4)
    with pytest.raises(ValueError, match="has no level 9"):
        Engine(tablebase_seeds=9)


def _copy(built, tmp_path):
    """A copy of the built database (a new file: no stamp of the original applies to it)."""
    root = tmp_path / "db"
    shutil.copytree(built[0], root)
    (D.database_dir(root) / D.STAMP).unlink(missing_ok=True)
    return root, D.database_dir(root) / "values.i8"


def _count_reads(monkeypatch):
    reads = []
    real = D._sha256_of
    monkeypatch.setattr(D, "_sha256_of", lambda *a: reads.append(a) or real(*a))
    return reads


def test_a_verification_is_stamped_and_trusted_until_the_file_changes(tmp_path, built, monkeypatch):
    root, path = _copy(built, tmp_path)
    reads = _count_reads(monkeypatch)
    assert D.verified_reach(root) is None  # not verified yet: the page does not use it
    assert D.database_reach(root) == 8 and len(reads) == 9  # every level read once
    assert D.verified_reach(root) == 8 and D.database_reach(root) == 8 and len(reads) == 9
    D._levels_cached.cache_clear()  # as a new process: the stamp is trusted, nothing read
    assert D.database_reach(root) == 8 and len(reads) == 9
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # touched: checked again
    assert D.verified_reach(root) is None
    assert D.database_reach(root) == 8 and len(reads) == 18


def test_a_corrupted_level_is_refused_even_with_its_old_times(tmp_path, built, monkeypatch):
    root, path = _copy(built, tmp_path)
    assert D.database_reach(root) == 8  # verified and stamped
    st = path.stat()
    with open(path, "r+b") as f:  # one byte of level 6 changed in place, same size
        at = sum(level_size(n) for n in range(6)) + 17
        f.seek(at)
        byte = f.read(1)[0]
        f.seek(at)
        f.write(bytes([(byte + 1) % 256]))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # its modification time put back
    assert D.verified_reach(root) is None  # the change time gives it away
    assert D.database_levels(root)[1] == [6] and D.verified_reach(root) == 5
    with pytest.raises(ValueError, match="level 6 is damaged"):
        open_database(8, root)


def test_verification_runs_in_a_background_process(tmp_path, built):
    root, _ = _copy(built, tmp_path)
    from gamelab.oware import tablebase_verify as V

    assert V.verify_in_background(root) and V.verify_in_background(root)  # started once
    waited = 0.0
    while D.verified_reach(root) is None and waited < 120:
        time.sleep(0.05)
        waited += 0.05
    assert D.verified_reach(root) == 8 and not V.verify_in_background(root)


def test_the_page_engine_probes_the_verified_database_and_says_so(tmp_path, built, monkeypatch):
    """The page's default table is the best verified one (here a database made to pass the
    default table at 8 seeds): the default table while it is being verified, then the
    database, with the same answer as an engine given that table."""
    from gamelab.oware import tablebase as T
    from gamelab.oware import tablebase_verify as V
    from gamelab.oware.game import analyse_position
    from gamelab.oware.search import Engine

    shutil.copytree(D.database_dir(built[0]), D.database_dir(tmp_path))
    (D.database_dir(tmp_path) / D.STAMP).unlink(missing_ok=True)
    monkeypatch.setenv("GAMELAB_CACHE", str(tmp_path))
    monkeypatch.setattr(T, "TABLEBASE_SEEDS", 6)
    monkeypatch.setattr(T, "MAX_SUPPORTED", 6)
    started = []
    monkeypatch.setattr(V, "verify_in_background", lambda root=None: started.append(root))
    text = "1-2-0-2-0-2-0-1-0-0-0-0-20-20-S"  # 8 seeds on the board: South wins 28-20
    before = analyse_position(text, depth=3, tablebase_seeds=None)
    assert before.analysis.tablebase_seeds == 6 and before.exact is None
    assert started and set(started) == {None}  # the check started (in the background)
    assert not T.reach_settled()
    assert D.database_reach() == 8  # the background check's work, done here
    after = analyse_position(text, depth=3)
    expected = Engine(tablebase_seeds=8).search(Position.from_text(text), depth=3)
    assert after.analysis.tablebase_seeds == 8 and after.exact_scope.endswith("8 seeds down")
    assert (after.analysis.best_move, after.analysis.score) == (expected.best_move, expected.score)
    assert after.exact is not None and after.exact.final == [28, 20] and T.reach_settled()
