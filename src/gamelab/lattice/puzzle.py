"""The folding puzzle game (the seed paper's "Foldit Lattice" levels, playable): levels, the
player's fold scored and starred, the daily level, the best fold, and the default pack.

A *level* is an HP chain on the square lattice with graded star thresholds (1, 2 and 3 stars at
half, three quarters and all of the best number of HH contacts, :func:`.stars.graded_thresholds`)
and its exact score histogram over every symmetry-distinct fold (:mod:`.enumeration`), so the
page can say how rare a three-star fold is. The player's fold is a move string (``R L U D``)
that may be partial while they fold; :func:`score_fold` checks it (lattice moves only,
self-avoiding, no longer than the chain) and scores it by playing it through the state protocol
(:meth:`.state.LatticeGame.state_after`: the state's sites and HH contacts, the contacts
:func:`.rules.hh_contacts` gives the CLI).

Levels come from a pack (:func:`load_pack`: the default pack shipped in ``data/levels.db``, made
by :func:`build_default_pack` with the GA and the best-then-rarity objective, lengths 10-20,
easiest first; or any file written by ``gamelab lattice pack``), from a typed sequence
(:func:`level_from_sequence`), dealt by a seed (:func:`generate_level`), or from a date
(:func:`daily_level`); :func:`tutorial_level` is the short first level that teaches the game.
:func:`score_level_fold` scores a fold against the level's own
thresholds (``gamelab lattice score``: what the page shows for the same fold).

>>> score_fold("HPPHP", "RULU").score
1
>>> score_fold("HPPHP", "RU", thresholds=(1, 1, 1)).complete
False
"""

from __future__ import annotations

import datetime as _dt
import tempfile
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from gamelab.lattice.enumeration import MAX_LENGTH, contact_sets
from gamelab.lattice.pack import (
    Level,
    analyse_level,
    make_pack,
    read_pack,
    write_pack,
)
from gamelab.lattice.rules import Chain, Lattice, at_least, parse_conformation
from gamelab.lattice.stars import graded_thresholds
from gamelab.lattice.state import LatticeGame

__all__ = [
    "PLAY_LENGTHS",
    "PuzzleLevel",
    "LevelPack",
    "FoldScore",
    "BestFold",
    "default_pack_path",
    "load_pack",
    "lattice_game",
    "level_from_sequence",
    "generate_level",
    "daily_level",
    "tutorial_level",
    "score_fold",
    "score_level_fold",
    "best_fold",
    "build_default_pack",
]

#: Chain lengths a player can type in "make a level": exact thresholds need the enumeration of
#: every fold, which is cached per length (L=18: about 6 M folds, seconds once; L=20: 42 M folds,
#: about 9 CPU s and 300 MB the first time). The default pack's levels have 10 to 20.
PLAY_LENGTHS = (4, 20)
#: Chain lengths of "generate a level" (the exact histograms of a sample of sequences against
#: the length's cached contact sets: about 1.5 s at 18 residues the first time in a process).
#: 19 and 20 residues cost 4 and 25 times more: the pack's 19- and 20-residue levels are made
#: offline, and a typed sequence may have up to 20 residues.
GENERATE_LENGTHS = (10, 18)
#: The default pack's lengths and size per length.
DEFAULT_LENGTHS = tuple(range(10, 21))
DEFAULT_PER_LENGTH = 2


@dataclass(frozen=True)
class PuzzleLevel:
    """One playable level: the chain, its star thresholds and how its folds score.

    ``counts[k]`` symmetry-distinct folds score k; ``best_share`` is the share that reaches the
    best score (the three-star rarity). ``number`` is the position in its pack (1-based) or None.
    The best fold itself is not part of the level (it is a spoiler: :func:`best_fold`)."""

    sequence: Chain
    thresholds: tuple[int, int, int]
    best: int
    counts: list[int]
    best_share: float
    source: str
    number: int | None = None
    lattice: Lattice = Lattice.SQUARE

    @property
    def length(self) -> int:
        return len(self.sequence)

    def __json__(self) -> dict[str, Any]:
        return {
            "sequence": self.sequence,
            "length": self.length,
            "lattice": self.lattice,
            "thresholds": list(self.thresholds),
            "best": self.best,
            "counts": self.counts,
            "total": sum(self.counts),
            "best_share": self.best_share,
            "source": self.source,
            "number": self.number,
        }


