"""Ad-hoc analysis endpoints: published numbers through HTTP, units, and clear 422s."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.schemas.limits import MAX_TIME_S, MIN_TIME_S

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
    # The one rule: the upper edge of the bucket holding rank 40 of 80.
    assert r.json()["total"] == 80 and r.json()["percentiles"][0]["value_us"] == 200.0
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


# Extreme inputs of the ad-hoc routes (issue 17, found by the API fuzz test as 500s): each is a
# 422 naming the one field at fault. Beyond the physical limits in backend/schemas/limits.py
# the schema refuses the value; within them, a result that would not be finite is refused by
# the model with the input to blame.
_Y = [[15, 18, 12], [45, 48, 51], [25, 28, 19], [75, 75, 81]]
_QUEUE = {"name": "q", "kind": "queue", "service_time_s": 1e-3}
_INTERACTIVE = {"clients": 200, "response_time_s": 0.013, "measured_throughput_per_s": 15400}
_LITTLE = {"measured_length": 50, "throughput_per_s": 15400, "time_s": 0.0035}
_BREAKDOWN = {
    "client_response_us": 7600,
    "middleware_response_us": 7000,
    "queue_us": 3500,
    "server_us": 3400,
}
_CLASS = {"name": "a", "population": 3, "demands_s": [1e-3]}
_SERIES = {"label": "8", "resource": 8, "loads": [1], "throughputs_per_s": [10]}
# Visits so small that X = N / D overflows although each input lies within its bounds.
_VANISHING = [{**_QUEUE, "service_time_s": 1e-9, "visits": 1e-310}]
EXTREMES: list[tuple[str, dict[str, Any], list[str | int], str]] = [
    ("factorial", {"y": [[1, 2], [3], [4, 5], [6, 7]]}, ["body", "y"], "same number r"),
    ("factorial", {"y": [[1e308, 1, 1], *_Y[1:]]}, ["body", "y", 0, 0], "less than or equal"),
    ("factorial", {"confidence": 1 - 2**-53}, ["body", "confidence"], "0.9999"),
    ("factorial", {"t_critical": 1e308}, ["body", "t_critical"], "less than or equal"),
    ("mva/bounds", {"think_time_s": 1e308}, ["body", "think_time_s"], "less than or equal"),
    (
        "mva/bounds",
        {"stations": [{**_QUEUE, "service_time_s": 1e-320}]},
        ["body", "stations", 0, "service_time_s"],
        "below what can be measured",
    ),
    ("mva/bounds", {"stations": _VANISHING}, ["body", "stations"], "not a finite number"),
    ("mva", {"think_time_s": 1.7e308}, ["body", "think_time_s"], "less than or equal"),
    (
        "mva",
        {"stations": [{**_QUEUE, "visits": 1e308}]},
        ["body", "stations", 0, "visits"],
        "less than or equal",
    ),
    ("mva", {"stations": _VANISHING}, ["body", "stations"], "not a finite number"),
    (
        "statistics/repetitions",
        {"values": [1e308, 1.0]},
        ["body", "values", 0],
        "less than or equal",
    ),
    ("statistics/repetitions", {"confidence": 1 - 2**-53}, ["body", "confidence"], "0.9999"),
    ("laws/interactive", {"clients": 1e308}, ["body", "clients"], "less than or equal"),
    ("laws/interactive", {"clients": 5e-324}, ["body", "clients"], "greater than or equal"),
    (
        "laws/interactive",
        {"response_time_s": 1e-320},
        ["body", "response_time_s"],
        "below what can be measured",
    ),
    (
        "laws/interactive",
        {"think_time_s": 1e308},
        ["body", "think_time_s"],
        "less than or equal",
    ),
    ("laws/little", {"throughput_per_s": 1e308}, ["body", "throughput_per_s"], "less than"),
    (
        "laws/little",
        {"throughput_per_s": 1e-160},
        ["body", "throughput_per_s"],
        "below what can be measured",
    ),
    ("laws/little", {"time_s": 1e308}, ["body", "time_s"], "less than or equal"),
    ("laws/little", {"measured_length": 1e308}, ["body", "measured_length"], "less than"),
    (
        "breakdown",
        {"middleware_response_us": 1e308},
        ["body", "middleware_response_us"],
        "less than or equal",
    ),
    # Demands outside double range once the model ran: a 500.
    (
        "mva/multiclass",
        {"classes": [{**_CLASS, "demands_s": [1.7e308]}]},
        ["body", "classes", 0, "demands_s", 0],
        "less than or equal",
    ),
    (
        "mva/multiclass",
        {"classes": [{**_CLASS, "demands_s": [5e-324]}]},
        ["body", "classes", 0, "demands_s", 0],
        "below what can be measured",
    ),
    # Means near 1e308 summed to an infinite throughput: a 500.
    (
        "statistics/instances",
        {"throughput_means_per_s": [1.7e308, 1]},
        ["body", "throughput_means_per_s", 0],
        "less than or equal",
    ),
    (
        "statistics/instances",
        {"response_stds_us": [-1, 1]},
        ["body", "response_stds_us", 0],
        "greater than or equal",
    ),
    # Named as the request names it (the model said "throughput_means").
    (
        "statistics/instances",
        {"throughput_means_per_s": [0, 0]},
        ["body", "throughput_means_per_s"],
        "total throughput is zero",
    ),
    (
        "statistics/instances",
        {"response_means_us": [1]},
        ["body", "throughput_means_per_s"],
        "lengths differ",
    ),
    # A utilization no double holds (4.8e132 / 5e-324): a 500 (found by `make fuzz-api`).
    ("mmm", {"service_rate_per_s": 4.79e132}, ["body", "service_rate_per_s"], "less than or equal"),
    ("mmm", {"arrival_rate_per_s": 5e-324}, ["body", "arrival_rate_per_s"], "below what can be"),
    ("mm1", {"arrival_rate_per_s": 1e10}, ["body", "arrival_rate_per_s"], "less than or equal"),
    # 95 % of a negative maximum throughput lies above it: no knee, a 500 (`make fuzz-api`).
    (
        "saturation",
        {"series": [{**_SERIES, "throughputs_per_s": [-1.5e16]}]},
        ["body", "series", 0, "throughputs_per_s", 0],
        "greater than or equal",
    ),
    (
        "saturation",
        {"series": [{**_SERIES, "resource": -1}]},
        ["body", "series", 0, "resource"],
        "greater than or equal",
    ),
    (
        "saturation",
        {"series": [{**_SERIES, "loads": [1e308]}]},
        ["body", "series", 0, "loads", 0],
        "less than or equal",
    ),
    # 100 (y - x) / x overflowed to an infinite difference: a 500 (found by `make fuzz-api`).
    (
        "relative-differences",
        {"values": {"a": 2, "b": -1.7976931348623157e308}},
        ["body", "values", "b"],
        "greater than or equal",
    ),
    (
        "relative-differences",
        {"values": {"a": 1e-310, "b": 1e15}},
        ["body", "base"],
        "too close to zero",
    ),
    (
        "breakdown",
        {"client_response_us": 1e-320},
        ["body", "client_response_us"],
        "below what can be measured",
    ),
]
_BASE: dict[str, dict[str, Any]] = {
    "factorial": {"factors": ["A", "B"], "y": _Y},
    "mva/bounds": {"stations": [_QUEUE], "population": 3},
    "mva": {"stations": [_QUEUE], "population": 3, "include_bounds": True},
    "statistics/repetitions": {"values": [10, 12, 11, 13]},
    "laws/interactive": _INTERACTIVE,
    "laws/little": _LITTLE,
    "breakdown": _BREAKDOWN,
    "relative-differences": {"values": {"a": 2, "b": 3}, "base": "a"},
    "saturation": {"series": [_SERIES]},
    "mva/multiclass": {"stations": [_QUEUE], "classes": [_CLASS]},
    "statistics/instances": {
        "throughput_means_per_s": [5000, 5400],
        "throughput_stds_per_s": [30, 40],
        "response_means_us": [6000, 6400],
        "response_stds_us": [100, 120],
    },
    "mm1": {"arrival_rate_per_s": 18062, "service_rate_per_s": 20788},
    "mmm": {"arrival_rate_per_s": 18062, "service_rate_per_s": 20788, "servers": 2},
}


@pytest.mark.parametrize(
    ("route", "change", "loc", "says"),
    EXTREMES,
    ids=[f"{route}:{next(iter(change))}" for route, change, _, _ in EXTREMES],
)
def test_extreme_inputs_are_422_naming_the_field(
    client: TestClient, route: str, change: dict[str, Any], loc: list[str | int], says: str
) -> None:
    ok = client.post(f"{API}/{route}", json=_BASE[route])
    assert ok.status_code == 200, ok.text
    r = client.post(f"{API}/{route}", json={**_BASE[route], **change})
    assert r.status_code == 422, r.text
    (detail,) = r.json()["detail"]
    assert detail["loc"] == loc
    assert says in detail["msg"]


def test_limits_keep_the_published_inputs_and_their_zeros(client: TestClient) -> None:
    # The physical limits leave 0 allowed wherever it was (no think time, an empty queue).
    r = client.post(f"{API}/laws/little", json={**_LITTLE, "throughput_per_s": 0})
    assert r.status_code == 200 and r.json()["deviation_percent"] is None
    r = client.post(
        f"{API}/breakdown", json={**_BREAKDOWN, "queue_us": 0, "middleware_response_us": 3400}
    )
    assert r.status_code == 200 and r.json()["processing_us"] == 0
    r = client.post(
        f"{API}/laws/interactive",
        json={**_INTERACTIVE, "response_time_s": MAX_TIME_S, "think_time_s": MAX_TIME_S},
    )
    assert r.status_code == 200 and r.json()["expected_throughput_per_s"] == 200 / (2 * MAX_TIME_S)


def test_mva_response_time_keeps_its_digits_beside_a_long_think_time(client: TestClient) -> None:
    # R = N / X - Z would cancel to noise (even below 0) with Z = 10^6 s and R = 10^-9 s.
    pool = {"name": "pool", "kind": "multi", "service_time_s": MIN_TIME_S, "servers": 4}
    r = client.post(
        f"{API}/mva", json={"stations": [pool], "population": 3, "think_time_s": MAX_TIME_S}
    )
    assert r.status_code == 200, r.text
    assert r.json()["response_time_s"] == pytest.approx([MIN_TIME_S] * 3, rel=1e-9)
