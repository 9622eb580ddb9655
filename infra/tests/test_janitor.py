"""The janitor against the fake ARM: expired mcscope groups are deleted with everything in
them (their hosts too); unexpired ones, groups without mcscope's tag and groups whose expiry
cannot be read are left alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.orm import Session

from backend.azure import provisioning
from backend.azure.arm import Arm
from backend.azure.janitor import sweep_once
from backend.azure.lab_spec import LabSpec
from backend.azure.resource_plan import TAG_EXPIRES, TAG_TESTBED
from backend.core.config import settings
from backend.core.queue import AZURE_JANITOR_TASK, AZURE_QUEUE
from backend.models import AzureLab, AzureLabStatus
from infra.tests.fake_arm import FakeArm, iter_namespaces
from worker.celery_app import app
from worker.live.publish import run_state
from worker.tasks.azure import sweep_expired_testbeds

# Reaches the test hosts but runs no load on them: with the load-free tests (conftest.py).
pytestmark = pytest.mark.hosts_without_load

NOW = datetime.now(UTC)


@pytest.mark.integration
def test_janitor_deletes_expired_groups_and_nothing_else(
    arm: Arm, fake_arm: FakeArm, small_lab: LabSpec, db: Session
) -> None:
    # Created five hours ago with the default four-hour expiry: expired an hour ago.
    provisioning.create(arm, small_lab, now=NOW - timedelta(hours=5))
    lab = AzureLab(
        name=small_lab.name,
        spec=small_lab.model_dump(mode="json"),
        status=AzureLabStatus.READY.value,
        progress=[],
        resource_group=small_lab.resource_group,
    )
    db.add(lab)
    db.commit()
    hosts = fake_arm.hosts.namespaces()
    assert len(hosts) == 3
    later = (NOW + timedelta(hours=1)).isoformat()
    earlier = (NOW - timedelta(days=2)).isoformat()
    fake_arm.add_group("mcscope-fresh", {TAG_TESTBED: "fresh", TAG_EXPIRES: later})
    # Someone else's group with an expiry-looking tag but not mcscope's testbed tag.
    fake_arm.add_group("not-ours", {TAG_EXPIRES: earlier, "team": "db"})
    fake_arm.add_group("no-tags-at-all")
    fake_arm.add_group("mcscope-garbled", {TAG_TESTBED: "x", TAG_EXPIRES: "soon"})

    sweep = sweep_once(arm, announce=run_state)
    assert sweep is not None
    assert sweep.deleted == ["mcscope-az"]
    assert sweep.unreadable == ["mcscope-garbled"]
    assert sweep.failed == {}
    assert fake_arm.resource_ids() == [
        "mcscope-fresh",
        "mcscope-garbled",
        "no-tags-at-all",
        "not-ours",
    ]
    assert not set(hosts) & set(iter_namespaces())
    deletes = {r.path.rsplit("/", 1)[1] for r in fake_arm.requests("DELETE")}
    assert deletes == {"mcscope-az"}

    # Its lab's cost stops accruing at the deletion.
    db.refresh(lab)
    assert lab.deleted_at is not None and lab.deleted_at >= NOW

    again = sweep_once(arm, announce=run_state)
    assert again is not None and again.deleted == []


def test_a_failing_deletion_is_reported_and_the_others_go_on(arm: Arm, fake_arm: FakeArm) -> None:
    expired = (NOW - timedelta(minutes=1)).isoformat()
    for name in ("mcscope-a", "mcscope-b"):
        fake_arm.add_group(name, {TAG_TESTBED: name, TAG_EXPIRES: expired})
    fake_arm.inject("DELETE", r"/resourcegroups/mcscope-a$", 409, "ScopeLocked", times=None)
    sweep = sweep_once(arm, announce=run_state)
    assert sweep is not None
    assert sweep.deleted == ["mcscope-b"]
    assert sweep.failed == {"mcscope-a": "ScopeLocked: injected ScopeLocked"}
    assert fake_arm.resource_ids() == ["mcscope-a"]


def test_without_a_subscription_the_task_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "AZURE_SUBSCRIPTION_ID", None)
    assert sweep_once(announce=run_state) is None


def test_the_janitor_is_on_the_beat_schedule() -> None:
    entry = next(e for e in app.conf.beat_schedule.values() if e["task"] == AZURE_JANITOR_TASK)
    assert entry["schedule"] == settings.AZURE_JANITOR_EVERY_S
    assert entry["options"]["queue"] == AZURE_QUEUE
    # The worker imports its task modules (celery_app's include); here the import does it.
    assert app.tasks[AZURE_JANITOR_TASK].name == sweep_expired_testbeds.name
