"""core.cache: computed once, reused, and never trusted when damaged."""

from __future__ import annotations

import numpy as np
import pytest

from gamelab.core import cache


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELAB_CACHE", str(tmp_path / "cache"))


def make_counter():
    calls = []

    def compute():
        calls.append(1)
        return {"values": np.arange(1000, dtype=np.float64) ** 2, "ids": np.array([3, 1, 2])}

    return calls, compute


def test_computed_once_then_loaded():
    calls, compute = make_counter()
    first = cache.cached_arrays("squares", {"n": 1000}, 1, compute)
    second = cache.cached_arrays("squares", {"n": 1000}, 1, compute)
    assert len(calls) == 1
    np.testing.assert_array_equal(first["values"], second["values"])
    np.testing.assert_array_equal(second["ids"], [3, 1, 2])
    assert cache.is_cached("squares", {"n": 1000}, 1)


def test_key_depends_on_params_and_version():
    calls, compute = make_counter()
    cache.cached_arrays("squares", {"n": 1000}, 1, compute)
    cache.cached_arrays("squares", {"n": 1001}, 1, compute)
    cache.cached_arrays("squares", {"n": 1000}, 2, compute)
    assert len(calls) == 3
    assert (
        len(
            {cache.cache_path("squares", {"n": n}, v) for n, v in [(1000, 1), (1001, 1), (1000, 2)]}
        )
        == 3
    )


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage"])
def test_damaged_file_is_recomputed_not_used(damage):
    calls, compute = make_counter()
    cache.cached_arrays("squares", {"n": 1000}, 1, compute)
    path = cache.cache_path("squares", {"n": 1000}, 1)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        i = len(data) - 100
        path.write_bytes(data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1 :])
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        path.write_bytes(b"not a cache file at all" * 10)
    assert cache.load_arrays(path) is None
    again = cache.cached_arrays("squares", {"n": 1000}, 1, compute)
    assert len(calls) == 2
    np.testing.assert_array_equal(again["values"], np.arange(1000, dtype=np.float64) ** 2)
    assert cache.load_arrays(path) is not None, "the recomputed table is stored again"


def test_failed_compute_leaves_nothing_on_disk():
    def boom():
        raise RuntimeError("solver crashed")

    with pytest.raises(RuntimeError):
        cache.cached_arrays("broken", {}, 1, boom)
    folder = cache.cache_dir() / "broken"
    assert not folder.exists() or not any(folder.iterdir())


def test_no_temporary_files_left():
    _, compute = make_counter()
    cache.cached_arrays("squares", {"n": 1000}, 1, compute)
    names = [p.name for p in (cache.cache_dir() / "squares").iterdir()]
    assert len(names) == 1 and names[0].endswith(".npz")


def test_single_array_and_bad_name():
    arr = cache.cached_array("one", {"k": "v"}, 1, lambda: np.eye(3))
    np.testing.assert_array_equal(arr, np.eye(3))
    with pytest.raises(ValueError, match="plain non-empty name"):
        cache.cache_path("../escape", {}, 1)


def test_every_shape_and_dtype_comes_back_as_it_went_in(tmp_path):
    arrays = {
        "scalar": np.array(2.5),
        "count": np.array(7, dtype=np.int64),
        "empty": np.zeros((0, 3), dtype=np.uint8),
        "matrix": np.arange(12, dtype=np.int32).reshape(3, 4),
        "transposed": np.arange(12, dtype=np.int16).reshape(3, 4).T,  # not C-contiguous
        "words": np.array(["ab", "ピカチュウ"]),
        "flags": np.array([True, False]),
    }
    path = tmp_path / "t.npz"
    cache.save_arrays(path, arrays, meta={"name": "t"})
    back = cache.load_arrays(path)
    assert back is not None and set(back) == set(arrays)
    for name, a in arrays.items():
        assert back[name].shape == a.shape and back[name].dtype == a.dtype, name
        np.testing.assert_array_equal(back[name], a)
    back["matrix"][0, 0] = 99  # loaded arrays are writable
    assert float(back["scalar"]) == 2.5


def test_the_first_format_is_still_read_and_rewritten_once(tmp_path):
    import hashlib
    import io

    arrays = {"values": np.arange(5.0), "n": np.array(3)}
    key = ("old", {"k": 1}, 1)
    path = cache.cache_path(*key)
    path.parent.mkdir(parents=True)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    payload = buffer.getvalue()
    path.write_bytes(cache.MAGIC_NPZ + hashlib.sha256(payload).digest() + payload)
    back = cache.cached_arrays(*key, compute=lambda: pytest.fail("recomputed"))
    np.testing.assert_array_equal(back["values"], arrays["values"])
    assert back["n"].shape == ()
    assert path.read_bytes().startswith(cache.MAGIC)  # rewritten in the current format
    again = cache.cached_arrays(*key, compute=lambda: pytest.fail("recomputed"))
    assert again["n"].shape == () and int(again["n"]) == 3
