"""The measured network between roles as the API serves it: the breakdown's network split by
the runs' round trips, the model's delay from them, and the network bound per role from a
testbed's bandwidths (DOMAIN.md section 7)."""

import math
import uuid

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.analysis.request_mix import servers_asked
from backend.models import Host, HostRole, Run, RunStatus, Testbed, TestbedKind
from backend.tests.api.test_analysis_fit import _seeded
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.memcached_text import get_line, get_reply, memtier_key, value
from backend.tests.utils.stored import stored_summary

API = "/api/v1/analysis"
RTT_US = 2000.0


def _probe(rtt_us: float) -> dict[str, object]:
    return {
        "method": "tcp_connect",
        "paths": [
            {
                "from_role": "client",
                "from_host": "c",
                "to_role": "middleware",
                "to_host": "m",
                "address": "10.0.0.2",
                "port": 11000,
                "samples_us": [rtt_us] * 5,
                "rtt_us": rtt_us,
            }
        ],
    }


def test_breakdown_and_model_use_the_runs_round_trip(client: TestClient, db: Session) -> None:
    exp = _seeded(client, db)
    db.execute(
        update(Run).where(Run.experiment_id == exp["id"]).values(hosts={"network": _probe(RTT_US)})
    )
    db.commit()
    body = client.get(f"{API}/experiments/{exp['id']}/breakdown").json()
    for row in body["data"]:
        assert row["round_trip_us"] == RTT_US
        assert row["rest_us"] == pytest.approx(row["network_us"] - RTT_US)
    # No testbed: the local one, where the rest is the load generator's own time.
    assert body["rest_label"].startswith("client-side time, includes the load generator's CPU")
    (group,) = client.get(f"{API}/experiments/{exp['id']}/network-inputs").json()["data"]
    assert group["system"]["network_delay_s"] == pytest.approx(RTT_US / 2 / 1e6)
    figure = client.get(f"/api/v1/experiments/{exp['id']}/figures/breakdown.json")
    assert figure.status_code == 200, figure.text
    names = [t["name"] for t in figure.json()["data"]]
    assert names == [
        "queue",
        "server",
        "processing",
        "network round trip (measured)",
        body["rest_label"],
    ]


def _testbed(db: Session, bandwidth: dict[str, float] | None) -> Testbed:
    bed = Testbed(name=f"bw-{uuid.uuid4().hex[:12]}", kind=TestbedKind.REMOTE)  # unique per call
    bed.hosts = [
        Host(name=r.value, role=r, address=f"10.0.0.{i + 2}", ssh_user="u", key_path="k")
        for i, r in enumerate(HostRole)
    ]
    if bandwidth is not None:
        bed.network = {
            "bandwidth": [
                {"role": r, "from_host": r, "to_host": "x", "mbit_s": v}
                for r, v in bandwidth.items()
            ],
            "bandwidth_measured_at": "2026-11-26T15:00:00+00:00",
        }
    db.add(bed)
    db.commit()
    return bed


def _succeeded(client: TestClient, db: Session, exp_id: int, tp: float, rt: float) -> None:
    """Queue and cancel the experiment's runs, then store them succeeded with one client summary."""
    client.post(f"/api/v1/experiments/{exp_id}/start")
    client.post(f"/api/v1/experiments/{exp_id}/cancel")
    for run in db.scalars(select(Run).where(Run.experiment_id == exp_id)).all():
        db.add(stored_summary(run.id, "client:0", tp, rt))
    db.execute(update(Run).where(Run.experiment_id == exp_id).values(status=RunStatus.SUCCEEDED))
    db.commit()


