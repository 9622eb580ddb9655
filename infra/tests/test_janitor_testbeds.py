"""The janitor with the database: a testbed that expires during a running experiment has its
runs ended failed ("testbed expired") before its group goes, and leaves nothing; the group of
a failed creation is deleted; an idle testbed is deallocated; mcscope's groups the database
does not know are listed and deleted only on request, and a group without mcscope's tag is
refused."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.api.azure_deps import get_arm
from backend.azure import arm as azure
from backend.azure import provisioning
from backend.azure.arm import Arm
from backend.azure.janitor import sweep_once
from backend.azure.lab_spec import LabSpec
from backend.azure.resource_groups import delete_untracked
from backend.azure.resource_plan import TAG_EXPIRES, TAG_TESTBED
from backend.core.config import settings
from backend.core.queue import AZURE_DELETE_GROUP_TASK, AZURE_QUEUE
from backend.domain.azure_lab_states import TESTBED_EXPIRED
from backend.main import app
from backend.models import AzureLab, AzureLabStatus, RunAttempt, RunStatus
from infra.tests.fake_arm import FakeArm, iter_namespaces
from infra.tests.labs import SMALL_EXPERIMENT, fake_clients, ready_lab
from worker.live.publish import run_state
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import create_queued_experiment, in_load_phase, runs_of

# What happens to runs, not what their load measures (an expired testbed's runs end failed, its
# group goes): run last in the load lane, beside the browser tests
# (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]

FIXED = SMALL_EXPERIMENT
LATER = (datetime.now(UTC) + timedelta(hours=1)).isoformat()


_labs = itertools.count(1)


@pytest.fixture()
def lab_name() -> str:
    return f"azjan{next(_labs)}"  # testbed names are unique in the session's database


@pytest.mark.timeout(300)
def test_expiry_during_a_running_experiment_ends_its_runs_and_leaves_nothing(
    db: Session,
    arm: Arm,
    fake_arm: FakeArm,
    small_lab: LabSpec,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(settings, "SSH_KEY_DIR", Path(small_lab.ssh_private_key_path).parent)
    lab = ready_lab(db, fake_arm, small_lab)
    exp, run_ids = create_queued_experiment(
        db,
        factors={"clients_per_thread": [2, 4]},
        fixed=FIXED,
        run_time_s=5,  # long enough that the expiry finds the first run in its load
        testbed_id=lab.testbed_id,
    )
    running = threading.Thread(target=_execute_run, args=(run_ids[0],), daemon=True)
    running.start()
    deadline = datetime.now(UTC) + timedelta(seconds=120)
    while in_load_phase(runs_of(db, exp.id)) is None:
        assert running.is_alive(), [(r.status, r.error) for r in runs_of(db, exp.id)]
        assert datetime.now(UTC) < deadline, "the run never reached its load phase"
        threading.Event().wait(0.2)
    hosts = fake_arm.hosts.namespaces()

    # Time passes on Azure: the group's expiry tag is now in the past.
    with fake_arm.lock:
        group = fake_arm.state.groups[small_lab.resource_group.lower()]
        group["tags"][TAG_EXPIRES] = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    announced: list[tuple[int, int, str, str]] = []
    sweep = sweep_once(arm, announce=lambda *event: announced.append(event))
    assert sweep is not None
    assert sweep.runs_ended == sorted(run_ids)
    # Open pages are told of each run it ended (the task passes the live-event publisher).
    ended = (RunStatus.FAILED.value, TESTBED_EXPIRED)
    assert sorted(announced) == [(exp.id, r, *ended) for r in sorted(run_ids)]
    assert sweep.deleted == [small_lab.resource_group]
    running.join(timeout=120)
    assert not running.is_alive()
    runs = runs_of(db, exp.id)
    assert [(r.status, r.error) for r in runs] == [(RunStatus.FAILED, TESTBED_EXPIRED)] * 2
    assert fake_arm.resource_ids() == []
    assert not set(hosts) & set(iter_namespaces())
    db.refresh(lab)
    assert lab.deleted_at is not None
    # The run's worker let go without reaching for the deleted hosts again (each try would
    # wait on an SSH timeout): its attempt is finished, not cleared (nothing left to sweep).
    reached = {"run.stop_failed", "run.cleanup_failed", "attempt.sweep_failed"}
    assert not [r.getMessage() for r in caplog.records if r.getMessage() in reached]
    attempt = db.execute(
        select(RunAttempt.finished_at, RunAttempt.cleared_at).where(RunAttempt.run_id == run_ids[0])
    ).one()
    assert attempt.finished_at is not None and attempt.cleared_at is None


def test_an_idle_testbed_is_deallocated_once(
    db: Session, arm: Arm, fake_arm: FakeArm, small_lab: LabSpec
) -> None:
    lab = ready_lab(db, fake_arm, small_lab)
    fresh = sweep_once(arm, announce=run_state)
    assert fresh is not None and not fresh.anything()  # just made: not idle, nothing done
    idle_since = datetime.now(UTC) - timedelta(seconds=settings.AZURE_IDLE_DEALLOCATE_S + 60)
    db.execute(update(AzureLab).where(AzureLab.id == lab.id).values(updated_at=idle_since))
    db.commit()
    sweep = sweep_once(arm, announce=run_state)
    assert sweep is not None and sweep.deallocated == [small_lab.resource_group]
    states = {vm.power_state for vm in provisioning.status(arm, small_lab.resource_group)}
    assert states == {"deallocated"}
    db.refresh(lab)
    assert lab.status == AzureLabStatus.STOPPED.value  # the page offers Start
    again = sweep_once(arm, announce=run_state)
    assert again is not None and again.deallocated == []
    assert provisioning.delete(arm, small_lab.resource_group)
    assert fake_arm.resource_ids() == []


def test_the_group_of_a_failed_creation_is_deleted(
    db: Session, arm: Arm, fake_arm: FakeArm
) -> None:
    # Its creation failed and so did the engine's clean-up (the group is still there).
    fake_arm.add_group("mcscope-broken", {TAG_TESTBED: "broken", TAG_EXPIRES: LATER})
    row = AzureLab(
        name="broken",
        spec={},
        resource_group="mcscope-broken",
        status=AzureLabStatus.FAILED.value,
        progress=[],
        error="creating virtual machine broken-client-1 failed",
    )
    db.add(row)
    db.commit()
    sweep = sweep_once(arm, announce=run_state)
    assert sweep is not None and sweep.deleted == ["mcscope-broken"]
    assert fake_arm.resource_ids() == []
    db.refresh(row)
    assert row.deleted_at is not None


@pytest.fixture()
def api_on_fake(arm: Arm, fake_arm: FakeArm, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The API's and the delete task's Azure clients pointed at the fake."""

    def clients() -> Iterator[Arm]:
        yield arm

    app.dependency_overrides[get_arm] = clients
    monkeypatch.setattr(azure, "connect_from_settings", lambda: fake_clients(fake_arm))
    try:
        yield
    finally:
        app.dependency_overrides.pop(get_arm)
        r = redis.Redis.from_url(settings.REDIS_URL, decode_responses=True)
        for m in _deletion_messages():  # taken out: no later Azure worker runs them
            r.lrem(AZURE_QUEUE, 1, m)


