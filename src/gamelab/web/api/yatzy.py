"""``/api/yatzy/...``: the Yatzy / Yahtzee coach, seeded games (solo or against a bot), review.

Thin: each endpoint validates its request model, calls one library function and replies with
its dataclass through the shared serialiser. A game travels with every request (rule set, seed,
start card, your moves, the bot's moves) and is replayed by the library, so the server keeps no
state. Table loading and first builds happen in the handlers' threads (they are cached once per
process; the build's kernel lets the server go on answering). The win-play bot's solve runs in
the solver pool under the time budget, and the review runs in the pool too: the first review of
a game from the empty card computes the optimal strategy's final-score distribution (about a
core-minute for Yatzy, then cached on disk), whose kernels would hold the GIL in the server for
seconds at a time (every request of every page waited up to 6 s while it ran).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field

from gamelab.web.common import ApiModel, GamePage, budget_of, planned, reply, require_warm
from gamelab.yatzy.budget import Game, game_plan, review_plan
from gamelab.yatzy.coach import coach
from gamelab.yatzy.game import undo_view
from gamelab.yatzy.review import CHART_WIDTH
from gamelab.yatzy.rules import RuleSet, get_rules
from gamelab.yatzy.tables import prepare, start_preparing, tables_status
from gamelab.yatzy.warmup import PAGE_WARMUP

PAGE = GamePage(
    game="yatzy",
    title="Yatzy",
    summary="Play Yatzy or Yahtzee (five rule sets) with an exact coach, enter a real game's card "
    "for advice, play the optimal bot, and review your game: skill and luck apart.",
    preload=("gamelab.yatzy.game", "gamelab.yatzy.winplay"),
    warmup=PAGE_WARMUP,
)

router = APIRouter()

Rules = Field(
    default="yatzy",
    max_length=40,
    description="yahtzee, yahtzee-free-joker, yahtzee-no-bonus, yatzy or yatzy-ls2012",
)
CardText = Field(
    default="-",
    max_length=600,
    description="filled boxes as box=points, comma-separated; '-' for a fresh card",
)
Moves: Any = Field(default=[], max_length=60, description='your moves: "keep 1114", "box fours"')


class RulesRequest(ApiModel):
    rules: str = Rules

    @property
    def rule_set(self) -> RuleSet:
        """The request's rule set, parsed once here (an unknown name: 422 naming `rules`)."""
        return get_rules(self.rules)


class AdviseRequest(RulesRequest):
    card: str = CardText
    dice: str = Field(max_length=20, description="the five dice, e.g. 11114")
    rolls_left: int = 2
    top: int | None = None


class GameRequest(RulesRequest):
    seed: int = 0
    start: str = CardText
    moves: list[str] = Moves
    opponent: str = Field(default="none", max_length=20, description="none, optimal or win")
    bot_moves: list[list[str]] = Field(default=[], max_length=16)
    coach: bool = False
    undone: list[int] = Field(
        default=[], max_length=60, description="decisions (1-based) taken back and made again"
    )
    draws: list[int] = Field(
        default=[],
        max_length=60,
        description="for each of your moves, the take-backs the game had when it was made "
        "(the game's `draws`; moves beyond the list were made after all `takebacks`)",
    )
    takebacks: int = Field(default=0, description="moves taken back so far in this game")


class ReviewRequest(GameRequest):
    chart_width: int = Field(
        default=CHART_WIDTH, description="the chart's width in pixels (the page's own width)"
    )


def _game_args(body: GameRequest) -> Game:
    return (body.rule_set, body.seed, body.moves, body.start, body.opponent, body.bot_moves)


@router.post("/status")
def status(body: RulesRequest):
    """Whether the rule set's decision tables are loaded, on disk, or still to be built."""
    return reply(tables_status(body.rule_set))


@router.post("/prepare", dependencies=[Depends(require_warm)])
def prepare_tables(body: RulesRequest):
    """Load the rule set's tables (building them the first time on this server)."""
    return reply(prepare(body.rule_set))


@router.post("/start-preparing", dependencies=[Depends(require_warm)])
def start_preparing_tables(body: RulesRequest):
    """Start loading (or building) the rule set's tables in the background and answer at once
    with their status (`building`, `progress`): the page polls it and plays meanwhile."""
    return reply(start_preparing(body.rule_set))


@router.post("/advise", dependencies=[Depends(require_warm)])
def advise(body: AdviseRequest):
    """Every keep (or box with no rolls left) with its expected final score and loss, best
    first: the document of ``gamelab yatzy advise --json``."""
    return reply(coach(body.rule_set, body.card, body.dice, body.rolls_left, top=body.top))


@router.post("/game")
async def game(body: GameRequest, request: Request):
    """The position of a seeded game after its moves (and the bot's turn when it is due)."""
    rest = (body.coach, body.draws, body.takebacks, budget_of(request))
    return await planned(request, game_plan(_game_args(body), *rest))


@router.post("/undo")
def undo(body: GameRequest):
    """The game with your last decision taken back (and the bot's turn it led to)."""
    return reply(undo_view(*_game_args(body), body.coach, body.draws, body.takebacks))


@router.post("/review")
async def review(body: ReviewRequest, request: Request):
    """Every decision with its loss, the total loss, luck and the exact-distribution percentile
    (computed in a solver process: see the module's docstring)."""
    rest = (body.undone, body.chart_width, body.draws, body.takebacks)
    return await planned(request, review_plan(_game_args(body), *rest))
