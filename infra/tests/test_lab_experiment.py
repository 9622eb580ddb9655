"""The whole path on "Azure" hosts: a lab created through the engine against the fake ARM,
registered through the real API with the host keys mcscope generated, a small experiment run
on it over SSH by the worker's run code, then the lab deleted and nothing left in the fake.
A host whose pinned key differs from the one it was given fails its run before any login."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.core.host_keys import fingerprint
from backend.models import RunStatus
from infra.azure import provision
from infra.azure.arm import Arm
from infra.azure.cloud_init import new_host_key
from infra.azure.lab import build_testbed_payload, register
from infra.azure.spec import LabSpec
from infra.tests.fake_arm import FakeArm, iter_namespaces
from worker.runs.execute import MAX_ATTEMPTS
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import create_queued_experiment, runs_of

pytestmark = pytest.mark.integration

FIXED = {
    "servers": 1,
    "middlewares": 0,
    "instances_per_machine": 1,
    "ratio": "1:9",
    "value_size": 128,
    "key_maximum": 2000,
    "load_generator": "memaslap",
}


@pytest.fixture()
def lab_name() -> str:
    return "azrun"


def _run_once(db: Session, testbed_id: int) -> tuple[RunStatus, str | None, dict[str, Any]]:
    """Queue a one-run experiment on the testbed and execute it as the Celery task would."""
    exp, (run_id,) = create_queued_experiment(
        db, factors={"clients_per_thread": [2]}, fixed=FIXED, run_time_s=3, testbed_id=testbed_id
    )
    retries: list[str | None] = []
    for _ in range(MAX_ATTEMPTS):
        if _execute_run(run_id) is None:
            break
        retries.append(runs_of(db, exp.id)[0].error)
    (run,) = runs_of(db, exp.id)
    if retries and run.status == RunStatus.SUCCEEDED:
        warnings.warn(f"run needed {len(retries)} retries: {retries}", stacklevel=1)
    return run.status, run.error, dict(run.hosts or {})


def test_experiment_on_an_azure_lab_then_teardown(
    db: Session,
    client: TestClient,
    arm: Arm,
    fake_arm: FakeArm,
    small_lab: LabSpec,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(settings, "SSH_KEY_DIR", Path(small_lab.ssh_private_key_path).parent)
    lab = provision.create(arm, small_lab)
    body = register(small_lab, lab.hosts, client=client)
    roles = {h["name"]: h["role"] for h in body["hosts"]}
    assert roles == {
        "azrun-server-1": "server",
        "azrun-middleware-1": "middleware",
        "azrun-client-1": "client",
    }

    status, error, hosts = _run_once(db, body["id"])
    assert status == RunStatus.SUCCEEDED, error
    server, client_host = lab.hosts[0], lab.hosts[2]
    assert [s["address"] for s in hosts["server"]] == [server.private_ip]
    # The keys the run met are the ones mcscope generated and put in each VM's cloud-init.
    assert hosts["ssh_host_keys"] == {
        h.name: fingerprint(h.host_key) for h in (server, client_host)
    }

    # The same VMs registered again with another key pinned for the server: the run fails
    # on that host before logging in.
    payload = build_testbed_payload(small_lab, lab.hosts)
    payload["name"] = "azrun-tampered"
    payload["hosts"][0]["host_key"] = new_host_key().public_line
    r = client.post("/api/v1/testbeds", json=payload)
    assert r.status_code == 201, r.text
    status, error, _ = _run_once(db, r.json()["id"])
    assert status == RunStatus.FAILED
    assert error is not None and "host key changed" in error and "azrun-server-1" in error

    names = fake_arm.hosts.namespaces()
    assert provision.delete(arm, small_lab.resource_group)
    assert fake_arm.resource_ids() == []
    assert not set(names) & set(iter_namespaces())
