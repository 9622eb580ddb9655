"""Monitoring on the local testbed: every host, interface and process of a run stored as
per-second series, and each process's CPU series adding up to /proc's own total for it."""

import math

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.domain.window import window_of
from backend.modelfit.demands import demand_groups
from backend.models import Experiment, Run, RunSeries, RunStatus, RunSummary
from backend.results.aggregate import offset_s
from worker.tasks.runs import _execute_run
from worker.tests.runs.monitoring_checks import check_monitor_rows
from worker.tests.utils.experiments import create_queued_experiment

pytestmark = pytest.mark.integration

BASE = {"value_size": 128, "key_maximum": 2000, "load_generator": "memaslap", "ratio": "1:9"}


@pytest.fixture(scope="module")
def monitored_run(database: str, local_sshd: None) -> int:
    """One real run that both tests read (they only read what its monitor stored): 6 s, so the
    per-second series have a 4 s stable window of whole seconds to sum."""
    from backend.core.db import SessionLocal

    with SessionLocal() as db:
        exp, (run_id,) = create_queued_experiment(
            db,
            factors={"workers": [2]},
            fixed={"servers": 1, "middlewares": 1, "clients_per_thread": 2, **BASE},
            run_time_s=6,
        )
    assert _execute_run(run_id) is None
    return run_id


def test_run_stores_every_host_and_process(db: Session, monitored_run: int) -> None:
    run = db.get(Run, monitored_run)
    assert run is not None and run.status == RunStatus.SUCCEEDED, run and run.error
    sources = check_monitor_rows(db, run, ["local"])
    assert {"process:server:0", "process:middleware:0", "process:client:0"} <= sources
    assert "net:local:lo" in sources
    # The load went over loopback: its bytes are in lo's window means.
    lo = db.scalars(
        select(RunSummary).where(RunSummary.run_id == run.id, RunSummary.source == "net:local:lo")
    ).one()
    assert lo.net_rx_bytes_per_s is not None and lo.net_rx_bytes_per_s > 0


def _window_sum(row: RunSeries, column: str, t0: float, lo: int, hi: int) -> float:
    """A series' values over the run's seconds [lo, hi), placed by its start (rule 1)."""
    values = getattr(row, column)
    off = offset_s(row.start_unix, t0)
    return float(sum(v for v in values[max(0, lo - off) : max(0, hi - off)] if math.isfinite(v)))


def test_utilization_law_from_stored_series(db: Session, monitored_run: int) -> None:
    """The demand model's D = U / X equals CPU seconds / requests over the stable window,
    both summed from the stored per-second series."""
    run_id = monitored_run
    run = db.get(Run, run_id)
    assert run is not None and run.status == RunStatus.SUCCEEDED, run and run.error
    exp = db.get(Experiment, run.experiment_id)
    assert exp is not None
    (group,) = demand_groups(session=db, experiment=exp, timer_tolerance=0.5)
    rows = {
        s.source: s
        for s in db.scalars(select(RunSeries).where(RunSeries.run_id == run_id))
        if s.request_type.value == "all"
    }
    lo, hi = window_of(exp).start_s, window_of(exp).end_s
    t0 = min(r.start_unix for src, r in rows.items() if src.startswith("client:"))
    requests = sum(
        _window_sum(r, "throughput", t0, lo, hi)
        for src, r in rows.items()
        if src.startswith("client:")
    )
    # The shared CPU's station is busy with the run's own processes (the machine may have
    # other users); the host's whole busy CPU is only compared with it.
    cpu_s = (
        sum(
            _window_sum(r, "process_cpu_pct", t0, lo, hi)
            for src, r in rows.items()
            if src.startswith("process:")
        )
        / 100
    )
    (station,) = group.model.stations
    assert station.name == "CPU of local"
    print(f"D = {station.demand_s * 1e6:.1f} us = {cpu_s:.3f} CPU s / {requests:.0f} requests")
    assert station.demand_s == pytest.approx(cpu_s / requests, rel=1e-9)
    mw_cpu_s = _window_sum(rows["process:middleware:0"], "process_cpu_pct", t0, lo, hi) / 100
    assert group.model.cpu_demand_s == pytest.approx(mw_cpu_s / requests, rel=1e-9)
    (memcached,) = [p for p in group.model.processes if p.name.startswith("memcached")]
    mc_cpu_s = _window_sum(rows["process:server:0"], "process_cpu_pct", t0, lo, hi) / 100
    assert memcached.demand_s == pytest.approx(mc_cpu_s / requests, rel=1e-9)
    assert group.model.timer_demand_s is not None and group.model.timer_demand_s > 0
