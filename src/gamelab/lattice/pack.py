"""Level packs: playable puzzles with their exact histograms and star thresholds, in SQLite.

:func:`choose_levels` ranks candidate sequences by an objective (ties: higher best score, then
the sequence), drops unplayable ones (best score 0) and mirror duplicates (a sequence read
backwards is the same puzzle), and keeps the first `count`. :func:`level_record` makes one row:
sequence, lattice, histogram, both star bandings with their shares, one best conformation and
every objective's value. :func:`write_pack` writes the SQLite file atomically (temporary file
in the same folder, then rename), so a reader never sees half a pack.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np

from gamelab.core.files import temporary_sibling
from gamelab.lattice.enumeration import contact_sets
from gamelab.lattice.objectives import OBJECTIVES, all_objectives, check_objective
from gamelab.lattice.stars import star_bands

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


def level_record(sequence: str, lattice: str = "square") -> dict:
    sets = contact_sets(len(sequence), lattice)
    hist = sets.histogram(sequence)
    bands = {b: star_bands(hist, b) for b in ("paper", "percentile")}
    return {
        "sequence": sequence,
        "lattice": lattice,
        "length": len(sequence),
        "best": int(len(hist) - 1),
        "conformations": int(hist.sum()),
        "histogram": hist.tolist(),
        "best_conformation": sets.best_conformation(sequence),
        "thresholds": {b: list(v.thresholds) for b, v in bands.items()},
        "band_shares": {b: list(v.shares) for b, v in bands.items()},
        "objectives": all_objectives(hist),
    }


def choose_levels(candidates: list[str], objective: str, count: int, lattice: str = "square") -> list[dict]:
    """The `count` best distinct playable candidates by `objective`, as level records."""
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
        rec = level_record(seq, lattice)
        rec["objective"] = rec["objectives"][objective]
        out.append(rec)
    return out


def write_pack(path: Path, levels: list[dict], meta: dict) -> Path:
    """Write `levels` and `meta` to an SQLite file at `path`, atomically (replaces any old file)."""
    path = Path(path)
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
                        lv["sequence"], lv["lattice"], lv["length"], lv["best"],
                        lv["conformations"], json.dumps(lv["histogram"]),
                        lv["best_conformation"], json.dumps(lv["thresholds"]),
                        json.dumps(lv["band_shares"]), float(lv["objective"]),
                        json.dumps(lv["objectives"]),
                    )
                    for lv in levels
                ],
            )
            con.commit()
        finally:
            con.close()
    return path


def read_pack(path: Path) -> tuple[dict, list[dict]]:
    """(meta, levels) of a pack written by :func:`write_pack`."""
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


def histogram_array(level: dict) -> np.ndarray:
    return np.asarray(level["histogram"], dtype=np.int64)
