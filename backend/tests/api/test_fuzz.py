"""Schemathesis over the OpenAPI document against the real stack: uvicorn on a free port, this
session's PostgreSQL database, Redis, authentication on. A bounded number of generated requests
per operation: no 5xx, and every 4xx is JSON with a `detail`; a 422 names the field (`loc`)."""

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from backend.main import app
from backend.tests.utils.server import ApiServer

TOKEN = "mcs_" + secrets.token_urlsafe(32)
EXAMPLES_PER_OPERATION = 10

schema = schemathesis.openapi.from_dict(app.openapi())


@pytest.fixture(scope="module")
def fuzz_server(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    # A stream that finds an experiment ends after a second instead of holding the test.
    srv = ApiServer(
        tmp_path_factory.mktemp("fuzz"), MCSCOPE_ADMIN_TOKEN=TOKEN, MCSCOPE_STREAM_MAX_S="1"
    ).start()
    try:
        yield srv
    finally:
        srv.stop()


def four_xx_is_json_naming_the_field(ctx: Any, response: Any, case: Any) -> None:
    if not 400 <= response.status_code < 500:
        return
    body = response.json()  # raises on a non-JSON error body
    assert isinstance(body, dict) and "detail" in body, f"4xx without detail: {body!r}"
    if response.status_code == 422:
        items = body["detail"]
        assert isinstance(items, list) and items, f"422 without items: {body!r}"
        for item in items:
            loc = item.get("loc")
            assert isinstance(loc, list) and len(loc) >= 1 and item.get("msg"), item
            # Located in the request ("body", "query", "path", "header") and, but for a
            # missing or malformed body as a whole, naming the field.
            assert loc[0] in {"body", "query", "path", "header"}, item
            assert len(loc) >= 2 or loc[0] == "body", item


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    # The same examples every run: CI's verdict must not depend on the draw.
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_fuzz(case: Any, fuzz_server: ApiServer) -> None:
    case.call_and_validate(
        base_url=fuzz_server.url,
        headers={"Authorization": f"Bearer {TOKEN}"},
        checks=[not_a_server_error, four_xx_is_json_naming_the_field],
        timeout=60,
    )
