"""The gamelab web app: one FastAPI application serving a page per game and its JSON API.

``create_app(settings)`` builds it. Every game with a module ``gamelab.web.api.<game>`` defining
``router`` (a FastAPI ``APIRouter``) and ``PAGE`` (a :class:`gamelab.web.common.GamePage`) gets:

* its API under ``/api/<game>/...`` (the router is mounted there),
* its page at ``/<game>``, rendered from ``templates/<game>.html`` (extending ``base.html``),
* a link on the home page ``/``.

Games without such a module are simply absent (as with the command line). The app keeps no
per-user state: the page sends the whole game state with each request.

Errors, the same for every game: a library ``ValueError`` -> 422 ``{"detail": message}``; a
request that fails its pydantic model (or is not JSON) -> 422 with a readable ``detail`` and the
``field`` it concerns; a body over ``settings.max_body`` bytes -> 413; a heavy call with no
fallback that overruns the budget -> 503; anything else -> 500 ``{"detail": "internal error"}``
(logged, never a traceback in the response).
"""

from __future__ import annotations

import asyncio
import collections
import functools
import importlib
import logging
import math
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from swagger_ui_bundle import swagger_ui_path

from gamelab import __version__
from gamelab.core.state import registered_games
from gamelab.web.common import (
    GamePage,
    Settings,
    job_reply,
    pool_of,
    warm_lanes,
    warming_now,
    warming_titles,
)
from gamelab.web.headers import CONTENT_SECURITY_POLICY, SECURITY_HEADERS
from gamelab.web.pool import BudgetExceeded, SolverPool, StillWarming, WorkerDied, call_by_name

log = logging.getLogger("gamelab.web")

__all__ = ["CONTENT_SECURITY_POLICY", "create_app", "discover_games"]

_HERE = files("gamelab.web")


def discover_games() -> list[tuple[GamePage, Any]]:
    """(page, router) of every registered game that has a web module (its record's ``page``),
    in the order of the registry (:func:`gamelab.core.state.registered_games`)."""
    found = []
    for info in registered_games():
        name = info.page
        if not name:
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue  # this game has no page yet
            raise
        found.append((module.PAGE, module.router))
    return found


#: in the specs of :func:`_warm_in_a_process`: the functions before it are done (the child
#: says so on its stdout, and the parent calls `reached`)
REACHED = "--reached"

_WARM_CHILD = f"""import sys
from gamelab.web.pool import call_by_name
for s in sys.argv[1:]:
    if s == {REACHED!r}:
        sys.stdout.write("\\n" + {REACHED!r} + "\\n")
        sys.stdout.flush()
    else:
        call_by_name(s)
"""


def _warm_in_a_process(
    specs: list[str],
    stopping: threading.Event,
    reached: Callable[[], None] | None = None,
) -> None:
    """Call the warm-up functions `specs` (``"module:function"``) in a child process: numba
    compiles (or loads) there and writes its cache, and the server's threads stay free. The
    child is killed when the server stops (`stopping`) first. Where `specs` holds
    :data:`REACHED`, `reached()` is called (in a thread of this process) as soon as the
    functions before it are done, while the child goes on with the rest."""
    child = subprocess.Popen(
        [sys.executable, "-c", _WARM_CHILD, *specs],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )

    def listen() -> None:  # the child's stdout: the marks, and anything a warm-up printed
        assert child.stdout is not None
        for line in child.stdout:
            if line.rstrip("\n") == REACHED and reached is not None and not stopping.is_set():
                reached()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    stderr = child.stderr
    assert stderr is not None
    errors: collections.deque[str] = collections.deque(maxlen=20)  # the last lines
    drain = threading.Thread(target=lambda: errors.extend(stderr), daemon=True)
    drain.start()
    while True:
        try:
            child.wait(timeout=0.5)
            break
        except subprocess.TimeoutExpired:
            if stopping.is_set():
                child.kill()
                child.wait()
                raise asyncio.CancelledError() from None
    listener.join()
    drain.join()
    if child.returncode != 0:
        last = ("".join(errors).strip().splitlines() or ["?"])[-1]
        shown = ", ".join(s for s in specs if s != REACHED)
        raise RuntimeError(f"warm-up {shown} failed: {last}")


