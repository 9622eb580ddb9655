"""Publishing live events to Redis pub/sub; a broken Redis never fails a run."""

import logging
import time
from typing import Any

import redis

from backend.core.config import settings
from backend.core.live import record_event

logger = logging.getLogger(__name__)

_client: redis.Redis | None = None


def _redis() -> redis.Redis:
    global _client
    if _client is None:
        _client = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2
        )
    return _client


def publish(experiment_id: int, event: dict[str, Any]) -> None:
    try:
        record_event(_redis(), experiment_id, {"ts": time.time(), **event})
    except redis.RedisError as exc:
        logger.warning("live.publish_failed", extra={"error": str(exc)})


def run_state(experiment_id: int, run_id: int, status: str, error: str | None = None) -> None:
    publish(experiment_id, {"type": "run", "run_id": run_id, "status": status, "error": error})


def progress(
    experiment_id: int,
    run_id: int,
    source: str,
    elapsed_s: int,
    ops_per_sec: float,
    mean_latency_us: float | None,
    run_time_s: int,
    instances: int = 1,
) -> None:
    """One second of a run's live line; source "clients" is all instances combined."""
    publish(
        experiment_id,
        {
            "type": "progress",
            "run_id": run_id,
            "source": source,
            "elapsed_s": elapsed_s,
            "run_time_s": run_time_s,
            "ops_per_sec": ops_per_sec,
            "mean_latency_us": mean_latency_us,
            "instances": instances,
        },
    )
