"""Ad-hoc analysis endpoints: published numbers through HTTP, units, and clear 422s."""

from typing import Any

from fastapi.testclient import TestClient

API = "/api/v1/analysis"

OCTAVE_STATIONS: list[dict[str, Any]] = [
    {"name": "delay_in", "kind": "delay", "service_time_s": 0.3e-3},
    {"name": "net_thread", "kind": "queue", "service_time_s": 0.08661008e-3},
    {"name": "workers", "kind": "multi", "service_time_s": 1.094205e-3, "servers": 64},
    {"name": "memcached", "kind": "queue", "service_time_s": 1 / 2940},
    {"name": "delay_out", "kind": "delay", "service_time_s": 0.3e-3},
]


def test_mm1_published_check(client: TestClient) -> None:
    r = client.post(f"{API}/mm1", json={"arrival_rate_per_s": 18062, "service_rate_per_s": 20788})
    assert r.status_code == 200, r.text
    body = r.json()
    assert round(body["mean_response_s"] * 1e6, 2) == 366.84
    assert body["units"]["mean_response_s"] == "s"
    assert body["units"]["var_response_s2"] == "s^2"


def test_mm1_unstable_is_422_with_field(client: TestClient) -> None:
    r = client.post(f"{API}/mm1", json={"arrival_rate_per_s": 30000, "service_rate_per_s": 20788})
    assert r.status_code == 422
    detail = r.json()["detail"][0]
    assert detail["loc"] == ["body", "arrival_rate_per_s"]
    assert "unstable" in detail["msg"]


def test_mmm_published_check_and_schema_constraints(client: TestClient) -> None:
    body = {"arrival_rate_per_s": 5955.95, "service_rate_per_s": 421.93, "servers": 16}
    r = client.post(f"{API}/mmm", json=body)
    assert r.status_code == 200
    assert round(r.json()["mean_jobs"], 2) == 18.10
    r = client.post(f"{API}/mmm", json={**body, "servers": 0})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "servers"]


def test_mva_octave_check_with_bounds(client: TestClient) -> None:
    r = client.post(
        f"{API}/mva", json={"stations": OCTAVE_STATIONS, "population": 24, "include_bounds": True}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert round(body["throughput_per_s"][-1], 2) == 2940.00
    assert body["bottleneck"] == "memcached"
    st = {x["name"]: x for x in body["stations"]}
    assert round(st["memcached"]["queue_length"][-1], 2) == 18.68
    assert round(st["workers"]["utilization_per_server"][-1], 2) == 0.05
    assert st["workers"]["prob_busy"][-1] > 0.9
    assert st["delay_in"]["prob_busy"] is None
    assert body["bounds"]["bottleneck"] == "memcached"
    assert body["units"]["throughput_per_s"] == "ops/s"


def test_mva_undefined_network_is_422(client: TestClient) -> None:
    stations = [{"name": "q", "kind": "queue", "service_time_s": 0.0}]
    r = client.post(f"{API}/mva", json={"stations": stations, "population": 3})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "stations"]


def test_multiclass_and_what_if(client: TestClient) -> None:
    stations = [
        {"name": "cpu", "kind": "queue", "service_time_s": 1.0},
        {"name": "disk", "kind": "queue", "service_time_s": 1.0},
    ]
    classes: list[dict[str, Any]] = [
        {"name": "a", "population": 3, "demands_s": [0.1, 0.2]},
        {"name": "b", "population": 2, "think_time_s": 0.5, "demands_s": [0.3, 0.05]},
    ]
    r = client.post(f"{API}/mva/multiclass", json={"stations": stations, "classes": classes})
    assert r.status_code == 200, r.text
    assert len(r.json()["throughput_per_s"]) == 2
    pooled = [*stations, {"name": "pool", "kind": "multi", "service_time_s": 1.0, "servers": 8}]
    pooled_classes = [{**c, "demands_s": [*c["demands_s"], 0.4]} for c in classes]
    r = client.post(f"{API}/mva/multiclass", json={"stations": pooled, "classes": pooled_classes})
    assert r.status_code == 200, r.text
    assert 0.0 < r.json()["prob_busy"][2] <= 1.0
    r = client.post(
        f"{API}/mva/what-if",
        json={
            "stations": OCTAVE_STATIONS,
            "population": 24,
            "parameter": "servers",
            "station": "workers",
            "values": [1, 8, 64],
        },
    )
    assert r.status_code == 200, r.text
    xs = r.json()["throughput_per_s"]
    assert xs[0] < xs[1] <= xs[2]


