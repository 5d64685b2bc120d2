"""gamelab.core.memo.Kept: values kept in this process, built once per key, their progress and
failures told, the least recently used dropped beyond the limit."""

from __future__ import annotations

import pickle
import threading

import pytest

from gamelab.core.memo import Kept


def test_threads_asking_for_one_key_wait_for_one_build_and_see_its_progress():
    kept: Kept[str, int] = Kept()
    gate, started, builds = threading.Event(), threading.Event(), []

    def build(progress):
        builds.append(1)
        progress("half way")
        started.set()
        assert gate.wait(30)
        return 42

    results: list[int] = []
    threads = [
        threading.Thread(target=lambda: results.append(kept.get_or_build("a", build)))
        for _ in range(3)
    ]
    for t in threads:
        t.start()
    assert started.wait(30)
    status = kept.status("a")
    assert (status.kept, status.building, status.progress) == (False, True, "half way")
    gate.set()
    for t in threads:
        t.join(30)
    assert results == [42, 42, 42] and builds == [1]
    assert kept.status("a").kept and kept.status("a").progress is None


def test_a_background_build_that_fails_says_why_and_can_be_retried():
    kept: Kept[str, int] = Kept()

    def broken(progress):
        raise OSError("disk full")

    kept.start("t", broken, what="building t")
    for _ in range(3000):
        if kept.status("t").failed:
            break
        threading.Event().wait(0.01)
    assert kept.status("t").failed == "building t failed: disk full"
    assert kept.get_or_build("t", lambda progress: 7) == 7 and kept.status("t").failed is None


def test_the_least_recently_used_goes_first_and_a_limit_is_checked():
    kept: Kept[str, int] = Kept(keep=2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # a is now the most recent
    kept.put("c", 3)
    assert ("a" in kept, "b" in kept, len(kept)) == (True, False, 2)
    copy = pickle.loads(pickle.dumps(kept))  # a copy starts empty, with the same limit
    assert (len(copy), copy.keep, copy.get_or_build("a", lambda progress: 5)) == (0, 2, 5)
    kept.clear()
    assert len(kept) == 0
    with pytest.raises(ValueError, match="keep at least one"):
        Kept(keep=0)
