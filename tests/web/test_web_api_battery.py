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

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from gamelab.yatzy.budget import REVIEW_SECONDS

#: Seconds the client waits for an answer: a hang guard, not a speed bound. The server answers
#: every route within its longest limit (a Yatzy review's, which may compute for that long and is
#: then refused) on any machine; a loaded one is slow, never wrong.
CALL_TIMEOUT = REVIEW_SECONDS + 60

#: Examples per route and generation mode: enough to reach every field's wrong types and
#: bounds, few enough for the default suite (about 30 routes).
EXAMPLES_PER_ROUTE = 12

CONFIG = SchemathesisConfig.from_str("seed = 20261201")


@pytest.fixture(scope="session")
def api_schema(budget_server):
    return schemathesis.openapi.from_url(f"{budget_server}/api/openapi.json", config=CONFIG)


def _problem(case, response) -> str | None:
    """What is wrong with the server's answer to a generated request, or None."""
    status = response.status_code
    where = f"{case.method} {case.formatted_path}"
    if status >= 500 and status != 503:
        return f"{where} answered {status}: {response.text[:300]}\n  {case.as_curl_command()}"
    if status >= 400:
        try:
            body = response.json()
        except ValueError:
            body = None
        detail = body.get("detail") if isinstance(body, dict) else None
        if not isinstance(detail, str) or not detail.strip():
            return f"{where} answered {status} without a message: {response.text[:300]}"
    return None


@pytest.mark.parametrize("mode", list(GenerationMode), ids=lambda mode: mode.value)
def test_no_generated_request_gets_a_server_error(api_schema, budget_server, mode):
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 20, "the schema lists fewer routes than the app has"
    problems: list[str] = []
    no_cases: list[str] = []
    calls: list[int] = []
    for operation in operations:

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=EXAMPLES_PER_ROUTE,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        def check(case):
            response = case.call(base_url=budget_server, timeout=CALL_TIMEOUT)
            calls.append(response.status_code)
            problem = _problem(case, response)
            if problem is None and mode is GenerationMode.NEGATIVE and response.status_code < 400:
                problem = (
                    f"{case.method} {case.formatted_path} accepted a malformed request "
                    f"({response.status_code}): {case.as_curl_command()}"
                )
            if problem is not None:
                problems.append(problem)

        try:
            check()
        except Unsatisfiable:
            # nothing to generate: a route without inputs has no malformed request
            assert mode is GenerationMode.NEGATIVE or not operation.body, operation.label
            no_cases.append(operation.label)
    assert len(calls) >= len(operations) - len(no_cases), "fewer requests than routes"
    assert not problems, f"{len(problems)} bad answers:\n" + "\n".join(sorted(set(problems)))