@dataclass(frozen=True)
class LevelPack:
    """The levels of a pack, in play order (easiest first for the default pack)."""

    name: str
    levels: list[PuzzleLevel]
    meta: dict[str, Any] = field(default_factory=dict)
    #: a best fold of each level (stored in the pack; spoilers, so never sent with the levels)
    solutions: dict[str, str] = field(default_factory=dict, metadata={"json": False})


@dataclass(frozen=True)
class FoldScore:
    """A (possibly partial) fold checked and scored: residue sites, HH contacts, stars."""

    sequence: Chain
    conformation: str
    complete: bool
    score: int
    contacts: list[tuple[int, int]]
    sites: list[tuple[int, int]]
    stars: int | None
    thresholds: tuple[int, int, int] | None
    #: a fold in progress whose rest cannot fit any more, and why in words (:func:`dead_end`)
    dead_end: str | None = None


#: Pockets up to this many free cells are searched for a walk of the chain's rest (a bounded
#: depth-first search); larger ones are judged by their size and colours only.
POCKET_SEARCH_CELLS = 24
POCKET_SEARCH_NODES = 200_000

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def dead_end(sites: list[tuple[int, int]], remaining: int) -> str | None:
    """Why the chain placed at `sites` (residue 0 first) cannot be finished with `remaining`
    more residues, in words, or None when it still can (as far as these checks see).

    The free cells the chain's end can reach are flood-filled inside the chain's bounding box
    grown by one cell: reaching that ring means the end is outside, where there is always room.
    Otherwise the end is closed in a pocket: its rest must fit in the pocket's cells
    (reachability), and since each step on the square grid changes a cell's colour (as on a
    chessboard) it needs ceil(r/2) cells of the colour other than the end's and floor(r/2) of
    the end's own (parity); a pocket of at most :data:`POCKET_SEARCH_CELLS` cells is searched
    for a walk of the whole rest.

    >>> dead_end([(0, 0), (1, 0)], 5) is None
    True
    >>> spiral = [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (2, 2), (1, 2), (0, 2), (0, 1), (1, 1)]
    >>> dead_end(spiral, 2)
    "the chain's end is closed in with 1 free cell, but 2 residues remain"
    """
    if remaining <= 0:
        return None
    taken = set(sites)
    end = sites[-1]
    xs, ys = [x for x, _ in sites], [y for _, y in sites]
    lo_x, hi_x, lo_y, hi_y = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    pocket: set[tuple[int, int]] = set()
    todo = [end]
    while todo:
        x, y = todo.pop()
        for dx, dy in _STEPS:
            cell = (x + dx, y + dy)
            if cell in taken or cell in pocket:
                continue
            if not (lo_x < cell[0] < hi_x and lo_y < cell[1] < hi_y):
                return None  # out in the open
            pocket.add(cell)
            todo.append(cell)
    if not pocket:
        return "the chain's end has no free cell beside it, so the rest cannot be placed"
    if len(pocket) < remaining:
        cells = f"{len(pocket)} free cell{'s' if len(pocket) != 1 else ''}"
        residues = f"{remaining} residue{'s' if remaining != 1 else ''} remain"
        return f"the chain's end is closed in with {cells}, but {residues}"
    colour = (end[0] + end[1]) % 2
    other = sum(1 for x, y in pocket if (x + y) % 2 != colour)
    own = len(pocket) - other
    need_other, need_own = (remaining + 1) // 2, remaining // 2
    if other < need_other or own < need_own:
        return (
            f"the chain's end is closed in with {len(pocket)} free cells, but each step "
            f"changes colour as on a chessboard: the {remaining} residues left need "
            f"{need_other} cells of one colour and {need_own} of the other, and the pocket has "
            f"{other} and {own}"
        )
    if len(pocket) <= POCKET_SEARCH_CELLS and not _walk_fits(end, pocket, remaining):
        return (
            f"the chain's end is closed in with {len(pocket)} free cells, and no path through "
            f"them is {remaining} cells long"
        )
    return None


