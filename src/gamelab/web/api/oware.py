"""``/api/oware/...``: play Owaré against the engine, analyse positions, review a game.

Thin: each endpoint validates its request model, calls one function of
:mod:`gamelab.oware.game` and replies with its dataclass through the shared serialiser. The game
travels with every request (start position, rule variant, moves as house letters), so the
server keeps no state. Searches (the engine's or the blog's reply, hints, analyses, reviews) run
in the solver pool within the server's time budget (plus the engine's own time per move), so a
move request never blocks another player; random and greedy replies are instant and run in the
handler. A search that overruns gets a labelled cheaper answer.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field

from gamelab.oware.budget import analysis_plan, reply_plan, review_plan
from gamelab.oware.game import (
    START_TEXT,
    EngineReply,
    GameRecord,
    GameView,
    PositionAnalysis,
    game_record,
    game_view,
    load_record,
    play_move,
    take_back,
)
from gamelab.oware.game_review import GameReview
from gamelab.oware.match import PlayerSpec, parse_player
from gamelab.oware.rules import MAX_RECORD_CHARS, Rules
from gamelab.oware.warmup import PAGE_WARMUP
from gamelab.web.common import ApiModel, GamePage, budget_of, planned, reply

PAGE = GamePage(
    game="oware",
    title="Owaré",
    summary="Play the alpha-beta engine (or weaker opponents) on a board you click, with hints, "
    "take-backs, the evaluation and exact tablebase endgames; analyse any position; review a game.",
    preload=("gamelab.oware.game", "gamelab.oware.search"),
    warmup=PAGE_WARMUP,
)

router = APIRouter()

Start = Field(
    default=START_TEXT,
    max_length=100,
    description="the start position: 12 houses, 2 stores, side to move (S or N)",
)
GrandSlam = Field(
    default="no-capture", max_length=20, description="no-capture, forbidden or capture-all"
)
Cycle = Field(default="own-row", max_length=20, description="own-row or split")
Moves: Any = Field(
    default=[], max_length=1000, description="the moves so far as house letters (A-F, a-f)"
)


class RulesRequest(ApiModel):
    grand_slam: str = GrandSlam
    cycle: str = Cycle

    @property
    def rules(self) -> Rules:
        """The rule variant, parsed once here (its constructor names what is allowed)."""
        return Rules(grand_slam=self.grand_slam, cycle=self.cycle)


class GameRequest(RulesRequest):
    start: str = Start
    moves: list[str] = Moves


class MoveRequest(GameRequest):
    move: str = Field(max_length=4, description="the house to sow: A-F (South) or a-f (North)")


class TakeBackRequest(GameRequest):
    side: str = Field(default="South", max_length=10, description="your side: South or North")


class OpponentRequest(GameRequest):
    opponent: str = Field(
        default="engine:time=0.5",
        max_length=60,
        description="engine:time=T, engine:depth=D, blog:depth=D, greedy or random",
    )

    @property
    def player(self) -> PlayerSpec:
        """The opponent's spec, parsed once here."""
        return parse_player(self.opponent)


class ReplyRequest(OpponentRequest):
    seed: int = Field(default=0, ge=0, le=2**31)


class AnalyseRequest(RulesRequest):
    position: str = Field(
        max_length=100, description="the position's text form, or the game's start"
    )
    moves: list[str] = Moves
    time: float = Field(default=1.0, gt=0, le=10, description="seconds of search")
    depth: int | None = Field(default=None, ge=1, le=20, description="a fixed depth instead")
    eval: str = Field(default="auale", max_length=10, description="auale or blog")
    tablebase: int | None = Field(
        default=None,
        description="endgame tablebase seeds (-1: none; default: the best this server has)",
    )
    rank: bool = Field(default=False, description="also every legal move with its value")
    book: bool = Field(
        default=False, description="the opening book's move where it has one (the hint)"
    )


class ReviewRequest(OpponentRequest):
    """`opponent`: the one the player faced (the review searches at least as strongly)."""

    depth: int | None = Field(default=None, ge=1, le=20, description="a fixed depth instead")
    first: int = Field(default=1, ge=1, le=1000, description="the first move to review")
    count: int | None = Field(default=None, ge=1, le=1000, description="moves in this piece")
    previous: list[dict[str, Any]] = Field(
        default=[], max_length=1000, description="the review's rows so far (moves 1..first-1)"
    )
    recommended: list[str] = Field(
        default=[],
        max_length=1000,
        description="per move, the house the engine recommended in the game (hint or its own "
        "reply), '' for none",
    )
    players: list[Annotated[str, Field(max_length=60)]] = Field(
        default=[],
        max_length=2,
        description="who played South and North, as a record names them (an engine's moves "
        "are its own choices)",
    )


class RecordRequest(GameRequest):
    south: str = Field(default="?", max_length=60)
    north: str = Field(default="?", max_length=60)


class LoadRequest(ApiModel):
    text: str = Field(
        max_length=MAX_RECORD_CHARS, description="a game record as `gamelab oware play` saves it"
    )


def _game(b: GameRequest) -> tuple[str, Rules, list[str]]:
    return (b.start, b.rules, list(b.moves))


@router.post("/state", response_model=GameView)
async def state(body: GameRequest):
    """The game replayed: board, whose move, legal moves, result, last sowing, exact verdict."""
    return reply(game_view(*_game(body)))


@router.post("/move", response_model=GameView)
async def move(body: MoveRequest):
    """The player's move, checked (an illegal one gets the reason as a 422)."""
    return reply(play_move(*_game(body), body.move))


@router.post("/takeback", response_model=GameView)
async def takeback(body: TakeBackRequest):
    """The game back at your previous turn."""
    return reply(take_back(*_game(body), body.side))


@router.post("/reply", response_model=EngineReply)
async def opponent_reply(body: ReplyRequest, request: Request):
    """The opponent's reply, run as the library's plan says (``reply_plan``): instant ones at
    once, searches in a solver process within the budget plus the engine's own time per move,
    the plan's labelled fallback if that runs out."""
    plan = reply_plan(*_game(body), body.player, body.seed, budget_of(request))
    return await planned(request, plan)


@router.post("/analyse", response_model=PositionAnalysis)
async def analyse(body: AnalyseRequest, request: Request):
    """The engine's analysis of a position (text form, then `moves` from it) within `time` s;
    a depth-``FALLBACK_DEPTH`` search (labelled) if the budget runs out."""
    question = (body.position, body.rules, body.time, list(body.moves), body.depth, body.eval)
    plan = analysis_plan(*question, body.tablebase, body.rank, body.book, budget_of(request))
    return await planned(request, plan)


@router.post("/review", response_model=GameReview)
async def review(body: ReviewRequest, request: Request):
    """One piece of the review (moves `first`.. of the game, after the rows `previous`), planned
    by the library (``review_plan``: as strong as the engine the player faced, or a fixed
    `depth`); its labelled shallower piece if it overruns."""
    plan = review_plan(
        *_game(body),
        body.player,
        budget_of(request),
        body.depth,
        body.count,
        body.first,
        body.previous,
        body.recommended,
        body.players,
    )
    return await planned(request, plan)


@router.post("/record", response_model=GameRecord)
async def record(body: RecordRequest):
    """The game's record, in the text format ``gamelab oware play`` saves and loads."""
    return reply(game_record(*_game(body), body.south, body.north))


@router.post("/load", response_model=GameView)
async def load(body: LoadRequest):
    """A game record (as ``gamelab oware play`` saves it) opened as a game."""
    return reply(load_record(body.text))
