"""The "expert" pack: the standard 2D benchmarks S1-1 ... S1-11 as puzzles.

These chains are far too long to enumerate, so a level's stars come from the best *known* number
of HH contacts (the paper's banding of :func:`gamelab.lattice.stars.paper_thresholds` with the
best known value as the best), and the level says whether that value is proven optimal here:
by our upper bound (:mod:`.bounds`: S1-3, S1-4, S1-5, S1-9), by the H-core certificate
(:mod:`.threading`: S1-8), by exhaustive enumeration (S1-1, 20 residues) or not at all (then a
fold with more contacts might exist, up to ``upper_bound``).

The shipped file ``data/expert.json`` is made by ``python tools/make_expert_pack.py`` from the
library's own folder (:func:`gamelab.lattice.fold.fold`): for each benchmark, a fold reaching the
best known value, re-scored with the rules before it is written (the game's spoiler; a test
replays every one). A benchmark the folder did not reach within the tool's budget ships without
a fold (``solution`` None).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from gamelab.core.files import temporary_sibling
from gamelab.lattice.bounds import contact_bounds
from gamelab.lattice.instances import STANDARD, Benchmark
from gamelab.lattice.rules import Chain, Lattice, hh_score
from gamelab.lattice.stars import paper_thresholds

VERSION = 1


@dataclass(frozen=True)
class ExpertLevel:
    """One expert level: a 2D benchmark with stars from its best known value."""

    number: int
    name: str
    sequence: Chain  # parsed when the shipped pack is read, named by its benchmark
    best_known: int
    upper_bound: int
    proven_by: str | None  # "bound", "cores", "enumeration" or None (not proven here)
    thresholds: tuple[int, int, int]

    @property
    def proven(self) -> bool:
        return self.proven_by is not None


@dataclass(frozen=True)
class ExpertPack:
    levels: list[ExpertLevel]
    #: a fold reaching the best known value, per sequence (spoilers: not part of the document)
    solutions: dict[Chain, str] = field(default_factory=dict, metadata={"json": False})


def expert_pack_path() -> Path:
    return Path(str(resources.files("gamelab.lattice") / "data" / "expert.json"))


def expert_levels() -> list[Benchmark]:
    """The benchmarks of the pack, in play order (shortest first)."""
    return [b for b in STANDARD if b.lattice == "square"]


def check_record(record: dict[str, Any]) -> None:
    """Raise ValueError unless a shipped record is consistent: a known benchmark, its solution
    (if any) a valid fold with exactly the best known contacts."""
    known = {b.name: b for b in expert_levels()}
    b = known.get(record.get("name", ""))
    if b is None or record.get("sequence") != b.sequence:
        raise ValueError(f"expert pack record {record.get('name')!r} is not a known benchmark")
    solution = record.get("solution")
    if solution is not None and hh_score(b.sequence, solution) != b.best_known:
        raise ValueError(f"expert pack: the fold of {b.name} does not reach {b.best_known}")


def load_expert_pack(path: Path | None = None) -> ExpertPack:
    """The expert levels with their thresholds, bounds and proof status, and the shipped folds."""
    path = expert_pack_path() if path is None else path
    data = json.loads(Path(path).read_text())
    if data.get("version") != VERSION:
        raise ValueError(f"{path}: expert pack version {data.get('version')}, expected {VERSION}")
    levels, solutions = [], {}
    for number, record in enumerate(data["levels"], start=1):
        check_record(record)
        best = int(record["best_known"])
        chain = Chain(record["sequence"], name=record["name"])
        levels.append(
            ExpertLevel(
                number,
                record["name"],
                chain,
                best,
                int(record["upper_bound"]),
                record["proven_by"],
                paper_thresholds(best),
            )
        )
        if record.get("solution"):
            solutions[chain] = record["solution"]
    return ExpertPack(levels, solutions)


def certify_level(b: Benchmark, seconds: float) -> tuple[int, str | None]:
    """(upper bound, "bound" / "cores" / None): the bounds of :mod:`.bounds`, then the H-core
    certificate (:mod:`.threading`, at most `seconds` CPU s) where they leave a gap."""
    from gamelab.lattice.threading import core_threading_bound

    bound = contact_bounds(b.sequence).upper
    if bound == b.best_known:
        return bound, "bound"
    cert = core_threading_bound(b.sequence, Lattice.SQUARE, floor=b.best_known, seconds=seconds)
    return cert.upper, ("cores" if cert.upper == b.best_known else None)


def recertify_records(records: list[dict[str, Any]], seconds: float) -> list[dict[str, Any]]:
    """The records with their bounds and proofs made again (:func:`certify_level`), folds kept."""
    out = []
    for record in records:
        check_record(record)
        b = next(b for b in expert_levels() if b.name == record["name"])
        bound, proven_by = certify_level(b, seconds)
        if record.get("proven_by") == "enumeration" and proven_by is None:
            proven_by = "enumeration"
        out.append({**record, "upper_bound": bound, "proven_by": proven_by})
    return out


def build_expert_records(
    *, seconds: float, seed: int = 0, enumerate_up_to: int = 20, certify_seconds: float = 60.0
) -> list[dict[str, Any]]:
    """The pack's records: each 2D benchmark folded by :func:`fold` (at most `seconds` CPU
    seconds) and certified (:func:`certify_level`); chains up to `enumerate_up_to` residues are
    proven by enumeration (minutes at 20)."""
    from gamelab.lattice.enumeration import contact_sets
    from gamelab.lattice.fold import fold

    records = []
    for b in expert_levels():
        r = fold(b.sequence, seed=seed, seconds=seconds, exhaustive=False, certify=False)
        solution = r.conformation if r.score >= b.best_known else None
        bound, proven_by = certify_level(b, certify_seconds)
        if proven_by is None and len(b.sequence) <= enumerate_up_to:
            exact = len(contact_sets(len(b.sequence)).histogram(b.sequence)) - 1
            if exact != b.best_known:
                raise ValueError(f"{b.name}: enumeration gives {exact}, not {b.best_known}")
            proven_by = "enumeration"
        record = {
            "name": b.name,
            "sequence": b.sequence,
            "best_known": b.best_known,
            "upper_bound": bound,
            "proven_by": proven_by,
            "solution": solution,
        }
        check_record(record)
        records.append(record)
    return records


def write_expert_pack(path: Path, records: list[dict[str, Any]], command: str) -> Path:
    """Write the pack atomically."""
    doc = {"version": VERSION, "command": command, "levels": records}
    with temporary_sibling(path) as tmp:
        tmp.write_text(json.dumps(doc, indent=1) + "\n")
    return path
