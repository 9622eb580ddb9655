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
