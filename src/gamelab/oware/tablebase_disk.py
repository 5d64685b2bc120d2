"""The endgame database on disk: every board of up to N seeds (past the in-memory 16), one byte
per board, built level by level on local cores or a Dask cluster, memory-mapped for the engine.

The values, the board index and the cycle convention are those of :mod:`gamelab.oware.tablebase`
(a board's value is the mover's final difference of the board seeds; boards of n seeds are
ranked among C(n+11, 11) from the mover's row; a capture-free cycle is an even split), and the
file is that module's table laid out the same way: the levels 0, 1, 2, ... concatenated, one
int8 per board, so the search probes it with the same kernel. Levels are appended as they are
solved; ``index.json`` beside it lists each finished level with its SHA-256, so a damaged level
is found when the file is opened, never used, and rebuilt (with the levels above it) by the next
build.

Building level n (:func:`build_database`) keeps about 4 bytes per board of that level instead of
the ~44 of ``build_level``'s successor table:

1. a first pass over chunks of consecutive ranks stores, per board, the best a capture gives
   (it looks up the lower levels in the memory-mapped file) and the mask of its capture-free
   moves (one byte each), and the first bounds lo and hi;
2. rounds of sweeps raise lo and lower hi from the capture-free children, generating those moves
   again each time (they stay in the level), until a round changes nothing; then each board's
   value is ``median(lo, 0, hi)`` (see ``build_level``). In a round each task sweeps its chunk,
   in place, until a sweep of it changes nothing.

lo only rises and hi only falls, and every value a sweep reads is a valid bound, so lo and hi
reach the least and greatest fixed points whatever the order of the updates: the table is the
same bytes on one worker, N local workers or a Dask cluster (the rounds and sweeps it took may
differ). On one machine (local workers, ``--cluster local:N``) the tasks update the level's
bounds in one shared memory-mapped file and see each other's updates at once; the workers of a
remote cluster share files, not memory, so each of them updates a private copy and writes its
chunk's bounds to a file of its own, which the coordinator merges after each round (the cache
folder must then be on a file system all of them mount). Everything is resumable: a finished
level is in the file, a first pass keeps its finished chunks, a level keeps its bounds and
rounds (``work-NN/state.json``). Cost: levels 17-24 hold 1.2 billion boards; the CPU-hours measured per level
are in each level's record (``gamelab oware tablebase --seeds N --json``) and in docs/oware.md.
Reference: Romein & Bal (2003), "Solving Awari with Parallel Retrograde Analysis", used the same
kind of level-by-level analysis over a cluster.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import resource
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import numpy as np

from gamelab.core import limits
from gamelab.core.cache import cache_dir
from gamelab.core.files import write_text_atomic
from gamelab.core.parallel import Backend, run_tasks
from gamelab.oware import _tablebase_kernels as K
from gamelab.oware.tablebase_stamp import STAMP, file_key, read_stamp, write_stamp

VERSION = 1
NAME = "oware-endgame"
#: Most boards per task: the split of a level depends on its size only (never on the workers).
#: Each round starts the workers again (seconds on a loaded machine), so levels up to 21 seeds
#: are one task (one process, and the fewest sweeps); 22-24 are 2-4 tasks of 100-130 million.
CHUNK = 1 << 27
#: Values are int8 (-n..n), so 48 seeds, the whole game, is the format's limit.
MAX_DISK_SEEDS = 48
#: Sweeps a task makes over its chunk in a round. More make fewer rounds (each starts the
#: workers again) but more sweeps in all: level 9 in 5 chunks took 259 sweeps in 46 rounds
#: with up to 1000 (a chunk swept until it settles), against 70 sweeps of one chunk.
LOCAL_SWEEPS = 1
#: Bytes per board of the level being built: lo, hi, its fixed value and its move mask
WORK_BYTES = 4


def database_dir(root: Path | None = None) -> Path:
    """Where the database lives: ``<gamelab cache>/oware-endgame/v1`` (or under `root`)."""
    return (root if root is not None else cache_dir()) / NAME / f"v{VERSION}"


@lru_cache(maxsize=1)
def _binom() -> np.ndarray:
    return K.binomial_table()


def level_boards(n: int) -> int:
    """Boards of exactly n seeds: C(n + 11, 11)."""
    return int(_binom()[n + 11, 11])


def database_bytes(max_seeds: int) -> int:
    """Bytes of the file holding every level up to `max_seeds`: C(N + 12, 12)."""
    return sum(level_boards(n) for n in range(max_seeds + 1))


def build_memory(max_seeds: int) -> int:
    """Bytes the largest level's build touches: its 4 bytes per board plus every lower level
    (read at random by the captures), which the page cache must hold to run at speed."""
    return WORK_BYTES * level_boards(max_seeds) + database_bytes(max_seeds - 1)


def check_build_size(max_seeds: int) -> None:
    """A ValueError before any work when the build would not fit this machine (memory: half
    of it, as every size a person types) or the format (more than 48 seeds)."""
    if not 0 <= max_seeds <= MAX_DISK_SEEDS:
        raise ValueError(f"seeds must be between 0 and {MAX_DISK_SEEDS}, got {max_seeds}")
    budget = limits.usable_memory()
    if build_memory(max_seeds) <= budget:
        return
    fits = max((n for n in range(max_seeds) if build_memory(n) <= budget), default=-1)
    raise ValueError(
        f"the endgame database to {max_seeds} seeds needs about "
        f"{build_memory(max_seeds) / (1 << 30):.1f} GiB of memory for its last level; at most "
        f"{fits} seeds fit in half of this machine's {limits.physical_memory() / (1 << 30):.1f} GiB"
    )


@dataclass(frozen=True)
class LevelRecord:
    """One solved level: its boards, checksum and what it cost."""

    seeds: int
    boards: int
    sha256: str
    rounds: int  # rounds of tasks (each merges the chunks' bounds)
    sweeps: int  # sweeps over the level: the most any chunk made, added over the rounds
    cpu_seconds: float
    wall_seconds: float
    mover_wins_share: float
    runner: str = ""
    #: all CPU of the level, the workers' start-up and the merges included
    total_cpu_seconds: float = 0.0


@dataclass(frozen=True)
class DatabaseSummary:
    """What the database on disk holds (`gamelab oware tablebase --seeds N` past 16)."""

    max_seeds: int  # the level asked for
    reached: int  # the highest level finished (-1: none)
    complete: bool
    boards: int
    bytes: int
    cpu_seconds: float
    path: str
    levels: list[LevelRecord] = field(default_factory=list)
    damaged: list[int] = field(default_factory=list)


# --------------------------------------------------------------------------- the files


def _read_index(folder: Path) -> list[LevelRecord]:
    path = folder / "index.json"
    if not path.exists():
        return []
    try:
        doc = json.loads(path.read_text())
        levels = [LevelRecord(**row) for row in doc["levels"]]
    except (ValueError, KeyError, TypeError):
        return []
    # levels are 0, 1, 2, ... in order; anything else is not ours
    return [r for i, r in enumerate(levels) if r.seeds == i and r.boards == level_boards(i)]


def _write_index(folder: Path, levels: list[LevelRecord]) -> None:
    doc = {"version": VERSION, "levels": [asdict(r) for r in levels]}
    write_text_atomic(folder / "index.json", json.dumps(doc, indent=1) + "\n")


def _sha256_of(path: Path, start: int, size: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        f.seek(start)
        left = size
        while left > 0:
            block = f.read(min(left, 1 << 24))
            if not block:
                break
            digest.update(block)
            left -= len(block)
    return digest.hexdigest()


def _verified_levels(folder: Path) -> tuple[list[LevelRecord], list[int]]:
    """The finished levels whose bytes match their checksum, up to the first that does not
    (which is returned in the second list)."""
    levels = _read_index(folder)
    path = folder / "values.i8"
    size = path.stat().st_size if path.exists() else 0
    good: list[LevelRecord] = []
    start = 0
    for r in levels:
        if start + r.boards > size or _sha256_of(path, start, r.boards) != r.sha256:
            return good, [r.seeds]
        good.append(r)
        start += r.boards
    return good, []


def _levels_of(folder: Path, verify: bool) -> tuple[list[LevelRecord], list[int]] | None:
    key = file_key(folder)
    if key is None:
        return [], []
    stamped = read_stamp(folder, key)
    if stamped is not None:
        count, damaged = stamped
        levels = _read_index(folder)
        return levels[:count], damaged
    if not verify:
        return None
    good, damaged = _verified_levels(folder)
    if file_key(folder) == key:  # nobody wrote meanwhile: what was read is what is stamped
        write_stamp(folder, key, len(good), damaged)
    return good, damaged


@lru_cache(maxsize=8)
def _levels_cached(
    folder: str, key: str, verify: bool
) -> tuple[tuple[LevelRecord, ...], tuple[int, ...]] | None:
    found = _levels_of(Path(folder), verify)
    return None if found is None else (tuple(found[0]), tuple(found[1]))


def _cache_key(folder: Path) -> str:
    # the stamp's own times too: a stamp written by another process is seen at once
    parts = []
    for name in ("values.i8", "index.json", STAMP):
        try:
            st = (folder / name).stat()
            parts.append(f"{st.st_size}:{st.st_ino}:{st.st_mtime_ns}:{st.st_ctime_ns}")
        except OSError:
            parts.append("-")
    return "|".join(parts)


def database_levels(root: Path | None = None) -> tuple[list[LevelRecord], list[int]]:
    """(the finished levels whose checksums hold, the damaged level if one is found). The
    checksums are read once for given bytes: the verification is recorded beside the database
    (``verified.json``, keyed by the file's size, inode, times and the index), so later calls
    and processes trust it until the file or the index changes; then they verify again."""
    folder = database_dir(root)
    found = _levels_cached(str(folder), _cache_key(folder), True)
    assert found is not None  # verify=True always answers
    return list(found[0]), list(found[1])


def verified_reach(root: Path | None = None) -> int | None:
    """The database's reach as its verification stamp records it (-1: no database, or none
    sound), at once and without reading the values; None when the file has not been verified
    since it last changed (:func:`database_levels` or :func:`verify_in_background` then does)."""
    folder = database_dir(root)
    found = _levels_cached(str(folder), _cache_key(folder), False)
    return None if found is None else len(found[0]) - 1


def database_reach(root: Path | None = None) -> int:
    """The largest seed count up to which the database on this machine is finished and sound
    (-1 when there is none): what the page can announce as exact. Verifies the checksums when
    no stamp covers the file as it is now (seconds for 1.25 GB)."""
    return len(database_levels(root)[0]) - 1


def _stamp_as_built(folder: Path, good: list[LevelRecord]) -> None:
    # the builder wrote and synced these levels from the bytes it hashed (and checked the older
    # ones when it started): later processes need not read them again
    key = file_key(folder)
    if key is not None:
        write_stamp(folder, key, len(good), [])


def open_levels(
    max_seeds: int, root: Path | None = None
) -> tuple[np.ndarray, np.ndarray, tuple[float, ...]]:
    """(values, level offsets, CPU seconds per level) of every board with at most `max_seeds`
    seeds, the values memory-mapped from the database (a ValueError saying how to build it when
    it does not reach that far or is damaged); :func:`gamelab.oware.tablebase.open_database`
    makes them a Tablebase."""
    good, damaged = database_levels(root)
    if len(good) <= max_seeds:
        why = f"level {damaged[0]} is damaged" if damaged else f"it reaches {len(good) - 1}"
        raise ValueError(
            f"the endgame database has no level {max_seeds} ({why}); build it with "
            f"`gamelab oware tablebase --seeds {max_seeds}`"
        )
    offsets = K.level_offsets(max_seeds, _binom())
    path = database_dir(root) / "values.i8"
    values = np.asarray(np.memmap(path, dtype=np.int8, mode="r", shape=(int(offsets[-1]),)))
    return values, offsets, tuple(r.cpu_seconds for r in good[: max_seeds + 1])


def database_summary(max_seeds: int, root: Path | None = None) -> DatabaseSummary:
    good, damaged = database_levels(root)
    levels = good[: max_seeds + 1]
    return DatabaseSummary(
        max_seeds=max_seeds,
        reached=len(levels) - 1,
        complete=len(levels) > max_seeds,
        boards=sum(r.boards for r in levels),
        bytes=sum(r.boards for r in levels),
        cpu_seconds=round(sum(r.cpu_seconds for r in levels), 1),
        path=str(database_dir(root)),
        levels=levels,
        damaged=damaged,
    )


@contextlib.contextmanager
def _build_lock(folder: Path) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "build.lock", "a+") as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.seek(0)
            raise ValueError(
                f"another build of the endgame database is running in {folder} "
                f"(process {f.read().strip() or 'unknown'})"
            ) from None
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


# --------------------------------------------------------------------------- the tasks


def _chunks(n: int, chunk: int) -> list[tuple[int, int]]:
    """(start, count) of each task's boards: the level in equal parts of at most `chunk`."""
    size = level_boards(n)
    parts = max(1, -(-size // chunk))
    step = -(-size // parts)
    return [(s, min(step, size - s)) for s in range(0, size, step)] or [(0, 0)]


def _mapped(path: Path, dtype: Any, count: int, mode: Literal["r", "r+", "c"]) -> np.ndarray:
    if count == 0:
        return np.zeros(0, dtype=dtype)
    return np.asarray(np.memmap(path, dtype=dtype, mode=mode, shape=(count,)))


def _save(path: Path, data: bytes) -> None:
    # work files: renamed into place whole (a killed task leaves none), not synced (a level
    # is synced when it is appended to the database)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _save_json(path: Path, value: Any) -> None:
    _save(path, json.dumps(value).encode())


def level_task(item: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """One chunk of a level's first pass (``kind == "captures"``) or of one sweep: reads the
    database and the level's bounds from the work folder, writes the chunk's results to files
    of its own and returns its counts and CPU seconds (a finished chunk's, when it finds them
    already on disk)."""
    del rng  # exact: nothing random
    work, n, i = Path(item["work"]), item["n"], item["index"]
    start, count = item["start"], item["count"]
    binom = _binom()
    done = work / (f"c{i}.json" if item["kind"] == "captures" else f"c{i}.s{item['sweep']}.json")
    if done.exists():
        with contextlib.suppress(ValueError):
            return dict(json.loads(done.read_text()))
    t0 = time.process_time()
    if item["kind"] == "captures":
        offsets = K.level_offsets(n, binom)
        values = _mapped(Path(item["values"]), np.int8, int(offsets[n]), "r")
        fixed = np.empty(count, dtype=np.int8)
        free = np.empty(count, dtype=np.uint8)
        lo = np.empty(count, dtype=np.int8)
        hi = np.empty(count, dtype=np.int8)
        still_open = int(
            K.level_captures_kernel(n, start, count, values, offsets, binom, fixed, free, lo, hi)
        )
        for name, array in (("fixed", fixed), ("free", free), ("lo", lo), ("hi", hi)):
            _save(work / f"{name}.c{i}", array.tobytes())
        changed = 0
    else:
        size = level_boards(n)
        # shared: updated in place, seen by the other tasks at once (one machine); else
        # copy-on-write, this chunk's bounds written to files the coordinator merges
        mode: Literal["r+", "c"] = "r+" if item["shared"] else "c"
        lo = _mapped(work / "lo", np.int8, size, mode)
        hi = _mapped(work / "hi", np.int8, size, mode)
        fixed = np.fromfile(work / f"fixed.c{i}", dtype=np.int8)
        free = np.fromfile(work / f"free.c{i}", dtype=np.uint8)
        changed = still_open = sweeps = 0
        for sweeps in range(1, item["local_sweeps"] + 1):  # noqa: B007 (the count is returned)
            c, o = K.level_sweep_kernel(n, start, count, fixed, free, lo, hi, binom)
            changed, still_open = changed + int(c), int(o)
            if c == 0:
                break
        if not item["shared"]:
            s = item["sweep"]
            _save(work / f"lo.c{i}.s{s}", lo[start : start + count].tobytes())
            _save(work / f"hi.c{i}.s{s}", hi[start : start + count].tobytes())
    result = {
        "changed": changed,
        "open": still_open,
        "cpu": time.process_time() - t0,
        "pid": os.getpid(),
    }
    if item["kind"] != "captures":
        result["sweeps"] = sweeps
    _save_json(done, result)
    return result


# --------------------------------------------------------------------------- the build


def _estimate(rate: float, levels: list[int]) -> str:
    seconds = rate * sum(level_boards(n) for n in levels)
    return f"{seconds / 3600:.1f} CPU-h" if seconds >= 3600 else f"{seconds / 60:.0f} CPU-min"


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _elsewhere(results: list[dict[str, Any]]) -> float:
    """CPU of the tasks that ran in other processes (workers, or an earlier run)."""
    return sum(r["cpu"] for r in results if r.get("pid") != os.getpid())


def _build_level(
    folder: Path,
    n: int,
    backend: Backend,
    chunk: int,
    shared: bool,
    local_sweeps: int,
    say: Callable[[str], None],
) -> tuple[np.ndarray, int, int, float, float]:
    """Solve level n into an int8 array; (values, rounds, sweeps, CPU seconds of the tasks,
    CPU seconds in all: the coordinator's too, the workers' start-up not counted)."""
    work = folder / f"work-{n:02d}"
    work.mkdir(exist_ok=True)
    size = level_boards(n)
    chunks = _chunks(n, chunk)
    state_path = work / "state.json"
    state: dict[str, Any] = {}
    if state_path.exists():
        with contextlib.suppress(ValueError):
            state = json.loads(state_path.read_text())
    if state.get("chunks") != len(chunks) or state.get("boards") != size:
        state = {
            "chunks": len(chunks),
            "boards": size,
            "rounds": -1,
            "sweeps": 0,
            "cpu": 0.0,
            "total": 0.0,
            "open": [],
        }
    base = {"work": str(work), "n": n, "values": str(folder / "values.i8")}

    label = f"level {n}"
    if state["rounds"] < 0:
        items = [
            {**base, "kind": "captures", "index": i, "start": s, "count": c}
            for i, (s, c) in enumerate(chunks)
        ]
        c0 = _own_cpu()
        results = run_tasks(level_task, items, backend=backend, label=f"{label}: captures")
        for name in ("lo", "hi"):
            with open(work / f"{name}.tmp", "wb") as f:
                for i in range(len(chunks)):
                    f.write((work / f"{name}.c{i}").read_bytes())
            os.replace(work / f"{name}.tmp", work / name)
        state.update(
            rounds=0,
            total=state.get("total", 0.0) + _own_cpu() - c0 + _elsewhere(results),
            cpu=state["cpu"] + sum(r["cpu"] for r in results),
            open=[r["open"] for r in results],
        )
        _save_json(state_path, state)
        for i in range(len(chunks)):
            for name in ("lo", "hi"):
                (work / f"{name}.c{i}").unlink(missing_ok=True)
    say(f"{label}: {size:,} boards, {sum(state['open']):,} open after the captures")
    while sum(state["open"]) > 0 and not state.get("settled"):
        s = state["rounds"] + 1
        todo = [i for i, o in enumerate(state["open"]) if o > 0]
        items = [
            {
                **base,
                "kind": "sweep",
                "sweep": s,
                "shared": shared,
                "local_sweeps": local_sweeps,
                "index": i,
                "start": chunks[i][0],
                "count": chunks[i][1],
            }
            for i in todo
        ]
        c0 = _own_cpu()
        results = run_tasks(level_task, items, backend=backend, label=f"{label}: round {s}")
        if not shared:
            lo = _mapped(work / "lo", np.int8, size, "r+")
            hi = _mapped(work / "hi", np.int8, size, "r+")
            for i in todo:
                start, count = chunks[i]
                lo[start : start + count] = np.fromfile(work / f"lo.c{i}.s{s}", dtype=np.int8)
                hi[start : start + count] = np.fromfile(work / f"hi.c{i}.s{s}", dtype=np.int8)
            del lo, hi  # flushed when the maps close
        opened = list(state["open"])
        for i, r in zip(todo, results, strict=True):
            opened[i] = r["open"]
        changed = sum(r["changed"] for r in results)
        state.update(
            rounds=s,
            sweeps=state["sweeps"] + max(r["sweeps"] for r in results),
            total=state.get("total", 0.0) + _own_cpu() - c0 + _elsewhere(results),
            cpu=state["cpu"] + sum(r["cpu"] for r in results),
            open=opened,
            settled=changed == 0,
        )
        _save_json(state_path, state)
        for i in todo:
            for name in (f"lo.c{i}.s{s}", f"hi.c{i}.s{s}", f"c{i}.s{s}.json"):
                (work / name).unlink(missing_ok=True)
        say(
            f"{label}: round {s} ({state['sweeps']} sweeps), {changed:,} bounds moved, "
            f"{sum(opened):,} boards open, "
            f"{state['cpu'] / 60:.1f} CPU-min so far"
        )
    lo = _mapped(work / "lo", np.int8, size, "r")
    hi = _mapped(work / "hi", np.int8, size, "r")
    values = np.where(lo > 0, lo, np.where(hi < 0, hi, 0)).astype(np.int8)
    total = float(state.get("total", 0.0))
    return values, int(state["rounds"]), int(state["sweeps"]), float(state["cpu"]), total


def build_database(
    max_seeds: int,
    *,
    backend: Backend | None = None,
    chunk: int = CHUNK,
    root: Path | None = None,
    share_memory: bool | None = None,
    local_sweeps: int = LOCAL_SWEEPS,
    progress: Callable[[str], None] | None = None,
) -> DatabaseSummary:
    """Solve every level up to `max_seeds` that the database lacks (or that failed its
    checksum, with the levels above it), appending each to the file as it finishes.

    `share_memory`: whether the tasks update the level's bounds in one shared file (default:
    yes for local workers and ``local:N``, no for a remote cluster, whose chunks are merged
    after each round); `local_sweeps`: sweeps a task makes over its chunk in a round."""
    check_build_size(max_seeds)
    if chunk < 1 or local_sweeps < 1:
        raise ValueError(f"chunk and local_sweeps must be at least 1, got {chunk}, {local_sweeps}")
    backend = backend or Backend()
    backend.check_reachable()
    cluster = backend.resolved_cluster()
    shared = (
        share_memory if share_memory is not None else not cluster or cluster.startswith("local:")
    )
    say = progress or (lambda line: None)
    folder = database_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    need = database_bytes(max_seeds) + WORK_BYTES * 2 * level_boards(max_seeds)
    free = shutil.disk_usage(folder).free
    have = sum(r.boards for r in _read_index(folder))
    if need - have > free:
        raise ValueError(
            f"the endgame database to {max_seeds} seeds needs about {(need - have) / 1e9:.1f} GB "
            f"more disk in {folder}; {free / 1e9:.1f} GB are free"
        )
    with _build_lock(folder):
        good, damaged = _verified_levels(folder)
        if damaged:
            say(f"level {damaged[0]} failed its checksum: rebuilding it and the levels above")
        path = folder / "values.i8"
        path.touch()
        end = sum(r.boards for r in good)
        if path.stat().st_size != end:
            os.truncate(path, end)
        if len(good) != len(_read_index(folder)):
            _write_index(folder, good)
        for n in range(len(good), max_seeds + 1):
            t0 = time.perf_counter()
            values, rounds, sweeps, cpu, total = _build_level(
                folder, n, backend, chunk, shared, local_sweeps, say
            )
            with open(path, "ab") as f:
                f.write(values.tobytes())
                f.flush()
                os.fsync(f.fileno())
            record = LevelRecord(
                seeds=n,
                boards=int(values.size),
                sha256=hashlib.sha256(values.tobytes()).hexdigest(),
                rounds=rounds,
                sweeps=sweeps,
                cpu_seconds=round(cpu, 2),
                wall_seconds=round(time.perf_counter() - t0, 2),
                mover_wins_share=round(float(np.mean(values > 0)), 4),
                runner=backend.describe(),
                total_cpu_seconds=round(total, 2),
            )
            good.append(record)
            _write_index(folder, good)
            _stamp_as_built(folder, good)
            shutil.rmtree(folder / f"work-{n:02d}", ignore_errors=True)
            rate = cpu / max(record.boards, 1)
            rest = list(range(n + 1, max_seeds + 1))
            tail = (
                f"; levels {rest[0]}-{rest[-1]} at this level's rate: about {_estimate(rate, rest)}"
                if rest
                else ""
            )
            say(
                f"level {n} done: {record.boards:,} boards, {sweeps} sweeps in {rounds} rounds, "
                f"{cpu / 60:.1f} CPU-min ({rate * 1e6:.2f} CPU-us per board){tail}"
            )
        _stamp_as_built(folder, good)
    return database_summary(max_seeds, root)
