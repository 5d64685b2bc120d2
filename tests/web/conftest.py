"""Fixtures for the web app's tests.

* ``api``: a FastAPI ``TestClient`` on the full app (one per test session; its solver pool is
  warmed up before the first test). ``api.post("/api/voltorb/solve", json={...})``.
* ``live_server``: the same app served by uvicorn on a free localhost port in a background
  thread; its value is the base URL (``"http://127.0.0.1:PORT"``).
* ``browser`` / ``page``: Playwright (sync API) driving Debian's ``/usr/bin/chromium`` headless;
  ``page`` is a fresh context per test (1280 x 900), with ``page.goto(live_server + "/voltorb")``
  to start. On failure a screenshot is saved as ``failure.png`` in the test's ``tmp_path`` (the
  path is printed in the report). An uncaught JavaScript error in the page fails the test.

Set ``GAMELAB_NO_BROWSER=1`` to skip the browser tests on a machine without Chromium (CI
installs it, see ``.ci/run``). ``save_screenshot(page, "voltorb-page.png")`` writes a screenshot
into the folder named by ``$GAMELAB_SCREENSHOTS`` (e.g. ``docs``) when that is set, and does
nothing otherwise: ``GAMELAB_SCREENSHOTS=docs .venv/bin/python -m pytest tests/web -k screenshot``
refreshes the README's pictures.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"

#: a JavaScript function's source (Playwright then calls it; anything else is an expression)
_FUNCTION = re.compile(r"^(async\s+)?(function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")


def _as_function(expression: str) -> str:
    """`expression` as a function: Playwright polls a plain expression with ``eval`` inside the
    page, which the server's content security policy (script-src 'self', no 'unsafe-eval')
    refuses; a function it calls through the browser's protocol, which the policy allows."""
    text = expression.strip()
    return text if _FUNCTION.match(text) else f"() => ({text})"


def _install_wait_for_function_under_csp() -> None:
    """Every ``page.wait_for_function("…")`` of these tests works under the policy (the tests'
    own polling is not the page's code; the page itself stays under the full policy)."""
    from playwright.sync_api import Page

    original = Page.wait_for_function
    if getattr(original, "under_csp", False):
        return

    def wait_for_function(self, expression, **kwargs):
        return original(self, _as_function(expression), **kwargs)

    wait_for_function.under_csp = True  # type: ignore[attr-defined]
    Page.wait_for_function = wait_for_function  # type: ignore[method-assign]


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-extensions",
]


def save_screenshot(page, name: str) -> Path | None:
    """Save a screenshot as $GAMELAB_SCREENSHOTS/name when that variable is set."""
    folder = os.environ.get("GAMELAB_SCREENSHOTS")
    if not folder:
        return None
    path = Path(folder) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    return path


#: Generous: tests check exact answers, not the fallback (test_web_pool covers that).
TEST_BUDGET = 30.0


def _settings():
    from gamelab.web.common import Settings

    return Settings(workers=1, budget=TEST_BUDGET)


