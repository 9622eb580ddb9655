"""Analysis endpoints on a stored experiment: summary, CIs, factorial, breakdown, laws."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.models import (
    HistogramMetric,
    RequestType,
    Run,
    RunHistogram,
    RunStatus,
    RunSummary,
)
from backend.tests.utils.experiment import create_random_experiment

API = "/api/v1/analysis/experiments"


def _throughput(values: dict[str, Any], repetition: int) -> float:
    # Known additive model: clients_per_thread 4 adds 300, workers 16 adds 100.
    return float(
        1000.0
        + 300.0 * (values["clients_per_thread"] == 4)
        + 100.0 * (values["workers"] == 16)
        + 10.0 * repetition
    )


def _summary(run_id: int, source: str, tp: float, rt: float, **extra: float) -> RunSummary:
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


def _stored_experiment(client: TestClient, db: Session, repetitions: int = 2) -> dict[str, Any]:
    """A 2^2 grid (clients_per_thread 1/4 x workers 8/16) with synthetic stored results."""
    exp = create_random_experiment(client, repetitions=repetitions)
    client.post(f"/api/v1/experiments/{exp['id']}/start")
    client.post(f"/api/v1/experiments/{exp['id']}/cancel")
    runs = db.scalars(select(Run).where(Run.experiment_id == exp["id"])).all()
    for run in runs:
        tp = _throughput(run.configuration.values, run.repetition)
        # Two clients: a quarter of the load at 1000 us, the rest at 2000 us -> 1750 us.
        db.add(_summary(run.id, "client:0", 0.25 * tp, 1000.0))
        db.add(_summary(run.id, "client:1", 0.75 * tp, 2000.0))
        db.add(
            _summary(
                run.id,
                "middleware:0",
                tp,
                1500.0,
                queue_time_us=500.0,
                server_time_us=700.0,
                processing_time_us=300.0,
                queue_length=3.0,
            )
        )
        db.add(
            RunHistogram(
                run_id=run.id,
                source="client:0",
                request_type=RequestType.ALL,
                metric=HistogramMetric.CLIENT,
                upper_bounds_us=[100.0, 200.0],
                counts=[10, 30],
                overflow=0,
            )
        )
    db.execute(update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED))
    db.commit()
    return exp


def test_summary_with_confidence_intervals(client: TestClient, db: Session) -> None:
    exp = _stored_experiment(client, db)
    r = client.get(f"{API}/{exp['id']}/summary", params={"confidence": 0.95})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["unit"] == "ops/s" and body["units"]["mean"] == "ops/s"
    for row in body["data"]:
        want = _throughput(row["values"], 0) + 5.0
        assert row["repetitions"] == 2
        assert row["mean"] == pytest.approx(want)
        assert row["ci_low"] < row["mean"] < row["ci_high"]
    rt = client.get(f"{API}/{exp['id']}/summary", params={"metric": "response_time_us"}).json()
    assert all(row["mean"] == pytest.approx(1750.0) for row in rt["data"])
    assert all(row["ci_low"] is None for row in rt["data"])


def test_summary_confidence_needs_two_repetitions(client: TestClient, db: Session) -> None:
    exp = _stored_experiment(client, db, repetitions=1)
    r = client.get(f"{API}/{exp['id']}/summary", params={"confidence": 0.95})
    assert r.status_code == 422
    detail = r.json()["detail"][0]
    assert detail["loc"] == ["query", "confidence"] and "needs 2" in detail["msg"]


def test_factorial_on_stored_grid(client: TestClient, db: Session) -> None:
    exp = _stored_experiment(client, db)
    r = client.get(f"{API}/{exp['id']}/factorial", params={"confidence": 0.9})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["factors"] == ["clients_per_thread", "workers"]
    assert body["levels"] == {"clients_per_thread": [1, 4], "workers": [8, 16]}
    q = {e["name"]: e["value"] for e in body["effects"]}
    assert q["clients_per_thread"] == pytest.approx(150.0)
    assert q["workers"] == pytest.approx(50.0)
    assert q["clients_per_thread:workers"] == pytest.approx(0.0, abs=1e-9)
    assert body["sse"] == pytest.approx(200.0)
    one = _stored_experiment(client, db, repetitions=1)
    r1 = client.get(f"{API}/{one['id']}/factorial", params={"confidence": 0.9})
    assert r1.status_code == 422 and r1.json()["detail"][0]["loc"] == ["query", "replications"]
    bad = client.get(f"{API}/{exp['id']}/factorial", params={"factors": "workers"})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", "factors"]


def test_breakdown_interactive_law_and_relative_differences(
    client: TestClient, db: Session
) -> None:
    exp = _stored_experiment(client, db)
    b = client.get(f"{API}/{exp['id']}/breakdown").json()
    row = b["data"][0]
    assert row["network_us"] == pytest.approx(250.0)
    assert row["processing_us"] == pytest.approx(300.0)
    assert b["units"]["network_us"] == "us"
    law = client.get(f"{API}/{exp['id']}/interactive-law", params={"think_time_s": 0}).json()
    for row in law["data"]:
        n = row["values"]["clients_per_thread"]
        assert row["clients"] == n
        assert row["expected_throughput_per_s"] == pytest.approx(n / 1750e-6)
    little = client.get(f"{API}/{exp['id']}/little-law").json()["data"][0]
    assert little["predicted_length"] == pytest.approx(little["throughput_per_s"] * 500e-6)
    assert little["measured_length"] == 3.0
    est = client.get(f"{API}/{exp['id']}/interactive-law").json()
    assert est["think_time_estimated"] is True and est["think_time_s"] >= 0
    rel = client.get(
        f"{API}/{exp['id']}/relative-differences", params={"factor": "workers", "base": "8"}
    ).json()
    diffs = {
        (r["values"]["clients_per_thread"], r["values"]["workers"]): r["difference_percent"]
        for r in rel["data"]
    }
    # The base cases are not compared with themselves.
    assert (1, 8) not in diffs and (4, 8) not in diffs
    assert diffs[(1, 16)] == pytest.approx(100 * 100 / 1005)
    r = client.get(
        f"{API}/{exp['id']}/relative-differences", params={"factor": "workers", "base": "99"}
    )
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "base"]


def test_saturation_histogram_and_network_model(client: TestClient, db: Session) -> None:
    exp = _stored_experiment(client, db)
    sat = client.get(f"{API}/{exp['id']}/saturation").json()
    assert sat["global_max_per_s"] == pytest.approx(1405.0)
    assert {k["label"] for k in sat["knees"]} == {"8", "16"}
    config_id = client.get(f"{API}/{exp['id']}/summary").json()["data"][0]["configuration_id"]
    h = client.get(
        f"{API}/{exp['id']}/histogram",
        params={"configuration_id": config_id, "percentiles": "25,50"},
    )
    assert h.status_code == 200, h.text
    assert h.json()["total"] == 80
    assert h.json()["percentiles"][0]["value_us"] == pytest.approx(100.0)
    times = {
        "network_delay_s": 1e-4,
        "net_thread_service_s": 1e-5,
        "worker_service_s": 1e-3,
        "server_service_s": 2e-4,
    }
    m = client.post(f"{API}/{exp['id']}/network-model", json=times)
    assert m.status_code == 200, m.text
    groups = m.json()["data"]
    assert len(groups) == 2  # one per worker count, each over clients 1 and 4
    assert [r["clients"] for r in groups[0]["rows"]] == [1, 4]


def test_unknown_experiment_is_404(client: TestClient) -> None:
    r = client.get(f"{API}/987654321/summary")
    assert r.status_code == 404 and r.json()["detail"] == "Experiment not found"
