"""Comparison endpoints on stored results: parameters, differences, groups, configurations."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from scipy import stats
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.domain.parameters import PARAMETERS
from backend.models import Configuration, RequestType, Run, RunStatus, RunSummary
from backend.tests.utils.experiment import create_random_experiment

API = "/api/v1/compare"
NOISE = (0.0, 10.0, -10.0)  # added to repetitions 0, 1, 2


def _seed(
    client: TestClient,
    db: Session,
    middlewares: int,
    throughput: Callable[[dict[str, Any]], float],
    tools: dict[str, str] | None = None,
    client_size: str = "Standard_A2_v2",
    zone: str | None = None,
) -> dict[str, Any]:
    """An experiment over workers 8/16, 3 repetitions, whose runs succeeded with
    throughput(values) + NOISE[repetition] ops/s, response time 1e6 / throughput us and a
    99th percentile of 3e6 / throughput us."""
    exp = create_random_experiment(
        client,
        factors={"workers": [8, 16]},
        fixed={"servers": 2, "ratio": "0:1", "value_size": 128, "middlewares": middlewares},
        repetitions=3,
    )
    client.post(f"/api/v1/experiments/{exp['id']}/start")
    client.post(f"/api/v1/experiments/{exp['id']}/cancel")
    runs = db.execute(
        select(Run, Configuration.values)
        .join(Configuration, Configuration.id == Run.configuration_id)
        .where(Run.experiment_id == exp["id"])
    ).all()
    for run, values in runs:
        tp = throughput(values) + NOISE[run.repetition]
        db.add(
            RunSummary(
                run_id=run.id,
                source="client:0",
                request_type=RequestType.ALL,
                window_start_s=5,
                window_end_s=25,
                count=int(tp * 20),
                throughput=tp,
                response_time_us=1e6 / tp,
                p99_us=3e6 / tp,
            )
        )
    db.execute(
        update(Run)
        .where(Run.experiment_id == exp["id"])
        .values(
            status=RunStatus.SUCCEEDED,
            tool_versions=tools or {"memtier_benchmark": "2.3.0"},
            hosts=_hosts(client_size, zone),
        )
    )
    db.commit()
    return exp


def _hosts(client_size: str, zone: str | None = None) -> dict[str, Any]:
    """Run.hosts as the worker records it: instances per role and each machine's hardware
    (a zonal VM's zone; a regional one records none)."""
    cpu = "Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz"
    hosts: dict[str, Any] = {
        "server": [{"name": "server-0", "host": "vm-s", "address": "10.0.0.4", "port": 1}],
        "middleware": [],
        "client": [{"name": "client-0", "host": "vm-c", "machine": "vm-c", "target": "server:0"}],
        "hardware": {
            "vm-s": {"cpu_model": cpu, "size": "Standard_A1_v2", "region": "westeurope"},
            "vm-c": {"cpu_model": cpu, "size": client_size, "region": "westeurope"},
        },
    }
    if zone is not None:
        for machine in hosts["hardware"].values():
            machine["zone"] = zone
    return hosts


@pytest.fixture(scope="module")
def pair(client: TestClient, database: str) -> tuple[dict[str, Any], dict[str, Any]]:
    from backend.core.db import SessionLocal

    with SessionLocal() as db:
        one = _seed(client, db, 1, lambda v: 1000.0)
        # At 8 workers two middlewares carry 50% more; at 16 workers 0.1% more (noise).
        two = _seed(client, db, 2, lambda v: 1500.0 if v["workers"] == 8 else 1001.0)
    return one, two


def _loc(r: Any) -> list[list[Any]]:
    return [e["loc"] for e in r.json()["detail"]]


def test_parameters_only_the_fixed_setting_differs(client: TestClient, pair: Any) -> None:
    one, two = pair
    r = client.post(f"{API}/parameters", json={"experiment_ids": [one["id"], two["id"]]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert [e["id"] for e in body["experiments"]] == [one["id"], two["id"]]
    differing = {(row["group"], row["name"]) for row in body["data"] if row["differs"]}
    assert differing == {("parameter", "middlewares")}
    rows = {row["name"]: row for row in body["data"]}
    assert rows["middlewares"]["values"] == [1, 2] and rows["middlewares"]["unit"]
    assert rows["workers"]["values"] == [[8, 16], [8, 16]]
    assert rows["workers"]["varied"] == [True, True] and not rows["workers"]["differs"]
    assert rows["memtier_benchmark"]["values"] == ["2.3.0", "2.3.0"]
    # Rows are labelled as the parameter schema labels them (figures and tables alike).
    assert rows["workers"]["label"] == PARAMETERS["workers"].label == "worker threads"
    assert rows["run_time_s"]["label"] == "run time (s)"
    assert set(body["groupable"]) == {"workers", "middlewares"}
    # Both ran on the same machines: hardware rows, none of them a difference.
    assert rows["client.size"]["values"] == ["Standard_A2_v2", "Standard_A2_v2"]
    assert rows["client.size"]["label"] == "client VM size"
    assert {row["name"] for row in body["data"] if row["group"] == "hardware"} == {
        f"{role}.{fact}"
        for role in ("client", "server")
        for fact in ("size", "region", "cpu_model")
    }
    assert body["hardware_differences"] == []


def test_parameters_show_different_hardware(client: TestClient, db: Session) -> None:
    """The same design on a bigger client VM: Compare says the hardware differs."""
    one = _seed(client, db, 1, lambda v: 1000.0)
    two = _seed(client, db, 1, lambda v: 1000.0, client_size="Standard_D2s_v3")
    r = client.post(f"{API}/parameters", json={"experiment_ids": [one["id"], two["id"]]})
    assert r.status_code == 200, r.text
    body = r.json()
    differing = {(row["group"], row["name"]) for row in body["data"] if row["differs"]}
    assert differing == {("hardware", "client.size")}
    assert body["hardware_differences"] == [
        "different hardware: client VM size Standard_A2_v2 vs Standard_D2s_v3"
    ]


def test_parameters_show_a_different_zone(client: TestClient, db: Session) -> None:
    """The same design and VMs in availability zones 1 and 2: the zone is a difference."""
    one = _seed(client, db, 1, lambda v: 1000.0, zone="1")
    two = _seed(client, db, 1, lambda v: 1000.0, zone="2")
    r = client.post(f"{API}/parameters", json={"experiment_ids": [one["id"], two["id"]]})
    assert r.status_code == 200, r.text
    body = r.json()
    differing = {(row["group"], row["name"]) for row in body["data"] if row["differs"]}
    assert differing == {("hardware", "client.zone"), ("hardware", "server.zone")}
    assert body["hardware_differences"] == [
        "different hardware: client zone 1 vs 2",
        "different hardware: server zone 1 vs 2",
    ]


def test_differences_against_base_experiment(client: TestClient, pair: Any) -> None:
    one, two = pair
    r = client.post(
        f"{API}/differences",
        json={"experiment_ids": [one["id"], two["id"]], "base_experiment_id": one["id"]},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mode"] == "experiments" and body["unmatched"] == 0
    assert body["units"] == {"throughput_per_s": "ops/s", "response_time_us": "us"}
    rows = {(row["values"]["workers"], row["metric"]): row for row in body["data"]}
    assert len(rows) == 4 == body["count"]
    big = rows[(8, "throughput_per_s")]
    base_values = [1000.0 + n for n in NOISE]
    other_values = [1500.0 + n for n in NOISE]
    ci = stats.ttest_ind(other_values, base_values, equal_var=False).confidence_interval(0.95)
    assert big["difference"] == pytest.approx(500.0)
    assert [big["low"], big["high"]] == pytest.approx([ci.low, ci.high])
    assert big["relative_percent"] == pytest.approx(50.0)
    assert big["relative_low"] < 50.0 < big["relative_high"]
    assert big["base"] == {"n": 3, "mean": pytest.approx(1000.0), "std": pytest.approx(10.0)}
    assert big["verdict"] == "significant"
    tiny = rows[(16, "throughput_per_s")]
    assert tiny["relative_percent"] == pytest.approx(0.1)
    assert tiny["verdict"] == "not_distinguishable"
    assert tiny["low"] < 0 < tiny["high"]
    assert rows[(8, "response_time_us")]["verdict"] == "significant"
    assert rows[(8, "response_time_us")]["difference"] < 0


def test_differences_base_is_the_first_by_default_and_brushing_filters(
    client: TestClient, pair: Any
) -> None:
    one, two = pair
    sel = {"experiment_ids": [two["id"], one["id"]], "metrics": ["throughput_per_s"]}
    body = client.post(f"{API}/differences", json=sel).json()
    assert {row["base_experiment_id"] for row in body["data"]} == {two["id"]}
    assert sorted(row["difference"] for row in body["data"]) == pytest.approx([-500.0, -1.0])
    keep = [body["data"][0]["configuration_id"]]
    body = client.post(f"{API}/differences", json={**sel, "only_configuration_ids": keep}).json()
    assert [row["configuration_id"] for row in body["data"]] == keep


def test_differences_between_configurations(client: TestClient, pair: Any) -> None:
    one, two = pair
    configs = client.post(
        f"{API}/configurations", json={"experiment_ids": [one["id"], two["id"]]}
    ).json()["data"]
    by = {(c["experiment_id"], c["values"]["workers"]): c["configuration_id"] for c in configs}
    chosen = [by[(one["id"], 8)], by[(two["id"], 8)], by[(two["id"], 16)]]
    r = client.post(
        f"{API}/differences",
        json={
            "experiment_ids": [one["id"], two["id"]],
            "configuration_ids": chosen,
            "base_configuration_id": by[(two["id"], 16)],
            "metrics": ["throughput_per_s"],
        },
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mode"] == "configurations"
    got = {row["configuration_id"]: row["difference"] for row in body["data"]}
    assert got == {chosen[0]: pytest.approx(-1.0), chosen[1]: pytest.approx(499.0)}


def test_groups_pool_repetitions_with_bands(client: TestClient, pair: Any) -> None:
    one, two = pair
    sel = {"experiment_ids": [one["id"], two["id"]], "x": "workers"}
    r = client.post(f"{API}/groups", json={**sel, "group_by": "middlewares", "band": "std"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert [g["label"] for g in body["data"]] == ["1 middleware", "2 middlewares"]
    g2 = body["data"][1]
    assert g2["runs"] == 6 and g2["configurations"] == 2
    assert [p["x"] for p in g2["points"]] == [8, 16]
    p8 = g2["points"][0]
    assert p8["n"] == 3 and p8["mean"] == pytest.approx(1500.0)
    assert [p8["low"], p8["high"]] == pytest.approx([1490.0, 1510.0])
    ci = client.post(f"{API}/groups", json={**sel, "group_by": "middlewares", "band": "ci"}).json()
    lo, hi = stats.t.interval(0.95, 2, loc=1500.0, scale=10.0 / np.sqrt(3))
    p8 = ci["data"][1]["points"][0]
    assert [p8["low"], p8["high"]] == pytest.approx([lo, hi])
    # By experiment, pooling both worker counts at one x: 6 runs of 1500/1001 +- noise.
    by_exp = client.post(f"{API}/groups", json={**sel, "x": "servers"}).json()
    assert [g["label"] for g in by_exp["data"]] == [one["name"], two["name"]]
    values = [v + n for v in (1500.0, 1001.0) for n in NOISE]
    point = by_exp["data"][1]["points"][0]
    assert point["n"] == 6 and point["mean"] == pytest.approx(np.mean(values))
    assert point["high"] - point["mean"] == pytest.approx(np.std(values, ddof=1))


def test_configurations_table(client: TestClient, pair: Any) -> None:
    one, two = pair
    body = client.post(
        f"{API}/configurations", json={"experiment_ids": [one["id"], two["id"]]}
    ).json()
    assert body["count"] == 4 and set(body["parameters"]) == {"workers", "middlewares"}
    row = next(c for c in body["data"] if c["experiment_id"] == two["id"])
    assert set(row["values"]) == {"workers", "middlewares"} and row["values"]["middlewares"] == 2
    assert row["repetitions"] == 3
    assert round(row["metrics"]["throughput_per_s"]) in (1500, 1001)


def test_bad_selections_are_422_naming_the_field(client: TestClient, pair: Any) -> None:
    one, two = pair
    ids = [one["id"], two["id"]]
    cases = [
        ("differences", {"experiment_ids": [one["id"], 987654321]}, ["body", "experiment_ids", 1]),
        ("differences", {"experiment_ids": [one["id"], one["id"]]}, ["body", "experiment_ids"]),
        ("differences", {"experiment_ids": []}, ["body", "experiment_ids"]),
        (
            "differences",
            # Not one of the selection (a fixed id like 5 may be one, by the order tests run).
            {"experiment_ids": ids, "base_experiment_id": 987654321},
            ["body", "base_experiment_id"],
        ),
        (
            "differences",
            {
                "experiment_ids": [one["id"]],
                "configuration_ids": [987654321],
                "base_configuration_id": 987654321,
            },
            ["body", "configuration_ids", 0],
        ),
        ("differences", {"experiment_ids": ids, "level": 1.0}, ["body", "level"]),
        ("differences", {"experiment_ids": ids, "metrics": ["latency"]}, ["body", "metrics", 0]),
        ("groups", {"experiment_ids": ids, "x": "nope"}, ["body", "x"]),
        (
            "groups",
            {"experiment_ids": ids, "x": "workers", "group_by": "nope"},
            ["body", "group_by"],
        ),
        ("groups", {"experiment_ids": ids, "x": "workers", "band": "iqr"}, ["body", "band"]),
        ("groups", {"experiment_ids": ids, "x": "workers", "metric": "nope"}, ["body", "metric"]),
        # Queue times are the middleware's: the client side does not report them.
        (
            "groups",
            {"experiment_ids": ids, "x": "workers", "metric": "queue_time_us"},
            ["body", "metric"],
        ),
        (
            "differences",
            {"experiment_ids": ids, "metrics": ["throughput_per_s", "queue_length"]},
            ["body", "metrics", 1],
        ),
        ("configurations", {"experiment_ids": ids, "metrics": ["nope"]}, ["body", "metrics", 0]),
        ("configurations", {"experiment_ids": ids, "window_end_s": 20}, ["body", "window_end_s"]),
        (
            "configurations",
            {"experiment_ids": ids, "window_start_s": 20, "window_end_s": 10},
            ["body", "window_end_s"],
        ),
        ("parameters", {"experiment_ids": [987654321]}, ["body", "experiment_ids", 0]),
    ]
    for path, body, loc in cases:
        r = client.post(f"{API}/{path}", json=body)
        assert r.status_code == 422 and _loc(r) == [loc], (path, body, r.text)


def test_configuration_mode_base_must_be_chosen(client: TestClient, pair: Any) -> None:
    one, two = pair
    configs = client.post(f"{API}/configurations", json={"experiment_ids": [one["id"]]}).json()
    cid = configs["data"][0]["configuration_id"]
    r = client.post(
        f"{API}/differences", json={"experiment_ids": [one["id"]], "configuration_ids": [cid]}
    )
    assert r.status_code == 422 and _loc(r) == [["body", "base_configuration_id"]]


def test_windowed_comparison_reads_series(client: TestClient, pair: Any) -> None:
    one, two = pair
    # The seeded runs have summaries only: a re-cut window has nothing to read.
    body = client.post(
        f"{API}/differences",
        json={"experiment_ids": [one["id"], two["id"]], "window_start_s": 5, "window_end_s": 25},
    ).json()
    assert body["count"] == 0 and body["unmatched"] == 2


def test_every_metric_of_the_table_compares(client: TestClient, pair: Any) -> None:
    one, two = pair
    ids = [one["id"], two["id"]]
    r = client.post(f"{API}/differences", json={"experiment_ids": ids, "metrics": ["p99_us"]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["units"] == {"p99_us": "us"}
    at8 = next(d for d in body["data"] if d["values"] == {"workers": 8})
    # p99 = 3e6 / throughput: 1000 ops/s -> 3000 us, 1500 ops/s -> 2000 us.
    assert at8["metric"] == "p99_us" and at8["base"]["mean"] == pytest.approx(
        np.mean([3e6 / (1000.0 + n) for n in NOISE])
    )
    assert at8["verdict"] == "significant" and at8["difference"] < 0
    groups = client.post(
        f"{API}/groups",
        json={"experiment_ids": ids, "x": "workers", "metric": "p99_us", "group_by": "workers"},
    ).json()
    assert groups["unit"] == "us" and [g["label"] for g in groups["data"]] == [
        "8 worker threads",
        "16 worker threads",
    ]
    table = client.post(
        f"{API}/configurations",
        json={"experiment_ids": ids, "metrics": ["throughput_per_s", "p99_us"]},
    ).json()
    assert table["metrics"] == ["throughput_per_s", "p99_us"]
    assert table["units"] == {"throughput_per_s": "ops/s", "p99_us": "us"}
    row = next(c for c in table["data"] if c["experiment_id"] == one["id"])
    assert row["metrics"]["p99_us"] == pytest.approx(np.mean([3e6 / (1000.0 + n) for n in NOISE]))


def test_parameters_show_the_design_options_in_words(client: TestClient) -> None:
    """A repetition rule, a fraction and an SLO search change what was run: Compare names each
    (it showed only 'repetitions 3 | 3'), and a difference in one is a difference."""
    factors = {"workers": [8, 16], "clients_per_thread": [1, 4], "middlewares": [1, 2]}
    plain = create_random_experiment(client, factors=factors, repetitions=3)
    ruled = create_random_experiment(
        client,
        factors=factors,
        repetitions=3,
        repetition_rule={"half_width_pct": 4, "min_repetitions": 3, "max_repetitions": 6},
        fraction={"generators": ["C = AB"]},
    )
    r = client.post(f"{API}/parameters", json={"experiment_ids": [plain["id"], ruled["id"]]})
    assert r.status_code == 200, r.text
    rows = {row["name"]: row for row in r.json()["data"]}
    rule = rows["repetition_rule"]
    assert rule["values"] == [
        "none (fixed repetitions)",
        "throughput (client) +-4 % at 95 %, n 3..6",
    ]
    assert rule["differs"] and rule["group"] == "design"
    assert rows["fraction"]["values"] == ["full grid", "C = AB"] and rows["fraction"]["differs"]
    slo = rows["slo_search"]
    assert slo["values"] == ["none (a grid)", "none (a grid)"] and not slo["differs"]
