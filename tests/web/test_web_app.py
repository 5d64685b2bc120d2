"""The app's shared behaviour: pages discovered per game, static files, error shapes, limits."""

import json

import pytest

from gamelab.web.app import discover_games

SOLVE = "/api/voltorb/solve"
GOOD = {"rows": "4,2 8,0 4,2 4,2 5,1", "cols": "6,1 5,0 5,2 4,3 5,1", "level": 2}


def test_home_links_every_game_page(api):
    games = discover_games()
    assert "voltorb" in [page.game for page, _ in games]
    home = api.get("/")
    assert home.status_code == 200 and "text/html" in home.headers["content-type"]
    for page, _ in games:
        assert f'href="{page.path}"' in home.text
        direct = api.get(page.path)
        assert direct.status_code == 200 and page.title in direct.text


def test_static_kit_and_style_are_served(api):
    kit = api.get("/static/kit.js")
    assert kit.status_code == 200 and "export async function api" in kit.text
    assert api.get("/static/style.css").status_code == 200
    assert api.get("/api/health").json()["status"] == "ok"


def test_unknown_paths_and_files_are_404_with_a_message(api):
    for path in (
        "/nope",
        "/static/../pyproject.toml",
        "/static/%2e%2e/app.py",
        "/api/voltorb/nope",
    ):
        r = api.get(path)
        assert r.status_code == 404, path
        if path.startswith("/api/"):
            assert "detail" in r.json()
        else:  # a person's address: a page, not raw JSON (issue 24)
            assert r.headers["content-type"].startswith("text/html")
            assert "Page not found" in r.text and "{&#34;detail" not in r.text


