"""The monitor seeder: after the real-path seeder, every run gets one monitored host whose
stored window means follow the utilization law on the clients' stored throughput, through
the worker's own monitor rows (worker/runs/monitoring.py: host_rows)."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.models import Run, RunSeries, RunSummary
from backend.models.enums import RequestType
from worker.scripts.seed_fixture_runs import seed_shaped
from worker.seeding.monitor import CORES, D_HOST_S, D_PROCESS_S, seed_monitor
from worker.tests.utils.experiments import create_experiment


def test_seeded_monitor_follows_the_utilization_law(db: Session) -> None:
    exp = create_experiment(
        db,
        factors={"clients_per_thread": [1, 8]},
        fixed={"servers": 1, "middlewares": 1, "ratio": "1:0", "client_machines": 1},
        repetitions=2,
        run_time_s=20,
        warmup_s=4,
        cooldown_s=4,
        name_prefix="monitor",
    )
    db.commit()
    seed_shaped(exp.id, {})
    seeded = seed_monitor(db, exp.id)
    runs = db.scalars(select(Run.id).where(Run.experiment_id == exp.id)).all()
    assert sorted(s.run_id for s in seeded) == sorted(runs) and len(runs) == 4
    for s in seeded:
        assert s.sources == [
            "host:local",
            "net:local:lo",
            "process:server:0",
            "process:middleware:0",
        ]
        summaries = {
            r.source: r
            for r in db.scalars(
                select(RunSummary).where(
                    RunSummary.run_id == s.run_id, RunSummary.request_type == RequestType.ALL
                )
            )
        }
        x = sum(r.throughput for src, r in summaries.items() if src.startswith("client:"))
        host = summaries["host:local"]
        # U = X D over the same stable window the clients' summaries cover.
        assert host.window_start_s == summaries["client:0"].window_start_s
        assert host.host_cpu_busy_pct == pytest.approx(100 * x * D_HOST_S, rel=1e-9)
        assert host.host_cpus == CORES
        for name, d in D_PROCESS_S.items():
            source = "process:" + name.replace("-", ":")
            assert summaries[source].process_cpu_pct == pytest.approx(100 * x * d, rel=1e-9)
        series = db.scalars(
            select(RunSeries).where(RunSeries.run_id == s.run_id, RunSeries.source == "host:local")
        ).one()
        # Idle before and after the load: the monitor runs longer than the load generators.
        assert series.host_cpu_busy_pct[0] == 0.0 and series.host_cpu_busy_pct[-1] == 0.0
