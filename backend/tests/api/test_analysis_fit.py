"""Models over a stored experiment's measurements: queue models, network inputs, 404/422."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.models import Run, RunStatus
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.stored import stored_summary

API = "/api/v1/analysis"
S_WORKER_US = 1e6 / 421.93
LAMBDA = {1: 2840.73, 4: 5955.95}  # DOMAIN.md's two M/M/m checks, by clients_per_thread
WAIT_US = {1: 5.0, 4: 670.0}


def _seeded(client: TestClient, db: Session) -> dict[str, Any]:
    """2 middlewares x 8 workers (m = 16), clients_per_thread 1 and 4, known middleware times."""
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [1, 4]},
        fixed={"servers": 1, "middlewares": 2, "workers": 8, "ratio": "0:1"},
        repetitions=2,
    )
    client.post(f"/api/v1/experiments/{exp['id']}/start")
    client.post(f"/api/v1/experiments/{exp['id']}/cancel")
    for run in db.scalars(select(Run).where(Run.experiment_id == exp["id"])).all():
        cpt = run.configuration.values["clients_per_thread"]
        lam, wait = LAMBDA[cpt], WAIT_US[cpt]
        db.add(stored_summary(run.id, "client:0", lam, S_WORKER_US + wait + 600.0))
        for mw in (0, 1):  # each middleware carries half the load, same times
            db.add(
                stored_summary(
                    run.id,
                    f"middleware:{mw}",
                    lam / 2,
                    S_WORKER_US + wait,
                    queue_time_us=wait,
                    server_time_us=S_WORKER_US - 50.0,
                    processing_time_us=50.0,
                    queue_length=2.0,
                )
            )
    db.execute(update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED))
    db.commit()
    return exp


def test_queue_models_of_a_seeded_experiment(client: TestClient, db: Session) -> None:
    exp = _seeded(client, db)
    r = client.get(f"{API}/experiments/{exp['id']}/queue-models")
    assert r.status_code == 200, r.text
    rows = {row["values"]["clients_per_thread"]: row for row in r.json()["data"]}
    high = rows[4]["mmm"]
    assert high["servers"] == 16 and round(high["utilization"], 2) == 0.88
    assert round(high["queue_length"]["predicted"], 2) == 3.98
    assert high["queue_length"]["measured"] == pytest.approx(4.0)  # 2 middlewares x 2.0
    assert round(high["response_time_s"]["predicted"] * 1e3, 2) == 3.04
    assert round(rows[1]["mmm"]["response_time_s"]["predicted"] * 1e3, 2) == 2.37
    assert rows[4]["arrival_rate_per_s"] == pytest.approx(5955.95)
    assert "queue time" in rows[4]["service_source"]


def test_network_inputs_of_a_seeded_experiment(client: TestClient, db: Session) -> None:
    exp = _seeded(client, db)
    r = client.get(f"{API}/experiments/{exp['id']}/network-inputs")
    assert r.status_code == 200, r.text
    (group,) = r.json()["data"]
    system = group["system"]
    assert (system["workers"], system["middlewares"], system["servers"]) == (8, 2, 1)
    assert system["worker_service_s"] == pytest.approx(S_WORKER_US / 1e6)
    assert system["network_delay_s"] == pytest.approx(300e-6)
    assert [p["clients"] for p in group["points"]] == sorted(p["clients"] for p in group["points"])
    assert {e["parameter"] for e in group["estimates"]} >= {"worker_service_s", "think_time_s"}
    # The inputs solve as they are, through the ad-hoc network model with bounds.
    solved = client.post(
        f"{API}/network-model",
        json={
            "system": system,
            "clients": [p["clients"] for p in group["points"]],
            "measured_throughput_per_s": [p["throughput_per_s"] for p in group["points"]],
            "include_bounds": True,
        },
    )
    assert solved.status_code == 200, solved.text
    model = solved.json()["model"]
    assert model["bounds"]["bottleneck"] == model["bottleneck"]
    assert model["at_population"]["population"] == max(p["clients"] for p in group["points"])
    util = client.get(
        f"{API}/experiments/{exp['id']}/network-inputs", params={"server_utilization": 0.5}
    ).json()["data"][0]
    server = next(e for e in util["estimates"] if e["parameter"] == "server_service_s")
    assert server["source"].startswith("utilization law")
    assert server["value"] == pytest.approx(0.5 / 5955.95)
    # The smallest measurable utilization still gives a positive service time.
    least = client.get(
        f"{API}/experiments/{exp['id']}/network-inputs", params={"server_utilization": 1e-6}
    )
    assert least.status_code == 200, least.text
    server = next(
        e for e in least.json()["data"][0]["estimates"] if e["parameter"] == "server_service_s"
    )
    assert server["value"] == pytest.approx(1e-6 / 5955.95)


def test_measured_utilization_and_demands_of_a_seeded_experiment(
    client: TestClient, db: Session
) -> None:
    """Seeded: X = lambda, each request held by a worker S = 1/421.93 s, m = 16. Busy workers
    X S, U = X S / m (DOMAIN.md's M/M/m checks: 0.42 and 0.88), D = m U / X = S."""
    exp = _seeded(client, db)
    r = client.get(f"{API}/experiments/{exp['id']}/network-inputs")
    assert r.status_code == 200, r.text
    (group,) = r.json()["data"]
    rows = sorted(group["utilization"], key=lambda u: u["clients"])
    assert [u["clients"] for u in rows] == [p["clients"] for p in group["points"]]
    for row, lam in zip(rows, (LAMBDA[1], LAMBDA[4]), strict=True):
        assert row["station"] == "worker pool" and row["servers"] == 16
        assert row["throughput_per_s"] == pytest.approx(lam)
        assert row["busy"] == pytest.approx(lam * S_WORKER_US / 1e6)
        assert row["utilization"] == pytest.approx(lam / (16 * 421.93))
        assert row["demand_s"] == pytest.approx(1 / 421.93)
        assert "response - queue time" in row["source"] and "clients' throughput" in row["source"]
        assert row["note"] is None
    assert [round(u["utilization"], 2) for u in rows] == [0.42, 0.88]


@pytest.mark.parametrize(
    ("route", "params", "loc"),
    [
        ("queue-models", {"service_rate": "guess"}, ["query", "service_rate"]),
        ("network-inputs", {"server_utilization": 1.5}, ["query", "server_utilization"]),
        # Issue 30: the utilization law then gave S = 0 s, which the answer refused: a 500.
        ("network-inputs", {"server_utilization": 5e-324}, ["query", "server_utilization"]),
        ("network-inputs", {"server_utilization": "nan"}, ["query", "server_utilization"]),
        ("queue-models", {"window_start_s": 10}, ["query", "window_end_s"]),
        (
            "network-inputs",
            {"window_start_s": 500, "window_end_s": 600},
            ["query", "window_start_s"],
        ),
    ],
)
def test_fit_routes_reject_bad_query_values(
    client: TestClient, db: Session, route: str, params: dict[str, Any], loc: list[str]
) -> None:
    exp = _seeded(client, db)
    r = client.get(f"{API}/experiments/{exp['id']}/{route}", params=params)
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == loc


def test_fit_routes_404_and_no_data_422(client: TestClient) -> None:
    assert client.get(f"{API}/experiments/999999/queue-models").status_code == 404
    exp = create_random_experiment(client)
    r = client.get(f"{API}/experiments/{exp['id']}/network-inputs")
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["query", "experiment"]


def test_network_inputs_count_a_multiget_as_one_request(client: TestClient, db: Session) -> None:
    # memtier's ratio counts keys: 1:9 with 3-key gets is one set and three gets per cycle, so
    # the model's share of sets (of requests, as the throughput counts them) is 1/4, not 1/10.
    exp = create_random_experiment(
        client,
        factors={"multiget_size": [1, 3]},
        fixed={"servers": 1, "middlewares": 1, "workers": 8, "ratio": "1:9"},
        repetitions=1,
    )
    client.post(f"/api/v1/experiments/{exp['id']}/start")
    client.post(f"/api/v1/experiments/{exp['id']}/cancel")
    for run in db.scalars(select(Run).where(Run.experiment_id == exp["id"])).all():
        db.add(stored_summary(run.id, "client:0", 1000.0, 900.0))
        db.add(
            stored_summary(
                run.id,
                "middleware:0",
                1000.0,
                500.0,
                queue_time_us=10.0,
                server_time_us=300.0,
                processing_time_us=50.0,
            )
        )
    db.execute(update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED))
    db.commit()
    r = client.get(f"{API}/experiments/{exp['id']}/network-inputs")
    assert r.status_code == 200, r.text
    shares = {g["group"]["multiget_size"]: g["system"]["write_fraction"] for g in r.json()["data"]}
    assert shares == {1: pytest.approx(1 / 10), 3: pytest.approx(1 / 4)}