def test_network_bound_per_role(client: TestClient, db: Session) -> None:
    bed = _testbed(db, {"client": 201.0, "middleware": 802.0, "server": 101.0})
    exp = create_random_experiment(
        client,
        factors={"ratio": ["1:0", "0:1"]},
        fixed={
            "servers": 1,
            "middlewares": 1,
            "client_machines": 1,
            "value_size": 4096,
            "key_maximum": 10_000,
        },
        repetitions=1,
        testbed_id=bed.id,
    )
    _succeeded(client, db, exp["id"], 3000.0, 1000.0)
    r = client.get(f"{API}/experiments/{exp['id']}/network-bound")
    assert r.status_code == 200, r.text
    rows = {row["values"]["ratio"]: row for row in r.json()["data"]}
    sets = {b["role"]: b for b in rows["1:0"]["roles"]}
    # 4,131 B set requests through the client's 201 Mbit/s upload (DOMAIN.md: the report's
    # 6,078 at its unrounded bandwidth).
    assert math.floor(sets["client"]["sets_per_s_per_host"]) == 6082
    assert rows["1:0"]["limiting_role"] == "client"
    gets = {b["role"]: b for b in rows["0:1"]["roles"]}
    # The text protocol's get reply here is 4,131 B (the report counted 4,132: 3,055 gets/s).
    assert gets["server"]["bound_per_s"] == pytest.approx(101e6 / 8 / 4131)
    assert rows["0:1"]["limiting_role"] == "server"
    assert rows["0:1"]["measured_throughput_per_s"] == pytest.approx(3000.0)
    assert rows["0:1"]["fraction_of_bound"] == pytest.approx(3000.0 / (101e6 / 8 / 4131))


def test_network_bound_of_multigets(client: TestClient, db: Session) -> None:
    # Ratio 0:3 is three one-key gets per cycle at K = 1 and one 3-key get at K = 3 (memtier
    # counts the ratio in keys); the bound counts requests, as the measured throughput does.
    bed = _testbed(db, {"client": 201.0, "middleware": 802.0, "server": 101.0})
    exp = create_random_experiment(
        client,
        factors={"multiget_size": [1, 3], "sharded": [False, True]},
        fixed={
            "servers": 3,
            "middlewares": 1,
            "client_machines": 1,
            "ratio": "0:3",
            "value_size": 4096,
            "key_maximum": 10_000,
        },
        repetitions=1,
        testbed_id=bed.id,
    )
    _succeeded(client, db, exp["id"], 1000.0, 1000.0)
    r = client.get(f"{API}/experiments/{exp['id']}/network-bound")
    assert r.status_code == 200, r.text
    rows = {
        (row["values"]["multiget_size"], row["values"]["sharded"]): {
            b["role"]: b for b in row["roles"]
        }
        for row in r.json()["data"]
    }
    keys = [memtier_key(10_000)] * 3
    reply = len(get_reply(keys, value(4096)))
    # The testbed has one server host: the three servers' replies all leave it.
    assert rows[1, False]["server"]["bound_per_s"] == pytest.approx(101e6 / 8 / 4131)
    assert rows[1, True] == rows[1, False]
    assert rows[3, False]["server"]["bound_per_s"] == pytest.approx(101e6 / 8 / reply)
    assert rows[3, False]["client"]["bound_per_s"] == pytest.approx(201e6 / 8 / len(get_line(keys)))
    # Sharded: an END from each server asked, and a get line to each.
    asked = servers_asked(3, 3, sharded=True)
    extra = (asked - 1) * len(b"END\r\n")
    assert rows[3, True]["server"]["bound_per_s"] == pytest.approx(101e6 / 8 / (reply + extra))
    mw_plain = len(get_line(keys)) + reply
    assert rows[3, False]["middleware"]["bytes_per_request"] == pytest.approx(mw_plain)
    assert rows[3, True]["middleware"]["bytes_per_request"] == pytest.approx(
        mw_plain + (asked - 1) * len(b"get\r\n")
    )
    for row in r.json()["data"]:
        assert row["fraction_of_bound"] == pytest.approx(1000.0 / row["bound_per_s"])


def test_network_bound_without_bandwidth_is_a_422(client: TestClient, db: Session) -> None:
    exp = create_random_experiment(client)
    r = client.get(f"{API}/experiments/{exp['id']}/network-bound")
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"][-1] == "testbed"
