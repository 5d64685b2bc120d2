"""A battery generated from the API's own OpenAPI schema (issue 22, item 9b).

Schemathesis (a maintained library made for exactly this) reads ``/openapi.json`` and, for every
route, sends requests that fit the schema and requests that break it (wrong types, missing
fields, out-of-range values, unknown fields). Whatever it sends, the server must answer with a
status below 500 — a 4xx carries ``{"detail": message}`` naming what was wrong — or, when a
solver is busy or over budget, a 503 that says so. A 500 is a bug.

The server here is the real app on a free port with the page's own 2 s budget (not the other
tests' generous one), so a valid but expensive request comes back within seconds.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
import schemathesis
from schemathesis.config import SchemathesisConfig

#: Examples per route and generation mode: enough to reach every field's wrong types and
#: bounds, few enough for the default suite (about 30 routes).
EXAMPLES_PER_ROUTE = 12

CONFIG = SchemathesisConfig.from_str(
    f"""
seed = 20261201
[generation]
mode = "all"
deterministic = true
max-examples = {EXAMPLES_PER_ROUTE}
"""
)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def battery_server():
    import uvicorn

    from gamelab.web.app import create_app
    from gamelab.web.common import Settings

    port = _free_port()
    config = uvicorn.Config(
        create_app(Settings(workers=1, budget=2.0)),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="gamelab-battery-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 600
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the battery's server did not start (see the log above)")
        if time.monotonic() > deadline:
            raise RuntimeError("the battery's server did not start within 600 s")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=30)


@pytest.fixture(scope="session")
def api_schema(battery_server):
    return schemathesis.openapi.from_url(f"{battery_server}/openapi.json", config=CONFIG)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
def test_no_generated_request_gets_a_server_error(case):
    response = case.call(timeout=60)
    status = response.status_code
    assert status < 500 or status == 503, (
        f"{case.method} {case.path} answered {status}: {response.text[:300]}\n"
        f"request: {case.as_curl_command()}"
    )
    if status >= 400:
        body = response.json()
        assert isinstance(body, dict) and isinstance(body.get("detail"), str), (
            f"{case.method} {case.path} answered {status} without a message: {response.text[:300]}"
        )
        assert body["detail"].strip(), f"{case.method} {case.path}: an empty message"