def _walk_fits(end: tuple[int, int], pocket: set[tuple[int, int]], length: int) -> bool:
    """Whether a self-avoiding walk of `length` steps from `end` fits in `pocket` (a bounded
    depth-first search with an explicit stack; True when the bound is reached undecided)."""
    path, used = [end], {end}
    stack = [iter(_STEPS)]
    nodes = 0
    while stack:
        if len(path) - 1 >= length:
            return True
        x, y = path[-1]
        for dx, dy in stack[-1]:
            nxt = (x + dx, y + dy)
            if nxt in pocket and nxt not in used:
                nodes += 1
                if nodes > POCKET_SEARCH_NODES:
                    return True  # undecided: not called a dead end
                path.append(nxt)
                used.add(nxt)
                stack.append(iter(_STEPS))
                break
        else:
            stack.pop()
            used.discard(path.pop())
    return False


@dataclass(frozen=True)
class BestFold:
    """A fold reaching the best score (one of ``count`` such folds up to symmetry; None for an
    expert level, whose folds are not counted)."""

    sequence: Chain
    conformation: str
    score: int
    count: int | None


def _level_from_analysis(level: Level, source: str, number: int | None = None) -> PuzzleLevel:
    total = sum(level.counts)
    return PuzzleLevel(
        sequence=level.sequence,
        thresholds=graded_thresholds(level.best),
        best=level.best,
        counts=list(level.counts),
        best_share=level.counts[-1] / total,
        source=source,
        number=number,
        lattice=level.lattice,
    )


def default_pack_path() -> Path:
    """The pack shipped with gamelab (``gamelab/lattice/data/levels.db``)."""
    return Path(str(resources.files("gamelab.lattice") / "data" / "levels.db"))


def difficulty_key(sequence: str, counts: list[int]) -> tuple[float, int, str]:
    """Play order, easiest first: the share of folds that reach three stars (the best score),
    most common first; ties: shorter first, then the sequence."""
    return (-counts[-1] / sum(counts), len(sequence), sequence)


def load_pack(path: Path | None = None, name: str | None = None) -> LevelPack:
    """A pack's square-lattice levels, easiest first (:func:`difficulty_key`; the default pack
    is stored in that order, a pack of ``gamelab lattice pack`` by its objective), numbered from
    1. The default pack when `path` is None.

    Raises ValueError when the file is not a pack or holds no square-lattice level."""
    path = default_pack_path() if path is None else Path(path)
    label = name or ("default pack" if path == default_pack_path() else path.name)
    try:
        meta, rows = read_pack(path)
    except ValueError:
        raise
    except Exception as exc:  # sqlite3.DatabaseError and friends: not a pack
        raise ValueError(f"{path} is not a level pack ({exc})") from exc
    levels: list[PuzzleLevel] = []
    solutions: dict[str, str] = {}
    rows = sorted(
        (row for row in rows if row["lattice"] == "square"),
        key=lambda row: difficulty_key(row["sequence"], row["histogram"]),
    )
    for row in rows:
        counts = [int(n) for n in row["histogram"]]
        best = int(row["best"])
        levels.append(
            PuzzleLevel(
                sequence=Chain(row["sequence"], min_length=2),  # a pack file's text, parsed once
                thresholds=graded_thresholds(best),
                best=best,
                counts=counts,
                best_share=counts[-1] / sum(counts),
                source=label,
                number=len(levels) + 1,
            )
        )
        solutions[row["sequence"]] = row["best_conformation"]
    if not levels:
        raise ValueError(f"{path} holds no square-lattice level")
    return LevelPack(label, levels, meta, solutions)


#: The tutorial: 8 residues, best 3 contacts (2 of its 272 folds), one star per contact.
TUTORIAL_SEQUENCE = Chain("HPHPPHPH")


