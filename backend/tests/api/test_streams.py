"""Live event streams are bounded: they hold no database connection while streaming, are
capped per client and in lifetime, and 30 of them leave the API answering (real uvicorn)."""

import contextlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from backend.tests.utils.server import ApiServer

STREAMS = 30


@pytest.fixture(scope="module")
def experiment_id(client: "httpx.Client") -> int:  # the TestClient, to create the row
    from backend.tests.utils.experiment import create_random_experiment

    return int(create_random_experiment(client)["id"])  # type: ignore[arg-type]


@pytest.fixture()
def server(request: pytest.FixtureRequest, tmp_path: Path, database: str) -> Iterator[ApiServer]:
    env = getattr(request, "param", {})
    srv = ApiServer(tmp_path, **env).start()
    try:
        yield srv
    finally:
        srv.stop()


_readers: list[Iterator[str]] = []


def _first_event(response: httpx.Response) -> str:
    # The line iterator is kept: dropping it would close the connection under the test.
    lines = response.iter_lines()
    _readers.append(lines)
    for line in lines:
        if line.startswith("event:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError("stream ended before any event")


@pytest.mark.parametrize(
    "server", [{"MCSCOPE_STREAMS_PER_CLIENT": "64", "MCSCOPE_STREAMS_TOTAL": "64"}], indirect=True
)
def test_thirty_open_streams_leave_the_api_answering(server: ApiServer, experiment_id: int) -> None:
    # The database pool holds 15 connections: streams that kept their session would exhaust it.
    with httpx.Client(base_url=server.url, timeout=30) as http, contextlib.ExitStack() as stack:
        for _ in range(STREAMS):
            r = stack.enter_context(
                http.stream("GET", f"/api/v1/experiments/{experiment_id}/events")
            )
            assert r.status_code == 200
            assert _first_event(r) == "snapshot"
        for _ in range(3):
            listing = http.get("/api/v1/experiments", params={"limit": 5})
            assert listing.status_code == 200, listing.text
            assert http.get(f"/api/v1/experiments/{experiment_id}").status_code == 200
        _readers.clear()


@pytest.mark.parametrize("server", [{"MCSCOPE_STREAMS_PER_CLIENT": "2"}], indirect=True)
def test_streams_are_capped_per_client_and_slots_come_back(
    server: ApiServer, experiment_id: int
) -> None:
    url = f"/api/v1/experiments/{experiment_id}/events"
    with httpx.Client(base_url=server.url, timeout=30) as http:
        with http.stream("GET", url) as a, http.stream("GET", url) as b:
            assert _first_event(a) == _first_event(b) == "snapshot"
            with http.stream("GET", url) as third:
                assert third.status_code == 429
                assert "at most 2" in third.read().decode()
        _readers.clear()
        # Both closed by the client: their slots are free again.
        for _ in range(20):
            with http.stream("GET", url) as again:
                if again.status_code == 200:
                    assert _first_event(again) == "snapshot"
                    break
        else:
            raise AssertionError("stream slots were not released")


@pytest.mark.parametrize("server", [{"MCSCOPE_STREAM_MAX_S": "1"}], indirect=True)
def test_streams_end_after_their_lifetime(server: ApiServer, experiment_id: int) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        with http.stream("GET", f"/api/v1/experiments/{experiment_id}/events") as r:
            lines = list(r.iter_lines())  # returns only because the server ends the stream
    assert any(line == "event: snapshot" for line in lines)


@pytest.mark.parametrize("server", [{"MCSCOPE_STREAM_AUTH_CHECK_S": "0.5"}], indirect=True)
def test_a_stream_ends_when_its_token_is_revoked(server: ApiServer, experiment_id: int) -> None:
    from sqlalchemy import delete

    from backend.core import tokens
    from backend.core.db import SessionLocal
    from backend.models import ApiToken

    with SessionLocal() as session:
        token = tokens.create(session, "viewer")
    try:
        auth = {"Authorization": f"Bearer {token}"}
        url = f"/api/v1/experiments/{experiment_id}/events"
        with httpx.Client(base_url=server.url, timeout=30) as http:
            with http.stream("GET", url, headers=auth) as r:
                assert r.status_code == 200
                lines = r.iter_lines()
                assert next(line for line in lines if line.startswith("event:")) == (
                    "event: snapshot"
                )
                with SessionLocal() as session:
                    assert tokens.revoke(session, "viewer")
                # Returns only because the server ends the stream (else: read timeout).
                rest = list(lines)
            assert "event: unauthorized" in rest
            assert http.get(url, headers=auth).status_code == 401
    finally:
        with SessionLocal() as session:
            session.execute(delete(ApiToken))
            session.commit()


@pytest.mark.parametrize("server", [{"MCSCOPE_STREAMS_PER_CLIENT": "2"}], indirect=True)
def test_a_spoofed_forwarded_for_does_not_make_another_client(
    server: ApiServer, experiment_id: int
) -> None:
    url = f"/api/v1/experiments/{experiment_id}/events"
    spoof = [{"X-Forwarded-For": f"10.0.0.{i}"} for i in (1, 2, 3)]
    with httpx.Client(base_url=server.url, timeout=30) as http:
        with (
            http.stream("GET", url, headers=spoof[0]) as a,
            http.stream("GET", url, headers=spoof[1]) as b,
        ):
            assert _first_event(a) == _first_event(b) == "snapshot"
            with http.stream("GET", url, headers=spoof[2]) as third:
                assert third.status_code == 429, "X-Forwarded-For made a new client"
        _readers.clear()


@pytest.mark.parametrize(
    "server",
    [{"MCSCOPE_STREAMS_PER_CLIENT": "1", "MCSCOPE_TRUSTED_PROXIES": '["127.0.0.1"]'}],
    indirect=True,
)
def test_a_trusted_proxy_names_the_client(server: ApiServer, experiment_id: int) -> None:
    url = f"/api/v1/experiments/{experiment_id}/events"
    with httpx.Client(base_url=server.url, timeout=30) as http:
        with http.stream("GET", url, headers={"X-Forwarded-For": "10.0.0.1"}) as a:
            assert _first_event(a) == "snapshot"
            with http.stream("GET", url, headers={"X-Forwarded-For": "10.0.0.2"}) as b:
                assert b.status_code == 200 and _first_event(b) == "snapshot"
            with http.stream("GET", url, headers={"X-Forwarded-For": "10.0.0.1"}) as again:
                assert again.status_code == 429
        _readers.clear()


def test_the_access_log_has_no_query_strings(tmp_path: Path, database: str) -> None:
    server = ApiServer(tmp_path, log_level="info").start()
    try:
        secret = "mcs_" + "s3cr3t" * 8
        r = httpx.get(f"{server.url}/api/v1/experiments", params={"q": secret, "limit": 5})
        assert r.status_code == 200
    finally:
        server.stop()
    log = server.log_path.read_text()
    lines = [line for line in log.splitlines() if "GET /api/v1/experiments" in line]
    assert lines, log[-2000:]
    assert all('"GET /api/v1/experiments HTTP/1.1" 200' in line for line in lines), lines
    assert secret not in log and "limit=" not in log
