"""Enqueueing work for the Celery worker by task name: the API imports no task code.

Also what is needed so that no run stays queued without a message: a broker check before
runs are committed (Start answers 503 when Redis is down), and the ids of runs that have a
live message (waiting in the queue, or delivered and not yet acked), so the recovery task
re-sends the others.
"""

import base64
import json
from typing import Any

from celery import Celery

from backend.core.config import settings

EXECUTE_RUN_TASK = "mcscope.runs.execute"
RECOVER_TASK = "mcscope.runs.recover"
AZURE_JANITOR_TASK = "mcscope.azure.sweep_expired"
AZURE_CREATE_LAB_TASK = "mcscope.azure.create_lab"
RUNS_QUEUE = settings.RUNS_QUEUE
# Recovery runs beside long runs: its own queue, consumed by the beat-side worker.
MAINTENANCE_QUEUE = f"{settings.RUNS_QUEUE}.maintenance"
BROKER_TIMEOUT_S = 2.0

producer = Celery("mcscope-api", broker=settings.REDIS_URL)
producer.conf.broker_connection_retry_on_startup = True
# Fail fast when Redis is down: Start answers 503 instead of hanging.
producer.conf.broker_transport_options = {"max_retries": 1, "interval_start": 0}
producer.conf.broker_connection_timeout = BROKER_TIMEOUT_S


class BrokerUnavailable(RuntimeError):
    """The message broker (Redis) does not answer."""


def check_broker() -> None:
    """Raise BrokerUnavailable unless the broker answers now."""
    try:
        with producer.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT_S)
            conn.default_channel.client.ping()
    except Exception as exc:  # kombu/redis raise many types for the same "not reachable"
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc


def enqueue_runs(run_ids: list[int]) -> None:
    """Send one execute task per run. Call only after the runs are committed."""
    try:
        with producer.connection_for_write() as conn:
            for run_id in run_ids:
                producer.send_task(
                    EXECUTE_RUN_TASK, args=[run_id], queue=RUNS_QUEUE, connection=conn
                )
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc


def enqueue_azure_lab(lab_id: int) -> None:
    """Send the creation task of one Azure lab. Call only after the lab is committed."""
    try:
        with producer.connection_for_write() as conn:
            producer.send_task(
                AZURE_CREATE_LAB_TASK, args=[lab_id], queue=MAINTENANCE_QUEUE, connection=conn
            )
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc


def _where() -> str:
    return settings.REDIS_URL.split("@")[-1]


def _run_id(message: Any) -> int | None:
    """The run id of a serialized execute-task message (kombu's Redis format), if it is one."""
    try:
        headers = message.get("headers") or {}
        if headers.get("task") != EXECUTE_RUN_TASK:
            return None
        body = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return int(args[0])
    except (KeyError, IndexError, TypeError, ValueError):
        return None


def pending_run_ids() -> set[int]:
    """Runs with a live message: in the runs queue, or delivered to a worker and not acked
    (reserved, running, or waiting for a retry's countdown). Raises BrokerUnavailable."""
    ids: set[int] = set()
    try:
        with producer.connection_for_write() as conn:
            channel = conn.default_channel
            client = channel.client
            raw = list(client.lrange(RUNS_QUEUE, 0, -1))
            # The unacked hash is shared by every queue of this Redis database: keep ours.
            for value in client.hvals(channel.unacked_key):
                message, _exchange, routing_key = json.loads(value)
                if routing_key == RUNS_QUEUE:
                    raw.append(message)
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc
    for item in raw:
        message = json.loads(item) if isinstance(item, (bytes, str)) else item
        run_id = _run_id(message)
        if run_id is not None:
            ids.add(run_id)
    return ids
