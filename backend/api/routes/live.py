"""Live progress of an experiment as server-sent events (run states, per-second throughput).

The worker publishes JSON events to the experiment's Redis channel (backend/core/live.py, named
for this instance's database); this route relays them. The first event is a snapshot of run
counts per status, so a progress bar can start right away; a comment line every KEEPALIVE_S
keeps proxies from closing the stream.
The database is read once, before streaming, in a session closed before the first byte; the
stream ends after STREAM_MAX_S (the browser's EventSource reconnects), and open streams are
capped per client and in all (backend/api/streams.py). Every STREAM_AUTH_CHECK_S the stream
checks its bearer token again: revoked or expired, the stream ends (and its reconnection is
a 401).
"""

import json
import time
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request, status
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials

from backend.api.security import authenticate, bearer
from backend.api.streams import SlotStreamingResponse, redis_client, slots
from backend.core.config import settings
from backend.core.db import SessionLocal
from backend.core.live import experiment_channel
from backend.crud.experiment import present_run_counts
from backend.models import Experiment

router = APIRouter(prefix="/experiments", tags=["live"])

KEEPALIVE_S = 15.0


def _sse(event: str, data: object) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def _snapshot(experiment_id: int) -> dict[str, int] | None:
    with SessionLocal() as session:
        if session.get(Experiment, experiment_id) is None:
            return None
        return present_run_counts(session=session, experiment_id=experiment_id)


def _still_authorized(credentials: HTTPAuthorizationCredentials | None) -> bool:
    with SessionLocal() as session:
        try:
            authenticate(session, credentials)
        except HTTPException:
            return False
    return True


async def _relay(
    experiment_id: int,
    snapshot: dict[str, int],
    max_events: int | None,
    credentials: HTTPAuthorizationCredentials | None,
) -> AsyncIterator[str]:
    client = redis_client()
    pubsub = client.pubsub()
    now = time.monotonic()
    deadline = now + settings.STREAM_MAX_S
    next_keepalive = now + KEEPALIVE_S
    next_check = now + settings.STREAM_AUTH_CHECK_S
    try:
        await pubsub.subscribe(experiment_channel(experiment_id))
        yield _sse("snapshot", {"experiment_id": experiment_id, "runs": snapshot})
        sent = 0
        while max_events is None or sent < max_events:
            now = time.monotonic()
            if now >= deadline:
                return
            if now >= next_check:
                if not await run_in_threadpool(_still_authorized, credentials):
                    yield _sse("unauthorized", {"detail": "token revoked or expired"})
                    return
                next_check = now + settings.STREAM_AUTH_CHECK_S
            if now >= next_keepalive:
                yield ": keepalive\n\n"
                next_keepalive = now + KEEPALIVE_S
            message = await pubsub.get_message(
                ignore_subscribe_messages=True,
                timeout=max(0.0, min(next_keepalive, next_check, deadline) - now),
            )
            if message is None:
                continue
            try:
                payload = json.loads(message["data"])
            except (TypeError, ValueError):
                continue
            yield _sse(str(payload.get("type", "message")), payload)
            sent += 1
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]
        await client.aclose()


@router.get("/{experiment_id}/events")
async def stream_events(
    request: Request,
    experiment_id: int,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    max_events: int | None = Query(default=None, ge=1, le=100_000),
) -> SlotStreamingResponse:
    """Stream run state changes and live throughput of an experiment (text/event-stream)."""
    snapshot = await run_in_threadpool(_snapshot, experiment_id)
    if snapshot is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Experiment not found")
    release = slots.acquire(request.client.host if request.client else "unknown")
    return SlotStreamingResponse(
        _relay(experiment_id, snapshot, max_events, credentials),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        release=release,
    )
