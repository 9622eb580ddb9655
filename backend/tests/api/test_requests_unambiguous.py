"""Requests that cannot be misread: unknown fields, station kinds, t values, answers at N."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.main import app
from backend.tests.utils.experiment import create_random_experiment

API = "/api/v1/analysis"
STATIONS: list[dict[str, Any]] = [
    {"name": "delay_in", "kind": "delay", "service_time_s": 0.3e-3},
    {"name": "net_thread", "kind": "queue", "service_time_s": 0.08661008e-3},
    {"name": "workers", "kind": "multi", "service_time_s": 1.094205e-3, "servers": 64},
    {"name": "memcached", "kind": "queue", "service_time_s": 1 / 2940},
    {"name": "delay_out", "kind": "delay", "service_time_s": 0.3e-3},
]


SPEC = app.openapi()
SCHEMAS: dict[str, dict[str, Any]] = SPEC["components"]["schemas"]


def _refs(node: Any) -> list[str]:
    """Component names referenced anywhere inside a JSON-schema node."""
    if isinstance(node, dict):
        own = [node["$ref"].rsplit("/", 1)[-1]] if "$ref" in node else []
        return own + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def _body_operations() -> list[tuple[str, str, str]]:
    """(method, path, body schema name) of every operation with a JSON body."""
    out = []
    for path, ops in SPEC["paths"].items():
        for method, op in ops.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                out.append((method.upper(), path, _refs(body["schema"])[0]))
    return out


def test_every_request_body_model_forbids_unknown_fields() -> None:
    todo = [name for _, _, name in _body_operations()]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += _refs(SCHEMAS[name])
    objects = sorted(n for n in seen if SCHEMAS[n].get("type") == "object")
    assert len(objects) > 20  # every body of the API, analysis and experiments alike
    lenient = [n for n in objects if SCHEMAS[n].get("additionalProperties") is not False]
    assert lenient == []


@pytest.mark.parametrize("op", _body_operations(), ids=lambda op: f"{op[0]} {op[1]}")
def test_unknown_body_field_is_422_naming_it(client: TestClient, op: tuple[str, str, str]) -> None:
    method, path, _ = op
    # A real experiment: routes that load it first would answer 404 before reading the body.
    exp_id = str(create_random_experiment(client)["id"])
    r = client.request(method, path.replace("{experiment_id}", exp_id), json={"misspelled": 1})
    assert r.status_code == 422, r.text
    extra = [d for d in r.json()["detail"] if d["type"] == "extra_forbidden"]
    assert [d["loc"] for d in extra] == [["body", "misspelled"]]


def test_mm1_with_a_misspelled_field_is_422_not_ignored(client: TestClient) -> None:
    body = {"arrival_rate_per_s": 18062, "service_rate_per_s": 20788, "percentile": [50]}
    r = client.post(f"{API}/mm1", json=body)
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "percentile"]
    assert r.json()["detail"][0]["type"] == "extra_forbidden"


@pytest.mark.parametrize("kind", ["queue", "delay"])
def test_station_with_servers_but_not_multi_is_422(client: TestClient, kind: str) -> None:
    stations = [dict(s) for s in STATIONS]
    stations[1] = {"name": "pool", "kind": kind, "service_time_s": 1e-3, "servers": 64}
    r = client.post(f"{API}/mva", json={"stations": stations, "population": 24})
    assert r.status_code == 422
    detail = r.json()["detail"][0]
    assert detail["loc"] == ["body", "stations", 1, "servers"]
    assert 'use kind "multi"' in detail["msg"]


def test_multi_server_station_is_solved_with_its_servers_and_echoed(client: TestClient) -> None:
    pool = {"name": "pool", "kind": "multi", "service_time_s": 1e-3, "servers": 64}
    r = client.post(f"{API}/mva", json={"stations": [pool], "population": 200})
    assert r.status_code == 200
    body = r.json()
    # 64 servers of 1 ms saturate at 64,000/s, never at the 1,000/s of one server.
    assert body["at_population"]["throughput_per_s"] == pytest.approx(64_000, rel=1e-3)
    assert body["stations"][0]["servers"] == 64
    assert body["at_population"]["stations"][0]["kind"] == "multi"


def test_mva_answers_at_the_requested_population(client: TestClient) -> None:
    r = client.post(f"{API}/mva", json={"stations": STATIONS, "population": 24})
    assert r.status_code == 200
    at = r.json()["at_population"]
    assert at["population"] == 24
    assert round(at["throughput_per_s"], 2) == 2940.00  # DOMAIN.md's Octave check
    by_name = {s["name"]: s for s in at["stations"]}
    assert round(by_name["memcached"]["queue_length"], 2) == 18.68
    assert round(by_name["memcached"]["residence_time_s"] * 1e3, 2) == 6.35
    assert round(by_name["workers"]["utilization_per_server"], 2) == 0.05
    # Published 3.21 is truncated (X S = 3.2170 exactly, see test_mva_exact).
    assert abs(by_name["workers"]["queue_length"] - 3.21) < 0.01
    assert round(by_name["net_thread"]["queue_length"], 2) == 0.34
    assert round(by_name["delay_in"]["queue_length"], 2) == 0.88
    assert at["throughput_per_s"] == r.json()["throughput_per_s"][-1]


JAIN_Y = [[15, 18, 12], [45, 48, 51], [25, 28, 19], [75, 75, 81]]


def test_factorial_takes_the_critical_t_value_directly(client: TestClient) -> None:
    body: dict[str, Any] = {"factors": ["A", "B"], "y": JAIN_Y, "confidence": 0.90}
    exact = client.post(f"{API}/factorial", json=body).json()
    table = client.post(f"{API}/factorial", json={**body, "t_critical": 1.86}).json()
    assert exact["t_given"] is False and exact["t_critical"] == pytest.approx(1.8595, abs=1e-4)
    assert table["t_given"] is True and table["t_critical"] == 1.86
    q0 = {e["name"]: e for e in table["effects"]}["I"]
    # Jain Example 18.x: s_q = 1.03, q0 = 41 -/+ 1.86 s_q = (39.08, 42.92).
    half = 1.86 * table["effect_std"]
    assert q0["ci_low"] == pytest.approx(41 - half) and q0["ci_high"] == pytest.approx(41 + half)
    assert round(q0["ci_low"], 2) == 39.08


@pytest.mark.parametrize(
    ("extra", "y", "loc"),
    [
        ({"t_critical": 0}, JAIN_Y, ["body", "t_critical"]),
        ({"t_critical": -1.86}, JAIN_Y, ["body", "t_critical"]),
        ({"t_critical": 1.86, "confidence": None}, [[1], [2], [3], [5]], ["body", "t_critical"]),
    ],
)
def test_factorial_bad_t_critical_is_422(
    client: TestClient, extra: dict[str, Any], y: list[list[float]], loc: list[str]
) -> None:
    r = client.post(f"{API}/factorial", json={"factors": ["A", "B"], "y": y, **extra})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == loc


def test_multiclass_beyond_three_pools_exact_and_approximate(client: TestClient) -> None:
    stations = [
        {"name": f"pool{i}", "kind": "multi", "service_time_s": 1.0, "servers": 2 + i}
        for i in range(5)
    ]
    demands = [0.004, 0.006, 0.003, 0.009, 0.002]
    classes = [
        {"name": "get", "population": 12, "demands_s": demands},
        {"name": "set", "population": 8, "demands_s": demands[::-1]},
    ]
    exact = client.post(f"{API}/mva/multiclass", json={"stations": stations, "classes": classes})
    assert exact.status_code == 200, exact.text
    assert exact.json()["method"] == "exact" and exact.json()["iterations"] is None
    approx = client.post(
        f"{API}/mva/multiclass",
        json={"stations": stations, "classes": classes, "method": "approximate"},
    )
    assert approx.status_code == 200 and approx.json()["method"] == "approximate"
    for xe, xa in zip(
        exact.json()["throughput_per_s"], approx.json()["throughput_per_s"], strict=True
    ):
        assert xa == pytest.approx(xe, rel=0.10)
    bad = client.post(
        f"{API}/mva/multiclass", json={"stations": stations, "classes": classes, "method": "fast"}
    )
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["body", "method"]
