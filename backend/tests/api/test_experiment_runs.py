"""Starting, cancelling and resuming experiments; results aggregation; Celery wiring."""

from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.models import RequestType, Run, RunStatus, RunSummary
from backend.schemas.experiment import ExperimentUpdate
from backend.tests.utils.experiment import create_random_experiment

API = "/api/v1/experiments"


def test_cancel_then_resume(client: TestClient, db: Session) -> None:
    exp = create_random_experiment(client)
    # No worker listens in this test: the runs stay queued until cancelled.
    assert client.post(f"{API}/{exp['id']}/start").json()["queued"] == 8
    r = client.post(f"{API}/{exp['id']}/cancel")
    assert r.json() == {"cancelled": 8, "stopping": 0}
    body = client.get(f"{API}/{exp['id']}").json()
    assert body["status"] == "cancelled" and body["run_counts"]["cancelled"] == 8
    # A design with runs cannot change any more (a valid design body: only the design's fields).
    design = {k: exp[k] for k in ExperimentUpdate.model_fields if k in exp}
    r = client.put(f"{API}/{exp['id']}", json={**design, "factors": {"servers": [1]}, "fixed": {}})
    assert r.status_code == 409
    # Mark two as succeeded; resume re-queues only the other six.
    ids = [x["id"] for x in client.get(f"{API}/{exp['id']}/runs").json()["data"]]
    db.execute(update(Run).where(Run.id.in_(ids[:2])).values(status=RunStatus.SUCCEEDED))
    db.commit()
    assert client.post(f"{API}/{exp['id']}/start").json() == {
        "queued": 6,
        "already_done": 2,
        "unsent": 0,
    }
    queued = client.get(f"{API}/{exp['id']}/runs", params={"status": "queued"}).json()
    assert queued["count"] == 6
    client.post(f"{API}/{exp['id']}/cancel")


def test_results_aggregate_instances_then_repetitions(client: TestClient, db: Session) -> None:
    exp = create_random_experiment(client, factors={"workers": [8]}, repetitions=2)
    client.post(f"{API}/{exp['id']}/start")
    client.post(f"{API}/{exp['id']}/cancel")
    runs = db.scalars(
        select(Run).where(Run.experiment_id == exp["id"]).order_by(Run.repetition)
    ).all()
    # Rep 0: two clients 100 ops/s @ 1000 us and 300 ops/s @ 2000 us -> 400 ops/s, 1750 us.
    # Rep 1: one client 600 ops/s @ 1000 us.
    rows = [
        (runs[0].id, "client:0", 100.0, 1000.0),
        (runs[0].id, "client:1", 300.0, 2000.0),
        (runs[1].id, "client:0", 600.0, 1000.0),
        (runs[1].id, "middleware:0", 1.0, 1.0),
    ]
    for run_id, source, tp, rt in rows:
        db.add(
            RunSummary(
                run_id=run_id,
                source=source,
                request_type=RequestType.ALL,
                window_start_s=5,
                window_end_s=25,
                count=int(tp * 20),
                throughput=tp,
                response_time_us=rt,
            )
        )
    db.execute(update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED))
    db.commit()
    res = client.get(f"{API}/{exp['id']}/results").json()
    # Keyed by the metric table's names, the units with them.
    assert res["units"] == {
        "throughput_per_s": "ops/s",
        "response_time_us": "us",
        "keys_per_s": "keys/s",
    }
    assert set(res["data"][0]["metrics"]) == set(res["units"])
    row = res["data"][0]
    assert row["repetitions"] == 2
    tp, rt = row["metrics"]["throughput_per_s"], row["metrics"]["response_time_us"]
    assert tp["mean"] == 500.0 and tp["n"] == 2
    assert abs(tp["std"] - 141.4213562) < 1e-6  # stddev of 400 and 600
    assert rt["mean"] == (1750.0 + 1000.0) / 2
    mw = client.get(f"{API}/{exp['id']}/results", params={"source": "middleware"}).json()
    mw_row = mw["data"][0]
    assert mw_row["repetitions"] == 1 and mw_row["metrics"]["throughput_per_s"]["mean"] == 1.0
    assert client.get(f"{API}/{exp['id']}/results", params={"source": "x"}).status_code == 422


