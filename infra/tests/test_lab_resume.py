"""A lab's creation outlives its worker: the real Celery worker creating it against the fake ARM
is killed (SIGKILL by PID) in the middle; the janitor queues it again and the next worker
finishes it, reusing what is there (the VM already made keeps its pinned key); a lab whose
workers keep dying has its group deleted. Either way the fake holds nothing orphaned."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from backend.azure import provisioning
from backend.azure.arm import Arm
from backend.azure.janitor import sweep_once
from backend.azure.lab_creation import MAX_ATTEMPTS
from backend.azure.lab_spec import LabSpec
from backend.azure.resource_plan import TAG_EXPIRES, TAG_TESTBED
from backend.core.host_keys import scan_host_key
from backend.core.queue import enqueue_azure_lab
from backend.models import AzureLabStatus, Testbed
from backend.tests.utils.processes import CeleryWorkerProcess
from infra.tests.fake_arm import FakeArm, iter_namespaces
from infra.tests.fake_azure_app import CA_ENV, URL_ENV
from infra.tests.labs import queue_lab
from worker.live.publish import run_state

# What happens to runs, not what their load measures (a lab's creation outlives its worker): run
# last in the load lane, beside the browser tests (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]


@pytest.fixture()
def lab_name() -> str:
    return "azresume"


def _azure_worker(fake: FakeArm, log_dir: Path) -> CeleryWorkerProcess:
    env = {URL_ENV: fake.base_url, CA_ENV: str(fake.cert)}
    return CeleryWorkerProcess(
        log_dir, env=env, app="infra.tests.fake_azure_app", queue_suffix=".azure"
    )


def _wait(what: str, done: object, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while not callable(done) or not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


@pytest.mark.timeout(300)
def test_a_creation_whose_worker_is_killed_is_finished_by_the_next(
    db: Session,
    arm: Arm,
    fake_arm: FakeArm,
    small_lab: LabSpec,
    tmp_path: Path,
) -> None:
    name = small_lab.name
    # The second VM's creation is throttled for a minute: the worker sleeps in azure-core's
    # retry policy, with the group, network, NICs and the first VM made. Killed there.
    middleware_vm = rf"/virtualMachines/{name}-middleware-1$"
    fake_arm.inject("PUT", middleware_vm, 429, "TooManyRequests", times=1, retry_after=60)
    row = queue_lab(db, small_lab)
    first = _azure_worker(fake_arm, tmp_path)
    first.start()
    try:
        enqueue_azure_lab(row.id)
        try:
            _wait("the throttled VM", lambda: fake_arm.requests("PUT", middleware_vm))
        except AssertionError as exc:
            db.refresh(row)
            raise AssertionError(f"{exc}: {row.status} {row.error}\n{first.log()}") from None
        first.kill()
    finally:
        first.stop()
    db.refresh(row)
    assert row.status == AzureLabStatus.CREATING.value
    assert row.attempt == 1
    assert row.progress[-1] == f"virtual machine {name}-server-1"
    assert set(row.host_keys) == {f"{name}-{r}-1" for r in ("server", "middleware", "client")}
    server_key = row.host_keys[f"{name}-server-1"]
    left = fake_arm.resource_ids()
    assert len(fake_arm.hosts.namespaces()) == 1  # the server VM, a live host

    second = _azure_worker(fake_arm, tmp_path)
    second.start()
    try:
        sweep = sweep_once(
            arm, announce=run_state
        )  # the janitor: the worker is dead, the lab is queued again
        assert sweep is not None and sweep.resumed == [row.id]

        def done() -> bool:
            db.expire_all()
            return row.status != AzureLabStatus.CREATING.value and row.attempt == 2

        _wait("the resumed creation", done)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\nfirst:\n{first.log()}\nsecond:\n{second.log()}") from None
    finally:
        second.stop()
    db.refresh(row)
    assert row.status == AzureLabStatus.READY.value, row.error
    # Nothing made twice: one PUT per resource the first attempt finished.
    for rid in left:
        assert len(fake_arm.requests("PUT", rf"/{rid.rsplit('/', 1)[-1]}$")) == 1, rid
    assert len(row.progress) == len(set(row.progress)) == 9
    testbed = db.get(Testbed, row.testbed_id)
    assert testbed is not None and len(testbed.hosts) == 3
    server = next(h for h in testbed.hosts if h.name == f"{name}-server-1")
    assert server.host_key == server_key  # pinned by the first attempt, kept
    for h in testbed.hosts:
        assert h.host_key == scan_host_key(h.address, 22)

    hosts = fake_arm.hosts.namespaces()
    assert provisioning.delete(arm, small_lab.resource_group)
    assert fake_arm.resource_ids() == []
    assert not set(hosts) & set(iter_namespaces())


def test_a_creation_whose_workers_keep_dying_is_cleaned_up(
    db: Session, arm: Arm, fake_arm: FakeArm, small_lab: LabSpec
) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    fake_arm.add_group(small_lab.resource_group, {TAG_TESTBED: small_lab.name, TAG_EXPIRES: "x"})
    row = queue_lab(db, small_lab)
    row.status = AzureLabStatus.CREATING.value
    row.attempt = MAX_ATTEMPTS
    row.worker = f"{socket.gethostname()}:{dead.pid}"
    db.commit()
    sweep = sweep_once(arm, announce=run_state)
    assert sweep is not None and sweep.given_up == [row.id]
    db.refresh(row)
    assert row.status == AzureLabStatus.FAILED.value
    assert row.error is not None and row.error.endswith(
        f"resource group {small_lab.resource_group} was deleted"
    )
    assert row.deleted_at is not None
    assert fake_arm.resource_ids() == []
