"""The monitor's numbers served: demand models, the resources figures, Compare and exports."""

import csv
import io

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.tests.utils.stored import (
    HOST_DEMAND_S,
    MONITOR_DEMANDS_S,
    model_throughput,
    stored_experiment,
)

API = "/api/v1"


def test_read_demand_models_from_stored_series(client: TestClient, db: Session) -> None:
    exp = stored_experiment(client, db)
    r = client.get(f"{API}/analysis/experiments/{exp['id']}/demand-models")
    assert r.status_code == 200, r.text
    groups = r.json()["data"]
    assert len(groups) == 2  # workers 8 and 16; clients per thread varies within each
    for g in groups:
        model = g["model"]
        (cpu,) = model["stations"]
        assert cpu["name"] == "CPU of local" and cpu["servers"] == 2
        # The utilization law: the stored CPU (U = X D) over the clients' X gives D back.
        assert cpu["demand_s"] == pytest.approx(HOST_DEMAND_S)
        memcached = next(p for p in model["processes"] if p["name"].startswith("memcached"))
        assert memcached["servers"] == 1
        assert memcached["demand_s"] == pytest.approx(MONITOR_DEMANDS_S["process:server:0"])
        assert model["cpu_demand_s"] == pytest.approx(MONITOR_DEMANDS_S["process:middleware:0"])
        assert model["timer_demand_s"] > 0
        assert len(model["points"]) == 2
        for p in model["points"]:
            assert p["bound_throughput_per_s"] > 0 and p["model_throughput_per_s"] > 0
            # A measurement above the bound is never left without a warning.
            if p["measured_throughput_per_s"] > p["bound_throughput_per_s"]:
                assert any(w.startswith(f"N = {p['clients']}: measured") for w in model["warnings"])
        # At ~13k ops/s x 120 us the two cores are 0.8 busy: the shared CPU is the bottleneck.
        assert model["bottleneck"]["resource"] == "CPU of local"
        assert model["bottleneck"]["utilization"] == pytest.approx(
            max(p["measured_throughput_per_s"] for p in model["points"]) * HOST_DEMAND_S / 2
        )
    assert r.json()["units"]["demand_s"] == "s"


def test_demand_models_bad_tolerance_is_422(client: TestClient, db: Session) -> None:
    exp = stored_experiment(client, db)
    r = client.get(
        f"{API}/analysis/experiments/{exp['id']}/demand-models", params={"timer_tolerance": 0}
    )
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["query", "timer_tolerance"]


def test_demand_models_without_monitor_data_is_422(client: TestClient) -> None:
    from backend.tests.utils.experiment import create_random_experiment

    exp = create_random_experiment(client)
    r = client.get(f"{API}/analysis/experiments/{exp['id']}/demand-models")
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"][-1] == "experiment"


@pytest.mark.parametrize("name", ["resources", "resource-utilization"])
def test_read_resource_figures(client: TestClient, db: Session, name: str) -> None:
    exp = stored_experiment(client, db)
    r = client.get(f"{API}/experiments/{exp['id']}/figures/{name}.json")
    assert r.status_code == 200, r.text
    traces = {t["name"] for t in r.json()["data"]}
    if name == "resources":
        assert {"CPU host:local", "CPU process:server:0", "bytes/s net:local:lo"} <= traces
        shapes = r.json()["layout"]["shapes"]
        assert [(s["x0"], s["x1"]) for s in shapes] == [(5, 25)]  # the stable window
    else:
        assert "CPU of local (2 servers)" in traces


