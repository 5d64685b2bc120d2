"""``/api/voltorb/...``: the Voltorb Flip assistant, practice rounds and their review.

Thin: each endpoint validates its request model, calls one library function and replies with
its dataclass through the shared serialiser. The position travels with every request (clues,
revealed tiles), so the server keeps no state.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import Field

from gamelab.voltorb.assistant import BoardAnalysis, solve_position
from gamelab.web.common import ApiModel, GamePage, budgeted, reply

PAGE = GamePage(
    game="voltorb",
    title="Voltorb Flip",
    summary="Tile odds, safe tiles and the win-maximising flip for a real game; practice rounds "
    "from the game's own generator, and a review of every flip.",
    preload=("gamelab.voltorb.assistant", "gamelab.voltorb.expectimax"),
    warm=("gamelab.voltorb.assistant:warm_up",),
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

    Same document as ``gamelab voltorb solve --json``. The optimal search runs under the
    server's time budget; past it the answer is MinRisk's (or the chosen policy's) without
    P(win), labelled in ``note``.
    """
    args = (body.rows, body.cols, body.revealed, body.level, body.generator, body.policy)
    cheap = "minrisk" if body.policy == "optimal" else body.policy
    result = await budgeted(
        request,
        solve_position,
        args,
        fallback=lambda: solve_position(*args[:5], policy=cheap, optimal=False),
        what="exact optimal search",
        fallback_name="MinRisk" if cheap == "minrisk" else f"{cheap} without P(win)",
    )
    return reply(result)
