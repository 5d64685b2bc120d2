"""Level packs: playable puzzles with their exact histograms and star thresholds, in SQLite.

:func:`choose_levels` ranks candidate sequences by an objective (ties: higher best score, then
the sequence), drops unplayable ones (best score 0) and mirror duplicates (a sequence read
backwards is the same puzzle), and keeps the first `count`. :func:`analyse_level` makes one
:class:`Level`: sequence, lattice, histogram, both star bandings with their shares, one best
conformation and every objective's value. :func:`make_pack` is the whole pipeline (GA runs
supply the candidates). :func:`write_pack` writes the SQLite file atomically (temporary file
in the same folder, then rename), so a reader never sees half a pack.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from gamelab.core.files import temporary_sibling
from gamelab.lattice.enumeration import check_length, contact_sets
from gamelab.lattice.objectives import OBJECTIVES, all_objectives, check_objective
from gamelab.lattice.rules import Chain, Lattice, at_least
from gamelab.lattice.stars import BANDINGS, StarBands, star_bands

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE levels (
    id INTEGER PRIMARY KEY,
    sequence TEXT NOT NULL UNIQUE,
    lattice TEXT NOT NULL,
    length INTEGER NOT NULL,
    best INTEGER NOT NULL,
    conformations INTEGER NOT NULL,
    histogram TEXT NOT NULL,            -- JSON list: conformations per score 0..best
    best_conformation TEXT NOT NULL,    -- move string reaching the best score
    thresholds TEXT NOT NULL,           -- JSON: {banding: [1-star, 2-star, 3-star minimum scores]}
    band_shares TEXT NOT NULL,          -- JSON: {banding: [share of 0, 1, 2, 3 stars]}
    objective REAL NOT NULL,            -- value of the pack's objective
    objectives TEXT NOT NULL            -- JSON: every objective's value
);
"""


@dataclass(frozen=True)
class Level:
    """One puzzle analysed exactly: its score histogram (``counts[k]`` conformations score k),
    both star bandings, every objective's value and one best fold. ``objective`` is the value
    of the objective a pack was chosen by (None outside a pack)."""

    sequence: Chain
    lattice: Lattice
    counts: list[int]
    best_conformation: str
    stars: dict[str, StarBands]
    objectives: dict[str, float]
    objective: float | None = None

    @property
    def length(self) -> int:
        return len(self.sequence)

    @property
    def best(self) -> int:
        return len(self.counts) - 1

    @property
    def total(self) -> int:
        """Symmetry-distinct conformations (the histogram's sum)."""
        return sum(self.counts)

    def _repr_svg_(self) -> str:
        """A best fold and the histogram by stars (paper's banding), in a notebook
        (:func:`gamelab.lattice.pictures.level_svg`)."""
        from gamelab.lattice.pictures import level_svg

        bands = self.stars["paper"].thresholds
        return level_svg(self.sequence, self.best_conformation, self.lattice, self.counts, bands)

    def __json__(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sequence": self.sequence,
            "lattice": self.lattice,
            "length": self.length,
            "counts": {str(s): n for s, n in enumerate(self.counts)},
            "best": self.best,
            "total": self.total,
            "best_conformation": self.best_conformation,
            "stars": self.stars,
            "objectives": self.objectives,
        }
        if self.objective is not None:
            out["objective"] = self.objective
        return out


def analyse_level(sequence: Chain, lattice: Lattice = Lattice.SQUARE) -> Level:
    """The exact histogram, star bands, objectives and a best fold of `sequence`."""
    seq = at_least(sequence, 2)
    check_length(len(seq), lattice)
    sets = contact_sets(len(seq), lattice)
    hist = sets.histogram(seq)
    return Level(
        sequence=seq,
        lattice=lattice,
        counts=[int(n) for n in hist],
        best_conformation=sets.best_conformation(seq),
        stars={b: star_bands(hist, b) for b in BANDINGS},
        objectives=all_objectives(hist),
    )


def choose_levels(
    candidates: list[str], objective: str, count: int, lattice: Lattice = Lattice.SQUARE
) -> list[Level]:
    """The `count` best distinct playable candidates by `objective`, analysed."""
    check_objective(objective)
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    unique = sorted({min(s, s[::-1]) for s in candidates})
    if not unique:
        return []
    sets = contact_sets(len(unique[0]), lattice)
    hists = sets.histograms(unique)
    values = OBJECTIVES[objective](hists)
    best = OBJECTIVES["best-score"](hists)
    order = sorted(range(len(unique)), key=lambda k: (-values[k], -best[k], unique[k]))
    chosen = [unique[k] for k in order if best[k] > 0][:count]
    out = []
    for seq in chosen:
        level = analyse_level(Chain(seq), lattice)  # the GA's letters
        out.append(replace(level, objective=level.objectives[objective]))
    return out