def test_bad_requests_get_422_with_a_readable_message_and_field(api):
    r = api.post(SOLVE, json={**GOOD, "level": "x"})
    assert r.status_code == 422 and r.json()["field"] == "level"
    assert r.json()["detail"].startswith("level: ")
    r = api.post(SOLVE, json={"cols": GOOD["cols"]})
    assert r.status_code == 422 and r.json() == {
        "detail": "rows: this field is required",
        "field": "rows",
    }
    r = api.post(SOLVE, json={**GOOD, "path": "/etc/passwd"})
    assert r.status_code == 422 and r.json()["detail"] == "path: unknown field"
    r = api.post(SOLVE, content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"] == "the request body is not valid JSON"
    r = api.post(SOLVE, json=[1, 2, 3])
    assert r.status_code == 422 and r.json()["detail"] == "the request body must be a JSON object"


def test_library_value_errors_are_422_with_their_message(api):
    r = api.post(SOLVE, json={**GOOD, "level": 9})
    assert r.status_code == 422
    assert r.json() == {"detail": "level must be an integer from 1 to 8, got 9"}
    huge = api.post(SOLVE, json={**GOOD, "level": 10**40})
    assert (
        huge.status_code == 422 and "level must be an integer from 1 to 8" in huge.json()["detail"]
    )
    negative = api.post(SOLVE, json={**GOOD, "rows": "-4,2 8,0 4,2 4,2 5,1"})
    assert negative.status_code == 422 and "row 1" in negative.json()["detail"]


def test_oversized_and_garbage_bodies_are_4xx_never_500(api):
    big = json.dumps({**GOOD, "rows": "4,2 " * 20_000}).encode()
    r = api.post(SOLVE, content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "at most 64 KB" in r.json()["detail"]
    garbage = b'{"rows": "\xff\xfe\xe2\x98\x83", "cols": "\\ud800"}'
    r = api.post(SOLVE, content=garbage, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500 and r.json()["detail"]
    r = api.post(SOLVE, json={**GOOD, "rows": "☃,☃ \u0000,1 ∞,2 4,2 5,1"})
    assert r.status_code == 422 and "each entry must look like" in r.json()["detail"]
    r = api.post(SOLVE, json={**GOOD, "revealed": ["9,9=9"]})
    assert r.status_code == 422 and "rows and columns are 1-5" in r.json()["detail"]


def test_serve_says_where_it_listens(gamelab_cli):
    from gamelab.web.server import start_message

    local = start_message("127.0.0.1", 8000, 2)
    assert "http://127.0.0.1:8000/" in local and "localhost only" in local
    public = start_message("0.0.0.0", 9000, 4)
    assert "reachable from other machines" in public and "reverse proxy" in public
    help_text = gamelab_cli("serve", "--help").stdout
    assert "--host" in help_text and "--workers" in help_text and "--budget" in help_text
    bad = gamelab_cli("serve", "--port", "70000")
    # the range is the real one (issue 29 item 16), named with the option that crossed it
    assert bad.returncode == 2 and "'--port'" in bad.stderr and "1–65535" in bad.stderr


def test_huge_numbers_inside_clues_are_422(api):
    # found by benchmarks/web_load.py: an int64 overflow used to be a 500
    r = api.post(SOLVE, json={**GOOD, "rows": f"{10**30},2 8,0 4,2 4,2 5,1"})
    assert r.status_code == 422 and "a clue is a small whole number" in r.json()["detail"]


def test_serve_answers_before_its_solvers_are_warm():
    """Background warm-up (`gamelab serve`): /api/health and the pages answer at once, while
    the solvers warm up; stopping the server then abandons the warm-up (issue 23)."""
    from fastapi.testclient import TestClient

    from gamelab.web.app import create_app
    from gamelab.web.common import Settings

    app = create_app(Settings(workers=1, background_warmup=True))
    with TestClient(app, raise_server_exceptions=False) as client:
        health = client.get("/api/health").json()
        assert health["status"] == "ok" and set(health) == {
            "status",
            "version",
            "ready",
            "warming",
            "warming_now",
        }
        assert health["ready"] is False and "Voltorb Flip" in health["warming"]
        page = client.get("/voltorb")
        assert page.status_code == 200 and 'id="warming"' in page.text
        # a heavy call answered in the server's own process waits for its game's warm-up too
        # (it compiled the kernels in the server itself, beside the warm-up process)
        advise = client.post("/api/yatzy/advise", json={"rules": "yatzy", "dice": "11114"})
        assert advise.status_code == 503 and "warming up" in advise.json()["detail"], advise.text


@pytest.mark.slow
def test_serve_answers_at_once_while_the_solvers_warm_up():
    """`gamelab serve` (background warm-up): pages and /api/health answer before the solvers
    are warm; /api/health lists what is still warming, and a heavy call says so (503) until
    the pool is ready (issue 23)."""
    import time

    from fastapi.testclient import TestClient

    from gamelab.web.app import create_app
    from gamelab.web.common import Settings

    app = create_app(Settings(workers=1, background_warmup=True))
    with TestClient(app, raise_server_exceptions=False) as client:
        health = client.get("/api/health").json()
        assert health["status"] == "ok"
        assert client.get("/").status_code == 200 and client.get("/voltorb").status_code == 200
        if not health["ready"]:
            assert health["warming"], health
            body = {"rows": "4,2 8,0 4,2 4,2 5,1", "cols": "6,1 5,0 5,2 4,3 5,1", "level": 2}
            early = client.post("/api/voltorb/solve", json=body)
            assert early.status_code == 503 and "warming up" in early.json()["detail"]
        deadline = time.monotonic() + 600
        while not client.get("/api/health").json()["ready"] and time.monotonic() < deadline:
            time.sleep(0.5)
        assert client.get("/api/health").json() == {**health, "ready": True, "warming": []}


def test_serve_listens_while_the_web_app_loads():
    """Issue 23: `gamelab serve` answered its first request after 21-30 s on a busy machine
    (the web app imports every game library first). It now listens at once: /api/health says
    it is not ready, a page is a "starting" page that reloads itself, an API call a 503 with
    Retry-After; once the app is built its lifespan runs and every request goes to it, and
    stopping the server stops that lifespan."""
    import asyncio
    import json
    import threading

    from gamelab.web.headers import SECURITY_HEADERS
    from gamelab.web.starting import StartingApp

    release = threading.Event()
    lifespan: list[str] = []

    async def real(scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                lifespan.append(message["type"])
                await send({"type": message["type"] + ".complete"})
                if message["type"] == "lifespan.shutdown":
                    return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"the real app"})

    def build():
        assert release.wait(30)
        return real

    app = StartingApp(build, "9.9", SECURITY_HEADERS)

    async def get(path: str) -> tuple[int, dict, bytes]:
        sent: list[dict] = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        await app({"type": "http", "path": path, "method": "GET", "headers": []}, receive, send)
        headers = {k.decode(): v.decode() for k, v in sent[0].get("headers", [])}
        return sent[0]["status"], headers, b"".join(m.get("body", b"") for m in sent[1:])

    async def scenario():
        inbox: asyncio.Queue = asyncio.Queue()
        outbox: asyncio.Queue = asyncio.Queue()
        task = asyncio.ensure_future(app({"type": "lifespan"}, inbox.get, outbox.put))
        await inbox.put({"type": "lifespan.startup"})
        assert (await outbox.get())["type"] == "lifespan.startup.complete"  # listens now
        status, headers, body = await get("/api/health")
        health = json.loads(body)
        assert status == 200 and health["ready"] is False and health["version"] == "9.9"
        assert set(health) == {"status", "version", "ready", "warming"}
        assert "script-src 'self'" in headers["content-security-policy"]
        status, headers, body = await get("/voltorb")
        assert status == 503 and b"gamelab is starting" in body and b"refresh" in body
        status, headers, body = await get("/api/voltorb/solve")
        assert status == 503 and headers["retry-after"] == "1"
        assert "starting" in json.loads(body)["detail"]
        assert lifespan == []  # the real app is not built yet
        release.set()
        for _ in range(200):
            if app.app is not None:
                break
            await asyncio.sleep(0.05)
        assert lifespan == ["lifespan.startup"]
        assert await get("/voltorb") == (200, {}, b"the real app")
        await inbox.put({"type": "lifespan.shutdown"})
        assert (await outbox.get())["type"] == "lifespan.shutdown.complete"
        await task
        assert lifespan == ["lifespan.startup", "lifespan.shutdown"]

    asyncio.run(scenario())


def _wait_for(predicate, seconds=120.0):
    """Poll `predicate` until it holds (a timed-out wait fails the test)."""
    import time

    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_each_game_serves_exactly_as_soon_as_its_own_warm_up_is_done(monkeypatch):
    """Issue 23: the solver pool used to start only after every game had warmed, so the first
    exact answer of the cheapest game waited for the dearest game's compilation too. Now the
    games warm one by one and each serves as soon as its own warm-up is done: here the second
    game's warm-up is held back, and the first game answers from the pool meanwhile while the
    second still says it is warming up (503) and /api/health lists only it."""
    import os
    import threading

    from fastapi import APIRouter, Request
    from fastapi.testclient import TestClient

    from gamelab.core.warm import PageWarmup
    from gamelab.web import app as app_module
    from gamelab.web.common import GamePage, Settings, pool_of

    def game(name: str, warm: str) -> tuple[GamePage, APIRouter]:
        router = APIRouter()

        @router.post("/ping")
        async def ping(request: Request) -> dict:
            return {"pid": await pool_of(request).run(os.getpid, (), timeout=60, cache=False)}

        page = GamePage(
            name, name.title(), "", warmup=PageWarmup(pool=(warm,), build=("os:getcwd",))
        )
        return page, router

    pages = [game("alpha", "os:getpid"), game("beta", "os:getppid")]
    gates = {"os:getpid": threading.Event(), "os:getppid": threading.Event()}
    asked: list[list[str]] = []

    def warm_in_a_process(specs: list[str], stopping: threading.Event) -> None:
        asked.append(specs)
        gates[specs[0]].wait(60)

    monkeypatch.setattr(app_module, "discover_games", lambda: pages)
    monkeypatch.setattr(app_module, "_warm_in_a_process", warm_in_a_process)

    app = app_module.create_app(Settings(workers=1, background_warmup=True))
    with TestClient(app, raise_server_exceptions=False) as client:
        health = client.get("/api/health").json()
        assert health["ready"] is False and health["warming"] == ["Alpha", "Beta"]
        early = client.post("/api/alpha/ping")
        assert early.status_code == 503 and "Alpha is still warming up" in early.json()["detail"]
        assert early.json()["warming"] == "Alpha" and early.headers["retry-after"] == "2"
        gates["os:getpid"].set()
        _wait_for(lambda: client.get("/api/health").json()["warming"] == ["Beta"])
        alpha = client.post("/api/alpha/ping")
        assert alpha.status_code == 200 and alpha.json()["pid"] != os.getpid()  # from the pool
        beta = client.post("/api/beta/ping")
        assert beta.status_code == 503 and "Beta is still warming up" in beta.json()["detail"]
        assert client.get("/api/health").json()["ready"] is False
        gates["os:getppid"].set()
        _wait_for(lambda: client.get("/api/health").json()["ready"])
        assert client.get("/api/health").json()["warming"] == []
        assert client.post("/api/beta/ping").status_code == 200
    # the warm-up process builds the tables (`build`); the solver processes only load kernels
    assert asked == [["os:getpid", "os:getcwd"], ["os:getppid", "os:getcwd"]]


def test_a_games_calls_in_the_server_are_answered_before_its_pool_is_warm(monkeypatch, capsys):
    """Issue 23 goal 3: on a cold `gamelab serve`, Yatzy's first exact advice (answered in the
    server itself, from the coach's kernels and the tables) waited until the win-play bot's
    kernels had compiled for the pool too (60.3 s after start on an idle machine, goal 60).
    A page's `server_warm` and `build` now come first in its warm-up process, which says when
    they are done: from then on its in-server calls are answered while the pool's calls still
    say the game is warming up (503), and /api/health lists the game until the pool has it."""
    import os
    import threading

    from fastapi import APIRouter, Depends, Request
    from fastapi.testclient import TestClient

    from gamelab.core.warm import PageWarmup
    from gamelab.web import app as app_module
    from gamelab.web.common import GamePage, Settings, pool_of, require_warm

    router = APIRouter()

    @router.post("/coach", dependencies=[Depends(require_warm)])
    def coach() -> dict:
        return {"answer": 42}

    @router.post("/bot")
    async def bot(request: Request) -> dict:
        return {"pid": await pool_of(request).run(os.getpid, (), timeout=60, cache=False)}

    page = GamePage(
        "alpha",
        "Alpha",
        "",
        warmup=PageWarmup(
            pool=("os:getpid",), build=("os:getcwd",), server=("os:times",), rest="its bot"
        ),
    )
    server_part, pool_part = threading.Event(), threading.Event()
    asked: list[list[str]] = []

    def warm_in_a_process(specs, stopping, reached=None):
        asked.append(specs)
        server_part.wait(60)
        reached()  # the child says: the functions before the mark are done
        pool_part.wait(60)

    monkeypatch.setattr(app_module, "discover_games", lambda: [(page, router)])
    monkeypatch.setattr(app_module, "_warm_in_a_process", warm_in_a_process)

    app = app_module.create_app(Settings(workers=1, background_warmup=True))
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.post("/api/alpha/coach").status_code == 503
        assert client.get("/api/health").json()["warming_now"] == ["Alpha"]
        server_part.set()
        _wait_for(lambda: client.post("/api/alpha/coach").status_code == 200)
        assert client.post("/api/alpha/coach").json() == {"answer": 42}
        early = client.post("/api/alpha/bot")
        assert early.status_code == 503 and early.json()["warming"] == "Alpha"
        health = client.get("/api/health").json()
        assert health["warming"] == ["Alpha"] and health["warming_now"] == ["Alpha (its bot)"]
        pool_part.set()
        _wait_for(lambda: client.get("/api/health").json()["ready"])
        assert client.post("/api/alpha/bot").status_code == 200
    # the server's part and the tables first, then the mark, then the pool's warm-up
    assert asked == [["os:times", "os:getcwd", app_module.REACHED, "os:getpid"]]
    # and the console says how far the warm-up is
    err = capsys.readouterr().err
    assert "Alpha is partly warm after" in err and "still warming: Alpha (its bot)" in err, err
    assert "every solver is warm after" in err, err


def test_the_warm_up_process_says_when_its_first_part_is_done(tmp_path, monkeypatch):
    """The real child process: `reached` is called once the functions before the mark are
    done, while the child is still running the ones after it (here: a wait for a file that
    only `reached` writes); a failing warm-up is one error naming its functions."""
    import os
    import threading

    from gamelab.web import app as app_module

    gate = tmp_path / "go"
    marks: list[bool] = []

    def reached() -> None:
        marks.append(gate.exists())  # the child is still waiting: the file is not there yet
        gate.write_text("")

    (tmp_path / "waiting_warm.py").write_text(
        "import pathlib, time\n"
        f"def wait():\n    p = pathlib.Path({str(gate)!r})\n"
        "    for _ in range(1200):\n        if p.exists(): return\n        time.sleep(0.05)\n"
        "    raise SystemExit('never reached')\n"
    )
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), path])))
    app_module._warm_in_a_process(
        ["os:getpid", app_module.REACHED, "waiting_warm:wait"], threading.Event(), reached
    )
    assert marks == [False]
    with pytest.raises(RuntimeError, match="warm-up os:getpid, os:nope failed"):
        app_module._warm_in_a_process(["os:getpid", "os:nope"], threading.Event())
