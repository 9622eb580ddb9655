"""Bounded inputs: every limit answers 422 naming the field, before any costly work."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.domain.azure_lab_rules import MAX_EXPIRY_HOURS, MIN_EXPIRY_HOURS
from backend.domain.design_fields import MAX_PLANNED_S, RUN_SETUP_ALLOWANCE_S, RUN_TIME
from backend.domain.grid import MAX_LEVELS
from backend.domain.memcached_sizing import (
    KEY_MAXIMUM_MAX,
    MAX_VALUE_B,
    MEMCACHED_MAX_CONNECTIONS,
    MIDDLEWARE_MAX_CONNECTIONS,
)
from backend.main import app
from backend.tests.utils.azure_plans import plan_request
from backend.tests.utils.experiment import create_random_experiment, experiment_payload
from worker.tasks.runs import SOFT_TIME_LIMIT_S

API = "/api/v1"


def _detail(r: Any) -> dict[str, Any]:
    assert r.status_code == 422, r.text
    first: dict[str, Any] = r.json()["detail"][0]
    return first


def _list_routes() -> list[str]:
    """Every GET route of the API that pages rows (has a `skip` query parameter; a file's
    text pages bytes with `offset`)."""
    paths = app.openapi()["paths"]
    return sorted(
        path
        for path, methods in paths.items()
        if any(
            p["in"] == "query" and p["name"] == "skip"
            for p in methods.get("get", {}).get("parameters", [])
        )
    )


def test_the_list_routes_are_found() -> None:
    # The four lists of the product: a route that stops paging shows here, not as a silent pass.
    assert {
        "/api/v1/experiments",
        "/api/v1/experiments/{experiment_id}/runs",
        "/api/v1/views",
        "/api/v1/azure-labs",
    } <= set(_list_routes())


@pytest.mark.parametrize(
    ("param", "value"),
    [("skip", str(2**63)), ("skip", "100000000000000000000"), ("skip", "1e20"), ("skip", "-1")]
    + [("limit", "0"), ("limit", str(2**63))],
)
def test_every_list_route_bounds_its_paging(client: TestClient, param: str, value: str) -> None:
    exp = create_random_experiment(client)
    for route in _list_routes():
        url = route.replace("{experiment_id}", str(exp["id"]))
        assert _detail(client.get(url, params={param: value}))["loc"] == ["query", param], url
        assert client.get(url, params={"skip": 2**31 - 1}).json()["data"] == [], url


@pytest.mark.parametrize(
    "path",
    [
        "/experiments/99999999999",
        "/experiments/99999999999/runs",
        "/experiments/99999999999/events",
        "/runs/99999999999",
        "/testbeds/99999999999",
        "/analysis/experiments/99999999999/summary",
    ],
)
def test_huge_path_ids_are_422_not_500(client: TestClient, path: str) -> None:
    d = _detail(client.get(f"{API}{path}"))
    assert d["loc"][0] == "path" and d["loc"][1].endswith("_id")


def test_huge_testbed_id_in_a_body(client: TestClient) -> None:
    r = client.post(f"{API}/experiments/preview", json=experiment_payload(testbed_id=2**40))
    assert _detail(r)["loc"] == ["body", "testbed_id"]


def test_factor_levels_are_capped_before_checking_them(client: TestClient) -> None:
    levels = list(range(1, MAX_LEVELS + 2))
    payload = experiment_payload(factors={"key_maximum": levels})
    assert _detail(client.post(f"{API}/experiments/preview", json=payload))["loc"] == [
        "body",
        "factors",
        "key_maximum",
    ]


def test_duplicate_levels_still_found_among_many(client: TestClient) -> None:
    levels = [*range(1, 999), 500]
    payload = experiment_payload(factors={"key_maximum": levels})
    d = _detail(client.post(f"{API}/experiments/preview", json=payload))
    assert d["loc"] == ["body", "factors", "key_maximum"] and "listed twice" in d["msg"]
    # True and 1 are different levels of a boolean/int-typed factor check.
    ok = experiment_payload(factors={"sharded": [False, True]}, fixed={"middlewares": 1})
    assert client.post(f"{API}/experiments/preview", json=ok).status_code == 200


def test_memcached_memory_is_checked_against_value_size_and_key_maximum(
    client: TestClient,
) -> None:
    payload = experiment_payload(
        fixed={"servers": 2, "value_size": MAX_VALUE_B, "key_maximum": KEY_MAXIMUM_MAX}
    )
    d = _detail(client.post(f"{API}/experiments/preview", json=payload))
    assert d["loc"] == ["body", "fixed", "key_maximum"]
    assert "value_size" in d["msg"] and "key_maximum" in d["msg"] and "MiB" in d["msg"]


def test_value_size_is_bounded_by_memcached_item_size(client: TestClient) -> None:
    """1 MiB values were accepted and every run failed at populate ("object too large")."""
    payload = experiment_payload(fixed={"servers": 2, "value_size": 1_048_576})
    d = _detail(client.post(f"{API}/experiments/preview", json=payload))
    assert d["loc"] == ["body", "fixed", "value_size"]
    assert str(MAX_VALUE_B) in d["msg"]
    fits = experiment_payload(fixed={"servers": 1, "value_size": MAX_VALUE_B, "key_maximum": 100})
    assert client.post(f"{API}/experiments/preview", json=fits).status_code == 200


def test_direct_connections_are_checked_against_memcached(client: TestClient) -> None:
    payload = experiment_payload(
        factors={"clients_per_thread": [1, 1024]},
        fixed={"middlewares": 0, "threads_per_instance": 8, "servers": 1},
    )
    d = _detail(client.post(f"{API}/experiments/preview", json=payload))
    assert d["loc"] == ["body", "factors", "clients_per_thread"]
    assert "middlewares = 0" in d["msg"] and str(MEMCACHED_MAX_CONNECTIONS) in d["msg"]


def test_middleware_connections_are_checked_against_its_cap(client: TestClient) -> None:
    payload = experiment_payload(
        factors={"clients_per_thread": [1024]},
        fixed={"middlewares": 1, "threads_per_instance": 64, "client_machines": 1},
    )
    d = _detail(client.post(f"{API}/experiments/preview", json=payload))
    assert "middlewares = 1" in d["msg"] and str(MIDDLEWARE_MAX_CONNECTIONS) in d["msg"]


NEAR_ONE = [1 - 2**-53, 0.99999, 1.0]


@pytest.mark.parametrize("level", NEAR_ONE)
def test_every_confidence_level_has_the_one_bound(client: TestClient, level: float) -> None:
    """Compare levels, the experiment analyses' and the figures' confidence all take the one
    bounded Confidence type: a level just below 1 (an infinite t quantile) is a 422."""
    exp = create_random_experiment(client)
    queried = [
        (f"/analysis/experiments/{exp['id']}/summary", "confidence"),
        (f"/analysis/experiments/{exp['id']}/factorial", "confidence"),
        (f"/experiments/{exp['id']}/figures/throughput.svg", "confidence"),
        (f"/experiments/{exp['id']}/bundle.zip", "confidence"),
    ]
    for path, field in queried:
        d = _detail(client.get(f"{API}{path}", params={field: repr(level)}))
        assert d["loc"] == ["query", field] and "0.9999" in d["msg"], (path, d)
    selection = {"experiment_ids": [exp["id"]], "x": "workers"}
    for path in ("/compare/differences", "/compare/groups"):
        d = _detail(client.post(f"{API}{path}", json={**selection, "level": level}))
        assert d["loc"] == ["body", "level"] and "0.9999" in d["msg"], (path, d)


def test_a_given_critical_t_has_its_bound_in_the_query_too(client: TestClient) -> None:
    exp = create_random_experiment(client)
    path = f"{API}/analysis/experiments/{exp['id']}/factorial"
    assert _detail(client.get(path, params={"t_critical": "1e20"}))["loc"] == [
        "query",
        "t_critical",
    ]


def test_utilization_law_inputs_are_measurable(client: TestClient) -> None:
    # Found by the API fuzz test: U = X S of two numbers near 1e308 overflowed, answered null.
    body = {"service_time_s": 1.27e308, "throughput_per_s": 1.79e308}
    r = client.post(f"{API}/analysis/laws/utilization", json=body)
    assert r.status_code == 422, r.text
    assert {tuple(e["loc"]) for e in r.json()["detail"]} == {
        ("body", "service_time_s"),
        ("body", "throughput_per_s"),
    }
    r = client.post(
        f"{API}/analysis/laws/utilization", json={"service_time_s": 0.001, "throughput_per_s": 500}
    )
    assert r.status_code == 200 and r.json()["utilization"] == 0.5


def test_a_run_fits_the_run_tasks_time_limit(client: TestClient) -> None:
    # The longest run time plus its set-up allowance is the task's limit, not more.
    assert RUN_TIME.maximum + RUN_SETUP_ALLOWANCE_S == SOFT_TIME_LIMIT_S == 4 * 3600
    too_long = experiment_payload(run_time_s=RUN_TIME.maximum + 1, factors={}, repetitions=1)
    d = _detail(client.post(f"{API}/experiments/preview", json=too_long))
    assert d["loc"] == ["body", "run_time_s"] and str(RUN_TIME.maximum) in d["msg"]
    longest = experiment_payload(run_time_s=RUN_TIME.maximum, factors={}, repetitions=1)
    assert client.post(f"{API}/experiments/preview", json=longest).status_code == 200


def test_an_experiments_planned_time_is_bounded(client: TestClient) -> None:
    # 4 configurations: the most repetitions within the limit pass, one more is refused.
    run_time_s = RUN_TIME.maximum
    fitting = MAX_PLANNED_S // (4 * run_time_s)
    ok = experiment_payload(run_time_s=run_time_s, repetitions=fitting)
    assert client.post(f"{API}/experiments/preview", json=ok).status_code == 200, ok
    runs = 4 * (fitting + 1)
    over = experiment_payload(run_time_s=run_time_s, repetitions=fitting + 1)
    for path in ("/experiments/preview", "/experiments"):
        d = _detail(client.post(f"{API}{path}", json=over))
        assert d["loc"] == ["body", "run_time_s"], d
        assert f"{runs} runs x {run_time_s} s = {runs * run_time_s} s" in d["msg"], d
        assert f"the limit is {MAX_PLANNED_S} s (30 days)" in d["msg"], d
    # A repetition rule counts with its cap.
    rule = {"min_repetitions": 3, "max_repetitions": fitting + 1}
    ruled = experiment_payload(run_time_s=run_time_s, repetitions=3, repetition_rule=rule)
    assert _detail(client.post(f"{API}/experiments/preview", json=ruled))["loc"] == [
        "body",
        "run_time_s",
    ]


@pytest.mark.parametrize("hours", [1e-9, 0.5, MAX_EXPIRY_HOURS + 1])
def test_azure_expiry_is_within_its_range(client: TestClient, hours: float) -> None:
    body = plan_request(
        "expiry-range", key_path="id_ed25519", subnet_prefix="10.0.0.0/24", expires_in_hours=hours
    )
    for path in ("/azure-labs/plan", "/azure-labs"):
        r = client.post(f"{API}{path}", json=body)
        assert r.status_code == 422, r.text
        (item,) = r.json()["detail"]
        assert item["loc"] == ["body", "expires_in_hours"], item
    assert MIN_EXPIRY_HOURS == 1.0
