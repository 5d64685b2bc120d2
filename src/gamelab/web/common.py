"""What every game router uses: page metadata, the request-model base, the serialised reply,
and access to the solver pool and the server settings.

A router module ``gamelab.web.api.<game>`` imports from here (never from :mod:`gamelab.web.app`,
which imports the routers).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from gamelab.core.budget import Plan
from gamelab.core.serialise import to_json
from gamelab.core.warm import PageWarmup
from gamelab.web.pool import (
    Budgeted,
    Document,
    JobStatus,
    SolverPool,
    StillWarming,
    to_document,
)

__all__ = [
    "ApiModel",
    "background",
    "job_reply",
    "GamePage",
    "Settings",
    "budget_of",
    "planned",
    "pool_of",
    "require_warm",
    "reply",
    "settings_of",
]


@dataclass(frozen=True)
class Settings:
    """Server-wide settings (``gamelab serve`` options). `options` carries game-specific
    settings chosen on the server's command line (never by a request)."""

    workers: int = 2  # solver processes for heavy calls
    budget: float = 2.0  # seconds a heavy call may take before the labelled fallback answers
    max_body: int = 64 * 1024  # bytes; larger request bodies get 413
    options: dict[str, Any] = field(default_factory=dict)
    #: seconds a background call ("keep thinking", a review completed later) may take
    background_limit: float = 300.0
    ready_message: str | None = None  # printed on stderr once the app is ready to serve
    #: start serving at once and warm the solvers in the background (``gamelab serve``); False:
    #: the app starts only once every solver is warm (tests)
    background_warmup: bool = False

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError(f"--workers must be at least 1, got {self.workers}")
        if not self.budget > 0:
            raise ValueError(f"the time budget must be positive, got {self.budget}")


@dataclass(frozen=True)
class GamePage:
    """A game's page: served at ``/<game>`` from ``templates/<game>.html``, linked from home.

    `preload` lists modules the solver processes import at start (the game's heavy library);
    `short_title` names it in a phone's header; `warmup` is what the page needs warm, declared in the game's ``warmup.py``
    (:class:`gamelab.core.warm.PageWarmup`).
    """

    game: str
    title: str
    summary: str
    preload: tuple[str, ...] = ()
    warmup: PageWarmup = PageWarmup()
    #: the name in a phone's header, where all five games share one line ("" : the title)
    short_title: str = ""

    @property
    def nav_title(self) -> str:
        return self.short_title or self.title

    @property
    def path(self) -> str:
        return f"/{self.game}"


def warm_lanes(pages: list[GamePage], n: int) -> list[list[GamePage]]:
    """The order in which ``gamelab serve`` warms the pages: in at most `n` lanes that run side
    by side, one page after another in each. The goal is each game's first exact answer soon
    (issue 23: every game's within a minute of a cold start), so the lanes are chosen to make
    the last game's first answer (its lane's warm-ups before it, plus its own
    :attr:`PageWarmup.first_answer_seconds`) as early as possible, then the sum of them, then
    the last lane's end. In a lane the pages whose first answers come before the end of their
    own warm-up (Yatzy: the coach before the bot) go last, the others cheapest first (this
    order is the best of each lane for both). Every assignment is tried for up to 8 pages; for
    more, dearest first into the lane done soonest.

    >>> def page(g, s, **more):
    ...     return GamePage(g, g, "", warmup=PageWarmup(seconds=s, **more))
    >>> pages = [page(g, s) for g, s in [("a", 7), ("b", 39), ("c", 18)]]
    >>> [[p.game for p in lane] for lane in warm_lanes(pages, 2)]
    [['b'], ['a', 'c']]
    >>> [[p.game for p in lane] for lane in warm_lanes(pages, 1)]
    [['a', 'c', 'b']]
    >>> y = page("y", 43, serve_seconds=22, server=("m:f",))
    >>> pages = [page(g, s) for g, s in [("v", 52), ("w", 24), ("o", 16), ("l", 9)]]
    >>> [[p.game for p in lane] for lane in warm_lanes([*pages, y], 2)]
    [['o', 'w', 'y'], ['l', 'v']]
    """

    def order(lane: list[GamePage]) -> list[GamePage]:
        return sorted(
            lane, key=lambda p: (p.warmup.seconds - p.warmup.first_answer_seconds, p.warmup.seconds)
        )

    def score(lanes: list[list[GamePage]]) -> tuple[float, float, float]:
        firsts, ends = [], []
        for lane in lanes:
            done = 0.0
            for page in lane:
                firsts.append(done + page.warmup.first_answer_seconds)
                done += page.warmup.seconds
            ends.append(done)
        return max(firsts, default=0.0), sum(firsts), max(ends, default=0.0)

    n = max(1, n)
    if n == 1 or len(pages) > 8:
        greedy: list[list[GamePage]] = [[] for _ in range(n)]
        for page in sorted(pages, key=lambda p: -p.warmup.seconds):
            min(greedy, key=lambda lane: sum(p.warmup.seconds for p in lane)).append(page)
        best = [order(lane) for lane in greedy if lane]
    else:
        best, best_score = [], (float("inf"),) * 3
        for choice in itertools.product(range(n), repeat=len(pages)):
            if choice and choice[0] != 0:
                continue  # the lanes are interchangeable: the first page in the first lane
            lanes = [
                order([p for p, c in zip(pages, choice, strict=True) if c == k]) for k in range(n)
            ]
            lanes = [lane for lane in lanes if lane]
            if (now := score(lanes)) < best_score:
                best, best_score = lanes, now
    # the dearest lane first (run in the calling thread)
    return sorted(best, key=lambda lane: -sum(p.warmup.seconds for p in lane))


