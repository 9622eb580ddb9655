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

# Found by this test and left to the analysis routes' owners (issue 17 report): generated
# inputs give 500s there. Marked xfail (not strict: the generator does not hit them every run),
# so they stay visible in the summary; remove an entry once its route validates its input.
KNOWN_FINDINGS = {
    "POST /api/v1/analysis/factorial": "ragged responses: numpy ValueError (inhomogeneous)",
    "POST /api/v1/analysis/mva/bounds": "non-finite results fail response validation",
    "POST /api/v1/analysis/statistics/repetitions": "non-finite statistics fail response model",
    "POST /api/v1/analysis/laws/interactive": "non-finite results fail response validation",
    "POST /api/v1/analysis/laws/little": "None (NaN) where the response needs a number",
    "POST /api/v1/analysis/breakdown": "non-finite results fail response validation",
    "POST /api/v1/analysis/mva": "think time near 1e308: non-finite results fail validation",
}

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
def test_api_fuzz(case: Any, fuzz_server: ApiServer, request: pytest.FixtureRequest) -> None:
    known = KNOWN_FINDINGS.get(case.operation.label)
    if known is not None:
        request.applymarker(pytest.mark.xfail(reason=f"known 500: {known}", strict=False))
    case.call_and_validate(
        base_url=fuzz_server.url,
        headers={"Authorization": f"Bearer {TOKEN}"},
        checks=[not_a_server_error, four_xx_is_json_naming_the_field],
        timeout=60,
    )
