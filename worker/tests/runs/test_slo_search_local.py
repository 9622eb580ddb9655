"""A latency-SLO search end to end on the local testbed (issue 29.3): created and started
through the API, each probe (5 s) run by a real Celery worker with memcached, the middleware
and memtier_benchmark holding the offered rate (--rate-limiting), the next probe decided by
the search task on the maintenance worker after each one. The answer's objective holds at its
confidence, every probe is a stored run, and the percentile served is the one of the pooled
client histograms."""

import time
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.analysis.percentiles import make_histogram, percentiles_from_histogram
from backend.models import HistogramMetric, RequestType, Run, RunHistogram, RunStatus
from backend.tests.utils.experiment import experiment_payload
from backend.tests.utils.processes import CeleryWorkerProcess
from worker.runs.slo_search import advance_search
from worker.tests.utils.experiments import runs_of

pytestmark = pytest.mark.integration
API = "/api/v1/experiments"
TARGET_US = 20_000.0  # p99 <= 20 ms: met at low rates even on a busy shared machine
# Two rates (250, then its doubling, the highest): the fewest probes that bracket up, stop at
# the highest rate and confirm the answer; bisection between a meet and a miss is the pure
# search's (backend/tests/analysis), which a shared machine could not provoke reliably anyway.
MAX_RATE = 500


def _wait_done(client: TestClient, experiment_id: int, timeout_s: float) -> dict[str, object]:
    deadline = time.monotonic() + timeout_s
    seen: list[tuple[str, int]] = []
    while time.monotonic() < deadline:
        state = client.get(f"{API}/{experiment_id}/slo").json()
        seen.append((state["state"], state["runs"]))
        if state["state"] in ("done", "stopped"):
            return state  # type: ignore[no-any-return]
        time.sleep(1)
    raise AssertionError(f"the search did not finish: {seen[-5:]}")


@pytest.mark.timeout(900)
def test_search_converges_with_probes_stored_as_runs(
    client: TestClient,
    db: Session,
    local_sshd: None,
    celery_worker: CeleryWorkerProcess,
    tmp_path: Path,
) -> None:
    payload = experiment_payload(
        factors={},
        fixed={
            "servers": 1,
            "middlewares": 1,
            "workers": 2,
            "clients_per_thread": 2,
            "ratio": "0:1",
            "value_size": 128,
            "key_maximum": 1000,
            "load_generator": "memtier",
        },
        run_time_s=5,  # the API's shortest run: the claim is the search's bookkeeping
        warmup_s=1,
        cooldown_s=1,
        slo_search={
            "target_us": TARGET_US,
            "percentile": 99,
            "start_rate": 250,
            "max_rate": MAX_RATE,
            "resolution_pct": 25,
            "max_probes": 16,
        },
    )
    exp = client.post(API, json=payload)
    assert exp.status_code == 201, exp.text
    exp_id = exp.json()["id"]
    stepper = CeleryWorkerProcess(log_dir=tmp_path, beat=True)
    stepper.start()
    try:
        r = client.post(f"{API}/{exp_id}/start")
        assert r.status_code == 202 and r.json()["queued"] == 0, r.text
        state = _wait_done(client, exp_id, timeout_s=780)
    finally:
        stepper.stop()
    assert "mcscope.experiments.slo_step[" in stepper.log_path.read_text()
    runs = runs_of(db, exp_id)
    assert state["state"] == "done", (state, [(r.id, r.status, r.error) for r in runs])
    # Every probe is a run of the runs table, succeeded, with memtier holding its rate.
    assert len(runs) == state["runs"] and all(r.status == RunStatus.SUCCEEDED for r in runs)
    for run in runs:
        (cmd,) = [c for c in run.commands if c["role"] == "client"]
        rate = run.configuration.values["rate_limit"]
        assert f"--rate-limiting={rate}" in cmd["argv"]
    probes = {p["rate_per_connection"]: p for p in state["probes"]}  # type: ignore[attr-defined]
    assert sorted(probes) == sorted({r.configuration.values["rate_limit"] for r in runs})
    answer = state["answer_rate_per_connection"]
    assert isinstance(answer, int), state
    best = probes[answer]
    # The objective holds at its confidence: the whole interval is within the target, and
    # the clients carried the offered load; the answer was confirmed by two runs (unless the
    # probe budget ran out first on a busy machine: then the best rate shown so far).
    assert best["verdict"] == "meets"
    assert best["runs_done"] >= 2 or "stopped after" in str(state["reason"]), state
    assert best["client"]["high_us"] <= TARGET_US
    assert best["delivered_per_s"] >= 0.95 * best["offered_per_s"]
    # Probes above the answer (if any) miss or are not shown to meet.
    assert all(p["verdict"] != "meets" for r, p in probes.items() if r > answer) or (
        answer == MAX_RATE
    )
    # The served percentile is the one of the pooled client histograms of the answer's runs
    # (summed here by hand over runs and instances: one HDR layout).
    rows = db.scalars(
        select(RunHistogram).where(
            RunHistogram.run_id.in_(best["run_ids"]),
            RunHistogram.source.like("client:%"),
            RunHistogram.request_type == RequestType.ALL,
            RunHistogram.metric == HistogramMetric.CLIENT,
        )
    ).all()
    assert len(rows) == best["runs_done"]
    # memtier's buckets are contiguous from 0: each run's bounds are a prefix of the longest.
    longest = max(rows, key=lambda r: len(r.upper_bounds_us)).upper_bounds_us
    assert all(r.upper_bounds_us == longest[: len(r.upper_bounds_us)] for r in rows)
    counts = np.zeros(len(longest))
    for r in rows:
        counts[: len(r.counts)] += r.counts
    pooled = make_histogram(longest, counts, float(sum(r.overflow for r in rows)))
    (p99,) = percentiles_from_histogram(pooled, (99.0,))
    assert best["client"]["value_us"] == p99.value_us
    assert best["client"]["n"] == int(pooled.total)
    # A step after the end (a redelivered message, recovery) adds nothing.
    assert advance_search(exp_id) is None
    db.expire_all()
    assert len(db.scalars(select(Run).where(Run.experiment_id == exp_id)).all()) == len(runs)
