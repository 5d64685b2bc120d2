"""``/api/wordle/...``: Pokémon Wordle: name input, the assistant, practice games and reviews.

Thin: each endpoint validates its request model, calls one library function and replies with
its dataclass through the shared serialiser. The page sends the whole game every time (the
history, or a practice game's seed and guesses), so the server keeps no per-user state; it
keeps only the solver's memo per process and the background builds of missing strategies.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import Field

from gamelab.web.common import ApiModel, GamePage, budget_of, planned, reply
from gamelab.wordle import advice as advice_mod
from gamelab.wordle.names import NameMatch, Suggestions, lookup_name, suggest
from gamelab.wordle.practice import PlayRound, play_round
from gamelab.wordle.review import review_plan
from gamelab.wordle.rules import NAMES_HELP, Setting, parse_names, parse_setting, pokemon_word_list
from gamelab.wordle.solver.strategy import (
    BackgroundBuilds,
    SettingChoices,
    StrategyStatus,
    setting_choices,
)
from gamelab.wordle.warmup import PAGE_WARMUP

PAGE = GamePage(
    game="wordle",
    title="Pokémon Wordle",
    short_title="Wordle",
    summary="Type names in romaji, kana or English; the proven-optimal next guess with its exact "
    "expected guesses, practice games from a shareable seed, and a review of every guess against "
    "the optimum.",
    preload=("gamelab.wordle.advice", "gamelab.wordle.review"),
    warmup=PAGE_WARMUP,
)

router = APIRouter()
_builds = BackgroundBuilds()


class SettingRequest(ApiModel):
    names: str = Field("gen1-4", max_length=21, description=NAMES_HELP)
    rule: str = Field(
        "standard", max_length=10, description="standard (the game) or blog (the post)"
    )
    hard: str = Field(
        "off", max_length=10, description="off, game (the game's hard mode) or strict"
    )

    def setting(self) -> Setting:
        """The request's setting as the library's one typed value (parsed here, once)."""
        return parse_setting(self.names, self.rule, self.hard)


class Entry(ApiModel):
    guess: str = Field(max_length=40, description="a name: katakana, hiragana, romaji or English")
    colours: str = Field(max_length=40, description="0 grey, 1 yellow, 2 green, e.g. 00120")


class HistoryRequest(SettingRequest):
    history: list[Entry] = Field(default=[], max_length=10)


class NamesRequest(ApiModel):
    names: str = Field("gen1-4", max_length=21)
    text: str = Field(max_length=40)
    limit: int = 12


class PlayRequest(SettingRequest):
    seed: int = Field(ge=0, le=2**63 - 1)
    guesses: list[str] = Field(default=[], max_length=10)


def _pairs(body: HistoryRequest) -> list[tuple[str, str]]:
    return [(e.guess, e.colours) for e in body.history]


@router.get("/settings", response_model=SettingChoices)
async def settings():
    """The named word-list settings, the live game's first (daily, then endless up to each
    generation), then the 2022 list and the post's setting; `instant`: proven strategies
    shipped, every answer a table lookup."""
    return reply(setting_choices())


@router.post("/names", response_model=Suggestions)
async def names(body: NamesRequest):
    """The autocomplete: names of the list starting with the text, in both scripts."""
    return reply(suggest(pokemon_word_list(parse_names(body.names)), body.text, body.limit))


class ResolveRequest(ApiModel):
    names: str = Field("gen1-4", max_length=21)
    text: str = Field(max_length=40)


@router.post("/resolve", response_model=NameMatch)
async def resolve(body: ResolveRequest):
    """One typed name (any script) as the list spells it, or 422 saying why it is not a guess."""
    return reply(lookup_name(pokemon_word_list(parse_names(body.names)), body.text))


@router.post("/advice")
async def advice(body: HistoryRequest, request: Request):
    """Candidates left, the optimal next guess (exact expected guesses, worst case) and the
    entropy ranking's top. Past the time budget: the max-entropy guess, labelled in ``note``."""
    plan = advice_mod.advice_plan(body.setting(), _pairs(body), budget_of(request))
    return await planned(request, plan)


@router.post("/play", response_model=PlayRound)
async def play(body: PlayRequest):
    """A practice game replayed from its seed and guesses: colours, keyboard, share text."""
    return reply(play_round(body.setting(), body.seed, body.guesses))


@router.post("/review")
async def review_game(body: HistoryRequest, request: Request):
    """Each guess against the optimal one: expected guesses lost (skill) and luck, exactly."""
    return await planned(request, review_plan(body.setting(), _pairs(body), budget_of(request)))


@router.post("/strategy", response_model=StrategyStatus)
async def strategy(body: SettingRequest):
    """Whether the optimal strategy of the setting is cached; starts computing it if not."""
    return reply(_builds.status(body.setting()))
