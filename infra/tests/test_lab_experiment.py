"""The whole path on "Azure" hosts: a lab created against the fake ARM (through the engine and
the API as the command-line tool does, or by the worker's create_lab task), registered with
the host keys mcscope generated, a small experiment run on it over SSH by the worker's run
code, then the lab deleted and nothing left in the fake.
A host whose pinned key differs from the one it was given fails its run before any login."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.azure import provisioning
from backend.azure.arm import Arm
from backend.azure.cloud_init import new_host_key
from backend.azure.lab_spec import LabSpec, Role
from backend.core.config import settings
from backend.core.host_keys import fingerprint, scan_host_key
from backend.models import RunStatus, Testbed
from infra.azure.register import register
from infra.tests.fake_arm import FakeArm, iter_namespaces
from infra.tests.labs import SMALL_EXPERIMENT, ready_lab
from worker.runs.execute import MAX_ATTEMPTS
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import SHORTEST_RUN, create_queued_experiment, runs_of
from worker.tests.utils.hardware import local_cpu_model

# What happens to runs, not what their load measures (a lab is created, run on and deleted against
# the fake ARM): run last in the load lane, beside the browser tests
# (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]

FIXED = SMALL_EXPERIMENT


@pytest.fixture(params=["api", "task"])
def how(request: pytest.FixtureRequest) -> str:
    """How the lab is made and registered: the engine then the API (the command-line path),
    or the worker's create_lab task body (engine, then the testbed written by the worker)."""
    return str(request.param)


@pytest.fixture()
def lab_name(how: str) -> str:
    return f"run{how}"


def _run_once(db: Session, testbed_id: int) -> tuple[RunStatus, str | None, dict[str, Any]]:
    """Queue a one-run experiment on the testbed and execute it as the Celery task would."""
    exp, (run_id,) = create_queued_experiment(
        # Azure orchestration, not the load: the shortest run on the lab's VMs.
        db,
        factors={"clients_per_thread": [2]},
        fixed=FIXED,
        testbed_id=testbed_id,
        **SHORTEST_RUN,
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


def _make_testbed(
    how: str, db: Session, client: TestClient, arm: Arm, fake: FakeArm, spec: LabSpec
) -> Testbed:
    if how == "api":
        lab = provisioning.create(arm, spec)
        testbed_id = register(spec, lab.hosts, client=client)["id"]
    else:
        testbed_id = ready_lab(db, fake, spec).testbed_id
    testbed = db.get(Testbed, testbed_id)
    assert testbed is not None
    return testbed


def test_experiment_on_an_azure_lab_then_teardown(
    how: str,
    lab_name: str,
    db: Session,
    client: TestClient,
    arm: Arm,
    fake_arm: FakeArm,
    small_lab: LabSpec,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(settings, "SSH_KEY_DIR", Path(small_lab.ssh_private_key_path).parent)
    # In availability zone 2: every host records it, read back from its VM.
    small_lab = small_lab.model_copy(update={"zone": "2"})
    testbed = _make_testbed(how, db, client, arm, fake_arm, small_lab)
    server, middleware, client_host = testbed.hosts
    assert [h.zone for h in testbed.hosts] == ["2", "2", "2"]
    assert [(h.name, h.role.value) for h in testbed.hosts] == [
        (f"{lab_name}-server-1", "server"),
        (f"{lab_name}-middleware-1", "middleware"),
        (f"{lab_name}-client-1", "client"),
    ]
    # Pinned before any connection: the keys mcscope generated, which the hosts serve.
    for h in testbed.hosts:
        assert h.host_key_source == "supplied"
        assert h.host_key == scan_host_key(h.address, 22)

    status, error, hosts = _run_once(db, testbed.id)
    assert status == RunStatus.SUCCEEDED, error
    assert [s["address"] for s in hosts["server"]] == [server.address]
    assert hosts["ssh_host_keys"] == {
        h.name: fingerprint(h.host_key or "") for h in (server, client_host)
    }
    # Each host's hardware as registered (VM size, region, zone) and its CPU as read at the run.
    assert hosts["hardware"] == {
        h.name: {"cpu_model": local_cpu_model(), "size": h.size, "region": h.region, "zone": "2"}
        for h in (server, client_host)
    }
    assert server.size == small_lab.roles[Role.SERVER].size and server.region == small_lab.region

    # The same VMs registered again with another key pinned for the server: the run fails
    # on that host before logging in.
    payload = {
        "name": f"{lab_name}-tampered",
        "kind": "azure",
        "hosts": [
            {
                "name": h.name,
                "role": h.role.value,
                "address": h.address,
                "ssh_user": h.ssh_user,
                "key_path": h.key_path,
                "host_key": new_host_key().public_line if h is server else h.host_key,
            }
            for h in testbed.hosts
        ],
    }
    r = client.post("/api/v1/testbeds", json=payload)
    assert r.status_code == 201, r.text
    status, error, _ = _run_once(db, r.json()["id"])
    assert status == RunStatus.FAILED
    assert error is not None and "host key changed" in error and server.name in error

    names = fake_arm.hosts.namespaces()
    assert provisioning.delete(arm, small_lab.resource_group)
    assert fake_arm.resource_ids() == []
    assert not set(names) & set(iter_namespaces())
