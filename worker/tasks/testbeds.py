"""Testbed tasks: measuring the network between a testbed's roles (worker.testbed_network)."""

from backend.core.queue import MAINTENANCE_QUEUE, MEASURE_NETWORK_TASK
from worker.tasks.base import instrumented_task
from worker.testbed_network import NotReady, measure_testbed_network

# iperf3 takes a few seconds per host; a testbed has a handful.
SOFT_TIME_LIMIT_S = 600


@instrumented_task(
    name=MEASURE_NETWORK_TASK,
    queue=MAINTENANCE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 60,
    autoretry_for=(NotReady,),
    retry_backoff=30,
    retry_backoff_max=600,
    max_retries=20,
)
def measure_network(testbed_id: int, bandwidth: bool = False) -> None:
    measure_testbed_network(testbed_id, bandwidth)
