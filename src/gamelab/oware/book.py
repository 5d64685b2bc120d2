"""The opening book: the engine's move in every position of the standard game's first plies,
searched far deeper than a game's clock allows.

Every position reachable from the Abapa start in fewer than `plies` plies (1 + 6 + 36 + 216
for four plies; a transposition is searched once) is searched by the engine (its ``auale``
evaluation and the 12-seed tablebase) to a fixed `depth`, with a fresh transposition table, so an
entry is a pure function of the position and the depth, the same on any backend. The searches
are tasks of :func:`gamelab.core.parallel.run_tasks` kept in the results store (``oware-book``):
an interrupted build resumes. The book shipped in the package (``data/book.json``; its command and
size are in docs/oware.md) is read by :func:`book_move`, which the engine's players (``engine:...,
book=1``) and the page use: a position in the book gets the book's move without a search.

Cost: depth 18 takes about a CPU-second a position from the start (the engine's iterative
deepening with its move ordering). The idea is the usual opening book of game engines (Aalina,
the Aualé engine, ships 300,000 positions); ours is small and made by our own engine.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from gamelab.core.parallel import Backend, run_tasks
from gamelab.core.results import ResultStore
from gamelab.oware.analysis import Analysis, describe_score
from gamelab.oware.evaluation import SEED_UNIT
from gamelab.oware.rules import Position, move_letter, parse_move

#: What the shipped book was built with (the page and the engine read only these)
BOOK_FILE = "book.json"
BOOK_VERSION = 1
MAX_PLIES = 6
MAX_DEPTH = 30


@dataclass(frozen=True)
class BookEntry:
    position: str  # the text form
    move: str  # house letter
    score: int  # the engine's score for the side to move (auale units: 25 a seed)
    depth: int
    nodes: int
    cpu_seconds: float


@dataclass(frozen=True)
class Book:
    plies: int
    depth: int
    positions: int
    cpu_seconds: float
    entries: list[BookEntry] = field(default_factory=list)


def book_positions(plies: int) -> list[Position]:
    """Distinct positions reachable from the start in fewer than `plies` plies, in order of
    ply then of moves (a game over is not a book position)."""
    if not 1 <= plies <= MAX_PLIES:
        raise ValueError(f"book plies must be 1 to {MAX_PLIES}, got {plies}")
    layer = [Position.initial()]
    seen = {layer[0].to_text()}
    out = list(layer)
    for _ in range(plies - 1):
        nxt = []
        for p in layer:
            for m in p.legal_moves():
                c = p.play(m)
                if c.is_over() or c.to_text() in seen:
                    continue
                seen.add(c.to_text())
                nxt.append(c)
        out.extend(nxt)
        layer = nxt
    return out


def search_entry(item: tuple[str, int], rng: np.random.Generator) -> dict[str, Any]:
    """One book position searched to a fixed depth by a fresh engine (a run_tasks task)."""
    from gamelab.oware.search import Engine

    del rng  # a fixed-depth search is exact: nothing random
    text, depth = item
    position = Position.from_text(text)
    t0 = time.process_time()
    r = Engine().search(position, depth=depth)
    return {
        "position": text,
        "move": move_letter(position.to_move, r.best_move),
        "score": int(r.score),
        "depth": int(r.depth),
        "nodes": int(r.nodes),
        "cpu_seconds": round(time.process_time() - t0, 3),
    }


def build_book(
    plies: int,
    depth: int,
    *,
    backend: Backend | None = None,
    store: ResultStore | None = None,
) -> Book:
    """Search every book position (resumable through `store`)."""
    if not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"book depth must be 1 to {MAX_DEPTH}, got {depth}")
    items = [(p.to_text(), depth) for p in book_positions(plies)]
    rows = run_tasks(
        search_entry,
        items,
        backend=backend,
        label="opening book",
        store=store,
        experiment="oware-book",
        # the positions of fewer plies are a prefix of these (in the same order), so a row is
        # keyed by the depth and its index alone: a deeper book reuses a shallower one's rows
        params={"depth": depth, "version": BOOK_VERSION},
    )
    entries = [BookEntry(**row) for row in rows]
    return Book(
        plies=plies,
        depth=depth,
        positions=len(entries),
        cpu_seconds=round(sum(e.cpu_seconds for e in entries), 1),
        entries=entries,
    )


def book_document(book: Book) -> dict[str, Any]:
    """The shipped file's document: a move and score for each position's text form."""
    return {
        "version": BOOK_VERSION,
        "plies": book.plies,
        "depth": book.depth,
        "engine": "auale evaluation, 12-seed tablebase",
        "moves": {e.position: [e.move, e.score] for e in book.entries},
    }


@lru_cache(maxsize=1)
def shipped_book() -> dict[str, Any]:
    """The book shipped in the package ({} when it is missing)."""
    path = resources.files("gamelab.oware") / "data" / BOOK_FILE
    if not path.is_file():
        return {}
    doc = json.loads(path.read_text())
    return doc if doc.get("version") == BOOK_VERSION else {}


def book_analysis(position: Position) -> Analysis | None:
    """The book's entry for `position` as the engine's analysis (its move, its score at the
    book's depth, a line of that one move), or None when the position is not in the book."""
    entry = (
        shipped_book().get("moves", {}).get(position.to_text()) if position.rules.is_abapa else None
    )
    if entry is None:
        return None
    move, score = str(entry[0]), int(entry[1])
    offset = parse_move(move, position, digits=False)
    unit = SEED_UNIT["auale"]
    return Analysis(
        position=position.to_text(),
        to_move="South" if position.to_move == 0 else "North",
        best_move=offset,
        best_move_text=move,
        score=score,
        score_unit=f"auale evaluation units for the side to move, {unit} per seed",
        score_text=describe_score(score, "auale"),
        pv=[offset],
        pv_text=[move],
        depth=int(shipped_book().get("depth", 0)),
        nodes=0,
        nps=0.0,
        seconds=0.0,
    )


def book_move(position: Position) -> str | None:
    """The book's move (a house letter) for `position`, or None when it is not in the book
    (the book holds Abapa positions of the standard game's first plies)."""
    if not position.rules.is_abapa:
        return None
    entry = shipped_book().get("moves", {}).get(position.to_text())
    return None if entry is None else str(entry[0])
