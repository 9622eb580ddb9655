"""Seeding the machine monitor of stored runs through the worker's own summaries.

Each succeeded run gets one host's monitor series, shaped by the utilization law on its
clients' stored per-second throughput X(t): the host busy 100 X D_HOST % of a core, memcached
and the middleware 100 X D %, the loopback carrying BYTES_PER_REQUEST per request each way.
The series (the monitor parser's result, `MonitorSeries`) is turned into rows by the worker's
`host_rows` (its window means by the results core's rules) and stored beside the run's rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.models import Run, RunSeries, RunStatus, RunSummary
from backend.models.enums import RequestType
from worker.parsers.monitor import MonitorSeries
from worker.runs.monitoring import host_rows
from worker.runs.summarize import StableWindow

HOST = "local"
CORES = 2
D_HOST_S = 120e-6  # CPU seconds of the whole host per request
D_PROCESS_S = {"server-0": 30e-6, "middleware-0": 45e-6}  # per process file name
SOURCES = {"server-0": "server:0", "middleware-0": "middleware:0"}
BYTES_PER_REQUEST = 4200.0
MEMORY_BYTES = 2e9
MONITOR_LEAD_S = 2  # the monitor starts before the load generators and stops after them


@dataclass(frozen=True)
class SeededMonitor:
    run_id: int
    sources: list[str]


def _client_throughput(rows: list[RunSeries], t0: float) -> list[float]:
    """Per second from the load's start, the clients' summed throughput (NaN: none)."""
    length = max(round(r.start_unix - t0) + len(r.throughput) for r in rows)
    total = [0.0] * length
    for r in rows:
        off = round(r.start_unix - t0)
        for i, x in enumerate(r.throughput):
            if x == x:
                total[off + i] += x
    return total


def monitor_series(throughput: list[float], start_unix: float) -> MonitorSeries:
    """One host's monitor, MONITOR_LEAD_S idle seconds either side of the load."""
    idle = [0.0] * MONITOR_LEAD_S
    x = idle + throughput + idle
    busy = [100.0 * v * D_HOST_S for v in x]
    host = {
        "host_cpu_user_pct": [0.7 * b for b in busy],
        "host_cpu_system_pct": [0.3 * b for b in busy],
        "host_cpu_iowait_pct": [0.0] * len(x),
        "host_cpu_steal_pct": [0.0] * len(x),
        "host_cpu_busy_pct": busy,
        "host_cpus": [float(CORES)] * len(x),
        "host_mem_used_bytes": [MEMORY_BYTES] * len(x),
    }
    net = {
        "lo": {
            "net_rx_bytes_per_s": [v * BYTES_PER_REQUEST for v in x],
            "net_tx_bytes_per_s": [v * BYTES_PER_REQUEST for v in x],
            "net_rx_packets_per_s": [2.0 * v for v in x],
            "net_tx_packets_per_s": [2.0 * v for v in x],
        }
    }
    processes = {name: [100.0 * v * d for v in x] for name, d in D_PROCESS_S.items()}
    return MonitorSeries(start_unix - MONITOR_LEAD_S, CORES, host, net, processes)


def seed_monitor(session: Session, experiment_id: int) -> list[SeededMonitor]:
    """Stores a monitor's rows for every succeeded run of the experiment."""
    runs = session.scalars(
        select(Run)
        .where(Run.experiment_id == experiment_id, Run.status == RunStatus.SUCCEEDED)
        .order_by(Run.id)
    ).all()
    out = []
    for run in runs:
        clients = [
            r
            for r in session.scalars(select(RunSeries).where(RunSeries.run_id == run.id)).all()
            if r.source.startswith("client:") and r.request_type == RequestType.ALL
        ]
        stored = session.scalars(
            select(RunSummary).where(RunSummary.run_id == run.id).limit(1)
        ).first()
        if not clients or stored is None:
            continue
        t0 = min(r.start_unix for r in clients)
        series = monitor_series(_client_throughput(clients, t0), t0)
        window = StableWindow(t0, stored.window_start_s, stored.window_end_s)
        rows = host_rows(HOST, series, SOURCES, window)
        session.add_all(RunSeries(run_id=run.id, **r) for r in rows.series)
        session.add_all(RunSummary(run_id=run.id, **r) for r in rows.summaries)
        out.append(SeededMonitor(run.id, [r["source"] for r in rows.series]))
    session.commit()
    return out
