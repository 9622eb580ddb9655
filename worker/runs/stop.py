"""Stopping what a run started, by PID: newest first, one round trip per host, hosts in
parallel. Errors are logged, not raised (this runs on every way out of a run)."""

import logging

from worker.drivers.errors import DriverError
from worker.drivers.host import STOP_GRACE_S, Host
from worker.drivers.middleware import STATS_GRACE_S
from worker.drivers.pool import on_each
from worker.runs.watch import Started

logger = logging.getLogger(__name__)


def stop_started(started: list[Started], run_id: int) -> None:
    """Stop what still runs, newest first: clients, then middlewares (flushing their stats on
    SIGTERM), then servers. Each process is marked stopped, so a second call does nothing;
    servers kept for the next run are left alone."""
    by_host: dict[Host, list[tuple[int, float]]] = {}
    wake: dict[Host, dict[int, tuple[str, int]]] = {}
    for st in reversed(started):
        if st.stopped or st.keep:
            continue
        st.stopped = True
        grace = STATS_GRACE_S if st.role == "middleware" else STOP_GRACE_S
        by_host.setdefault(st.proc.host, []).append((st.proc.pid, grace))
        if st.wake is not None:
            wake.setdefault(st.proc.host, {})[st.proc.pid] = st.wake

    def stop(host: Host) -> None:
        try:
            host.stop_in_order(by_host[host], wake.get(host))
        except DriverError as exc:
            logger.warning("run.stop_failed", extra={"run_id": run_id, "error": str(exc)})

    on_each(list(by_host), stop)
