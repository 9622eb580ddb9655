"""Live progress of an experiment as server-sent events (run states, per-second throughput).

The worker publishes JSON events to Redis channel `mcscope:experiment:<id>`; this route
relays them. The first event is a snapshot of run counts per status, so a progress bar can
start right away; a comment line every KEEPALIVE_S keeps proxies from closing the stream.
"""

import json
from collections.abc import AsyncIterator

import redis.asyncio as aioredis
from fastapi import APIRouter, HTTPException, Query, status
from fastapi.responses import StreamingResponse
from sqlalchemy import func, select

from backend.api.deps import SessionDep
from backend.core.config import settings
from backend.models import Experiment, Run

router = APIRouter(prefix="/experiments", tags=["live"])

KEEPALIVE_S = 15.0


def _channel(experiment_id: int) -> str:
    # Same name as worker.live.publish.channel (the API imports no worker code).
    return f"mcscope:experiment:{experiment_id}"


def _sse(event: str, data: object) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


async def _relay(
    experiment_id: int, snapshot: dict[str, int], max_events: int | None
) -> AsyncIterator[str]:
    client = aioredis.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub()
    try:
        await pubsub.subscribe(_channel(experiment_id))
        yield _sse("snapshot", {"experiment_id": experiment_id, "runs": snapshot})
        sent = 0
        while max_events is None or sent < max_events:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=KEEPALIVE_S)
            if message is None:
                yield ": keepalive\n\n"
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
def stream_events(
    session: SessionDep,
    experiment_id: int,
    max_events: int | None = Query(default=None, ge=1, le=100_000),
) -> StreamingResponse:
    """Stream run state changes and live throughput of an experiment (text/event-stream)."""
    if session.get(Experiment, experiment_id) is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Experiment not found")
    counts = session.execute(
        select(Run.status, func.count())
        .where(Run.experiment_id == experiment_id)
        .group_by(Run.status)
    ).all()
    snapshot = {s.value: int(n) for s, n in counts}
    return StreamingResponse(
        _relay(experiment_id, snapshot, max_events),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