def test_run_serves_its_own_configuration(client: TestClient, db: Session) -> None:
    exp = create_random_experiment(
        client, factors={"workers": [8, 16]}, fixed={"servers": 2}, repetitions=1
    )
    client.post(f"{API}/{exp['id']}/start")
    client.post(f"{API}/{exp['id']}/cancel")
    run = db.scalars(
        select(Run).where(Run.experiment_id == exp["id"]).order_by(Run.id.desc())
    ).first()
    assert run is not None
    body = client.get(f"/api/v1/runs/{run.id}").json()
    c = body["configuration"]
    assert c["id"] == body["configuration_id"] == run.configuration_id
    listed = client.get(f"{API}/{exp['id']}/configurations").json()["data"]
    assert c == next(x for x in listed if x["id"] == run.configuration_id)
    assert c["parameters"]["servers"] == 2 and c["parameters"]["workers"] == c["values"]["workers"]


def test_run_not_found(client: TestClient) -> None:
    r = client.get("/api/v1/runs/987654321")
    assert r.status_code == 404 and r.json()["detail"] == "Run not found"


def test_results_rewindowed_from_series_match_numpy(client: TestClient, db: Session) -> None:
    import numpy as np

    from backend.models import RunSeries

    exp = create_random_experiment(client, factors={"workers": [8, 16]}, repetitions=2)
    client.post(f"{API}/{exp['id']}/start")
    client.post(f"{API}/{exp['id']}/cancel")
    runs = db.scalars(select(Run).where(Run.experiment_id == exp["id"]).order_by(Run.id)).all()
    rng = np.random.default_rng(3)
    expected: dict[int, list[tuple[float, float]]] = {}
    lo, hi = 3, 17
    for run in runs:
        tps, weighted, tp_sums = 0.0, 0.0, 0.0
        for i in range(2):  # two client instances, different lengths (20 s and 15 s)
            n = 20 - 5 * i
            tp, rt = rng.uniform(100, 1000, n), rng.uniform(200, 5000, n)
            db.add(
                RunSeries(
                    run_id=run.id,
                    source=f"client:{i}",
                    request_type=RequestType.ALL,
                    start_unix=1.7e9,
                    throughput=tp.tolist(),
                    response_time_us=rt.tolist(),
                )
            )
            w = slice(lo, min(hi, n))
            tps += tp[w].mean()
            weighted += (tp[w] * rt[w]).sum()
            tp_sums += tp[w].sum()
        expected.setdefault(run.configuration_id, []).append((tps, weighted / tp_sums))
    db.execute(update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED))
    db.commit()
    res = client.get(
        f"{API}/{exp['id']}/results", params={"window_start_s": lo, "window_end_s": hi}
    )
    assert res.status_code == 200, res.text
    for row in res.json()["data"]:
        per_run = np.array(expected[row["configuration_id"]])
        assert row["repetitions"] == 2
        tp, rt = row["metrics"]["throughput_per_s"], row["metrics"]["response_time_us"]
        assert np.isclose(tp["mean"], per_run[:, 0].mean(), rtol=1e-12)
        assert np.isclose(tp["std"], per_run[:, 0].std(ddof=1), rtol=1e-9)
        assert np.isclose(rt["mean"], per_run[:, 1].mean(), rtol=1e-12)
    bad = client.get(f"{API}/{exp['id']}/results", params={"window_start_s": 5})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", "window_end_s"]
    bad = client.get(f"{API}/{exp['id']}/results", params={"window_start_s": 5, "window_end_s": 5})
    assert bad.status_code == 422
