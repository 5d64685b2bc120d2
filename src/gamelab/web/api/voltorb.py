"""``/api/voltorb/...``: the Voltorb Flip assistant, practice rounds and their review.

Thin: each endpoint validates its request model, parses it once into the library's values (a
:class:`~gamelab.voltorb.rules.VoltorbSetting`, a :class:`~gamelab.voltorb.rules.Position` or
:class:`~gamelab.voltorb.rules.RoundRecord`, a :class:`~gamelab.voltorb.assistant.Policy`),
calls one library function and replies with its dataclass through the shared serialiser. The position travels with every request (clues,
revealed tiles), so the server keeps no state.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import Field

from gamelab.voltorb.assistant import BoardAnalysis, Policy
from gamelab.voltorb.budget import (
    exact_call,
    objective_plan,
    practice_review_plan,
    review_plan,
    solve_plan,
)
from gamelab.voltorb.objectives import Objective, ObjectiveDecision
from gamelab.voltorb.optimal_table import LevelWinRate, level_win_rates
from gamelab.voltorb.practice import (
    PracticeRound,
    PracticeState,
    new_practice,
    play_practice,
    practice_flips,
)
from gamelab.voltorb.review import RoundReview, review_position, review_practice
from gamelab.voltorb.rules import Position, RoundRecord, VoltorbSetting
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
    short_title="Voltorb",
    summary="Tile odds, safe tiles and the win-maximising flip for a real game; practice rounds "
    "from the game's own generator, and a review of every flip.",
    preload=("gamelab.voltorb.assistant", "gamelab.voltorb.expectimax", "gamelab.voltorb.review"),
    warmup=PAGE_WARMUP,
)

router = APIRouter()

Clue = Field(max_length=200, description='five "sum,voltorbs" pairs, e.g. "4,2 8,0 4,2 4,2 5,1"')


class DealRequest(ApiModel):
    """A request's deal: the level and the board generator."""

    level: int = 8
    generator: str = "hgss"

    def setting(self) -> VoltorbSetting:
        return VoltorbSetting(self.level, self.generator)


class SolveRequest(DealRequest):
    rows: str = Clue
    cols: str = Clue
    revealed: list[str] = Field(default=[], max_length=25, description='["row,col=value", ...]')
    policy: str = "optimal"

    def question(self) -> tuple[Position, VoltorbSetting, Policy]:
        """The position, the deal and the policy (a 422 with the library's words if bad)."""
        position = Position.parse(self.rows, self.cols, self.revealed)
        return position, self.setting(), Policy(self.policy)


@router.post("/solve", response_model=BoardAnalysis)
async def solve(body: SolveRequest, request: Request):
    """The assistant: P(Voltorb) and P(2 or 3) per tile, safe tiles, the policy's flip, P(win).

    Same document as ``gamelab voltorb solve --json``. The library's plan for the server's time
    budget (:func:`gamelab.voltorb.budget.solve_plan`): past it the answer is MinRisk's (or the
    chosen policy's) without P(win), labelled in ``answer`` and ``note``.
    """
    return await planned(request, solve_plan(*body.question(), budget_of(request)))


@router.post("/solve/exact")
async def solve_exact(body: SolveRequest, request: Request):
    """The exact search of ``/solve`` without its time budget or state limit, as a background
    job (see ``/api/jobs/{job}``); the page asks for it by itself when ``/solve`` answered with
    its fallback. Asking again with the same body polls the same job; when ``state`` is
    ``done``, ``result`` is the document ``/solve`` gives, and what the search solved answers
    the rest of the round's positions within the budget (:mod:`gamelab.voltorb.solved`). A
    long search shares its first flips among as many processes as the server has solver
    processes (the library decides when it is worth it)."""
    call = exact_call(*body.question(), processes=pool_of(request).workers)  # malformed: a 422
    return background(request, *call)


class ObjectiveRequest(DealRequest):
    rows: str = Clue
    cols: str = Clue
    revealed: list[str] = Field(default=[], max_length=25, description='["row,col=value", ...]')
    objective: str = Field(
        max_length=40, description="win, survive, eight, coins or coins>=X (X from 1 to 50000)"
    )


@router.post("/objective", response_model=ObjectiveDecision)
async def objective(body: ObjectiveRequest, request: Request):
    """The best action for a round objective, in words (``advice``): the tile to flip or quit,
    and the optimal value; within the time budget, else MinRisk's flip labelled in ``answer``
    (:func:`gamelab.voltorb.budget.objective_plan`)."""
    position = Position.parse(body.rows, body.cols, body.revealed)
    setting = body.setting()
    goal = Objective.parse(body.objective)  # a bad objective is a 422 with the library's words
    budget = budget_of(request)
    return await planned(request, objective_plan(position, setting, goal, budget))


Tile = Annotated[list[int], Field(min_length=2, max_length=2, description="[row, col], from 1")]


@router.get("/levels", response_model=list[LevelWinRate])
async def levels():
    """The optimal policy's P(win) per level (hgss), from the library's shipped table: the
    two-phase estimate with its 95 % interval (docs/voltorb.md, the tight per-level table)."""
    return reply(level_win_rates())


class PracticeNewRequest(DealRequest):
    level: int = 1
    seed: int


@router.post("/practice/new", response_model=PracticeRound)
async def practice_new(body: PracticeNewRequest):
    """The clues of practice round (generator, level, seed); the board stays on the server."""
    return reply(new_practice(body.setting(), body.seed))


class PracticePlayRequest(DealRequest):
    level: int
    seed: int
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
            body.setting(),
            body.seed,
            body.flips,
            body.quit,
            [list(h) for h in body.history],
            body.bank,
        )
    )


class PracticeReviewRequest(DealRequest):
    level: int
    seed: int
    flips: list[Tile] = Field(max_length=25)
    quit: bool = False

    def question(self) -> tuple[VoltorbSetting, int, tuple, bool]:
        return self.setting(), self.seed, practice_flips(self.flips), self.quit


@router.post("/practice/review", response_model=RoundReview)
async def practice_review(body: PracticeReviewRequest, request: Request):
    """Every flip of a practice round against optimal play (exact), luck beside skill. Past
    the time budget: the quick review, every row labelled (``exact`` false); ask
    ``/practice/review/exact`` for the exact one in the background."""
    plan = practice_review_plan(*body.question(), budget_of(request))
    return await planned(request, plan)


@router.post("/practice/review/exact")
async def practice_review_exact(body: PracticeReviewRequest, request: Request):
    """The exact review of ``/practice/review`` as a background job (polled by asking again)."""
    setting, seed, flips, quit = body.question()  # a malformed body: a 422, no job
    return background(request, review_practice, (setting, seed, list(flips), quit))


class ReviewRequest(DealRequest):
    rows: str = Clue
    cols: str = Clue
    flips: list[str] = Field(
        max_length=25, description='["row,col=value", ...] in the order played'
    )

    def question(self) -> tuple[RoundRecord, VoltorbSetting]:
        return RoundRecord.parse(self.rows, self.cols, self.flips), self.setting()


@router.post("/review", response_model=RoundReview)
async def review(body: ReviewRequest, request: Request):
    """The review of a round entered in the assistant (clues and flips with their values);
    past the time budget the quick review, as ``/practice/review``."""
    return await planned(request, review_plan(*body.question(), budget_of(request)))


@router.post("/review/exact")
async def review_exact(body: ReviewRequest, request: Request):
    """The exact review of ``/review`` as a background job (polled by asking again)."""
    return background(request, review_position, body.question())  # malformed: a 422, no job
