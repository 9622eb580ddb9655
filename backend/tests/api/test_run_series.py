"""Per-second series of one run (time-series view) and percentiles across configurations."""

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
    RunSeries,
    RunStatus,
    RunSummary,
)
from backend.tests.utils.experiment import create_random_experiment

API = "/api/v1/experiments"
T0 = 1.7e9


def _finished_runs(client: TestClient, db: Session, **overrides: Any) -> tuple[int, list[Run]]:
    """An experiment whose runs are all marked succeeded (nothing stored yet)."""
    exp = create_random_experiment(client, **overrides)
    client.post(f"{API}/{exp['id']}/start")
    client.post(f"{API}/{exp['id']}/cancel")
    db.execute(update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED))
    db.commit()
    runs = db.scalars(select(Run).where(Run.experiment_id == exp["id"]).order_by(Run.id)).all()
    return exp["id"], list(runs)


def _series(run_id: int, source: str, start: float, tp: list[float], rt: list[float]) -> RunSeries:
    return RunSeries(
        run_id=run_id,
        source=source,
        request_type=RequestType.ALL,
        start_unix=start,
        throughput=tp,
        response_time_us=rt,
        queue_time_us=[r / 2 for r in rt] if source.startswith("middleware") else None,
    )


def test_read_run_series_combines_instances_on_the_clients_clock(
    client: TestClient, db: Session
) -> None:
    exp_id, runs = _finished_runs(client, db, factors={"workers": [8]}, repetitions=1)
    run = runs[0]
    db.add(_series(run.id, "client:0", T0, [100.0, 200.0, 300.0], [1000.0, 1000.0, 1000.0]))
    db.add(_series(run.id, "client:1", T0, [300.0, 200.0], [2000.0, 3000.0]))
    # The middleware's windows start 1.2 s after the load generators: placed at second 1.
    db.add(_series(run.id, "middleware:0", T0 + 1.2, [390.0, 410.0], [800.0, 900.0]))
    db.add(
        RunSummary(
            run_id=run.id,
            source="client:0",
            request_type=RequestType.ALL,
            window_start_s=1,
            window_end_s=2,
            count=200,
            throughput=200.0,
            response_time_us=1000.0,
        )
    )
    db.commit()

    r = client.get(f"{API}/{exp_id}/runs/{run.id}/series")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["run_id"] == run.id and body["configuration_id"] == run.configuration_id
    assert body["source"] == "client" and body["request_type"] == "all"
    assert body["start_unix"] == T0
    assert (body["window_start_s"], body["window_end_s"], body["window_stored"]) == (1, 2, True)
    assert body["units"]["throughput"] == "ops/s" and body["units"]["response_time_us"] == "us"
    assert [i["source"] for i in body["instances"]] == ["client:0", "client:1"]
    combined = body["combined"]
    assert combined["time_s"] == [0.0, 1.0, 2.0]
    assert combined["throughput"] == [400.0, 400.0, 300.0]
    # Throughput-weighted: (100*1000 + 300*2000) / 400 = 1750; (200*1000 + 200*3000) / 400.
    assert combined["response_time_us"] == [1750.0, 2000.0, 1000.0]

    mw = client.get(f"{API}/{exp_id}/runs/{run.id}/series", params={"source": "middleware"})
    assert mw.status_code == 200, mw.text
    inst = mw.json()["instances"][0]
    assert inst["offset_s"] == pytest.approx(1.2)
    assert inst["queue_time_us"] == [400.0, 450.0]
    assert mw.json()["combined"]["time_s"] == [1.0, 2.0]