def test_compare_reads_monitor_metrics(client: TestClient, db: Session) -> None:
    exp = stored_experiment(client, db)
    r = client.post(
        f"{API}/compare/configurations",
        json={
            "experiment_ids": [exp["id"]],
            "source": "process",
            "metrics": ["process_cpu_pct"],
        },
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["units"] == {"process_cpu_pct": "% of a core"}
    # The run's processes summed (rule 3), repetitions averaged: (30 + 50) us x X, in %.
    first = body["data"][0]
    x = model_throughput(first["values"], 0) + 50.0  # repetitions 0 and 1: +0, +100
    assert first["metrics"]["process_cpu_pct"] == pytest.approx(100 * x * 80e-6)


MULTIGETS = {"servers": 2, "ratio": "0:6", "value_size": 128, "multiget_size": 3, "sharded": True}


@pytest.mark.parametrize("fixed", [None, MULTIGETS], ids=["gets", "sharded-multigets"])
def test_demand_models_have_the_round_trip_and_the_links(
    client: TestClient, db: Session, fixed: dict[str, object] | None
) -> None:
    """The runs' measured round trip is a delay station; the testbed's iperf3 bandwidths make
    each role's link a station whose capacity is the network bound the API serves (with the
    design's multi-gets: two 3-key gets per cycle, sharded over two servers)."""
    from sqlalchemy import select

    from backend.analysis.request_mix import servers_asked
    from backend.models import Experiment, Run
    from backend.tests.api.test_network_between_roles import RTT_US, _probe, _testbed
    from backend.tests.utils.memcached_text import get_reply, memtier_key, value

    exp = stored_experiment(client, db, **({"fixed": fixed} if fixed else {}))
    url = f"{API}/analysis/experiments/{exp['id']}/demand-models"
    before = {tuple(g["configuration_ids"]): g["model"] for g in client.get(url).json()["data"]}
    for run in db.scalars(select(Run).where(Run.experiment_id == exp["id"])).all():
        run.hosts = {**(run.hosts or {}), "network": _probe(RTT_US)}
    bed = _testbed(db, {"client": 201.0, "middleware": 802.0, "server": 101.0})
    experiment = db.get(Experiment, exp["id"])
    assert experiment is not None
    experiment.testbed_id = bed.id
    db.commit()
    r = client.get(url)
    assert r.status_code == 200, r.text
    bounds = client.get(f"{API}/analysis/experiments/{exp['id']}/network-bound").json()["data"]
    bound_of = {b["configuration_id"]: {x["role"]: x for x in b["roles"]} for b in bounds}
    for g in r.json()["data"]:
        model = g["model"]
        assert model["network_delay_s"] == pytest.approx(RTT_US / 1e6)
        old = before[tuple(g["configuration_ids"])]
        for new_p, old_p in zip(model["points"], old["points"], strict=True):
            # The delay adds to every response time at N = 1 and lowers the bound N / (D + Z).
            assert new_p["bound_throughput_per_s"] <= old_p["bound_throughput_per_s"]
        assert model["points"][0]["model_response_time_s"] > RTT_US / 1e6
        links = {s["name"]: s for s in model["stations"] if s["name"].startswith("network of")}
        roles = bound_of[g["configuration_ids"][0]]
        assert len(links) == len(roles) == 3
        for role, b in roles.items():
            (link,) = [s for n, s in links.items() if n.startswith(f"network of {role} ")]
            assert link["servers"] == b["hosts"]
            # Capacity m / D is the role's bound.
            assert link["servers"] / link["demand_s"] == pytest.approx(b["bound_per_s"])
        if fixed:
            # The server link carries each 3-key get's blocks and an END per server asked.
            reply = len(get_reply([memtier_key(10_000)] * 3, value(128)))
            sent = reply + (servers_asked(3, 2, sharded=True) - 1) * len(b"END\r\n")
            assert roles["server"]["bound_per_s"] == pytest.approx(101e6 / 8 / sent)


@pytest.mark.usefixtures("closes_renderer")
def test_compare_exports_carry_the_monitor_sides(client: TestClient, db: Session) -> None:
    """What the Compare page offers for hosts and processes exports as it shows: the grouped
    curves' figure and the differences table for the process side's CPU."""
    exp = stored_experiment(client, db)
    other = stored_experiment(client, db)
    body = {
        "experiment_ids": [exp["id"], other["id"]],
        "source": "process",
        "request_type": "all",
        "metric": "process_cpu_pct",
        "x": "clients_per_thread",
    }
    fig = client.post(f"{API}/compare/figures/compare-groups.json", json=body)
    assert fig.status_code == 200, fig.text
    assert "% of a core" in fig.text
    assert any(len(t.get("y", [])) > 0 for t in fig.json()["data"])
    diffs = {**body, "metrics": ["process_cpu_pct"]}
    del diffs["metric"], diffs["x"]
    table = client.post(f"{API}/compare/tables/differences.csv", json=diffs)
    assert table.status_code == 200, table.text
    header, *rows = list(csv.reader(io.StringIO(table.text)))
    assert "Base mean (% of a core)" in header
    served = client.post(f"{API}/compare/differences", json=diffs).json()["data"]
    mean = header.index("Base mean (% of a core)")
    assert [float(r[mean]) for r in rows] == pytest.approx([d["base"]["mean"] for d in served])
    host = client.post(
        f"{API}/compare/figures/compare-groups.json",
        json={**body, "source": "host", "metric": "host_cpu_busy_pct"},
    )
    assert host.status_code == 200, host.text


def _process_cpu(client: TestClient, exp_id: int, **selection: object) -> list[float | None]:
    r = client.post(
        f"{API}/compare/configurations",
        json={
            "experiment_ids": [exp_id],
            "source": "process",
            "metrics": ["process_cpu_pct"],
            **selection,
        },
    )
    assert r.status_code == 200, r.text
    return [row["metrics"]["process_cpu_pct"] for row in r.json()["data"]]


@pytest.mark.parametrize("window", [None, {"window_start_s": 8, "window_end_s": 20}])
def test_compare_reads_one_roles_processes(
    client: TestClient, db: Session, window: dict[str, int] | None
) -> None:
    """role=middleware sums the middlewares' processes only (process:middleware:<N>), in the
    stored window and in a re-cut one; a role without processes in the runs has no values."""
    exp = stored_experiment(client, db)
    every = _process_cpu(client, exp["id"], **(window or {}))
    by_role = {
        role: _process_cpu(client, exp["id"], role=role, **(window or {}))
        for role in ("middleware", "server", "client")
    }
    total = sum(MONITOR_DEMANDS_S.values())
    for role in ("middleware", "server"):
        share = MONITOR_DEMANDS_S[f"process:{role}:0"] / total
        assert [v * share for v in every if v is not None] == pytest.approx(
            [v for v in by_role[role] if v is not None]
        )
    assert all(v is not None for v in every)
    assert by_role["client"] == [None] * len(every)


def test_compare_reads_the_network_side(client: TestClient, db: Session) -> None:
    exp = stored_experiment(client, db)
    r = client.post(
        f"{API}/compare/configurations",
        json={
            "experiment_ids": [exp["id"]],
            "source": "net",
            "metrics": ["net_rx_bytes_per_s", "net_tx_packets_per_s"],
        },
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["units"] == {"net_rx_bytes_per_s": "bytes/s", "net_tx_packets_per_s": "packets/s"}
    first = body["data"][0]
    x = model_throughput(first["values"], 0) + 50.0  # repetitions 0 and 1: +0, +100
    assert first["metrics"]["net_rx_bytes_per_s"] == pytest.approx(200 * x)
    assert first["metrics"]["net_tx_packets_per_s"] == pytest.approx(2 * x)


@pytest.mark.parametrize(
    ("path", "selection"),
    [
        ("configurations", {"source": "client", "role": "middleware"}),
        ("configurations", {"source": "host", "role": "server"}),
        ("configurations", {"role": "middleware"}),  # the default side is the clients'
        ("configurations", {"source": "process", "role": "monitor"}),
        ("configurations", {"source": "process", "role": "memcached"}),
        ("differences", {"source": "net", "role": "client"}),
        ("groups", {"source": "middleware", "role": "middleware", "x": "workers"}),
    ],
)
def test_a_bad_role_is_422_naming_it(
    client: TestClient, path: str, selection: dict[str, str]
) -> None:
    r = client.post(f"{API}/compare/{path}", json={"experiment_ids": [1], **selection})
    assert r.status_code == 422, r.text
    assert [e["loc"] for e in r.json()["detail"]] == [["body", "role"]], r.text


def test_compare_exports_carry_the_role(client: TestClient, db: Session) -> None:
    """The differences CSV and the grouped curves' figure of role=middleware are the
    middlewares' numbers, not every process's."""
    exp = stored_experiment(client, db)
    other = stored_experiment(client, db)
    body = {
        "experiment_ids": [exp["id"], other["id"]],
        "source": "process",
        "role": "middleware",
        "metrics": ["process_cpu_pct"],
    }
    table = client.post(f"{API}/compare/tables/differences.csv", json=body)
    assert table.status_code == 200, table.text
    header, *rows = list(csv.reader(io.StringIO(table.text)))
    mean = header.index("Base mean (% of a core)")
    served = client.post(f"{API}/compare/differences", json=body).json()["data"]
    every = client.post(f"{API}/compare/differences", json={**body, "role": None}).json()["data"]
    share = MONITOR_DEMANDS_S["process:middleware:0"] / sum(MONITOR_DEMANDS_S.values())
    assert [float(r[mean]) for r in rows] == pytest.approx([d["base"]["mean"] for d in served])
    assert [d["base"]["mean"] for d in served] == pytest.approx(
        [d["base"]["mean"] * share for d in every]
    )
    figure = {k: v for k, v in body.items() if k != "metrics"}
    figure |= {"metric": "process_cpu_pct", "x": "clients_per_thread"}
    groups = client.post(f"{API}/compare/groups", json=figure)
    fig = client.post(f"{API}/compare/figures/compare-groups.json", json=figure)
    assert groups.status_code == fig.status_code == 200, fig.text
    means = sorted(p["mean"] for g in groups.json()["data"] for p in g["points"])
    drawn = sorted(y for t in fig.json()["data"] for y in t.get("y", []) if y is not None)
    assert means and set(means) <= set(drawn)


def test_parcoords_of_a_monitor_side_has_its_own_metric_axes(
    client: TestClient, db: Session
) -> None:
    """A monitor side reports no throughput: the axes are the side's metric alone (no 422)."""
    exp = stored_experiment(client, db)
    body = {
        "experiment_ids": [exp["id"]],
        "source": "process",
        "role": "middleware",
        "metric": "process_cpu_pct",
    }
    fig = client.post(f"{API}/compare/figures/compare-parcoords.json", json=body)
    assert fig.status_code == 200, fig.text
    labels = [d["label"] for d in fig.json()["data"][0]["dimensions"]]
    assert any("% of a core" in label for label in labels), labels
    assert not any("Throughput" in label for label in labels), labels


def test_the_resources_figure_names_the_saturated_resource(client: TestClient, db: Session) -> None:
    """Beside the figure, each host's whole CPU over the stable window in words, with mcscope's
    processes' share of it: the host counts every process, the processes only mcscope's."""
    exp = stored_experiment(client, db)
    fig = client.get(f"{API}/experiments/{exp['id']}/figures/resources.json").json()
    traces = {t["name"]: t for t in fig["data"]}

    def window_mean(name: str) -> float:
        t = traces[name]
        inside = [y for x, y in zip(t["x"], t["y"], strict=True) if 5 <= x < 25]
        return float(sum(inside)) / len(inside)

    host = window_mean("CPU host:local") / 100
    ours = sum(window_mean(n) for n in traces if n.startswith("CPU process:")) / 100
    verdict = "saturated" if host / 2 >= 0.9 else "not saturated"
    (cpu, net) = fig["layout"]["meta"]["machines"]
    assert cpu == (
        f"host:local: {host:.2f} of 2 cores busy ({100 * host / 2:.0f} %), {verdict}; "
        f"mcscope's processes {ours:.2f} cores of it"
    )
    assert host > ours  # the load generator and the kernel count on the host only
    assert net.startswith("busiest interface net:local:lo: ")


def test_machines_per_configuration(client: TestClient, db: Session) -> None:
    """Per configuration over the stable window: the hosts' whole CPU against their cores and
    mcscope's processes' share (both shown), each role's processes, the network, in words."""
    exp = stored_experiment(client, db)
    r = client.get(f"{API}/experiments/{exp['id']}/machines")
    assert r.status_code == 200, r.text
    body = r.json()
    results = client.get(f"{API}/experiments/{exp['id']}/results").json()["data"]
    throughput = {r["configuration_id"]: r["metrics"]["throughput_per_s"]["mean"] for r in results}
    assert len(body["data"]) == len(results)
    for row in body["data"]:
        tp = throughput[row["configuration_id"]]
        assert row["host_cpus"] == 2.0
        # Seeded: the host's CPU is throughput x 120 us, mcscope's processes 30 + 50 us of it.
        assert row["host_cpu_busy_pct"] == pytest.approx(100 * tp * HOST_DEMAND_S, rel=1e-6)
        ours = sum(MONITOR_DEMANDS_S.values())
        assert row["process_cpu_pct"] == pytest.approx(100 * tp * ours, rel=1e-6)
        assert row["host_utilization"] == pytest.approx(tp * HOST_DEMAND_S / 2, rel=1e-6)
        assert row["process_utilization"] < row["host_utilization"]
        assert row["process_cpu_pct_by_role"]["middleware"] == pytest.approx(
            100 * tp * MONITOR_DEMANDS_S["process:middleware:0"], rel=1e-6
        )
        assert row["saturated"] == (row["host_utilization"] >= body["saturated_share"])
        state = "saturated" if row["saturated"] else "not saturated"
        assert row["summary"].startswith(f"hosts' CPU {state}: ")
        assert row["net_bytes_per_s"] is not None


def test_machines_without_monitoring_say_so(client: TestClient) -> None:
    from backend.tests.utils.experiment import create_random_experiment

    exp = create_random_experiment(client)
    rows = client.get(f"{API}/experiments/{exp['id']}/machines").json()["data"]
    assert rows and all(r["summary"] == "no machine monitoring stored" for r in rows)
    assert all(r["host_utilization"] is None and not r["saturated"] for r in rows)