class ApiModel(BaseModel):
    """Base of every request model: unknown fields are an error, strings are stripped."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def reply(result: Any, status_code: int = 200) -> Response:
    """`result` (a library dataclass, usually) as JSON through the one serialiser; a
    :class:`~gamelab.web.pool.Document` (serialised by the process that computed it) as it is."""
    text = result.json if isinstance(result, Document) else to_json(result)
    return Response(text, status_code=status_code, media_type="application/json")


def warming_titles(state: Any) -> list[str]:
    """The titles of the games still warming up (``app.state.cold``), in the pages' order."""
    cold: frozenset[str] = getattr(state, "cold", frozenset())
    return [title for game, title in getattr(state, "titles", {}).items() if game in cold]


def warming_now(state: Any) -> list[str]:
    """What is still warming up, in words: each cold game's title, or for a game whose
    in-server calls are answered already, its title and what it is still warming
    (``"Yatzy (the win-play bot and the review)"``)."""
    cold: frozenset[str] = getattr(state, "cold", frozenset())
    server_cold: frozenset[str] = getattr(state, "server_cold", cold)
    rests: dict[str, str] = getattr(state, "rests", {})
    return [
        f"{title} ({rests[game]})" if game not in server_cold and rests.get(game) else title
        for game, title in getattr(state, "titles", {}).items()
        if game in cold
    ]


def _refuse_while_cold(request: Request, cold: str) -> None:
    """:class:`~gamelab.web.pool.StillWarming` if the request's game (``/api/<game>/...``) is
    in ``app.state.<cold>`` (``cold``: the pool's calls; ``server_cold``: the server's own)."""
    parts = request.url.path.split("/")
    game = parts[2] if len(parts) > 2 and parts[1] == "api" else None
    if game is not None and game in getattr(request.app.state, cold, ()):
        raise StillWarming(request.app.state.titles.get(game, game))


def require_warm(request: Request) -> None:
    """A route dependency for heavy calls a game answers in the server's own process (not in
    the pool): while what they need is still warming up (``gamelab serve`` just started: the
    page's `server_warm` and `build`, or else its whole warm-up) they say so, as the pool's
    calls do, instead of compiling its kernels in the server itself, beside the warm-up
    process that compiles the same kernels, with the server's threads held up."""
    _refuse_while_cold(request, "server_cold")


def pool_of(request: Request) -> SolverPool:
    """The server's solver pool; while the request's game (or the pool itself) is still
    warming up (``gamelab serve`` just started), :class:`~gamelab.web.pool.StillWarming` (503
    naming the game; the page asks again once it is warm)."""
    _refuse_while_cold(request, "cold")
    pool: SolverPool | None = getattr(request.app.state, "pool", None)
    if pool is None:  # no game is warm yet (a request that names none)
        raise StillWarming(", ".join(warming_titles(request.app.state)) or "the solvers")
    return pool


def settings_of(request: Request) -> Settings:
    return request.app.state.settings


async def planned(request: Request, plan: Plan) -> Response:
    """Carry out the library's plan (:class:`gamelab.core.budget.Plan`) and reply: an instant
    call in a thread of the server; else in the pool within the plan's seconds, where past them
    the plan's labelled fallback answers (or, without one, 503 with the reason)."""
    if plan.instant:
        from anyio.to_thread import run_sync

        return reply(await run_sync(plan.run))
    assert plan.seconds is not None
    if plan.fallback is None:
        document = await pool_of(request).run(
            to_document, (plan.fn, plan.args), timeout=plan.seconds, cache=plan.cacheable
        )
        return reply(document)
    answer: Budgeted[Document] = await pool_of(request).budgeted(
        to_document,
        (plan.fn, plan.args),
        budget=plan.seconds,
        fallback=functools.partial(to_document, plan.fallback, (), "note"),
        what=plan.what,
        fallback_name=plan.fallback_name,
        cache=plan.cacheable,
    )
    return reply(answer.value)


def budget_of(request: Request) -> float:
    """The server's time budget in seconds (``gamelab serve --budget``): what a route passes
    to the library's ``*_plan`` functions."""
    return settings_of(request).budget


def background(request: Request, fn: Callable[..., Any], args: tuple) -> Response:
    """``fn(*args)`` as a background job of the pool (started, or found if the same call was
    started before), answered at once with its :func:`job_reply`: a page polls by asking again
    and shows the answer when it is ``done``; the server's `background_limit` bounds it."""
    status = pool_of(request).background(
        to_document, (fn, args), limit=settings_of(request).background_limit
    )
    return job_reply(status)


def job_reply(status: JobStatus | None) -> Response:
    """A job's status as JSON: ``{"job", "state", "elapsed", "limit", "detail", "result"}``,
    `result` the document of the finished call (404 for an unknown job)."""
    import json

    if status is None:
        return Response(
            json.dumps({"detail": "no such job (finished long ago, or the server restarted)"}),
            status_code=404,
            media_type="application/json",
        )
    head = {k: v for k, v in dataclasses.asdict(status).items() if k != "result"}
    body = json.dumps(head)
    if isinstance(status.result, Document):
        body = body[:-1] + ', "result": ' + status.result.json + "}"
    return Response(body, media_type="application/json")