def test_read_run_series_without_rows_uses_the_designed_window(
    client: TestClient, db: Session
) -> None:
    exp_id, runs = _finished_runs(
        client, db, factors={"workers": [8]}, repetitions=1, run_time_s=60, warmup_s=10
    )
    r = client.get(f"{API}/{exp_id}/runs/{runs[0].id}/series", params={"request_type": "set"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["instances"] == [] and body["combined"]["time_s"] == []
    assert body["start_unix"] is None
    assert (body["window_start_s"], body["window_end_s"], body["window_stored"]) == (10, 55, False)


def test_read_run_series_not_found(client: TestClient, db: Session) -> None:
    exp_id, runs = _finished_runs(client, db, factors={"workers": [8]}, repetitions=1)
    other_id, other_runs = _finished_runs(client, db, factors={"workers": [8]}, repetitions=1)
    r = client.get(f"{API}/987654321/runs/{runs[0].id}/series")
    assert r.status_code == 404 and r.json()["detail"] == "Experiment not found"
    r = client.get(f"{API}/{exp_id}/runs/987654321/series")
    assert r.status_code == 404 and r.json()["detail"] == "Run not found"
    # A run of another experiment is not found under this one.
    r = client.get(f"{API}/{exp_id}/runs/{other_runs[0].id}/series")
    assert r.status_code == 404 and r.json()["detail"] == "Run not found"
    assert client.get(f"{API}/{other_id}/runs/{other_runs[0].id}/series").status_code == 200


def test_read_run_series_rejects_bad_source_and_type(client: TestClient, db: Session) -> None:
    exp_id, runs = _finished_runs(client, db, factors={"workers": [8]}, repetitions=1)
    url = f"{API}/{exp_id}/runs/{runs[0].id}/series"
    r = client.get(url, params={"source": "client:0"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "source"]
    r = client.get(url, params={"request_type": "delete"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "request_type"]


def _histogram(run_id: int, counts: list[int]) -> RunHistogram:
    return RunHistogram(
        run_id=run_id,
        source="client:0",
        request_type=RequestType.ALL,
        metric=HistogramMetric.CLIENT,
        upper_bounds_us=[100.0, 200.0, 300.0, 400.0],
        counts=counts,
        overflow=0,
    )


def test_read_experiment_percentiles_per_configuration(client: TestClient, db: Session) -> None:
    exp_id, runs = _finished_runs(client, db, factors={"workers": [8, 16, 32]}, repetitions=2)
    by_workers = {r.configuration.values["workers"]: r for r in runs if r.repetition == 0}
    by_workers_rep1 = {r.configuration.values["workers"]: r for r in runs if r.repetition == 1}
    # workers 8: both repetitions merged -> 100 samples evenly over 0..400 us.
    db.add(_histogram(by_workers[8].id, [25, 25, 0, 0]))
    db.add(_histogram(by_workers_rep1[8].id, [0, 0, 25, 25]))
    # workers 16: everything in the first bucket. workers 32: nothing stored.
    db.add(_histogram(by_workers[16].id, [10, 0, 0, 0]))
    db.commit()
    url = f"/api/v1/analysis/experiments/{exp_id}/percentiles"
    r = client.get(url, params={"percentiles": "50,90"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["percentiles"] == [50.0, 90.0] and body["units"]["value_us"] == "us"
    rows = {row["values"]["workers"]: row for row in body["data"]}
    # The one rule: upper edges of the buckets holding ranks 50 and 90 of 100.
    assert [q["value_us"] for q in rows[8]["percentiles"]] == pytest.approx([200.0, 400.0])
    assert rows[8]["total"] == 100
    # All in the first bucket: the data says only "< 100 us", not 50.0 and 90.0.
    assert [(q["value_us"], q["bound"]) for q in rows[16]["percentiles"]] == [(100.0, "below")] * 2
    assert rows[32]["percentiles"] == [] and rows[32]["total"] == 0
    bad = client.get(url, params={"percentiles": "50,x"})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", "percentiles"]
    bad = client.get(url, params={"percentiles": "150"})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", "percentiles"]
    r = client.get("/api/v1/analysis/experiments/987654321/percentiles")
    assert r.status_code == 404 and r.json()["detail"] == "Experiment not found"


def test_read_run_series_serves_the_monitors_sources(client: TestClient, db: Session) -> None:
    """source=host|net|process answers the monitor's own per-second metrics (by metric name,
    as the metric table declares them for that source), not request metrics."""
    exp_id, runs = _finished_runs(client, db, factors={"workers": [8]}, repetitions=1)
    run = runs[0]
    db.add(_series(run.id, "client:0", T0, [100.0, 200.0], [1000.0, 1000.0]))
    db.add(
        RunSeries(
            run_id=run.id,
            source="host:local",
            request_type=RequestType.ALL,
            start_unix=T0,
            throughput=[],
            response_time_us=[],
            host_cpu_user_pct=[120.0, 130.0],
            host_cpu_system_pct=[60.0, 65.0],
            host_cpu_busy_pct=[180.0, 195.0],
            host_cpus=[2.0, 2.0],
        )
    )
    db.add(
        RunSeries(
            run_id=run.id,
            source="process:middleware:0",
            request_type=RequestType.ALL,
            start_unix=T0 + 1,
            throughput=[],
            response_time_us=[],
            process_cpu_pct=[40.0],
        )
    )
    db.commit()
    host = client.get(f"{API}/{exp_id}/runs/{run.id}/series", params={"source": "host"}).json()
    (inst,) = host["instances"]
    assert inst["source"] == "host:local"
    assert inst["metrics"]["host_cpu_busy_pct"] == [180.0, 195.0]
    assert inst["metrics"]["host_cpu_user_pct"] == [120.0, 130.0]
    assert inst["metrics"]["host_cpus"] == [2.0, 2.0]
    assert "throughput_per_s" not in inst["metrics"]  # not a host metric
    assert "host_cpu_steal_pct" not in inst["metrics"]  # not stored for this run
    proc = client.get(f"{API}/{exp_id}/runs/{run.id}/series", params={"source": "process"})
    (p,) = proc.json()["instances"]
    assert (p["source"], p["offset_s"], p["metrics"]) == (
        "process:middleware:0",
        1.0,
        {"process_cpu_pct": [40.0]},
    )
    # A client instance still answers its own metrics the same way.
    cl = client.get(f"{API}/{exp_id}/runs/{run.id}/series").json()["instances"][0]
    assert cl["metrics"]["throughput_per_s"] == [100.0, 200.0]
