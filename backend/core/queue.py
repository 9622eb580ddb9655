"""Enqueueing work for the Celery worker by task name: the API imports no task code.

A run's message carries (run id, dispatch number): a message whose number is not the run's
current one is stale and dropped by the worker. Also what is needed so that no run stays
queued without a message: a broker check before runs are committed (Start answers 503 when
Redis is down), and the messages waiting in the runs queue. Messages a worker took and has
not acked (running, or waiting for a retry's countdown) are not read here: a dead worker's
stay unacked for the visibility timeout (hours), so liveness is judged by the worker that
holds them (Run.held_by, backend.crud.dispatch), not by the broker.

Cancel withdraws its runs' waiting messages (`withdraw_runs`): a worker would otherwise take
and drop them one by one (about 10 ms each, 100 s for a cancelled 10,000-run grid) before the
next experiment's first run.
"""

import base64
import json
from collections.abc import Collection
from typing import Any

from celery import Celery

from backend.core.config import settings

EXECUTE_RUN_TASK = "mcscope.runs.execute"
RECOVER_TASK = "mcscope.runs.recover"
AZURE_JANITOR_TASK = "mcscope.azure.sweep_expired"
AZURE_CREATE_LAB_TASK = "mcscope.azure.create_lab"
AZURE_STOP_LAB_TASK = "mcscope.azure.stop_lab"
AZURE_START_LAB_TASK = "mcscope.azure.start_lab"
AZURE_DELETE_LAB_TASK = "mcscope.azure.delete_lab"
AZURE_DELETE_GROUP_TASK = "mcscope.azure.delete_group"
# Sends the messages of an experiment's queued runs (Start of a large grid, in the background).
DISPATCH_TASK = "mcscope.experiments.dispatch"
# Decides and queues a latency-SLO search's next probe (after Start and after each probe).
SLO_STEP_TASK = "mcscope.experiments.slo_step"
# Measures a testbed's network between roles (worker.tasks.testbeds).
MEASURE_NETWORK_TASK = "mcscope.testbeds.measure_network"
# Rehearsal testbeds (worker.tasks.rehearsals): build, tear down, the janitor's pass.
REHEARSAL_BUILD_TASK = "mcscope.rehearsals.build"
REHEARSAL_DELETE_TASK = "mcscope.rehearsals.delete"
REHEARSAL_SWEEP_TASK = "mcscope.rehearsals.sweep"
RUNS_QUEUE = settings.RUNS_QUEUE
# Recovery runs beside long runs: its own queue, consumed by the beat-side worker.
MAINTENANCE_QUEUE = f"{settings.RUNS_QUEUE}.maintenance"
# Azure testbeds' creation, deletion and janitor: minutes of SDK polling each, so a worker of
# their own; recovery never waits behind them.
AZURE_QUEUE = f"{settings.RUNS_QUEUE}.azure"
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


def enqueue_runs(messages: list[tuple[int, int]]) -> None:
    """Send one execute task per (run id, dispatch). Call only after the runs are committed."""
    try:
        with producer.connection_for_write() as conn:
            for run_id, dispatch in messages:
                producer.send_task(
                    EXECUTE_RUN_TASK, args=[run_id, dispatch], queue=RUNS_QUEUE, connection=conn
                )
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc


def enqueue_azure_lab(
    lab_id: int, task: str = AZURE_CREATE_LAB_TASK, before: str | None = None
) -> None:
    """Send one Azure lab's task (create by default; stop, start, delete), with the state the
    lab was in (`before`: where a failed action puts it back). Call only after the lab's new
    state is committed."""
    kwargs = {"before": before} if before is not None else {}
    try:
        with producer.connection_for_write() as conn:
            producer.send_task(
                task, args=[lab_id], kwargs=kwargs, queue=AZURE_QUEUE, connection=conn
            )
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc


def enqueue_azure_group_deletion(resource_group: str) -> None:
    """Send the deletion of one resource group mcscope made (its tag is checked again)."""
    try:
        producer.send_task(AZURE_DELETE_GROUP_TASK, args=[resource_group], queue=AZURE_QUEUE)
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc


def enqueue_dispatch(experiment_id: int) -> None:
    """Ask the maintenance worker to send the experiment's unsent runs. After the commit."""
    try:
        producer.send_task(DISPATCH_TASK, args=[experiment_id], queue=MAINTENANCE_QUEUE)
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc


def enqueue_slo_step(experiment_id: int) -> None:
    """Ask the maintenance worker to take a search's next step. After the commit."""
    try:
        producer.send_task(SLO_STEP_TASK, args=[experiment_id], queue=MAINTENANCE_QUEUE)
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc


def enqueue_network(testbed_id: int, bandwidth: bool) -> None:
    """Ask the maintenance worker to measure a testbed's network. After the commit."""
    try:
        producer.send_task(
            MEASURE_NETWORK_TASK, args=[testbed_id, bandwidth], queue=MAINTENANCE_QUEUE
        )
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc


def enqueue_rehearsal(rehearsal_id: int, task: str = REHEARSAL_BUILD_TASK) -> None:
    """Send one rehearsal's build (or teardown) to the maintenance worker, which runs on the
    machine the namespace hosts are built on. After the commit."""
    try:
        producer.send_task(task, args=[rehearsal_id], queue=MAINTENANCE_QUEUE)
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc


def _where() -> str:
    return settings.REDIS_URL.split("@")[-1]


def _run_message(message: Any) -> tuple[int, int | None] | None:
    """(run id, dispatch) of a serialized execute-task message (kombu's Redis format), if it is
    one; dispatch None for a message of an earlier version (run id only)."""
    try:
        headers = message.get("headers") or {}
        if headers.get("task") != EXECUTE_RUN_TASK:
            return None
        body = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return int(args[0]), (int(args[1]) if len(args) > 1 else None)
    except (KeyError, IndexError, TypeError, ValueError):
        return None


def waiting_messages() -> set[tuple[int, int | None]]:
    """(run id, dispatch) of every execute message waiting in the runs queue (not yet taken by
    a worker). Raises BrokerUnavailable."""
    try:
        with producer.connection_for_write() as conn:
            raw = list(conn.default_channel.client.lrange(RUNS_QUEUE, 0, -1))
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc
    found = (_run_message(json.loads(item)) for item in raw)
    return {m for m in found if m is not None}


# Rebuilds the list without the messages given (ARGV), in one step: no producer's LPUSH or
# worker's BRPOP falls between the read and the rewrite. O(length), where LREM per message
# would be O(length x removed). The order of the kept messages stays (BRPOP pops the right end).
_WITHOUT = """
local drop = {}
for _, m in ipairs(ARGV) do drop[m] = true end
local items = redis.call('LRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
local batch, kept = {}, 0
for _, m in ipairs(items) do
  if not drop[m] then
    batch[#batch + 1] = m
    if #batch == 1000 then
      redis.call('RPUSH', KEYS[1], unpack(batch))
      kept, batch = kept + #batch, {}
    end
  end
end
if #batch > 0 then
  redis.call('RPUSH', KEYS[1], unpack(batch))
  kept = kept + #batch
end
return #items - kept
"""


def withdraw_runs(run_ids: Collection[int]) -> int:
    """Remove the execute messages of these runs waiting in the runs queue (not those a worker
    took already); how many. Raises BrokerUnavailable."""
    wanted = set(run_ids)
    if not wanted:
        return 0
    try:
        with producer.connection_for_write() as conn:
            client = conn.default_channel.client
            raw = client.lrange(RUNS_QUEUE, 0, -1)
            found = ((item, _run_message(json.loads(item))) for item in raw)
            doomed = [item for item, m in found if m is not None and m[0] in wanted]
            if not doomed:
                return 0
            return int(client.eval(_WITHOUT, 1, RUNS_QUEUE, *doomed))
    except Exception as exc:
        raise BrokerUnavailable(f"the message broker ({_where()}) is not reachable: {exc}") from exc
