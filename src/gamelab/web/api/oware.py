"""``/api/oware/...``: play Owaré against the engine, analyse positions, review a game.

Thin: each endpoint validates its request model, calls one function of
:mod:`gamelab.oware.game` (or :mod:`gamelab.oware.analysis`) and replies with its dataclass
through the shared serialiser. The game travels with every request (start position, rule
variant, moves as house letters), so the server keeps no state. Engine calls run in the solver
pool within the server's time budget, so a move request never blocks another player.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import Field

from gamelab.oware.analysis import Analysis
from gamelab.oware.game import (
    START_TEXT,
    EngineReply,
    GameReview,
    GameView,
    analyse_position,
    engine_reply,
    game_view,
    load_record,
    play_move,
    review_game,
)
from gamelab.web.common import ApiModel, GamePage, pool_of, reply, settings_of

PAGE = GamePage(
    game="oware",
    title="Owaré",
    summary="Play the alpha-beta engine (or weaker opponents) on a board you click, with hints, "
    "take-backs and the evaluation; analyse any position; review a game move by move.",
    preload=("gamelab.oware.game", "gamelab.oware.search"),
    warm=("gamelab.oware.game:warm_up",),
)

router = APIRouter()


class GameRequest(ApiModel):
    start: str = Field(default=START_TEXT, max_length=100)
    grand_slam: str = Field(default="no-capture", max_length=20)
    cycle: str = Field(default="own-row", max_length=20)
    moves: list[str] = Field(default=[], max_length=1000)


class MoveRequest(GameRequest):
    move: str = Field(max_length=4)


class ReplyRequest(GameRequest):
    opponent: str = Field(default="engine:time=0.5", max_length=60)
    seed: int = Field(default=0, ge=0, le=2**31)


class AnalyseRequest(ApiModel):
    position: str = Field(max_length=100)
    grand_slam: str = Field(default="no-capture", max_length=20)
    cycle: str = Field(default="own-row", max_length=20)
    time: float = Field(default=1.0, gt=0, le=30)


class ReviewRequest(GameRequest):
    depth: int = Field(default=6, ge=1, le=12)


class RecordRequest(ApiModel):
    text: str = Field(max_length=50_000)


def _args(b: GameRequest) -> tuple:
    return (b.start, b.grand_slam, b.cycle, list(b.moves))


@router.post("/state", response_model=GameView)
async def state(body: GameRequest):
    """The game replayed: board, whose move, legal moves, result, record."""
    return reply(game_view(*_args(body)))


@router.post("/move", response_model=GameView)
async def move(body: MoveRequest):
    """The player's move, checked (an illegal one gets the reason as a 422)."""
    return reply(play_move(*_args(body), body.move))


def _budget(request: Request, seconds: float) -> float:
    return seconds + max(2.0, settings_of(request).budget)


@router.post("/reply", response_model=EngineReply)
async def opponent_reply(body: ReplyRequest, request: Request):
    """The opponent's reply, in a solver process (its own time limit plus the server's budget)."""
    time = 0.5
    if body.opponent.startswith("engine") and "time=" in body.opponent:
        try:
            time = float(body.opponent.split("time=")[1].split(",")[0])
        except ValueError:
            time = 0.5  # parse_player gives the real message
    if time > 10:
        raise ValueError(f"engine time per move is at most 10 s here, got {time}")
    result = await pool_of(request).run(engine_reply, (*_args(body), body.opponent, body.seed),
                                        timeout=_budget(request, time), cache=False)
    return reply(result)


@router.post("/analyse", response_model=Analysis)
async def analyse(body: AnalyseRequest, request: Request):
    """The engine's analysis of any position (text form) within `time` seconds."""
    result = await pool_of(request).run(analyse_position, (body.position, body.grand_slam, body.cycle, body.time),
                                        timeout=_budget(request, body.time), cache=False)
    return reply(result)


@router.post("/review", response_model=GameReview)
async def review(body: ReviewRequest, request: Request):
    """Every move against the engine's best at a fixed depth."""
    result = await pool_of(request).run(review_game, (*_args(body), body.depth),
                                        timeout=_budget(request, 20.0))
    return reply(result)


@router.post("/load", response_model=GameView)
async def load(body: RecordRequest):
    """A game record (as ``gamelab oware play`` saves it) opened as a game."""
    return reply(load_record(body.text))
