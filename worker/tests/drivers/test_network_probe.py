"""The network between roles measured on namespace hosts behind a 1 ms one-way delay
(delaynet.DelayedTestbed: netem's job done in user space, as this kernel has no netem):
round trips about 2 ms on the testbed and at a run, iperf3 uploads per role, and the model's
network delay taken from the runs' round trips. Needs root, iproute2 and /dev/net/tun; fails
saying why elsewhere, never skips."""

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.models import Run, RunStatus
from backend.tests.api.test_analysis_fit import _seeded
from backend.tests.utils.testbeds import wait_for_scans
from worker.runs.execute import MAX_ATTEMPTS
from worker.tasks.runs import _execute_run
from worker.testbed_network import measure_testbed_network
from worker.tests.drivers.delaynet import DelayedTestbed, tc_netem_supported
from worker.tests.drivers.netns import netns_supported
from worker.tests.utils.experiments import SHORTEST_RUN, create_queued_experiment, runs_of

pytestmark = pytest.mark.integration
DELAY_S = 1e-3  # each way


@pytest.fixture()
def delayed(local_sshd: None, tmp_path: Path) -> Iterator[DelayedTestbed]:
    reason = netns_supported()
    if reason:
        pytest.fail(f"cannot create the namespace testbed: {reason}")
    if not Path("/dev/net/tun").exists():
        pytest.fail("cannot create the delayed network: no /dev/net/tun")
    bed = DelayedTestbed(3, tmp_path, DELAY_S)
    try:
        bed.up()
        yield bed
    finally:
        bed.down()


def _register(client: TestClient, bed: DelayedTestbed, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(settings, "SSH_KEY_DIR", Path(bed.key_path).parent)
    r = client.post(
        "/api/v1/testbeds",
        json={
            "name": f"delayed-{bed.tag}",
            "hosts": [
                {
                    "name": h.name,
                    "role": role,
                    "address": h.address,
                    "ssh_user": "root",
                    "key_path": Path(bed.key_path).name,
                }
                for h, role in zip(bed.hosts, ["client", "middleware", "server"], strict=True)
            ],
        },
    )
    assert r.status_code == 201, r.text
    wait_for_scans(client, r.json()["id"])
    return int(r.json()["id"])


def test_round_trips_bandwidth_and_model_delay(
    db: Session,
    client: TestClient,
    delayed: DelayedTestbed,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    print(f"kernel netem available: {tc_netem_supported()}")
    testbed_id = _register(client, delayed, monkeypatch)
    iperf = shutil.which("iperf3") is not None
    assert iperf, "iperf3 is not installed (infra/local/install-deps.sh installs it)"
    stored = measure_testbed_network(testbed_id, bandwidth=True)
    assert stored is not None and stored["status"] == "measured", stored
    network: dict[str, Any] = client.get(f"/api/v1/testbeds/{testbed_id}").json()["network"]
    legs = {(p["from_role"], p["to_role"]): p for p in network["paths"]}
    assert set(legs) == {("client", "middleware"), ("middleware", "server")}
    for leg, path in legs.items():
        print(f"{leg}: samples {path['samples_us']} us, median {path['rtt_us']} us")
        assert len(path["samples_us"]) == 5
        # Each packet waits DELAY_S in the router, so no round trip is shorter than 2 ms.
        assert min(path["samples_us"]) >= 2 * DELAY_S * 1e6
    rtt_us = network["client_middleware_rtt_us"]
    assert rtt_us == legs[("client", "middleware")]["rtt_us"]
    roles = network["bandwidth_by_role_mbit_s"]
    print(f"iperf3 uploads through the user-space router: {roles} Mbit/s")
    assert set(roles) == {"client", "middleware", "server"}
    assert all(v > 0 for v in roles.values())

    # The model's network delay is half the round trip its runs measured.
    exp = _seeded(client, db)
    probe = {"method": "tcp_connect", "paths": network["paths"]}
    for run in db.scalars(select(Run).where(Run.experiment_id == exp["id"])).all():
        db.execute(update(Run).where(Run.id == run.id).values(hosts={"network": probe}))
    db.commit()
    (group,) = client.get(f"/api/v1/analysis/experiments/{exp['id']}/network-inputs").json()["data"]
    assert group["system"]["network_delay_s"] == pytest.approx(rtt_us / 2 / 1e6)
    assert group["system"]["network_delay_s"] >= DELAY_S
    source = next(e for e in group["estimates"] if e["parameter"] == "network_delay_s")
    assert source["source"].startswith("measured client -> middleware TCP round trip / 2")
    rows = client.get(f"/api/v1/analysis/experiments/{exp['id']}/breakdown").json()
    assert all(r["round_trip_us"] == pytest.approx(rtt_us) for r in rows["data"])
    assert "load generator" in rows["rest_label"]


def test_a_run_measures_its_paths_on_the_service_ports(
    db: Session,
    client: TestClient,
    delayed: DelayedTestbed,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    testbed_id = _register(client, delayed, monkeypatch)
    exp, (run_id,) = create_queued_experiment(
        db,
        factors={"clients_per_thread": [2]},
        fixed={
            "servers": 1,
            "middlewares": 0,
            "ratio": "1:9",
            "value_size": 128,
            "key_maximum": 1000,
            "load_generator": "memaslap",
        },
        testbed_id=testbed_id,
        **SHORTEST_RUN,  # the paths are measured before the load: the shortest run
    )
    errors = []
    for _ in range(MAX_ATTEMPTS):
        if _execute_run(run_id) is None:
            break
        errors.append(runs_of(db, exp.id)[0].error)
    (run,) = runs_of(db, exp.id)
    assert run.status == RunStatus.SUCCEEDED, (run.error, errors)
    (path,) = run.hosts["network"]["paths"]
    server = run.hosts["server"][0]
    assert (path["from_role"], path["to_role"]) == ("client", "server")
    assert (path["address"], path["port"]) == (server["address"], server["port"])
    print(f"run {run_id}: client -> server {path['samples_us']} us")
    assert min(path["samples_us"]) >= 2 * DELAY_S * 1e6
    served = client.get(f"/api/v1/runs/{run_id}").json()
    assert served["network"]["paths"][0]["rtt_us"] == path["rtt_us"]
