"""Latency-SLO search designs through the API: stored without a grid, bad objectives refused
with the field named, the search's state served, Start queueing nothing but the step."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.api.routes.experiment_runs import NOT_A_SEARCH
from backend.crud.slo import add_probe
from backend.models import Configuration, Experiment, Run
from backend.tests.utils.experiment import create_random_experiment, experiment_payload

API = "/api/v1/experiments"
FIXED = {"servers": 1, "middlewares": 1, "ratio": "0:1", "value_size": 128}


def _search(**overrides: Any) -> dict[str, Any]:
    return experiment_payload(
        factors={},
        fixed=FIXED,
        slo_search={"target_us": 2000, **overrides},
        run_time_s=5,
        warmup_s=1,
        cooldown_s=1,
    )


def test_create_search_stores_no_grid(client: TestClient, db: Session) -> None:
    r = client.post(API, json=_search(percentile=99.9, resolution_pct=2))
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["slo_search"]["percentile"] == 99.9 and body["slo_search"]["target_us"] == 2000
    assert body["slo_search"]["statistic"] == "percentile"  # defaults stored too
    n = db.scalar(
        select(func.count())
        .select_from(Configuration)
        .where(Configuration.experiment_id == body["id"])
    )
    assert n == 0
    state = client.get(f"{API}/{body['id']}/slo").json()
    assert state["state"] == "not_started" and state["probes"] == []
    assert state["objective"] == "p99.9 ≤ 2 ms" and state["connections"] == 1
    # A copy searches afresh, with the same objective.
    copy = client.post(f"{API}/{body['id']}/duplicate", json={"name": body["name"] + "-copy"})
    assert copy.status_code == 201, copy.text
    assert copy.json()["slo_search"] == body["slo_search"]


@pytest.mark.parametrize(
    ("payload", "loc"),
    [
        (_search(target_us=0), ["body", "slo_search", "target_us"]),
        (_search(target_us="fast"), ["body", "slo_search", "target_us"]),
        (_search(percentile=100), ["body", "slo_search", "percentile"]),
        (_search(statistic="p99"), ["body", "slo_search", "statistic"]),
        (_search(confidence=1.5), ["body", "slo_search", "confidence"]),
        (_search(resolution_pct=0), ["body", "slo_search", "resolution_pct"]),
        (_search(start_rate=500, max_rate=100), ["body", "slo_search"]),
        (_search(typo=1), ["body", "slo_search", "typo"]),
        ({**_search(), "factors": {"workers": [8, 16]}}, ["body", "factors"]),
        ({**_search(), "fixed": {**FIXED, "rate_limit": 10}}, ["body", "fixed", "rate_limit"]),
        (
            {**_search(), "fixed": {**FIXED, "load_generator": "memaslap"}},
            ["body", "fixed", "load_generator"],
        ),
    ],
)
def test_bad_objectives_are_422_naming_the_field(
    client: TestClient, payload: dict[str, Any], loc: list[str]
) -> None:
    for path in (API, f"{API}/preview"):
        r = client.post(path, json=payload)
        assert r.status_code == 422, r.text
        assert loc in [e["loc"] for e in r.json()["detail"]], r.json()


def test_missing_target_is_422(client: TestClient) -> None:
    payload = {**_search(), "slo_search": {"percentile": 99}}
    r = client.post(API, json=payload)
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "slo_search", "target_us"]


def test_rate_limit_in_a_grid_needs_a_tool_that_limits(client: TestClient) -> None:
    r = client.post(
        API,
        json=experiment_payload(
            factors={"rate_limit": [100, 200]}, fixed={**FIXED, "load_generator": "memaslap"}
        ),
    )
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body", "factors", "rate_limit"]
    ok = experiment_payload(factors={"rate_limit": [0, 200]}, fixed={**FIXED})
    assert client.post(API, json=ok).status_code == 201


def test_slo_of_a_grid_is_404(client: TestClient) -> None:
    exp = create_random_experiment(client)
    r = client.get(f"{API}/{exp['id']}/slo")
    assert r.status_code == 404 and r.json()["detail"] == NOT_A_SEARCH


def test_probes_are_added_once_and_listed(client: TestClient, db: Session) -> None:
    body = client.post(API, json=_search()).json()
    exp = db.get(Experiment, body["id"])
    assert exp is not None
    first = add_probe(session=db, experiment=exp, rate=100, repetition=0)
    again = add_probe(session=db, experiment=exp, rate=100, repetition=0)
    other = add_probe(session=db, experiment=exp, rate=50, repetition=0)
    db.commit()
    assert first == again != other
    assert exp.factors == {"rate_limit": [50, 100]}
    runs = db.scalars(select(Run).where(Run.experiment_id == exp.id)).all()
    assert len(runs) == 2
    state = client.get(f"{API}/{exp.id}/slo").json()
    assert state["state"] == "searching" and state["reason"] == "a probe is running"
    assert [p["rate_per_connection"] for p in state["probes"]] == [100, 50]
    assert all(p["verdict"] is None for p in state["probes"])
    # Cancelled probes stop the search until Start resumes them.
    assert client.post(f"{API}/{exp.id}/cancel").json()["cancelled"] == 2
    stopped = client.get(f"{API}/{exp.id}/slo").json()
    assert stopped["state"] == "stopped" and "cancelled" in stopped["reason"]
    r = client.post(f"{API}/{exp.id}/start")
    assert r.status_code == 202, r.text
    assert r.json()["queued"] == 2
    client.post(f"{API}/{exp.id}/cancel")
