"""The best folds found here for the ten 3D benchmarks (the Harvard 48-mers), for the 3D view.

The shipped file ``data/folds3d.json`` is made by ``python tools/make_3d_folds.py`` from the
library's own folder (:func:`gamelab.lattice.fold.fold`, replica exchange, seeded): for each
Harvard 48-mer (:mod:`.instances`) the best fold one replica set found within the tool's CPU
budget (stopped at the best known value), re-scored with the rules before it is written, with
the upper bound and how the best known value is proven here (``bound``: our bounds,
:mod:`.bounds`; ``cores``: the H-core certificate, :mod:`.threading`; None: not proven). Nothing
in it is typed by hand; a test replays every fold.

The full report's lattice section draws each fold in 3D (matplotlib) and the folding page shows
them as rotatable drawings (``/api/lattice/folds3d``, ``static/lattice3d.js``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from gamelab.core.files import temporary_sibling
from gamelab.lattice.bounds import contact_bounds
from gamelab.lattice.instances import STANDARD, Benchmark
from gamelab.lattice.rules import Chain, Lattice, hh_score, parse_conformation
from gamelab.lattice.state import LatticeGame

VERSION = 1


@dataclass(frozen=True)
class Fold3D:
    """One 3D benchmark's shipped fold: its moves (R L U D F B), the sites they give from the
    origin and the HH contacts (pairs of residue indices), with the bound and proof status."""

    name: str
    sequence: Chain  # parsed when the shipped file is read, named by its benchmark
    best_known: int
    contacts: int
    upper_bound: int
    proven_by: str | None  # "bound", "cores" or None
    conformation: str
    sites: list[list[int]]
    pairs: list[list[int]]
    seed: int
    cpu_seconds: float  # CPU s until the shipped fold was first seen


@dataclass(frozen=True)
class Folds3D:
    folds: list[Fold3D]
    command: str


def folds3d_path() -> Path:
    return Path(str(resources.files("gamelab.lattice") / "data" / "folds3d.json"))


def benchmarks_3d() -> list[Benchmark]:
    """The 3D benchmarks, in Yue et al.'s order."""
    return [b for b in STANDARD if b.lattice == Lattice.CUBIC]


def check_record(record: dict[str, Any]) -> None:
    """Raise ValueError unless a shipped record is a known 3D benchmark whose fold is a valid
    cubic fold with exactly the recorded contacts (never more than the bound)."""
    known = {b.name: b for b in benchmarks_3d()}
    b = known.get(record.get("name", ""))
    if b is None or record.get("sequence") != b.sequence:
        raise ValueError(f"3D fold record {record.get('name')!r} is not a known benchmark")
    score = hh_score(b.sequence, record["conformation"], Lattice.CUBIC)
    if score != record.get("contacts"):
        raise ValueError(f"3D folds: the fold of {b.name} has {score} contacts, not the recorded")
    if score > record["upper_bound"]:
        raise ValueError(f"3D folds: {b.name} has more contacts than its bound")


def fold3d_of(record: dict[str, Any]) -> Fold3D:
    """A checked record (:func:`check_record`) as its type: the chain parsed, the fold played
    through the state protocol for its sites and HH contacts."""
    chain = Chain(record["sequence"], name=record["name"])
    moves = parse_conformation(record["conformation"], Lattice.CUBIC)
    fold = LatticeGame(chain, Lattice.CUBIC).state_after(moves)
    pairs = fold.contacts()
    return Fold3D(
        record["name"],
        chain,
        int(record["best_known"]),
        int(record["contacts"]),
        int(record["upper_bound"]),
        record["proven_by"],
        record["conformation"],
        [list(site) for site in fold.sites],
        [[int(i), int(j)] for i, j in pairs],
        int(record["seed"]),
        float(record["cpu_seconds"]),
    )


def load_folds3d(path: Path | None = None) -> Folds3D:
    """The shipped 3D folds, each checked (:func:`check_record`), with sites and contacts."""
    path = folds3d_path() if path is None else path
    data = json.loads(Path(path).read_text())
    if data.get("version") != VERSION:
        raise ValueError(f"{path}: 3D folds version {data.get('version')}, expected {VERSION}")
    folds = []
    for record in data["folds"]:
        check_record(record)
        folds.append(fold3d_of(record))
    return Folds3D(folds, str(data["command"]))


def certify_3d(b: Benchmark, seconds: float) -> tuple[int, str | None]:
    """(upper bound, "bound" / "cores" / None) of a 3D benchmark's best known value."""
    from gamelab.lattice.threading import core_threading_bound

    bound = contact_bounds(b.sequence, Lattice.CUBIC).upper
    if bound == b.best_known:
        return bound, "bound"
    cert = core_threading_bound(b.sequence, Lattice.CUBIC, floor=b.best_known, seconds=seconds)
    return cert.upper, ("cores" if cert.upper == b.best_known else None)


def build_records(
    *, seconds: float, seed: int = 0, certify_seconds: float = 20.0, only: list[str] | None = None
) -> list[dict[str, Any]]:
    """Each 3D benchmark folded by :func:`gamelab.lattice.fold.fold` (one replica set, `seed`,
    at most `seconds` CPU s, stopped at the best known value) and certified."""
    from gamelab.lattice.fold import fold

    records = []
    for b in benchmarks_3d():
        if only and b.name not in only:
            continue
        r = fold(b.sequence, seed=seed, seconds=seconds, exhaustive=False, certify=False)
        bound, proven_by = certify_3d(b, certify_seconds)
        record = {
            "name": b.name,
            "sequence": b.sequence,
            "best_known": b.best_known,
            "contacts": r.score,
            "upper_bound": bound,
            "proven_by": proven_by,
            "conformation": r.conformation,
            "seed": seed,
            "cpu_seconds": round(r.seconds_to_best, 2),
        }
        check_record(record)
        records.append(record)
    return records


def write_folds3d(path: Path, records: list[dict[str, Any]], command: str) -> Path:
    """Write the file atomically (one record a line)."""
    lines = ",\n".join(json.dumps(r) for r in records)
    text = f'{{"version": {VERSION}, "command": {json.dumps(command)}, "folds": [\n{lines}\n]}}\n'
    with temporary_sibling(path) as tmp:
        tmp.write_text(text)
    return path