@pytest.fixture(scope="session")
def api():
    from fastapi.testclient import TestClient

    from gamelab.web.app import create_app

    with TestClient(create_app(_settings()), raise_server_exceptions=False) as client:
        yield client


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(settings):
    """Serve an app with `settings` by uvicorn on a free localhost port in a background thread;
    yields its base URL, stops it afterwards."""
    import uvicorn

    from gamelab.web.app import create_app

    port = _free_port()
    config = uvicorn.Config(
        create_app(settings), host="127.0.0.1", port=port, log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="gamelab-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 600  # a cold numba cache on a loaded machine takes minutes
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the test server did not start (see the log above)")
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start within 600 s")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=30)


#: The Yatzy rule sets whose tables the pages' tests play with.
TEST_RULE_SETS = ("yatzy", "yahtzee")


@pytest.fixture(scope="session")
def yatzy_tables() -> None:
    """The test servers' Yatzy tables, ready before their first request: `gamelab serve` builds
    them in its warm-up, the test servers do not (they warm in this process, without `build`).
    On a fresh clone's empty cache the first coach answer or review would otherwise build them
    while a browser test waits (about 20 CPU-s, minutes of wall time on a loaded machine); here
    they are built (or, once on disk, loaded in a fraction of a second) in this process, which
    the test servers share, and their solver processes load them from the disk."""
    from gamelab.yatzy.rules import RULES
    from gamelab.yatzy.tables import prepare

    for name in TEST_RULE_SETS:
        prepare(RULES[name])


@pytest.fixture(scope="session")
def live_server(yatzy_tables):
    yield from _serve(_settings())


@pytest.fixture(scope="session")
def budget_server(yatzy_tables):
    """Like `live_server`, but with the page's own 2 s budget (`gamelab serve`'s default), so a
    valid but expensive request gets its fallback within seconds."""
    from gamelab.web.common import Settings

    yield from _serve(Settings(workers=1, budget=2.0))


@pytest.fixture(scope="session")
def browser():
    if os.environ.get("GAMELAB_NO_BROWSER"):
        pytest.skip("GAMELAB_NO_BROWSER is set")
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} not found: apt-get install -y chromium fonts-noto-cjk (or set GAMELAB_NO_BROWSER=1)"
        )
    from playwright.sync_api import sync_playwright

    _install_wait_for_function_under_csp()
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def pytest_collection_modifyitems(config, items):
    """A browser test gets one rerun after a failure (pytest-rerunfailures; the summary counts it
    as "rerun"): Chromium on a loaded 2-core machine can miss a frame that a player never would,
    and one such miss must not hide a whole suite's result. A test that needs its rerun more
    than once in a while has a real race: fix the test or the page (DEVELOPERS.md)."""
    for item in items:
        if item.path.name.endswith("_browser.py"):
            item.add_marker(pytest.mark.flaky(reruns=1, reruns_delay=2))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def page(browser, live_server, request, tmp_path):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    js_errors: list[str] = []
    pg.on("pageerror", lambda exc: js_errors.append(str(exc)))
    # a refusal by the server's content security policy is an error of the page too
    pg.on(
        "console",
        lambda msg: (
            js_errors.append(msg.text)
            if msg.type == "error" and "Content Security Policy" in msg.text
            else None
        ),
    )
    yield pg
    failed = any(
        getattr(request.node, f"report_{when}", None) is not None
        and getattr(request.node, f"report_{when}").failed
        for when in ("setup", "call")
    )
    if failed:
        shot = tmp_path / "failure.png"
        try:
            pg.screenshot(path=str(shot), full_page=True)
            print(f"screenshot of the failed page: {shot}")
        except Exception as exc:  # the page may be gone; the test's own error matters more
            print(f"no screenshot: {exc}")
    context.close()
    if js_errors and not failed:
        pytest.fail(f"JavaScript errors in the page: {js_errors}")


_NO_ARG = object()


def wait_until(
    page, expression: str, timeout: float = 30_000, poll: float = 0.05, arg=_NO_ARG
) -> None:
    """Wait until the JavaScript `expression` is truthy in `page` (ms `timeout`), polling it from
    here: ``page.wait_for_function`` evaluates its predicate as a string inside the page, which
    the pages' content security policy (no 'unsafe-eval') refuses; ``page.evaluate`` goes through
    the browser's debugging protocol and is allowed. `arg` is passed to a function expression."""
    deadline = time.monotonic() + timeout / 1000
    args = () if arg is _NO_ARG else (arg,)
    while not page.evaluate(expression, *args):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout / 1000:g} s waiting for {expression}")
        time.sleep(poll)


@contextmanager
def phone_page(browser, base_url: str, width: int, height: int) -> Iterator:
    """A page of a touch phone's browser `width` x `height` px wide (its own context, closed
    afterwards), with the browser tests' 15 s default timeout."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
        base_url=base_url,
    )
    context.set_default_timeout(15_000)
    try:
        yield context.new_page()
    finally:
        context.close()
