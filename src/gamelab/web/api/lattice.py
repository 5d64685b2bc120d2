"""``/api/lattice/...``: the folding puzzle game: levels, the tutorial, the expert pack (the
standard benchmarks), fold scoring, the best fold.

Thin: each endpoint validates its request model, calls one library function of
:mod:`gamelab.lattice.puzzle` and replies with its dataclass through the shared serialiser. The
level pack is chosen on the server's command line (``gamelab serve --pack FILE``, kept in
``Settings.options["lattice_pack"]``), never by a request; the player's fold travels with every
request, so the server keeps no state.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, Request
from pydantic import Field

from gamelab.lattice.budget import best_plan, generate_plan, level_plan
from gamelab.lattice.expert import ExpertPack, load_expert_pack
from gamelab.lattice.folds3d import Folds3D, load_folds3d
from gamelab.lattice.puzzle import (
    BestFold,
    FoldScore,
    LevelPack,
    PuzzleLevel,
    daily_level,
    load_pack,
    score_fold,
    tutorial_level,
)
from gamelab.lattice.rules import Chain, parse_sequence
from gamelab.lattice.warmup import PAGE_WARMUP
from gamelab.web.common import ApiModel, GamePage, budget_of, planned, reply, settings_of

PAGE = GamePage(
    game="lattice",
    title="Lattice folding",
    short_title="Lattice",
    summary="Fold an HP chain on the grid for H-H contacts and three stars: generated levels, a "
    "daily level, and levels made from any sequence with their exact star thresholds.",
    preload=("gamelab.lattice.puzzle",),
    warmup=PAGE_WARMUP,
)

router = APIRouter()

#: The longest chain a request may carry: the expert pack's 100-residue benchmarks.
LONGEST = 100
Sequence = Field(min_length=1, max_length=LONGEST, description="an HP sequence, e.g. HPHHPPHH")
Moves = Field(
    default="", max_length=LONGEST, description="the fold as moves R L U D (may be unfinished)"
)


@lru_cache(maxsize=4)
def _pack(path: str | None) -> LevelPack:
    return load_pack(Path(path) if path else None)


def pack_of(request: Request) -> LevelPack:
    """The server's pack: ``gamelab serve --pack FILE``, else the default pack."""
    return _pack(settings_of(request).options.get("lattice_pack"))


@router.post("/levels", response_model=LevelPack)
async def levels(request: Request):
    """Every level of the server's pack, in play order."""
    return reply(pack_of(request))


@router.post("/tutorial", response_model=PuzzleLevel)
async def tutorial():
    """The first level a new player sees (the page explains H, P and contacts beside it)."""
    return reply(tutorial_level())


@router.post("/expert", response_model=ExpertPack)
async def expert():
    """The expert pack: the standard 2D benchmarks S1-1 ... S1-11 with stars from the best known
    value (the paper's banding), the upper bound and whether the value is proven optimal."""
    return reply(load_expert_pack())


@router.post("/folds3d", response_model=Folds3D)
async def folds3d():
    """The best folds found here for the ten 3D benchmarks (the Harvard 48-mers, cubic lattice):
    moves, sites, HH contacts, the best known value, the upper bound and whether it is proven;
    made by tools/make_3d_folds.py with the library's replica exchange. The folding page draws
    them rotatable."""
    return reply(load_folds3d())


class DailyRequest(ApiModel):
    date: str = Field(max_length=32, description="YYYY-MM-DD")


@router.post("/daily", response_model=PuzzleLevel)
async def daily(body: DailyRequest, request: Request):
    """The level of the day (the same for everyone on that date)."""
    return reply(daily_level(body.date, pack_of(request)))


class LevelRequest(ApiModel):
    sequence: str = Sequence

    def chain(self) -> Chain:
        """The typed sequence, parsed once (the library's message for bad text)."""
        return parse_sequence(self.sequence)


@router.post("/level", response_model=PuzzleLevel)
async def level(body: LevelRequest, request: Request):
    """A level made from a typed sequence: exact histogram and thresholds (enumerated once per
    length in a solver process, then cached)."""
    return await planned(request, level_plan(body.chain(), budget_of(request)))


class GenerateRequest(ApiModel):
    length: int = Field(description="residues of the new level (10 to 18)")
    seed: int = Field(description="the GA's seed (the same seed gives the same level)")


@router.post("/generate", response_model=PuzzleLevel)
async def generate(body: GenerateRequest, request: Request):
    """A new level dealt by its seed (consecutive seeds: distinct levels), never one of the server's pack,
    analysed exactly."""
    plan = generate_plan(body.length, body.seed, pack_of(request), budget_of(request))
    return await planned(request, plan)


class FoldRequest(ApiModel):
    sequence: str = Sequence
    moves: str = Moves
    thresholds: list[int] | None = Field(default=None, min_length=3, max_length=3)

    def chain(self) -> Chain:
        """The level's chain, parsed once: a fold needs at least 2 residues."""
        return parse_sequence(self.sequence, min_length=2)


@router.post("/score", response_model=FoldScore)
async def score(body: FoldRequest):
    """The fold checked (self-avoiding, on the grid, not longer than the chain) and scored."""
    t = tuple(body.thresholds) if body.thresholds else None
    return reply(score_fold(body.chain(), body.moves, t))  # type: ignore[arg-type]


@router.post("/best", response_model=BestFold)
async def best(body: LevelRequest, request: Request):
    """A best fold of the sequence (a spoiler: the page asks before showing it)."""
    plan = best_plan(body.chain(), pack_of(request), budget_of(request))
    return await planned(request, plan)
