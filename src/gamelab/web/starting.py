"""The app ``gamelab serve`` listens with from its first second, while the real one loads.

Importing the web app and the game libraries behind it (numpy, scipy, numba, FastAPI, the
games' tables) takes seconds, more on a busy machine; a server that only listens after that
looks dead. :class:`StartingApp` is a plain ASGI app (it imports nothing heavy) that uvicorn
serves at once: it answers ``/api/health`` (``ready: false``), gives pages a short "starting"
page that reloads itself and API calls a 503 with ``Retry-After``, while a thread builds the
real app. Then it starts the real app's lifespan (its background warm-up) and hands every
request to it; on shutdown it stops the real app's lifespan first.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from typing import Any

#: /api/health while the web app loads (the same fields as the real answer)
STARTING_WARMING = ["the web app (loading)"]

_STARTING_PAGE = b"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="1">
<title>gamelab is starting</title></head>
<body><h1>gamelab is starting</h1>
<p>The server is loading its games; this page reloads by itself in a moment.</p>
</body></html>
"""


class StartingApp:
    """ASGI app that serves at once and hands over to the app `build()` returns (built in a
    thread). `headers`: sent with its own answers (the real app adds its own)."""

    def __init__(
        self,
        build: Callable[[], Any],
        version: str,
        headers: list[tuple[bytes, bytes]] | None = None,
    ) -> None:
        self._build = build
        self._version = version
        self._headers = list(headers or [])
        self.app: Any = None  # the real app, once built and started
        self.error: BaseException | None = None
        self._lifespan: asyncio.Task | None = None
        self._to_app: asyncio.Queue | None = None
        self._from_app: asyncio.Queue | None = None

    # -- the real app's lifespan, driven by this one ---------------------------------------
    async def _start(self) -> None:
        loop = asyncio.get_running_loop()
        built: Any = None
        try:
            built = await loop.run_in_executor(None, self._build)
        except BaseException as exc:  # noqa: BLE001 - reported on every request
            self.error = exc
            print(f"error: the web app failed to start: {exc}", file=sys.stderr, flush=True)
            return
        self._to_app, self._from_app = asyncio.Queue(), asyncio.Queue()
        to_app, from_app = self._to_app, self._from_app

        async def receive() -> dict:
            return await to_app.get()

        async def send(message: dict) -> None:
            await from_app.put(message)

        self._lifespan = asyncio.ensure_future(
            built({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, receive, send)
        )
        await to_app.put({"type": "lifespan.startup"})
        reply = await from_app.get()
        if reply["type"] != "lifespan.startup.complete":
            self.error = RuntimeError(reply.get("message") or "the web app did not start")
            return
        self.app = built

    async def _stop(self) -> None:
        if self.app is None or self._to_app is None or self._from_app is None:
            return
        await self._to_app.put({"type": "lifespan.shutdown"})
        await self._from_app.get()
        if self._lifespan is not None:
            await asyncio.wait([self._lifespan], timeout=5)

    # -- ASGI ------------------------------------------------------------------------------
    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            starting: asyncio.Task | None = None
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    starting = asyncio.ensure_future(self._start())
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    if starting is not None and not starting.done():
                        starting.cancel()  # (the build thread is abandoned: the process ends)
                    else:
                        await self._stop()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if self.app is not None:
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # websockets: none yet
            return
        await self._answer(scope, send)

    async def _answer(self, scope: dict, send: Any) -> None:
        path = scope.get("path", "")
        if self.error is not None:
            status, body, kind = 500, _detail(f"the web app failed to start: {self.error}"), "json"
        elif path == "/api/health":
            health = {
                "status": "ok",
                "version": self._version,
                "ready": False,
                "warming": STARTING_WARMING,
            }
            status, body, kind = 200, json.dumps(health, separators=(",", ":")).encode(), "json"
        elif path.startswith("/api/") or path.startswith("/static/"):
            status, body, kind = (
                503,
                _detail("the server is starting: try again in a moment"),
                "json",
            )
        else:
            status, body, kind = 503, _STARTING_PAGE, "html"
        content_type = b"application/json" if kind == "json" else b"text/html; charset=utf-8"
        headers = [
            (b"content-type", content_type),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"),
            *self._headers,
        ]
        if status == 503:
            headers.append((b"retry-after", b"1"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if scope.get("method") == "HEAD":
            body = b""
        await send({"type": "http.response.body", "body": body})


def _detail(message: str) -> bytes:
    return json.dumps({"detail": message}, separators=(",", ":")).encode()
