"""Latency-SLO search designs through the API: stored without a grid, bad objectives refused
with the field named, the search's state served, Start queueing nothing but the step."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from backend.api.routes.experiment_runs import NOT_A_SEARCH
from backend.crud.slo import add_probe
from backend.models import (
    Configuration,
    Experiment,
    HistogramMetric,
    RequestType,
    Run,
    RunHistogram,
    RunStatus,
)
from backend.tests.utils.experiment import create_random_experiment, experiment_payload
from backend.tests.utils.stored import stored_summary

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


def test_preview_of_a_search_is_its_bound(client: TestClient) -> None:
    payload = _search(
        start_rate=100,
        max_rate=1600,
        resolution_pct=25,
        max_repeats=1,
        confirm_repeats=1,
        max_probes=30,
    )
    r = client.post(f"{API}/preview", json=payload)
    assert r.status_code == 200, r.text
    body = r.json()
    # By hand: the start, 4 doublings (200..1600), 6 halvings (50, 25, 12, 6, 3, 1) and at
    # most 3 midpoints (e.g. [12, 25] to a 25 % bracket: 13 -> 7 -> 4 -> 2, tolerance 3).
    assert body["slo_search"]["max_rates"] == 14 and body["slo_search"]["max_runs"] == 14
    # The search as it will run, the fields left out at their defaults (the form shows them).
    settings = body["slo_search"]["settings"]
    assert settings["start_rate"] == 100 and settings["target_us"] == 2000
    assert settings["percentile"] == 99 and settings["confidence"] == 0.95
    assert body["runs"] == 14 and body["configurations"] == 14 and body["points"] == []
    per_run = payload["run_time_s"] + body["overhead"]["seconds"]
    assert body["estimated_seconds"] == round(14 * per_run)
    # Repeats multiply the runs; the probe budget caps them.
    twice = client.post(
        f"{API}/preview", json=_search(**{**payload["slo_search"], "max_repeats": 2})
    )
    assert twice.json()["runs"] == 28
    capped = client.post(
        f"{API}/preview", json=_search(**{**payload["slo_search"], "max_probes": 9})
    )
    assert capped.json()["runs"] == 9 and capped.json()["slo_search"]["max_runs"] == 9
    # The stored experiment serves the same bound as its header's estimate.
    created = client.post(API, json=payload).json()
    assert created["preview"]["runs"] == 14
    assert created["preview"]["configurations"] == 0  # no rate probed yet
    assert created["preview"]["slo_search"] == body["slo_search"]
    # A grid has no bound.
    assert client.post(f"{API}/preview", json=experiment_payload()).json()["slo_search"] is None


def _probe_results(db: Session, exp: Experiment, rate: int, p99_us: float, carried: float) -> None:
    """One succeeded probe of `rate` whose client histogram has its p99 at p99_us."""
    run_id = add_probe(session=db, experiment=exp, rate=rate, repetition=0)
    bounds = [10.0 * (i + 1) for i in range(10_000)]  # 10 us buckets up to 100 ms
    counts = [0] * len(bounds)
    counts[int(p99_us / 20) - 1] = 9_800  # the bulk at half the p99
    counts[int(p99_us / 10) - 1] = 200  # the tail: p99 in this bucket
    db.add(
        RunHistogram(
            run_id=run_id,
            source="client:0",
            request_type=RequestType.ALL,
            metric=HistogramMetric.CLIENT,
            upper_bounds_us=bounds,
            counts=counts,
            overflow=0,
        )
    )
    db.add(stored_summary(run_id, "client:0", rate * carried, p99_us / 2))
    db.execute(update(Run).where(Run.id == run_id).values(status=RunStatus.SUCCEEDED))
    db.commit()


def test_latency_falling_with_load_is_served_with_its_evidence(
    client: TestClient, db: Session
) -> None:
    body = client.post(API, json=_search(start_rate=60, max_rate=4000)).json()
    exp = db.get(Experiment, body["id"])
    assert exp is not None
    _probe_results(db, exp, 60, 40_000.0, 1.0)  # bursts after idle gaps: p99 40 ms
    state = client.get(f"{API}/{exp.id}/slo").json()
    # The start missed: the search looks one rate up before it halves down.
    assert state["non_monotonic"] is None and state["reason"] == "missed: checking a higher rate"
    _probe_results(db, exp, 120, 2_400.0, 1.0)  # still above 2 ms, but far lower
    _probe_results(db, exp, 240, 1_000.0, 1.0)  # meets
    state = client.get(f"{API}/{exp.id}/slo").json()
    found = state["non_monotonic"]
    assert found is not None
    assert found["lower"]["rate_per_connection"] == 60 and found["lower"]["verdict"] == "misses"
    assert found["higher"]["rate_per_connection"] == 240 and found["higher"]["verdict"] == "meets"
    assert found["higher"]["client"]["high_us"] < found["lower"]["client"]["low_us"]
    assert [e["rate_per_connection"] for e in found["evidence"]] == [60, 120, 240]
    assert [e["client"]["value_us"] for e in found["evidence"]] == [40_000.0, 2_400.0, 1_000.0]
    assert (
        "not monotonic" in found["summary"]
        and "higher rate where a lower one missed" in (found["summary"])
    )
    # Bracketing goes on up from the hit.
    assert state["reason"] == "bracketing up"
    # memtier's schedule at the lowest rate probed: above 50/s ceil(60 / 50) = 2 requests
    # per tick of 1 / floor(60 / 2) s = 33.333 ms, for the design's one connection.
    pattern = state["sending_pattern"]
    assert pattern["rate_per_connection"] == 60
    assert (pattern["per_tick"], pattern["tick_ms"], pattern["burst"]) == (2, 33.333, 2)
    assert "closed loop" in pattern["advice"] and "more connections" in pattern["advice"]


def test_a_search_served_before_any_probe_describes_its_start_rate(client: TestClient) -> None:
    body = client.post(
        API, json={**_search(start_rate=10), "fixed": {**FIXED, "clients_per_thread": 4}}
    ).json()
    pattern = client.get(f"{API}/{body['id']}/slo").json()["sending_pattern"]
    # 10/s: one request per connection every 100 ms; 4 connections of one process at once.
    assert (pattern["rate_per_connection"], pattern["per_tick"], pattern["tick_ms"]) == (10, 1, 100)
    assert pattern["burst"] == 4 * 1  # threads_per_instance 1 x clients_per_thread 4