@dataclass(frozen=True)
class PackResult:
    """A level pack written to `out`: its levels and how many candidates they were chosen from."""

    out: Path
    levels: list[Level] = field(metadata={"json": False})
    candidates: int
    meta: dict[str, Any] = field(default_factory=dict, metadata={"json": False})

    def __json__(self) -> dict[str, Any]:
        return {
            "out": str(self.out),
            "levels": len(self.levels),
            "candidates": self.candidates,
            "sequences": [lv.sequence for lv in self.levels],
        }


#: The most GA runs one pack asks for: each takes up to about a CPU-second at the default
#: length, so this bounds a pack to minutes (issue 29 item 8: a billion runs was a silent hang).
MAX_RUNS = 1_000


def make_pack(
    out: Path,
    length: int = 16,
    count: int = 30,
    objective: str = "best-then-rarity",
    seed: int = 0,
    lattice: Lattice = Lattice.SQUARE,
    runs: int = 4,
) -> PackResult:
    """Generate a level pack: `runs` seeded GA runs (the paper's settings) supply candidates,
    the `count` best by `objective` are kept and written to the SQLite file `out`."""
    from gamelab import __version__
    from gamelab.core.evolve import GAConfig, genetic_algorithm
    from gamelab.lattice.generate import ALPHABET, PuzzleFitness

    if count < 1 or runs < 1:
        raise ValueError(f"count and runs must be at least 1, got {count} and {runs}")
    if runs > MAX_RUNS:
        raise ValueError(
            f"runs must be at most {MAX_RUNS:,} (each GA run takes up to a CPU-second), got {runs:,}"
        )
    fitness = PuzzleFitness(length, objective, lattice)
    rng = np.random.default_rng(seed)
    for _ in range(runs):
        genetic_algorithm(fitness, length, ALPHABET, rng=rng, config=GAConfig())
    levels = choose_levels(list(fitness.seen), objective, count, lattice)
    meta = {
        "length": length,
        "lattice": lattice,
        "objective": objective,
        "seed": seed,
        "runs": runs,
        "candidates": len(fitness.seen),
        "gamelab": __version__,
    }
    write_pack(out, levels, meta)
    return PackResult(Path(out), levels, len(fitness.seen), meta)


def write_pack(path: Path, levels: list[Level], meta: dict[str, Any]) -> Path:
    """Write `levels` and `meta` to an SQLite file at `path`, atomically (replaces any old file)."""
    path = Path(path)
    if any(lv.objective is None for lv in levels):
        raise ValueError(
            "every level of a pack needs the objective it was chosen by "
            "(levels from choose_levels have it)"
        )
    with temporary_sibling(path) as tmp:
        con = sqlite3.connect(tmp)
        try:
            con.executescript(SCHEMA)
            con.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [(k, json.dumps(v)) for k, v in sorted(meta.items())],
            )
            con.executemany(
                "INSERT INTO levels (sequence, lattice, length, best, conformations, histogram, "
                "best_conformation, thresholds, band_shares, objective, objectives) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        lv.sequence,
                        lv.lattice,
                        lv.length,
                        lv.best,
                        lv.total,
                        json.dumps(lv.counts),
                        lv.best_conformation,
                        json.dumps({b: list(v.thresholds) for b, v in lv.stars.items()}),
                        json.dumps({b: list(v.shares) for b, v in lv.stars.items()}),
                        float(lv.objective),  # type: ignore[arg-type]  # checked above
                        json.dumps(lv.objectives),
                    )
                    for lv in levels
                ],
            )
            con.commit()
        finally:
            con.close()
    return path


def read_pack(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(meta, rows) of a pack written by :func:`write_pack`: each row as stored (the columns of
    :data:`SCHEMA`, JSON columns decoded)."""
    if not Path(path).is_file():
        raise ValueError(f"no level pack at {path}")
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        meta = {k: json.loads(v) for k, v in con.execute("SELECT key, value FROM meta")}
        con.row_factory = sqlite3.Row
        levels = []
        for row in con.execute("SELECT * FROM levels ORDER BY id"):
            lv = dict(row)
            for key in ("histogram", "thresholds", "band_shares", "objectives"):
                lv[key] = json.loads(lv[key])
            levels.append(lv)
    finally:
        con.close()
    return meta, levels
