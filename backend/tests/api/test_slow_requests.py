"""Slow requests are logged with their method, path (no query string), status and time
(backend/api/slow_requests.py), and while still unanswered: on the app as served, and by the
middleware alone with a threshold every request passes (0), none reaches (an hour), or that a
request held until its warning is seen passes, so no test here depends on how fast the machine
is."""

import asyncio
import logging
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator

import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, StreamingResponse
from starlette.routing import Route

from backend.api.slow_requests import SlowRequests
from backend.main import app


def _app(after_s: float, release: threading.Event | None = None) -> TestClient:
    async def teapot(_: object) -> PlainTextResponse:
        return PlainTextResponse("short", status_code=418)

    async def held(_: object) -> PlainTextResponse:
        assert release is not None
        while not release.is_set():  # set by the test's thread
            await asyncio.sleep(0.01)
        return PlainTextResponse("late")

    async def stream(_: object) -> StreamingResponse:
        async def parts() -> AsyncIterator[bytes]:
            yield b"first"

        return StreamingResponse(parts())

    inner = Starlette(
        routes=[Route("/tea", teapot), Route("/stream", stream), Route("/held", held)]
    )
    return TestClient(SlowRequests(inner, after_s=after_s))


def _slow(caplog: pytest.LogCaptureFixture, kind: str = "answered") -> list[str]:
    """The middleware's lines of one kind: "answered" or "unanswered" (with a threshold of 0 a
    quick request may also be logged as unanswered, depending on the event loop's order)."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "mcscope.api.slow" and f" {kind} " in r.getMessage()
    ]


def test_a_request_past_the_threshold_is_logged_with_its_time(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="mcscope.api.slow")
    r = _app(after_s=0).get("/tea?token=secret")
    assert r.status_code == 418 and r.text == "short"
    (line,) = _slow(caplog)
    assert line.startswith("slow request: GET /tea answered 418 after ") and line.endswith(" s")
    assert "secret" not in line and "?" not in line


def test_a_stream_is_timed_to_its_first_byte_and_passes_through(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="mcscope.api.slow")
    r = _app(after_s=0).get("/stream")
    assert r.text == "first"
    (line,) = _slow(caplog)
    assert "GET /stream answered 200" in line


def test_requests_under_the_threshold_are_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="mcscope.api.slow")
    assert _app(after_s=3600).get("/tea").status_code == 418
    assert _slow(caplog) == [] and _slow(caplog, "unanswered") == []


def test_a_request_not_yet_answered_is_logged_while_it_waits(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The warning comes while the request is held (a hang would never be answered), then the
    answer's own line when it is released."""
    caplog.set_level(logging.WARNING, logger="mcscope.api.slow")
    release = threading.Event()
    client = _app(after_s=0.05, release=release)
    answers: list[str] = []
    asking = threading.Thread(target=lambda: answers.append(client.get("/held?k=v").text))
    asking.start()
    try:
        deadline = time.monotonic() + 60  # against a hang only
        while not _slow(caplog, "unanswered") and time.monotonic() < deadline:
            time.sleep(0.01)
        (waiting,) = _slow(caplog, "unanswered")
        assert waiting.startswith("slow request: GET /held unanswered after ") and not answers
    finally:
        release.set()
        asking.join()
    assert answers == ["late"]
    (line,) = _slow(caplog)
    assert line.startswith("slow request: GET /held answered 200 after ") and "k=v" not in line


def test_the_served_app_times_its_requests() -> None:
    # Outermost, so the time includes every other middleware's work.
    outermost: object = app.user_middleware[0].cls
    assert outermost is SlowRequests


def test_the_served_log_prints_the_apps_warnings() -> None:
    """python -m backend.serve's logging configuration sends the app's warnings to uvicorn's
    handler (stderr), as uvicorn's own lines (a fresh interpreter: the configuration is global)."""
    code = (
        "import logging, logging.config; from backend.serve import log_config;"
        "logging.config.dictConfig(log_config());"
        "logging.getLogger('mcscope.api.slow')"
        ".warning('slow request: GET /x answered 200 after 9.0 s')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "WARNING:  slow request: GET /x answered 200 after 9.0 s" in done.stderr