def _deletion_messages() -> list[str]:
    r = redis.Redis.from_url(settings.REDIS_URL, decode_responses=True)
    return [str(m) for m in r.lrange(AZURE_QUEUE, 0, -1) if AZURE_DELETE_GROUP_TASK in str(m)]


def test_untracked_groups_are_listed_and_deleted_only_when_asked(
    db: Session, client: TestClient, fake_arm: FakeArm, api_on_fake: None
) -> None:
    fake_arm.add_group("mcscope-lost", {TAG_TESTBED: "lost", TAG_EXPIRES: LATER})
    fake_arm.add_group("mcscope-known", {TAG_TESTBED: "known", TAG_EXPIRES: LATER})
    fake_arm.add_group("someone-elses", {"team": "db"})
    db.add(
        AzureLab(
            name="known",
            spec={},
            resource_group="mcscope-known",
            status=AzureLabStatus.READY.value,
            progress=[],
        )
    )
    db.commit()
    r = client.get("/api/v1/azure-labs/untracked")
    assert r.status_code == 200, r.text
    assert r.json()["count"] == 1
    (lost,) = r.json()["data"]
    assert (lost["name"], lost["testbed"], lost["expires"]) == ("mcscope-lost", "lost", LATER)

    # The janitor lists it but does not delete it (not expired, not a failed creation).
    sweep = sweep_once(announce=run_state)
    assert sweep is not None and sweep.deleted == []

    r = client.delete("/api/v1/azure-labs/untracked/someone-elses")
    assert (r.status_code, r.json()["detail"]) == (
        409,
        "resource group has no mcscope-testbed tag: mcscope never touches it",
    )
    r = client.delete("/api/v1/azure-labs/untracked/mcscope-known")
    assert r.status_code == 409
    assert r.json()["detail"].startswith("resource group belongs to a lab mcscope knows")
    assert client.delete("/api/v1/azure-labs/untracked/nothing-here").status_code == 404
    r = client.delete("/api/v1/azure-labs/untracked/bad%20name!")
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "name"]
    assert _deletion_messages() == []

    before = len(_deletion_messages())
    r = client.delete("/api/v1/azure-labs/untracked/mcscope-lost")
    assert r.status_code == 202, r.text
    assert r.json()["name"] == "mcscope-lost"
    assert len(_deletion_messages()) == before + 1
    assert delete_untracked("mcscope-lost")  # the task's body, as the Azure worker runs it
    # Even asked directly, the engine refuses a group without mcscope's tag.
    with pytest.raises(provisioning.ProvisionError, match="not made by mcscope"):
        delete_untracked("someone-elses")
    assert fake_arm.resource_ids() == ["mcscope-known", "someone-elses"]


def test_untracked_groups_need_a_subscription(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "AZURE_SUBSCRIPTION_ID", None)
    r = client.get("/api/v1/azure-labs/untracked")
    assert (r.status_code, r.json()["detail"]) == (
        409,
        "MCSCOPE_AZURE_SUBSCRIPTION_ID is not set: no Azure subscription",
    )


def test_an_azure_failure_on_untracked_groups_is_a_502_naming_arms_error(
    client: TestClient, fake_arm: FakeArm, api_on_fake: None
) -> None:
    # 403 is not retried by the SDK: the engine's service turns it into one typed error.
    fake_arm.add_group("mcscope-lost", {TAG_TESTBED: "lost", TAG_EXPIRES: LATER})
    fake_arm.inject("GET", r"/resourcegroups$", 403, "AuthorizationFailed")
    r = client.get("/api/v1/azure-labs/untracked")
    assert (r.status_code, r.json()["detail"]) == (
        502,
        "Azure answered: AuthorizationFailed: injected AuthorizationFailed",
    )
    fake_arm.inject("GET", r"/resourcegroups/mcscope-lost$", 403, "AuthorizationFailed")
    r = client.delete("/api/v1/azure-labs/untracked/mcscope-lost")
    assert (r.status_code, r.json()["detail"]) == (
        502,
        "Azure answered: AuthorizationFailed: injected AuthorizationFailed",
    )
    assert _deletion_messages() == []  # nothing queued on a failed check
