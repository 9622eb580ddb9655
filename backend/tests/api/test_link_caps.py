"""Link caps on a testbed's hosts (a cloud-shaped or sized testbed): the network bound reads
them before iperf3's uploads, and the machines table and the run's words name a saturated
link as they name a saturated CPU."""

import uuid

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.domain.round_trip import role_bandwidths
from backend.domain.saturation import WIRE_PER_GOODPUT
from backend.models import Host, HostRole, Run, RunStatus, Testbed, TestbedKind
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.stored import stored_summary

API = "/api/v1"
# The server's link: a 101 Mbit/s cap (goodput), sending 98 % of it over the window (frames
# on the wire, as its interface counts them).
SERVER_TX_B = 0.98 * 101e6 / 8 * WIRE_PER_GOODPUT
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"


def _capped_testbed(db: Session, iperf: dict[str, float] | None = None) -> Testbed:
    bed = Testbed(name=f"cap-{uuid.uuid4().hex[:12]}", kind=TestbedKind.REMOTE)
    caps = {HostRole.SERVER: 101.0, HostRole.CLIENT: 201.0}
    bed.hosts = [
        Host(
            name=role.value,
            role=role,
            address=f"10.0.0.{i + 2}",
            ssh_user="u",
            key_path="k",
            link_cap_mbit_s=cap,
            link_cap_basis="measured",
        )
        for i, (role, cap) in enumerate(caps.items())
    ]
    if iperf is not None:
        bed.network = {
            "bandwidth": [
                {"role": r, "from_host": r, "to_host": "x", "mbit_s": v} for r, v in iperf.items()
            ]
        }
    db.add(bed)
    db.commit()
    return bed


def _experiment(client: TestClient, db: Session, bed: Testbed) -> dict[str, object]:
    exp = create_random_experiment(
        client,
        factors={"ratio": ["0:1"]},
        fixed={"servers": 1, "middlewares": 0, "client_machines": 1, "value_size": 4096},
        repetitions=1,
        testbed_id=bed.id,
    )
    client.post(f"{API}/experiments/{exp['id']}/start")
    client.post(f"{API}/experiments/{exp['id']}/cancel")
    for run in db.scalars(select(Run).where(Run.experiment_id == exp["id"])).all():
        db.add(stored_summary(run.id, "client:0", 2_950.0, 10_000.0))
        db.add(
            stored_summary(run.id, "host:server", 0.0, 0.0, host_cpu_busy_pct=20.0, host_cpus=1.0)
        )
        db.add(
            stored_summary(run.id, "net:server:serveri", 0.0, 0.0, net_tx_bytes_per_s=SERVER_TX_B)
        )
        # Loopback never leaves the host: not the link's.
        db.add(stored_summary(run.id, "net:server:lo", 0.0, 0.0, net_tx_bytes_per_s=9e9))
        db.add(stored_summary(run.id, "net:client:clienti", 0.0, 0.0, net_tx_bytes_per_s=1e5))
    db.execute(update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED))
    db.commit()
    return exp


def test_caps_come_before_iperf() -> None:
    caps: dict[str, list[tuple[float | None, str | None]]] = {
        "server": [(101.0, "measured")],
        "client": [(201.0, "measured"), (None, None)],
    }
    probe = {"bandwidth": [{"role": "client", "mbit_s": 180.0}, {"role": "server", "mbit_s": 95.0}]}
    got = role_bandwidths(caps, probe)
    # Every server host is capped: its cap; a client host is not: iperf3's figure.
    assert got.mbit_s == {"server": 101.0, "client": 180.0}
    assert got.source == {"server": "link cap (measured)", "client": "iperf3"}


def test_network_bound_reads_the_caps(client: TestClient, db: Session) -> None:
    bed = _capped_testbed(db, iperf={"server": 95.0, "client": 180.0})
    exp = _experiment(client, db, bed)
    r = client.get(f"{API}/analysis/experiments/{exp['id']}/network-bound")
    assert r.status_code == 200, r.text
    (row,) = r.json()["data"]
    roles = {b["role"]: b for b in row["roles"]}
    assert roles["server"]["bandwidth_mbit_s"] == 101.0
    assert roles["server"]["bandwidth_source"] == "link cap (measured)"
    assert row["limiting_role"] == "server"
    assert row["bound_per_s"] == pytest.approx(101e6 / 8 / 4131)


def test_machines_name_the_saturated_link(client: TestClient, db: Session) -> None:
    exp = _experiment(client, db, _capped_testbed(db))
    r = client.get(f"{API}/experiments/{exp['id']}/machines")
    assert r.status_code == 200, r.text
    (row,) = r.json()["data"]
    links = {u["host"]: u for u in row["links"]}
    assert links["server"]["utilization"] == pytest.approx(0.98)
    assert links["server"]["saturated"] and not links["client"]["saturated"]
    assert links["client"]["cap_basis"] == "measured"
    # The CPU is not saturated (0.2 of 1 core): the link alone makes the row saturated.
    assert row["saturated"] and row["host_utilization"] == pytest.approx(0.2)
    assert row["summary"].startswith(
        "server link of server saturated: sends 98.98 of 101 Mbit/s (98 %); hosts' CPU not"
    )


def test_hosts_take_a_cap_and_refuse_a_basis_alone(client: TestClient) -> None:
    host = {
        "name": "s1",
        "role": "server",
        "address": "10.0.0.9",
        "ssh_user": "u",
        "key_path": "k",
        "host_key": KEY,
    }
    bad = client.post(
        f"{API}/testbeds",
        json={
            "name": f"b-{uuid.uuid4().hex[:8]}",
            "hosts": [{**host, "link_cap_basis": "measured"}],
        },
    )
    assert bad.status_code == 422
    assert bad.json()["detail"][0]["loc"][-1] == "link_cap_basis"
    negative = client.post(
        f"{API}/testbeds",
        json={"name": f"n-{uuid.uuid4().hex[:8]}", "hosts": [{**host, "link_cap_mbit_s": -1}]},
    )
    assert negative.status_code == 422
    assert negative.json()["detail"][0]["loc"][-1] == "link_cap_mbit_s"


def test_the_run_page_words_name_the_link() -> None:
    from backend.figures.monitoring import RunResources, SourceLine, links_in_words

    sent = [
        SourceLine("net:server:serveri", 0, [SERVER_TX_B] * 30),
        SourceLine("net:server:lo", 0, [9e9] * 30),
        SourceLine("net:client:clienti", 0, [1e5] * 30),
    ]
    data = RunResources(1, 5, 25, [], [], {}, sent, {"server": ("server", 101.0)})
    # Only capped hosts are named; loopback is left out.
    assert links_in_words(data) == [
        "server link of server saturated: sends 98.98 of 101 Mbit/s (98 %)"
    ]
