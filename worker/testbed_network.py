"""Measuring a registered testbed's network (POST /testbeds/{id}/network): round trips between
its roles on the SSH ports and, on request, each role host's iperf3 upload; stored in
Testbed.network. Held under the testbed's run lock, so it never measures beside a run (a run
waits for it like for another run; a measurement finding a run waits and is retried)."""

import logging
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import update

from backend.core.db import SessionLocal
from backend.core.host_scans import UNDER_WAY
from backend.models import Testbed
from worker.drivers.errors import DriverError
from worker.drivers.pool import host_for
from worker.runs.lock import testbed_lock
from worker.runs.network import measure_bandwidth, measure_legs, testbed_legs
from worker.runs.testbed import REMOTE_WORKROOT, load_testbed

logger = logging.getLogger(__name__)


class NotReady(RuntimeError):
    """A run holds the testbed, or its hosts' keys are still being read: measured later (the
    task retries)."""

    __test__ = False


def measure_testbed_network(testbed_id: int, bandwidth: bool) -> dict[str, Any] | None:
    """Measure and store; the stored dict, None when the testbed is gone. Raises NotReady."""
    with SessionLocal() as session:
        try:
            layout = load_testbed(session, testbed_id)
        except LookupError:
            return None
        testbed = session.get(Testbed, testbed_id)
        if testbed is None:
            return None
        if any(h.host_key is None and h.scan_status in UNDER_WAY for h in testbed.hosts):
            raise NotReady(f"testbed {testbed_id}: host keys are still being read")
        previous = dict(testbed.network or {})
    with testbed_lock(layout.lock_key) as lock:
        if not lock.acquired:
            raise NotReady(f"testbed {testbed_id} is running an experiment")
        try:
            result = measure_legs(testbed_legs(layout), host_for)
            if bandwidth:
                workdir = f"{REMOTE_WORKROOT}/network-{testbed_id}"
                result["bandwidth"] = measure_bandwidth(layout, host_for, workdir)
                result["bandwidth_measured_at"] = datetime.now(UTC).isoformat()
            else:  # the bandwidth measured before stays until measured again
                for key in ("bandwidth", "bandwidth_measured_at"):
                    if key in previous:
                        result[key] = previous[key]
            result |= {"status": "measured", "error": None}
        except DriverError as exc:
            logger.warning("testbed.network.failed", extra={"testbed_id": testbed_id})
            result = previous | {"status": "failed", "error": str(exc)[-500:]}
    with SessionLocal() as session:
        session.execute(update(Testbed).where(Testbed.id == testbed_id).values(network=result))
        session.commit()
    return result
