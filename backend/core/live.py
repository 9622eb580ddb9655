"""Names of the Redis pub/sub channels live events travel on: the worker publishes there
(worker/live/publish.py) and the API's event stream subscribes (backend/api/routes/live.py).

Experiment ids restart at 1 in every database, and several instances (two checkouts, the test
and e2e databases) often share one Redis: the channel carries the database name, so an
instance never relays another instance's experiment 1 as its own.
"""

from sqlalchemy.engine import make_url

from backend.core.config import settings


def experiment_channel(experiment_id: int, database_url: str | None = None) -> str:
    """`mcscope:<database>:experiment:<id>`; the database is this instance's unless given."""
    database = make_url(database_url or settings.DATABASE_URL).database or ""
    return f"mcscope:{database}:experiment:{experiment_id}"
