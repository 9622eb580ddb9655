"""A finished 2^2 x 2 experiment with every kind of stored result (summaries, per-second
series, histograms) from a known model, so every figure, table and the bundle have data."""

import math
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.models import (
    HistogramMetric,
    RequestType,
    Run,
    RunHistogram,
    RunSeries,
    RunStatus,
    RunSummary,
)
from backend.tests.utils.experiment import create_random_experiment

RUN_TIME_S = 30
BUCKETS_US = [100.0 * (i + 1) for i in range(40)]  # 100 us buckets, as the middleware keeps


def model_throughput(values: dict[str, Any], repetition: int) -> float:
    """clients_per_thread 4 adds 3000 ops/s, workers 16 adds 1000, a repetition 100."""
    return float(
        10_000.0
        + 3000.0 * (values["clients_per_thread"] == 4)
        + 1000.0 * (values["workers"] == 16)
        + 100.0 * repetition
    )


def model_response_us(values: dict[str, Any]) -> float:
    slower = 400.0 * (values["clients_per_thread"] == 4)
    return float(800.0 + slower - 100.0 * (values["workers"] == 16))


def stored_summary(run_id: int, source: str, tp: float, rt: float, **extra: float) -> RunSummary:
    """A stored stable-window summary of one source of a run (window 5..25 s)."""
    return RunSummary(
        run_id=run_id,
        source=source,
        request_type=RequestType.ALL,
        window_start_s=5,
        window_end_s=25,
        count=int(tp * 20),
        throughput=tp,
        response_time_us=rt,
        **extra,
    )


def _histogram(run_id: int, source: str, metric: HistogramMetric, mean_us: float) -> RunHistogram:
    # A log-normal-ish shape around the mean: long right tail, a little overflow.
    counts = [
        int(1000 * math.exp(-((math.log(b) - math.log(mean_us)) ** 2) / 0.08)) for b in BUCKETS_US
    ]
    return RunHistogram(
        run_id=run_id,
        source=source,
        request_type=RequestType.ALL,
        metric=metric,
        upper_bounds_us=BUCKETS_US,
        counts=counts,
        overflow=3,
    )


# The monitor's sources of every run (worker/runs/monitoring.py): CPU demands per request
# (utilization law: U = X D) and loopback traffic; throughput NaN, as the worker stores them.
MONITOR_DEMANDS_S = {"process:server:0": 30e-6, "process:middleware:0": 50e-6}
HOST_DEMAND_S = 120e-6  # the shared CPU's: both processes, the load generator and the kernel


def _monitor_rows(run_id: int, tp: float) -> list[RunSummary | RunSeries]:
    nan = math.nan
    ramp = [min(1.0, (t + 1) / 5) for t in range(RUN_TIME_S)]
    columns: dict[str, dict[str, float]] = {
        "host:local": {
            "host_cpu_busy_pct": 100 * tp * HOST_DEMAND_S,
            "host_cpu_user_pct": 70 * tp * HOST_DEMAND_S,
            "host_cpu_system_pct": 30 * tp * HOST_DEMAND_S,
            "host_cpu_iowait_pct": 0.0,
            "host_cpu_steal_pct": 0.5,
            "host_cpus": 2.0,
            "host_mem_used_bytes": 2e9,
        },
        "net:local:lo": {
            "net_rx_bytes_per_s": tp * 200,
            "net_tx_bytes_per_s": tp * 200,
            "net_rx_packets_per_s": tp * 2,
            "net_tx_packets_per_s": tp * 2,
        },
        **{src: {"process_cpu_pct": 100 * tp * d} for src, d in MONITOR_DEMANDS_S.items()},
    }
    rows: list[RunSummary | RunSeries] = []
    for source, values in columns.items():
        rows.append(
            RunSummary(
                run_id=run_id,
                source=source,
                request_type=RequestType.ALL,
                window_start_s=5,
                window_end_s=25,
                count=0,
                throughput=nan,
                response_time_us=nan,
                **values,
            )
        )
        rows.append(
            RunSeries(
                run_id=run_id,
                source=source,
                request_type=RequestType.ALL,
                start_unix=1_699_999_998.0,  # started before the load, as the monitor does
                throughput=[nan] * (RUN_TIME_S + 4),
                response_time_us=[nan] * (RUN_TIME_S + 4),
                **{c: [0.0, 0.0] + [v * f for f in ramp] + [0.0, 0.0] for c, v in values.items()},
            )
        )
    return rows


def stored_experiment(client: TestClient, db: Session, **overrides: Any) -> dict[str, Any]:
    """Create, 'run' and store results for a clients_per_thread x workers grid."""
    exp = create_random_experiment(client, run_time_s=RUN_TIME_S, **overrides)
    client.post(f"/api/v1/experiments/{exp['id']}/start")
    client.post(f"/api/v1/experiments/{exp['id']}/cancel")
    runs = db.scalars(select(Run).where(Run.experiment_id == exp["id"]).order_by(Run.id)).all()
    for run in runs:
        values = run.configuration.values
        tp = model_throughput(values, run.repetition)
        rt = model_response_us(values)
        db.add(stored_summary(run.id, "client:0", tp, rt))
        db.add(
            stored_summary(
                run.id,
                "middleware:0",
                tp,
                rt - 250.0,
                queue_time_us=150.0,
                server_time_us=300.0,
                processing_time_us=rt - 750.0,
                queue_length=2.0,
            )
        )
        ramp = [min(1.0, (t + 1) / 5) for t in range(RUN_TIME_S)]
        db.add(
            RunSeries(
                run_id=run.id,
                source="client:0",
                request_type=RequestType.ALL,
                start_unix=1_700_000_000.0,
                throughput=[tp * f for f in ramp],
                response_time_us=[rt * (2 - f) for f in ramp],
            )
        )
        db.add_all(_monitor_rows(run.id, tp))
        db.add(_histogram(run.id, "client:0", HistogramMetric.CLIENT, rt))
        db.add(_histogram(run.id, "middleware:0", HistogramMetric.TOTAL, rt - 250.0))
    db.execute(update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED))
    db.commit()
    return exp
