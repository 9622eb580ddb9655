"""Monitoring on the local testbed: every host, interface and process of a run stored as
per-second series, and each process's CPU series adding up to /proc's own total for it."""

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.models import Run, RunSeries, RunStatus, RunSummary
from worker.tasks.runs import _execute_run
from worker.tests.runs.monitoring_checks import check_monitor_rows
from worker.tests.utils.experiments import create_queued_experiment, runs_of

pytestmark = pytest.mark.integration

BASE = {"value_size": 128, "key_maximum": 2000, "load_generator": "memaslap", "ratio": "1:9"}


def test_run_stores_every_host_and_process(db: Session, local_sshd: None) -> None:
    exp, (run_id,) = create_queued_experiment(
        db,
        factors={"workers": [2]},
        fixed={"servers": 1, "middlewares": 1, "clients_per_thread": 2, **BASE},
        run_time_s=6,
    )
    assert _execute_run(run_id) is None
    (run,) = runs_of(db, exp.id)
    assert run.status == RunStatus.SUCCEEDED, run.error
    sources = check_monitor_rows(db, run, ["local"])
    assert {"process:server:0", "process:middleware:0", "process:client:0"} <= sources
    assert "net:local:lo" in sources
    # The load went over loopback: its bytes are in lo's window means.
    lo = db.scalars(
        select(RunSummary).where(RunSummary.run_id == run.id, RunSummary.source == "net:local:lo")
    ).one()
    assert lo.net_rx_bytes_per_s is not None and lo.net_rx_bytes_per_s > 0


def test_utilization_law_from_stored_series(db: Session, local_sshd: None) -> None:
    """D = U / X from the stored window means equals CPU seconds / requests in the window."""
    exp, (run_id,) = create_queued_experiment(
        db,
        factors={"workers": [2]},
        fixed={"servers": 1, "middlewares": 1, "clients_per_thread": 2, **BASE},
        run_time_s=6,
    )
    assert _execute_run(run_id) is None
    run = db.get(Run, run_id)
    assert run is not None and run.status == RunStatus.SUCCEEDED, run and run.error
    rows = {
        s.source: s
        for s in db.scalars(select(RunSummary).where(RunSummary.run_id == run_id))
        if s.request_type.value == "all"
    }
    mw, proc = rows["middleware:0"], rows["process:middleware:0"]
    series = db.scalars(
        select(RunSeries).where(
            RunSeries.run_id == run_id,
            RunSeries.source.in_(["middleware:0", "process:middleware:0"]),
        )
    ).all()
    assert len(series) >= 2
    from backend.analysis.demands import utilization_law_demand

    seconds = mw.window_end_s - mw.window_start_s
    assert proc.process_cpu_pct is not None
    cpu_s = proc.process_cpu_pct / 100 * seconds
    requests = mw.throughput * seconds
    demand = utilization_law_demand(proc.process_cpu_pct / 100, mw.throughput)
    assert demand == pytest.approx(cpu_s / requests, rel=1e-12)
    assert 0 < demand < 1e-2  # seconds of CPU per request
