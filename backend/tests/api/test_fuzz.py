"""Schemathesis over the OpenAPI document against the real stack: uvicorn on a free port, this
session's PostgreSQL database, Redis, authentication on. Every operation, every method, with
its examples, its coverage cases (boundaries, missing and malformed values, methods it does
not allow) and a bounded number of generated requests, positive and negative: no 5xx, and
every 4xx is JSON with a `detail`; a 422 names the field (`loc`).

The path ids point at a finished experiment with stored results (and its runs, a saved view),
so generated queries reach the analyses, figures and tables instead of stopping at a 404;
deletes and the whole-bundle operations (each renders every figure) keep generated ids.
"""

import os
import secrets
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance
from sqlalchemy import select

from backend.core.db import SessionLocal
from backend.figures.catalog import FIGURES
from backend.main import app
from backend.models import Configuration, Run
from backend.tables.catalog import TABLES
from backend.tests.utils.server import ApiServer
from backend.tests.utils.stored import stored_experiment

TOKEN = "mcs_" + secrets.token_urlsafe(32)
# `make fuzz-api` draws other examples (Schemathesis' seed: MCSCOPE_FUZZ_SEED) and more of
# them; `make test` keeps one fixed draw of 10 per operation.
FUZZ_SEED = os.environ.get("MCSCOPE_FUZZ_SEED")
ANOTHER_DRAW = bool(FUZZ_SEED)
EXAMPLES_PER_OPERATION = int(os.environ.get("MCSCOPE_FUZZ_EXAMPLES") or 10)
# Each renders every figure of the report: seconds per request, with generated ids a 404.
WHOLE_BUNDLES = {
    "/experiments/{experiment_id}/bundle.zip",
    "/experiments/{experiment_id}/report/bundle.zip",
    "/experiments/{experiment_id}/report.pdf",
}

UNUSED_ID = 2**31 - 1  # the largest id: no row of this test session reaches it
# An experiment's figures and tables, as their path parameters name them.
NAMES = {"figure": sorted(FIGURES), "table": sorted(TABLES)}

# The operations that start load or reach other hosts (SSH, Azure) are left to their own
# tests, which send traffic only to 127.0.0.1, namespaces or the fake ARM they start; every
# other operation is fuzzed, with every method (the coverage phase sends the ones it does not
# allow too).
NOT_FUZZED = {
    # Queue runs: load on the testbed once a worker takes them (test_start_broker.py,
    # test_start_large_grid.py, test_quality.py).
    ("POST", "/api/v1/experiments/{experiment_id}/start"),
    ("POST", "/api/v1/experiments/{experiment_id}/rerun-flagged"),
    # Reach the hosts of a testbed (test_testbeds.py, test_testbed_scans.py,
    # test_network_between_roles.py).
    ("POST", "/api/v1/testbeds"),
    ("POST", "/api/v1/testbeds/{testbed_id}/network"),
    ("POST", "/api/v1/testbeds/{testbed_id}/hosts/{host_id}/host-key/scan"),
    # Reach Azure (infra/tests: test_lab_actions.py, test_lab_resume.py, test_janitor*.py).
    ("POST", "/api/v1/azure-labs"),
    ("POST", "/api/v1/azure-labs/plan"),
    ("POST", "/api/v1/azure-labs/{lab_id}/stop"),
    ("POST", "/api/v1/azure-labs/{lab_id}/start"),
    ("DELETE", "/api/v1/azure-labs/{lab_id}"),
    ("GET", "/api/v1/azure-labs/untracked"),
    ("DELETE", "/api/v1/azure-labs/untracked/{name}"),
}


def _not_fuzzed(ctx: Any) -> bool:
    return (ctx.operation.method.upper(), ctx.operation.path) in NOT_FUZZED


every_operation = schemathesis.openapi.from_dict(app.openapi())
schema = every_operation.exclude(func=_not_fuzzed)
if FUZZ_SEED:
    schema.config.seed = int(FUZZ_SEED)  # each operation's draw derives from it


def _operations(s: Any) -> set[tuple[str, str]]:
    return {(op.ok().method.upper(), op.ok().path) for op in s.get_all_operations()}


def test_every_operation_but_load_and_remote_ones_is_fuzzed() -> None:
    every = _operations(every_operation)
    assert NOT_FUZZED <= every, NOT_FUZZED - every  # no stale entry
    assert _operations(schema) == every - NOT_FUZZED
    assert len(every - NOT_FUZZED) >= 80  # the API's operations, not an empty schema


@pytest.fixture(scope="module")
def fuzz_server(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    # A stream that finds an experiment ends after a second instead of holding the test. An
    # empty key folder: no generated testbed names a usable key, so registration never scans
    # a generated address (tests send traffic to 127.0.0.1 only).
    srv = ApiServer(
        tmp_path_factory.mktemp("fuzz"),
        MCSCOPE_ADMIN_TOKEN=TOKEN,
        MCSCOPE_STREAM_MAX_S="1",
        MCSCOPE_SSH_KEY_DIR=str(tmp_path_factory.mktemp("no-keys")),
    ).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def seeded_ids(client: TestClient) -> dict[str, int]:
    """Path parameter -> id of a stored object the generated requests are pointed at."""
    with SessionLocal() as db:
        exp = stored_experiment(client, db, name="Fuzzed experiment")
        run_id = db.scalar(select(Run.id).where(Run.experiment_id == exp["id"]).limit(1))
        config_id = db.scalar(
            select(Configuration.id).where(Configuration.experiment_id == exp["id"]).limit(1)
        )
    view = client.post(
        "/api/v1/views", json={"name": "Fuzzed view", "state": {"experiment_ids": [exp["id"]]}}
    )
    assert view.status_code == 201, view.text
    assert run_id is not None and config_id is not None
    return {
        "experiment_id": exp["id"],
        "run_id": run_id,
        "configuration_id": config_id,
        "view_id": view.json()["id"],
    }


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


def point_at_seeded(case: Any, ids: dict[str, int]) -> None:
    """Generated ids replaced by the seeded ones, generated figure and table names by
    registered ones (picked by a checksum of the generated name, so the same on every run);
    malformed values are left as made."""
    path = case.operation.path.removeprefix("/api/v1")
    params = case.path_parameters or {}
    if case.method.upper() == "DELETE":
        # A generated id that happens to be a seeded one must not delete it.
        for name, value in params.items():
            if name in ids and str(value) == str(ids[name]):
                params[name] = UNUSED_ID
        return
    if path in WHOLE_BUNDLES:
        return
    for name, value in params.items():
        if name in ids and str(value).isdigit():
            params[name] = ids[name]
        elif name in NAMES and path.startswith("/experiments/") and isinstance(value, str):
            names = NAMES[name]
            params[name] = names[zlib.crc32(value.encode("utf-8", "replace")) % len(names)]


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    # The same examples every run: CI's verdict must not depend on the draw.
    derandomize=not ANOTHER_DRAW,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_fuzz(case: Any, fuzz_server: ApiServer, seeded_ids: dict[str, int]) -> None:
    point_at_seeded(case, seeded_ids)
    case.call_and_validate(
        base_url=fuzz_server.url,
        headers={"Authorization": f"Bearer {TOKEN}"},
        checks=[not_a_server_error, response_schema_conformance, four_xx_is_json_naming_the_field],
        timeout=60,
    )
