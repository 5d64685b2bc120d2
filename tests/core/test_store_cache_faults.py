"""A damaged results store and an unwritable cache folder (issue 11, items 5 and 7)."""

from __future__ import annotations

import errno
import json
import os
import sqlite3

import pytest

from gamelab.core.results import ResultStore, ResultStoreError


def _bad_stores(tmp_path):
    good = tmp_path / "good.sqlite"
    with ResultStore(good) as store:
        for i in range(300):
            store.put("exp", {"x": 1}, i, list(range(50)))
    data = good.read_bytes()
    (tmp_path / "truncated.sqlite").write_bytes(data[: len(data) // 2])
    (tmp_path / "random.sqlite").write_bytes(os.urandom(20_000))
    with sqlite3.connect(tmp_path / "other.sqlite") as other:
        other.execute("CREATE TABLE t (x)")
    (tmp_path / "folder.sqlite").mkdir()
    return {
        "truncated": tmp_path / "truncated.sqlite",
        "random bytes": tmp_path / "random.sqlite",
        "another database": tmp_path / "other.sqlite",
        "a folder": tmp_path / "folder.sqlite",
        "unopenable": "/proc/x.sqlite",
    }


def _snapshot(path) -> bytes | None:
    return path.read_bytes() if os.path.isfile(path) else None


def test_damaged_store_is_refused_and_left_untouched(tmp_path):
    for kind, path in _bad_stores(tmp_path).items():
        before = _snapshot(path)
        with pytest.raises(ResultStoreError, match="--no-store") as info:
            ResultStore(path)
        assert str(path) in str(info.value), kind
        assert _snapshot(path) == before, f"{kind}: the file was changed"


def test_cli_names_the_damaged_store_in_one_error_line(tmp_path, monkeypatch, gamelab_cli):
    for kind, path in _bad_stores(tmp_path).items():
        monkeypatch.setenv("GAMELAB_RESULTS", str(path))
        before = _snapshot(path)
        r = gamelab_cli("voltorb", "simulate", "--level", "1", "--games", "20", "--workers", "1")
        assert r.returncode == 2, (kind, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: the results store "), (kind, lines)
        assert str(path) in lines[0] and "Traceback" not in r.stderr
        assert r.stdout == "" and _snapshot(path) == before


def _enumerate(gamelab_cli, length: int):
    from gamelab.lattice.enumeration import contact_sets

    contact_sets.cache_clear()  # the in-process memo would skip the disk cache
    return gamelab_cli("lattice", "enumerate", "--length", str(length), "--json")


def _uncached_count(length: int) -> int:
    from gamelab.lattice.enumeration import contact_sets

    return contact_sets(length, use_cache=False).conformations


def test_unwritable_cache_folder_still_gives_the_result(tmp_path, monkeypatch, gamelab_cli):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("GAMELAB_CACHE", str(blocker / "cache"))  # cannot be created
    r = _enumerate(gamelab_cli, 8)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["conformations"] == _uncached_count(8)
    warnings = [line for line in r.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and str(blocker / "cache") in warnings[0]
    again = _enumerate(gamelab_cli, 8)  # warned once per folder
    assert again.returncode == 0 and "warning:" not in again.stderr


def test_full_cache_folder_still_gives_the_result(tmp_path, monkeypatch, gamelab_cli):
    import gamelab.core.cache as cache

    def full(path, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setenv("GAMELAB_CACHE", str(tmp_path / "full"))
    monkeypatch.setattr(cache, "write_bytes_atomic", full)
    r = _enumerate(gamelab_cli, 7)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["conformations"] == _uncached_count(7)
    assert "No space left on device" in r.stderr and r.stderr.count("warning:") == 1