def _message(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _required_fields(request: Request | None) -> list[str]:
    """The fields a route's JSON body must have (none when the route has no body model)."""
    route = request.scope.get("route") if request is not None else None
    field = getattr(route, "body_field", None)
    model = getattr(getattr(field, "field_info", None), "annotation", None)
    fields = getattr(model, "model_fields", None) or {}
    return [name for name, info in fields.items() if info.is_required()]


def _unreadable_body(cause: BaseException | None) -> str:
    """Why a request body could not be read, when the JSON parser gave up on it: JSON within
    the syntax but beyond the reader's limits is not called invalid."""
    if isinstance(cause, RecursionError):
        return (
            "the request body is nested too deeply to read (no request needs more than a few "
            "levels of nesting)"
        )
    if isinstance(cause, ValueError) and "digits" in str(cause):
        return "the request body has a number with more digits than can be read (at most 4,300)"
    return "the request body is not valid JSON (UTF-8 text expected)"


def _as_number(value: object) -> object:
    """A string that pydantic reads as a float (``"NaN"``, ``"-inf"``) as that float: its
    bound check then fails for a reason the message must name instead."""
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            pass
    return value


#: The request parser's phrases (pydantic's "Input should be ...") as the command line says
#: the same: the value, then the bound it crossed or what was expected.
_BOUND_WORDS = (
    (re.compile(r"^Input should be greater than or equal to (\S+)$"), "at least"),
    (re.compile(r"^Input should be less than or equal to (\S+)$"), "at most"),
    (re.compile(r"^Input should be greater than (\S+)$"), "more than"),
    (re.compile(r"^Input should be less than (\S+)$"), "less than"),
)
_TYPE_WORDS = (
    ("Input should be a valid integer", "a whole number"),
    ("Input should be a valid number", "a number"),
)


def _in_words(msg: str, value: object) -> str:
    shown = repr(value) if isinstance(value, str) else str(value)
    for pattern, side in _BOUND_WORDS:
        found = pattern.match(msg)
        if found:
            return f"{shown} is not allowed: {side} {found.group(1)}"
    for phrase, kind in _TYPE_WORDS:
        if msg.startswith(phrase):
            return f"{shown} is not {kind}"
    return msg


def _readable(
    exc: RequestValidationError, request: Request | None = None
) -> tuple[str, str | None]:
    """One line for the first problem of a request, and the field it concerns."""
    errors = exc.errors()
    if not errors:
        return "invalid request", None
    err = errors[0]
    loc = [str(part) for part in err.get("loc", ()) if part != "body"]
    if err.get("type") == "json_invalid":
        return "the request body is not valid JSON", None
    if err.get("type") == "missing" and not loc:  # no body at all
        required = _required_fields(request)
        wanted = (
            f"a JSON object with {', '.join(required)}"
            if required
            else "a JSON object ({} for the defaults)"
        )
        return f"the request body is empty: {wanted} is expected", None
    where = ".".join(loc)
    msg = err.get("msg", "invalid value")
    value = _as_number(err.get("input"))
    if err.get("type") == "missing":
        msg = "this field is required"
    elif err.get("type") == "extra_forbidden":  # whatever its value: the name is the problem
        msg = "unknown field"
    elif isinstance(value, float) and not math.isfinite(value):
        msg = "NaN is not a number" if math.isnan(value) else "only finite numbers are allowed"
    elif err.get("type") == "model_attributes_type":
        return "the request body must be a JSON object", None
    else:
        msg = _in_words(msg, err.get("input"))
    field = loc[0] if loc else None
    return (f"{where}: {msg}" if where else msg), field


#: /api/docs: Swagger UI from the installed swagger-ui-bundle, started by static/api-docs.js
#: (FastAPI's own docs page starts it with an inline script, which the policy refuses).
API_DOCS_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>gamelab API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/api/docs-assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs-assets/swagger-ui-bundle.js"></script>
<script src="/static/api-docs.js?v={version}"></script>
</body>
</html>
"""


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """ASGI middleware: request bodies over `limit` bytes get 413 before the app sees them."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and not length.isdigit():
            await self._reject(send, receive, drain=False)
            return
        declared = int(length) if length is not None else None
        declared_too_big = declared is not None and declared > self.limit
        body = b""
        more = not declared_too_big
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                await self._reject(send, receive, drain=more)
                return
        if declared_too_big:
            await self._reject(
                send, receive, drain=declared is not None and declared <= self.DRAIN * self.limit
            )
            return
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    #: an oversized body up to this many times the limit is read and dropped before the 413, so
    #: the client (still sending) receives the answer instead of a reset connection
    DRAIN = 32

    async def _reject(self, send: Any, receive: Any, drain: bool) -> None:
        if drain:
            seen = 0
            while seen <= self.DRAIN * self.limit:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                seen += len(message.get("body", b""))
                if not message.get("more_body", False):
                    break
        response = JSONResponse(
            {"detail": f"request body too large: at most {self.limit // 1024} KB"},
            status_code=413,
            headers={"connection": "close"},
        )
        await response({"type": "http"}, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app with every game page found by :func:`discover_games`."""
    settings = settings or Settings()
    games = discover_games()
    preload = sorted({m for page, _ in games for m in page.preload})

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        # Warm the games one by one, each in a process of its own (a cold numba cache is
        # compiled there once), in `warm_lanes` side by side, cheapest first. The solver pool
        # starts as soon as the first game is warm and takes each next game's warm-up as it
        # comes, so every game serves exact answers as soon as its own kernels are ready.
        stopping = threading.Event()
        # two lanes at most (the server and its solver processes need the other cores), and
        # one when the app warms before it serves (tests: in this process, one at a time)
        n = min(2, os.cpu_count() or 1) if settings.background_warmup else 1
        lanes = warm_lanes([page for page, _ in games], n)
        lock = threading.Lock()  # one game at a time joins the pool
        marking = threading.Lock()  # the sets of cold games change one game at a time
        started = time.monotonic()

        def say(what: str, how: str = "") -> None:  # `gamelab serve`'s console: how far it is
            if settings.background_warmup:
                still = warming_now(app.state)
                rest = f"; still warming: {', '.join(still)}" if still else ""
                elapsed = time.monotonic() - started
                line = f"gamelab web app: {what} after {elapsed:.0f} s{how}{rest}"
                print(line, file=sys.stderr, flush=True)

        def join_pool(page: GamePage, specs: list[str]) -> None:
            with lock:
                pool: SolverPool | None = app.state.starting_pool
                if pool is None:
                    pool = SolverPool(
                        settings.workers,
                        preload=preload,
                        warmers=page.warmup.pool,
                        prefork_warmers=page.warmup.prefork,
                    )
                    app.state.starting_pool = pool
                    pool.wait_ready(timeout=600.0)
                else:
                    pool.add_warmers(specs)
                if stopping.is_set():  # the server stopped meanwhile
                    raise asyncio.CancelledError()
                with marking:
                    app.state.cold = app.state.cold - {page.game}
                    app.state.server_cold = app.state.server_cold - {page.game}
                app.state.pool = pool  # this game (and those before) now served exactly
                if app.state.cold:  # the last game's line is "every solver is warm"
                    say(f"{page.title} is warm")

        def serve_in_server(page: GamePage) -> None:
            # the page's in-server calls have what they need (its warm-up's `server` and `build`)
            with marking:
                app.state.server_cold = app.state.server_cold - {page.game}
            say(f"{page.title} is partly warm", " (what the server answers itself)")

        def warm_lane(lane: list[GamePage]) -> None:
            for page in lane:
                if stopping.is_set():
                    raise asyncio.CancelledError()
                specs = [*page.warmup.prefork, *page.warmup.pool]
                if specs and settings.background_warmup:
                    # in a child process: the server's own threads keep the GIL free
                    if page.warmup.server:
                        first = [*page.warmup.server, *page.warmup.build, REACHED]
                        _warm_in_a_process(
                            [*first, *specs],
                            stopping,
                            reached=functools.partial(serve_in_server, page),
                        )
                    else:
                        _warm_in_a_process([*specs, *page.warmup.build], stopping)
                elif specs:
                    for spec in dict.fromkeys([*page.warmup.server, *specs]):
                        call_by_name(spec)
                join_pool(page, specs)

        def warm_up() -> SolverPool:
            failures: list[BaseException] = []

            def run(lane: list[GamePage]) -> None:
                try:
                    warm_lane(lane)
                except BaseException as exc:  # noqa: BLE001 - raised below, in this thread
                    failures.append(exc)
                    stopping.set()  # the other lanes stop too

            threads = [threading.Thread(target=run, args=(lane,)) for lane in lanes[1:]]
            for thread in threads:
                thread.start()
            run(lanes[0] if lanes else [])
            for thread in threads:
                thread.join()
            pool = app.state.starting_pool
            if failures:
                if pool is not None and app.state.pool is not pool:
                    pool.close()
                raise failures[0]
            if pool is None:  # no game at all
                pool = app.state.starting_pool = SolverPool(settings.workers)
                pool.wait_ready(timeout=600.0)
            return pool

        app.state.pool = app.state.starting_pool = None
        app.state.cold = frozenset(page.game for page, _ in games)  # not served exactly yet
        app.state.server_cold = app.state.cold  # their in-server calls neither
        app.state.titles = {page.game: page.title for page, _ in games}
        app.state.rests = {page.game: page.warmup.rest for page, _ in games if page.warmup.server}
        if settings.background_warmup:
            if settings.ready_message:
                print(settings.ready_message, file=sys.stderr, flush=True)

            async def warm_in_background() -> None:
                try:
                    pool = await anyio.to_thread.run_sync(warm_up, abandon_on_cancel=True)
                    app.state.pool, app.state.cold = pool, frozenset()
                    app.state.server_cold = frozenset()
                    say("every solver is warm")
                except Exception:  # noqa: BLE001 - logged; heavy calls keep answering 503
                    log.exception("warming up the solvers failed")

            task = asyncio.ensure_future(warm_in_background())
        else:
            app.state.pool = await anyio.to_thread.run_sync(warm_up)
            app.state.cold = app.state.server_cold = frozenset()
            if settings.ready_message:
                print(settings.ready_message, file=sys.stderr, flush=True)
        try:
            yield
        finally:
            if settings.background_warmup:
                stopping.set()  # an abandoned warm-up thread closes what it started
                task.cancel()
            if app.state.pool is not None:
                app.state.pool.close()

    app = FastAPI(
        title="gamelab",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,  # served below from the installed swagger-ui-bundle (no CDN)
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.settings = settings
    app.state.pages = [page for page, _ in games]
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")

    def render(request: Request, template: str, **context: Any) -> HTMLResponse:
        base = {"pages": app.state.pages, "version": __version__, "budget": settings.budget}
        return templates.TemplateResponse(request, template, {**base, **context})

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home(request: Request) -> HTMLResponse:
        return render(request, "home.html", page=None)

    # /api/docs works without internet: Swagger UI's assets come from the installed package
    app.mount("/api/docs-assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")

    @app.get("/api/docs", response_class=HTMLResponse, include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return HTMLResponse(API_DOCS_HTML.format(version=__version__))

    @app.get("/api/jobs/{job}", tags=["server"])
    async def job_status(job: str, request: Request) -> Response:
        """A background job's state (``running`` with its elapsed seconds, ``done`` with the
        result, ``failed``, ``cancelled``)."""
        return job_reply(pool_of(request).job(job))

    @app.post("/api/jobs/{job}/cancel", tags=["server"])
    async def job_cancel(job: str, request: Request) -> Response:
        """Stop a background job (its solver process is replaced)."""
        return job_reply(pool_of(request).cancel(job))

    @app.head("/api/health", include_in_schema=False)
    async def health_head() -> Response:
        return Response(status_code=200)

    @app.get("/api/health", tags=["server"])
    async def health() -> dict:
        """A trivial answer (no computation): for monitoring and the load benchmark. `warming`
        lists the games whose solvers are still warming up (just after ``gamelab serve``
        started: their exact answers follow; the pages say so), `warming_now` the same in
        words (a game partly warm says what it is still warming), `ready` is true once none
        is."""
        warming = warming_titles(app.state)
        ready = getattr(app.state, "pool", None) is not None and not warming
        return {
            "status": "ok",
            "version": __version__,
            "ready": ready,
            "warming": warming,
            "warming_now": warming_now(app.state),
        }

    for page, router in games:
        app.include_router(router, prefix=f"/api/{page.game}", tags=[page.game])

        async def game_page(request: Request, page: GamePage = page) -> HTMLResponse:
            return render(request, f"{page.game}.html", page=page)

        app.add_api_route(
            page.path,
            game_page,
            methods=["GET"],
            response_class=HTMLResponse,
            include_in_schema=False,
        )

    @app.exception_handler(ValueError)
    async def value_error(request: Request, exc: ValueError) -> JSONResponse:
        body: dict[str, Any] = {"detail": _message(exc)}
        field = getattr(exc, "field", None)
        if field:
            body["field"] = field
        return JSONResponse(body, status_code=422)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        detail, field = _readable(exc, request)
        body: dict[str, Any] = {"detail": detail}
        if field:
            body["field"] = field
        return JSONResponse(body, status_code=422)

    @app.exception_handler(BudgetExceeded)
    async def over_budget(request: Request, exc: BudgetExceeded) -> JSONResponse:
        # a computation that ran out of time, or one that could not start: the server is busy
        busy = not exc.started and not isinstance(exc, StillWarming)
        subject = "the server is busy:" if busy else "the computation"
        body: dict[str, Any] = {"detail": f"{subject} {_message(exc)}"}
        headers = None
        if isinstance(exc, StillWarming):  # kit.js waits for the game's warm-up, then asks again
            body["warming"] = exc.title
            headers = {"retry-after": "2"}
        return JSONResponse(body, status_code=503, headers=headers)

    @app.exception_handler(WorkerDied)
    async def worker_died(request: Request, exc: WorkerDied) -> JSONResponse:
        return JSONResponse({"detail": f"{_message(exc)}; please try again"}, status_code=503)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and not request.url.path.startswith("/api/"):
            # a person followed a link or typed an address: a page, not JSON
            response = render(request, "not_found.html", page=None, path=request.url.path)
            response.status_code = 404
            return response
        detail = exc.detail
        if exc.status_code == 400 and "parsing the body" in str(detail):
            detail = _unreadable_body(exc.__cause__)
        return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return JSONResponse({"detail": "internal error"}, status_code=500)

    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(SecurityHeaders)
    return app
