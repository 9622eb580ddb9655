"""Live events: the Redis pub/sub channels they travel on and the per-second list kept per run.

The worker publishes (worker/live/publish.py) and the API's event stream subscribes
(backend/api/routes/live.py). A progress event is also appended to its run's list, so the
live figure (backend/figures/live.py) can be drawn on the server from every second so far,
not only from the events a browser happened to receive.

Experiment ids restart at 1 in every database, and several instances (two checkouts, the test
and e2e databases) often share one Redis: channel and list names carry the database name, so
an instance never relays or draws another instance's experiment 1 as its own.
"""

import json
from typing import Any

import redis
from sqlalchemy.engine import make_url

from backend.core.config import settings

# A run's list keeps its last LIVE_SECONDS_MAX progress events (the 1 h stability trace fits
# with room) and expires LIVE_TTL_S after its last event: the live figure is for running runs.
LIVE_SECONDS_MAX = 4 * 3600
LIVE_TTL_S = 24 * 3600


def _database(database_url: str | None) -> str:
    return make_url(database_url or settings.DATABASE_URL).database or ""


def experiment_channel(experiment_id: int, database_url: str | None = None) -> str:
    """`mcscope:<database>:experiment:<id>`; the database is this instance's unless given."""
    return f"mcscope:{_database(database_url)}:experiment:{experiment_id}"


def run_live_key(run_id: int, database_url: str | None = None) -> str:
    """`mcscope:<database>:run:<id>:live`: the run's progress events, oldest first."""
    return f"mcscope:{_database(database_url)}:run:{run_id}:live"


def record_event(client: "redis.Redis", experiment_id: int, event: dict[str, Any]) -> None:
    """Publish one event on the experiment's channel; keep a progress event in its run's list."""
    payload = json.dumps({"experiment_id": experiment_id, **event})
    pipe = client.pipeline(transaction=False)
    if event.get("type") == "progress":
        key = run_live_key(int(event["run_id"]))
        pipe.rpush(key, payload)
        pipe.ltrim(key, -LIVE_SECONDS_MAX, -1)
        pipe.expire(key, LIVE_TTL_S)
    pipe.publish(experiment_channel(experiment_id), payload)
    pipe.execute()


def read_progress(client: "redis.Redis", run_id: int) -> list[dict[str, Any]]:
    """The run's kept progress events, oldest first (entries that do not parse are skipped)."""
    out = []
    for raw in client.lrange(run_live_key(run_id), 0, -1):
        try:
            event = json.loads(raw)
        except (TypeError, ValueError):
            continue
        if isinstance(event, dict):
            out.append(event)
    return out
