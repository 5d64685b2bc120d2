"""The API's words for requests it cannot use (issue 50): valid JSON beyond the reader's limits
is not called invalid, NaN is named, an empty body names what is missing, and a busy server
says so in a sentence."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

JSON = {"content-type": "application/json"}
SOLVE = "/api/voltorb/solve"
ANALYSE = "/api/oware/analyse"


def test_valid_json_beyond_the_readers_limits_is_not_called_invalid(api):
    clues = '"rows":"4,2 8,0 4,2 4,2 5,1","cols":"6,1 5,0 5,2 4,3 5,1"'
    huge = "{" + clues + ',"level":' + "9" * 5000 + "}"
    r = api.post(SOLVE, content=huge.encode(), headers=JSON)
    assert 400 <= r.status_code < 500
    assert "not valid JSON" not in r.json()["detail"] and "digits" in r.json()["detail"]
    deep = '{"rows":' + "[" * 30000 + "]" * 30000 + "}"
    r = api.post(SOLVE, content=deep.encode(), headers=JSON)
    assert 400 <= r.status_code < 500
    assert "not valid JSON" not in r.json()["detail"] and "nested" in r.json()["detail"]


@pytest.mark.parametrize(
    "value,words", [("NaN", "NaN is not a number"), ("Infinity", "only finite numbers")]
)
def test_a_number_that_is_not_finite_is_named_as_such(api, value, words):
    body = '{"position":"start","time":' + value + "}"
    r = api.post(ANALYSE, content=body.encode(), headers=JSON)
    assert r.status_code == 422
    assert r.json() == {"detail": f"time: {words}" + ("" if value == "NaN" else " are allowed"),
                        "field": "time"}  # fmt: skip


@pytest.mark.parametrize(
    "value,words",
    [('"NaN"', "NaN is not a number"), ('"-inf"', "only finite numbers are allowed")],
)
def test_a_string_that_reads_as_a_number_that_is_not_finite_is_named_too(api, value, words):
    # pydantic reads "NaN" in a string as a float; the bound it then fails is not the reason
    body = '{"position":"start","time":' + value + "}"
    r = api.post(ANALYSE, content=body.encode(), headers=JSON)
    assert r.status_code == 422
    assert r.json() == {"detail": f"time: {words}", "field": "time"}


@pytest.mark.parametrize("value", ["1e999", '"NaN"', "3"])
def test_an_unknown_field_is_named_as_unknown_whatever_its_value(api, value):
    body = '{"position":"start","depht":' + value + "}"
    r = api.post(ANALYSE, content=body.encode(), headers=JSON)
    assert r.status_code == 422
    assert r.json() == {"detail": "depht: unknown field", "field": "depht"}


@pytest.mark.parametrize(
    "value,words",
    [
        ("20", "20 is not allowed: at most 10"),
        ("0", "0 is not allowed: more than 0"),
        ('"abc"', "'abc' is not a number"),
    ],
)
def test_a_bound_or_a_type_is_said_in_the_pages_words(api, value, words):
    # as the command line says it, not in the request parser's words ("Input should be ...")
    body = '{"position":"start","time":' + value + "}"
    r = api.post(ANALYSE, content=body.encode(), headers=JSON)
    assert r.status_code == 422
    assert r.json() == {"detail": f"time: {words}", "field": "time"}


def test_an_empty_body_names_the_fields_it_needs(api):
    r = api.post(ANALYSE, content=b"", headers=JSON)
    assert r.status_code == 422
    assert (
        r.json()["detail"] == "the request body is empty: a JSON object with position is expected"
    )


def test_the_busy_answer_reads_as_a_sentence(api):
    from gamelab.web.pool import BudgetExceeded

    app = api.app
    handler = app.exception_handlers[BudgetExceeded]

    for started, expected in (
        (False, "the server is busy: 8 other requests already waiting for a solver"),
        (True, "the computation timed out after 2 s"),
    ):
        message = (
            "8 other requests already waiting for a solver"
            if not started
            else "timed out after 2 s"
        )
        # in a thread of its own: a browser test in the same worker may hold a running loop
        with ThreadPoolExecutor(1) as thread:
            call = handler(None, BudgetExceeded(message, started=started))
            response = thread.submit(asyncio.run, call).result()
        assert response.status_code == 503
        assert expected.encode() in response.body
