"""Issue 11's acceptance: a real experiment on the local testbed (memtier_benchmark, 2 memcached
servers, 1 middleware, 2 client instances, workers 2 and 8, 2 repetitions, warm-up and
cool-down cut) shows one number per quantity, whichever view asks, over the chosen window."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.models import RunStatus
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess
from worker.tests.utils.experiments import all_final, wait_for

pytestmark = pytest.mark.integration

# Steady state: client and middleware throughput must agree over the stable window and a
# re-cut of it, which needs seconds of load past the warm-up. The tests only read this one
# experiment (a module fixture).
RUN_S, WARMUP_S, COOLDOWN_S = 10, 2, 1
STABLE = {"window_start_s": WARMUP_S, "window_end_s": RUN_S - COOLDOWN_S}
SUB = {"window_start_s": 3, "window_end_s": 8}  # a re-cut inside the stable window


def _results(client: TestClient, exp: int, source: str, **window: int) -> dict[int, Any]:
    r = client.get(f"/api/v1/experiments/{exp}/results", params={"source": source, **window})
    assert r.status_code == 200, r.text
    return {row["index"]: row for row in r.json()["data"]}


def _summary(client: TestClient, exp: int, source: str, metric: str) -> dict[int, Any]:
    r = client.get(
        f"/api/v1/analysis/experiments/{exp}/summary",
        params={"source": source, "metric": metric},
    )
    assert r.status_code == 200, r.text
    return {row["index"]: row for row in r.json()["data"]}


@pytest.fixture(scope="module")
def experiment(
    client: TestClient, database: str, local_sshd: None, celery_worker: CeleryWorkerProcess
) -> int:
    from backend.core.db import SessionLocal

    exp = create_random_experiment(
        client,
        factors={"workers": [2, 8]},
        fixed={
            "servers": 2,
            "middlewares": 1,
            "client_machines": 1,
            "instances_per_machine": 2,
            "threads_per_instance": 1,
            "clients_per_thread": 2,
            "ratio": "1:1",
            "value_size": 128,
            "key_maximum": 2000,
            "load_generator": "memtier",
        },
        repetitions=2,
        run_time_s=RUN_S,
        warmup_s=WARMUP_S,
        cooldown_s=COOLDOWN_S,
    )
    r = client.post(f"/api/v1/experiments/{exp['id']}/start")
    assert r.status_code == 202 and r.json()["queued"] == 4, r.text
    with SessionLocal() as db:
        runs = wait_for(db, exp["id"], all_final, timeout_s=400)
        assert [(x.status, x.error) for x in runs] == [(RunStatus.SUCCEEDED, None)] * 4
    return int(exp["id"])


@pytest.mark.timeout(600)  # above wait_for's 400 s, so a timeout shows the run states
@pytest.mark.parametrize("source", ["client", "middleware"])
def test_default_window_equals_its_recut_and_the_summary(
    client: TestClient, experiment: int, source: str
) -> None:
    default = _results(client, experiment, source)
    recut = _results(client, experiment, source, **STABLE)
    summary = {
        m: _summary(client, experiment, source, m) for m in ("throughput_per_s", "response_time_us")
    }
    assert len(default) == 2
    for index, row in default.items():
        assert row["repetitions"] == 2
        for metric in ("throughput_per_s", "response_time_us"):
            value = row["metrics"][metric]["mean"]
            assert value is not None and value > 0
            assert recut[index]["metrics"][metric]["mean"] == pytest.approx(value, rel=1e-9), metric
            assert summary[metric][index]["mean"] == pytest.approx(value, rel=1e-9), metric


@pytest.mark.timeout(600)
@pytest.mark.parametrize("window", [{}, SUB], ids=["stable", "sub-window"])
def test_client_and_middleware_throughput_agree(
    client: TestClient, experiment: int, window: dict[str, int]
) -> None:
    clients = _results(client, experiment, "client", **window)
    mws = _results(client, experiment, "middleware", **window)
    for index, row in clients.items():
        tp = "throughput_per_s"
        ratio = mws[index]["metrics"][tp]["mean"] / row["metrics"][tp]["mean"]
        print(f"workers {row['values']['workers']} window {window or 'stable'}: ratio {ratio:.4f}")
        assert abs(ratio - 1) < 0.05, (row["values"], ratio)


@pytest.mark.timeout(600)
def test_window_percentiles_agree_with_the_stored_per_run_percentiles(
    client: TestClient, experiment: int
) -> None:
    """The middleware's percentiles of the stable window, from its per-window histograms merged
    over repetitions, lie within one bucket of the range of the runs' stored percentiles (a
    mixture's quantile lies between its components'); a re-cut window has its own."""
    import bisect

    from sqlalchemy import select

    from backend.core.db import SessionLocal
    from backend.models import RequestType, Run, RunSummary
    from backend.results.log_buckets import MIDDLEWARE_LAYOUT

    def bucket(us: float) -> int:
        return bisect.bisect_left(MIDDLEWARE_LAYOUT.upper_bounds_us, us)

    def percentiles(**window: int) -> dict[int, Any]:
        r = client.get(
            f"/api/v1/analysis/experiments/{experiment}/percentiles",
            params={"source": "middleware", "metric": "total", "percentiles": "50,90,99", **window},
        )
        assert r.status_code == 200, r.text
        assert r.json()["span"] == "window"
        return {row["configuration_id"]: row for row in r.json()["data"]}

    merged = percentiles()
    with SessionLocal() as db:
        stored = db.execute(
            select(Run.configuration_id, RunSummary.p50_us, RunSummary.p90_us, RunSummary.p99_us)
            .join(RunSummary, RunSummary.run_id == Run.id)
            .where(
                Run.experiment_id == experiment,
                RunSummary.source == "middleware:0",
                RunSummary.request_type == RequestType.ALL,
            )
        ).all()
    assert len(stored) == 4
    for cid, *per_run in stored:
        got = {p["q"]: p for p in merged[cid]["percentiles"]}
        for q, value in zip((50.0, 90.0, 99.0), per_run, strict=True):
            assert got[q]["bound"] is None and value is not None
            runs = [r[[50.0, 90.0, 99.0].index(q) + 1] for r in stored if r[0] == cid]
            lo, hi = bucket(min(runs)) - 1, bucket(max(runs)) + 1
            assert lo <= bucket(got[q]["value_us"]) <= hi, (cid, q, got[q], runs)
    sub = percentiles(**SUB)
    assert all(sub[cid]["total"] < merged[cid]["total"] for cid in merged)