def tutorial_level() -> PuzzleLevel:
    """The first level a new player sees: a short chain whose three stars are its three possible
    contacts (the page explains H, P and contacts beside it)."""
    level = analyse_level(TUTORIAL_SEQUENCE, Lattice.SQUARE)
    return _level_from_analysis(level, "tutorial")


#: the pack level :func:`lattice_game` plays when given no sequence and no level
DEFAULT_LEVEL = 1


def lattice_game(
    sequence: str | None = None, level: int | None = None, lattice: str = "square"
) -> LatticeGame:
    """The game a shell's settings name: a typed `sequence`, or level `level` (from 1) of
    the default pack (:func:`load_pack`), on the lattice named `lattice`; with neither, the
    pack's first level. ValueError (the shells' message) for both, a level outside the pack or
    an unknown lattice."""
    kind = Lattice(lattice)
    if sequence is not None and level is not None:
        raise ValueError("give either a sequence or a pack level, not both")
    if sequence is None:
        levels = load_pack().levels
        level = DEFAULT_LEVEL if level is None else level
        if not isinstance(level, int) or not 1 <= level <= len(levels):
            raise ValueError(f"level must be 1 to {len(levels)} (the default pack), got {level!r}")
        return LatticeGame(levels[level - 1].sequence, kind)
    return LatticeGame(Chain(sequence, min_length=2), kind)


def level_from_sequence(seq: Chain) -> PuzzleLevel:
    """The level of a typed chain: its exact histogram and thresholds (enumerated, cached)."""
    lo, hi = PLAY_LENGTHS
    if not lo <= len(seq) <= hi:
        raise ValueError(f"a level needs {lo} to {hi} residues; {seq!r} has {len(seq)}")
    level = analyse_level(seq, Lattice.SQUARE)
    if level.best == 0:
        raise ValueError(f"{seq!r} cannot make any HH contact, so it is no puzzle; add H residues")
    return _level_from_analysis(level, "typed")


#: a generated level is drawn (by its seed) from this many of the GA's best new sequences
#: "Generate" draws from a fixed sample of this many random sequences per length (the same on
#: every server: seeded by the length), keeps the playable ones that are no level of the pack,
#: and deals them out in an order mixing easy, medium and hard ones.
GENERATE_SAMPLE = 3000
#: A generated level's best fold has at least this many contacts.
GENERATE_MIN_BEST = 3
DIFFICULTY_WORDS = ("easy", "medium", "hard")


