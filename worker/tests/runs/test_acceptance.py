"""Issue 5 acceptance: an experiment created through the API, run by a real Celery worker on the
local testbed with real memcached, middleware and memaslap; a memcached killed mid-run."""

import os
import signal
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.domain.grid import effective_parameters
from backend.domain.metrics import THROUGHPUT
from backend.domain.parameters import virtual_clients
from backend.domain.quality import FlagCode
from backend.domain.stored_quality import quality_of
from backend.models import RequestType, Run, RunSeries, RunStatus
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess
from worker.tests.utils.experiments import all_final, in_load_phase, wait_for
from worker.tests.utils.whole_run import middleware_load_start_unix, whole_run_counts

pytestmark = pytest.mark.integration

FIXED = {
    "servers": 2,
    "middlewares": 1,
    "ratio": "1:9",
    "value_size": 128,
    "key_maximum": 2000,
    "load_generator": "memaslap",
}
# Where memaslap's series begin (its exit less its clean-up second and its measured run) and
# where the middleware saw the load begin (its 100th request) were 0-23 ms apart in 16 runs,
# beside idle-class tests too (2026-11-30), while the set-up took 0.15-0.36 s; a rule that
# forgot the clean-up second would be 1 s off.
LOAD_START_TOLERANCE_S = 0.25


@pytest.mark.timeout(600)  # above wait_for's 400 s, so a timeout shows the run states
def test_experiment_through_api_agrees_client_and_middleware(
    client: TestClient, db: Session, local_sshd: None, celery_worker: CeleryWorkerProcess
) -> None:
    # Steady state: client and middleware throughput must agree, which needs seconds of load.
    # One repetition of each of the 2 x 2 configurations (means over repetitions: results_core).
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [2, 4], "workers": [8, 16]},
        fixed=FIXED,
        repetitions=1,
        # memaslap's per-second reports jitter under CPU load; a 5 s stable window keeps the
        # edge effect on the client-side mean small. The ratio failed twice in CI at 1 s of
        # warm-up (0.88 and 0.91) while memaslap's series overstated a stretched loop and
        # began at its launch, not its load (both mended since); 2 s keep a margin.
        run_time_s=8,
        warmup_s=2,
        cooldown_s=1,
    )
    r = client.post(f"/api/v1/experiments/{exp['id']}/start")
    assert r.status_code == 202, r.text
    assert r.json()["queued"] == 4
    runs = wait_for(db, exp["id"], all_final, timeout_s=400)
    failed = [(r.id, r.error) for r in runs if r.status != RunStatus.SUCCEEDED]
    assert not failed and len(runs) == 4
    results = {}
    for source in ("client", "middleware"):
        r = client.get(f"/api/v1/experiments/{exp['id']}/results", params={"source": source})
        assert r.status_code == 200, r.text
        results[source] = {row["index"]: row for row in r.json()["data"]}
    assert len(results["client"]) == 4
    for run in runs:
        # memaslap's series begin where its load began, after its set-up: later than its
        # launch (0.15 s on a quiet machine, 1.65 s once on a busy one), where the middleware
        # saw the load begin, on the same clock (MemaslapDriver.load_start_unix).
        (launch,) = [c["started_unix"] for c in run.commands if c["role"] == "client"]
        series = db.scalars(
            select(RunSeries.start_unix).where(
                RunSeries.run_id == run.id,
                RunSeries.source == "client:0",
                RunSeries.request_type == RequestType.ALL,
            )
        ).one()
        seen = middleware_load_start_unix(run)
        print(f"run {run.id}: series {series - launch:+.3f} s, middleware {seen - launch:+.3f} s")
        assert series > float(launch), (run.id, series, launch)
        assert abs(series - seen) < LOAD_START_TOLERANCE_S, (run.id, series, seen, launch)
    for index, row in results["client"].items():
        mw = results["middleware"][index]
        assert row["repetitions"] == 1 and mw["repetitions"] == 1
        tp, rt = (
            {side: r["metrics"][m]["mean"] for side, r in (("client", row), ("mw", mw))}
            for m in ("throughput_per_s", "response_time_us")
        )
        assert tp["client"] > 0 and rt["client"] > 0
        ratio = tp["mw"] / tp["client"]
        print(
            f"config {row['values']}: client {tp['client']:.0f} ops/s {rt['client']:.0f} us, "
            f"middleware {tp['mw']:.0f} ops/s {rt['mw']:.0f} us, ratio {ratio:.4f}"
        )
        if abs(ratio - 1) <= settings.QUALITY_THROUGHPUT_TOLERANCE:  # the product's rule
            continue
        # Apart by more than the product's tolerance: it must say so on the run, and the two
        # sides must still have counted the same requests over the whole run (no clock
        # involved: worker/tests/utils/whole_run.py says why the means can part on a busy
        # machine), all but the last one in flight on each connection.
        (run,) = [r for r in runs if r.configuration.index == index]
        flagged = {f.code for f in quality_of(run.quality or {}).flags}
        per_second = _series_of(db, runs, row["values"])
        assert FlagCode.THROUGHPUT_DISAGREEMENT in flagged, (flagged, per_second)
        counted, completed = whole_run_counts(run)
        print(f"  whole run: memaslap counted {counted}, the middleware completed {completed}")
        params = effective_parameters(run.configuration.values, exp["fixed"])
        assert 0 <= counted - completed <= virtual_clients(params), per_second


def _series_of(db: Session, runs: list[Run], values: dict[str, object]) -> str:
    """Every run's per-second throughput by source with its start: what a mismatch needs."""
    lines = [f"configuration {values}; per-second throughput of each run:"]
    for run in runs:
        for s in db.scalars(
            select(RunSeries)
            .where(RunSeries.run_id == run.id, RunSeries.request_type == RequestType.ALL)
            .where(RunSeries.source.like("client%") | RunSeries.source.like("middleware%"))
            .order_by(RunSeries.source)
        ):
            per_second = [f"{v:.0f}" for v in getattr(s, THROUGHPUT.column) or []]
            lines.append(f"run {run.id} {s.source} from {s.start_unix:.3f}: {per_second}")
    return "\n".join(lines)


def test_memcached_killed_mid_run_fails_that_run_only(
    client: TestClient, db: Session, local_sshd: None, celery_worker: CeleryWorkerProcess
) -> None:
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [2]},
        fixed=FIXED,
        repetitions=3,
        # A failure, not the load: the API's shortest run, time enough to kill in its load.
        run_time_s=5,
        warmup_s=1,
        cooldown_s=1,
    )
    assert client.post(f"/api/v1/experiments/{exp['id']}/start").status_code == 202
    victim = wait_for(db, exp["id"], lambda rs: in_load_phase(rs) is not None, timeout_s=120)
    run = in_load_phase(victim)
    assert run is not None
    (server,) = [c for c in run.commands if c["source"] == "server:0"]
    time.sleep(1)
    os.kill(server["pid"], signal.SIGKILL)  # the local testbed: the PID is on this machine
    runs = wait_for(db, exp["id"], all_final, timeout_s=200)
    failed = next(r for r in runs if r.id == run.id)
    assert failed.status == RunStatus.FAILED
    assert failed.error is not None
    assert "server:0" in failed.error and "memcached" in failed.error
    assert "exited during the run" in failed.error
    assert failed.artifact_dir and any(Path(failed.artifact_dir).rglob("client-0.out"))
    others = [r for r in runs if r.id != run.id]
    assert [(r.status, r.error) for r in others] == [(RunStatus.SUCCEEDED, None)] * 2
