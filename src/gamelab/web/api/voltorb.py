"""``/api/voltorb/...``: the Voltorb Flip assistant, practice rounds and their review.

Thin: each endpoint validates its request model, calls one library function and replies with
its dataclass through the shared serialiser. The position travels with every request (clues,
revealed tiles), so the server keeps no state.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import Field

from gamelab.voltorb.assistant import BoardAnalysis
from gamelab.voltorb.budget import (
    check_practice_review,
    check_review,
    exact_call,
    objective_plan,
    practice_review_plan,
    review_plan,
    solve_plan,
)
from gamelab.voltorb.objectives import Objective, ObjectiveDecision
from gamelab.voltorb.optimal_table import LevelWinRate, level_win_rates
from gamelab.voltorb.practice import PracticeRound, PracticeState, new_practice, play_practice
from gamelab.voltorb.review import RoundReview, review_position, review_practice
from gamelab.voltorb.warmup import PAGE_WARMUP
from gamelab.web.common import (
    ApiModel,
    GamePage,
    background,
    budget_of,
    planned,
    pool_of,
    reply,
)

PAGE = GamePage(
    game="voltorb",
    title="Voltorb Flip",
    summary="Tile odds, safe tiles and the win-maximising flip for a real game; practice rounds "
    "from the game's own generator, and a review of every flip.",
    preload=("gamelab.voltorb.assistant", "gamelab.voltorb.expectimax", "gamelab.voltorb.review"),
    warmup=PAGE_WARMUP,
)

router = APIRouter()

Clue = Field(max_length=200, description='five "sum,voltorbs" pairs, e.g. "4,2 8,0 4,2 4,2 5,1"')


class SolveRequest(ApiModel):
    rows: str = Clue
    cols: str = Clue
    revealed: list[str] = Field(default=[], max_length=25, description='["row,col=value", ...]')
    level: int = 8
    generator: str = "hgss"
    policy: str = "optimal"


@router.post("/solve", response_model=BoardAnalysis)
async def solve(body: SolveRequest, request: Request):
    """The assistant: P(Voltorb) and P(2 or 3) per tile, safe tiles, the policy's flip, P(win).

    Same document as ``gamelab voltorb solve --json``. The library's plan for the server's time
    budget (:func:`gamelab.voltorb.budget.solve_plan`): past it the answer is MinRisk's (or the
    chosen policy's) without P(win), labelled in ``answer`` and ``note``.
    """
    question = (body.rows, body.cols, body.revealed, body.level, body.generator, body.policy)
    return await planned(request, solve_plan(*question, budget_of(request)))


@router.post("/solve/exact")
async def solve_exact(body: SolveRequest, request: Request):
    """The exact search of ``/solve`` without its time budget or state limit, as a background
    job (see ``/api/jobs/{job}``); the page asks for it by itself when ``/solve`` answered with
    its fallback. Asking again with the same body polls the same job; when ``state`` is
    ``done``, ``result`` is the document ``/solve`` gives, and what the search solved answers
    the rest of the round's positions within the budget (:mod:`gamelab.voltorb.solved`). A
    long search shares its first flips among as many processes as the server has solver
    processes (the library decides when it is worth it)."""
    question = (body.rows, body.cols, body.revealed, body.level, body.generator, body.policy)
    call = exact_call(*question, processes=pool_of(request).workers)  # malformed: a 422
    return background(request, *call)


class ObjectiveRequest(ApiModel):
    rows: str = Clue
    cols: str = Clue
    revealed: list[str] = Field(default=[], max_length=25, description='["row,col=value", ...]')
    level: int = 8
    generator: str = "hgss"
    objective: str = Field(
        max_length=40, description="win, survive, eight, coins or coins>=X (X from 1 to 50000)"
    )


@router.post("/objective", response_model=ObjectiveDecision)
async def objective(body: ObjectiveRequest, request: Request):
    """The best action for a round objective, in words (``advice``): the tile to flip or quit,
    and the optimal value; within the time budget, else MinRisk's flip labelled in ``answer``
    (:func:`gamelab.voltorb.budget.objective_plan`)."""
    goal = Objective.parse(body.objective)  # a bad objective is a 422 with the library's words
    question = (body.rows, body.cols, body.revealed, body.level, body.generator, goal)
    return await planned(request, objective_plan(*question, budget_of(request)))


Tile = Annotated[list[int], Field(min_length=2, max_length=2, description="[row, col], from 1")]


@router.get("/levels", response_model=list[LevelWinRate])
async def levels():
    """The optimal policy's P(win) per level (hgss), from the library's shipped table: the
    two-phase estimate with its 95 % interval (docs/voltorb.md, the tight per-level table)."""
    return reply(level_win_rates())


class PracticeNewRequest(ApiModel):
    level: int = 1
    seed: int
    generator: str = "hgss"


@router.post("/practice/new", response_model=PracticeRound)
async def practice_new(body: PracticeNewRequest):
    """The clues of practice round (generator, level, seed); the board stays on the server."""
    return reply(new_practice(body.level, body.seed, body.generator))


class PracticePlayRequest(ApiModel):
    level: int
    seed: int
    generator: str = "hgss"
    flips: list[Tile] = Field(default=[], max_length=25)
    quit: bool = False
    history: list[tuple[str, int]] = Field(default=[], max_length=5)
    bank: int = 0


@router.post("/practice/play", response_model=PracticeState)
async def practice_play(body: PracticePlayRequest):
    """The round replayed with these flips (then quit if asked): revealed values, coins, and,
    once it is over, the board, the next level and the coins in the case."""
    return reply(
        play_practice(
            body.level,
            body.seed,
            body.flips,
            body.quit,
            body.generator,
            [list(h) for h in body.history],
            body.bank,
        )
    )


class PracticeReviewRequest(ApiModel):
    level: int
    seed: int
    generator: str = "hgss"
    flips: list[Tile] = Field(max_length=25)
    quit: bool = False


@router.post("/practice/review", response_model=RoundReview)
async def practice_review(body: PracticeReviewRequest, request: Request):
    """Every flip of a practice round against optimal play (exact), luck beside skill. Past
    the time budget: the quick review, every row labelled (``exact`` false); ask
    ``/practice/review/exact`` for the exact one in the background."""
    args = (body.level, body.seed, body.flips, body.generator, body.quit)
    return await planned(request, practice_review_plan(*args, budget_of(request)))


@router.post("/practice/review/exact")
async def practice_review_exact(body: PracticeReviewRequest, request: Request):
    """The exact review of ``/practice/review`` as a background job (polled by asking again)."""
    check_practice_review(body.level, body.seed, body.flips, body.generator)
    args = (body.level, body.seed, body.flips, body.generator, body.quit)
    return background(request, review_practice, args)


class ReviewRequest(ApiModel):
    rows: str = Clue
    cols: str = Clue
    flips: list[str] = Field(
        max_length=25, description='["row,col=value", ...] in the order played'
    )
    level: int = 8
    generator: str = "hgss"


@router.post("/review", response_model=RoundReview)
async def review(body: ReviewRequest, request: Request):
    """The review of a round entered in the assistant (clues and flips with their values);
    past the time budget the quick review, as ``/practice/review``."""
    args = (body.rows, body.cols, body.flips, body.level, body.generator)
    return await planned(request, review_plan(*args, budget_of(request)))


@router.post("/review/exact")
async def review_exact(body: ReviewRequest, request: Request):
    """The exact review of ``/review`` as a background job (polled by asking again)."""
    args = (body.rows, body.cols, body.flips, body.level, body.generator)
    check_review(*args)
    return background(request, review_position, args)