@lru_cache(maxsize=16)
def generated_levels(length: int, avoid: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """The levels "generate" deals out at `length`, in order: (sequence, difficulty word).

    :data:`GENERATE_SAMPLE` random HP sequences drawn with the generator seeded by the length
    (written with the smaller of itself and its reverse, duplicates dropped), keeping those whose
    best fold has at least :data:`GENERATE_MIN_BEST` contacts and that are not in `avoid`
    (as written or reversed); each gets a difficulty by the share of its folds reaching the best
    (the thirds of the sample: the common third easy, the rarest hard), and the order takes one
    of each in turn, each third shuffled by the same generator. Cost: one batch of exact
    histograms (about 1.5 s at 18 residues, cached per process)."""
    rng = np.random.default_rng([length, 47])
    codes = np.unique(rng.integers(0, 2**length, size=GENERATE_SAMPLE))
    seqs = ["".join("H" if (int(c) >> i) & 1 else "P" for i in range(length)) for c in codes]
    canon = sorted({min(q, q[::-1]) for q in seqs} - avoid)
    if not canon:
        return ()
    hists = contact_sets(length, "square").histograms(canon)
    best = np.array([int(np.flatnonzero(row)[-1]) for row in hists])
    share = np.array([row[b] / row.sum() for row, b in zip(hists, best, strict=True)])
    keep = [k for k in range(len(canon)) if best[k] >= GENERATE_MIN_BEST]
    if not keep:
        return ()
    order = sorted(keep, key=lambda k: (-share[k], canon[k]))  # easiest first
    thirds = [order[t * len(order) // 3 : (t + 1) * len(order) // 3] for t in range(3)]
    for part in thirds:
        rng.shuffle(part)
    dealt: list[tuple[str, str]] = []
    for n in range(max(len(part) for part in thirds)):
        for word, part in zip(DIFFICULTY_WORDS, thirds, strict=True):
            if n < len(part):
                dealt.append((canon[part[n]], word))
    return tuple(dealt)


def generate_level(
    length: int, seed: int, avoid: tuple[str, ...] | list[str] | None = None
) -> PuzzleLevel:
    """A new level of `length` residues: number `seed` (modulo their count) of the levels
    :func:`generated_levels` deals out, so consecutive seeds give distinct levels, easy, medium
    and hard in turn, of varied shapes; never a level of the pack the player plays (`avoid`:
    its sequences; default: the default pack's), analysed exactly."""
    lo, hi = GENERATE_LENGTHS
    if not lo <= length <= hi:
        raise ValueError(f"a generated level has {lo} to {hi} residues, got {length}")
    if not 0 <= seed < 2**63:
        raise ValueError(f"seed must be a non-negative integer below 2**63, got {seed}")
    if avoid is None:
        avoid = [lv.sequence for lv in load_pack(None).levels]
    known = frozenset(min(q.upper(), q.upper()[::-1]) for q in avoid)
    levels = generated_levels(length, known)
    if not levels:
        raise ValueError(f"no new playable level of {length} residues; try another length")
    sequence, word = levels[seed % len(levels)]
    level = analyse_level(Chain(sequence), Lattice.SQUARE)
    return _level_from_analysis(level, f"generated (seed {seed}, {word})")


def build_page_tables() -> None:
    """Enumerate the folds of every length a level of the page may have (:data:`PLAY_LENGTHS`),
    or find them on the disk: run by ``gamelab serve``'s warm-up process, so that the first
    level of any length (a typed one of 20 residues: 41.9 million folds, about 9 CPU-s the
    first time on a machine) only loads its table once the server says the page is warm."""
    lo, hi = PLAY_LENGTHS
    for length in range(lo, hi + 1):
        contact_sets(length, "square")


def parse_date(text: str) -> _dt.date:
    try:
        return _dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"date {text!r} is not a date like 2026-12-01") from None


def daily_level(date: str, pack: LevelPack) -> PuzzleLevel:
    """The level of the day: a pack level drawn by a generator seeded with the date (YYYY-MM-DD),
    so everyone gets the same level on the same day."""
    day = parse_date(date)
    rng = np.random.default_rng(int(day.strftime("%Y%m%d")))
    level = pack.levels[int(rng.integers(len(pack.levels)))]
    return replace(level, source=f"daily {day.isoformat()}")


def score_fold(
    sequence: Chain, conformation: str, thresholds: tuple[int, int, int] | None = None
) -> FoldScore:
    """Check and score a fold of `sequence`; `conformation` may be a prefix (a fold in progress).

    The moves are parsed once (:func:`.rules.parse_conformation`: its errors name the bad move
    or the residue that lands on another) and played by the state protocol's actions
    (:meth:`.state.LatticeGame.state_after`), whose state gives the sites and the HH contacts.
    Stars are given (from `thresholds`) only for a complete fold."""
    game = LatticeGame(sequence)
    seq = game.sequence
    conf = parse_conformation(conformation, Lattice.SQUARE)
    if len(conf) > len(seq) - 1:
        raise ValueError(
            f"conformation {conf!r} has {len(conf)} moves; a chain of {len(seq)} residues has "
            f"only {len(seq) - 1}"
        )
    if thresholds is not None:
        t = tuple(int(x) for x in thresholds)
        if len(t) != 3 or not 0 <= t[0] <= t[1] <= t[2]:
            raise ValueError(f"thresholds must be three increasing scores, got {list(thresholds)}")
    state = game.state_after(conf)
    found = state.contacts()
    complete = state.complete()
    stars = sum(1 for x in thresholds if len(found) >= x) if complete and thresholds else None
    sites = [(x, y) for x, y, _ in state.sites]
    return FoldScore(
        seq,
        conf,
        complete,
        len(found),
        found,
        sites,
        stars,
        tuple(thresholds) if thresholds else None,  # type: ignore[arg-type]
        dead_end(sites, len(seq) - len(sites)),
    )


def score_level_fold(sequence: Chain, conformation: str) -> FoldScore:
    """:func:`score_fold` with the level's own thresholds (the graded banding of the exact
    best score, as every level of the game has them): what the page shows for the same fold.
    Chains longer than the enumeration allows are scored without stars."""
    seq = at_least(sequence, 2)
    # the fold is checked before the enumeration: a bad one is refused without compiling it
    score_fold(seq, conformation)
    thresholds = None
    if len(seq) <= MAX_LENGTH["square"]:
        best = len(contact_sets(len(seq), "square").histogram(seq)) - 1
        thresholds = graded_thresholds(best) if best > 0 else None
    return score_fold(seq, conformation, thresholds)


def best_fold(sequence: Chain, pack: LevelPack | None = None) -> BestFold:
    """One fold reaching the best score and how many such folds: the pack's stored fold for one
    of its levels, the shipped fold of an expert level (:mod:`.expert`: the best known value),
    else exact from the enumeration (cached per length)."""
    from gamelab.lattice.expert import load_expert_pack

    seq = sequence
    if pack is not None and seq in pack.solutions:
        level = next(lv for lv in pack.levels if lv.sequence == seq)
        conf = pack.solutions[seq]
        if LatticeGame(seq).state_after(conf).returns() != [float(level.best)]:
            raise ValueError(f"the pack's fold of {seq} does not reach its best score {level.best}")
        return BestFold(seq, conf, level.best, level.counts[-1])
    expert = load_expert_pack()
    known = next((lv for lv in expert.levels if lv.sequence == seq), None)
    if known is not None:
        if seq not in expert.solutions:
            raise ValueError(
                f"no fold with the best known {known.best_known} contacts of {known.name} ships "
                "with gamelab (the folder has not reached it within the pack's budget)"
            )
        return BestFold(seq, expert.solutions[seq], known.best_known, None)
    lo, hi = PLAY_LENGTHS  # a level of the pack may be longer: its fold is stored
    if not lo <= len(seq) <= hi:
        raise ValueError(
            f"a best fold is found for {lo} to {hi} residues (or a level of the pack); "
            f"{seq!r} has {len(seq)}"
        )
    sets = contact_sets(len(seq), "square")
    conf = sets.best_conformation(seq)
    hist = sets.histogram(seq)
    return BestFold(seq, conf, int(len(hist) - 1), int(hist[-1]))


def build_default_pack(
    out: Path,
    lengths: tuple[int, ...] = DEFAULT_LENGTHS,
    per_length: int = DEFAULT_PER_LENGTH,
    seed: int = 0,
    runs: int = 2,
) -> LevelPack:
    """Make the default pack: for each length, seeded GA runs with the best-then-rarity objective
    (:func:`.pack.make_pack`) supply `per_length` levels; all are ordered by difficulty (the
    share of folds that reach three stars, most common first; ties: shorter first) and written
    to `out`."""
    chosen: list[Level] = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, length in enumerate(lengths):
            made = make_pack(
                Path(tmp) / f"L{length}.db",
                length,
                per_length,
                "best-then-rarity",
                seed + k,
                Lattice.SQUARE,
                runs,
            )
            chosen.extend(made.levels)
    chosen.sort(key=lambda lv: difficulty_key(lv.sequence, lv.counts))
    meta = {
        "name": "gamelab default pack",
        "lengths": list(lengths),
        "per_length": per_length,
        "objective": "best-then-rarity",
        "seed": seed,
        "runs": runs,
        "order": "share of three-star folds, most common first",
    }
    write_pack(Path(out), chosen, meta)
    return load_pack(Path(out), "default pack")