def test_factorial_jain_and_r1_confidence_is_422(client: TestClient) -> None:
    y = [[15, 18, 12], [45, 48, 51], [25, 28, 19], [75, 75, 81]]
    r = client.post(f"{API}/factorial", json={"factors": ["A", "B"], "y": y})
    assert r.status_code == 200, r.text
    effects = {e["name"]: e for e in r.json()["effects"]}
    assert effects["A"]["value"] == 21.5 and round(effects["A"]["variation_percent"], 1) == 78.9
    r1 = client.post(f"{API}/factorial", json={"factors": ["A", "B"], "y": [[1], [2], [3], [4]]})
    assert r1.status_code == 422
    assert r1.json()["detail"][0]["loc"] == ["body", "replications"]
    ok = client.post(
        f"{API}/factorial",
        json={"factors": ["A", "B"], "y": [[1], [2], [3], [5]], "confidence": None},
    )
    assert ok.status_code == 200 and ok.json()["lenth"] is not None


def test_statistics_and_percentiles(client: TestClient) -> None:
    r = client.post(f"{API}/statistics/repetitions", json={"values": [10, 12, 11, 13]})
    assert r.status_code == 200 and r.json()["ci"]["dof"] == 3
    r = client.post(f"{API}/statistics/repetitions", json={"values": [10]})
    assert r.status_code == 422 and "2 repetitions" in r.json()["detail"][0]["msg"]
    r = client.post(f"{API}/statistics/repetitions", json={"values": [10], "confidence": None})
    assert r.status_code == 200 and r.json()["std"] is None
    hist = {"upper_bounds_us": [100, 200, 300], "counts": [10, 20, 10]}
    r = client.post(
        f"{API}/percentiles/histogram", json={"histograms": [hist, hist], "percentiles": [50]}
    )
    assert r.status_code == 200, r.text
    assert r.json()["total"] == 80 and r.json()["percentiles"][0]["value_us"] == 150.0
    r = client.post(
        f"{API}/percentiles/histogram",
        json={"histograms": [{"upper_bounds_us": [1], "counts": [0]}]},
    )
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "counts"]


def test_laws_saturation_breakdown_relative(client: TestClient) -> None:
    r = client.post(
        f"{API}/laws/interactive",
        json={"clients": 200, "response_time_s": 0.013, "measured_throughput_per_s": 15400},
    )
    assert r.status_code == 200 and abs(r.json()["deviation_percent"]) < 1.0
    r = client.post(
        f"{API}/laws/little",
        json={"measured_length": 50, "throughput_per_s": 15400, "time_s": 0.0035},
    )
    assert round(r.json()["predicted_length"], 1) == 53.9
    r = client.post(
        f"{API}/saturation",
        json={
            "series": [
                {"label": "8", "resource": 8, "loads": [1, 2, 4], "throughputs_per_s": [10, 19, 20]}
            ]
        },
    )
    assert r.status_code == 200 and r.json()["knees"][0]["knee_load"] == 2
    r = client.post(
        f"{API}/breakdown",
        json={
            "client_response_us": 7600,
            "middleware_response_us": 7000,
            "queue_us": 3500,
            "server_us": 3400,
        },
    )
    assert r.json()["network_us"] == 600 and r.json()["units"]["network_us"] == "us"
    r = client.post(f"{API}/relative-differences", json={"values": {"a": 2, "b": 3}, "base": "c"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "base"]
