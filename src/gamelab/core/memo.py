"""Values kept in this process once loaded or built: one policy for every game's in-process tables
(the disk's copies are :mod:`gamelab.core.cache`'s).

A :class:`Kept` holds a value per key, at most `keep` of them (the least recently used goes
first; None keeps all). :meth:`Kept.get_or_build` builds a missing value once: threads asking
for the same key wait for that one build (other keys build side by side), the build reports its
progress in words through the one callback form (``progress(line)``), which :meth:`Kept.status`
says while it runs, and :meth:`Kept.start` runs it in a background thread, keeping why it failed.

>>> tables = Kept(keep=2)
>>> tables.get_or_build("a", lambda progress: 1), tables.get_or_build("a", lambda progress: 2)
(1, 1)
>>> tables.get_or_build("b", lambda progress: 2); tables.get_or_build("c", lambda progress: 3)
2
3
>>> "a" in tables, tables.get("c")
(False, 3)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

#: A build: it gets the progress callback and returns the value.
Build = Callable[[Callable[[str], None]], V]


@dataclass(frozen=True)
class BuildStatus:
    """Where a key's value is: kept, being built (the last progress line) or failed (why)."""

    kept: bool
    building: bool
    progress: str | None
    failed: str | None


class Kept(Generic[K, V]):
    """Values kept in this process by key (see the module's docstring)."""

    def __init__(self, keep: int | None = None) -> None:
        if keep is not None and keep < 1:
            raise ValueError(f"keep at least one value, or all (None); got {keep}")
        self.keep = keep
        self._values: OrderedDict[K, V] = OrderedDict()
        self._guard = threading.Lock()  # the dictionaries below
        self._locks: dict[K, threading.Lock] = {}
        self._progress: dict[K, str] = {}
        self._failures: dict[K, str] = {}

    def __getstate__(self) -> dict[str, int | None]:
        """A copy (``pickle``, ``copy.deepcopy``) keeps the limit only: it starts empty and
        builds what it is asked for (locks and threads do not copy)."""
        return {"keep": self.keep}

    def __setstate__(self, state: dict[str, int | None]) -> None:
        self.__init__(state["keep"])  # type: ignore[misc]

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def __len__(self) -> int:
        return len(self._values)

    def values(self) -> Iterator[V]:
        """The kept values, least recently used first."""
        return iter(list(self._values.values()))

    def get(self, key: K) -> V | None:
        """The kept value of `key` (now the most recently used), or None."""
        with self._guard:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep `value` for `key`, dropping the least recently used beyond `keep`."""
        with self._guard:
            self._values[key] = value
            self._values.move_to_end(key)
            while self.keep is not None and len(self._values) > self.keep:
                self._values.popitem(last=False)

    def clear(self) -> None:
        """Drop every kept value (a test's fresh start; builds running go on)."""
        with self._guard:
            self._values.clear()

    def _lock(self, key: K) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(key, threading.Lock())

    def get_or_build(self, key: K, build: Build[V]) -> V:
        """The value of `key`, built now (once, whichever thread asks) if it is not kept."""
        found = self.get(key)
        if found is not None:
            return found
        with self._lock(key):
            found = self.get(key)
            if found is not None:
                return found
            self._progress[key] = "starting"

            def heard(line: str) -> None:
                self._progress[key] = line

            try:
                value = build(heard)
            finally:
                self._progress.pop(key, None)
            self.put(key, value)
            self._failures.pop(key, None)
            return value

    def start(self, key: K, build: Build[V], what: str) -> None:
        """Build the value of `key` in a background thread unless it is kept or on its way; a
        failure is kept as ``"<what> failed: <reason>"`` (:meth:`status`), never lost."""
        if key in self._values or self._lock(key).locked():
            return

        def run() -> None:
            try:
                self.get_or_build(key, build)
            except Exception as exc:  # told through the status
                self._failures[key] = f"{what} failed: {exc}"

        threading.Thread(target=run, name=f"kept-{key}", daemon=True).start()

    def building(self, key: K) -> bool:
        """Whether a build of `key` is running in this process."""
        return key not in self._values and self._lock(key).locked()

    def status(self, key: K) -> BuildStatus:
        """Where the value of `key` is now."""
        kept = key in self._values
        return BuildStatus(
            kept,
            self.building(key),
            None if kept else self._progress.get(key),
            None if kept else self._failures.get(key),
        )
